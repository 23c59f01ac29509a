"""Cluster-aware intervals on hand-made frames with known answers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from synthetic_games import multiplayer_frame

from pu_sim.analysis import cluster_stats, clusters


def copies(n_groups: int, group_size: int, seed: int = 0) -> pl.DataFrame:
    """2-player games where every game of a group is a copy of its first."""
    rng = np.random.default_rng(seed)
    rows = []
    for group in range(n_groups):
        a, b = rng.integers(20, 60, 2)
        for k in range(group_size):
            g = group * group_size + k
            rows.append((g, 0, 2, "a", int(a), bool(a > b)))
            rows.append((g, 1, 2, "b", int(b), bool(b > a)))
    return pl.DataFrame(
        rows, schema=["game_id", "seat", "n_players", "corporation", "score", "won"],
        orient="row",
    )  # fmt: skip


# ---------------------------------------------------------------- design effect


@pytest.mark.parametrize("group_size", [2, 3, 5])
def test_copied_games_have_a_design_effect_of_the_group_size(group_size):
    df = copies(40, group_size)
    means = clusters.cluster_means(df, group_size=group_size)
    assert means["design_effect"].to_list() == pytest.approx([group_size] * 2)
    wins = clusters.cluster_win_rates(df, group_size=group_size)
    assert wins["design_effect"].to_list() == pytest.approx([group_size] * 2)
    # the same frame with every game its own cluster looks k times more precise
    naive = clusters.cluster_means(df)
    assert naive["design_effect"].to_list() == pytest.approx([1.0, 1.0])


def test_independent_games_have_a_design_effect_near_one():
    df = multiplayer_frame(6000, 2, noise_sd=6.0, seed=3)  # no shared setup effect
    out = clusters.cluster_means(df, group_size=4)  # groups of unrelated games
    assert out["design_effect"].to_numpy() == pytest.approx([1.0] * 4, abs=0.15)


def test_shared_setups_widen_the_interval_and_the_naive_one_is_too_narrow():
    df = multiplayer_frame(4000, 2, setup_sd=6.0, noise_sd=3.0, group_size=4, seed=5)
    out = clusters.cluster_means(df, group_size=4)
    assert (out["design_effect"] > 1.5).all()
    assert (out["se"] > out["naive_se"]).all()


def test_design_effect_primitive():
    assert cluster_stats.design_effect([1.0, 1.0, -1.0, -1.0], [0, 0, 1, 1]) == 2.0
    assert cluster_stats.design_effect([1.0, -1.0, 2.0, -2.0], [5, 5, 7, 7]) == 0.0
    assert math.isnan(cluster_stats.design_effect([0.0, 0.0], [0, 1]))


# ---------------------------------------------------------------- CR1 by hand


def test_cr1_mean_by_hand():
    """y = 2, 4, 6, 8, 10, 12 in clusters {2, 4}, {6}, {8, 10, 12}: mean 7,
    cluster residual sums -8, -1, 9; CR1 = G/(G-1) * sum e_g^2 / N^2."""
    df = pl.DataFrame({
        "game_id": [0, 0, 1, 2, 2, 2], "n_players": [3] * 6,
        "corporation": ["a"] * 6, "score": [2, 4, 6, 8, 10, 12],
    })  # fmt: skip
    out = clusters.cluster_means(df).row(0, named=True)
    var = 3 / 2 * (8**2 + 1**2 + 9**2) / 6**2
    assert out["mean"] == 7.0 and out["clusters"] == 3 and out["n"] == 6
    assert out["se"] == pytest.approx(math.sqrt(var))
    half = 4.302652729911275 * math.sqrt(var)  # t(0.975, 2 df)
    assert (out["lower"], out["upper"]) == pytest.approx((7 - half, 7 + half))
    assert out["naive_se"] == pytest.approx(math.sqrt(70 / 5 / 6))  # s^2 = 70 / 5
    assert out["design_effect"] == pytest.approx(146 / 70)
    assert out["p_value"] == pytest.approx(2 * sps.t.sf(7 / math.sqrt(var), 2))


def test_cr1_difference_by_hand_and_as_a_regression():
    """a: 1, 3 | 5 | 9 and b: 2 | 4, 6 | 7 in clusters 0 | 1 | 2.  Means 4.5 and
    4.75; each cluster's pull e_a/N_a - e_b/N_b is -0.5625, 0, 0.5625; the
    factor G/(G-1) * (N-1)/(N-2) = 1.5 * 7/6."""
    df = pl.DataFrame({
        "game_id": [0, 0, 0, 1, 1, 1, 2, 2], "n_players": [1] * 8,
        "corporation": ["a", "a", "b", "a", "b", "b", "a", "b"],
        "score": [1, 3, 2, 5, 4, 6, 9, 7],
    })  # fmt: skip
    out = clusters.cluster_difference(df, a="a", b="b").row(0, named=True)
    var = 1.5 * 7 / 6 * (0.5625**2 + 0.5625**2)
    assert out["difference"] == pytest.approx(-0.25)
    assert out["se"] == pytest.approx(math.sqrt(var))
    assert out["clusters"] == 3 and out["paired_clusters"] == 3
    x = np.column_stack([np.ones(8), (df["corporation"] == "a").to_numpy()])
    beta, cov = cluster_stats.cluster_ols(x, df["score"].to_numpy(), df["game_id"])
    assert beta[1] == pytest.approx(-0.25)
    assert cov[1, 1] == pytest.approx(var)


def test_two_games_give_a_difference_without_an_interval():
    """One game of each label (a tiny study's skill cell) has no residual degree
    of freedom: the difference stands, the interval is NaN, nothing divides by 0."""
    df = pl.DataFrame({
        "game_id": [0, 1], "n_players": [1, 1], "corporation": ["a", "b"],
        "score": [50.0, 44.0],
    })  # fmt: skip
    out = clusters.cluster_difference(df, a="a", b="b").row(0, named=True)
    assert out["difference"] == pytest.approx(6.0)
    assert math.isnan(out["se"]) and math.isnan(out["lower"])


def test_a_linear_contrast_is_the_difference_with_its_cr1_interval():
    df = multiplayer_frame(600, 2, corp_effect={"Alpha Corp": 3}, setup_sd=4.0,
                           group_size=2, seed=4,
                           corporations=["Alpha Corp", "Beta Corp"])  # fmt: skip
    x = np.column_stack([np.ones(df.height), (df["corporation"] == "Alpha Corp")])
    groups = (df["game_id"] // 2).to_numpy()
    out = cluster_stats.linear_contrast(x, df["score"].to_numpy(), groups, [0, 1])
    diff = clusters.cluster_difference(
        df, a="Alpha Corp", b="Beta Corp", group_size=2
    ).row(0, named=True)
    for key in ("se", "lower", "upper", "p_value"):
        assert out[key] == pytest.approx(diff[key])
    assert out["estimate"] == pytest.approx(diff["difference"])
    assert out["clusters"] == diff["clusters"] == 300


def test_bootstrap_difference_and_win_rates_agree_with_cr1():
    df = multiplayer_frame(3000, 2, corp_effect={"Alpha Corp": 2}, setup_sd=4.0,
                           group_size=2, seed=7)  # fmt: skip
    run = {"group_size": 2, "n_boot": 600, "seed": 5}
    cr1 = clusters.cluster_difference(df, a="Alpha Corp", b="Beta Corp", group_size=2)
    boot = clusters.cluster_difference(
        df, a="Alpha Corp", b="Beta Corp", method="bootstrap", **run
    )
    assert boot["se"][0] == pytest.approx(cr1["se"][0], rel=0.15)
    assert boot["difference"][0] == cr1["difference"][0]
    wins = clusters.cluster_win_rates(df, group_size=2)
    wins_boot = clusters.cluster_win_rates(df, method="bootstrap", **run)
    assert wins_boot["se"].to_numpy() == pytest.approx(wins["se"].to_numpy(), rel=0.15)
    assert wins_boot["lower"].to_numpy() == pytest.approx(
        wins["lower"].to_numpy(), abs=0.01
    )


def test_cluster_ols_single_coefficient_by_hand():
    beta, cov = cluster_stats.cluster_ols(np.ones((4, 1)), [1, 3, 5, 7], [0, 0, 1, 1])
    assert beta[0] == 4.0 and cov[0, 0] == pytest.approx(2 * (16 + 16) / 16)
    with pytest.raises(ValueError, match="2\\+ clusters"):
        cluster_stats.cluster_ols(np.ones((3, 1)), [1, 2, 3], [0, 0, 0])


def test_pairing_shows_as_a_design_effect_below_one():
    """Both labels in every setup with a shared setup effect: the difference
    cancels it, so it is far more precise than independent samples would be."""
    df = multiplayer_frame(3000, 2, corp_effect={"Alpha Corp": 2.0}, setup_sd=8.0,
                           noise_sd=2.0, group_size=1, seed=9,
                           corporations=["Alpha Corp", "Beta Corp"])  # fmt: skip
    out = clusters.cluster_difference(df, a="Alpha Corp", b="Beta Corp").row(
        0, named=True
    )
    assert out["design_effect"] < 0.2
    assert out["se"] < out["naive_se"] / 2
    assert out["lower"] < 2.0 < out["upper"]


# ---------------------------------------------------------------- win rates


def test_win_share_splits_ties_and_excess_is_against_one_over_n():
    df = pl.DataFrame({
        "game_id": [0, 0, 0, 1, 1, 1], "n_players": [3] * 6,
        "corporation": ["a", "b", "c"] * 2,
        "won": [True, True, False, True, False, False],
    })  # fmt: skip
    out = clusters.cluster_win_rates(df)
    assert out["win_rate"].to_list() == pytest.approx([0.75, 0.25, 0.0])
    assert out["excess"].to_list() == pytest.approx(
        [0.75 - 1 / 3, 0.25 - 1 / 3, -1 / 3]
    )
    assert out["expected"].to_list() == pytest.approx([1 / 3] * 3)


def test_win_rates_skip_solo_and_keep_player_counts_apart():
    df = pl.concat([
        copies(5, 1),
        pl.DataFrame({"game_id": [99], "seat": [0], "n_players": [1],
                      "corporation": ["a"], "score": [50], "won": [True]}),
    ])  # fmt: skip
    out = clusters.cluster_win_rates(df)
    assert out["n_players"].unique().to_list() == [2]
    assert out["n"].to_list() == [5, 5]


def test_score_vs_table_is_against_the_games_own_mean():
    df = pl.DataFrame({
        "game_id": [0, 0, 1, 1], "n_players": [2] * 4,
        "corporation": ["a", "b"] * 2, "score": [30, 20, 60, 40],
    })  # fmt: skip
    out = clusters.cluster_means(df, value=clusters.SCORE_VS_TABLE)
    assert out["mean"].to_list() == [7.5, -7.5]


# ---------------------------------------------------------------- bootstrap


def test_cluster_bootstrap_is_seeded_and_agrees_with_cr1_on_many_clusters():
    df = multiplayer_frame(3000, 2, setup_sd=4.0, group_size=3, seed=2)
    run = {"group_size": 3, "method": "bootstrap", "n_boot": 400}
    first = clusters.cluster_means(df, seed=1, **run)
    assert first.equals(clusters.cluster_means(df, seed=1, **run))
    assert not first.equals(clusters.cluster_means(df, seed=2, **run))
    cr1 = clusters.cluster_means(df, group_size=3)
    assert first["se"].to_numpy() == pytest.approx(cr1["se"].to_numpy(), rel=0.15)
    assert first["lower"].to_numpy() == pytest.approx(cr1["lower"].to_numpy(), abs=0.2)


def test_bootstrap_resamples_whole_clusters():
    """Copies within groups: resampling games would shrink the interval by the
    group size; resampling groups gives the same interval as one row per group."""
    df = copies(60, 4)
    run = {"method": "bootstrap", "n_boot": 500, "seed": 3}
    grouped = clusters.cluster_means(df, group_size=4, **run)
    one_each = clusters.cluster_means(df.filter(pl.col("game_id") % 4 == 0), **run)
    assert grouped["se"].to_numpy() == pytest.approx(one_each["se"].to_numpy(), rel=0.1)


def test_bootstrap_weights_come_in_chunks_and_sum_to_the_clusters():
    rng = np.random.default_rng(0)
    chunks = list(cluster_stats.bootstrap_weights(7, 600, rng, chunk=256))
    assert [c.shape for c in chunks] == [(256, 7), (256, 7), (88, 7)]
    assert all((c.sum(1) == 7).all() for c in chunks)


def test_options_are_checked():
    df = copies(3, 1)
    with pytest.raises(ValueError, match="confidence"):
        clusters.cluster_means(df, confidence=1.5)
    with pytest.raises(ValueError, match="method"):
        clusters.cluster_means(df, method="jackknife")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="group_size"):
        clusters.cluster_means(df, group_size=0)
    with pytest.raises(ValueError, match="lacks column"):
        clusters.cluster_means(df, value="rounds")


def test_an_explicit_cluster_column_and_runs():
    df = copies(10, 2).with_columns(setup=pl.col("game_id") // 2)
    by_column = clusters.cluster_means(df, cluster="setup")
    by_size = clusters.cluster_means(df, group_size=2)
    assert by_column["se"].to_list() == pytest.approx(by_size["se"].to_list())
    # two runs of the same games: the default key keeps their clusters apart
    runs = pl.concat([df.with_columns(run=pl.lit(r)) for r in ("x", "y")])
    assert clusters.cluster_means(runs, group_size=2)["clusters"].to_list() == [20, 20]


def test_a_game_id_shared_by_two_runs_is_refused_for_derived_values():
    df = pl.concat([copies(3, 1), copies(3, 1)])  # two runs, no run column
    with pytest.raises(ValueError, match="more rows than seats"):
        clusters.cluster_win_rates(df)
    runs = pl.concat([copies(3, 1).with_columns(run=pl.lit(r)) for r in "xy"])
    assert clusters.cluster_win_rates(runs)["n"].to_list() == [6, 6]


def test_percentile_limits_are_the_resamples_quantiles_and_a_two_sided_share():
    rng = np.random.default_rng(3)
    boot = rng.normal([0.0, 2.0], 1.0, size=(4000, 2))
    boot[::7, 1] = np.nan  # failed resamples are left out, not counted
    lo, hi, se, p = cluster_stats.percentile_limits(boot, 0.90, np.zeros(2))
    finite = [boot[np.isfinite(boot[:, j]), j] for j in range(2)]
    assert lo == pytest.approx([np.quantile(c, 0.05) for c in finite])
    assert hi == pytest.approx([np.quantile(c, 0.95) for c in finite])
    assert se == pytest.approx([np.std(c, ddof=1) for c in finite])
    assert p == pytest.approx(
        [2 * min((c <= 0).mean(), (c >= 0).mean()) for c in finite]
    )
    assert se.dtype == p.dtype == np.float64
