"""Verdict labels, rank agreement and corrected cell tests with known answers."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from synthetic_games import multiplayer_frame

from pu_sim.analysis import cells, rankings, replication, stats, verdicts

SIG = ([2.0], [1.0], [3.0])  # estimate, lower, upper: significant and positive


def label(a, b, **kw):
    return verdicts.finding_labels(*a, *b, **kw)[0]


# ---------------------------------------------------------------- the label rule


def test_robust_needs_both_significant_in_the_same_direction():
    assert label(SIG, ([0.5], [0.1], [0.9])) == "robust"
    assert label(([-2.0], [-3.0], [-1.0]), ([-0.5], [-0.9], [-0.1])) == "robust"


def test_opposite_significant_directions_are_bot_dependent():
    assert label(SIG, ([-2.0], [-3.0], [-1.0])) == "bot-dependent"


def test_one_significant_and_the_other_pointing_away_is_bot_dependent():
    """b's estimate has the other sign and its interval excludes a's 2.0."""
    other = ([-0.5], [-1.5], [0.5])
    assert label(SIG, other) == "bot-dependent"
    assert label(other, SIG) == "bot-dependent"  # symmetric
    wide = ([-0.5], [-1.5], [2.5])  # the other sign, but 2.0 inside its interval
    assert label(SIG, wide) == "unresolved"


def test_the_same_sign_is_never_bot_dependent():
    """KSB-4156 at 3 players was 'bot-dependent' at +4.2 / +8.1: a size, not a
    direction, differed.  Same-sign pairs are robust or unresolved."""
    smaller = ([0.5], [-0.1], [1.1])  # same sign, excludes 2.0, not significant
    assert label(SIG, smaller) == "unresolved"
    assert label(SIG, ([1.0], [-0.1], [2.1])) == "unresolved"
    assert label(SIG, ([0.0], [-9.0], [9.0])) == "unresolved"  # b knows nothing
    assert label(([0.1], [-1.0], [1.2]), ([0.0], [-1.0], [1.0])) == "unresolved"


@pytest.mark.parametrize("name", verdicts.LABELS)
def test_every_label_has_its_meaning_in_the_glossary(name):
    assert len(verdicts.GLOSSARY[name]) > 40
    assert "size differs" in verdicts.GLOSSARY


def test_significance_flags_override_the_intervals():
    """An adjusted p-value may take significance away from a CI excluding 0."""
    b = ([1.5], [1.1], [1.9])
    assert label(SIG, b, significant_a=[True], significant_b=[False]) == "unresolved"
    assert label(SIG, b, significant_a=[True], significant_b=[True]) == "robust"


def test_judge_findings_joins_two_tables():
    a = pl.DataFrame(
        {
            "corporation": ["x", "y", "z"],
            "excess": [0.1, -0.1, 0.0],
            "lower": [0.05, -0.15, -0.05],
            "upper": [0.15, -0.05, 0.05],
        }
    )
    b = pl.DataFrame(
        {
            "corporation": ["z", "y", "x"],
            "excess": [0.01, 0.1, 0.08],
            "lower": [-0.04, 0.05, 0.03],
            "upper": [0.06, 0.15, 0.13],
        }
    )
    out = verdicts.judge_findings(a, b, on=["corporation"])  # fmt: skip
    assert out["corporation"].to_list() == ["x", "y", "z"]
    assert out["label"].to_list() == ["robust", "bot-dependent", "unresolved"]
    assert out["excess_b"].to_list() == [0.08, 0.1, 0.01]
    assert out.schema["label"] == verdicts.Label


# ---------------------------------------------------------------- rank agreement


def fixed_scores(means: dict[str, float], n_setups: int = 30) -> pl.DataFrame:
    """Solo-like rows, one per label and setup, with the same score everywhere."""
    rows = [
        (setup, 1, corp, value)
        for setup in range(n_setups)
        for corp, value in means.items()
    ]
    return pl.DataFrame(
        rows, schema=["game_id", "n_players", "corporation", "score"], orient="row"
    )


def test_rank_agreement_known_values_and_a_degenerate_bootstrap():
    """Orders a > b > c > d and a > b > d > c: Spearman 1 - 6 * 2 / (4 * 15) =
    0.8, Kendall (5 - 1) / 6; every setup alike, so every resample agrees."""
    a = fixed_scores({"a": 40, "b": 30, "c": 20, "d": 10})
    b = fixed_scores({"a": 45, "b": 35, "c": 5, "d": 15})
    out = rankings.rank_agreement(a, b, value="score", n_boot=200).row(0, named=True)
    assert out["labels"] == 4 and out["shared_clusters"] == 30
    assert out["spearman"] == pytest.approx(0.8)
    assert out["kendall"] == pytest.approx(4 / 6)
    assert (out["spearman_lower"], out["spearman_upper"]) == pytest.approx((0.8, 0.8))
    assert (out["kendall_lower"], out["kendall_upper"]) == pytest.approx((4 / 6,) * 2)


def test_rank_agreement_of_a_policy_with_itself_and_its_reverse():
    games = multiplayer_frame(1500, 3, corp_effect={"Alpha Corp": 3, "Beta Corp": 1,
                              "Delta Corp": -3}, group_size=3, seed=4)  # fmt: skip
    same = rankings.rank_agreement(games, games, group_size=3, n_boot=200)
    assert same["spearman"][0] == 1.0 and same["spearman_lower"][0] == 1.0
    flipped = games.with_columns(
        won=pl.col("rank") == pl.col("rank").max().over("game_id")
    )
    reverse = rankings.rank_agreement(games, flipped, group_size=3, n_boot=200)
    assert reverse["spearman"][0] < 0 and reverse["spearman_upper"][0] <= 0.5


def test_row_correlations_match_scipy_with_ties():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 4, (50, 6)).astype(float)
    b = rng.integers(0, 4, (50, 6)).astype(float)
    keep = (a.std(1) > 0) & (b.std(1) > 0)
    rho = rankings.row_spearman(a, b)[keep]
    tau = rankings.row_kendall(a, b)[keep]
    assert rho == pytest.approx(
        [sps.spearmanr(x, y).statistic for x, y in zip(a[keep], b[keep], strict=True)]
    )
    assert tau == pytest.approx(
        [sps.kendalltau(x, y).statistic for x, y in zip(a[keep], b[keep], strict=True)]
    )


# ---------------------------------------------------------------- corrected cells


def test_cell_effects_adjust_over_every_cell():
    games = multiplayer_frame(3000, 2, corp_effect={"Alpha Corp": 4}, seed=6)
    holm = cells.cell_effects(games, correction="holm")
    bh = cells.cell_effects(games, correction="bh")
    none = cells.cell_effects(games, correction="none")
    assert holm.height == 4 * 3
    p = holm["p_value"].to_numpy()
    assert holm["p_adjusted"].to_numpy() == pytest.approx(stats.holm(p))
    assert bh["p_adjusted"].to_numpy() == pytest.approx(stats.benjamini_hochberg(p))
    assert none["p_adjusted"].to_numpy() == pytest.approx(p)
    assert bh["significant"].sum() >= holm["significant"].sum()
    alpha = holm.filter(pl.col("corporation") == "Alpha Corp")
    assert alpha["significant"].all() and (alpha["effect"] > 0.1).all()
    with pytest.raises(ValueError, match="correction"):
        stats.adjust([0.1], "sidak")  # type: ignore[arg-type]


def test_cell_effects_on_scores_against_the_table():
    games = multiplayer_frame(2000, 2, planet_effect={"North": 5}, seed=8)
    table = cells.cell_effects(games, value="score_vs_table", correction="bh")
    north = table.filter(pl.col("planet") == "North")
    assert north["significant"].all() and (north["effect"] > 1.0).all()


# ---------------------------------------------------------------- one-look table


def test_verdict_table_labels_known_effects():
    """Alpha strong under both policies, Delta weak under a and strong under b,
    Beta and Gamma fair under both; planets fair."""
    a = multiplayer_frame(3000, 3, corp_effect={"Alpha Corp": 4, "Delta Corp": -4},
                          group_size=3, setup_sd=3, seed=11)  # fmt: skip
    b = multiplayer_frame(3000, 3, corp_effect={"Alpha Corp": 4, "Delta Corp": 4},
                          group_size=3, setup_sd=3, seed=12)  # fmt: skip
    out = verdicts.verdict_table(a, b, group_size=3)
    corps = out.filter(pl.col("kind") == "corporation")
    assert corps["name"].to_list()[0] == "Alpha Corp"  # sorted by effect under a
    assert corps["name"].to_list()[-1] == "Delta Corp"
    assert corps["win_pp_a"].is_sorted(descending=True)
    got = dict(zip(corps["name"], corps["label"], strict=True))
    assert got["Alpha Corp"] == "robust"
    assert got["Delta Corp"] == "bot-dependent"
    scores = dict(zip(corps["name"], corps["score_label"], strict=True))
    assert scores["Alpha Corp"] == "robust" and scores["Delta Corp"] == "bot-dependent"
    sizes = dict(zip(corps["name"], corps["size_differs"], strict=True))
    assert sizes["Delta Corp"]  # -4 against +4
    delta = corps.row(-1, named=True)  # in percentage points, a - b
    assert delta["win_diff_lower"] < delta["win_diff"] < delta["win_diff_upper"] < -20
    same = verdicts.verdict_table(a, a, group_size=3)
    assert not same["size_differs"].any()
    narrow = verdicts.verdict_table(a, b, group_size=3, confidence=0.5).filter(
        pl.col("name") == "Delta Corp"
    ).row(0, named=True)  # fmt: skip
    assert (delta["win_diff_upper"] - delta["win_diff_lower"]) > 2 * (
        narrow["win_diff_upper"] - narrow["win_diff_lower"]
    )
    alpha = corps.row(0, named=True)  # confirmed on the other half, same sign
    assert alpha["win_conf_a"] > 0 and alpha["win_conf_b"] > 0
    planets = out.filter(pl.col("kind") == "planet")
    assert set(planets["label"]) == {"unresolved"}
    assert out.columns[:4] == ["n_players", "kind", "name", "win_pp_a"]
    row = corps.row(0, named=True)
    assert row["win_lower_a"] < row["win_pp_a"] < row["win_upper_a"]
    assert 15 < row["win_pp_a"] < 35  # percentage points, not a share


def test_setups_that_all_agree_are_no_evidence():
    """Under b Alpha wins both of its two setups: a win rate of 100% with a
    standard error of 0, which must not make it significant (it made a fair
    corporation 'bot-dependent' in a small study)."""
    corps = ["Alpha Corp", "Beta Corp"]
    a = multiplayer_frame(2000, 2, corporations=corps, group_size=2, seed=5)
    b = multiplayer_frame(4, 2, corporations=corps, corp_effect={"Alpha Corp": 1e3},
                          group_size=2, seed=6)  # fmt: skip
    out = verdicts.verdict_table(a, b, group_size=2).filter(
        pl.col("kind") == "corporation"
    )
    alpha = out.filter(pl.col("name") == "Alpha Corp").row(0, named=True)
    assert alpha["win_pp_b"] == pytest.approx(50.0)
    assert np.isnan(alpha["win_lower_b"]) and np.isnan(alpha["win_upper_b"])
    assert alpha["label"] == "unresolved"


# ---------------------------------------------------------------- replication


def half_effect(n_games: int, effect: float, seed: int) -> pl.DataFrame:
    """Alpha strong on the setups of half 0 only (its key's hash), fair on half 1."""
    games = multiplayer_frame(n_games, 3, corp_effect={"Alpha Corp": effect},
                              group_size=3, seed=seed)  # fmt: skip
    fair = multiplayer_frame(n_games, 3, group_size=3, seed=seed)
    first, _ = replication.split_halves(games, group_size=3)
    _, second = replication.split_halves(fair, group_size=3)
    return pl.concat([first, second]).sort("game_id", "seat")


def test_the_halves_split_setups_alike_for_every_policy():
    a = multiplayer_frame(600, 3, group_size=3, seed=1)
    b = multiplayer_frame(600, 3, group_size=3, seed=2)  # the same setup keys
    (a1, a2), (b1, _) = (replication.split_halves(g, group_size=3) for g in (a, b))
    assert set(a1["game_id"] // 3) == set(b1["game_id"] // 3)
    assert set(a1["game_id"] // 3).isdisjoint(set(a2["game_id"] // 3))
    assert a1.height + a2.height == a.height
    assert 0.4 < a1.height / a.height < 0.6


def test_a_finding_of_one_half_only_is_not_replicated():
    """Alpha is strong on the declaring half only: declared robust, and the
    other half (where it is fair) does not confirm it."""
    a, b = half_effect(3000, 6, seed=3), half_effect(3000, 6, seed=3)
    out = (
        verdicts.verdict_table(a, b, group_size=3)
        .filter(pl.col("name") == "Alpha Corp")
        .row(0, named=True)
    )
    assert out["declared"] == "robust" and out["label"] == "not replicated"
    assert abs(out["win_conf_a"]) < 3  # its size on the confirming half


def test_without_replication_the_declared_label_stands():
    a, b = half_effect(3000, 6, seed=3), half_effect(3000, 6, seed=3)
    out = (
        verdicts.verdict_table(a, b, group_size=3, replicate=False)
        .filter(pl.col("name") == "Alpha Corp")
        .row(0, named=True)
    )
    assert out["label"] == out["declared"] == "robust"
    assert out["win_conf_a"] is None


def test_paired_bot_differences_are_per_setup_differences():
    """The same setups under two policies that differ by a fixed 4 points for
    Alpha: the difference is exact, and pairing removes the setup effect."""
    a = multiplayer_frame(900, 3, corp_effect={"Alpha Corp": 2}, group_size=3,
                          setup_sd=6, noise_sd=0.0, seed=8)  # fmt: skip
    b = a.with_columns(
        score=pl.col("score") - 4 * (pl.col("corporation") == "Alpha Corp")
    )
    out = verdicts.bot_differences(a, b, by=["corporation"], value="score",
                                   group_size=3)  # fmt: skip
    alpha = out.filter(pl.col("corporation") == "Alpha Corp").row(0, named=True)
    assert alpha["difference"] == pytest.approx(4.0)
    assert alpha["se"] == pytest.approx(0.0, abs=1e-9)  # exactly paired
    other = out.filter(pl.col("corporation") == "Beta Corp").row(0, named=True)
    assert other["difference"] == pytest.approx(0.0)


def test_one_sided_and_confirmed_known_answers():
    p = replication.one_sided([2.0, -2.0, 0.5], [0.04, 0.04, 0.5], [1, 1, -1])
    assert p.tolist() == pytest.approx([0.02, 0.98, 0.75])
    # Holm over the two declared: 0.01 * 2 < 0.05 kept, 0.03 * 1 < 0.05 kept;
    # 0.001 was not declared, so it is neither adjusted for nor confirmed
    kept = replication.confirmed([0.01, 0.03, 0.001], [True, True, False])
    assert kept.tolist() == [True, True, False]
    assert replication.confirmed([0.03, 0.04], [True, True]).tolist() == [False] * 2
