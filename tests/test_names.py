"""Names written once: the core's enums, their naming rule, and the one check of
each Python list that must follow a core order."""

from __future__ import annotations

from enum import IntEnum

import pytest

from pu_sim import _core, bots
from pu_sim.bots.specs import MAX_LOOK_WIDTH, MAX_ROTATION_WIDTH
from pu_sim.game import TRIGGERED_OPTION_TEXT
from pu_sim.rules.gamedata import PLANET_RESTRICTIONS
from pu_sim.simulation.frames import code_labels

ENUMS = [
    value
    for value in vars(_core).values()
    if isinstance(value, type) and issubclass(value, IntEnum)
]


def constants(prefix: str) -> list[str]:
    """An anonymous cpdef enum's members (plain ints on the core), in code order."""
    names = [
        n for n, v in vars(_core).items() if n.startswith(prefix) and type(v) is int
    ]
    return sorted(names, key=lambda n: getattr(_core, n))


def test_the_core_exports_its_named_enums():
    names = {e.__name__ for e in ENUMS}
    assert {"Decision", "Item", "Stage", "Status", "EndTrigger", "CardOp", "CardWhen",
            "EventOp", "RoundRule", "ObjectiveMeasure", "ObjectiveCondition",
            "RuleFlag", "DeckMode", "BotKind", "TechLimit", "PlanetFlag",
            "TriggeredOption"} <= names  # fmt: skip


@pytest.mark.parametrize("enum", ENUMS, ids=lambda e: e.__name__)
def test_every_enum_follows_the_naming_rule(enum):
    """One prefix word per enum, labels unique, code() and label() inverse."""
    members = list(enum.__members__.items())
    prefix = members[0][0].split("_")[0]
    assert len({int(m) for _, m in members}) == len(members)  # no aliases
    for name, member in members:
        assert name.startswith(prefix + "_"), name
        assert _core.label(member) == name[len(prefix) + 1 :].lower()
        assert _core.code(enum, _core.label(member)) is member
    assert _core.labels(enum) == {int(m): _core.label(m) for _, m in members}


def test_code_refuses_unknown_and_miscased_labels_naming_the_valid_ones():
    assert _core.code(_core.CardOp, "advance_distinct_trackers") == (
        _core.CardOp.OP_ADVANCE_DISTINCT_TRACKERS
    )
    with pytest.raises(
        ValueError, match=r"CardOp has no member labelled 'fly'.*'none'"
    ):
        _core.code(_core.CardOp, "fly")
    with pytest.raises(ValueError, match="labelled 'Score_Medals'"):
        _core.code(_core.CardOp, "Score_Medals")
    assert _core.label(_core.Decision(200)) is None  # a code no member has


def test_result_labels_stay_what_stored_runs_hold():
    """Run folders store these labels: renaming a Status or EndTrigger member
    would change them, so the contract is written out here."""
    assert code_labels("Status") == (
        "ok", "turn_limit", "decision_limit", "pool_overflow", "bad_move",
        "no_legal_move", "bad_setup",
    )  # fmt: skip
    assert code_labels("EndTrigger") == (
        "none",
        "cannot_place",
        "depot_empty",
        "events",
    )


def test_bot_parameter_names_and_slots_follow_the_core():
    """pu_sim.bots keeps greedy's weights (with their defaults), the search
    settings and the bot kinds in the core's orders; this is the one check."""
    greedy = constants("G_")
    assert [f"G_{name.upper()}" for name in bots.GREEDY_WEIGHTS] == greedy
    assert [getattr(_core, n) for n in greedy] == list(range(len(greedy)))
    assert len(greedy) == _core.CONSTANTS["N_GREEDY"]
    assert {f"S_{k.upper()}": slot for k, (slot, _) in bots.SEARCH_PARAMS.items()} == {
        n: getattr(_core, n) for n in constants("S_")
    }
    assert list(bots.BOT_KINDS) == list(_core.labels(_core.BotKind).values())
    assert list(_core.labels(_core.BotKind)) == list(range(len(bots.BOT_KINDS)))
    assert _core.CONSTANTS["MAX_BOT_PARAMS"] == bots.MAX_BOT_PARAMS
    assert _core.CONSTANTS["NEXT_FIT_K"] == MAX_LOOK_WIDTH
    assert _core.CONSTANTS["STATION_ORIENTATIONS"] == MAX_ROTATION_WIDTH


def test_planet_restrictions_and_triggered_options_have_their_core_members():
    for name in PLANET_RESTRICTIONS:
        _core.code(_core.PlanetFlag, name)
    assert set(TRIGGERED_OPTION_TEXT) == set(
        _core.labels(_core.TriggeredOption).values()
    )
