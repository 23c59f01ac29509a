"""Whether two policies rank the corporations and planets alike.

Spearman's rho and Kendall's tau-b between the two policies' label means,
with cluster-bootstrap intervals that resample the same setups for both
policies (their games are paired by setup).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl
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
    VALUE,
    WIN_SHARE,
    check_options,
    cluster_frame,
    label_order,
)
from pu_sim.analysis.frame import Frame

__all__ = ["rank_agreement", "row_kendall", "row_spearman", "shared_label_sums"]


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


def shared_label_sums(
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
        labels, sums_a, sums_b, shared = shared_label_sums(
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
