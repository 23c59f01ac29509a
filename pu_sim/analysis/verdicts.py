"""Verdicts a designer can act on: which findings hold under two strong policies.

A balance finding measured with one bot may be the bot's, not the game's.  The
same setups played by two policies of different style give each finding two
effects with intervals; :func:`finding_labels` turns them into one of

* ``"robust"``: significant under both policies, in the same direction;
* ``"bot-dependent"``: the policies disagree, meaning either significant
  under both in opposite directions, or significant under exactly one and
  the two effects significantly different from each other (by default the
  difference ``a - b`` with ``se = sqrt(se_a^2 + se_b^2)``, each se read from
  its interval; ``disagreement="interval"`` instead asks that the other
  policy's interval exclude the significant policy's estimate);
* ``"unresolved"``: anything else (not significant under either, or
  significant under one and not shown to differ under the other).

The rule for "bot-dependent" asks for evidence that the policies *differ*,
not just that one of them is too noisy to confirm the other: a finding one
policy sees clearly and the other cannot resolve stays unresolved.  The
difference test treats the two estimates as independent; played on the same
setups they are usually positively correlated, which makes the test
conservative (slower to call a finding bot-dependent).

Also here: rank agreement between the policies (Spearman and Kendall, with
cluster-bootstrap intervals over setups), the one-look verdict table per player
count, and corporation x planet cells with a multiple-comparison correction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl
from scipy import special
from scipy import stats as sps

from pu_sim.analysis import stats
from pu_sim.analysis.cluster_stats import (
    FloatArray,
    LabelSums,
    bootstrap_weights,
    dense_codes,
)
from pu_sim.analysis.clusters import (
    CLUSTER,
    DEFAULT_BOOTSTRAP,
    SCORE_VS_TABLE,
    VALUE,
    WIN_SHARE,
    Method,
    check_options,
    cluster_frame,
    cluster_means,
    cluster_win_rates,
    label_order,
)
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.stats import Correction

LABELS = ("robust", "bot-dependent", "unresolved")
Label = pl.Enum(list(LABELS))
"""The verdict labels, in this order (a Polars Enum)."""

Disagreement = Literal["difference", "interval"]


# --------------------------------------------------------------------------------
# The label rule
# --------------------------------------------------------------------------------


def _excludes_zero(lower: FloatArray, upper: FloatArray) -> npt.NDArray[np.bool_]:
    return np.asarray((lower > 0) | (upper < 0), dtype=np.bool_)


def finding_labels(
    estimate_a: npt.ArrayLike,
    lower_a: npt.ArrayLike,
    upper_a: npt.ArrayLike,
    estimate_b: npt.ArrayLike,
    lower_b: npt.ArrayLike,
    upper_b: npt.ArrayLike,
    *,
    significant_a: npt.ArrayLike | None = None,
    significant_b: npt.ArrayLike | None = None,
    confidence: float = 0.95,
    disagreement: Disagreement = "difference",
) -> list[str]:
    """Label each finding robust, bot-dependent or unresolved (module docstring).

    ``significant_*`` default to "the interval excludes 0"; pass flags from
    adjusted p-values to make the rule respect a multiple-comparison
    correction.  ``confidence`` is the level of the difference test and of
    the intervals' half-widths read as ``z * se``.

    Examples
    --------
    >>> a = [2.0] * 4, [1.0] * 4, [3.0] * 4  # estimate, lower, upper: significant
    >>> b = [1.5, -2.0, 1.0, -0.5], [0.5, -3.0, -0.1, -1.5], [2.5, -1.0, 2.1, 0.5]
    >>> finding_labels(*a, *b)
    ['robust', 'bot-dependent', 'unresolved', 'bot-dependent']
    """
    ea, la, ua, eb, lb, ub = (
        np.asarray(v, dtype=np.float64).ravel()
        for v in (estimate_a, lower_a, upper_a, estimate_b, lower_b, upper_b)
    )
    sa = _flags(significant_a, la, ua)
    sb = _flags(significant_b, lb, ub)
    same = np.sign(ea) == np.sign(eb)
    if disagreement == "difference":
        z = float(special.ndtri(0.5 + confidence / 2.0))
        se_a, se_b = (ua - la) / (2 * z), (ub - lb) / (2 * z)
        with np.errstate(invalid="ignore"):
            differ = np.abs(ea - eb) > z * np.sqrt(se_a**2 + se_b**2)
    elif disagreement == "interval":
        differ = np.where(sa, (ea < lb) | (ea > ub), (eb < la) | (eb > ua))
    else:
        raise ValueError(
            f"disagreement must be 'difference' or 'interval', got {disagreement!r}"
        )
    robust = sa & sb & same
    opposite = sa & sb & ~same
    one_differs = (sa ^ sb) & differ
    labels: list[str] = np.where(
        robust, LABELS[0], np.where(opposite | one_differs, LABELS[1], LABELS[2])
    ).tolist()
    return labels


def _flags(
    given: npt.ArrayLike | None, lower: FloatArray, upper: FloatArray
) -> npt.NDArray[np.bool_]:
    if given is None:
        return _excludes_zero(lower, upper)
    return np.asarray(given, dtype=np.bool_).ravel()


def judge_findings(
    table_a: Frame,
    table_b: Frame,
    *,
    on: Sequence[str],
    estimate: str = "excess",
    lower: str = "lower",
    upper: str = "upper",
    significant: str | None = None,
    confidence: float = 0.95,
    disagreement: Disagreement = "difference",
) -> pl.DataFrame:
    """Join two effect tables (one per policy) on ``on`` and label every row.

    The tables are e.g. :func:`~pu_sim.analysis.clusters.cluster_win_rates`
    under each policy.  ``significant`` names a boolean column to use instead
    of "the interval excludes 0" (e.g. one set from adjusted p-values).

    Returns
    -------
    polars.DataFrame
        ``*on``, then ``estimate, lower, upper`` (and ``significant``) with
        suffixes ``_a`` and ``_b``, and ``label`` (Enum :data:`Label`).
    """
    cols = [estimate, lower, upper, *([significant] if significant else [])]
    a = table_a.lazy().select(*on, *cols).collect()
    b = table_b.lazy().select(*on, *cols).collect()
    joined = a.join(
        b, on=list(on), suffix="_b", nulls_equal=True, maintain_order="left"
    ).rename({c: f"{c}_a" for c in cols})
    labels = finding_labels(
        joined[f"{estimate}_a"], joined[f"{lower}_a"], joined[f"{upper}_a"],
        joined[f"{estimate}_b"], joined[f"{lower}_b"], joined[f"{upper}_b"],
        significant_a=joined[f"{significant}_a"] if significant else None,
        significant_b=joined[f"{significant}_b"] if significant else None,
        confidence=confidence, disagreement=disagreement,
    )  # fmt: skip
    return joined.with_columns(label=pl.Series(labels, dtype=Label)).sort(
        label_order(joined, on)
    )


# --------------------------------------------------------------------------------
# Rank agreement between two policies
# --------------------------------------------------------------------------------


def row_spearman(a: FloatArray, b: FloatArray) -> FloatArray:
    """Spearman's rho of each row pair of two ``B x L`` matrices (NaN: no ranking)."""
    ra = sps.rankdata(a, axis=1)
    rb = sps.rankdata(b, axis=1)
    ra -= ra.mean(1, keepdims=True)
    rb -= rb.mean(1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = (ra * rb).sum(1) / np.sqrt((ra * ra).sum(1) * (rb * rb).sum(1))
    return np.asarray(rho, dtype=np.float64)


def row_kendall(a: FloatArray, b: FloatArray) -> FloatArray:
    """Kendall's tau-b of each row pair of two ``B x L`` matrices.

    ``sum(sign_a * sign_b) / sqrt(sum(sign_a^2) * sum(sign_b^2))`` over the
    label pairs, which is tau-b: tied pairs drop out of each variable's term.
    """
    i, j = np.triu_indices(a.shape[1], 1)
    sa = np.sign(a[:, i] - a[:, j])
    sb = np.sign(b[:, i] - b[:, j])
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = (sa * sb).sum(1) / np.sqrt((sa * sa).sum(1) * (sb * sb).sum(1))
    return np.asarray(tau, dtype=np.float64)


def _shared_sums(
    part_a: pl.DataFrame, part_b: pl.DataFrame, by: Sequence[str]
) -> tuple[pl.DataFrame, LabelSums, LabelSums, int]:
    """Label and cluster codes common to both policies' rows of one stratum."""
    labels = (
        part_a.select(*by)
        .unique()
        .join(part_b.select(*by).unique(), on=list(by), maintain_order="left")
    )
    labels = labels.sort(label_order(labels, by)).with_row_index("_label")
    codes = dense_codes(pl.concat([part_a[CLUSTER], part_b[CLUSTER]]))
    g = int(codes.max()) + 1
    shared = len(set(codes[: part_a.height]) & set(codes[part_a.height :]))
    out = []
    for part, c in ((part_a, codes[: part_a.height]), (part_b, codes[part_a.height :])):
        coded = part.with_columns(_c=pl.Series(c)).join(
            labels, on=list(by), maintain_order="left"
        )
        out.append(
            LabelSums.build(
                coded["_c"].to_numpy().astype(np.int64),
                coded["_label"].to_numpy().astype(np.int64),
                coded[VALUE].to_numpy().astype(np.float64),
                (g, labels.height),
            )
        )
    return labels, out[0], out[1], shared


def rank_agreement(
    games_a: Frame,
    games_b: Frame,
    *,
    by: Sequence[str] = ("corporation",),
    value: str = WIN_SHARE,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """Do two policies rank the labels alike?  Spearman and Kendall with CIs.

    Per player count, each label's mean ``value`` (default its win rate) under
    policy a and under policy b; the two rankings are compared by Spearman's
    rho and Kendall's tau-b (:mod:`scipy.stats`).  Intervals are cluster-
    bootstrap percentiles: the same resampled setups are used for both
    policies, so clusters are matched by their key (``cluster``, default
    ``game_id // group_size``), which must name the same setup in both frames.
    Resamples where a label is absent are dropped.

    Returns
    -------
    polars.DataFrame
        ``n_players, labels, clusters, shared_clusters, spearman,
        spearman_lower, spearman_upper, kendall, kendall_lower,
        kendall_upper``.
    """
    check_options(confidence, "bootstrap", n_boot)
    df_a, df_b = (
        cluster_frame(
            games, labels=by, value=value, cluster=cluster, group_size=group_size
        )
        for games in (games_a, games_b)
    )
    alpha = 1.0 - confidence
    rows = []
    for n_players in sorted(set(df_a["n_players"]) & set(df_b["n_players"])):
        labels, sums_a, sums_b, shared = _shared_sums(
            df_a.filter(pl.col("n_players") == n_players),
            df_b.filter(pl.col("n_players") == n_players),
            by,
        )
        rng = np.random.default_rng([seed, int(n_players)])
        boot_a, boot_b = _paired_resamples(sums_a, sums_b, n_boot, rng)
        ok = np.isfinite(boot_a).all(1) & np.isfinite(boot_b).all(1)
        row: dict[str, object] = {
            "n_players": n_players,
            "labels": labels.height,
            "clusters": sums_a.sums.shape[0],
            "shared_clusters": shared,
        }
        for name, point, replicate in (
            ("spearman", stats.spearman, row_spearman),
            ("kendall", stats.kendall, row_kendall),
        ):
            reps = replicate(boot_a[ok], boot_b[ok])
            reps = reps[np.isfinite(reps)]
            row[name] = point(sums_a.means(), sums_b.means())
            limits = np.quantile(reps, [alpha / 2, 1 - alpha / 2]) if reps.size else [
                np.nan, np.nan
            ]  # fmt: skip
            row[f"{name}_lower"], row[f"{name}_upper"] = map(float, limits)
        rows.append(row)
    return pl.DataFrame(rows, schema_overrides={"n_players": df_a.schema["n_players"]})


def _paired_resamples(
    sums_a: LabelSums, sums_b: LabelSums, n_boot: int, rng: np.random.Generator
) -> tuple[FloatArray, FloatArray]:
    """Label means of both policies over the same resampled clusters."""
    out_a, out_b = [], []
    for w in bootstrap_weights(sums_a.sums.shape[0], n_boot, rng):
        with np.errstate(divide="ignore", invalid="ignore"):
            out_a.append((w @ sums_a.sums) / (w @ sums_a.counts))
            out_b.append((w @ sums_b.sums) / (w @ sums_b.counts))
    return np.concatenate(out_a), np.concatenate(out_b)


# --------------------------------------------------------------------------------
# Multiple comparisons
# --------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------
# The one-look table
# --------------------------------------------------------------------------------


def verdict_table(
    games_a: Frame,
    games_b: Frame,
    *,
    kinds: Sequence[str] = ("corporation", "planet"),
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    correction: Correction = "holm",
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    disagreement: Disagreement = "difference",
) -> pl.DataFrame:
    """The designer's one-look table: every corporation and planet, two policies.

    Per player count (multiplayer) and label kind, each label's win rate
    minus 1/n in percentage points (``win_pp``) and its score against its
    game's mean (``score``, points), each with a cluster interval under policy
    a (``games_a``, the primary one) and policy b; ``label`` is the verdict
    on the win rate and ``score_label`` on the score (:func:`finding_labels`),
    with significance from p-values adjusted by ``correction`` over all rows
    of each policy's table.  Sorted by player count, kind, then ``win_pp_a``
    from strongest to weakest.

    Returns
    -------
    polars.DataFrame
        ``n_players, kind, name, win_pp_a, win_lower_a, win_upper_a,
        win_pp_b, win_lower_b, win_upper_b, label, score_a, score_lower_a,
        score_upper_a, score_b, score_lower_b, score_upper_b, score_label``.
    """
    alpha = 1.0 - confidence
    tables = []
    for suffix, games in (("a", games_a), ("b", games_b)):
        parts = []
        for kind in kinds:
            wins = cluster_win_rates(
                games, by=[kind], cluster=cluster, group_size=group_size,
                confidence=confidence, method=method, n_boot=n_boot, seed=seed,
            )  # fmt: skip
            score = cluster_means(
                games, by=[kind], value=SCORE_VS_TABLE, cluster=cluster,
                group_size=group_size, confidence=confidence, method=method,
                n_boot=n_boot, seed=seed,
            ).filter(pl.col("n_players") >= 2)  # fmt: skip
            parts.append(_one_look_rows(wins, score, kind))
        table = pl.concat(parts)
        table = table.with_columns(
            _sig_win=pl.Series(stats.adjust(table["_p_win"], correction) < alpha),
            _sig_score=pl.Series(stats.adjust(table["_p_score"], correction) < alpha),
        ).drop("_p_win", "_p_score")
        keys = {"n_players", "kind", "name"}
        suffixed = {c: f"{c}_{suffix}" for c in table.columns if c not in keys}
        tables.append(table.rename(suffixed))
    joined = tables[0].join(
        tables[1], on=["n_players", "kind", "name"], maintain_order="left"
    )
    labels = {}
    for measure, prefix in (("label", "win"), ("score_label", "score")):
        estimate = "win_pp" if prefix == "win" else "score"
        labels[measure] = pl.Series(
            finding_labels(
                joined[f"{estimate}_a"], joined[f"{prefix}_lower_a"],
                joined[f"{prefix}_upper_a"], joined[f"{estimate}_b"],
                joined[f"{prefix}_lower_b"], joined[f"{prefix}_upper_b"],
                significant_a=joined[f"_sig_{prefix}_a"],
                significant_b=joined[f"_sig_{prefix}_b"],
                confidence=confidence, disagreement=disagreement,
            ),
            dtype=Label,
        )  # fmt: skip
    kind_order = pl.col("kind").replace_strict(
        {k: i for i, k in enumerate(kinds)}, return_dtype=pl.Int64
    )
    return (
        joined.with_columns(**labels)
        .sort([pl.col("n_players"), kind_order, pl.col("win_pp_a")],
              descending=[False, False, True])
        .select(
            "n_players", "kind", "name", "win_pp_a", "win_lower_a", "win_upper_a",
            "win_pp_b", "win_lower_b", "win_upper_b", "label", "score_a",
            "score_lower_a", "score_upper_a", "score_b", "score_lower_b",
            "score_upper_b", "score_label",
        )
    )  # fmt: skip


def _one_look_rows(wins: pl.DataFrame, score: pl.DataFrame, kind: str) -> pl.DataFrame:
    """One policy's rows of the one-look table for one label kind."""
    name = pl.col(kind).cast(pl.String).alias("name")
    return wins.select(
        "n_players", pl.lit(kind).alias("kind"), name,
        win_pp=pl.col("excess") * 100, win_lower=pl.col("lower") * 100,
        win_upper=pl.col("upper") * 100, _p_win=pl.col("p_value"),
    ).join(
        score.select(
            "n_players", name, score=pl.col("mean"), score_lower=pl.col("lower"),
            score_upper=pl.col("upper"), _p_score=pl.col("p_value"),
        ),
        on=["n_players", "name"], maintain_order="left"
    )  # fmt: skip
