"""Skill depth: whether a better player gains more with some corporations.

A game is deep where skill pays, and fair across corporations where it pays
about equally with each; TAG's 2025 balancing competition judges balance this
way, across levels of play.  Here a *level* is a bot label (``bot`` column),
and the levels are given weakest first (e.g. ``random, greedy, greedy_tuned,
search-64``).  :func:`skill_matrix` is each corporation's (or planet's) win
rate or score at every level; :func:`skill_gains` is each one's gain from one
level to another with cluster intervals, paired where both levels played the
same setups; :func:`gain_spread` asks whether those gains differ.

Pairing works through the cluster key.  When both levels played the same
seeds in separate runs, pass a ``cluster`` that names the setup in both runs
(``"game_id"`` for one game per setup, or a column holding ``game_id //
group_size``), so that one cluster holds both levels' games of a setup; the
default key includes ``run``, which keeps different runs apart (unpaired).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
from scipy import stats as sps
from statsmodels.stats.meta_analysis import combine_effects

from pu_sim.analysis.clusters import (
    DEFAULT_BOOTSTRAP,
    Method,
    cluster_difference,
    cluster_means,
)
from pu_sim.analysis.frame import Frame


def _levels(games: Frame, level: str, levels: Sequence[str]) -> pl.LazyFrame:
    """The rows of the given levels, their label an Enum in the given order."""
    if len(set(levels)) != len(levels) or not levels:
        raise ValueError(f"levels must be distinct and not empty, got {levels}")
    lazy = games.lazy()
    present = set(lazy.select(pl.col(level).cast(pl.String).unique()).collect()[level])
    missing = [lv for lv in levels if lv not in present]
    if missing:
        raise ValueError(f"no games of level(s) {missing} in column {level!r}")
    return lazy.filter(pl.col(level).cast(pl.String).is_in(list(levels))).with_columns(
        pl.col(level).cast(pl.String).cast(pl.Enum(list(levels)))
    )


def skill_matrix(
    games: Frame,
    *,
    levels: Sequence[str],
    by: Sequence[str] = ("corporation",),
    value: str = "win_share",
    level: str = "bot",
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """Mean ``value`` per label at every skill level, with cluster intervals.

    ``value="win_share"`` (default) gives win rates (compare with ``1/n``;
    in multiplayer the level is each seat's own bot, so tables mixing levels
    measure a level against the others); use ``"score"`` for solo.

    Returns
    -------
    polars.DataFrame
        Long format, ``n_players, *by, {level}, n, clusters, mean, se, lower,
        upper, naive_se, design_effect``; ``{level}`` is an Enum in the order
        of ``levels``, so pivoting on it gives the matrix weakest to strongest.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 1, 2, 3], "n_players": [1] * 4,
    ...     "corporation": ["a"] * 4, "bot": ["weak", "weak", "strong", "strong"],
    ...     "score": [40, 42, 50, 54]})
    >>> out = skill_matrix(df, levels=["weak", "strong"], value="score")
    >>> out.select("bot", "mean").rows()
    [('weak', 41.0), ('strong', 52.0)]
    """
    out = cluster_means(
        _levels(games, level, levels), by=[*by, level], value=value,
        cluster=cluster, group_size=group_size, confidence=confidence,
        method=method, n_boot=n_boot, seed=seed,
    )  # fmt: skip
    return out.drop("p_value")


def skill_gains(
    games: Frame,
    *,
    low: str,
    high: str,
    by: str = "corporation",
    value: str = "score",
    level: str = "bot",
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """Each label's gain from level ``low`` to level ``high``, with cluster CIs.

    ``gain = mean(value | high) - mean(value | low)`` per player count and
    label, by :func:`~pu_sim.analysis.clusters.cluster_difference`: where a
    cluster (setup) holds games of both levels their covariance is used, so
    a paired design gives a narrower interval (``paired_clusters`` counts
    such setups; 0 means the comparison is unpaired).

    Returns
    -------
    polars.DataFrame
        ``n_players, {by}, low, high, n_low, n_high, clusters,
        paired_clusters, gain, se, lower, upper, p_value, design_effect``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 1, 0, 1], "n_players": [1] * 4,
    ...     "corporation": ["a"] * 4, "bot": ["weak", "weak", "strong", "strong"],
    ...     "score": [40, 50, 49, 61]})
    >>> out = skill_gains(df, low="weak", high="strong", cluster="game_id")
    >>> out.select("gain", "paired_clusters").row(0)
    (10.0, 2)
    """
    diff = cluster_difference(
        _levels(games, level, [low, high]), by=level, a=high, b=low, within=[by],
        value=value, cluster=cluster, group_size=group_size,
        confidence=confidence, method=method, n_boot=n_boot, seed=seed,
    )  # fmt: skip
    return diff.select(
        "n_players", by,
        low=pl.col("b").cast(pl.String), high=pl.col("a").cast(pl.String),
        n_low=pl.col("n_b"), n_high=pl.col("n_a"),
        clusters=pl.col("clusters"), paired_clusters=pl.col("paired_clusters"),
        gain=pl.col("difference"), se=pl.col("se"), lower=pl.col("lower"),
        upper=pl.col("upper"), p_value=pl.col("p_value"),
        design_effect=pl.col("design_effect"),
    )  # fmt: skip


def gain_spread(gains: pl.DataFrame) -> pl.DataFrame:
    """Whether the labels gain alike: a heterogeneity test per player count.

    Cochran's Q of :func:`skill_gains`' gains around their precision-weighted
    mean against chi-square with ``k - 1`` degrees of freedom; ``spread`` is
    the noise-corrected standard deviation of the true gains
    (DerSimonian-Laird, 0 when ``Q <= k - 1``), both by statsmodels'
    ``combine_effects``.  The test treats the labels' gains as independent,
    which they are in solo (one board per game).  In multiplayer, labels of
    one table share its games and their estimates are negatively correlated,
    so the differences between them are noisier than Q assumes and the test
    rejects too often: multiplayer skill depth is measured on mixed-skill
    tables instead (:mod:`pu_sim.analysis.mixed_skill`).

    Returns
    -------
    polars.DataFrame
        ``n_players, labels, min_gain, max_gain, mean_gain, q, df, p_value,
        spread``.

    Examples
    --------
    >>> import polars as pl
    >>> g = pl.DataFrame({"n_players": [1, 1], "gain": [9.0, 15.0], "se": [1.0, 1.0]})
    >>> gain_spread(g).select("mean_gain", "q", "spread").row(0)
    (12.0, 18.0, 4.123105625617661)
    """
    rows = []
    for (n_players,), part in sorted(
        gains.partition_by("n_players", as_dict=True).items(),
        key=lambda kv: int(kv[0][0]),
    ):
        ok = part.filter(pl.col("se").is_finite() & (pl.col("se") > 0))
        gain = ok["gain"].to_numpy().astype(np.float64)
        k = gain.size
        nan = float("nan")
        row = {"n_players": n_players, "labels": k, "df": k - 1, "min_gain": nan,
               "max_gain": nan, "mean_gain": nan, "q": nan, "p_value": nan,
               "spread": 0.0}  # fmt: skip
        if k:
            row.update(min_gain=float(gain.min()), max_gain=float(gain.max()))
        if k == 1:
            row["mean_gain"] = float(gain[0])
        elif k > 1:
            meta = combine_effects(
                gain, ok["se"].to_numpy().astype(np.float64) ** 2, method_re="dl"
            )
            row.update(
                mean_gain=float(meta.mean_effect_fe), q=float(meta.q),
                p_value=float(sps.chi2.sf(meta.q, k - 1)),
                spread=float(np.sqrt(max(float(meta.tau2), 0.0))),  # may be < 0
            )  # fmt: skip
        rows.append(row)
    columns = ["n_players", "labels", "min_gain", "max_gain", "mean_gain", "q",
               "df", "p_value", "spread"]  # fmt: skip
    return pl.DataFrame(
        rows, schema_overrides={"n_players": gains.schema["n_players"]}
    ).select(columns)
