"""Game feel and length: how close games are, how the lead moves, when they end.

From the primary policy's one-bot games: margins of victory, game length by
player count and end trigger, early endings by cause and by the planet at the
table (a designer must see a planet that ends games early), and, where the
runs kept the round score table, lead changes (:mod:`pu_sim.analysis.feel`).
"""

from __future__ import annotations

from typing import Any

import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.report.markdown import fmt, md_table, pct
from pu_sim.report.page import Page

__all__ = ["feel_section"]

SHOWN_LABELS = 3
"""Planets named per player count among the early endings (the most frequent)."""


def _interval(r: dict[str, Any], spec: str) -> str:
    return f"{fmt(r['mean'], spec)} [{fmt(r['lower'], spec)}, {fmt(r['upper'], spec)}]"


def _summary_rows(table: pl.DataFrame, share: str) -> list[list[str]]:
    return [
        [
            str(r["n_players"]),
            f"{r['games']:,}",
            _interval(r, ".2f"),
            " / ".join(fmt(r[k], ".0f") for k in ("p10", "median", "p90")),
            pct(r[share]),
            fmt(r["max"], ".0f"),
        ]
        for r in table.iter_rows(named=True)
    ]


def feel_section(
    page: Page, games: pl.DataFrame, bot: str, round_scores: pl.DataFrame | None
) -> None:
    """Margins, lead changes, length and early endings of ``bot``'s games."""
    mine = games.filter(
        (pl.col("bot").cast(pl.String) == bot) & (pl.col("n_bots") == 1)
    )
    if mine.height == 0 or "end_trigger" not in mine.columns:
        return
    parts = [f"Every seat played by {bot}; one row per game."]
    margins = analysis.margin_summary(mine)
    if margins.height:
        page.table("feel_margins", margins)
        parts.append(
            "**Margin of victory** (winner's score minus the runner-up's, points; "
            "95% t interval):\n\n"
            + md_table(
                _summary_rows(margins, "share_tied"),
                [
                    "players",
                    "games",
                    "mean [95% CI]",
                    "p10 / median / p90",
                    "tied for first",
                    "largest",
                ],
            )
        )
    leads = _lead_part(page, mine, round_scores, bot)
    if leads:
        parts.append(leads)
    length = analysis.game_length(mine)
    page.table("feel_length", length)
    parts.append(
        "**Game length** by player count and what ended the game (cannot_place: a "
        "player could not place a tile, rules 9.1 A; depot_empty: 9.1 B; events: "
        "the event deck's last card, 9.1 C):\n\n"
        + md_table(
            [
                [
                    str(r["n_players"]),
                    str(r["end_trigger"]),
                    f"{r['games']:,}",
                    pct(r["share"]),
                    fmt(r["mean_rounds"], ".1f"),
                    f"{fmt(r['min_rounds'], '.0f')}-{fmt(r['max_rounds'], '.0f')}",
                    f"{r['early']:,}",
                ]
                for r in length.iter_rows(named=True)
            ],
            [
                "players",
                "end trigger",
                "games",
                "share",
                "mean rounds",
                "range",
                f"over before round {analysis.feel.FULL_ROUNDS}",
            ],
        )
    )
    parts.append(_early_part(page, mine, bot))
    parts.append(
        page.figure(
            "feel_length",
            _length_figure(length),
            f"Rounds played by player count and end trigger ({bot}).",
        )
    )
    page.section(f"Game feel and length ({bot})", *parts)


def _lead_part(
    page: Page, games: pl.DataFrame, round_scores: pl.DataFrame | None, bot: str
) -> str:
    """Lead changes per game, where the runs kept their round scores."""
    if round_scores is None:
        return (
            "Lead changes: these runs kept no round score table (play them with "
            "`round_scores=True`)."
        )
    keys = games.filter(pl.col("n_players") >= 2).select("run", "game_id").unique()
    table = round_scores.join(keys, on=["run", "game_id"], maintain_order="left")
    if table.height == 0:
        return ""
    summary = analysis.lead_change_summary(table)
    page.table("feel_lead_changes", summary)
    for r in summary.iter_rows(named=True):
        page.headlines.append(
            f"**Lead changes, {r['n_players']} players ({bot}):** "
            f"{fmt(r['mean'], '.1f')} per game [{fmt(r['lower'], '.1f')}, "
            f"{fmt(r['upper'], '.1f')}]; {pct(r['share_none'])} of games are led "
            "by one player from the first round on."
        )
    return (
        "**Lead changes** per game (the sole leader after a round differs from "
        "the last sole leader; scores after each round counted as if the game "
        "ended then; 95% t interval):\n\n"
        + md_table(
            _summary_rows(summary, "share_none"),
            [
                "players",
                "games",
                "mean [95% CI]",
                "p10 / median / p90",
                "no change",
                "most",
            ],
        )
    )


def _early_part(page: Page, games: pl.DataFrame, bot: str) -> str:
    """Early endings by cause, and the planets whose tables end early most."""
    causes = analysis.early_endings(games)
    page.table("feel_early_endings", causes)
    by_planet = analysis.early_endings(
        games.filter(pl.col("n_players") >= 2), by="planet"
    )
    page.table("feel_early_endings_by_planet", by_planet)
    rows = [
        [
            str(r["n_players"]),
            str(r["cause"]),
            f"{r['games']:,}",
            f"{r['early']:,}",
            f"{pct(r['rate'])} [{pct(r['lower'])}, {pct(r['upper'])}]",
        ]
        for r in causes.iter_rows(named=True)
    ]
    text = [
        f"**Early endings** (over before round {analysis.feel.FULL_ROUNDS}) by "
        "cause, 95% Wilson intervals:\n\n"
        + md_table(rows, ["players", "cause", "games", "early", "rate [95% CI]"])
    ]
    worst = by_planet.filter(
        (pl.col("cause") == analysis.feel.ANY_CAUSE)
        & (pl.col("lower") > pl.col("rate_without"))
    ).sort(
        "n_players",
        pl.col("rate") - pl.col("rate_without"),
        descending=[False, True],
    )
    if worst.height:
        rows = [
            [
                str(r["n_players"]),
                str(r["planet"]),
                f"{r['games']:,}",
                f"{pct(r['rate'])} [{pct(r['lower'])}, {pct(r['upper'])}]",
                pct(r["rate_without"]),
            ]
            for r in worst.iter_rows(named=True)
        ]
        text.append(
            "Planets whose tables end early more often than tables without them "
            "(the interval's lower limit above the rate without the planet):\n\n"
            + md_table(
                rows,
                [
                    "players",
                    "planet at the table",
                    "games",
                    "early [95% CI]",
                    "without it",
                ],
            )
        )
        for (n,), part in worst.partition_by(
            "n_players", as_dict=True, maintain_order=True
        ).items():
            items = [
                f"{r['planet']} {pct(r['rate'])} (without it {pct(r['rate_without'])})"
                for r in part.head(SHOWN_LABELS).iter_rows(named=True)
            ]
            page.headlines.append(
                f"**Early endings, {n} players ({bot}):** games with "
                + "; ".join(items)
                + " end before the last round more often."
            )
    return "\n\n".join(text)


def _length_figure(length: pl.DataFrame) -> Figure:
    fig = Figure(figsize=(7.0, 3.6), layout="constrained")
    ax = fig.add_subplot()
    triggers = length["end_trigger"].unique().sort().to_list()
    counts = length["n_players"].unique().sort().to_list()
    width = 0.8 / max(len(triggers), 1)
    for k, trigger in enumerate(triggers):
        part = length.filter(pl.col("end_trigger") == trigger)
        xs = [counts.index(n) + k * width for n in part["n_players"].to_list()]
        ax.bar(xs, part["mean_rounds"].to_list(), width=width, label=str(trigger))
    ax.set_xticks(
        [i + 0.4 - width / 2 for i in range(len(counts))],
        [f"{n} players" for n in counts],
    )
    ax.set_ylabel("mean rounds played (rounds)")
    ax.set_title("Game length by player count and end trigger")
    ax.legend(title="end trigger", fontsize=7)
    return fig
