"""The numpy statistics against textbook values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pu_sim.analysis import stats


@pytest.mark.parametrize(
    ("k", "n", "lo", "hi"),
    [  # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0000, 0.1611),
        (1, 29, 0.0061, 0.1718),
        (29, 29, 0.8830, 1.0000),
    ],
)
def test_wilson_interval_matches_newcombe(k, n, lo, hi):
    lower, upper = stats.wilson_interval(k, n, 0.95)
    assert round(float(lower), 4) == lo
    assert round(float(upper), 4) == hi


def test_wilson_is_vectorised_and_nan_for_empty():
    lower, upper = stats.wilson_interval([1, 0], [10, 0])
    assert lower.shape == (2,)
    assert math.isnan(lower[1]) and math.isnan(upper[1])


@pytest.mark.parametrize(
    ("p", "df", "value"),
    [  # Student's t table
        (0.975, 1, 12.7062),
        (0.975, 10, 2.2281),
        (0.975, 30, 2.0423),
        (0.95, 5, 2.0150),
        (0.995, 20, 2.8453),
        (0.025, 10, -2.2281),
    ],
)
def test_t_quantiles(p, df, value):
    assert stats.t_ppf(p, df) == pytest.approx(value, abs=1e-4)


def test_t_quantile_tends_to_normal():
    assert stats.t_ppf(0.975, 1e7) == pytest.approx(1.959964, abs=1e-6)


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [(3.841459, 1, 0.05), (18.307038, 10, 0.05), (6.634897, 1, 0.01), (0.0, 3, 1.0)],
)
def test_chi2_upper_tail(x, df, p):
    assert stats.chi2_sf(x, df) == pytest.approx(p, abs=1e-6)


def test_holm_textbook_example():
    assert stats.holm([0.01, 0.04, 0.03, 0.005]).tolist() == pytest.approx(
        [0.03, 0.06, 0.06, 0.02]
    )


def test_holm_keeps_nans_out_of_the_family():
    out = stats.holm([0.01, math.nan, 0.04])
    assert out[0] == pytest.approx(0.02) and out[2] == pytest.approx(0.04)
    assert math.isnan(out[1])


def test_proportion_test_is_the_score_test():
    # 60 of 100 vs 0.5: z = 0.1 / 0.05 = 2 -> p = 0.0455
    assert float(stats.proportion_test(60, 100, 0.5)) == pytest.approx(0.0455, abs=1e-4)


def test_mean_interval():
    lo, hi = stats.mean_interval(3.0, np.std([1, 2, 3, 4, 5], ddof=1), 5)
    half = 2.776445 * math.sqrt(2.5) / math.sqrt(5)
    assert float(lo) == pytest.approx(3 - half) and float(hi) == pytest.approx(3 + half)


def test_spearman_with_ties():
    assert stats.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert stats.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert stats.rankdata([10, 20, 20, 30]).tolist() == [1.0, 2.5, 2.5, 4.0]
    assert math.isnan(stats.spearman([1], [2]))


def test_within_group_ridge_ignores_each_groups_level():
    """Known answer: y = X b + a per-group constant is b exactly (no ridge), and
    standardizing the columns changes nothing without a penalty."""
    rng = np.random.default_rng(2)
    b = np.array([1.5, -2.0, 0.25])
    groups = []
    for _ in range(50):
        x = rng.normal(0, [1, 10, 0.1], (4, 3))
        groups.append((x, x @ b + rng.normal(0, 100)))
    assert stats.within_group_ridge(groups, 0.0) == pytest.approx(b)
    assert stats.within_group_ridge(groups, 0.0, standardize=True) == pytest.approx(b)
    shrunk = stats.within_group_ridge(groups, 1e3)
    assert np.all(np.abs(shrunk) < np.abs(b))  # the penalty pulls toward 0


def test_signal_spread_recovers_the_true_spread_under_noise():
    """Known answer: decisions whose true differences have sd 1.5, seen through
    rollouts with noise sd 6 (so a 16-rollout mean has noise variance 2.25)."""
    rng = np.random.default_rng(7)
    true = rng.normal(-0.2, 1.5, 20_000)
    diffs = true[:, None] + rng.normal(0, 6.0, (20_000, 16))
    total, noise, signal = stats.signal_spread(diffs)
    assert noise == pytest.approx(2.25, rel=0.03)
    assert total == pytest.approx(2.25 + 1.5**2, rel=0.05)
    assert signal == pytest.approx(1.5, rel=0.05)


def test_signal_spread_is_zero_when_the_options_never_differ():
    rng = np.random.default_rng(8)
    _, _, signal = stats.signal_spread(rng.normal(0, 3.0, (5_000, 8)))
    assert signal < 0.15  # pure noise: any estimate left is sampling error
    with pytest.raises(ValueError, match="rollouts >= 2"):
        stats.signal_spread(np.zeros((10, 1)))


def test_benjamini_hochberg_by_hand():
    """Sorted p 0.005, 0.01, 0.03, 0.04 (m = 4): p * m / rank = 0.02, 0.02, 0.04,
    0.04, then the running minimum from the largest down."""
    out = stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005])
    assert out.tolist() == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert np.all(out <= stats.holm([0.01, 0.04, 0.03, 0.005]))  # never stricter
    kept = stats.benjamini_hochberg([0.01, math.nan, 0.04])
    assert kept[0] == pytest.approx(0.02) and kept[2] == pytest.approx(0.04)
    assert math.isnan(kept[1])


def test_kendall_counts_pairs():
    # 3 points, pairs (1,2) (1,3) concordant, (2,3) discordant: (2 - 1) / 3
    assert stats.kendall([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    assert stats.kendall([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert math.isnan(stats.kendall([1, 1, 1], [1, 2, 3]))


def test_t_test_and_mean_interval_edges():
    # se 0 with an effect: certain; df <= 0 or one observation: no answer
    p = stats.t_test([1.0, 1.0], [0.0, 0.5], [5, 0])
    assert p[0] == 0.0 and math.isnan(p[1])
    lo, hi = stats.mean_interval([1.0, 2.0], [1.0, math.nan], [1, 5])
    assert np.isnan(lo).all() and np.isnan(hi).all()
