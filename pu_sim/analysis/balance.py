"""Balance analyses of result frames: pure Polars functions with honest intervals.

Every function takes a result frame (one row per (game, seat), the schema of
:mod:`pu_sim.simulation.frames`; a ``LazyFrame`` is collected after selecting only the
columns it needs), keyword-only options, and returns a small
``polars.DataFrame`` sorted by its keys.  Multiplayer analyses always group by
``n_players``: scores and win rates at different player counts are different
quantities.  The functions never filter anomalies (``status != "ok"``); callers
decide (:mod:`pu_sim.report.reporting` drops and counts them).

Games are identified by ``game_id`` and, when a frame concatenates several
runs, by its ``run`` column too (see :func:`game_keys`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.analysis import stats
from pu_sim.simulation.frames import SCORE_PARTS

Frame = pl.DataFrame | pl.LazyFrame
"""What every analysis accepts."""

Correction = Literal["holm", "bonferroni", "none"]


# --------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------


def _collect(games: Frame, columns: Sequence[str]) -> pl.DataFrame:
    """Select the needed columns (existing ones only) and collect."""
    lazy = games.lazy()
    names = lazy.collect_schema().names()
    missing = [c for c in columns if c not in names and c != "run"]
    if missing:
        raise ValueError(f"the frame lacks column(s) {missing}; it has {names}")
    keep = list(dict.fromkeys(c for c in columns if c in names))
    return lazy.select(keep).collect()


def game_keys(games: Frame) -> list[str]:
    """Columns identifying one game: ``game_id``, plus ``run`` when present."""
    names = games.lazy().collect_schema().names()
    return ["run", "game_id"] if "run" in names else ["game_id"]


def _adjust(
    p: npt.NDArray[np.float64], correction: Correction
) -> npt.NDArray[np.float64]:
    if correction == "holm":
        return stats.holm(p)
    if correction == "bonferroni":
        ok = ~np.isnan(p)
        return np.where(ok, np.minimum(1.0, p * max(int(ok.sum()), 1)), np.nan)
    if correction == "none":
        return p
    raise ValueError(
        f"correction must be 'holm', 'bonferroni' or 'none', got {correction!r}"
    )


def _code(column: str, dtype: pl.DataType) -> pl.Expr:
    """A sortable code of a label column (Enum/Categorical by their order)."""
    if isinstance(dtype, (pl.Enum, pl.Categorical)):
        return pl.col(column).to_physical()
    return pl.col(column)


def _alpha(confidence: float) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return 1.0 - confidence


# --------------------------------------------------------------------------------
# Win rates, means, balance table
# --------------------------------------------------------------------------------


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
    alpha = _alpha(confidence)
    keys = ["n_players", *by]
    gk = game_keys(games)
    names = games.lazy().collect_schema().names()
    split = ties == "split" and all(c in names for c in gk)
    if ties not in ("split", "count"):
        raise ValueError(f"ties must be 'split' or 'count', got {ties!r}")
    df = _collect(games, [*keys, "won", *(gk if split else [])]).filter(
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
    adjusted = _adjust(p, correction)
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
    _alpha(confidence)
    keys = ["n_players", *by]
    df = _collect(games, [*keys, value])
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
    df = _collect(games, [*keys, "won", "score", "rank"]).filter(
        pl.col("n_players") >= 2
    )
    wins = win_rates(games, by=by, confidence=confidence, correction=correction)
    wins = wins.select(
        *keys, "n", "win_rate", "lower", "upper", "excess", "p_adjusted", "significant"
    )
    score = score_summary(df, by=by, value="score", confidence=confidence).select(
        *keys,
        pl.col("mean").alias("mean_score"),
        pl.col("lower").alias("score_lower"),
        pl.col("upper").alias("score_upper"),
    )
    rank = score_summary(df, by=by, value="rank", confidence=confidence).select(
        *keys,
        pl.col("mean").alias("mean_rank"),
        pl.col("lower").alias("rank_lower"),
        pl.col("upper").alias("rank_upper"),
    )
    return (
        wins.join(score, on=keys, nulls_equal=True)
        .join(rank, on=keys, nulls_equal=True)
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
    alpha = _alpha(confidence)
    keys = ["n_players", *by]
    df = _collect(games, [*keys, value])
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


# --------------------------------------------------------------------------------
# Paired comparisons (common random numbers)
# --------------------------------------------------------------------------------


def add_group(games: Frame, *, group_size: int = 1) -> pl.DataFrame:
    """Add the paired-design ``group`` column: ``game_id // group_size``.

    With ``TableSetup(group_size=k)`` consecutive blocks of ``k`` games share
    one setup (station, civ piles, deck) and rotate the boards one seat per
    game; the block is the unit of pairing.

    Examples
    --------
    >>> import polars as pl
    >>> games = pl.DataFrame({"game_id": [0, 1, 2, 3]})
    >>> add_group(games, group_size=2)["group"].to_list()
    [0, 0, 1, 1]
    """
    if group_size < 1:
        raise ValueError(f"group_size must be >= 1, got {group_size}")
    return (
        games.lazy()
        .with_columns(group=(pl.col("game_id") // group_size).cast(pl.UInt64))
        .collect()
    )


def paired_differences(
    games: Frame,
    *,
    by: str = "corporation",
    value: str = "score",
    group_size: int = 1,
    group_col: str | None = None,
    confidence: float = 0.95,
    correction: Correction = "holm",
) -> pl.DataFrame:
    """Within-setup differences between labels, and what pairing saves.

    For every setup group (``game_id // group_size``, or ``group_col``) and
    every pair of labels ``a < b`` present in it, ``d = mean(value | a) -
    mean(value | b)`` inside the group.  The mean of ``d`` over groups has a
    t interval and a p-value (adjusted over the table).  Because both labels
    saw the same station, civ piles and deck, the setup's luck cancels in
    ``d``; ``variance_ratio`` is the variance an unpaired comparison (the same
    per-group means, treated as independent samples) would have, divided by
    the paired variance: an unpaired study needs ``variance_ratio`` times as
    many games for the same interval width.

    Groups are also split by ``run`` when the frame has that column, unless
    ``group_col`` is given (runs with one seed share setups game by game, so a
    caller may pair across them on purpose).

    Returns
    -------
    polars.DataFrame
        ``n_players, {by}_a, {by}_b, groups, mean_diff, lower, upper, p_value,
        p_adjusted, significant, paired_se, unpaired_se, variance_ratio``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1, 2, 2], "n_players": [2] * 6,
    ...     "seat": [0, 1] * 3, "score": [10, 8, 30, 27, 20, 19]})
    >>> paired_differences(df, by="seat").select("seat_a", "seat_b", "mean_diff")
    shape: (1, 3)
    ┌────────┬────────┬───────────┐
    │ seat_a ┆ seat_b ┆ mean_diff │
    │ ---    ┆ ---    ┆ ---       │
    │ i64    ┆ i64    ┆ f64       │
    ╞════════╪════════╪═══════════╡
    │ 0      ┆ 1      ┆ 2.0       │
    └────────┴────────┴───────────┘
    """
    alpha = _alpha(confidence)
    names = games.lazy().collect_schema().names()
    if group_col is None:
        extra = ["run"] if "run" in names else []
        df = _collect(games, ["game_id", "n_players", by, value, *extra])
        if group_size < 1:
            raise ValueError(f"group_size must be >= 1, got {group_size}")
        df = df.with_columns(_group=pl.col("game_id") // group_size)
        gkeys = [*extra, "_group"]
    else:
        df = _collect(games, [group_col, "n_players", by, value])
        gkeys = [group_col]
    dtype = df.schema[by]
    cells = (
        df.group_by(["n_players", *gkeys, by])
        .agg(m=pl.col(value).cast(pl.Float64).mean())
        .with_columns(_code=_code(by, dtype))
    )
    a = cells.rename({by: f"{by}_a", "m": "m_a", "_code": "_code_a"})
    b = cells.rename({by: f"{by}_b", "m": "m_b", "_code": "_code_b"})
    pairs = (
        a.join(b, on=["n_players", *gkeys])
        .filter(pl.col("_code_a") < pl.col("_code_b"))
        .with_columns(d=pl.col("m_a") - pl.col("m_b"))
    )
    keys = ["n_players", f"{by}_a", f"{by}_b"]
    out = (
        pairs.group_by(keys)
        .agg(
            groups=pl.len().cast(pl.Int64),
            mean_diff=pl.col("d").mean(),
            sd=pl.col("d").std(),
            var_a=pl.col("m_a").var(),
            var_b=pl.col("m_b").var(),
            _ca=pl.col("_code_a").first(),
            _cb=pl.col("_code_b").first(),
        )
        .sort("n_players", "_ca", "_cb")
    )
    g = out["groups"].to_numpy().astype(np.float64)
    mean = out["mean_diff"].to_numpy()
    sd = out["sd"].to_numpy()
    lower, upper = stats.mean_interval(mean, sd, g, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        paired_se = sd / np.sqrt(g)
        unpaired_var = (out["var_a"].to_numpy() + out["var_b"].to_numpy()) / g
        ratio = unpaired_var / paired_se**2
    p = stats.t_test(mean, paired_se, g - 1)
    adjusted = _adjust(p, correction)
    return out.select(
        *keys,
        "groups",
        "mean_diff",
        lower=pl.Series(lower),
        upper=pl.Series(upper),
        p_value=pl.Series(p),
        p_adjusted=pl.Series(adjusted),
        significant=pl.Series(adjusted < alpha),
        paired_se=pl.Series(paired_se),
        unpaired_se=pl.Series(np.sqrt(unpaired_var)),
        variance_ratio=pl.Series(ratio),
    )


# --------------------------------------------------------------------------------
# Interaction, seats, score breakdown
# --------------------------------------------------------------------------------


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
    games, so their uncertainty is left out).

    Returns
    -------
    polars.DataFrame
        ``n_players, {row}, {col}, n, mean, row_mean, col_mean, grand_mean,
        delta, lower, upper``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 4, "corporation": ["a", "a", "b", "b"],
    ...     "planet": ["x", "y", "x", "y"], "score": [10, 20, 30, 20]})
    >>> interaction_table(df)["delta"].to_list()
    [-5.0, 5.0, 5.0, -5.0]
    """
    _alpha(confidence)
    df = _collect(games, ["n_players", row, col, value]).with_columns(
        pl.col(value).cast(pl.Float64)
    )
    cells = df.group_by("n_players", row, col).agg(
        n=pl.len().cast(pl.Int64), mean=pl.col(value).mean(), sd=pl.col(value).std()
    )
    rows = df.group_by("n_players", row).agg(row_mean=pl.col(value).mean())
    cols = df.group_by("n_players", col).agg(col_mean=pl.col(value).mean())
    grand = df.group_by("n_players").agg(grand_mean=pl.col(value).mean())
    out = (
        cells.join(rows, on=["n_players", row], nulls_equal=True)
        .join(cols, on=["n_players", col], nulls_equal=True)
        .join(grand, on="n_players")
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
    columns = ["n_players", row, col, "n", "mean", "row_mean", "col_mean"]
    return out.select(
        *columns,
        "grand_mean",
        "delta",
        lower=pl.Series(delta - (mean - lo)),
        upper=pl.Series(delta + (hi - mean)),
    )


def seat_effect(
    games: Frame,
    *,
    by: Sequence[str] = (),
    confidence: float = 0.95,
    correction: Correction = "holm",
) -> pl.DataFrame:
    """Seat (turn order) advantage per player count; seat 0 is the first commander.

    Win rate per seat against 1/n (Wilson, adjusted p-values), mean score, mean
    rank, and ``score_vs_table``: the seat's score minus its own game's mean
    score, averaged over games.  The last one is paired within each game, so
    the game's luck cancels and it is far more precise than comparing raw
    means.  ``by`` adds groupings (e.g. ``("bot",)`` when runs use different
    bot policies).

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, seat, n, win_rate, lower, upper, expected, excess,
        p_adjusted, significant, mean_score, score_lower, score_upper,
        score_vs_table, svt_lower, svt_upper, mean_rank``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "n_players": [2] * 4,
    ...     "seat": [0, 1, 0, 1], "won": [True, False, True, False],
    ...     "score": [12, 10, 31, 29], "rank": [1, 2, 1, 2]})
    >>> seat_effect(df).select("seat", "win_rate", "score_vs_table")
    shape: (2, 3)
    ┌──────┬──────────┬────────────────┐
    │ seat ┆ win_rate ┆ score_vs_table │
    │ ---  ┆ ---      ┆ ---            │
    │ i64  ┆ f64      ┆ f64            │
    ╞══════╪══════════╪════════════════╡
    │ 0    ┆ 1.0      ┆ 1.0            │
    │ 1    ┆ 0.0      ┆ -1.0           │
    └──────┴──────────┴────────────────┘
    """
    gk = game_keys(games)
    labels = [*by, "seat"]
    df = _collect(games, [*gk, "n_players", *labels, "won", "score", "rank"]).filter(
        pl.col("n_players") >= 2
    )
    df = df.with_columns(
        vs_table=pl.col("score").cast(pl.Float64)
        - pl.col("score").cast(pl.Float64).mean().over(gk)
    )
    keys = ["n_players", *labels]
    table = balance_table(df, by=labels, confidence=confidence, correction=correction)
    wins = win_rates(df, by=labels, confidence=confidence, correction=correction)
    vs = score_summary(df, by=labels, value="vs_table", confidence=confidence).select(
        *keys,
        pl.col("mean").alias("score_vs_table"),
        pl.col("lower").alias("svt_lower"),
        pl.col("upper").alias("svt_upper"),
    )
    return (
        table.join(wins.select(*keys, "expected"), on=keys, nulls_equal=True)
        .join(vs, on=keys, nulls_equal=True)
        .select(
            *keys,
            "n",
            "win_rate",
            "lower",
            "upper",
            "expected",
            "excess",
            "p_adjusted",
            "significant",
            "mean_score",
            "score_lower",
            "score_upper",
            "score_vs_table",
            "svt_lower",
            "svt_upper",
            "mean_rank",
        )
        .sort(keys)
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
    df = _collect(games, [*keys, *parts])
    long = df.unpivot(index=keys, on=list(parts), variable_name="part").with_columns(
        pl.col("part").cast(pl.Enum(list(parts)))
    )
    out = score_summary(long, by=[*by, "part"], value="value", confidence=confidence)
    total = out.group_by(keys).agg(_total=pl.col("mean").sum())
    return (
        out.join(total, on=keys, nulls_equal=True)
        .with_columns(share=pl.col("mean") / pl.col("_total"))
        .select(*keys, "part", "mean", "lower", "upper", "share")
        .sort([*keys, "part"])
    )


# --------------------------------------------------------------------------------
# Strength model: Plackett-Luce / Bradley-Terry by MM
# --------------------------------------------------------------------------------


def _centre(gamma: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Log-strengths with mean 0 over the labels that have a positive strength."""
    with np.errstate(divide="ignore"):
        log = np.log(gamma)
    finite = np.isfinite(log)
    return np.asarray(log - log[finite].mean(), dtype=np.float64)


def _pl_fit(
    orders: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]],
    k: int,
    start: npt.NDArray[np.float64] | None,
    max_iter: int,
    tol: float,
    prior: float,
) -> npt.NDArray[np.float64]:
    """Hunter's (2004) MM iterations for Plackett-Luce; returns log-strengths.

    ``orders`` holds, per table size, the distinct finishing orders (rows of
    label indices, winner first) and their weights.  A label may appear
    several times in one order; the minorization is the same.  ``prior``
    virtual games against an average opponent (strength 1), half of them won,
    keep the estimate finite for a label that never wins or never loses.
    """
    wins = np.full(k, prior / 2.0)
    for items, weight in orders:
        n = items.shape[1]
        wins += np.bincount(items[:, :-1].ravel(), np.repeat(weight, n - 1), k)
    log_gamma = np.zeros(k) if start is None else start.copy()
    for _ in range(max_iter):
        gamma = np.exp(log_gamma)
        denom = np.zeros(k)
        for items, weight in orders:
            g = gamma[items]
            remaining = np.cumsum(g[:, ::-1], axis=1)[:, ::-1][:, :-1]
            inv = np.cumsum(1.0 / remaining, axis=1)
            per = np.concatenate([inv, inv[:, -1:]], axis=1) * weight[:, None]
            denom += np.bincount(items.ravel(), per.ravel(), k)
        denom += prior / (gamma + 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            new = _centre(np.where(denom > 0, wins / denom, 0.0))
        change = np.nanmax(np.abs(np.where(np.isfinite(new), new - log_gamma, 0.0)))
        log_gamma = new
        if change < tol:
            break
    return log_gamma


def _bt_fit(
    wins: npt.NDArray[np.float64],
    start: npt.NDArray[np.float64] | None,
    max_iter: int,
    tol: float,
    prior: float,
) -> npt.NDArray[np.float64]:
    """Hunter's (2004) MM for Bradley-Terry on a wins matrix; log-strengths.

    ``prior`` as in :func:`_pl_fit`.
    """
    k = wins.shape[0]
    met = wins + wins.T
    total = wins.sum(axis=1) + prior / 2.0
    log_gamma = np.zeros(k) if start is None else start.copy()
    for _ in range(max_iter):
        gamma = np.exp(log_gamma)
        with np.errstate(divide="ignore", invalid="ignore"):
            denom = np.sum(met / (gamma[:, None] + gamma[None, :]), axis=1)
            denom += prior / (gamma + 1.0)
            new = _centre(np.where(denom > 0, total / denom, 0.0))
        change = np.nanmax(np.abs(np.where(np.isfinite(new), new - log_gamma, 0.0)))
        log_gamma = new
        if change < tol:
            break
    return log_gamma


def _connected(pairs: npt.NDArray[np.int64], k: int) -> bool:
    """Whether labels meeting in games form one connected comparison graph."""
    parent = list(range(k))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in pairs:
        parent[find(int(a))] = find(int(b))
    return len({find(i) for i in range(k)}) == 1


def strength_model(
    games: Frame,
    *,
    by: str = "corporation",
    model: Literal["plackett_luce", "bradley_terry"] = "plackett_luce",
    confidence: float = 0.95,
    n_boot: int = 200,
    seed: int = 0,
    prior: float = 1.0,
    max_iter: int = 5000,
    tol: float = 1e-10,
) -> pl.DataFrame:
    """One strength rating per label from finishing orders, with bootstrap CIs.

    ``"plackett_luce"`` models a whole finishing order as picking the winner
    with probability proportional to strength, then the runner-up among the
    rest, and so on; ``"bradley_terry"`` uses every pair of seats of a game as
    a head-to-head result (ties count half each).  Both are fitted by Hunter's
    MM algorithm and pool all player counts.  Unlike raw win rates they use the
    whole order and account for whom each label met.  The (rare) ties in a
    finishing order are broken at random for Plackett-Luce (seeded).

    ``prior`` adds that many virtual games per label against an opponent of
    average strength, half of them won: a weak pull towards the average that
    keeps ratings finite when a label never wins (or never loses) in a sample,
    e.g. the random bot against greedy ones; it is negligible against
    thousands of real games.  ``prior=0`` is pure maximum likelihood.

    Ratings are log-strengths centred to mean 0; ``p_beat_average`` is the
    chance of finishing ahead of an opponent of average strength (0.5 is
    average).  Intervals are percentile bootstraps over games (resampling
    whole games keeps the dependence between seats of one game).

    Returns
    -------
    polars.DataFrame
        ``{by}, n, rating, lower, upper, p_beat_average``.

    Raises
    ------
    ValueError
        When the labels never meet each other in one connected graph of games
        (the ratings would not be identified).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1, 2, 2], "bot": ["a", "b"] * 3,
    ...     "rank": [1, 2, 1, 2, 2, 1]})
    >>> fit = strength_model(df, by="bot", model="bradley_terry", n_boot=0, prior=0)
    >>> round(fit["p_beat_average"][0], 3)  # a won 2 of 3: strengths 2:1
    0.586
    """
    alpha = _alpha(confidence)
    if model not in ("plackett_luce", "bradley_terry"):
        raise ValueError(
            f"model must be 'plackett_luce' or 'bradley_terry', got {model!r}"
        )
    gk = game_keys(games)
    df = _collect(games, [*gk, by, "rank"])
    labels_frame = (
        df.select(pl.col(by))
        .unique()
        .with_columns(_c=_code(by, df.schema[by]))
        .sort("_c")
        .select(by)
    )
    k = labels_frame.height
    index = {v: i for i, v in enumerate(labels_frame[by].to_list())}
    counts = df.group_by(by).agg(n=pl.len().cast(pl.Int64))
    base = labels_frame.join(counts, on=by, maintain_order="left")
    if k < 2:
        return base.with_columns(
            rating=pl.lit(0.0), lower=pl.lit(0.0), upper=pl.lit(0.0),
            p_beat_average=pl.lit(0.5),
        )  # fmt: skip
    rng = np.random.default_rng(seed)
    # A random key under the rank breaks ties at random (Plackett-Luce).
    games_lists = (
        df.with_columns(
            _item=pl.col(by).replace_strict(index, return_dtype=pl.Int64),
            _u=pl.Series(rng.random(df.height)),
        )
        .sort([*gk, "rank", "_u"])
        .group_by(gk, maintain_order=True)
        .agg(pl.col("_item"), pl.col("rank").cast(pl.Int64), _n=pl.len())
    )
    samples: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]] = []
    pairs_seen = [np.zeros((0, 2), dtype=np.int64)]
    for size in sorted(set(games_lists["_n"].to_list())):
        if size < 2:
            continue
        sub = games_lists.filter(pl.col("_n") == size)
        items = np.asarray(sub["_item"].to_list(), dtype=np.int64)
        ranks = np.asarray(sub["rank"].to_list(), dtype=np.int64)
        informative = (items != items[:, :1]).any(axis=1)  # one label only: no info
        items, ranks = items[informative], ranks[informative]
        if items.size:
            samples.append((items, ranks))
            a, b = np.triu_indices(size, 1)
            pairs_seen.append(np.stack([items[:, a].ravel(), items[:, b].ravel()], 1))
    if not samples or not _connected(np.concatenate(pairs_seen), k):
        raise ValueError(
            f"the {by} labels do not all meet in games (comparison graph not "
            "connected): their strengths are not identified"
        )
    boots: list[npt.NDArray[np.float64]] = []
    if model == "plackett_luce":
        uniq = []
        for items, _ in samples:
            rows, w = np.unique(items, axis=0, return_counts=True)
            uniq.append((rows.astype(np.int64), w.astype(np.float64)))
        fit = _pl_fit(uniq, k, None, max_iter, tol, prior)
        for _ in range(n_boot):
            resampled = [
                (rows, rng.multinomial(int(w.sum()), w / w.sum()).astype(np.float64))
                for rows, w in uniq
            ]
            boots.append(_pl_fit(resampled, k, fit, max_iter, tol, prior))
    else:
        winner, loser, tie, game = [], [], [], []
        offset = 0
        for items, ranks in samples:
            a, b = np.triu_indices(items.shape[1], 1)
            winner.append(items[:, a].ravel())  # sorted by rank: a finished ahead
            loser.append(items[:, b].ravel())
            tie.append((ranks[:, a] == ranks[:, b]).ravel())
            game.append(np.repeat(np.arange(items.shape[0]) + offset, a.size))
            offset += items.shape[0]
        wi, lj = np.concatenate(winner), np.concatenate(loser)
        ti, gi = np.concatenate(tie), np.concatenate(game)
        keep = wi != lj
        wi, lj, ti, gi = wi[keep], lj[keep], ti[keep], gi[keep]

        def matrix(game_weight: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            w = game_weight[gi]
            credit = np.where(ti, 0.5 * w, w)
            m = np.bincount(wi * k + lj, credit, k * k).astype(np.float64)
            m += np.bincount(lj * k + wi, np.where(ti, 0.5 * w, 0.0), k * k)
            return np.asarray(m.reshape(k, k), dtype=np.float64)

        fit = _bt_fit(matrix(np.ones(offset)), None, max_iter, tol, prior)
        for _ in range(n_boot):
            gw = np.bincount(rng.integers(0, offset, offset), minlength=offset)
            boots.append(
                _bt_fit(matrix(gw.astype(np.float64)), fit, max_iter, tol, prior)
            )
    if boots:
        arr = np.stack(boots)
        lower = np.quantile(arr, alpha / 2, axis=0)
        upper = np.quantile(arr, 1 - alpha / 2, axis=0)
    else:
        lower = upper = np.full(k, np.nan)
    strength = np.exp(fit)
    return base.with_columns(
        rating=pl.Series(fit),
        lower=pl.Series(lower),
        upper=pl.Series(upper),
        p_beat_average=pl.Series(strength / (strength + 1.0)),
    )


ELO_PER_LOG_STRENGTH = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-strength: a gap of 400 Elo is odds of 10:1."""


def to_elo(ratings: pl.DataFrame) -> pl.DataFrame:
    """Add ``elo``, ``elo_lower``, ``elo_upper`` to a :func:`strength_model` frame.

    The Bradley-Terry/Plackett-Luce odds of finishing ahead are the strength
    ratio, which is Elo's logistic with base 10 and scale 400, so Elo =
    ``400 / ln 10`` x log-strength (about 173.7 per unit); centred like the
    ratings (mean 0 over the labels).

    >>> fit = pl.DataFrame({"bot": ["a", "b"], "rating": [math.log(10) / 2,
    ...     -math.log(10) / 2], "lower": [0.0, -2.0], "upper": [2.0, 0.0]})
    >>> to_elo(fit)["elo"].round(6).to_list()  # 10:1 odds
    [200.0, -200.0]
    """
    return ratings.with_columns(
        (pl.col(c) * ELO_PER_LOG_STRENGTH).alias(name)
        for c, name in (("rating", "elo"), ("lower", "elo_lower"),
                        ("upper", "elo_upper"))
    )  # fmt: skip


def head_to_head(
    games: Frame, *, by: str = "bot", confidence: float = 0.95
) -> pl.DataFrame:
    """How often label ``a`` finished ahead of label ``b`` when both played.

    Every pair of seats of a game holding two different labels is one
    comparison (one per game when each label has one seat).  ``ahead`` counts
    the comparisons ``a`` won (lower rank), ``ties`` the equal ranks;
    ``share = (ahead + ties / 2) / n`` with a Wilson interval (ties count half).
    Both orders of every pair are returned, so ``share(a, b) + share(b, a) = 1``.

    Returns
    -------
    polars.DataFrame
        ``a, b, n, ahead, ties, share, lower, upper`` sorted by ``a, b``.

    Examples
    --------
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "bot": ["x", "y"] * 2,
    ...     "rank": [1, 2, 2, 2]})
    >>> head_to_head(df).select("a", "b", "share").rows()
    [('x', 'y', 0.75), ('y', 'x', 0.25)]
    """
    _alpha(confidence)
    gk = game_keys(games)
    df = _collect(games, [*gk, by, "rank"]).with_columns(
        pl.col(by).cast(pl.String), pl.col("rank").cast(pl.Int64)
    )
    left = df.rename({by: "a", "rank": "_ra"})
    right = df.rename({by: "b", "rank": "_rb"})
    pairs = left.join(right, on=gk).filter(pl.col("a") != pl.col("b"))
    table = (
        pairs.group_by("a", "b")
        .agg(
            n=pl.len().cast(pl.Int64),
            ahead=(pl.col("_ra") < pl.col("_rb")).sum().cast(pl.Int64),
            ties=(pl.col("_ra") == pl.col("_rb")).sum().cast(pl.Int64),
        )
        .sort("a", "b")
        .with_columns(share=(pl.col("ahead") + pl.col("ties") / 2) / pl.col("n"))
    )
    successes = (table["ahead"] + table["ties"] / 2).to_numpy().astype(float)
    lo, hi = stats.wilson_interval(
        successes, table["n"].to_numpy().astype(float), confidence
    )
    return table.with_columns(lower=pl.Series(lo), upper=pl.Series(hi))


# --------------------------------------------------------------------------------
# Robustness across bot policies
# --------------------------------------------------------------------------------


def robustness(
    table_a: Frame,
    table_b: Frame,
    *,
    on: Sequence[str],
    estimate: str = "excess",
    significant: str = "significant",
) -> pl.DataFrame:
    """Whether two balance tables (e.g. under two bot policies) agree.

    Joins the tables on ``on`` and summarises agreement: the Spearman rank
    correlation of ``estimate``; how many keys are significant in each table;
    ``sign_agreement``, the share of keys significant in at least one table
    whose estimates have the same sign in both; and ``conflicts``, keys
    significant in both tables with opposite signs (the strongest kind of
    disagreement).

    Returns
    -------
    polars.DataFrame
        One row: ``keys, spearman, significant_a, significant_b,
        significant_both, sign_agreement, conflicts``.

    Examples
    --------
    >>> import polars as pl
    >>> a = pl.DataFrame({"seat": [0, 1, 2], "excess": [0.05, -0.01, -0.04],
    ...     "significant": [True, False, True]})
    >>> b = a.with_columns(pl.col("excess") * 2)
    >>> robustness(a, b, on=["seat"]).select("spearman", "sign_agreement")
    shape: (1, 2)
    ┌──────────┬────────────────┐
    │ spearman ┆ sign_agreement │
    │ ---      ┆ ---            │
    │ f64      ┆ f64            │
    ╞══════════╪════════════════╡
    │ 1.0      ┆ 1.0            │
    └──────────┴────────────────┘
    """
    joined = robustness_detail(
        table_a, table_b, on=on, estimate=estimate, significant=significant
    )
    ea = joined[f"{estimate}_a"].to_numpy()
    eb = joined[f"{estimate}_b"].to_numpy()
    sa = joined[f"{significant}_a"].to_numpy().astype(bool)
    sb = joined[f"{significant}_b"].to_numpy().astype(bool)
    same = np.sign(ea) == np.sign(eb)
    either = sa | sb
    both = sa & sb
    return pl.DataFrame(
        {
            "keys": [joined.height],
            "spearman": [stats.spearman(ea, eb)],
            "significant_a": [int(sa.sum())],
            "significant_b": [int(sb.sum())],
            "significant_both": [int(both.sum())],
            "sign_agreement": [
                float(same[either].mean()) if either.any() else math.nan
            ],
            "conflicts": [int((both & ~same).sum())],
        }
    )


def robustness_detail(
    table_a: Frame,
    table_b: Frame,
    *,
    on: Sequence[str],
    estimate: str = "excess",
    significant: str = "significant",
) -> pl.DataFrame:
    """The per-key join behind :func:`robustness` (suffixes ``_a`` and ``_b``)."""
    cols = [*on, estimate, significant]
    a = _collect(table_a, cols).rename(
        {estimate: f"{estimate}_a", significant: f"{significant}_a"}
    )
    b = _collect(table_b, cols).rename(
        {estimate: f"{estimate}_b", significant: f"{significant}_b"}
    )
    return (
        a.join(b, on=list(on), nulls_equal=True)
        .with_columns(
            agree=pl.col(f"{estimate}_a").sign() == pl.col(f"{estimate}_b").sign()
        )
        .sort(list(on))
    )
