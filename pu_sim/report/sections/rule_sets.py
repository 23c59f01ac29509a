"""Runs played under different rules, side by side and never pooled.

When a report's multiplayer runs were played under different rule options or
variants, the balance sections read only one rule set (the one with the most
games).  This section puts every rule set's headline numbers next to each
other: games, mean score and rounds per player count, and each corporation's
and planet's win rate minus 1/n with intervals clustered by setup, one column
per rule set.  The rule sets' setups differ, so a difference between columns
is not a paired comparison: ``pu-sim compare`` plays them on the same setups.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pu_sim import analysis
from pu_sim.report.markdown import fmt, md_table
from pu_sim.report.page import Page
from pu_sim.report.runs import RunInfo
from pu_sim.report.sections.verdicts import CLUSTER
from pu_sim.report.sections.warnings import rule_sets

__all__ = ["side_by_side", "side_by_side_section"]


def side_by_side(games: pl.DataFrame, sets: dict[str, list[str]]) -> pl.DataFrame:
    """Each rule set's effects (long): rules, n_players, kind, name, win_pp, CI.

    ``sets`` maps a rule set's text to its runs' names (the ``run`` column).
    """
    frames = []
    for rules, runs in sets.items():
        part = games.filter(pl.col("run").cast(pl.String).is_in(runs))
        if part.height == 0:
            continue
        table = analysis.verdict_table(part, part, cluster=CLUSTER, replicate=False)
        frames.append(
            table.select(
                pl.lit(rules).alias("rules"),
                "n_players",
                "kind",
                "name",
                win_pp="win_pp_a",
                win_lower="win_lower_a",
                win_upper="win_upper_a",
            )
        )
    return pl.concat(frames) if frames else pl.DataFrame()


def side_by_side_section(
    page: Page, games: pl.DataFrame, infos: Sequence[RunInfo]
) -> None:
    """The rule sets' summaries and effects next to each other (2+ rule sets)."""
    multi = [i for i in infos if isinstance(i.players, int) and i.players >= 2]
    sets = rule_sets(multi)
    if len(sets) < 2:
        return
    names = {rules: f"rules {k + 1}" for k, rules in enumerate(sets)}
    legend = "\n".join(
        f"- **{names[r]}**: {r} (runs {', '.join(f'`{n}`' for n in runs)})"
        for r, runs in sets.items()
    )
    summary_rows = []
    for rules, runs in sets.items():
        part = games.filter(pl.col("run").cast(pl.String).is_in(runs))
        for (n,), g in part.partition_by("n_players", as_dict=True).items():
            n_games = g.select(pl.struct("run", "game_id").n_unique()).item()
            rounds = g["rounds"].mean() if "rounds" in g.columns else None
            summary_rows.append(
                [names[rules], str(n), f"{n_games:,}", fmt(g["score"].mean(), ".1f"),
                 fmt(rounds, ".2f")]
            )  # fmt: skip
    long = side_by_side(games, sets)
    page.table("rules_side_by_side", long)
    parts = [
        "The multiplayer runs were played under different rules. They are never "
        "pooled; here each rule set stands on its own, next to the others. Their "
        "setups differ, so a difference between columns is not paired "
        "(`pu-sim compare` plays rule sets on the same setups).",
        legend,
        md_table(
            sorted(summary_rows, key=lambda r: (int(r[1]), r[0])),
            ["rules", "players", "games", "mean score", "mean rounds"],
        ),
    ]
    if long.height:
        wide = long.with_columns(
            cell=pl.format(
                "{} [{}, {}]",
                pl.col("win_pp").round(1),
                pl.col("win_lower").round(1),
                pl.col("win_upper").round(1),
            ),
            rules=pl.col("rules").replace_strict(names),
        ).pivot("rules", index=["n_players", "kind", "name"], values="cell")
        columns = [names[r] for r in sets if names[r] in wide.columns]
        rows = [
            [str(r["n_players"]), str(r["kind"]), str(r["name"]),
             *(str(r[c]) if r[c] is not None else "–" for c in columns)]
            for r in wide.sort("n_players", "kind", "name").iter_rows(named=True)
        ]  # fmt: skip
        parts.append(
            "Win rate minus 1/n (percentage points) with 95% intervals clustered "
            "by setup, per rule set:"
        )
        parts.append(md_table(rows, ["players", "kind", "name", *columns]))
    page.section("Rules side by side", *parts)
