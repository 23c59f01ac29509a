"""Cluster-robust statistics on numpy arrays: the engine behind the analyses.

Everything here works on codes and sums, never on frames: per-row cluster
codes, per-cluster sums of each label (:class:`LabelSums`), OLS with the CR1
sandwich (:func:`cluster_ols`, fitted by statsmodels), the design effect, the
cluster bootstrap's resampling weights, and turning estimates into intervals
and p-values.  :mod:`pu_sim.analysis.clusters` reads frames into these.  The
per-label sums, the design effect and the bootstrap weights stay by hand:
they are a few lines on sums that a library would want as whole frames.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
import statsmodels.api as sm
from scipy import stats as sps

from pu_sim.analysis import stats

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def dense_codes(keys: pl.Series) -> IntArray:
    """Codes 0..K-1 of a key column (any dtype, structs too), in sorted key order."""
    ranks = keys.rank("dense").cast(pl.Int64).to_numpy()
    return np.asarray(ranks - 1, dtype=np.int64)


def _cluster_fit(x: npt.ArrayLike, y: npt.ArrayLike, clusters: npt.ArrayLike) -> Any:
    """The OLS fit with CR1 cluster-robust covariance and t on ``G - 1`` df.

    ``use_correction`` is the CR1 factor and ``df_correction`` makes the
    inference df the number of clusters minus one; both are the library's
    defaults, stated so a change of defaults cannot change our intervals.
    """
    xm = np.asarray(x, dtype=np.float64)
    yv = np.asarray(y, dtype=np.float64).ravel()
    codes = dense_codes(pl.Series(np.asarray(clusters).ravel()))
    n, k = xm.shape
    g = int(codes.max()) + 1 if n else 0
    if n <= k or g < 2:
        raise ValueError(f"need more rows than coefficients and 2+ clusters: {n}, {g}")
    if np.linalg.matrix_rank(xm) < k:
        raise np.linalg.LinAlgError("the design matrix is singular")
    cov_kwds = {"groups": codes, "use_correction": True, "df_correction": True}
    return sm.OLS(yv, xm).fit(cov_type="cluster", cov_kwds=cov_kwds, use_t=True)


def cluster_ols(
    x: npt.ArrayLike, y: npt.ArrayLike, clusters: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """OLS coefficients and their CR1 cluster-robust covariance matrix.

    ``cov = c * (X'X)^-1 [sum_g (X_g' e_g)(X_g' e_g)'] (X'X)^-1`` with
    ``c = G/(G-1) * (N-1)/(N-K)``: the sandwich lets rows of one cluster be
    correlated in any way, and ``c`` corrects its downward bias in few
    clusters.  A linear contrast ``w`` of the coefficients then has standard
    error ``sqrt(w' cov w)`` and ``G - 1`` degrees of freedom.  Raises for a
    singular design (a coefficient the data cannot tell apart).

    Examples
    --------
    >>> beta, cov = cluster_ols([[1.0], [1.0], [1.0], [1.0]], [1, 3, 5, 7],
    ...                         [0, 0, 1, 1])
    >>> float(beta[0]), float(cov[0, 0])  # (-4)^2 + 4^2 over 4^2, times c = 2
    (4.0, 4.0)
    """
    fit = _cluster_fit(x, y, clusters)
    return np.asarray(fit.params, np.float64), np.asarray(fit.cov_params(), np.float64)


def linear_contrast(
    x: npt.ArrayLike,
    y: npt.ArrayLike,
    clusters: npt.ArrayLike,
    contrast: npt.ArrayLike,
    confidence: float = 0.95,
) -> dict[str, float]:
    """A linear contrast ``w'beta`` of OLS coefficients with its CR1 interval.

    ``se = sqrt(w' cov w)`` from :func:`cluster_ols`, Student's t with ``G - 1``
    degrees of freedom (G clusters) for the interval and the two-sided p-value
    of ``w'beta = 0``.  A standard error of 0 gives no interval and no p-value
    (NaN), as in :func:`t_limits`; "0" allows for rounding: below ``1e-9`` of
    what it would be if ``y`` were noise of its own size.

    Returns
    -------
    dict
        ``estimate, se, lower, upper, p_value, clusters``.

    Examples
    --------
    >>> x = [[1.0, 0.0], [1.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    >>> out = linear_contrast(x, [1, 3, 2, 5], [0, 0, 1, 1], [0.0, 1.0])
    >>> round(out["estimate"], 9), out["clusters"]  # second group's mean - first's
    (2.5, 2.0)
    """
    fit = _cluster_fit(x, y, clusters)
    w = np.asarray(contrast, dtype=np.float64).ravel()
    g = float(np.unique(np.asarray(clusters).ravel()).size)
    estimate = float(w @ fit.params)
    se = float(np.sqrt(w @ fit.cov_params() @ w))
    noise = float(w @ fit.normalized_cov_params @ w) * np.mean(fit.model.endog**2)
    lo = hi = p = math.nan
    if se <= 1e-9 * math.sqrt(noise):
        se = 0.0
    else:
        test = fit.t_test(w[None, :])
        (lo, hi), p = test.conf_int(alpha=1.0 - confidence)[0], test.pvalue
    return {
        "estimate": estimate, "se": se, "lower": float(lo), "upper": float(hi),
        "p_value": float(p), "clusters": g,
    }  # fmt: skip


def design_effect(influence: npt.ArrayLike, clusters: npt.ArrayLike) -> float:
    """Variance with clusters as units over the variance with rows as units.

    ``influence`` is each row's contribution to the estimate's error (for a
    mean, the residual ``y - mean``): ``sum_g (sum_{i in g} u_i)^2 / sum_i
    u_i^2``.  No small-sample factors on either side, so a frame whose games
    are copies of each other within groups of ``k`` gives exactly ``k``.

    Examples
    --------
    >>> design_effect([1.0, 1.0, -1.0, -1.0], [0, 0, 1, 1])  # copies in pairs
    2.0
    >>> design_effect([1.0, -1.0, 1.0, -1.0], [0, 0, 1, 1])  # pairs cancel
    0.0
    """
    u = np.asarray(influence, dtype=np.float64).ravel()
    codes = dense_codes(pl.Series(np.asarray(clusters).ravel()))
    naive = float(u @ u)
    if naive == 0.0:
        return math.nan
    totals = np.bincount(codes, weights=u)
    return float(totals @ totals) / naive


def bootstrap_weights(
    n_clusters: int, n_boot: int, rng: np.random.Generator, chunk: int = 256
) -> Iterator[FloatArray]:
    """Cluster-bootstrap weights in chunks: rows of multinomial(G, 1/G) counts.

    Row ``b`` says how often each of the G clusters is drawn in resample
    ``b``; a resampled sum is ``weights @ per_cluster_sums``.  Chunks keep the
    memory at ``chunk x G`` whatever ``n_boot`` is.
    """
    if n_clusters < 1:
        raise ValueError("the cluster bootstrap needs at least one cluster")
    p = np.full(n_clusters, 1.0 / n_clusters)
    done = 0
    while done < n_boot:
        size = min(chunk, n_boot - done)
        yield rng.multinomial(n_clusters, p, size=size).astype(np.float64)
        done += size


@dataclass(frozen=True)
class LabelSums:
    """Per-cluster sums of one stratum: enough for means, CR1 and the bootstrap.

    ``sums[g, l]`` and ``counts[g, l]`` are the total value and the number of
    rows of label ``l`` in cluster ``g``; ``squares[l]`` the sum of squared
    values of label ``l``.
    """

    sums: FloatArray
    counts: FloatArray
    squares: FloatArray

    @classmethod
    def build(
        cls,
        clusters: IntArray,
        labels: IntArray,
        values: FloatArray,
        shape: tuple[int, int],
    ) -> LabelSums:
        """From per-row cluster codes, label codes and values."""
        g, n_labels = shape
        cell = clusters * n_labels + labels
        size = g * n_labels
        sums = np.bincount(cell, values, size).astype(np.float64).reshape(shape)
        counts = np.bincount(cell, minlength=size).astype(np.float64).reshape(shape)
        squares = np.bincount(labels, weights=values * values, minlength=n_labels)
        return cls(sums, counts, np.asarray(squares, np.float64))

    def means(self) -> FloatArray:
        """Mean value of each label."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.asarray(self.sums.sum(0) / self.counts.sum(0), np.float64)

    def cluster_residuals(self) -> FloatArray:
        """``e[g, l]``: the sum over label l's rows in cluster g of ``y - mean``."""
        mean = np.nan_to_num(self.means())
        return np.asarray(self.sums - self.counts * mean, np.float64)

    def residual_squares(self) -> FloatArray:
        """``sum_i (y_i - mean)^2`` per label."""
        n = self.counts.sum(0)
        mean = np.nan_to_num(self.means())
        return np.asarray(np.maximum(self.squares - n * mean * mean, 0.0), np.float64)

    def resampled_means(self, n_boot: int, rng: np.random.Generator) -> FloatArray:
        """``n_boot x L`` label means over cluster-bootstrap resamples (NaN: absent)."""
        out = []
        for w in bootstrap_weights(self.sums.shape[0], n_boot, rng):
            with np.errstate(divide="ignore", invalid="ignore"):
                out.append((w @ self.sums) / (w @ self.counts))
        return np.asarray(np.concatenate(out), np.float64)


def t_limits(
    est: FloatArray, se: FloatArray, df: FloatArray, confidence: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Student-t interval and two-sided p-value of estimates with their se and df.

    A standard error of 0 (a handful of setups that all came out the same, say
    Petra winning both of its two) is no evidence: no interval, no p-value,
    so such a row can never be called significant.
    """
    ok = (df > 0) & (se > 0)
    q = np.where(ok, sps.t.ppf(0.5 + confidence / 2.0, np.where(ok, df, 1.0)), np.nan)
    p = np.where(ok, stats.t_test(est, se, np.where(ok, df, 0.0)), np.nan)
    return est - q * se, est + q * se, p


def percentile_limits(
    boot: FloatArray, confidence: float, centre: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Percentile interval, bootstrap se and a p-value against ``centre``.

    The p-value is twice the smaller share of resamples on either side of
    ``centre``, consistent with the interval: it is below ``1 - confidence``
    when the interval excludes ``centre``.
    """
    alpha = 1.0 - confidence
    with np.errstate(invalid="ignore"):
        valid = np.isfinite(boot)
        lo = _finite_quantile(boot, alpha / 2.0)
        hi = _finite_quantile(boot, 1.0 - alpha / 2.0)
        n = valid.sum(0)
        below = np.where(valid, boot <= centre, False).sum(0)
        above = np.where(valid, boot >= centre, False).sum(0)
        p = np.minimum(1.0, 2.0 * np.minimum(below, above) / np.maximum(n, 1))
        se = np.array(
            [np.std(boot[valid[:, j], j], ddof=1) if n[j] > 1 else np.nan
             for j in range(boot.shape[1])]
        )  # fmt: skip
    p = np.where(n > 0, p, np.nan)
    return lo, hi, np.asarray(se, np.float64), np.asarray(p, np.float64)


def _finite_quantile(boot: FloatArray, q: float) -> FloatArray:
    out = np.full(boot.shape[1], np.nan)
    for j in range(boot.shape[1]):
        col = boot[:, j]
        col = col[np.isfinite(col)]
        if col.size:
            out[j] = np.quantile(col, q)
    return out
