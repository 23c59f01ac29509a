"""Intervals that treat a setup (a group of games), not a row, as the unit.

A result frame has one row per (game, seat), and its rows are not independent
draws: the seats of one game share that game (their wins sum to one), and a
rotated or paired design (``TableSetup(group_size=k)``) plays one setup ``k``
times, so ``k`` games share a station, civ piles and a deck.  An interval that
counts every row as independent is too narrow.  Every estimate here uses the
*cluster* (by default the setup group ``game_id // group_size``, within a
``run``) as the independent unit, in one of two ways:

* ``method="cr1"``: the cluster-robust sandwich variance with the usual
  small-sample factor ``G/(G-1) * (N-1)/(N-K)`` (Stata's CR1; G clusters, N
  rows, K coefficients) and Student's t with ``G - 1`` degrees of freedom;
* ``method="bootstrap"``: the cluster bootstrap, drawing whole clusters with
  replacement (seeded; vectorised as a ``B x G`` matrix of multinomial
  weights times the ``G x L`` per-cluster sums of the L labels, so one
  resample costs a matrix product, not a pass over the frame), with
  percentile intervals.

The *design effect* says how much the clustering costs: the variance of the
estimate with clusters as units divided by the variance if every row were
independent.  Both are taken without small-sample factors, so it is a property
of the data: exactly the group size when every game of a group is a copy of
the others, about 1 when games are independent, below 1 when pairing helps.

Values are a frame column or one of two derived ones: ``"win_share"`` (a win,
split between tied winners, so shares sum to one per game) and
``"score_vs_table"`` (the score minus its own game's mean score).

Why long: every clustered estimate of the analyses (means, win rates,
differences) shares one notion of a cluster and one set of interval options;
split, each part would restate them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import polars as pl

from pu_sim.analysis.cluster_stats import (
    FloatArray,
    LabelSums,
    dense_codes,
    percentile_limits,
    t_limits,
)
from pu_sim.analysis.frame import Frame

Method = Literal["cr1", "bootstrap"]

WIN_SHARE = "win_share"
"""Derived value: 1 for a sole winner, 1/k for each of k tied winners, else 0."""

SCORE_VS_TABLE = "score_vs_table"
"""Derived value: the score minus the mean score of its own game."""

DERIVED_VALUES = (WIN_SHARE, SCORE_VS_TABLE)

DEFAULT_BOOTSTRAP = 1000
"""Cluster-bootstrap resamples by default: a 95% percentile limit then carries a
Monte Carlo error of about 0.09 of the estimate's standard error."""

CLUSTER = "_cluster"
VALUE = "_value"


# --------------------------------------------------------------------------------
# Reading a frame: values and cluster codes
# --------------------------------------------------------------------------------


def _game_keys(names: Sequence[str]) -> list[str]:
    return ["run", "game_id"] if "run" in names else ["game_id"]


def cluster_key(
    names: Sequence[str], cluster: str | Sequence[str] | None, group_size: int
) -> tuple[pl.Expr, list[str]]:
    """The cluster key as a struct expression, and the columns it reads.

    ``cluster`` names the key column(s); ``None`` means the setup group
    ``game_id // group_size``, within ``run`` when the frame has one.
    """
    if cluster is not None:
        keys = [cluster] if isinstance(cluster, str) else list(cluster)
        return pl.struct(keys), keys
    if group_size < 1:
        raise ValueError(f"group_size must be >= 1, got {group_size}")
    run = ["run"] if "run" in names else []
    group = (pl.col("game_id") // group_size).alias("group")
    return pl.struct(*run, group), [*run, "game_id"]


def value_expr(value: str, game_keys: Sequence[str]) -> pl.Expr:
    """The expression of ``value``: a column, or a derived value by its name."""
    if value == WIN_SHARE:
        won = pl.col("won").cast(pl.Float64)
        return won / pl.col("won").cast(pl.Float64).sum().over(game_keys).clip(1.0)
    if value == SCORE_VS_TABLE:
        score = pl.col("score").cast(pl.Float64)
        return score - score.mean().over(game_keys)
    return pl.col(value).cast(pl.Float64)


def cluster_frame(
    games: Frame,
    *,
    labels: Sequence[str],
    value: str,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    extra: Sequence[str] = (),
) -> pl.DataFrame:
    """``n_players, *labels, *extra, _value, _cluster``: what the estimators read.

    ``_value`` is ``value`` as floats (derived values computed over whole
    games first, so they see every seat); ``_cluster`` is the cluster's key as
    a struct (compare across frames by value; :func:`dense_codes` numbers it).
    ``cluster`` names the column(s) identifying a cluster; by default it is
    the setup group ``game_id // group_size`` (within ``run`` when present).
    """
    lazy = games.lazy()
    names = lazy.collect_schema().names()
    gk = _game_keys(names)
    key, key_columns = cluster_key(names, cluster, group_size)
    need: set[str] = {"n_players", *labels, *extra, *key_columns}
    if value == WIN_SHARE:
        need.update(["won", *gk])
    elif value == SCORE_VS_TABLE:
        need.update(["score", *gk])
    else:
        need.add(value)
    missing = sorted(c for c in need if c not in names)
    if missing:
        raise ValueError(f"the frame lacks column(s) {missing}; it has {names}")
    derived = value in DERIVED_VALUES
    out = (
        lazy.select([c for c in names if c in need])
        .select(
            "n_players",
            *dict.fromkeys([*labels, *extra]),
            value_expr(value, gk).alias(VALUE),
            key.alias(CLUSTER),
            *([(pl.len().over(gk) > pl.col("n_players")).alias("_crowded")]
              if derived else []),
        )
        .collect()
    )  # fmt: skip
    if derived:
        if out["_crowded"].any():
            raise ValueError(
                f"some games have more rows than seats: {gk} does not identify a "
                "game (concatenated runs need a 'run' column)"
            )
        out = out.drop("_crowded")
    return out


def label_order(df: pl.DataFrame, labels: Sequence[str]) -> list[pl.Expr]:
    """Sort keys of label columns: Enum/Categorical by declared order."""
    out = []
    for name in labels:
        dtype = df.schema[name]
        is_enum = isinstance(dtype, pl.Enum | pl.Categorical)
        out.append(pl.col(name).to_physical() if is_enum else pl.col(name))
    return out


def check_options(confidence: float, method: str, n_boot: int) -> None:
    """Refuse a confidence outside (0, 1), an unknown method or too few resamples."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    if method not in ("cr1", "bootstrap"):
        raise ValueError(f"method must be 'cr1' or 'bootstrap', got {method!r}")
    if method == "bootstrap" and n_boot < 2:
        raise ValueError(f"n_boot must be at least 2, got {n_boot}")


# --------------------------------------------------------------------------------
# Means and win rates per label
# --------------------------------------------------------------------------------


def _strata(
    df: pl.DataFrame, labels: Sequence[str]
) -> list[tuple[int, pl.DataFrame, pl.DataFrame]]:
    """Per player count: (n_players, rows with codes, its label table in order)."""
    out = []
    for (n_players,), part in sorted(
        df.partition_by("n_players", as_dict=True, maintain_order=True).items(),
        key=lambda kv: int(kv[0][0]),
    ):
        table = (
            (
                part.select(*labels)
                .unique()
                .sort(label_order(part, labels))
                .with_row_index("_label")
            )
            if labels
            else pl.DataFrame({"_label": [0]}, schema={"_label": pl.UInt32})
        )
        coded = (
            part.join(table, on=list(labels), nulls_equal=True, maintain_order="left")
            if labels else part.with_columns(_label=pl.lit(0, pl.UInt32))
        )  # fmt: skip
        coded = coded.with_columns(_c=pl.Series(dense_codes(coded[CLUSTER])))
        out.append((int(n_players), coded, table))
    return out


def _sums(coded: pl.DataFrame, n_labels: int) -> LabelSums:
    clusters = coded["_c"].to_numpy().astype(np.int64)
    labels = coded["_label"].to_numpy().astype(np.int64)
    values = coded[VALUE].to_numpy().astype(np.float64)
    g = int(clusters.max()) + 1 if clusters.size else 0
    return LabelSums.build(clusters, labels, values, (g, n_labels))


def _mean_rows(
    sums: LabelSums,
    centre: FloatArray,
    *,
    confidence: float,
    method: Method,
    n_boot: int,
    rng: np.random.Generator,
) -> dict[str, FloatArray]:
    """Mean, CI, p-value against ``centre``, se's and design effect per label."""
    n = sums.counts.sum(0)
    g = (sums.counts > 0).sum(0).astype(np.float64)
    mean = sums.means()
    resid = sums.cluster_residuals()
    between = (resid**2).sum(0)
    within = sums.residual_squares()
    with np.errstate(divide="ignore", invalid="ignore"):
        naive_se = np.sqrt(within / (n - 1) / n)
        cr1 = np.where(g > 1, g / (g - 1) * between / n**2, np.nan)
        deff = np.where(within > 0, between / within, np.nan)
    if method == "cr1":
        se = np.sqrt(cr1)
        lower, upper, p = t_limits(mean - centre, se, g - 1, confidence)
        lower, upper = lower + centre, upper + centre
    else:
        boot = sums.resampled_means(n_boot, rng)
        lower, upper, se, p = percentile_limits(boot, confidence, centre)
    return {
        "n": n, "clusters": g, "mean": mean, "se": se, "lower": lower,
        "upper": upper, "p_value": p, "naive_se": naive_se, "design_effect": deff,
    }  # fmt: skip


def cluster_means(
    games: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    value: str = "score",
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """Mean of ``value`` per label and player count, with cluster intervals.

    Parameters
    ----------
    games
        Result frame (one row per (game, seat)).
    by
        Label columns; ``()`` for one mean per player count.
    value
        A column, ``"win_share"`` or ``"score_vs_table"`` (module docstring).
    cluster
        Column(s) naming the independent unit; default the setup group
        ``game_id // group_size`` (within ``run``).  Every game is at least
        one cluster: its seats are never independent.
    method
        ``"cr1"`` (t with G-1 df) or ``"bootstrap"`` (percentile, ``n_boot``
        resamples of whole clusters, seeded per player count by ``seed``).

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, n, clusters, mean, se, lower, upper, p_value,
        naive_se, design_effect``; ``p_value`` tests a mean of 0, ``naive_se``
        is the interval's se if every row were independent.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 1, 2, 3], "n_players": [1] * 4,
    ...     "corporation": ["a"] * 4, "score": [40, 40, 50, 50]})
    >>> out = cluster_means(df, group_size=2)  # two groups of two copies
    >>> out.select("mean", "clusters", "design_effect").row(0)
    (45.0, 2, 2.0)
    """
    check_options(confidence, method, n_boot)
    df = cluster_frame(
        games, labels=by, value=value, cluster=cluster, group_size=group_size
    )
    frames = []
    for n_players, coded, table in _strata(df, by):
        sums = _sums(coded, table.height)
        rng = np.random.default_rng([seed, n_players])
        rows = _mean_rows(
            sums, np.zeros(table.height), confidence=confidence, method=method,
            n_boot=n_boot, rng=rng,
        )  # fmt: skip
        frames.append(
            table.drop("_label")
            .with_columns(n_players=pl.lit(n_players, df.schema["n_players"]))
            .with_columns(**{k: pl.Series(v) for k, v in rows.items()})
            .with_columns(pl.col("n", "clusters").cast(pl.Int64))
        )
    return _stack(frames, ["n_players", *by], df)


def cluster_win_rates(
    games: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """Win rate minus the fair share 1/n per label, with cluster intervals.

    The win rate is the mean ``win_share`` (a tie for first splits the win),
    so a balanced label wins ``1/n``; ``excess`` is the rate minus ``1/n``
    and its interval and p-value (against 0) treat the cluster as the unit.
    Multiplayer rows only.

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, n, clusters, win_rate, expected, excess, se,
        lower, upper, p_value, naive_se, design_effect`` (``lower`` and
        ``upper`` bound the excess).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "n_players": [2] * 4,
    ...     "corporation": ["a", "b"] * 2, "won": [True, False, True, False]})
    >>> cluster_win_rates(df).select("corporation", "excess").rows()
    [('a', 0.5), ('b', -0.5)]
    """
    check_options(confidence, method, n_boot)
    df = cluster_frame(
        games, labels=by, value=WIN_SHARE, cluster=cluster, group_size=group_size
    ).filter(pl.col("n_players") >= 2)
    frames = []
    for n_players, coded, table in _strata(df, by):
        sums = _sums(coded, table.height)
        fair = np.full(table.height, 1.0 / n_players)
        rng = np.random.default_rng([seed, n_players])
        rows = _mean_rows(
            sums, fair, confidence=confidence, method=method, n_boot=n_boot, rng=rng
        )
        frames.append(
            table.drop("_label")
            .with_columns(n_players=pl.lit(n_players, df.schema["n_players"]))
            .with_columns(
                n=pl.Series(rows["n"]).cast(pl.Int64),
                clusters=pl.Series(rows["clusters"]).cast(pl.Int64),
                win_rate=pl.Series(rows["mean"]),
                expected=pl.Series(fair),
                excess=pl.Series(rows["mean"] - fair),
                se=pl.Series(rows["se"]),
                lower=pl.Series(rows["lower"] - fair),
                upper=pl.Series(rows["upper"] - fair),
                p_value=pl.Series(rows["p_value"]),
                naive_se=pl.Series(rows["naive_se"]),
                design_effect=pl.Series(rows["design_effect"]),
            )
        )
    return _stack(frames, ["n_players", *by], df)


def _stack(
    frames: list[pl.DataFrame], keys: list[str], source: pl.DataFrame
) -> pl.DataFrame:
    """Concatenate per-stratum frames, keys first, sorted by label order."""
    if not frames:
        return pl.DataFrame(schema={k: source.schema[k] for k in keys})
    out = pl.concat(frames, how="diagonal_relaxed")
    rest = [c for c in out.columns if c not in keys]
    return out.select(*keys, *rest).sort(label_order(out, keys))


# --------------------------------------------------------------------------------
# The difference between two labels
# --------------------------------------------------------------------------------


def cluster_difference(
    games: Frame,
    *,
    by: str = "corporation",
    a: object,
    b: object,
    within: Sequence[str] = (),
    value: str = "score",
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """``mean(value | by == a) - mean(value | by == b)`` with cluster intervals.

    One difference per player count and ``within`` group (e.g. ``by="bot",
    within=("corporation",)``: each corporation's gain from one bot to
    another).  The CR1 variance is that of the regression ``value ~ 1 +
    [by == a]`` on the rows of ``a`` and ``b``, sandwiched over clusters: when
    both labels play in the same clusters (a paired design) their covariance
    enters and the interval narrows, which a ``design_effect`` below 1 shows.

    Returns
    -------
    polars.DataFrame
        ``n_players, *within, a, b, n_a, n_b, clusters, paired_clusters,
        difference, se, lower, upper, p_value, naive_se, design_effect``;
        ``paired_clusters`` counts the clusters holding both labels.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "n_players": [2] * 4,
    ...     "corporation": ["a", "b"] * 2, "score": [30, 20, 50, 40]})
    >>> cluster_difference(df, a="a", b="b").select("difference", "se").row(0)
    (10.0, 0.0)
    """
    check_options(confidence, method, n_boot)
    df = cluster_frame(
        games,
        labels=[by, *within],
        value=value,
        cluster=cluster,
        group_size=group_size,
    )
    df = df.filter(pl.col(by).is_in([a, b])).with_columns(
        _label=pl.when(pl.col(by) == a).then(0).otherwise(1).cast(pl.Int64)
    )
    keys = ["n_players", *within]
    rows = []
    for key, part in df.partition_by(keys, as_dict=True).items():
        coded = part.with_columns(_c=pl.Series(dense_codes(part[CLUSTER])))
        rng = np.random.default_rng([seed, int(part["n_players"][0])])
        result = _difference(
            _sums(coded, 2), confidence=confidence, method=method, n_boot=n_boot,
            rng=rng,
        )  # fmt: skip
        rows.append(dict(zip(keys, key, strict=True)) | {"a": a, "b": b} | result)
    schema = {k: df.schema[k] for k in keys} | {"a": df.schema[by], "b": df.schema[by]}
    if not rows:
        return pl.DataFrame(schema=schema)
    out = pl.DataFrame(rows, schema_overrides=schema, strict=False)
    return out.sort(label_order(out, keys))


def _difference(
    sums: LabelSums,
    *,
    confidence: float,
    method: Method,
    n_boot: int,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Difference of label 0's and label 1's means, its CI and design effect."""
    n = sums.counts.sum(0)
    mean = sums.means()
    diff = float(mean[0] - mean[1])
    with np.errstate(divide="ignore", invalid="ignore"):
        influence = sums.cluster_residuals() / n  # each cluster's pull on a mean
        naive_se = float(np.sqrt(np.sum(sums.residual_squares() / (n - 1) / n)))
        naive_var = float(np.sum(sums.residual_squares() / n**2))
    pull = influence[:, 0] - influence[:, 1]
    between = float(pull @ pull)
    g = int((sums.counts > 0).any(1).sum())
    deff = between / naive_var if naive_var > 0 else math.nan
    if method == "cr1":
        total = float(n.sum())
        # Two games (one of each label) leave no degree of freedom: no interval.
        defined = g > 1 and total > 2
        factor = g / (g - 1) * (total - 1) / (total - 2) if defined else math.nan
        se = math.sqrt(factor * between)
        lo, hi, p = t_limits(
            np.array([diff]), np.array([se]), np.array([g - 1.0]), confidence
        )
    else:
        boot = sums.resampled_means(n_boot, rng)
        lo, hi, se_b, p = percentile_limits(
            (boot[:, 0] - boot[:, 1])[:, None], confidence, np.zeros(1)
        )
        se = float(se_b[0])
    return {
        "n_a": int(n[0]), "n_b": int(n[1]), "clusters": g,
        "paired_clusters": int((sums.counts > 0).all(1).sum()), "difference": diff,
        "se": se, "lower": float(lo[0]), "upper": float(hi[0]),
        "p_value": float(p[0]), "naive_se": naive_se, "design_effect": deff,
    }  # fmt: skip
