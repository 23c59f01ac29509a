"""Our statistics against the libraries they wrap, on random inputs.

Each wrapper is compared with the library called directly with the method
and options we mean (Wilson, the score test, Holm, CR1 with t on G - 1 df),
and where an independent route exists with that too, so a wrapper that
drifts to another method, correction or df fails here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import statsmodels.api as sm
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from pu_sim.analysis import cluster_stats, stats

counts = st.integers(1, 10**6).flatmap(
    lambda n: st.tuples(st.integers(0, n), st.just(n))
)
confidences = st.floats(0.5, 0.999)
rates = st.floats(1e-4, 1 - 1e-4)
pvalues = st.lists(
    st.one_of(st.floats(0.0, 1.0), st.just(math.nan)), min_size=0, max_size=40
)


@given(counts, confidences)
def test_wilson_is_the_libraries_wilson(kn, confidence):
    k, n = kn
    lo, hi = stats.wilson_interval(k, n, confidence)
    ref = proportion_confint(k, n, alpha=1 - confidence, method="wilson")
    assert float(lo) == pytest.approx(ref[0], abs=1e-12)
    assert float(hi) == pytest.approx(ref[1], abs=1e-12)
    # and it inverts the score test: the limits are where the score z is the quantile
    z = sps.norm.ppf(0.5 + confidence / 2)
    for limit in (float(lo), float(hi)):
        if 1e-9 < limit < 1 - 1e-9:  # 0 and 1 are limits by rounding
            score = (k / n - limit) / math.sqrt(limit * (1 - limit) / n)
            assert abs(score) == pytest.approx(z, rel=1e-6)


@given(st.lists(counts, min_size=1, max_size=12), st.data())
def test_wilson_broadcasts_and_is_nan_where_n_is_zero(kns, data):
    k = np.array([a for a, _ in kns], dtype=float)
    n = np.array([b for _, b in kns], dtype=float)
    empty = np.array(data.draw(st.lists(st.booleans(), min_size=k.size,
                                        max_size=k.size)))  # fmt: skip
    n[empty], k[empty] = 0, 0
    lo, hi = stats.wilson_interval(k, n)
    assert lo.shape == hi.shape == k.shape
    assert np.isnan(lo[empty]).all() and np.isnan(hi[empty]).all()
    ok = ~empty
    if ok.any():
        ref_lo, ref_hi = proportion_confint(k[ok], n[ok], alpha=0.05, method="wilson")
        assert lo[ok] == pytest.approx(ref_lo, abs=1e-12)
        assert hi[ok] == pytest.approx(ref_hi, abs=1e-12)


@given(counts, rates)
def test_proportion_test_is_the_libraries_score_test(kn, p0):
    k, n = kn
    ours = float(stats.proportion_test(k, n, p0))
    ref = proportions_ztest(k, n, value=p0, prop_var=p0)[1]
    assert ours == pytest.approx(ref, rel=1e-9, abs=1e-300)
    # the score test is Pearson's chi-square on (k, n - k) with one df
    chi2 = sps.chisquare([k, n - k], [n * p0, n * (1 - p0)]).pvalue
    assert ours == pytest.approx(chi2, rel=1e-6, abs=1e-300)


def test_proportion_test_is_not_the_exact_test():
    """7 of 10 against 1/2: the score test says 0.206, the exact binomial 0.344."""
    assert float(stats.proportion_test(7, 10, 0.5)) == pytest.approx(0.2059, abs=1e-4)
    assert sps.binomtest(7, 10, 0.5).pvalue == pytest.approx(0.3438, abs=1e-4)


def test_proportion_test_nan_conventions():
    p = stats.proportion_test([3, 5, 0, 4], [0, 10, 10, 10], [0.5, 0.0, 0.0, 0.5])
    assert math.isnan(p[0])  # no games
    assert p[1] == 0.0  # a rate of 0 under H0 that is not 0: certainly false
    assert math.isnan(p[2])  # a rate of 0 observed as 0: nothing to test
    assert p[3] == pytest.approx(proportions_ztest(4, 10, 0.5, prop_var=0.5)[1])


def _library_adjusted(p: list[float], method: str) -> np.ndarray:
    a = np.asarray(p, dtype=float)
    out = np.full(a.shape, np.nan)
    ok = ~np.isnan(a)
    if ok.any():
        out[ok] = multipletests(a[ok], method=method)[1]
    return out


@pytest.mark.parametrize(
    ("ours", "method"),
    [(stats.holm, "holm"), (stats.benjamini_hochberg, "fdr_bh"),
     (stats.bonferroni, "bonferroni")],
)  # fmt: skip
@given(p=pvalues)
def test_corrections_are_the_libraries_with_nan_left_out(ours, method, p):
    got = ours(p)
    ref = _library_adjusted(p, method)
    assert np.array_equal(np.isnan(got), np.isnan(np.asarray(p, dtype=float)))
    assert got[~np.isnan(got)] == pytest.approx(ref[~np.isnan(ref)], abs=1e-12)


@given(p=pvalues)
def test_holm_by_its_definition(p):
    """Independent of any library: step-down, p_(i) x (m - i + 1), monotone."""
    a = np.asarray(p, dtype=float)
    ok = np.flatnonzero(~np.isnan(a))
    order = ok[np.argsort(a[ok], kind="stable")]
    scaled = a[order] * (ok.size - np.arange(ok.size))
    want = np.full(a.shape, np.nan)
    want[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    assert np.allclose(stats.holm(p), want, equal_nan=True, atol=1e-12)


@given(p=pvalues)
def test_bh_agrees_with_scipy(p):
    a = np.asarray(p, dtype=float)
    ok = ~np.isnan(a)
    if ok.any():
        ref = sps.false_discovery_control(a[ok], method="bh")
        assert stats.benjamini_hochberg(a)[ok] == pytest.approx(ref, abs=1e-12)


@given(p=pvalues, correction=st.sampled_from(["holm", "bh", "bonferroni"]))
def test_adjust_dispatches_to_the_named_correction(p, correction):
    named = {"holm": stats.holm, "bh": stats.benjamini_hochberg,
             "bonferroni": stats.bonferroni}[correction]  # fmt: skip
    assert np.allclose(stats.adjust(p, correction), named(p), equal_nan=True)


@given(st.floats(1e-12, 1 - 1e-12))
def test_normal_quantile_is_the_normal_ppf_and_the_t_limit(p):
    assert stats.normal_quantile(p) == sps.norm.ppf(p)
    assert stats.normal_quantile(p) == pytest.approx(stats.t_ppf(p, 1e9), abs=1e-6)


@pytest.mark.parametrize("p", [0.0, 1.0, -0.1, math.nan])
def test_normal_quantile_refuses_a_level_that_is_no_probability(p):
    with pytest.raises(ValueError, match="p must be in"):
        stats.normal_quantile(p)


# --------------------------------------------------------------------------------
# Cluster-robust OLS
# --------------------------------------------------------------------------------


def _random_design(seed: int, n: int, k: int, g: int):
    rng = np.random.default_rng(seed)
    x = np.column_stack([np.ones(n), rng.normal(size=(n, k - 1))])
    groups = np.concatenate([np.arange(g), rng.integers(0, g, n - g)])  # all used
    rng.shuffle(groups)
    y = x @ rng.normal(size=k) + rng.normal(size=g)[groups] + rng.normal(size=n)
    return x, y, groups * 7 + 3  # codes need not be 0..G-1


def _cr1_by_hand(x, y, groups):
    """The CR1 sandwich written out: G/(G-1) (N-1)/(N-K) (X'X)^-1 M (X'X)^-1."""
    n, k = x.shape
    labels = np.unique(groups)
    bread = np.linalg.inv(x.T @ x)
    beta = bread @ x.T @ y
    e = y - x @ beta
    meat = sum(np.outer(x[groups == c].T @ e[groups == c],
                        x[groups == c].T @ e[groups == c]) for c in labels)  # fmt: skip
    g = labels.size
    return beta, g / (g - 1) * (n - 1) / (n - k) * bread @ meat @ bread


designs = st.tuples(
    st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(2, 40)
).flatmap(
    lambda t: st.tuples(
        st.just(t[0]),
        st.just(t[1]),
        st.just(t[2]),
        st.integers(max(t[1] + 1, t[2]), 300),
    )
)


@given(designs)
def test_cluster_ols_is_the_libraries_cr1_fit(design):
    seed, k, g, n = design
    x, y, groups = _random_design(seed, n, k, g)
    beta, cov = cluster_stats.cluster_ols(x, y, groups)
    fit = sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups})
    assert beta == pytest.approx(fit.params, rel=1e-9, abs=1e-9)
    assert cov == pytest.approx(fit.cov_params(), rel=1e-7, abs=1e-12)
    hand_beta, hand_cov = _cr1_by_hand(x, y, groups)
    assert beta == pytest.approx(hand_beta, rel=1e-7, abs=1e-9)
    assert cov == pytest.approx(hand_cov, rel=1e-7, abs=1e-12)


@given(designs, confidences, st.data())
def test_linear_contrast_is_t_with_clusters_minus_one_df(design, confidence, data):
    seed, k, g, n = design
    x, y, groups = _random_design(seed, n, k, g)
    w = np.array(data.draw(st.lists(st.floats(-3, 3), min_size=k, max_size=k)))
    if not np.any(np.abs(w) > 1e-3):
        w[0] = 1.0
    out = cluster_stats.linear_contrast(x, y, groups, w, confidence)
    beta, cov = _cr1_by_hand(x, y, groups)
    est, se = float(w @ beta), math.sqrt(w @ cov @ w)
    q = sps.t.ppf(0.5 + confidence / 2, g - 1)
    assert out["clusters"] == g
    assert out["estimate"] == pytest.approx(est, rel=1e-7, abs=1e-9)
    assert out["se"] == pytest.approx(se, rel=1e-7)
    assert out["lower"] == pytest.approx(est - q * se, rel=1e-7, abs=1e-9)
    assert out["upper"] == pytest.approx(est + q * se, rel=1e-7, abs=1e-9)
    p = 2 * sps.t.sf(abs(est / se), g - 1)
    assert out["p_value"] == pytest.approx(p, rel=1e-6, abs=1e-12)
    fit = sm.OLS(y, x).fit(
        cov_type="cluster", cov_kwds={"groups": groups, "df_correction": True},
        use_t=True,
    )  # fmt: skip
    test = fit.t_test(w[None, :])
    assert test.df_denom == g - 1
    assert out["p_value"] == pytest.approx(float(test.pvalue), rel=1e-6, abs=1e-12)


def test_an_exact_fit_has_no_interval():
    """Every cluster shows the same difference: se 0, so no interval, no p."""
    x = [[1.0, 0.0], [1.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    out = cluster_stats.linear_contrast(x, [1, 3, 1, 3], [0, 0, 1, 1], [0.0, 1.0])
    assert out["estimate"] == pytest.approx(2.0) and out["se"] == 0.0
    assert math.isnan(out["lower"]) and math.isnan(out["p_value"])


def test_a_singular_design_is_refused():
    x = np.column_stack([np.ones(6), np.ones(6)])
    with pytest.raises(np.linalg.LinAlgError, match=r"^the design matrix is singular$"):
        cluster_stats.cluster_ols(x, np.arange(6.0), [0, 0, 1, 1, 2, 2])
