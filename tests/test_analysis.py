"""Balance analyses on hand-made frames with known answers."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from synthetic_games import CORPS, multiplayer_frame

from pu_sim import analysis
from pu_sim.analysis import stats


def two_player(winners: list[str], corps: tuple[str, str] = ("a", "b")) -> pl.DataFrame:
    """2-player games between corporations a and b; ``winners`` per game."""
    rows = []
    for g, w in enumerate(winners):
        for seat, c in enumerate(corps):
            rows.append((g, seat, 2, c, c == w, 30 + 5 * (c == w), 1 + (c != w)))
    return pl.DataFrame(
        rows,
        schema=["game_id", "seat", "n_players", "corporation", "won", "score", "rank"],
        orient="row",
    )


# ---------------------------------------------------------------- win rates


def test_win_rates_known_counts_and_wilson():
    df = two_player(["a"] * 6 + ["b"] * 4)
    out = analysis.win_rates(df)
    lo, hi = stats.wilson_interval([6, 4], [10, 10])
    p = stats.proportion_test([6, 4], [10, 10], 0.5)
    expected = pl.DataFrame(
        {
            "n_players": [2, 2],
            "corporation": ["a", "b"],
            "n": [10, 10],
            "wins": [6, 4],
            "win_rate": [0.6, 0.4],
            "lower": lo,
            "upper": hi,
            "expected": [0.5, 0.5],
            "excess": [0.1, -0.1],
            "p_value": p,
            "p_adjusted": np.minimum(1.0, 2 * p),  # Holm with two equal p-values
            "significant": [False, False],
        }
    )
    assert_frame_equal(out, expected, check_dtypes=False)


def test_win_rates_flags_a_dominant_label_after_holm():
    df = two_player(["a"] * 80 + ["b"] * 20)
    out = analysis.win_rates(df)
    assert out["significant"].to_list() == [True, True]
    # 80/100 vs 0.5: z = 6, p = 2e-9, Holm doubles the smaller of two equal p
    assert out["p_adjusted"][0] == pytest.approx(2 * 1.973e-9, rel=1e-3)


def test_win_rates_ignore_solo_rows():
    solo = pl.DataFrame({"game_id": [9], "n_players": [1], "corporation": ["a"],
                         "won": [True]})  # fmt: skip
    df = pl.concat([two_player(["a", "b"]).select(solo.columns), solo])
    assert analysis.win_rates(df)["n"].to_list() == [2, 2]


def test_win_rates_accept_a_lazy_frame_and_bonferroni():
    df = two_player(["a"] * 7 + ["b"] * 3)
    eager = analysis.win_rates(df, correction="bonferroni")
    lazy = analysis.win_rates(df.lazy(), correction="bonferroni")
    assert_frame_equal(eager, lazy)
    p = stats.proportion_test(7, 10, 0.5)
    assert eager["p_adjusted"][0] == pytest.approx(min(1.0, 2 * float(p)))


def test_bad_options_are_clear_errors():
    df = two_player(["a"])
    with pytest.raises(ValueError, match="confidence"):
        analysis.win_rates(df, confidence=95)
    with pytest.raises(ValueError, match="correction"):
        analysis.win_rates(df, correction="fdr")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lacks column"):
        analysis.win_rates(df.drop("won"))


# ---------------------------------------------------------------- means, balance


def test_score_summary_t_interval():
    df = pl.DataFrame({"n_players": [1] * 5, "corporation": ["a"] * 5,
                       "score": [1, 2, 3, 4, 5]})  # fmt: skip
    out = analysis.score_summary(df)
    half = 2.776445 * math.sqrt(2.5 / 5)
    assert out.row(0, named=True) == pytest.approx(
        {"n_players": 1, "corporation": "a", "n": 5, "mean": 3.0,
         "sd": math.sqrt(2.5), "lower": 3 - half, "upper": 3 + half}
    )  # fmt: skip


def test_score_summary_bootstrap_brackets_the_mean():
    rng = np.random.default_rng(1)
    df = pl.DataFrame({"n_players": 2, "corporation": "a",
                       "score": rng.integers(20, 60, 2000)})  # fmt: skip
    t = analysis.score_summary(df).row(0, named=True)
    b = analysis.score_summary(df, interval="bootstrap", n_boot=2000).row(0, named=True)
    assert b["lower"] < b["mean"] < b["upper"]
    assert b["lower"] == pytest.approx(t["lower"], abs=0.15)
    assert b["upper"] == pytest.approx(t["upper"], abs=0.15)


@pytest.mark.parametrize(("scores", "finite"), [([40], False), ([30, 50], True)])
def test_a_bootstrap_interval_needs_two_games_and_no_more(scores, finite):
    df = pl.DataFrame({"n_players": 2, "corporation": "a", "score": scores})
    row = analysis.score_summary(df, interval="bootstrap", n_boot=200).row(
        0, named=True
    )
    assert (
        math.isfinite(row["lower"]) is finite and math.isfinite(row["upper"]) is finite
    )
    if finite:
        assert 30 <= row["lower"] <= row["mean"] <= row["upper"] <= 50


def test_balance_table_joins_rates_scores_and_ranks():
    df = two_player(["a", "a", "b", "a"])
    out = analysis.balance_table(df)
    assert out["win_rate"].to_list() == [0.75, 0.25]
    assert out["mean_score"].to_list() == [33.75, 31.25]
    assert out["mean_rank"].to_list() == [1.25, 1.75]


def test_score_quantiles_lower_rule_and_interval():
    df = pl.DataFrame({"n_players": 1, "score": list(range(1, 101))})
    out = analysis.score_quantiles(df, quantiles=[0.1, 0.5, 0.9], n_boot=300)
    assert out["value"].to_list() == [10.0, 50.0, 90.0]
    assert (out["lower"] <= out["value"]).all() and (out["value"] <= out["upper"]).all()


# ---------------------------------------------------------------- paired


def test_paired_differences_known_groups():
    # Four setup groups of two games (group_size 2); within a group, a and b
    # each play once.  Per-group differences: 2, 3, 1, 2.
    a = [10, 30, 20, 40]
    b = [8, 27, 19, 38]
    rows = []
    for g in range(4):
        rows += [(2 * g, 0, 2, "a", a[g]), (2 * g + 1, 1, 2, "b", b[g])]
    df = pl.DataFrame(rows, schema=["game_id", "seat", "n_players", "corporation",
                                    "score"], orient="row")  # fmt: skip
    out = analysis.paired_differences(df, group_size=2).row(0, named=True)
    d = np.subtract(a, b)
    assert out["groups"] == 4
    assert out["mean_diff"] == pytest.approx(2.0)
    assert out["paired_se"] == pytest.approx(d.std(ddof=1) / 2)
    ratio = (np.var(a, ddof=1) + np.var(b, ddof=1)) / np.var(d, ddof=1)
    assert out["variance_ratio"] == pytest.approx(ratio)
    lo, hi = stats.mean_interval(2.0, d.std(ddof=1), 4)
    assert (out["lower"], out["upper"]) == pytest.approx((float(lo), float(hi)))
    # Without pairing (group_size 1) no group holds both labels.
    assert analysis.paired_differences(df, group_size=1).height == 0


def test_pairing_removes_a_shared_setup_effect():
    df = multiplayer_frame(
        1600, 2, corporations=CORPS[:2], corp_effect={"Alpha Corp": 2.0},
        setup_sd=8.0, noise_sd=3.0, group_size=2, seed=3,
    )  # fmt: skip
    out = analysis.paired_differences(df, group_size=2).row(0, named=True)
    assert out["corporation_a"] == "Alpha Corp"
    assert out["lower"] < 2.0 < out["upper"]
    # setup variance 64 shared by both: unpaired/paired ~ (2*64 + 2*9/2) / (2*9/2) ~ 15
    assert 10 < out["variance_ratio"] < 22


# ---------------------------------------------------------------- interaction


def test_interaction_deltas_known_and_zero_when_additive():
    df = pl.DataFrame({"n_players": [1] * 4, "corporation": ["a", "a", "b", "b"],
                       "planet": ["x", "y", "x", "y"], "score": [10, 20, 30, 20]})  # fmt: skip
    assert analysis.interaction_table(df)["delta"].to_list() == [-5.0, 5.0, 5.0, -5.0]
    additive = df.with_columns(score=pl.Series([10, 20, 30, 40]))
    assert analysis.interaction_table(additive)["delta"].to_list() == [0.0] * 4


# ---------------------------------------------------------------- seats


def test_seat_effect_pairs_within_games():
    df = pl.DataFrame(
        {"game_id": [0, 0, 1, 1, 2, 2], "n_players": [2] * 6, "seat": [0, 1] * 3,
         "won": [True, False, True, False, False, True],
         "score": [12, 10, 31, 29, 20, 22], "rank": [1, 2, 1, 2, 2, 1]}
    )  # fmt: skip
    out = analysis.seat_effect(df)
    assert out["win_rate"].to_list() == pytest.approx([2 / 3, 1 / 3])
    assert out["score_vs_table"].to_list() == pytest.approx([1 / 3, -1 / 3])
    assert out["mean_score"].to_list() == pytest.approx([21.0, 61 / 3])


def test_seat_effect_recovers_a_first_player_edge():
    df = multiplayer_frame(4000, 4, seat_effect=[1.5, 0, 0, 0], seed=5)
    out = analysis.seat_effect(df)
    first = out.row(0, named=True)
    assert first["svt_lower"] < 1.5 * 3 / 4 < first["svt_upper"]
    assert first["significant"] and first["excess"] > 0
    # the other seats share what seat 0 gains: -1.5 / 4 points each, and they
    # win less often than 1/4
    for r in out.rows(named=True)[1:]:
        assert r["svt_lower"] < -1.5 / 4 < r["svt_upper"] and r["excess"] < 0


# ---------------------------------------------------------------- breakdown


def test_score_breakdown_shares():
    df = pl.DataFrame({"n_players": [1, 1], "corporation": ["a", "a"],
                       "score_planet": [10, 20], "score_civ": [5, 5]})  # fmt: skip
    out = analysis.score_breakdown(df, parts=["score_planet", "score_civ"])
    assert out["mean"].to_list() == [15.0, 5.0]
    assert out["share"].to_list() == [0.75, 0.25]
    assert out["part"].dtype == pl.Enum(["score_planet", "score_civ"])


# ---------------------------------------------------------------- strength


def plackett_luce_games(strength: dict[str, float], n_games: int, n: int, seed: int):
    """Finishing orders drawn from Plackett-Luce (Gumbel-max: exact)."""
    rng = np.random.default_rng(seed)
    names = list(strength)
    log = np.log(np.array([strength[k] for k in names]))
    rows = []
    for g in range(n_games):
        seats = rng.choice(len(names), n, replace=False)
        keys = log[seats] + rng.gumbel(size=n)
        order = np.argsort(-keys)
        rank = np.empty(n, dtype=int)
        rank[order] = np.arange(1, n + 1)
        rows += [(g, s, names[seats[s]], int(rank[s])) for s in range(n)]
    return pl.DataFrame(rows, schema=["game_id", "seat", "corporation", "rank"],
                        orient="row")  # fmt: skip


@pytest.mark.parametrize("model", ["plackett_luce", "bradley_terry"])
def test_strength_model_recovers_known_strengths(model):
    truth = {"a": 2.0, "b": 1.0, "c": 0.5, "d": 1.0}
    df = plackett_luce_games(truth, 4000, 3, seed=11)
    fit = analysis.strength_model(df, model=model, n_boot=60, seed=1)
    log = np.log(list(truth.values()))
    centred = log - log.mean()
    assert fit["corporation"].to_list() == ["a", "b", "c", "d"]
    assert fit["rating"].to_numpy() == pytest.approx(centred, abs=0.08)
    inside = (fit["lower"].to_numpy() <= centred) & (centred <= fit["upper"].to_numpy())
    assert inside.sum() >= 3
    assert fit["rating"].sum() == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_two_players_closed_form():
    # a beats b in 2 of 3 games: MLE strengths 2:1 exactly (no prior)
    df = pl.DataFrame({"game_id": [0, 0, 1, 1, 2, 2], "bot": ["a", "b"] * 3,
                       "rank": [1, 2, 1, 2, 2, 1]})  # fmt: skip
    for model in ("bradley_terry", "plackett_luce"):
        fit = analysis.strength_model(df, by="bot", model=model, n_boot=0, prior=0)
        assert fit["rating"][0] - fit["rating"][1] == pytest.approx(math.log(2))


def test_bradley_terry_counts_ties_as_half():
    # one win each and one tie: equal strengths
    df = pl.DataFrame({"game_id": [0, 0, 1, 1, 2, 2], "bot": ["a", "b"] * 3,
                       "rank": [1, 2, 2, 1, 1, 1]})  # fmt: skip
    fit = analysis.strength_model(
        df, by="bot", model="bradley_terry", n_boot=0, prior=0
    )
    assert fit["rating"].to_list() == pytest.approx([0.0, 0.0], abs=1e-9)


def test_strength_model_prior_keeps_a_never_winning_label_finite():
    df = pl.DataFrame({"game_id": [0, 0, 1, 1], "bot": ["a", "b"] * 2,
                       "rank": [1, 2, 1, 2]})  # fmt: skip
    fit = analysis.strength_model(df, by="bot", n_boot=20)
    assert np.isfinite(fit["rating"].to_numpy()).all()
    assert fit["rating"][0] > 0 > fit["rating"][1]


def test_strength_model_refuses_disconnected_labels():
    df = pl.DataFrame({"game_id": [0, 0, 1, 1], "bot": ["a", "b", "c", "d"],
                       "rank": [1, 2, 1, 2]})  # fmt: skip
    with pytest.raises(ValueError, match="not identified"):
        analysis.strength_model(df, by="bot", n_boot=0)


def test_strength_model_single_label_is_trivial():
    df = pl.DataFrame({"game_id": [0, 0], "bot": ["a", "a"], "rank": [1, 2]})
    fit = analysis.strength_model(df, by="bot")
    assert fit.row(0) == ("a", 2, 0.0, 0.0, 0.0, 0.5)


def copied_setups(n_setups: int, copies: int, seed: int) -> pl.DataFrame:
    """Plackett-Luce games, each played ``copies`` times with the same order.

    A setup's games are perfectly correlated (``group`` is the setup): they
    carry the information of one game, not of ``copies``.
    """
    one = plackett_luce_games({"a": 2.0, "b": 1.0, "c": 0.5}, n_setups, 3, seed)
    return pl.concat(
        one.with_columns(group=pl.col("game_id"),
                         game_id=pl.col("game_id") * copies + k)
        for k in range(copies)
    ).sort("game_id", "seat")  # fmt: skip


@pytest.mark.parametrize("model", ["plackett_luce", "bradley_terry"])
def test_strength_intervals_resample_setups_not_games(model):
    df = copied_setups(150, 4, seed=3)
    run = {"model": model, "n_boot": 200, "seed": 2}
    games = analysis.strength_model(df, **run)
    setups = analysis.strength_model(df, cluster="group", **run)
    assert setups["rating"].to_list() == pytest.approx(games["rating"].to_list())
    width = (games["upper"] - games["lower"]).to_numpy()
    setup_width = (setups["upper"] - setups["lower"]).to_numpy()
    # four copies: the games' bootstrap sees 4x the information, intervals 1/2 wide
    assert (setup_width > 1.5 * width).all()
    assert setup_width / width == pytest.approx(np.full(3, 2.0), rel=0.3)
    by_size = analysis.strength_model(df, group_size=4, **run)
    assert_frame_equal(by_size, setups)  # game_id // 4 is the same setup


def test_strength_default_cluster_is_the_game():
    df = plackett_luce_games({"a": 2.0, "b": 1.0, "c": 1.0}, 300, 3, seed=5)
    run = {"n_boot": 50, "seed": 4}
    by_game = analysis.strength_model(df, cluster="game_id", **run)
    assert_frame_equal(analysis.strength_model(df, **run), by_game)


def test_strength_refuses_a_game_split_between_clusters():
    df = pl.DataFrame({"game_id": [0, 0, 1, 1], "bot": ["a", "b"] * 2,
                       "rank": [1, 2, 2, 1], "group": [0, 1, 2, 2]})  # fmt: skip
    with pytest.raises(ValueError, match="different clusters"):
        analysis.strength_model(df, by="bot", cluster="group", n_boot=5)


# ---------------------------------------------------------------- robustness


def test_robustness_summary():
    a = pl.DataFrame({"seat": [0, 1, 2, 3], "excess": [0.05, -0.01, -0.04, 0.0],
                      "significant": [True, False, True, False]})  # fmt: skip
    b = pl.DataFrame({"seat": [0, 1, 2, 3], "excess": [0.02, 0.01, 0.03, -0.01],
                      "significant": [True, False, True, False]})  # fmt: skip
    out = analysis.robustness(a, b, on=["seat"]).row(0, named=True)
    assert out["keys"] == 4
    assert out["spearman"] == pytest.approx(stats.spearman(a["excess"], b["excess"]))
    assert out["significant_both"] == 2
    assert out["sign_agreement"] == 0.5  # seat 0 agrees, seat 2 flips
    assert out["conflicts"] == 1
    detail = analysis.robustness_detail(a, b, on=["seat"])
    assert detail["agree"].to_list() == [True, False, False, False]


def test_shared_first_places_are_split():
    # Game 0: a and b tie for first; game 1: a wins alone.
    df = pl.DataFrame({"game_id": [0, 0, 0, 1, 1, 1], "n_players": [3] * 6,
                       "corporation": ["a", "b", "c"] * 2,
                       "won": [True, True, False, True, False, False]})  # fmt: skip
    split = analysis.win_rates(df)
    assert split["wins"].to_list() == [1.5, 0.5, 0.0]
    assert split["win_rate"].sum() == pytest.approx(3 * 1 / 3)  # one win per game
    counted = analysis.win_rates(df, ties="count")
    assert counted["wins"].to_list() == [2.0, 1.0, 0.0]


# ---------------------------------------------------------------- head to head


def test_head_to_head_counts_known_games():
    # game 0: x > y > z; game 1: z > x = y; game 2 (another run): y > x
    df = pl.DataFrame({
        "run": ["r1"] * 6 + ["r2"] * 2,
        "game_id": [0, 0, 0, 1, 1, 1, 0, 0],
        "bot": ["x", "y", "z", "x", "y", "z", "x", "y"],
        "rank": [1, 2, 3, 2, 2, 1, 2, 1],
    })  # fmt: skip
    h = analysis.head_to_head(df)
    row = {(r["a"], r["b"]): r for r in h.iter_rows(named=True)}
    assert len(row) == 6
    xy = row["x", "y"]
    assert (xy["n"], xy["ahead"], xy["ties"]) == (3, 1, 1)
    assert xy["share"] == pytest.approx(1.5 / 3)
    lo, hi = stats.wilson_interval(1.5, 3)
    assert (xy["lower"], xy["upper"]) == pytest.approx((float(lo), float(hi)))
    assert (row["z", "x"]["n"], row["z", "x"]["ahead"]) == (2, 1)
    assert row["y", "z"]["share"] == pytest.approx(0.5)
    for (a, b), r in row.items():
        assert r["share"] + row[b, a]["share"] == pytest.approx(1.0)


def test_head_to_head_keeps_runs_apart():
    # the same game_id in two runs is two games, not one game of four seats
    df = pl.DataFrame({"run": ["r1", "r1", "r2", "r2"], "game_id": [0, 0, 0, 0],
                       "bot": ["x", "y", "x", "y"], "rank": [1, 2, 1, 2]})  # fmt: skip
    h = analysis.head_to_head(df)
    assert h.filter(pl.col("a") == "x").row(0, named=True)["n"] == 2
    assert h.filter(pl.col("a") == "x")["share"][0] == 1.0


def test_to_elo_scales_log_strength():
    fit = pl.DataFrame({"bot": ["a", "b"], "rating": [math.log(3.0), 0.0],
                        "lower": [0.0, -1.0], "upper": [2.0, 1.0]})  # fmt: skip
    elo = analysis.to_elo(fit)
    # odds 3:1 <=> 10 ** (gap / 400) = 3
    gap = elo["elo"][0] - elo["elo"][1]
    assert 10 ** (gap / 400) == pytest.approx(3.0)
    assert elo["elo_upper"][0] == pytest.approx(2.0 * 400 / math.log(10))
