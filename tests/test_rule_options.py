"""RuleOptions is the one table of options: valid values, parsing and core flags."""

from __future__ import annotations

import dataclasses
from dataclasses import replace

import pytest

from pu_sim import _core
from pu_sim.engine.flags import option_flags
from pu_sim.rules import RuleOptions
from pu_sim.rules.options import TABLE_OPTIONS, flag_name

CHOICES = RuleOptions.choices()
FLAG_OPTIONS = [name for name in CHOICES if name not in TABLE_OPTIONS]


def test_choices_list_every_option_with_its_default():
    default = RuleOptions()
    assert list(CHOICES) == [f.name for f in dataclasses.fields(RuleOptions)]
    for name, choices in CHOICES.items():
        assert choices.default == getattr(default, name), name
        assert choices.values, name
        if not choices.form:
            assert choices.default in choices.values, name
    assert CHOICES["wormhole_energy_biomass"].values == (
        "if_expanded",
        "never",
        "always",
    )
    assert CHOICES["interior_shift"].values == (None, 0, 1, 2, 3, 4, 5)
    assert CHOICES["event_deck"].values == (False, True, None)
    assert CHOICES["event_deck_mix"].values == ("random", "bga_random")
    assert "20" in CHOICES["event_deck_mix"].form


def test_every_listed_value_is_accepted_and_others_are_refused():
    for name, choices in CHOICES.items():
        for value in choices.values:
            assert getattr(RuleOptions(**{name: value}), name) == value
    with pytest.raises(ValueError, match=r"civ_pick_timing must be one of"):
        RuleOptions(civ_pick_timing="at_once")
    with pytest.raises(ValueError, match=r"event_may_empty_depot must be one of"):
        RuleOptions(event_may_empty_depot="yes")
    with pytest.raises(ValueError, match=r"oasis_row11_medal"):
        RuleOptions(oasis_row11_medal=10)


@pytest.mark.parametrize("name", list(CHOICES))
def test_every_value_parses_from_how_it_is_listed(name):
    for value in CHOICES[name].values:
        assert RuleOptions.parse(name, str(value)) == value
        if isinstance(value, bool) or value is None:
            assert RuleOptions.parse(name, str(value).lower()) == value


def test_free_form_values_parse_as_comma_separated_items():
    assert RuleOptions.parse("event_deck_mix", "9, 3,8") == (9, 3, 8)
    order = "T-4,straight-3,corner-3,L-4,domino,square-4"
    slots = RuleOptions.parse("station_interior_slots", order)
    assert slots == tuple(order.split(","))
    assert RuleOptions(station_interior_slots=slots).station_interior_slots == slots
    with pytest.raises(ValueError, match=r"event_deck_mix takes random \| bga_random"):
        RuleOptions.parse("event_deck_mix", "many")
    with pytest.raises(ValueError, match=r"takes end_of_round \| on_milestone"):
        RuleOptions.parse("civ_pick_timing", "now")
    with pytest.raises(ValueError, match=r"unknown rule option 'civ_timing'"):
        RuleOptions.parse("civ_timing", "now")


def test_every_core_flag_is_one_option_value_by_the_naming_rule():
    """Each RuleFlag member is set by exactly one (option, value); each flag option
    has exactly one value without a flag (the engine's baseline), table options none.
    A flag spelled apart from its option, or an option without its flag, fails here.
    """
    members = _core.RuleFlag.__members__
    reached = []
    for name, choices in CHOICES.items():
        named = [v for v in choices.values if flag_name(name, v) in members]
        reached += [flag_name(name, v) for v in named]
        if name in TABLE_OPTIONS:
            assert named == [], name
        else:
            assert len(named) == len(choices.values) - 1, (name, named)
    assert sorted(reached) == sorted(members)


@pytest.mark.parametrize("name", FLAG_OPTIONS)
def test_each_flag_option_value_sets_its_own_flag(name):
    members = _core.RuleFlag.__members__
    baseline = next(
        v for v in CHOICES[name].values if flag_name(name, v) not in members
    )
    base = RuleOptions(**{name: baseline})
    for value in CHOICES[name].values:
        bits = option_flags(replace(base, **{name: value})) ^ option_flags(base)
        member = members.get(flag_name(name, value))
        assert bits == (int(member) if member is not None else 0), (name, value)


def test_the_table_options_set_no_flag():
    default = RuleOptions()
    changed = replace(
        default,
        interior_shift=2,
        initial_rotation=3,
        event_deck=True,
        event_deck_mix="random",
        neighbour_objectives=False,
        private_objectives=True,
    )
    assert option_flags(changed) == option_flags(default)
