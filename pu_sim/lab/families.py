"""Which family of play gets more out of each board: one lone seat among the other's.

The studies' third opinion (policy_td, values learned by self-play) reads some
corporations far from the two greedy policies.  Whether that is the board or
one family's way of playing it, tables of one family cannot tell: the
opponents change with the player.  Mixed tables can.  One seat of family a
among seats of family b, and the reverse, with the odd seat at every position
on the same setups: for each board, the lone a seat's odds of winning with it
over the lone b seat's (:mod:`pu_sim.analysis.mixed_skill`, whose "strong" and
"weak" are here just a and b).  A board's own strength adds to both and
cancels; each family's overall edge at such tables cancels in the ratio to the
count's mean.  What stays is how much more one family's play of the board wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter

from pu_sim.analysis import mixed_skill
from pu_sim.analysis.clusters import cluster_means
from pu_sim.report import plots
from pu_sim.report.markdown import fmt, md_table
from pu_sim.studies.policies import lone_seat_tables

__all__ = [
    "KINDS",
    "family_findings",
    "figure",
    "lone_strength",
    "ok_games",
    "report_text",
    "table_runs",
]

KINDS = ("corporation", "planet")

LOG_COLUMNS = ("excess_ratio", "excess_ratio_lower", "excess_ratio_upper")
"""Drawn on the log scale, where a ratio and its inverse sit alike about 1."""


def table_runs(
    players: Sequence[int], a: Any, b: Any, n_games: int
) -> list[tuple[str, int, tuple[Any, ...], int]]:
    """``(name, players, bots per seat, games)`` of every mixed run.

    Per player count the tables of :func:`~pu_sim.studies.policies.
    lone_seat_tables` share ``n_games`` (whole setups) and their setups.
    """
    runs = []
    for p in players:
        tables = lone_seat_tables(p, a, b)
        per_run = p * max(2, round(n_games / len(tables) / p))
        runs += [(name, p, bots, per_run) for name, bots in tables]
    return runs


def ok_games(played: pl.DataFrame) -> tuple[pl.DataFrame, int]:
    """The games that ended ``ok``, and how many did not (said in the report)."""
    games = played.filter(pl.col("status") == "ok")
    keys = ["run", "game_id"]
    return games, played.select(keys).unique().height - games.select(
        keys
    ).unique().height


def family_findings(games: pl.DataFrame, a: str, b: str) -> pl.DataFrame:
    """Every board's lone-seat win rates, odds ratio and replicated excess.

    One Holm family per kind of board (every player count); ``kind`` and
    ``name`` name the board.
    """
    parts = []
    for kind in KINDS:
        table = mixed_skill.skill_findings(games, strong=a, weak=b, by=kind)
        parts.append(
            table.with_columns(kind=pl.lit(kind), name=pl.col(kind).cast(pl.String))
            .drop(kind)
        )  # fmt: skip
    out = pl.concat(parts, how="diagonal_relaxed")
    return out.sort(
        ["n_players", "kind", "excess_ratio"], descending=[False, False, True]
    )


def lone_strength(games: pl.DataFrame, a: str, b: str) -> pl.DataFrame:
    """Each family's lone seat's win share per player count, over every board.

    Which family is the stronger at these tables, for the report to say
    rather than a sentence written by hand; intervals cluster over setups.
    ``bot`` names the lone seat's family.
    """
    seats = mixed_skill.lone_seats(games, a, b)
    table = cluster_means(seats, by=("level",), value="win_share", cluster="group")
    return table.with_columns(
        bot=pl.when(pl.col("level") == "strong").then(pl.lit(a)).otherwise(pl.lit(b))
    ).select("n_players", "bot", "n", "clusters", "mean", "lower", "upper")


def _strength_lines(strength: pl.DataFrame, a: str, b: str) -> list[str]:
    """One line per player count: both lone seats' win shares and the fair one."""
    lines = []
    for (n,), part in strength.partition_by(
        "n_players", as_dict=True, maintain_order=True
    ).items():
        rows = {r["bot"]: r for r in part.iter_rows(named=True)}
        shown = [
            f"the lone {bot} seat {fmt(rows[bot]['mean'], '%')} "
            f"[{fmt(rows[bot]['lower'], '%')}, {fmt(rows[bot]['upper'], '%')}]"
            for bot in (a, b)
            if bot in rows
        ]
        lines.append(
            f"- **{n} players** (fair {fmt(1 / n, '%')}): " + ", ".join(shown) + "."
        )
    return lines


def _side(r: dict[str, Any], a: str, b: str) -> str:
    if not r["replicated"]:
        return "–"
    return f"**{a}**" if r["excess_ratio"] > 1 else f"**{b}**"


def _rows(part: pl.DataFrame, a: str, b: str) -> list[list[str]]:
    return [
        [
            str(r["name"]),
            f"{r['n_strong']:,} / {r['n_weak']:,}",
            f"{fmt(r['strong_rate'], '%')} / {fmt(r['weak_rate'], '%')}",
            f"{fmt(r['odds_ratio'], '.2f')} [{fmt(r['odds_ratio_lower'], '.2f')}, "
            f"{fmt(r['odds_ratio_upper'], '.2f')}]",
            f"{fmt(r['excess_ratio'], '.2f')} [{fmt(r['excess_ratio_lower'], '.2f')}, "
            f"{fmt(r['excess_ratio_upper'], '.2f')}]",
            fmt(r["excess_conf"], ".2f") if r["declared"] else "–",
            _side(r, a, b),
        ]
        for r in part.iter_rows(named=True)
    ]


RATIO_TICKS = (1 / 16, 1 / 8, 1 / 4, 1 / 2, 1.0, 2.0, 4.0, 8.0, 16.0)
"""The ratio axis's ticks: halvings and doublings, symmetric about 1."""


def _ratio_label(x: float, _: int) -> str:
    """A log ratio as the ratio: 1/4, 1/2, 1, 2, 4."""
    ratio = float(np.exp(x))
    return f"{ratio:.0f}" if ratio >= 1 else f"1/{1 / ratio:.0f}"


def figure(table: pl.DataFrame, a: str, b: str) -> Figure:
    """One panel per player count: each corporation's excess ratio, log scale."""
    corps = table.filter(pl.col("kind") == "corporation")
    counts = corps["n_players"].unique().sort().to_list()
    rows = max(corps.filter(pl.col("n_players") == n).height for n in counts)
    fig, axes = plots.panel_figure(len(counts), 4.8, 0.32 * rows + 1.8, min_width=8.0)
    for ax, n in zip(axes, counts, strict=True):
        part = corps.filter(pl.col("n_players") == n).with_columns(
            [pl.col(c).log().alias(f"log_{c}") for c in LOG_COLUMNS]
        )
        plots.plot_two_policies(
            ax, part, label="name",
            policies=[("over the count's mean", "log_excess_ratio",
                       "log_excess_ratio_lower", "log_excess_ratio_upper")],
            xlabel="odds ratio over the count's mean (log scale)",
            bold="replicated",
        )  # fmt: skip
        ax.xaxis.set_major_locator(FixedLocator(np.log(RATIO_TICKS).tolist()))
        ax.xaxis.set_major_formatter(FuncFormatter(_ratio_label))
        ax.set_title(f"{n} players")
    fig.suptitle(f"{a}'s lone seat over {b}'s: who gets more out of each corporation")
    return fig


def _intro(a: str, b: str, games: int, left_out: int) -> str:
    """What was played and what each column means."""
    skipped = (
        f" ({left_out:,} more did not end ok and are left out)" if left_out else ""
    )
    return (
        f"{games:,} games{skipped}. At every table one seat plays **{a}** among "
        f"**{b}** seats, or one **{b}** seat among **{a}** seats, the lone seat "
        "at every position on the same setups (boards random, rotated over the "
        f"seats). For each board: the lone {a} seat's win rate holding it and "
        f"the lone {b} seat's; the *odds ratio*, the lone {a} seat's odds of "
        f"winning with the board over the lone {b} seat's (the board's own "
        "strength adds to both and cancels); and that ratio *over the count's "
        "mean* (the geometric mean of the count's boards), so each family's "
        f"overall edge at such tables cancels: above 1 where {a}'s play of the "
        f"board gains more than its play of the average board, compared with "
        f"{b}'s. Intervals are cluster-robust over setups (95%); a finding is "
        "declared on one half of the setups (Holm over every board and count of "
        "its kind) and confirmed in the same direction on the other (one-sided, "
        "Holm over the declared ones): *gets more* names the family whose play "
        "gains more with the board, where it replicates; *confirming half* is "
        "the ratio on the half that did not declare it."
    )


def _headlines(table: pl.DataFrame, a: str, b: str) -> list[str]:
    """One line per player count: the replicated boards and which family gains."""
    found = table.filter(pl.col("replicated"))
    heads = []
    for (n,), part in found.partition_by(
        "n_players", as_dict=True, maintain_order=True
    ).items():
        items = [
            f"{r['name']} x{fmt(r['excess_conf'], '.2f')} "
            f"({a if r['excess_ratio'] > 1 else b} gets more)"
            for r in part.iter_rows(named=True)
        ]
        heads.append(f"- **{n} players:** " + "; ".join(items) + ".")
    return heads or [
        "- No board's excess ratio replicates on both halves of the setups."
    ]


HEADER = ("board", "seats ({a} / {b})", "lone-seat win rate ({a} / {b})",
          "odds ratio [95% CI]", "over the count's mean [95% CI]",
          "confirming half", "gets more")  # fmt: skip


def report_text(
    *,
    table: pl.DataFrame,
    strength: pl.DataFrame,
    a: str,
    b: str,
    command: str,
    games: int,
    left_out: int = 0,
    runs: Sequence[tuple[str, int]] = (),
) -> str:
    """The README: what was played, the glossary, the headlines, the tables.

    ``strength``: :func:`lone_strength`; ``left_out``: games that did not end
    ``ok`` (a bot's loop stopped by the engine's decision limit), said at the
    top rather than counted; ``runs``: each run folder's name and games.
    """
    header = [h.format(a=a, b=b) for h in HEADER]
    sections = [
        f"### {n} players, {kind}s\n\n" + md_table(_rows(part, a, b), header)
        for (n, kind), part in table.partition_by(
            ["n_players", "kind"], as_dict=True, maintain_order=True
        ).items()
    ]
    parts = [
        f"# Which family of play gets more out of each board: {a} or {b}",
        f"`{command}`",
        _intro(a, b, games, left_out),
        "## Headline findings",
        "\n".join(_headlines(table, a, b)),
        "![excess odds ratio per corporation](figures/families.png)",
        f"*Each corporation's odds ratio ({a}'s lone seat over {b}'s) over its "
        "player count's mean, log scale, with 95% cluster-robust intervals; "
        "replicated findings in bold; one panel per player count.*",
        "## Which family is the stronger at these tables",
        "Each lone seat's win share over every board (a tie shared), with "
        "95% cluster-robust intervals over setups; the board ratios above "
        "cancel this edge.\n\n" + "\n".join(_strength_lines(strength, a, b)),
        "## Every board",
        *sections,
        "## Runs and reproducibility",
        "The command above plays every game again (same seeds, same games) from "
        "the run folders under `runs/` (git-ignored; it resumes an interrupted "
        "run); every run of a player count shares its setups.\n\n"
        + md_table([[f"`{name}`", f"{n:,}"] for name, n in runs], ["run", "games"]),
    ]
    return "\n\n".join(parts) + "\n"
