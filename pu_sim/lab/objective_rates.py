"""Objective rates: how often a bot meets each private objective card it keeps.

Solo base games (Universal Coalition on KSB-4156, balanced 7/7/6 event deck):
for each of the 28 private cards, the games in which the bot kept it and the
share of those in which it was met at the end, with a Wilson interval.  The
greedy bot's setup discard (draw 4, keep 3) gives up the card with the lowest
rate: these rates, to 3 significant digits, are the ``objective_rate`` table.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl

from pu_sim.analysis import stats
from pu_sim.engine import load_rules
from pu_sim.report.markdown import frame_table

FIRST_CARD = 37  # objective ids run 37..64; the table indexes them from 0


def card_rates(games: pl.DataFrame) -> pl.DataFrame:
    """One row per private card: games it was kept, games it was met, rate."""
    cards = load_rules().data.objectives
    kept = (
        games.select("private_cards", "private_met")
        .explode("private_cards")
        .drop_nulls("private_cards")
        .with_columns(met=pl.col("private_met").list.contains(pl.col("private_cards")))
        .group_by(card=pl.col("private_cards").cast(pl.Int64))
        .agg(kept=pl.len(), met=pl.col("met").sum())
    )
    names = pl.DataFrame(
        {"card": [c.id for c in cards], "name": [c.private.name for c in cards]}
    )
    table = names.join(kept, on="card", how="left").fill_null(0).sort("card")
    lo, hi = stats.wilson_interval(table["met"].to_numpy(), table["kept"].to_numpy())
    return table.with_columns(
        rate=pl.col("met") / pl.col("kept"),
        lower=pl.Series(lo),
        upper=pl.Series(hi),
    )


def table_arrays(rates: pl.DataFrame) -> dict[str, np.ndarray[Any, Any]]:
    """The objective_rate table: each card's rate to 3 significant digits.

    Indexed by card id - 37; a card never kept reads 0.
    """
    values = [float(f"{r:.3g}") if r == r else 0.0 for r in rates["rate"].to_list()]
    return {"rate": np.asarray(values, dtype=np.float64)}


def report_text(
    label: str, n_games: int, command: str, rates: pl.DataFrame, mean_objectives: float
) -> str:
    """The README: headline findings, the rates with their intervals, the table."""
    shown = rates.select(
        "card", "name", "kept", "met",
        pl.format("{} [{}, {}]", *(pl.col(c).round(3) for c in ("rate", "lower",
                                                                "upper")))
        .alias("rate [95%]"),
    )  # fmt: skip
    kept = rates.filter(pl.col("kept") > 0)
    never: list[str] = kept.filter(pl.col("met") == 0)["name"].to_list()
    best = kept.sort("rate", descending=True).row(0, named=True)
    table = ", ".join(f"{v:g}" for v in table_arrays(rates)["rate"])
    return (
        f"# Private objective rates of {label}\n\n"
        f"{n_games:,} solo base games (Universal Coalition on KSB-4156, "
        "7/7/6 event deck).\n\n"
        "## Headline findings\n\n"
        f"- Most often met: {best['name']} ({best['rate']:.0%} of "
        f"{best['kept']:,} games that kept it).\n"
        f"- Never met: {', '.join(never) if never else 'none'}.\n"
        f"- Mean objective points: {mean_objectives:.2f} (of 15).\n\n"
        "## Rates\n\n"
        f"{frame_table(shown)}\n\n"
        "![rates](figures/objective_rates.png)\n\n"
        "## The fitted table\n\n"
        "The greedy bot's setup discard reads these rates (the `objective_rate` "
        "table in `pu_sim/data/fitted`, written with `--write`; "
        "tests/test_greedy_features.py keeps every value in this report's "
        f"intervals), by card id - {FIRST_CARD}:\n\n"
        f"```\n{table}\n```\n\n"
        "## Runs and reproducibility\n\n"
        f"`{command}`. The games are in `runs/{label}` (not committed; the command "
        "replays them); the manifest has the versions and timing.\n"
    )
