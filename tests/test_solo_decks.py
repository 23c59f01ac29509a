"""Paired deck effects, target fits, fairness and rounding on synthetic solo games."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps
from synthetic_games import all_decks

from pu_sim.analysis import solo_decks, solo_fairness
from pu_sim.analysis.calibration import TargetTable, table_from_frame
from pu_sim.analysis.solo_decks import CardFormula

PUBLISHED = TargetTable.published()
Mean = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def per_card(g: np.ndarray, o: np.ndarray, r: np.ndarray) -> np.ndarray:
    return 50.0 + 1.2 * g - 0.5 * r


def banded(g: np.ndarray, o: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Scores that move exactly as the published table's steps."""
    return (
        np.array(
            [
                PUBLISHED.target(int(a), int(b), int(c))
                for a, b, c in zip(g, o, r, strict=True)
            ]
        )
        - 10.0
    )


def paired(
    mean: Mean,
    n_setups: int,
    *,
    decks: Sequence[tuple[int, int, int]] | None = None,
    per_setup: int | None = None,
    setup_sd: float = 5.0,
    noise: float = 0.0,
    seed: int = 0,
) -> pl.DataFrame:
    """Every setup (group of games) played under ``decks`` (default all 231), or
    under ``per_setup`` of them drawn at random; a setup's luck is shared."""
    rng = np.random.default_rng(seed)
    pool = np.array(decks or all_decks())
    rows = []
    game = 0
    for setup in range(n_setups):
        picks = (
            pool if per_setup is None
            else pool[rng.choice(len(pool), per_setup, replace=False)]
        )  # fmt: skip
        luck = rng.normal(0, setup_sd)
        scores = mean(picks[:, 0], picks[:, 1], picks[:, 2]) + luck
        scores = scores + rng.normal(0, noise, len(picks)) if noise else scores
        for (g, o, r), score in zip(picks, scores, strict=True):
            rows.append((game, setup, 1, int(g), int(o), int(r), float(score)))
            game += 1
    return pl.DataFrame(
        rows,
        schema=["game_id", "setup", "n_players", "deck_green", "deck_orange",
                "deck_red", "score"],
        orient="row",
    )  # fmt: skip


# ---------------------------------------------------------------- deck effects


def test_a_deterministic_design_gives_exact_effects():
    df = paired(per_card, 4)
    out = solo_decks.deck_effects(df, cluster="setup")
    g, r = out["deck_green"].to_numpy(), out["deck_red"].to_numpy()
    assert out.height == 231
    assert out["effect"].to_numpy() == pytest.approx(1.2 * (g - 7) - 0.5 * (r - 6))
    assert out["se"].to_numpy() == pytest.approx(np.zeros(231), abs=1e-9)
    ref = out.filter((pl.col("deck_green") == 7) & (pl.col("deck_red") == 6))
    assert ref.select("effect", "setups", "n").row(0) == (0.0, 4, 4)
    level = df.filter(pl.col("deck_green") == 7, pl.col("deck_red") == 6)[
        "score"
    ].mean()
    assert ref["mean"][0] == pytest.approx(level)


def test_an_incomplete_design_still_compares_decks_within_setups():
    """Each setup plays 30 of the 231 decks; setup luck sd 20 would swamp any
    comparison across setups, yet the fixed-effects contrasts stay exact."""
    df = paired(per_card, 60, per_setup=30, setup_sd=20.0, seed=3)
    out = solo_decks.deck_effects(df, cluster="setup")
    g, r = out["deck_green"].to_numpy(), out["deck_red"].to_numpy()
    assert out["effect"].to_numpy() == pytest.approx(1.2 * (g - 7) - 0.5 * (r - 6))
    assert (out["raw_mean"] - out["mean"]).abs().max() > 1.0  # raw means are confounded


def test_the_cr1_of_a_complete_design_is_the_paired_difference_formula():
    decks = [(7, 7, 6), (10, 4, 6), (5, 5, 10), (0, 10, 10)]
    df = paired(per_card, 12, decks=decks, noise=3.0, seed=4)
    out = solo_decks.deck_effects(df, cluster="setup")
    y = df.sort("setup", "game_id")["score"].to_numpy().reshape(12, 4)
    g_, n_rows, k = 12, 48, 3
    factor = g_ / (g_ - 1) * (n_rows - 1) / (n_rows - k)
    for j, deck in enumerate(decks[1:], start=1):
        diff = y[:, j] - y[:, 0]
        row = out.filter(pl.col("deck_green") == deck[0], pl.col("deck_red") == deck[2])
        assert row["effect"][0] == pytest.approx(diff.mean())
        var = factor * ((diff - diff.mean()) ** 2).sum() / g_**2
        assert row["se"][0] == pytest.approx(math.sqrt(var))
        half = sps.t.ppf(0.975, g_ - 1) * row["se"][0]  # CR1 t with G - 1 df
        assert row["lower"][0] == pytest.approx(diff.mean() - half)
        assert row["upper"][0] == pytest.approx(diff.mean() + half)


def test_the_composition_means_cr1_is_that_of_column_means_in_a_complete_design():
    """With every setup under every deck once, a composition's mean is its
    column mean, so its CR1 variance is f * sum_g (y_gd - mean_d)^2 / G^2."""
    decks = [(7, 7, 6), (10, 4, 6), (5, 5, 10), (0, 10, 10)]
    df = paired(per_card, 6, decks=decks, noise=3.0, seed=1)
    design = solo_decks.PairedDesign.read(df, cluster="setup")
    beta = design.solve()
    cov = design.mean_covariance(beta)
    y = df.sort("setup", "game_id")["score"].to_numpy().reshape(6, 4)
    order = [design.decks.tolist().index(list(d)) for d in decks]
    factor = 6 / 5 * 23 / 21  # G/(G-1) * (N-1)/(N-K), K = 3 effects
    direct = factor * ((y - y.mean(0)) ** 2).sum(0) / 36
    assert np.diag(cov)[order] == pytest.approx(direct)
    assert (design.level(beta) + beta)[order] == pytest.approx(y.mean(0))


def test_noisy_effects_recover_the_per_card_slopes():
    df = paired(per_card, 40, noise=6.0, seed=5)
    fit = solo_decks.fit_formula(df, cluster="setup")
    est = dict(zip(fit["term"], fit["estimate"], strict=True))
    se = dict(zip(fit["term"], fit["se"], strict=True))
    assert est["green"] == pytest.approx(1.2, abs=4 * se["green"])
    assert est["red"] == pytest.approx(-0.5, abs=4 * se["red"])
    assert se["green"] < 0.05
    effects = solo_decks.deck_effects(df, cluster="setup").filter(pl.col("se") > 0)
    # a paired difference of two games with noise sd 6, over 40 setups
    assert effects["se"].mean() == pytest.approx(math.sqrt(2 * 36 / 40), rel=0.1)


def test_read_errors():
    df = paired(per_card, 2, decks=[(7, 7, 6), (10, 4, 6)])
    with pytest.raises(ValueError, match="reference deck"):
        solo_decks.deck_effects(df, cluster="setup", reference=(6, 7, 7))
    bad = df.with_columns(deck_red=pl.lit(0))
    with pytest.raises(ValueError, match="20-card"):
        solo_decks.deck_effects(bad, cluster="setup")
    apart = pl.DataFrame({"game_id": [0, 1], "setup": [0, 1], "n_players": [1, 1],
        "deck_green": [7, 10], "deck_orange": [7, 4], "deck_red": [6, 6],
        "score": [50.0, 52.0]})  # fmt: skip
    with pytest.raises(ValueError, match="share no setup"):
        solo_decks.deck_effects(apart, cluster="setup")


# ---------------------------------------------------------------- fits


def test_fit_formula_is_exact_on_a_deterministic_frame():
    df = paired(per_card, 3, setup_sd=0.0)
    fit = solo_decks.fit_formula(df, cluster="setup")
    assert fit["estimate"].to_list() == pytest.approx([50.0, 1.2, -0.5])
    formula = CardFormula.from_fit(fit)
    assert formula.target(7, 7, 6) == 55.0  # 50 + 8.4 - 3 = 55.4, to whole points


def test_fit_bands_recovers_a_banded_truth_and_makes_a_table():
    df = paired(banded, 3, setup_sd=0.0)
    fit = solo_decks.fit_bands(df, cluster="setup")
    colours = fit.filter(pl.col("entry") != "base")
    assert colours["estimate"].to_numpy() == pytest.approx(
        colours["published"].to_numpy()
    )
    assert fit.filter(pl.col("entry") == "base")["estimate"][0] == pytest.approx(50.0)
    table = table_from_frame(fit, label="refit")
    assert table.adjustments == PUBLISHED.adjustments and table.base == 50.0


def test_fit_bands_rounds_to_the_step():
    df = paired(per_card, 3, setup_sd=0.0)
    fit = solo_decks.fit_bands(df, cluster="setup", step=0.5)
    assert ((fit["recalibrated"] * 2) % 1 == 0).all()
    assert (fit["recalibrated"] - fit["estimate"]).abs().max() <= 0.25


@dataclass(frozen=True)
class Unrounded:
    """A per-card rule without the whole-point rounding (which adds up to 0.5)."""

    base: float
    green: float
    red: float
    label: str = "unrounded"

    def target(self, green: int, orange: int, red: int) -> float:
        return self.base + self.green * green + self.red * red


def test_misfit_is_zero_for_the_true_shape_and_not_for_bands():
    df = paired(per_card, 3, setup_sd=0.0)
    out = solo_decks.target_misfit(
        df, cluster="setup", targets=[Unrounded(50.0, 1.2, -0.5), PUBLISHED]
    )
    rows = {row["target"]: row for row in out.iter_rows(named=True)}
    assert rows["unrounded"]["raw_sd"] == pytest.approx(0.0, abs=1e-9)
    assert rows["unrounded"]["mean_gap"] == pytest.approx(0.0, abs=1e-9)
    assert rows["published"]["misfit_sd"] > 1.0


# ---------------------------------------------------------------- fairness


def test_fairness_by_hand():
    """Two compositions of 10 games: 8 and 2 reach the target.  Rates 0.8 and
    0.2: variance 0.18, binomial noise mean(0.16 / 9) = 0.0178, spread
    sqrt(0.1622)."""
    rows = [(7, 7, 6, 60 if i < 8 else 50) for i in range(10)]
    rows += [(0, 0, 20, 60 if i < 2 else 40) for i in range(10)]
    df = pl.DataFrame(rows, schema=["deck_green", "deck_orange", "deck_red", "score"],
                      orient="row").with_columns(n_players=pl.lit(1))  # fmt: skip
    flat = CardFormula(base=55.0, green=0.0, red=0.0)
    row = solo_fairness.fairness(df, targets=[flat]).row(0, named=True)
    assert row["compositions"] == 2 and row["games"] == 20 and row["success"] == 0.5
    assert row["raw_sd"] == pytest.approx(math.sqrt(0.18))
    assert row["noise_sd"] == pytest.approx(math.sqrt(0.16 / 9))
    assert row["spread"] == pytest.approx(math.sqrt(0.18 - 0.16 / 9))
    assert row["p10"] > row["raw_p10"] and row["p90"] < row["raw_p90"]  # shrunk
    per = solo_fairness.success_by_deck(df, targets=[flat])
    assert per["success"].to_list() == [0.2, 0.8]
    fair = CardFormula(base=50.0, green=0.0, red=-0.5)  # 47 and 40: all succeed
    assert solo_fairness.fairness(df, targets=[fair])["spread"][0] == 0.0


def test_with_success_moves_the_base_by_whole_points():
    df = pl.DataFrame({"n_players": [1] * 4, "score": [50, 55, 60, 65],
        "deck_green": [7] * 4, "deck_orange": [7] * 4, "deck_red": [6] * 4})  # fmt: skip
    moved = solo_fairness.with_success(CardFormula(50.0, 0.0, 0.0), df, success=0.5)
    assert moved.base == 56.0 and moved.label == "per-card formula"
    table = solo_fairness.with_success(PUBLISHED, df, success=0.25, label="hard")
    assert table.target(7, 7, 6) == 61.0 and table.label == "hard"
    assert table.adjustments == PUBLISHED.adjustments
    same = solo_fairness.with_success(PUBLISHED, df, success=0.5)  # 59: 2 of 4
    assert same.base == PUBLISHED.base


def test_split_setups_keeps_setups_whole():
    df = paired(per_card, 10, decks=[(7, 7, 6), (10, 4, 6)])
    fit, held = solo_fairness.split_setups(df, test_share=0.3, cluster="setup", seed=1)
    assert set(fit["setup"]).isdisjoint(held["setup"])
    assert held["setup"].n_unique() == 3 and fit.height + held.height == df.height


def test_holdout_fairness_prefers_the_true_per_card_shape():
    df = paired(per_card, 60, noise=5.0, seed=7)
    out = solo_fairness.holdout_fairness(df, cluster="setup", seed=2)
    assert out["sample"].unique(maintain_order=True).to_list() == ["fit", "held out"]
    held = {
        r["target"]: r
        for r in out.filter(pl.col("sample") == "held out").iter_rows(named=True)
    }
    assert set(held) == {"published", "banded refit", "per-card formula"}
    assert held["per-card formula"]["spread"] < held["published"]["spread"]
    assert held["per-card formula"]["spread"] < 0.05
    successes = [
        r["success"]
        for r in out.filter(pl.col("sample") == "fit").iter_rows(named=True)
    ]
    assert max(successes) - min(successes) < 0.03  # one difficulty for all three


# ---------------------------------------------------------------- rounding stability


SOME_DECKS = sorted({*all_decks()[::5], (7, 7, 6)})  # every band of every colour


def test_rounding_is_stable_when_every_resample_fits_the_same():
    df = paired(per_card, 8, decks=SOME_DECKS, setup_sd=0.0)
    out = solo_fairness.rounding_stability(df, cluster="setup", n_boot=30)
    assert out["stable"].all() and (out["flip_share"] == 0).all()
    assert out["resamples"][0] == 30
    assert out.height == 1 + 3 * 4  # the base and every band above the first


def test_an_entry_near_a_half_point_is_unstable_and_one_far_from_it_is_not():
    def half(g: np.ndarray, o: np.ndarray, r: np.ndarray) -> np.ndarray:
        return 50.5 + 1.2 * g - 0.5 * r

    decks = [*all_decks()[::7], (7, 7, 6)]
    df = paired(half, 40, decks=decks, setup_sd=2.0, noise=2.0, seed=8)
    out = solo_fairness.rounding_stability(
        df, cluster="setup", model="formula", n_boot=200
    )
    rows = {r["entry"]: r for r in out.iter_rows(named=True)}
    assert rows["base"]["flip_share"] > 0.1 and not rows["base"]["stable"]
    assert rows["green"]["rounded"] == 1.0 and rows["green"]["stable"]
    assert rows["base"]["lower"] < 50.5 < rows["base"]["upper"]
    again = solo_fairness.rounding_stability(
        df, cluster="setup", model="formula", n_boot=200
    )
    assert again.equals(out)  # seeded
