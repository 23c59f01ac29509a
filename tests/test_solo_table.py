"""The solo table at the published difficulty, on paired boards with known effects.

Each rule of the proposal is checked on frames whose truth is known, so that
breaking the rule (one line) fails a test here:

* the noise in the success rates' spread is clustered by setup (decks played
  on the same setups err together);
* the per-card formula quoted is the one fitted on the fit half of the setups
  and judged on the held-out half, not a fit on every setup;
* an entry changes only when its rounding is stable under both strong bots
  and they round it alike; every other entry is "not settled";
* the proposed table keeps the anchor bot's published success rate, so its
  average target stays within half a point of the published one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import polars as pl
import pytest
from synthetic_games import all_decks

from pu_sim.analysis import solo_decks, solo_fairness, solo_table
from pu_sim.analysis.calibration import TargetTable
from pu_sim.analysis.solo_decks import CardFormula
from pu_sim.report.page import Page
from pu_sim.report.sections import solo_paired
from pu_sim.report.sections.solo_table import formula_words

PUBLISHED = TargetTable.published()
DECKS = sorted({*all_decks()[::4], (7, 7, 6)})  # every band of every colour


def changed(**entries: float) -> TargetTable:
    """The published table with some entries replaced (``red_1=-2``: red 3-6)."""
    adjustments = {
        c: list(PUBLISHED.adjustments[c]) for c in ("green", "orange", "red")
    }
    for key, value in entries.items():
        colour, band = key.split("_")
        adjustments[colour][int(band)] = value
    return TargetTable(
        base=PUBLISHED.base, bands=PUBLISHED.bands,
        adjustments={c: tuple(v) for c, v in adjustments.items()}, label="truth",
    )  # fmt: skip


def paired_bots(
    truth: Mapping[str, tuple[float, TargetTable]],
    *,
    n_setups: int = 60,
    setup_sd: float = 5.0,
    noise: float = 0.0,
    decks: list[tuple[int, int, int]] = DECKS,
    seed: int = 0,
) -> pl.DataFrame:
    """Each bot plays the same setups (game_id) under every deck; its mean score
    is its level plus the deck's step in its true table, plus the setup's luck
    (shared by the bots) and, if any, noise."""
    rng = np.random.default_rng(seed)
    luck = rng.normal(0, setup_sd, n_setups)
    rows = []
    for bot, (level, table) in truth.items():
        for g, o, r in decks:
            step = table.target(g, o, r) - table.base
            scores = level + step + luck + rng.normal(0, noise, n_setups)
            rows += [(s, 0, 1, bot, "Alpha", "North", g, o, r, float(scores[s]))
                     for s in range(n_setups)]  # fmt: skip
    return pl.DataFrame(
        rows, orient="row",
        schema=["game_id", "seat", "n_players", "bot", "corporation", "planet",
                "deck_green", "deck_orange", "deck_red", "score"],
    )  # fmt: skip


def of(games: pl.DataFrame, bot: str) -> pl.DataFrame:
    return games.filter(pl.col("bot") == bot)


# ---------------------------------------------------------------- noise by setup


def test_the_noise_of_the_spread_is_clustered_by_setup_by_hand():
    """Two decks on the same four setups: hits A = 1,1,1,0 and B = 1,0,0,0.
    Rates 3/4 and 1/4 (variance 1/8).  C_AA = C_BB = 1/16 (the binomial
    p(1-p)/(n-1)), C_AB = 4/3 * (3/16 - 1/16 - 1/16 + 3/16) / 16 = 1/48, so
    the noise is (tr C - sum C / 2) / 1 = 1/8 - 1/12 = 1/24 (not 1/16: the
    decks share setups) and the correlation (1/6 - 1/8) / (1/8) = 1/3."""
    hits = {(7, 7, 6): [1, 1, 1, 0], (0, 10, 10): [1, 0, 0, 0]}
    rows = [(s, 1, *deck, 60.0 if h else 50.0)
            for deck, hs in hits.items() for s, h in enumerate(hs)]  # fmt: skip
    df = pl.DataFrame(rows, orient="row", schema=["game_id", "n_players",
                      "deck_green", "deck_orange", "deck_red", "score"])  # fmt: skip
    flat = CardFormula(base=55.0, green=0.0, red=0.0)
    row = solo_fairness.fairness(df, targets=[flat], cluster="game_id").row(
        0, named=True
    )
    assert row["noise_sd"] == pytest.approx(math.sqrt(1 / 24))
    assert row["setup_correlation"] == pytest.approx(1 / 3)
    assert row["spread"] == pytest.approx(math.sqrt(1 / 8 - 1 / 24))
    assert row["setups"] == 4
    # the same games counted as independent: the binomial noise, no correlation
    alone = solo_fairness.fairness(df.with_columns(game_id=pl.int_range(8)),
                                   targets=[flat], cluster="game_id").row(0, named=True)  # fmt: skip
    assert alone["noise_sd"] == pytest.approx(math.sqrt(1 / 16))
    assert alone["setup_correlation"] == pytest.approx(0.0)


def test_a_known_spread_is_recovered_when_decks_share_setups():
    """Half the decks are 2 points easier: success 50% against about 62%
    (true spread about 5.7 points).  The setups' luck is shared by every deck,
    so the rates err together; binomial noise would take most of the spread
    away, the clustered noise leaves it."""
    decks = DECKS
    easy = {d for i, d in enumerate(decks) if i % 2}
    rng = np.random.default_rng(3)
    luck = rng.normal(0, 6, 100)
    rows = []
    for deck in decks:
        shift = 2.0 if deck in easy else 0.0
        score = 55.0 + shift + luck + rng.normal(0, 3, luck.size)
        rows += [(s, 1, *deck, float(score[s])) for s in range(luck.size)]
    df = pl.DataFrame(rows, orient="row", schema=["game_id", "n_players",
                      "deck_green", "deck_orange", "deck_red", "score"])  # fmt: skip
    flat = CardFormula(base=55.0, green=0.0, red=0.0)
    row = solo_fairness.fairness(df, targets=[flat], cluster="game_id").row(
        0, named=True
    )
    sd = math.sqrt(36 + 9)
    p_easy = 1 - 0.5 * math.erfc(2 / sd / math.sqrt(2))
    truth = (p_easy - 0.5) / 2 * math.sqrt(len(decks) / (len(decks) - 1))
    assert row["spread"] == pytest.approx(truth, abs=0.008)
    assert row["setup_correlation"] > 0.5
    alone = solo_fairness.fairness(
        df.with_columns(game_id=pl.int_range(df.height)), targets=[flat]
    ).row(0, named=True)
    assert alone["spread"] < truth - 0.015  # independent noise over-subtracts


# ---------------------------------------------------------------- the held-out formula


def test_the_formula_quoted_is_the_one_fitted_on_the_fit_half():
    """Each setup has its own green slope, so a fit on half the setups differs
    from a fit on all of them; the rule judged and quoted is the half's."""
    rng = np.random.default_rng(5)
    slopes = rng.normal(1.2, 0.6, 40)
    rows = []
    for s, slope in enumerate(slopes):
        for g, o, r in DECKS:
            rows.append((s, 1, g, o, r, 50.0 + slope * g - 0.4 * r))
    df = pl.DataFrame(rows, orient="row", schema=["game_id", "n_players",
                      "deck_green", "deck_orange", "deck_red", "score"])  # fmt: skip
    held = solo_fairness.holdout(df, cluster="game_id", seed=1)
    fit, rest = solo_fairness.split_setups(df, cluster="game_id", seed=1)
    half = solo_decks.fit_formula(fit, cluster="game_id")
    every = solo_decks.fit_formula(df, cluster="game_id")
    assert held.formula_fit.equals(half)
    assert held.formula.green == pytest.approx(half["estimate"][1])
    assert abs(held.formula.green - every["estimate"][1]) > 0.02  # the halves differ
    assert (held.fit_setups, held.held_setups) == (20, 20)
    assert set(held.misfit["target"]) == {
        "published", "banded refit", "per-card formula"
    }  # fmt: skip
    # judged on the held-out setups: the misfit is the held-out part's
    again = solo_decks.target_misfit(rest, targets=list(held.rules), cluster="game_id")
    assert held.misfit.equals(again)


def test_the_report_quotes_the_held_out_formula(tmp_path):
    rng = np.random.default_rng(6)
    truth = {"strong": (58.0, PUBLISHED), "weak": (45.0, PUBLISHED)}
    games = paired_bots(truth, n_setups=40, noise=4.0, seed=6)
    slopes = dict(zip(range(40), rng.normal(0.0, 0.6, 40), strict=True))
    games = games.with_columns(
        score=pl.col("score")
        + pl.col("game_id").replace_strict(slopes) * pl.col("deck_green")
    )
    page = Page(tmp_path)
    solo_paired.paired_calibration_section(page, games)
    held = solo_fairness.holdout(of(games, "strong"), cluster="game_id")
    every = CardFormula.from_fit(
        solo_decks.fit_formula(of(games, "strong"), cluster="game_id")
    )
    moved = solo_fairness.with_success(every, of(games, "strong"), success=0.5)
    quoted = formula_words(held.formula)
    assert quoted != formula_words(every) and quoted != formula_words(moved)
    (table,) = [h for h in page.headlines if "at the published difficulty" in h]
    (fair,) = [h for h in page.headlines if h.startswith("**Solo target (strong")]
    assert quoted in table and quoted in fair
    text = "\n".join(page.sections)
    assert (
        f"**The per-card alternative** (strong, fitted on 20 setups and judged on the other 20): {quoted}"
        in text
    )
    csv = pl.read_csv(tmp_path / "tables" / "solo_formula_held_out_strong.csv")
    assert csv["estimate"].to_list() == pytest.approx(
        held.formula_fit["estimate"].to_list(), abs=1e-5
    )


# ---------------------------------------------------------------- the stability rule


def stability(games: pl.DataFrame, bot: str) -> pl.DataFrame:
    return solo_fairness.rounding_stability(
        of(games, bot), cluster="game_id", n_boot=60
    )


@pytest.mark.parametrize(
    ("second", "status", "proposed"),
    [
        (-2.0, solo_table.CHANGE, -2.0),  # both stable, both round to -2
        (-3.0, solo_table.NOT_SETTLED, -5.0),  # both stable, rounded apart
        (-2.5, solo_table.NOT_SETTLED, -5.0),  # on a half point: flips
    ],
    ids=["both", "apart", "unstable"],
)
def test_an_entry_changes_only_when_both_bots_round_it_stably_alike(
    second, status, proposed
):
    truth = {"one": (60.0, changed(red_1=-2.0)), "two": (56.0, changed(red_1=second))}
    games = paired_bots(truth, noise=1.5 if second == -2.5 else 0.0, seed=2)
    settled = solo_table.settle({b: stability(games, b) for b in truth})
    rows = {(r["entry"], r["band"]): r for r in settled.iter_rows(named=True)}
    red = rows[("red", "3-6")]
    assert (red["status"], red["proposed"]) == (status, proposed)
    others = [r for k, r in rows.items() if k != ("red", "3-6")]
    if second != -2.5:  # without noise every other entry is exact: unchanged
        assert {r["status"] for r in others} == {solo_table.UNCHANGED}
    assert len(rows) == 12
    if status == solo_table.NOT_SETTLED:
        assert ("differently" in red["reason"]) == (second == -3.0)
        assert ("unstable rounding: two" in red["reason"]) == (second == -2.5)


def test_settle_by_hand():
    def frame(**rows: tuple[float, bool]) -> pl.DataFrame:
        out = []
        for key, (rounded, stable) in rows.items():
            colour, band = key.split("_")
            label = PUBLISHED.band_labels()[int(band)]
            out.append({"entry": colour, "band": label, "rounded": rounded,
                        "flip_share": 0.0 if stable else 0.3, "stable": stable})  # fmt: skip
        for colour in ("green", "orange", "red"):
            for b in range(1, 5):
                if f"{colour}_{b}" not in rows:
                    value = PUBLISHED.adjustments[colour][b]
                    out.append({"entry": colour, "band": PUBLISHED.band_labels()[b],
                                "rounded": value, "flip_share": 0.0, "stable": True})  # fmt: skip
        return pl.DataFrame(out)

    a = frame(green_4=(16.0, True), red_1=(-2.0, True), orange_2=(-3.0, False))
    b = frame(green_4=(14.0, True), red_1=(-2.0, True), orange_2=(-3.0, True))
    out = solo_table.settle({"a": a, "b": b})
    status = {
        f"{r['entry']} {r['band']}": r["status"] for r in out.iter_rows(named=True)
    }
    assert status["red 3-6"] == solo_table.CHANGE
    assert status["green 15+"] == solo_table.NOT_SETTLED  # 16 against 14
    assert status["orange 7-10"] == solo_table.NOT_SETTLED  # unstable under a
    assert sum(s == solo_table.UNCHANGED for s in status.values()) == 9
    alone = solo_table.settle({"a": a})  # one bot settles what it alone sees
    assert alone.filter(pl.col("entry") == "green")["status"][-1] == solo_table.CHANGE


# ---------------------------------------------------------------- the level


def test_the_proposed_table_keeps_the_anchor_s_success_and_the_average_target():
    """Both bots' scores move with a table whose red 3-6 step is -2, not -5: the
    entry changes (+3 on 29% of the compositions), so the base must fall for
    the anchor to succeed as often as before, and the average target stays
    within half a point of the published one."""
    truth = {
        "anchor": (58.0, changed(red_1=-2.0)),
        "other": (55.0, changed(red_1=-2.0)),
    }
    games = paired_bots(truth, noise=2.0, seed=4)
    settled = solo_table.settle({b: stability(games, b) for b in truth})
    assert settled.filter(pl.col("status") == solo_table.CHANGE).height == 1
    anchor = of(games, "anchor")
    proposed = solo_table.proposed_table(settled, anchor)
    assert proposed.adjustments["red"][1] == -2.0
    assert proposed.base < PUBLISHED.base
    before = solo_table.success_rate(PUBLISHED, anchor)
    after = solo_table.success_rate(proposed, anchor)
    for other in (proposed.base - 1, proposed.base + 1):  # no whole base is closer
        moved = TargetTable(other, proposed.bands, proposed.adjustments)
        assert abs(solo_table.success_rate(moved, anchor) - before) >= abs(
            after - before
        )
    gap = solo_table.average_target(proposed, anchor) - solo_table.average_target(
        PUBLISHED, anchor
    )
    assert abs(gap) <= 0.5
    unmoved = TargetTable(PUBLISHED.base, proposed.bands, proposed.adjustments)
    assert (
        solo_table.average_target(unmoved, anchor)
        - solo_table.average_target(PUBLISHED, anchor)
        > 0.5
    )  # the change alone would make the game harder


def test_average_target_weights_compositions_by_their_games():
    df = pl.DataFrame({"n_players": [1, 1, 1], "score": [0, 0, 0],
                       "deck_green": [7, 7, 0], "deck_orange": [7, 7, 0],
                       "deck_red": [6, 6, 20]})  # fmt: skip
    # targets 59 (twice) and 49
    assert solo_table.average_target(PUBLISHED, df) == pytest.approx((2 * 59 + 49) / 3)


def test_levels_are_clustered_by_setup_and_give_each_bot_its_par_base():
    truth = {"strong": (62.0, PUBLISHED), "weak": (50.0, PUBLISHED)}
    games = paired_bots(truth, n_setups=30, setup_sd=8.0, noise=2.0, seed=7)
    out = solo_table.levels(games, targets=[PUBLISHED], cluster="game_id")
    rows = {r["bot"]: r for r in out.iter_rows(named=True)}
    assert rows["strong"]["setups"] == 30 and rows["strong"]["games"] == 30 * len(DECKS)
    assert rows["strong"]["margin"] == pytest.approx(2.0 + np.mean(
        np.random.default_rng(7).normal(0, 8.0, 30)), abs=0.3)  # fmt: skip
    # the margin's interval is the setups' (sd 8 over 30), not the games'
    half = (rows["strong"]["margin_upper"] - rows["strong"]["margin_lower"]) / 2
    assert half == pytest.approx(2.05 * 8.0 / math.sqrt(30), rel=0.35)
    assert rows["strong"]["par_base"] - rows["weak"]["par_base"] == pytest.approx(
        12.0, abs=1.0
    )


def test_a_score_equal_to_its_target_is_a_success():
    decks = [(7, 7, 6), (3, 7, 10)]
    values = solo_table.target_values(PUBLISHED, np.array(decks))
    df = pl.DataFrame({"bot": "b", "n_players": 1, "game_id": [0, 1, 2, 3],
                       "deck_green": [d[0] for d in decks * 2],
                       "deck_orange": [d[1] for d in decks * 2],
                       "deck_red": [d[2] for d in decks * 2],
                       "score": [*values, *(values - 1)]})  # fmt: skip
    row = solo_table.levels(df, targets=[PUBLISHED]).row(0, named=True)
    assert row["success"] == 0.5  # the games at their target, not those one short


def test_solo_analyses_refuse_a_frame_without_solo_games():
    df = pl.DataFrame({"n_players": [2], "score": [50], "deck_green": [7],
                       "deck_orange": [7], "deck_red": [6]})  # fmt: skip
    with pytest.raises(ValueError, match=r"^no solo games \(n_players == 1\)"):
        solo_fairness.success_by_deck(df, targets=[PUBLISHED])


# ---------------------------------------------------------------- the report


def test_the_report_proposes_only_settled_changes_at_the_published_difficulty(
    tmp_path,
):
    truth = {
        "anchor": (58.0, changed(red_1=-2.0, green_4=15.0)),
        "other": (55.0, changed(red_1=-2.0, green_4=13.0)),
        "weak": (42.0, changed(red_1=-2.0)),
    }
    games = paired_bots(truth, noise=2.0, n_setups=80, seed=8)
    page = Page(tmp_path)
    solo_paired.paired_calibration_section(page, games)
    (table,) = [h for h in page.headlines if "at the published difficulty" in h]
    assert "entries settled by anchor and other" in table
    assert "change red 3-6 -5 -> -2" in table
    assert "green 15+" in table.split("not settled")[1]  # 15 against 13
    settled = pl.read_csv(tmp_path / "tables" / "solo_table_settled.csv")
    changes = settled.filter(pl.col("status") == solo_table.CHANGE)
    assert changes.select("entry", "band").rows() == [("red", "3-6")]
    for bot in ("anchor", "other"):
        assert changes[f"{bot} stable"].to_list() == [True]
    proposed = pl.read_csv(tmp_path / "tables" / "solo_table_proposed.csv")
    table_ = TargetTable(
        base=proposed.filter(pl.col("entry") == "base")["value"][0],
        bands=PUBLISHED.bands,
        adjustments={c: tuple(proposed.filter(pl.col("entry") == c)["value"])
                     for c in ("green", "orange", "red")},
    )  # fmt: skip
    anchor = of(games, "anchor")
    gap = solo_table.average_target(table_, anchor) - solo_table.average_target(
        PUBLISHED, anchor
    )
    assert abs(gap) <= 0.5
    levels = pl.read_csv(tmp_path / "tables" / "solo_levels.csv")
    assert set(levels["bot"]) == set(truth)
    assert set(levels["target"]) == {"published", "proposed",
                                     "per-card formula (held out)"}  # fmt: skip
    (level,) = [h for h in page.headlines if h.startswith("**Solo level by bot")]
    assert level.index("anchor") < level.index("other") < level.index("weak")


def test_the_solo_scores_intervals_count_setups_not_games(tmp_path):
    """Every game its own id, the setup in ``group`` (as the report loads a
    paired study): 30 setups under 58 decks are 30 draws, not 1,740."""
    from pu_sim.report.sections import solo

    games = paired_bots({"strong": (58.0, PUBLISHED)}, n_setups=30, setup_sd=8.0,
                        noise=1.0, seed=9)  # fmt: skip
    games = games.with_columns(group=pl.col("game_id"), game_id=pl.int_range(pl.len()))
    solo.solo_summary(Page(tmp_path), games)
    r = pl.read_csv(tmp_path / "tables" / "solo_scores.csv").row(0, named=True)
    assert (r["n"], r["setups"]) == (30 * len(DECKS), 30)
    half = (r["upper"] - r["lower"]) / 2
    assert half > 4 * 1.96 * r["sd"] / math.sqrt(r["n"])  # far wider than naive
    hit = (r["success_upper"] - r["success_lower"]) / 2
    assert hit > 3 * 1.96 * math.sqrt(r["success"] * (1 - r["success"]) / r["n"])


def test_a_clustered_rate_is_wilson_at_its_effective_size():
    """20 setups under 10 decks, a setup's games all hit or all miss: the
    rate 0.5 is known as well as from 19 games (20 setups, less CR1's G/(G-1)
    factor; Wilson [0.295, 0.705]), not 200; a rate of 0 keeps an upper bound
    instead of shrinking to a point."""
    from pu_sim.analysis.clusters import cluster_means

    rows = [(s, 1, "b", float(s % 2)) for s in range(20) for _ in range(10)]
    df = pl.DataFrame(rows, orient="row", schema=["group", "n_players", "bot", "hit"])
    means = cluster_means(df, by=("bot",), value="hit", cluster="group")
    lower, upper = solo_table.rate_interval(means)
    assert (lower[0], upper[0]) == pytest.approx((0.2954, 0.7046), abs=1e-3)
    never = cluster_means(df.with_columns(hit=pl.lit(0.0)), by=("bot",), value="hit",
                          cluster="group")  # fmt: skip
    lower, upper = solo_table.rate_interval(never)
    assert lower[0] == pytest.approx(0.0, abs=1e-12) and 0.0 < upper[0] < 0.03
