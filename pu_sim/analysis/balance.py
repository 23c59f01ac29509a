"""Balance analyses of result frames: win rates, scores, labels against each other.

Every function takes a result frame (one row per (game, seat), the schema of
:mod:`pu_sim.simulation.frames`; a ``LazyFrame`` is collected after selecting only the
columns it needs), keyword-only options, and returns a small
``polars.DataFrame`` sorted by its keys.  Multiplayer analyses always group by
``n_players``: scores and win rates at different player counts are different
quantities.  The functions never filter anomalies (``status != "ok"``); callers
decide (the reports drop and count them).

Games are identified by ``game_id`` and, when a frame concatenates several
runs, by its ``run`` column too (see :func:`~pu_sim.analysis.frame.game_keys`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.frame import (
    Frame,
    collect_columns,
    game_keys,
    significance_level,
)
from pu_sim.analysis.stats import Correction
from pu_sim.simulation.frames import SCORE_PARTS

__all__ = [
    "balance_table",
    "interaction_table",
    "mean_columns",
    "score_breakdown",
    "score_quantiles",
    "score_summary",
    "win_rates",
]


def win_rates(
    games: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    confidence: float = 0.95,
    correction: Correction = "holm",
    ties: Literal["split", "count"] = "split",
) -> pl.DataFrame:
    """Win rate per label and player count, against the fair share 1/n.

    A multiplayer game has ``n`` seats, so a balanced label wins ``1/n`` of
    its games.  Each rate gets a Wilson interval and a two-sided score-test
    p-value against ``1/n``; the p-values are adjusted for multiple comparisons
    over the whole table (every label at every player count), so "significant"
    survives the fact that many labels were tested.  Solo rows (``n_players ==
    1``, always "won") are ignored.

    A first place shared by ``k`` seats counts ``1/k`` win for each with
    ``ties="split"`` (the default: wins then sum to one per game, so 1/n stays
    the fair share), or a full win each with ``"count"``.

    Parameters
    ----------
    games
        Result frame.
    by
        Label columns, e.g. ``("corporation",)``, ``("planet",)``, ``("seat",)``.
    confidence
        Interval level; a row is ``significant`` when its adjusted p-value is
        below ``1 - confidence``.
    correction
        ``"holm"`` (default), ``"bonferroni"`` or ``"none"``.

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, n, wins, win_rate, lower, upper, expected, excess,
        p_value, p_adjusted, significant``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "n_players": [2] * 4,
    ...     "seat": [0, 1, 0, 1], "won": [True, False, True, False]})
    >>> win_rates(df, by=["seat"]).select("seat", "win_rate", "excess")
    shape: (2, 3)
    ┌──────┬──────────┬────────┐
    │ seat ┆ win_rate ┆ excess │
    │ ---  ┆ ---      ┆ ---    │
    │ i64  ┆ f64      ┆ f64    │
    ╞══════╪══════════╪════════╡
    │ 0    ┆ 1.0      ┆ 0.5    │
    │ 1    ┆ 0.0      ┆ -0.5   │
    └──────┴──────────┴────────┘
    """
    alpha = significance_level(confidence)
    keys = ["n_players", *by]
    gk = game_keys(games)
    names = games.lazy().collect_schema().names()
    split = ties == "split" and all(c in names for c in gk)
    if ties not in ("split", "count"):
        raise ValueError(f"ties must be 'split' or 'count', got {ties!r}")
    df = collect_columns(games, [*keys, "won", *(gk if split else [])]).filter(
        pl.col("n_players") >= 2
    )
    win = pl.col("won").cast(pl.Float64)
    if split:  # a window must run on the whole frame, before grouping by label
        win = win / pl.col("won").sum().over(gk).clip(lower_bound=1)
    df = df.with_columns(_win=win)
    out = (
        df.group_by(keys)
        .agg(n=pl.len().cast(pl.Int64), wins=pl.col("_win").sum())
        .sort(keys)
    )
    n = out["n"].to_numpy().astype(np.float64)
    wins = out["wins"].to_numpy().astype(np.float64)
    expected = 1.0 / out["n_players"].to_numpy().astype(np.float64)
    lower, upper = stats.wilson_interval(wins, n, confidence)
    p = stats.proportion_test(wins, n, expected)
    adjusted = stats.adjust(p, correction)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = wins / n
    return out.with_columns(
        win_rate=pl.Series(rate),
        lower=pl.Series(lower),
        upper=pl.Series(upper),
        expected=pl.Series(expected),
        excess=pl.Series(rate - expected),
        p_value=pl.Series(p),
        p_adjusted=pl.Series(adjusted),
        significant=pl.Series(adjusted < alpha),
    )


def score_summary(
    games: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    value: str = "score",
    confidence: float = 0.95,
    interval: Literal["t", "bootstrap"] = "t",
    n_boot: int = 1000,
    seed: int = 0,
) -> pl.DataFrame:
    """Mean of ``value`` per label and player count, with a confidence interval.

    ``"t"`` is Student's interval (exact for normal data, and excellent for the
    thousands of games per label these studies have); ``"bootstrap"`` is the
    percentile bootstrap, for small or skewed samples.  Use ``value="rank"`` for
    the mean finishing position.

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, n, mean, sd, lower, upper``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [2] * 4, "corporation": ["a", "a", "b", "b"],
    ...     "score": [10, 12, 20, 22]})
    >>> score_summary(df).select("corporation", "mean", "sd")
    shape: (2, 3)
    ┌─────────────┬──────┬──────────┐
    │ corporation ┆ mean ┆ sd       │
    │ ---         ┆ ---  ┆ ---      │
    │ str         ┆ f64  ┆ f64      │
    ╞═════════════╪══════╪══════════╡
    │ a           ┆ 11.0 ┆ 1.414214 │
    │ b           ┆ 21.0 ┆ 1.414214 │
    └─────────────┴──────┴──────────┘
    """
    significance_level(confidence)
    keys = ["n_players", *by]
    df = collect_columns(games, [*keys, value])
    out = (
        df.group_by(keys)
        .agg(
            n=pl.len().cast(pl.Int64),
            mean=pl.col(value).cast(pl.Float64).mean(),
            sd=pl.col(value).cast(pl.Float64).std(),
        )
        .sort(keys)
    )
    if interval == "t":
        lower, upper = stats.mean_interval(
            out["mean"].to_numpy(),
            out["sd"].to_numpy(),
            out["n"].to_numpy(),
            confidence,
        )
    elif interval == "bootstrap":
        rng = np.random.default_rng(seed)
        groups = df.group_by(keys, maintain_order=False).agg(pl.col(value))
        lookup = {
            tuple(row[:-1]): np.asarray(row[-1], dtype=np.float64)
            for row in groups.iter_rows()
        }
        lower = np.full(out.height, np.nan)
        upper = np.full(out.height, np.nan)
        for i, row in enumerate(out.select(keys).iter_rows()):
            lower[i], upper[i] = _bootstrap_mean(lookup[row], n_boot, confidence, rng)
    else:
        raise ValueError(f"interval must be 't' or 'bootstrap', got {interval!r}")
    return out.with_columns(lower=pl.Series(lower), upper=pl.Series(upper))


def _bootstrap_mean(
    x: npt.NDArray[np.float64], n_boot: int, confidence: float, rng: np.random.Generator
) -> tuple[float, float]:
    """Percentile bootstrap interval of a mean, resampling distinct values."""
    if x.size < 2:
        return math.nan, math.nan
    values, counts = np.unique(x, return_counts=True)
    draws = rng.multinomial(x.size, counts / x.size, size=n_boot)
    means = draws @ values / x.size
    alpha = 1.0 - confidence
    lo, hi = np.quantile(means, [alpha / 2, 1 - alpha / 2])
    return float(lo), float(hi)


def mean_columns(
    games: Frame,
    by: Sequence[str],
    value: str,
    names: tuple[str, str, str],
    confidence: float,
) -> pl.DataFrame:
    """:func:`score_summary` of ``value`` as the keys plus three named columns.

    ``names`` are the mean's, the lower bound's and the upper bound's, so
    several summaries (score, rank, ...) join into one table.
    """
    mean, lower, upper = names
    return score_summary(games, by=by, value=value, confidence=confidence).select(
        "n_players",
        *by,
        pl.col("mean").alias(mean),
        pl.col("lower").alias(lower),
        pl.col("upper").alias(upper),
    )


def balance_table(
    games: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    confidence: float = 0.95,
    correction: Correction = "holm",
) -> pl.DataFrame:
    """Win rate, mean score and mean rank per label and player count, with CIs.

    The designer's one-glance table: :func:`win_rates` (Wilson, excess over
    1/n, adjusted p-values) joined with :func:`score_summary` of ``score`` and
    ``rank`` (t intervals).  Multiplayer rows only.

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, n, win_rate, lower, upper, excess, p_adjusted,
        significant, mean_score, score_lower, score_upper, mean_rank,
        rank_lower, rank_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "n_players": [2] * 4,
    ...     "corporation": ["a", "b", "a", "b"], "won": [True, False, False, True],
    ...     "score": [30, 20, 25, 26], "rank": [1, 2, 2, 1]})
    >>> balance_table(df).select("corporation", "win_rate", "mean_score", "mean_rank")
    shape: (2, 4)
    ┌─────────────┬──────────┬────────────┬───────────┐
    │ corporation ┆ win_rate ┆ mean_score ┆ mean_rank │
    │ ---         ┆ ---      ┆ ---        ┆ ---       │
    │ str         ┆ f64      ┆ f64        ┆ f64       │
    ╞═════════════╪══════════╪════════════╪═══════════╡
    │ a           ┆ 0.5      ┆ 27.5       ┆ 1.5       │
    │ b           ┆ 0.5      ┆ 23.0       ┆ 1.5       │
    └─────────────┴──────────┴────────────┴───────────┘
    """
    keys = ["n_players", *by]
    df = collect_columns(games, [*keys, "won", "score", "rank"]).filter(
        pl.col("n_players") >= 2
    )
    wins = win_rates(games, by=by, confidence=confidence, correction=correction)
    wins = wins.select(
        *keys, "n", "win_rate", "lower", "upper", "excess", "p_adjusted", "significant"
    )
    score = mean_columns(
        df, by, "score", ("mean_score", "score_lower", "score_upper"), confidence
    )
    rank = mean_columns(
        df, by, "rank", ("mean_rank", "rank_lower", "rank_upper"), confidence
    )
    return (
        wins.join(score, on=keys, nulls_equal=True, maintain_order="left")
        .join(rank, on=keys, nulls_equal=True, maintain_order="left")
        .sort(keys)
    )


def score_quantiles(
    games: Frame,
    *,
    by: Sequence[str] = (),
    value: str = "score",
    quantiles: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9),
    confidence: float = 0.95,
    n_boot: int = 500,
    seed: int = 0,
) -> pl.DataFrame:
    """Score quantiles per group with percentile-bootstrap intervals.

    Quantiles say what a target score means ("the bot beats 58 in 10% of its
    games").  Scores are integers, so the bootstrap resamples the counts of
    the distinct values (multinomial), which is exact and fast for any sample
    size.  Quantiles use the "lower" rule: a value the sample actually holds.

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, quantile, value, lower, upper, n``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 5, "score": [1, 2, 3, 4, 5]})
    >>> score_quantiles(df, quantiles=[0.5])["value"].to_list()
    [3.0]
    """
    alpha = significance_level(confidence)
    keys = ["n_players", *by]
    df = collect_columns(games, [*keys, value])
    counts = (
        df.group_by([*keys, value]).agg(c=pl.len().cast(pl.Int64)).sort([*keys, value])
    )
    grouped = counts.group_by(keys, maintain_order=True).agg(pl.col(value), pl.col("c"))
    rng = np.random.default_rng(seed)
    rows: list[dict[str, object]] = []
    qs = np.asarray(quantiles, dtype=np.float64)
    for rec in grouped.iter_rows(named=True):
        values = np.asarray(rec[value], dtype=np.float64)
        c = np.asarray(rec["c"], dtype=np.int64)
        n = int(c.sum())
        point = _quantile_from_counts(values, c[None, :], qs)[0]
        draws = rng.multinomial(n, c / n, size=n_boot)
        boot = _quantile_from_counts(values, draws, qs)
        lo = np.quantile(boot, alpha / 2, axis=0)
        hi = np.quantile(boot, 1 - alpha / 2, axis=0)
        for j, q in enumerate(qs):
            rows.append(
                {
                    **{k: rec[k] for k in keys},
                    "quantile": float(q),
                    "value": float(point[j]),
                    "lower": float(lo[j]),
                    "upper": float(hi[j]),
                    "n": n,
                }
            )
    schema = {k: df.schema[k] for k in keys} | {
        "quantile": pl.Float64, "value": pl.Float64, "lower": pl.Float64,
        "upper": pl.Float64, "n": pl.Int64,
    }  # fmt: skip
    return pl.DataFrame(rows, schema=schema).sort([*keys, "quantile"])


def _quantile_from_counts(
    values: npt.NDArray[np.float64],
    counts: npt.NDArray[np.int64],
    qs: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """Lower quantiles (smallest value with CDF >= q) of count vectors (rows)."""
    cum = np.cumsum(counts, axis=1)
    total = cum[:, -1:]
    need = np.ceil(qs[None, :] * total - 1e-9).clip(min=1)
    idx = np.stack(
        [np.searchsorted(cum[i], need[i], side="left") for i in range(cum.shape[0])]
    )
    picked = values[np.minimum(idx, values.size - 1)]
    return np.asarray(picked, dtype=np.float64)


def interaction_table(
    games: Frame,
    *,
    row: str = "corporation",
    col: str = "planet",
    value: str = "score",
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Corporation x planet cell means and their interaction deltas.

    ``delta = cell mean - row mean - column mean + grand mean`` (per player
    count): how much better a combination does than its corporation and planet
    do on average.  A delta near 0 means the two add up; a large one flags a
    combination that is unexpectedly strong or weak.  The interval is the
    cell mean's t interval moved to the delta (the margins come from far more
    games, so their uncertainty is left out); ``p_value``: the two-sided t test
    of ``delta == 0``, unadjusted (correct over one question's cells).

    Returns
    -------
    polars.DataFrame
        ``n_players, {row}, {col}, n, mean, row_mean, col_mean, grand_mean,
        delta, lower, upper, p_value``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 4, "corporation": ["a", "a", "b", "b"],
    ...     "planet": ["x", "y", "x", "y"], "score": [10, 20, 30, 20]})
    >>> interaction_table(df)["delta"].to_list()
    [-5.0, 5.0, 5.0, -5.0]
    """
    significance_level(confidence)
    df = collect_columns(games, ["n_players", row, col, value]).with_columns(
        pl.col(value).cast(pl.Float64)
    )
    cells = df.group_by("n_players", row, col).agg(
        n=pl.len().cast(pl.Int64), mean=pl.col(value).mean(), sd=pl.col(value).std()
    )
    rows = df.group_by("n_players", row).agg(row_mean=pl.col(value).mean())
    cols = df.group_by("n_players", col).agg(col_mean=pl.col(value).mean())
    grand = df.group_by("n_players").agg(grand_mean=pl.col(value).mean())
    out = (
        cells.join(rows, on=["n_players", row], nulls_equal=True, maintain_order="left")
        .join(cols, on=["n_players", col], nulls_equal=True, maintain_order="left")
        .join(grand, on="n_players", maintain_order="left")
        .with_columns(
            delta=pl.col("mean")
            - pl.col("row_mean")
            - pl.col("col_mean")
            + pl.col("grand_mean")
        )
        .sort("n_players", row, col)
    )
    lo, hi = stats.mean_interval(
        out["mean"].to_numpy(), out["sd"].to_numpy(), out["n"].to_numpy(), confidence
    )
    delta = out["delta"].to_numpy()
    mean = out["mean"].to_numpy()
    n = out["n"].to_numpy().astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = out["sd"].to_numpy() / np.sqrt(n)
    columns = ["n_players", row, col, "n", "mean", "row_mean", "col_mean"]
    return out.select(
        *columns,
        "grand_mean",
        "delta",
        lower=pl.Series(delta - (mean - lo)),
        upper=pl.Series(delta + (hi - mean)),
        p_value=pl.Series(stats.t_test(delta, se, n - 1.0)),
    )


def score_breakdown(
    games: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    parts: Sequence[str] = SCORE_PARTS,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Where the points come from: mean of each score category per label.

    ``share`` is the category's part of the label's mean total (the parts of
    :data:`pu_sim.simulation.frames.SCORE_PARTS` add up to ``score``), so two
    corporations with equal totals but different sources stand apart.

    Returns
    -------
    polars.DataFrame
        Long format: ``n_players, *by, part, mean, lower, upper, share``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1, 1], "corporation": ["a", "a"],
    ...     "score_planet": [10, 20], "score_civ": [5, 5]})
    >>> score_breakdown(df, parts=["score_planet", "score_civ"])["share"].to_list()
    [0.75, 0.25]
    """
    keys = ["n_players", *by]
    df = collect_columns(games, [*keys, *parts])
    long = df.unpivot(index=keys, on=list(parts), variable_name="part").with_columns(
        pl.col("part").cast(pl.Enum(list(parts)))
    )
    out = score_summary(long, by=[*by, "part"], value="value", confidence=confidence)
    total = out.group_by(keys).agg(_total=pl.col("mean").sum())
    return (
        out.join(total, on=keys, nulls_equal=True, maintain_order="left")
        .with_columns(share=pl.col("mean") / pl.col("_total"))
        .select(*keys, "part", "mean", "lower", "upper", "share")
        .sort([*keys, "part"])
    )
