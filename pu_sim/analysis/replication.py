"""Replication: declare a finding on one half of the setups, confirm it on the other.

A finding selected because it crossed a threshold on a sample is biased away
from zero on that sample (the winner's curse), and a handful of findings among
dozens of tests cross it by chance.  So every study's setups are split in two
independent halves by their key's hash (:func:`split_halves`, the same split
for every policy that played them): a finding is declared on one half with the
study's correction, and kept only if the other half confirms it in the same
direction (:func:`confirmed`: one-sided p-values, adjusted over the declared
findings).  The confirming half's estimate is the size to quote.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.clusters import cluster_key
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.stats import Correction

__all__ = ["MIN_HALF_SETUPS", "confirmed", "one_sided", "setups_per_count",
           "split_halves"]  # fmt: skip

MIN_HALF_SETUPS = 4
"""Setups each half needs at every player count to declare or confirm anything;
with fewer a study declares on every setup and confirms nothing."""


def split_halves(
    games: Frame, *, cluster: str | Sequence[str] | None = None, group_size: int = 1
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The games in two halves of their setups: discovery and confirmation.

    A setup goes to one half by its key's hash, so every policy that played a
    setup has it in the same half, and the halves are independent samples of
    the same design.
    """
    frame = games.lazy().collect()
    key, _ = cluster_key(frame.columns, cluster, group_size)
    half = frame.select((key.hash(seed=0) % 2).alias("_half"))["_half"]
    return frame.filter(half == 0), frame.filter(half == 1)


def setups_per_count(
    games: pl.DataFrame, cluster: str | Sequence[str] | None, group_size: int
) -> int:
    """The fewest setups any multiplayer player count has in ``games``."""
    key, _ = cluster_key(games.columns, cluster, group_size)
    counts = (
        games.filter(pl.col("n_players") >= 2)
        .select("n_players", key.alias("_k"))
        .group_by("n_players")
        .agg(pl.col("_k").n_unique())
    )
    return min(counts["_k"].to_list(), default=0)


def one_sided(
    estimate: npt.ArrayLike, p_two: npt.ArrayLike, sign: npt.ArrayLike
) -> npt.NDArray[np.float64]:
    """The one-sided p-value of an effect in the direction ``sign`` (+1 or -1).

    From a symmetric test's two-sided p-value: half of it when the estimate
    points that way, one minus half of it when it points the other way.
    """
    est, p, s = (np.asarray(v, dtype=np.float64) for v in (estimate, p_two, sign))
    with np.errstate(invalid="ignore"):
        return np.asarray(np.where(np.sign(est) == s, p / 2.0, 1.0 - p / 2.0))


def confirmed(
    p_one: npt.ArrayLike,
    declared: npt.ArrayLike,
    alpha: float = 0.05,
    correction: Correction = "holm",
) -> npt.NDArray[np.bool_]:
    """Which declared findings the confirming half confirms (adjusted over them)."""
    p = np.asarray(p_one, dtype=np.float64)
    chosen = np.asarray(declared, dtype=np.bool_)
    out = np.zeros(p.shape, dtype=np.bool_)
    if chosen.any():
        adjusted = stats.adjust(np.nan_to_num(p[chosen], nan=1.0), correction)
        out[chosen] = adjusted < alpha
    return out
