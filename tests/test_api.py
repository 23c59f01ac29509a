"""The user-facing contract of simulate(): columns, labels, clear errors."""

from __future__ import annotations

import polars as pl
import pytest

import pu_sim
from pu_sim import bots
from pu_sim.simulation.frames import LEADING_COLUMNS


def test_frame_has_the_promised_columns_and_labels():
    frame = pu_sim.simulate(4, players=2, bots=["greedy", "random"], seed=1)
    assert frame.columns[: len(LEADING_COLUMNS)] == list(LEADING_COLUMNS)
    assert frame.height == 8
    assert frame["corporation"].dtype == pl.Enum
    assert frame["planet"].dtype == pl.Enum
    assert set(frame["corporation"]) == {"Universal Coalition"}
    assert set(frame["planet"]) == {"KSB-4156"}
    assert frame.filter(pl.col("seat") == 0)["bot"].unique().to_list() == ["greedy"]
    assert frame.filter(pl.col("seat") == 1)["bot"].unique().to_list() == ["random"]
    assert frame["won"].dtype == pl.Boolean
    assert frame["status"].dtype == pl.Enum


def test_zero_games_give_an_empty_frame_with_the_schema():
    frame = pu_sim.simulate(0, players=3, seed=1)
    assert frame.height == 0
    assert frame.columns[: len(LEADING_COLUMNS)] == list(LEADING_COLUMNS)


def test_custom_bot_labels_and_weights():
    strong = bots.greedy("tidy", hole=2.0)
    frame = pu_sim.simulate(3, players=2, bots=[strong, "random"], seed=2)
    assert set(frame["bot"].cast(str)) == {"tidy", "random"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            dict(corporations="nope"),
            r"unknown corporation 'nope'; valid corporations: .*cosmos_inc",
        ),
        (dict(planets="mars"), r"unknown planet 'mars'; valid planets: .*ksb_4156"),
        (
            dict(players=2, planets="gaia"),
            r"impossible setup: asymmetric planet\(s\) gaia fixed on several seats",
        ),
        (
            dict(players=3, planets=["gaia", "petra"]),
            r"got 2 entries for 3 players",
        ),
        (dict(players=7), r"players must be an integer 1..6"),
        (dict(players=0), r"players must be an integer 1..6"),
        (dict(players=2, bots=["greedy"] * 3), r"got 3 entries for 2 players"),
        (dict(bots="genius"), r"unknown bot 'genius'"),
        (dict(batch_size=0), r"batch_size must be an integer 1\.\.999999"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        pu_sim.simulate(1, **kwargs)


def test_unknown_greedy_weight_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"valid:.*line_complete"):
        bots.greedy(wings=1.0)


def test_negative_game_count_is_refused():
    with pytest.raises(ValueError, match="non-negative"):
        pu_sim.simulate(-1)


def test_rule_option_values_are_checked():
    from pu_sim.rules import RuleOptions

    with pytest.raises(ValueError, match="interior_shift"):
        RuleOptions(interior_shift=6)


def test_a_name_without_engine_support_is_refused_with_the_playable_ones():
    # every corporation and planet of the data is playable now; the guard stays
    # for data added ahead of its rules
    from pu_sim.simulation.table import _resolve

    with pytest.raises(ValueError, match=r"'b' is not playable yet.*playable: a"):
        _resolve("planet", ["a", "b"], [("a", "A", 0), ("b", "B", 1)], frozenset({"a"}))
