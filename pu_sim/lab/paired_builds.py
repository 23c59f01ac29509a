"""The paired effect of a bot change: the same games under two builds.

A change to how a bot values something (a corporation's power, a lookahead)
changes only some of its moves, so it is judged on identical games:
:func:`play_seat` plays one table's games with the build this process
imports and keeps seat 0's results; played once in each checkout with the same
arguments, :func:`compare` gives the mean difference per game with a 95%
interval and the share of games the change touched
(``experiments/bots/paired_builds.py``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from pu_sim.lab.common import in_chunks, paired, play_records
from pu_sim.simulation.table import TableSetup

__all__ = ["COLUMNS", "compare", "play_seat"]

COLUMNS = ("score", "won", "score_lifepods", "score_tracks", "score_planet")
"""Seat 0's results kept per game."""


def _seat_zero(games: range, table: TableSetup, seed: int) -> pl.DataFrame:
    out = play_records(table, len(games), seed, games.start)
    seat = out[out["seat"] == 0]
    return pl.DataFrame({"game_id": seat["game_id"], **{c: seat[c] for c in COLUMNS}})


def play_seat(
    corporation: str,
    *,
    players: int = 4,
    games: int = 4000,
    bot: str = "greedy_tuned",
    seed: int = 11,
    n_jobs: int = 2,
) -> pl.DataFrame:
    """Seat 0 (`corporation`) of `games` games, one row per game in order.

    The other seats' boards are random; the same arguments give the same games
    under any build of the same rules.
    """
    table = TableSetup(
        players=players,
        bots=bot,
        corporations=[corporation] + ["random"] * (players - 1),
        planets="random",
    )
    return pl.concat(in_chunks(_seat_zero, games, n_jobs, table, seed))


def compare(before: Path | pl.DataFrame, after: Path | pl.DataFrame) -> pl.DataFrame:
    """Per column: both means, the paired difference (after - before).

    With its 95% interval (normal, over games) and the share of games whose
    value changed.
    """
    a = before if isinstance(before, pl.DataFrame) else pl.read_parquet(before)
    b = after if isinstance(after, pl.DataFrame) else pl.read_parquet(after)
    if a["game_id"].to_list() != b["game_id"].to_list():
        raise ValueError("the two files hold different games: play the same arguments")
    rows = []
    for c in COLUMNS:
        x = a[c].cast(pl.Float64).to_numpy()
        y = b[c].cast(pl.Float64).to_numpy()
        diff, half = paired(y, x)
        rows.append({
            "column": c, "before": float(x.mean()), "after": float(y.mean()),
            "difference": diff, "ci95": half,
            "games_changed": float(np.mean(x != y)),
        })  # fmt: skip
    return pl.DataFrame(rows)
