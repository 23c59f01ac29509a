"""Corporation x planet cells: how far each pairing is from fair, corrected.

With dozens of cells a few look significant by chance, so every cell of the
table is one family (all player counts) for the multiple-comparison
correction.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.clusters import (
    DEFAULT_BOOTSTRAP,
    WIN_SHARE,
    Method,
    cluster_means,
    cluster_win_rates,
)
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.stats import Correction

__all__ = ["cell_effects"]


def cell_effects(
    games: Frame,
    *,
    row: str = "corporation",
    col: str = "planet",
    value: str = WIN_SHARE,
    correction: Correction = "holm",
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """Corporation x planet cells: effect, cluster CI, adjusted p, ``significant``.

    The effect of a cell is how far its rows are from fair: for
    ``value="win_share"`` the win rate minus 1/n, for ``"score_vs_table"``
    the score against the game's mean, otherwise the mean of ``value``.  With
    dozens of cells a few would look significant by chance, so p-values are
    adjusted over every cell of the table (all player counts): ``"holm"``
    controls the chance of any false flag, ``"bh"`` the expected share of
    false flags among the flagged (more findings, some false).

    Returns
    -------
    polars.DataFrame
        ``n_players, {row}, {col}, n, clusters, effect, lower, upper,
        p_value, p_adjusted, significant``.
    """
    alpha = 1.0 - confidence
    if value == WIN_SHARE:
        table = cluster_win_rates(
            games, by=[row, col], cluster=cluster, group_size=group_size,
            confidence=confidence, method=method, n_boot=n_boot, seed=seed,
        ).rename({"excess": "effect"})  # fmt: skip
    else:
        table = cluster_means(
            games, by=[row, col], value=value, cluster=cluster,
            group_size=group_size, confidence=confidence, method=method,
            n_boot=n_boot, seed=seed,
        ).rename({"mean": "effect"})  # fmt: skip
    adjusted = stats.adjust(table["p_value"].to_numpy(), correction)
    return table.select(
        "n_players", row, col, "n", "clusters", "effect", "lower", "upper",
        "p_value", p_adjusted=pl.Series(adjusted),
        significant=pl.Series(adjusted < alpha),
    )  # fmt: skip
