"""Solo calibration on synthetic games generated from known deck effects."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synthetic_games import all_decks, solo_frame

from pu_sim.analysis import calibration
from pu_sim.analysis.calibration import TargetTable
from pu_sim.rules.loading import load_game_data
from pu_sim.simulation.frames import solo_target

PUBLISHED = TargetTable.published()


def band(c: np.ndarray) -> np.ndarray:
    """Band index 0..4 of a card count (0-2, 3-6, 7-10, 11-14, 15+)."""
    return np.searchsorted([3, 7, 11, 15], c, side="right")


def published_mean(g: np.ndarray, o: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Scores that move exactly as the published targets, 20 points lower."""
    a = PUBLISHED.adjustments
    return (
        40.0
        + np.array(a["green"])[band(g)]
        + np.array(a["orange"])[band(o)]
        + np.array(a["red"])[band(r)]
    )


RED_TRUE = np.array([0.0, -2.0, -3.0, -4.0, -6.0])  # red hurts half as much


def half_red_mean(g: np.ndarray, o: np.ndarray, r: np.ndarray) -> np.ndarray:
    a = PUBLISHED.adjustments
    return (
        40.0
        + np.array(a["green"])[band(g)]
        + np.array(a["orange"])[band(o)]
        + RED_TRUE[band(r)]
    )


def test_published_table_matches_the_rulebook_for_every_deck():
    data = load_game_data()
    for g, o, r in all_decks():
        assert PUBLISHED.target(g, o, r) == solo_target(data, g, o, r)
    decks = pl.DataFrame(all_decks(), schema=["deck_green", "deck_orange", "deck_red"],
                         orient="row")  # fmt: skip
    via_expr = decks.select(PUBLISHED.expr()).to_series().to_list()
    assert via_expr == [solo_target(data, *d) for d in all_decks()]
    assert PUBLISHED.band_labels() == ["0-2", "3-6", "7-10", "11-14", "15+"]


def test_table_validation_and_round_trip():
    with pytest.raises(ValueError, match="colours"):
        TargetTable(base=60, bands=((0, 20),), adjustments={"green": (0,)})
    frame = PUBLISHED.to_frame()
    assert frame.columns == ["entry", "band", "low", "high", "value"]
    assert frame.filter(entry="base")["value"][0] == 60
    assert frame.filter(entry="red")["value"].to_list() == [0, -5, -7, -9, -11]


def test_linear_effects_recover_a_known_slope():
    df = solo_frame(20_000, lambda g, o, r: 30 + 1.2 * g - 0.3 * r, sd=5.0, seed=1)
    fit = calibration.colour_effects(df)
    est = dict(zip(fit["term"], fit["estimate"], strict=True))
    assert est["green"] == pytest.approx(1.2, abs=0.03)
    assert est["red"] == pytest.approx(-0.3, abs=0.03)
    for r in fit.iter_rows(named=True):
        assert r["lower"] < r["estimate"] < r["upper"]
    # The table's slope is the least-squares slope of its own targets.
    decks = df.select("deck_green", "deck_orange", "deck_red").to_numpy()
    x = np.column_stack([np.ones(len(decks)), decks[:, 0], decks[:, 2]])
    y = df.select(PUBLISHED.expr()).to_series().to_numpy()
    assert fit["published"].to_numpy() == pytest.approx(np.linalg.lstsq(x, y)[0])
    assert fit["drift"].to_numpy() == pytest.approx(
        fit["estimate"].to_numpy() - fit["published"].to_numpy()
    )


def test_band_effects_equal_the_table_when_scores_follow_it():
    df = solo_frame(30_000, published_mean, sd=4.0, seed=2)
    fit = calibration.colour_effects(df, model="bands")
    bands = fit.filter(pl.col("term") != "intercept")
    assert bands["estimate"].to_numpy() == pytest.approx(
        bands["published"].to_numpy(), abs=0.35
    )
    covered = (bands["drift_lower"] <= 0) & (bands["drift_upper"] >= 0)
    assert covered.sum() >= 11  # 95% intervals: about 1 in 20 may miss


def test_band_effects_find_an_over_correcting_red_adjustment():
    df = solo_frame(30_000, half_red_mean, sd=4.0, seed=3)
    fit = calibration.colour_effects(df, model="bands").filter(colour="red")
    assert fit["estimate"].to_numpy() == pytest.approx(RED_TRUE[1:], abs=0.35)
    assert (fit["drift_lower"] > 0).all()  # red decks easier than the table says


def test_unidentified_bands_are_a_clear_error():
    df = solo_frame(500, published_mean, decks=[(7, 7, 6), (3, 3, 14), (14, 3, 3)])
    with pytest.raises(ValueError, match="do not identify"):
        calibration.colour_effects(df, model="bands")
    assert calibration.colour_effects(df).height == 3  # linear still fits


def test_solo_rows_without_a_deck_are_refused():
    df = solo_frame(10, published_mean).with_columns(deck_red=pl.lit(0, pl.UInt8))
    with pytest.raises(ValueError, match="20-card event deck"):
        calibration.deck_summary(df)


def test_deck_summary_known_values():
    df = pl.DataFrame({"n_players": [1] * 4, "score": [50, 60, 40, 44],
                       "deck_green": [7, 7, 0, 0], "deck_orange": [7, 7, 10, 10],
                       "deck_red": [6, 6, 10, 10]})  # fmt: skip
    out = calibration.deck_summary(df)
    assert out["target"].to_list() == [51.0, 59.0]
    assert out["mean_margin"].to_list() == [-9.0, -4.0]
    assert out["success"].to_list() == [0.0, 0.5]
    bands = calibration.deck_summary(df, level="bands")
    assert bands["band_red"].cast(str).to_list() == ["7-10", "3-6"]


def test_recalibration_recovers_the_true_adjustments_and_flattens_success():
    df = solo_frame(40_000, half_red_mean, sd=4.0, seed=4)
    recal = calibration.recalibrate(df, success=0.5)
    red = recal.filter(entry="red")["recalibrated"].to_numpy()
    assert red == pytest.approx(RED_TRUE)
    green = recal.filter(entry="green")["recalibrated"].to_list()
    assert green == list(PUBLISHED.adjustments["green"])
    new = calibration.table_from_frame(recal)
    pub = calibration.rebase(PUBLISHED, df, success=0.5, label="published, par")
    per_band = calibration.outcomes(df, tables=[pub, new], level="bands")
    spread = {r["table"]: r for r in
              calibration.success_spread(per_band).iter_rows(named=True)}  # fmt: skip
    assert spread["published, par"]["p_value"] < 1e-6
    assert spread["recalibrated"]["p_value"] > 0.001
    # Whole-point targets move success in steps (~10% here): the base is the
    # step closest to 0.5.
    rates = []
    for shift in (-1, 0, 1):
        t = TargetTable(base=new.base + shift, bands=new.bands,
                        adjustments=new.adjustments)  # fmt: skip
        rates.append(calibration.outcomes(df, tables=[t])["success"][0])
    assert abs(rates[1] - 0.5) <= min(abs(rates[0] - 0.5), abs(rates[2] - 0.5))


def test_the_recalibrated_tables_base_row_has_no_band():
    recal = calibration.recalibrate(
        solo_frame(2_000, half_red_mean, sd=4.0, seed=6), success=0.5
    )
    base = recal.filter(entry="base").row(0, named=True)
    assert (base["band"], base["low"], base["high"]) == (None, None, None)
    assert recal.filter(entry="red")["high"].null_count() == 0


def test_recalibration_keeps_the_published_difficulty_by_default():
    df = solo_frame(20_000, half_red_mean, sd=6.0, seed=5)
    published_rate = calibration.outcomes(df, tables=[PUBLISHED])["success"][0]
    recal = calibration.recalibrate(df)
    assert recal["success"][0] == pytest.approx(published_rate)
    new = calibration.table_from_frame(recal)
    rate = calibration.outcomes(df, tables=[new])["success"][0]
    assert rate == pytest.approx(published_rate, abs=0.01)


def test_quantile_method_equalises_success_when_spread_differs():
    # Red decks add variance: a mean shift cannot keep P(score >= t) flat at
    # 10%, a quantile regression at 0.9 can.
    def sd(g, o, r):
        return 3.0 + 3.0 * (band(r) >= 3)

    df = solo_frame(40_000, published_mean, sd=sd, seed=6)
    tables = []
    for method in ("mean", "quantile"):
        recal = calibration.recalibrate(df, success=0.1, method=method, integer=False)
        tables.append(calibration.table_from_frame(recal, label=method))
    per_band = calibration.outcomes(df, tables=tables, level="bands")
    spread = {r["table"]: r for r in
              calibration.success_spread(per_band).iter_rows(named=True)}  # fmt: skip
    width = {k: v["max_success"] - v["min_success"] for k, v in spread.items()}
    assert width["quantile"] < width["mean"]
    assert spread["quantile"]["p_value"] > spread["mean"]["p_value"]


def test_outcome_rows_are_the_rulebook_bands():
    df = pl.DataFrame({"n_players": [1] * 4, "score": [48, 59, 65, 80],
                       "deck_green": [7] * 4, "deck_orange": [7] * 4,
                       "deck_red": [6] * 4})  # fmt: skip
    out = calibration.outcomes(df, tables=[PUBLISHED]).row(0, named=True)
    # target 59: margins -11, 0, +6, +21
    assert out["success"] == 0.75
    assert (out["-15"], out["target"], out["+5"], out["+15"]) == (
        0.25,
        0.25,
        0.25,
        0.25,
    )
    assert out["-10"] == out["-5"] == out["+10"] == 0.0


def test_rebase_moves_only_the_base():
    df = solo_frame(5_000, published_mean, sd=5.0, seed=7)
    par = calibration.rebase(PUBLISHED, df, success=0.5, label="par")
    assert par.adjustments == PUBLISHED.adjustments
    assert par.base == pytest.approx(40.0, abs=1.0)
    rate = calibration.outcomes(df, tables=[par])["success"][0]
    assert rate == pytest.approx(0.5, abs=0.05)


def test_calibration_by_group():
    a = solo_frame(8_000, published_mean, seed=8, corporation="Alpha Corp")
    b = solo_frame(8_000, half_red_mean, seed=9, corporation="Alpha Corp", bot="other")
    df = pl.concat([f.with_columns(pl.col("bot").cast(pl.String)) for f in (a, b)])
    fit = calibration.colour_effects(df, model="bands", by=["bot"])
    assert set(fit["bot"]) == {"greedy", "other"}
    red = fit.filter((pl.col("colour") == "red") & (pl.col("bot") == "other"))
    assert red["estimate"].to_numpy() == pytest.approx(RED_TRUE[1:], abs=0.6)
    recal = calibration.recalibrate(df, by=["bot"], success=0.5)
    assert recal.group_by("bot").len()["len"].to_list() == [16, 16]


@given(st.integers(0, 2**32 - 1), st.integers(30, 200))
@settings(max_examples=25, deadline=None)
def test_the_deck_model_uses_hc1_standard_errors(seed, n):
    """The library's fit equals the HC1 sandwich written out (HC0 or classic
    errors, or a dropped n / (n - p), would differ)."""
    rng = np.random.default_rng(seed)
    x = np.column_stack([np.ones(n), rng.integers(0, 20, n), rng.integers(0, 20, n)])
    y = x @ np.array([40.0, 1.0, -0.5]) + rng.normal(0, 1 + x[:, 1] / 5, n)
    beta, se = calibration._ols(x.astype(float), y, ["base", "green", "red"])
    inv = np.linalg.inv(x.T @ x)
    resid = y - x @ inv @ x.T @ y
    cov = inv @ (x * resid[:, None] ** 2).T @ x @ inv * n / (n - 3)
    assert beta == pytest.approx(inv @ x.T @ y)
    assert se == pytest.approx(np.sqrt(np.diag(cov)))


def test_the_spread_over_decks_is_pearsons_chi_square_of_homogeneity():
    per_deck = pl.DataFrame(
        {"table": ["t"] * 3, "n": [40, 50, 60], "success": [0.25, 0.5, 0.75]}
    )
    (row,) = calibration.success_spread(per_deck).iter_rows(named=True)
    wins = np.array([10.0, 25.0, 45.0])
    n = np.array([40.0, 50.0, 60.0])
    rate = wins.sum() / n.sum()
    expected = ((wins - n * rate) ** 2 / (n * rate)).sum() + (
        ((n - wins) - n * (1 - rate)) ** 2 / (n * (1 - rate))
    ).sum()
    assert row["chi2"] == pytest.approx(expected) and row["df"] == 2
    assert row["p_value"] < 1e-4
