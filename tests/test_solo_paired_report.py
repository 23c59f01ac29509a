"""The paired solo calibration section on synthetic boards with a known truth."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from pu_sim.analysis.calibration import TargetTable
from pu_sim.report.page import Page
from pu_sim.report.sections import solo_paired

PUBLISHED = TargetTable.published()
DECKS = [(7, 7, 6)] + [
    (g, 20 - g - r, r) for g in range(0, 21, 2) for r in range(0, 21 - g, 3)
]


def paired_runs(red_scale: float, level: dict[str, float], n_setups: int = 40,
                seed: int = 0) -> pl.DataFrame:  # fmt: skip
    """Each bot plays the same setups (game_id) under every deck; scores move
    with the published table except red, scaled by ``red_scale``."""
    rng = np.random.default_rng(seed)
    luck = rng.normal(0, 4, n_setups)
    corps = np.array(["Alpha", "Beta"])[np.arange(n_setups) % 2]
    rows = []
    for bot, base in level.items():
        for g, o, r in DECKS:
            red = PUBLISHED.target(0, 0, r) - PUBLISHED.target(0, 0, 0)
            shape = PUBLISHED.target(g, o, 0) + red_scale * red
            for s in range(n_setups):
                score = base + shape - 60 + luck[s] + rng.normal(0, 2)
                rows.append((s, 0, 1, bot, corps[s], "North", g, o, r, round(score)))
    return pl.DataFrame(
        rows, orient="row",
        schema=["game_id", "seat", "n_players", "bot", "corporation", "planet",
                "deck_green", "deck_orange", "deck_red", "score"],
    ).with_columns(pl.col("bot").cast(pl.Enum(list(level))))  # fmt: skip


def test_the_paired_design_is_recognised():
    games = paired_runs(1.0, {"strong": 60.0})
    assert solo_paired.is_paired_deck_design(games)
    unpaired = games.with_columns(game_id=pl.int_range(pl.len()))
    assert not solo_paired.is_paired_deck_design(unpaired)
    few = games.filter(pl.col("deck_green") == 7)  # one deck (7/7/6)
    assert not solo_paired.is_paired_deck_design(few)
    # a few paired fixed decks beside a larger run of random decks
    mixed = pl.concat([games.filter(pl.col("game_id") < 4), unpaired.with_columns(
        game_id=pl.col("game_id") + 1000)])  # fmt: skip
    assert not solo_paired.is_paired_deck_design(mixed)


def test_the_table_is_fitted_at_the_bot_nearest_the_target():
    games = paired_runs(1.0, {"weak": 45.0, "strong": 60.0, "search": 66.0})
    anchor = solo_paired.strength_anchor(games)
    assert anchor["bot"][0] == "strong"
    assert anchor["median_margin"][0] == pytest.approx(0.0, abs=1.5)


@pytest.mark.parametrize("order", ["as_dealt", "reversed"])
def test_a_tie_in_median_margin_goes_to_the_success_rate_nearest_half(order):
    """Two bots 2 points either side of the target tie on the median margin;
    the one reaching the target nearer half the time is the anchor, whatever
    the rows' order (the report once chose by row order)."""
    target = PUBLISHED.target(7, 7, 6)
    rows = []
    for bot, margins in {"over": [-3, 2, 2, 3, 3], "under": [-3, -2, -2, 3, 3]}.items():
        rows += [(bot, round(target) + m) for m in margins]  # success 80% and 40%
    frame = pl.DataFrame(rows, orient="row", schema=["bot", "score"]).with_columns(
        deck_green=pl.lit(7), deck_orange=pl.lit(7), deck_red=pl.lit(6)
    )
    if order == "reversed":
        frame = frame.reverse()
    anchor = solo_paired.strength_anchor(frame)
    assert anchor["median_margin"].abs().to_list() == [2.0, 2.0]
    assert anchor["success"].to_list() == [0.4, 0.8]
    assert anchor["bot"].to_list() == ["under", "over"]


@pytest.mark.parametrize(
    ("red_scale", "robust"), [(1.0, False), (0.4, True)], ids=["fair", "red-half"]
)
def test_only_a_fault_every_bot_sees_is_called_robust(tmp_path, red_scale, robust):
    games = paired_runs(red_scale, {"strong": 60.0, "weak": 45.0})
    page = Page(tmp_path)
    solo_paired.paired_calibration_section(page, games)
    text = "\n".join(page.headlines + page.sections)
    skill = [h for h in page.headlines if "across skill levels" in h]
    assert len(skill) == 1
    if robust:
        assert "both strongest bots (strong and weak" in skill[0]
        assert "red" in skill[0] and "Bot-dependent" not in skill[0]
    else:
        assert "No entry of the published table is off" in skill[0]
    assert "strong" in page.headlines[0]
    assert "judged on the other 20" in page.headlines[0]
    assert "Which strength the target table is for" in text
    assert (tmp_path / "tables" / "solo_fairness_held_out_strong.csv").is_file()
    assert (tmp_path / "figures" / "solo_score_vs_target_strong.png").is_file()
    assert (tmp_path / "tables" / "solo_board_offsets_corporation_strong.csv").is_file()


@pytest.mark.parametrize("red_scale", [1.0, 0.4], ids=["fair", "red-half"])
def test_a_table_the_scores_follow_is_called_even(tmp_path, red_scale):
    """The synthetic scores follow the published table (up to red_scale); with
    60 held-out setups the spread beyond noise (clustered by setup, an estimate
    of its own) tells the fair table from the one with half the red steps."""
    games = paired_runs(red_scale, {"strong": 60.0}, n_setups=120)
    page = Page(tmp_path)
    solo_paired.paired_calibration_section(page, games)
    (fair,) = [h for h in page.headlines if h.startswith("**Solo target (strong")]
    assert ("is even over" in fair) == (red_scale == 1.0)
    assert "judged on the other 60" in fair


def skill_headline(tmp_path, **scaled: tuple[float, float]) -> str:
    """The skill headline of bots named to (mean level, red scale)."""
    games = pl.concat(
        [paired_runs(red, {bot: level}).with_columns(pl.col("bot").cast(pl.String))
         for bot, (level, red) in scaled.items()]
    )  # fmt: skip
    page = Page(tmp_path)
    solo_paired.paired_calibration_section(page, games)
    (skill,) = [h for h in page.headlines if "across skill levels" in h]
    return skill


def test_a_fault_only_one_strong_bot_sees_is_bot_dependent(tmp_path):
    """Robust needs the two strongest bots (by their mean score) to agree; a
    fault one of them sees alone is labelled bot-dependent, whatever the
    weaker bot sees."""
    skill = skill_headline(
        tmp_path, strong=(60.0, 0.4), stronger=(70.0, 1.0), weak=(45.0, 0.4)
    )
    assert "No entry of the published table is off" in skill
    assert "(stronger and strong)" in skill
    dependent = skill.split("Bot-dependent")[1]
    assert "red" in dependent and "strong above only" in dependent


def test_strong_bots_off_on_opposite_sides_are_bot_dependent(tmp_path):
    skill = skill_headline(tmp_path, strong=(60.0, 0.4), stronger=(70.0, 1.6))
    dependent = skill.split("Bot-dependent")[1]
    assert "stronger below, strong above: opposite" in dependent
    assert "Off the published table" not in skill


def test_a_fault_both_strong_bots_see_is_robust_and_says_what_the_weak_one_sees(
    tmp_path,
):
    skill = skill_headline(
        tmp_path, strong=(60.0, 0.4), stronger=(63.0, 0.4), weak=(45.0, 1.0)
    )
    robust = skill.split("Off the published table")[1].split("Bot-dependent")[0]
    assert "red" in robust and "above; not weak" in robust


def test_runs_with_the_same_folder_name_stay_apart(tmp_path):
    from synthetic_games import solo_frame, write_run

    from pu_sim.report.runs import load_runs

    frame = solo_frame(20, lambda g, o, r: 50.0 + 0 * g)
    a = write_run(tmp_path / "a" / "deck-7-7-6", frame)
    b = write_run(tmp_path / "b" / "deck-7-7-6", frame)
    games = load_runs([a, b])
    assert games["run"].n_unique() == 2
    assert games.select(pl.struct("run", "game_id").n_unique()).item() == 40


def test_a_bot_on_a_small_subsample_is_compared_on_its_own_decks(tmp_path):
    """The search bot, nearest the target, played 6 decks on 12 setups: the table
    is fitted at the nearest bot that played every deck, the text says why,
    and every bot's per-card effects are measured on the search bot's decks and
    setups (the report crashed on this design)."""
    games = paired_runs(1.0, {"strong": 56.0, "weak": 45.0})
    sub = [(7, 7, 6), (14, 3, 3), (2, 15, 3), (2, 3, 15), (10, 1, 9), (0, 11, 9)]
    search = paired_runs(1.0, {"search": 60.0}, seed=3).filter(
        pl.struct("deck_green", "deck_orange", "deck_red").is_in(
            pl.DataFrame(sub, orient="row",
                         schema=["deck_green", "deck_orange", "deck_red"]
                         ).to_struct().implode())
        & (pl.col("game_id") < 12)
    )  # fmt: skip
    both = pl.concat([games.with_columns(pl.col("bot").cast(pl.String)),
                      search.with_columns(pl.col("bot").cast(pl.String))])  # fmt: skip
    assert search.select(pl.struct("deck_green", "deck_orange", "deck_red")
                         .n_unique()).item() == 6  # fmt: skip
    assert solo_paired.is_paired_subsample(search)
    assert not solo_paired.is_paired_deck_design(search)
    page = Page(tmp_path)
    solo_paired.paired_calibration_section(page, both)
    text = "\n".join(page.sections)
    assert solo_paired.strength_anchor(both)["bot"][0] == "search"
    assert "success rate at **strong**" in text and "**search** is nearer" in text
    assert "strong" in page.headlines[0]
    effects = pl.read_csv(
        tmp_path / "tables" / "solo_colour_effects_subsample_search.csv"
    )
    assert set(effects["bot"]) == {"search", "strong", "weak"}
    assert (effects.filter(pl.col("bot") == "strong")["games"] == 6 * 12).all()
    red = effects.filter(pl.col("term") == "red")
    truth = (PUBLISHED.target(0, 0, 15) - PUBLISHED.target(0, 0, 3)) / 12
    assert red["estimate"].mean() == pytest.approx(truth, abs=0.25)
