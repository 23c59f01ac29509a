"""Small, exact statistics in numpy: intervals, tests and corrections.

The project has no scipy, and the analyses need only a handful of
distributions; each is implemented here from its textbook definition
(incomplete beta and gamma functions by continued fractions, as in Numerical
Recipes section 6) and tested against printed table values.  Everything takes
and returns numpy arrays (scalars broadcast), so Polars analyses can call these
on whole columns at once.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
ArrayLike = float | int | npt.ArrayLike

_EPS = 1e-15
_TINY = 1e-300


def _arr(x: ArrayLike) -> FloatArray:
    return np.asarray(x, dtype=np.float64)


def normal_ppf(p: float) -> float:
    """Standard normal quantile (``statistics.NormalDist``, exact to 1e-15)."""
    return NormalDist().inv_cdf(p)


def normal_sf(z: ArrayLike) -> FloatArray:
    """Upper tail P(Z > z) of the standard normal, elementwise."""
    erfc = np.frompyfunc(math.erfc, 1, 1)
    return np.asarray(0.5 * erfc(_arr(z) / math.sqrt(2.0)), dtype=np.float64)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
        + a * math.log(x) + b * math.log1p(-x)
    )  # fmt: skip
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_sf(t: ArrayLike, df: ArrayLike) -> FloatArray:
    """Upper tail P(T > t) of Student's t with ``df`` degrees of freedom."""
    tt, dd = np.broadcast_arrays(_arr(t), _arr(df))
    out = np.full(tt.shape, np.nan)
    for idx in np.ndindex(tt.shape):
        x, nu = float(tt[idx]), float(dd[idx])
        if not (math.isfinite(x) and nu > 0):
            if nu > 0 and not math.isnan(x):
                out[idx] = 0.0 if x > 0 else 1.0
            continue
        tail = 0.5 * betainc(nu / 2.0, 0.5, nu / (nu + x * x))
        out[idx] = tail if x >= 0 else 1.0 - tail
    return out


def _t_pdf(x: float, df: float) -> float:
    log = (
        math.lgamma((df + 1) / 2) - math.lgamma(df / 2)
        - 0.5 * math.log(df * math.pi) - (df + 1) / 2 * math.log1p(x * x / df)
    )  # fmt: skip
    return math.exp(log)


@functools.lru_cache(maxsize=4096)
def t_ppf(p: float, df: float) -> float:
    """Quantile of Student's t (safeguarded Newton on :func:`t_sf`; ~1e-12).

    Newton steps start from the normal quantile and fall back to bisection
    whenever a step leaves the bracket, so heavy tails (df = 1) converge too.
    Above a million degrees of freedom the normal quantile is used: the two
    differ by less than 1e-6 there.  Cached: analyses ask for the same few
    (p, df) pairs over and over.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if not df > 0:
        return math.nan
    if df > 1e6:
        return normal_ppf(p)
    if p < 0.5:
        return -t_ppf(1.0 - p, df)
    if p == 0.5:
        return 0.0
    tail = 1.0 - p
    lo, hi = 0.0, max(1.0, normal_ppf(p))
    while float(t_sf(hi, df)[()]) > tail:
        lo, hi = hi, hi * 2.0
    x = min(max(normal_ppf(p), lo), hi)
    for _ in range(200):
        f = float(t_sf(x, df)[()]) - tail  # decreasing in x
        if f > 0:
            lo = x
        else:
            hi = x
        step = x + f / _t_pdf(x, df)
        x_new = step if lo < step < hi else 0.5 * (lo + hi)
        if abs(x_new - x) < 1e-13 * max(1.0, abs(x)):
            return x_new
        x = x_new
    return x


def _gammainc_lower(a: float, x: float) -> float:
    """Regularized lower incomplete gamma P(a, x) by its series (x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(100_000):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _gammainc_upper(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) by continued fraction."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi2_sf(x: float, df: float) -> float:
    """Upper tail P(X > x) of the chi-square distribution."""
    if df <= 0 or math.isnan(x):
        return math.nan
    if x <= 0:
        return 1.0
    a, half = df / 2.0, x / 2.0
    if half < a + 1.0:
        return 1.0 - _gammainc_lower(a, half)
    return _gammainc_upper(a, half)


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
    z = normal_ppf(0.5 + confidence / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / nn
        denom = 1.0 + z * z / nn
        centre = (p + z * z / (2.0 * nn)) / denom
        half = z * np.sqrt(p * (1.0 - p) / nn + z * z / (4.0 * nn * nn)) / denom
    return centre - half, centre + half


def proportion_test(successes: ArrayLike, n: ArrayLike, p0: ArrayLike) -> FloatArray:
    """Two-sided score-test p-value of H0: rate == p0 (normal approximation)."""
    k, nn, q = np.broadcast_arrays(_arr(successes), _arr(n), _arr(p0))
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (k / nn - q) / np.sqrt(q * (1.0 - q) / nn)
    return np.minimum(1.0, 2.0 * normal_sf(np.abs(z)))


def mean_interval(
    mean: ArrayLike, sd: ArrayLike, n: ArrayLike, confidence: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Student-t interval for a mean from its sample mean, sd and size."""
    m, s, nn = np.broadcast_arrays(_arr(mean), _arr(sd), _arr(n))
    lower = np.full(m.shape, np.nan)
    upper = np.full(m.shape, np.nan)
    for idx in np.ndindex(m.shape):
        if nn[idx] < 2 or not math.isfinite(s[idx]):
            continue
        q = t_ppf(0.5 + confidence / 2.0, float(nn[idx]) - 1.0)
        half = q * s[idx] / math.sqrt(nn[idx])
        lower[idx], upper[idx] = m[idx] - half, m[idx] + half
    return lower, upper


def t_test(mean: ArrayLike, se: ArrayLike, df: ArrayLike) -> FloatArray:
    """Two-sided p-value of H0: the quantity estimated by ``mean`` is 0."""
    m, s, d = np.broadcast_arrays(_arr(mean), _arr(se), _arr(df))
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(m / s)
    return np.minimum(1.0, 2.0 * t_sf(t, d))


def holm(pvalues: ArrayLike) -> FloatArray:
    """Holm's step-down adjusted p-values (family-wise error control).

    Holm is uniformly more powerful than Bonferroni and needs no assumption
    about the dependence between tests (win rates of one table are dependent:
    they share games).  NaN p-values are left out of the family and stay NaN.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, 0.005]).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = _arr(pvalues).ravel()
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out.reshape(np.shape(pvalues))
    order = ok[np.argsort(p[ok], kind="stable")]
    scaled = p[order] * (m - np.arange(m))
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out.reshape(np.shape(pvalues))


Correction = Literal["holm", "bonferroni", "none"]
"""How p-values are adjusted for the many comparisons of one table."""


def adjust(
    p: npt.NDArray[np.float64], correction: Correction
) -> npt.NDArray[np.float64]:
    """Adjust a table's p-values for multiple comparisons (NaN stays NaN)."""
    if correction == "holm":
        return holm(p)
    if correction == "bonferroni":
        ok = ~np.isnan(p)
        return np.where(ok, np.minimum(1.0, p * max(int(ok.sum()), 1)), np.nan)
    if correction == "none":
        return p
    raise ValueError(
        f"correction must be 'holm', 'bonferroni' or 'none', got {correction!r}"
    )


def rankdata(x: ArrayLike) -> FloatArray:
    """Ranks 1..n with ties given their average rank."""
    a = _arr(x).ravel()
    order = np.argsort(a, kind="stable")
    ranks = np.empty(a.size)
    ranks[order] = np.arange(1, a.size + 1)
    _, inverse = np.unique(a, return_inverse=True)
    sums = np.bincount(inverse, weights=ranks)
    counts = np.bincount(inverse)
    return np.asarray(sums[inverse] / counts[inverse], dtype=np.float64)


def spearman(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman rank correlation (Pearson on average ranks); NaN below 2 points."""
    a, b = _arr(x).ravel(), _arr(y).ravel()
    if a.size != b.size:
        raise ValueError("x and y must have the same length")
    if a.size < 2:
        return math.nan
    ra, rb = rankdata(a), rankdata(b)
    ra -= ra.mean()
    rb -= rb.mean()
    denom = math.sqrt(float(ra @ ra) * float(rb @ rb))
    return float(ra @ rb) / denom if denom > 0 else math.nan


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
