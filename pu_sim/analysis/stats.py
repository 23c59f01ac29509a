"""Intervals, tests and corrections for the analyses, on numpy arrays.

The statistics are :mod:`scipy.stats` (distributions, ranks, correlations)
and :mod:`statsmodels.stats` (Wilson intervals, the score test of a rate,
Benjamini-Hochberg and Bonferroni corrections); this module keeps the few
names the analyses call, so callers need not know which library function and
which convention each one uses, and adds what those calls lack: one array in
and one array out (scalars broadcast, so Polars analyses can call these on
whole columns), NaN for "no data" rather than a warning or an error, and NaN
p-values left out of a correction's family.  Kept by hand: the interval and
test of a mean from its summary (mean, sd, n), within-group ridge and the
signal spread of noisy paired rollouts, which neither library has in this
form, and Holm's correction, whose library version is slow (see :func:`holm`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
from scipy import special
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

FloatArray = npt.NDArray[np.float64]
ArrayLike = float | int | npt.ArrayLike


def _arr(x: ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=np.float64)


def normal_sf(z: ArrayLike) -> FloatArray:
    """Upper tail P(Z > z) of the standard normal, elementwise."""
    return np.asarray(special.ndtr(-_arr(z)), dtype=np.float64)


def t_ppf(p: float, df: float) -> float:
    """Quantile of Student's t with ``df`` degrees of freedom (NaN if ``df <= 0``).

    Raises for ``p`` outside (0, 1), where a quantile is no number: a caller
    asking for it has a confidence level wrong.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if not df > 0:
        return math.nan
    return float(sps.t.ppf(p, df))


def normal_quantile(p: float) -> float:
    """Quantile of the standard normal; raises for ``p`` outside (0, 1) like t_ppf.

    For callers that want the large-sample limit of :func:`t_ppf` without
    passing an enormous ``df``.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    return float(sps.norm.ppf(p))


def chi2_sf(x: float, df: float) -> float:
    """Upper tail P(X > x) of the chi-square distribution (NaN if ``df <= 0``)."""
    if df <= 0 or math.isnan(x):
        return math.nan
    return float(sps.chi2.sf(x, df))


def wilson_interval(
    successes: ArrayLike, n: ArrayLike, confidence: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Wilson score interval for a binomial proportion (no continuity correction).

    Preferred over the normal (Wald) interval because it keeps its coverage
    for rates near 0 or 1 (solo success rates are often a few percent), and
    it is the inversion of the score test that :func:`proportion_test` uses.

    Returns
    -------
    lower, upper
        Arrays of the interval bounds (NaN where ``n == 0``).

    Examples
    --------
    >>> lo, hi = wilson_interval(81, 263)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.2553, 0.3662)
    """
    k, nn = np.broadcast_arrays(_arr(successes), _arr(n))
    lower, upper = np.full(k.shape, np.nan), np.full(k.shape, np.nan)
    ok = nn > 0
    if ok.any():
        with np.errstate(invalid="ignore"):  # a count outside 0..n: NaN
            lo, hi = proportion_confint(
                k[ok], nn[ok], alpha=1.0 - confidence, method="wilson"
            )
        lower[ok], upper[ok] = lo, hi
    return lower[()], upper[()]


def proportion_test(successes: ArrayLike, n: ArrayLike, p0: ArrayLike) -> FloatArray:
    """Two-sided score-test p-value of H0: rate == p0 (normal approximation).

    The score test (variance from ``p0``, not from the observed rate) is the
    one whose inversion is :func:`wilson_interval`, so a rate is significant
    exactly when its Wilson interval excludes ``p0``.  NaN where ``n == 0``;
    at ``p0`` of 0 or 1 the rate has no spread under H0: p is 0 when the rate
    differs from it, NaN when it equals it.

    Examples
    --------
    >>> round(float(proportion_test(60, 100, 0.5)), 4)  # z = 0.1 / 0.05 = 2
    0.0455
    """
    k, nn, q = np.broadcast_arrays(_arr(successes), _arr(n), _arr(p0))
    shape = k.shape
    k, nn, q = k.ravel(), nn.ravel(), q.ravel()
    out = np.full(k.shape, np.nan)
    counted = (nn > 0) & np.isfinite(k)
    for i in np.flatnonzero(counted & (q > 0.0) & (q < 1.0)):  # one rate a call
        out[i] = proportions_ztest(k[i], nn[i], value=q[i], prop_var=q[i])[1]
    edge = counted & ((q == 0.0) | (q == 1.0))
    out[edge] = np.where(k[edge] / nn[edge] == q[edge], np.nan, 0.0)
    return out.reshape(shape)[()]


def mean_interval(
    mean: ArrayLike, sd: ArrayLike, n: ArrayLike, confidence: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Student-t interval for a mean from its sample mean, sd and size.

    NaN where there are fewer than two observations or the sd is not finite.
    """
    m, s, nn = np.broadcast_arrays(_arr(mean), _arr(sd), _arr(n))
    ok = (nn >= 2) & np.isfinite(s)
    df = np.where(ok, nn - 1.0, 1.0)
    q = sps.t.ppf(0.5 + confidence / 2.0, df)
    with np.errstate(divide="ignore", invalid="ignore"):
        half = np.where(ok, q * s / np.sqrt(np.where(ok, nn, 1.0)), np.nan)
    return np.asarray(m - half, dtype=np.float64), np.asarray(m + half, np.float64)


def t_test(mean: ArrayLike, se: ArrayLike, df: ArrayLike) -> FloatArray:
    """Two-sided p-value of H0: the quantity estimated by ``mean`` is 0."""
    m, s, d = np.broadcast_arrays(_arr(mean), _arr(se), _arr(df))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(m / s)
        tail = np.where(d > 0, sps.t.sf(t, np.where(d > 0, d, 1.0)), np.nan)
    return np.asarray(np.minimum(1.0, 2.0 * tail), dtype=np.float64)


def _family(
    pvalues: ArrayLike, adjust: Callable[[FloatArray], FloatArray]
) -> FloatArray:
    """``adjust`` applied to the non-NaN p-values, NaN left out and kept."""
    p = _arr(pvalues).ravel()
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        out[ok] = adjust(p[ok])
    return out.reshape(np.shape(pvalues))


def _multipletests(method: str) -> Callable[[FloatArray], FloatArray]:
    return lambda p: np.asarray(multipletests(p, method=method)[1], np.float64)


def _holm(p: FloatArray) -> FloatArray:
    """Holm's step-down: sorted ``p_(i) * (m - i + 1)``, made monotone, at most 1."""
    m = p.size
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    out[order] = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    return out


def benjamini_hochberg(pvalues: ArrayLike) -> FloatArray:
    """Benjamini-Hochberg adjusted p-values (false discovery rate control).

    Less strict than :func:`holm`: among the findings flagged at level q, a
    share q at most is expected to be false, rather than a chance q of any
    false one.  Valid for independent or positively dependent tests.  NaN
    p-values are left out of the family and stay NaN.

    Examples
    --------
    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005]).round(6).tolist()
    [0.02, 0.04, 0.04, 0.02]
    """
    return _family(pvalues, _multipletests("fdr_bh"))


def holm(pvalues: ArrayLike) -> FloatArray:
    """Holm's step-down adjusted p-values (family-wise error control).

    Holm is uniformly more powerful than Bonferroni and needs no assumption
    about the dependence between tests (win rates of one table are dependent:
    they share games).  NaN p-values are left out of the family and stay NaN.

    Computed here, not by statsmodels' ``multipletests(method="holm")``: that
    one runs a full garbage collection on every call, a quarter of a second in
    a report's process, which calls it hundreds of times.  A test holds the
    two equal.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.005]).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    return _family(pvalues, _holm)


def bonferroni(pvalues: ArrayLike) -> FloatArray:
    """Bonferroni adjusted p-values: each times the family's size, at most 1.

    NaN p-values are left out of the family (they do not count in its size)
    and stay NaN.

    Examples
    --------
    >>> bonferroni([0.01, float("nan"), 0.4]).tolist()
    [0.02, nan, 0.8]
    """
    return _family(pvalues, _multipletests("bonferroni"))


Correction = Literal["holm", "bh", "bonferroni", "none"]
"""How p-values are adjusted for the many comparisons of one table: Holm and
Bonferroni bound the family-wise error, Benjamini-Hochberg ("bh") the false
discovery rate."""


def adjust(p: ArrayLike, correction: Correction) -> FloatArray:
    """Adjust a table's p-values for multiple comparisons (NaN stays NaN)."""
    if correction == "holm":
        return holm(p)
    if correction == "bh":
        return benjamini_hochberg(p)
    if correction == "bonferroni":
        return bonferroni(p)
    if correction == "none":
        return _arr(p)
    raise ValueError(
        f"correction must be 'holm', 'bh', 'bonferroni' or 'none', got {correction!r}"
    )


def rankdata(x: ArrayLike) -> FloatArray:
    """Ranks 1..n with ties given their average rank."""
    return np.asarray(sps.rankdata(_arr(x).ravel()), dtype=np.float64)


def spearman(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman rank correlation (Pearson on average ranks).

    NaN below 2 points or when either variable is constant (no ranking to
    compare); scipy would warn there, and the analyses treat it as "no data".
    """
    a, b = _arr(x).ravel(), _arr(y).ravel()
    if a.size != b.size:
        raise ValueError("x and y must have the same length")
    if a.size < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return math.nan
    return float(sps.spearmanr(a, b).statistic)


def kendall(x: ArrayLike, y: ArrayLike) -> float:
    """Kendall's tau-b (ties corrected); NaN below 2 points or for a constant."""
    a, b = _arr(x).ravel(), _arr(y).ravel()
    if a.size != b.size:
        raise ValueError("x and y must have the same length")
    if a.size < 2 or np.all(a == a[0]) or np.all(b == b[0]):
        return math.nan
    return float(sps.kendalltau(a, b).statistic)


def within_group_ridge(
    groups: Sequence[tuple[ArrayLike, ArrayLike]],
    ridge: float,
    standardize: bool = False,
) -> FloatArray:
    """Ridge coefficients of y on X with every group demeaned first.

    Each group is one decision's options (rows of X, values y): only differences
    within a decision say which option is better, so a decision's own level
    (what every option shares) is removed.  With `standardize` the penalty acts
    on columns scaled to unit spread (the coefficients are returned unscaled).
    """
    xs, ys = [], []
    for x_group, y_group in groups:
        x, y = np.asarray(x_group, dtype=np.float64), _arr(y_group)
        xs.append(x - x.mean(0))
        ys.append(y - y.mean())
    x, y = np.concatenate(xs), np.concatenate(ys)
    scale = x.std(0) + 1e-9 if standardize else np.ones(x.shape[1])
    xn = x / scale
    beta = np.linalg.solve(xn.T @ xn + ridge * np.eye(x.shape[1]), xn.T @ y)
    return np.asarray(beta / scale)


def signal_spread(diffs: ArrayLike) -> tuple[float, float, float]:
    """How much two options truly differ, from noisy paired rollouts.

    `diffs[i, j]`: option B's minus option A's value in rollout j of decision i.
    The spread of the decisions' mean differences mixes what truly separates the
    options with rollout noise; the noise part of a mean is its within-decision
    variance over the number of rollouts.  Returns (variance of the means, its
    noise part, the true differences' standard deviation, 0 if noise is all).
    """
    d = np.asarray(diffs, dtype=np.float64)
    if d.ndim != 2 or d.shape[0] < 2 or d.shape[1] < 2:
        raise ValueError("need diffs of shape (decisions >= 2, rollouts >= 2)")
    total = float(d.mean(1).var(ddof=1))
    noise = float(d.var(1, ddof=1).mean() / d.shape[1])
    return total, noise, float(np.sqrt(max(0.0, total - noise)))
