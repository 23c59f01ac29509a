"""Solo mode (rules.md 10.2): fixed rotation, event deck, private objectives,
the target score and the outcome bands."""

from __future__ import annotations

import polars as pl
import pytest

import pu_sim
from pu_sim.rules import RuleOptions
from pu_sim.simulation.frames import solo_target


def test_the_rulebooks_example_target(rules):
    # 8 red (-7), 3 orange (-1), 9 green (+6): 60 - 2 = 58
    assert solo_target(rules.data, green=9, orange=3, red=8) == 58


@pytest.mark.parametrize(
    ("green", "orange", "red", "target"),
    [(20, 0, 0, 72), (0, 20, 0, 56), (0, 0, 20, 49), (7, 7, 6, 59), (2, 2, 16, 49),
     (14, 3, 3, 63), (0, 15, 5, 51)],
)  # fmt: skip
def test_target_table_bands(rules, green, orange, red, target):
    assert solo_target(rules.data, green=green, orange=orange, red=red) == target


def test_solo_games_log_target_margin_band_and_deck(rules):
    mix = (9, 3, 8)
    frame = pu_sim.simulate(60, players=1, bots="greedy", seed=5,
                            options=RuleOptions(event_deck_mix=mix))  # fmt: skip
    assert (frame["solo_target"] == 58).all()
    assert (frame["solo_margin"] == frame["score"] - 58).all()
    assert frame.select(
        pl.col("deck_green", "deck_orange", "deck_red")
    ).unique().rows() == [mix]
    bands = {b.row: (b.min_diff, b.max_diff) for b in rules.data.solo_outcome_bands}
    for margin, band in frame.select("solo_margin", "solo_band").iter_rows():
        low, high = bands[band]
        assert (low is None or margin >= low) and (high is None or margin <= high)
    # 3 kept; solo events 67 (+1) and 110 (-1) may change that later
    kept = frame["private_cards"].list.len()
    assert kept.is_between(2, 4).all() and (kept == 3).mean() > 0.5


def test_solo_without_events_has_no_target():
    frame = pu_sim.simulate(5, players=1, bots="random", seed=1,
                            options=RuleOptions(event_deck=False))  # fmt: skip
    assert frame["solo_target"].is_null().all() and frame["solo_band"].is_null().all()


def test_multiplayer_has_no_solo_columns_filled():
    frame = pu_sim.simulate(5, players=2, bots="random", seed=1,
                            options=RuleOptions(event_deck=True))  # fmt: skip
    assert frame["solo_target"].is_null().all()


def test_bands_cover_every_margin(rules):
    rows = [(b.min_diff, b.max_diff) for b in rules.data.solo_outcome_bands]
    for margin in range(-60, 61):
        assert sum((lo is None or margin >= lo) and (hi is None or margin <= hi)
                   for lo, hi in rows) == 1  # fmt: skip
