"""Tech levels over their whole range (rules.md 8.8, corporations.md 2.9).

* The level at every space of every corporation's tech track: the number of
  tech milestones at or below the tracker (from the data, whose milestones the
  reference puts at 3, 5, 7, 10 and 14); Flux keeps only its newest tech
  usable, Jump Drive's track unlocks nothing, Makeshift's highest tracker on the
  tech column sets the level whatever its colour.
* Every effect at its milestone and one space below it: Universal Coalition's
  five techs, every activated tech (once a round or once a game) of the
  asymmetric corporations, offered as a power only from its milestone on, and
  their passive techs that a scenario shows in one decision (a rover's step, a
  pending item, a legal square, the round-start movement).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pu_sim.rules import load_game_data
from pu_sim.rules.gamedata import TRACKS
from pu_sim.testing import (
    ScenarioGame,
    find_placement,
    marked_drawing,
    place_move,
    square_move,
    step_move,
    tile_id,
)

DATA = load_game_data()
CORPORATIONS = {c.key: c for c in DATA.corporations}
TECH = TRACKS.index("tech")
POWER = 512  # MV_POWER: an activated tech's move is POWER + its level
STORE = 255  # MV_STORE: keep a patch for the end
DONE = 0xFFFF


def milestones(key: str) -> dict[int, int]:
    """Tech level -> the tech-track space of its milestone, from the data."""
    spaces = CORPORATIONS[key].tracks["tech"].spaces
    return {s.tech_level: i for i, s in enumerate(spaces) if s.tech_level}


def game_of(key: str, covered=None, tech: int = 0) -> ScenarioGame:
    game = ScenarioGame(players=1, corporations=key, bots="random", seed=0)
    game.set_planet(0, marked_drawing(game.planet_of(0), covered or {(5, 5): "c"}))
    game.set_tracks(0, {"tech": tech})
    return game


def test_the_standard_milestones_are_the_references():
    for key in CORPORATIONS:
        if key != "jump_drive":
            assert milestones(key) == {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}, key
    assert milestones("jump_drive") == {}


@pytest.mark.parametrize("key", sorted(set(CORPORATIONS) - {"makeshift"}))
def test_tech_level_at_every_space_of_the_tech_track(key):
    at = milestones(key)
    game = game_of(key)
    for pos in range(16):
        game.set_tracks(0, {"tech": pos})
        level = sum(1 for m in at.values() if m <= pos)
        assert game.player(0)["tech_level"] == level, pos
        usable = [lv for lv in range(1, 6) if game.state.has_tech(0, lv)]
        if key == "flux_industries":  # only the most recently unlocked tech
            assert usable == ([level] if level else []), pos
        else:
            assert usable == list(range(1, level + 1)), pos


@given(
    rows=st.lists(st.integers(0, 15), min_size=5, max_size=5),
    cols=st.lists(st.integers(0, 4), min_size=5, max_size=5),
)
def test_makeshift_the_highest_tracker_on_the_tech_column_sets_the_level(rows, cols):
    at = milestones("makeshift")
    game = game_of("makeshift")
    game.set_tracks(0, dict(zip(TRACKS, rows, strict=True)))
    for t, col in enumerate(cols):
        game.state.set_column(0, t, col)
    on_tech = [row for row, col in zip(rows, cols, strict=True) if col == TECH]
    top = max(on_tech, default=-1)
    assert game.player(0)["tech_level"] == sum(1 for m in at.values() if m <= top)


# ---- Universal Coalition: every tech at its milestone and one space below ----------

UC = "universal_coalition"
AT = milestones(UC)


def uc_at(level: int, below: bool, covered=None) -> ScenarioGame:
    return game_of(UC, covered, AT[level] - 1 if below else AT[level])


@pytest.mark.parametrize("below", [False, True])
def test_uc_tech_1_a_tile_need_not_touch_the_others(below):
    game = uc_at(1, below, {(10, 5): "c"})
    tile = tile_id(game.rules, "domino", "civ", "energy")
    far = find_placement(game.rules, tile, [(3, 3), (4, 3)])
    assert (far in game.state.placements(0, tile)) is not below


@pytest.mark.parametrize("below", [False, True])
def test_uc_tech_2_a_patch_may_be_stored(below):
    game = uc_at(2, below)
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch"
    assert (STORE in game.legal_moves()) is not below


@pytest.mark.parametrize("below", [False, True])
def test_uc_tech_3_one_more_movement_from_the_rover_track(below):
    game = uc_at(3, below)
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.set_tracks(0, {"rover": 3})  # space 4 gives move 2
    game.give(0, ("advance", TRACKS.index("rover"), 1, 0))
    assert game.player(0)["move_budget"] == (2 if below else 3)


@pytest.mark.parametrize("below", [False, True])
def test_uc_tech_4_water_on_ice_advances_twice(below):
    game = uc_at(4, below, {(3, 2): "c"})
    tile = tile_id(game.rules, "domino", "water", "rover")
    o, x, y = find_placement(game.rules, tile, [(4, 2), (5, 2)], part_a=[(4, 2)])
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    while game.decision in ("order", "rover_place", "rover_step"):
        moves = game.legal_moves()
        game.apply(DONE if DONE in moves else moves[0])
    assert game.tracks(0)["water"] == (1 if below else 2)


@pytest.mark.parametrize("below", [False, True])
def test_uc_tech_5_no_meteorite_from_a_tile(below):
    game = uc_at(5, below)
    tile = tile_id(game.rules, "domino", "civ", "energy", meteor=True)
    o, x, y = find_placement(game.rules, tile, [(6, 5), (7, 5)])
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    meteorites = sum(bin(r).count("1") for r in game.player(0)["meteorite"])
    assert meteorites == (1 if below else 0)


# ---- every activated tech: a power from its milestone on, not one space below ------

ACTIVATED = [
    (c.key, t.level)
    for c in DATA.corporations
    for t in c.techs
    if t.limit in ("once_per_round", "once_per_game")
    and milestones(c.key)
    # Wormhole tech 3 is triggered by a patch gain, not used at will
    and not (c.key == "wormhole_corp" and t.level == 3)
]


def test_the_activated_techs_are_the_references():
    assert ACTIVATED == [("cosmos_inc", 2), ("cosmos_inc", 5), ("flux_industries", 2),
                         ("flux_industries", 5), ("horizon_group", 5),
                         ("makeshift", 4)]  # fmt: skip


def with_something_to_use(key: str, tech: int) -> ScenarioGame:
    """A player resolving two advances, with what each power needs to be usable."""
    game = game_of(key, tech=tech)
    game.set_rovers(0, [(5, 5)], in_supply=0)
    game.state.set_player_int(0, "lifepods_collected", 2)  # Cosmos moves lifepods
    if key == "flux_industries":
        game.state.set_player_int(0, "flux_track", TRACKS.index("biomass"))
    game.give(0, ("advance", 0, 1, 0), ("advance", 1, 1, 0))
    return game


@pytest.mark.parametrize(("key", "level"), ACTIVATED)
@pytest.mark.parametrize("below", [False, True])
def test_an_activated_tech_is_offered_from_its_milestone_on(key, level, below):
    pos = milestones(key)[level] - (1 if below else 0)
    game = with_something_to_use(key, pos)
    assert game.decision == "order"
    assert (POWER + level in game.legal_moves()) is not below


# ---- the asymmetric corporations' passive techs, at the milestone and one below ----


def placed(game: ScenarioGame, tile: int, cells) -> ScenarioGame:
    o, x, y = find_placement(game.rules, tile, cells)
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    return game


def tile(game: ScenarioGame, a: str, b: str, meteor: bool = False) -> int:
    return tile_id(game.rules, "domino", a, b, meteor)


def cosmos_1(tech: int) -> bool:
    game = game_of("cosmos_inc", tech=tech)
    game.set_rovers(0, [(5, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    return step_move(0, 6, 6) in game.legal_moves()  # a diagonal step


def cosmos_3(tech: int) -> bool:
    game = game_of("cosmos_inc", tech=tech)
    game.state.set_player_int(0, "lifepods_collected", 1)
    placed(game, tile(game, "civ", "energy"), [(6, 5), (7, 5)])
    return ("pod_move", 1, 0, 0) in game.player(0)["items"]


def cosmos_4(tech: int) -> bool:
    game = game_of("cosmos_inc", {(5, 5): "c", (6, 5): "e", (7, 5): "c"}, tech)
    game.set_rovers(0, [(5, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    game.apply(step_move(0, 6, 5))  # onto energy terrain
    return game.player(0)["move_budget"] == 1


def horizon_1(tech: int) -> bool:
    game = game_of("horizon_group", tech=tech)
    rover_tile = tile(game, "water", "rover")
    far = find_placement(game.rules, rover_tile, [(8, 3), (8, 4)])
    return far in game.state.placements(0, rover_tile)


def round_start_movement(key: str, covered, tech: int, meteorites=()) -> bool:
    game = game_of(key, covered, tech)
    game.set_planet(
        0, marked_drawing(game.planet_of(0), covered), meteorites=meteorites
    )
    game.set_rovers(0, [(3, 5)], in_supply=1)
    game.start_stage("check")  # the tile phase begins: round-start techs
    return game.player(0)["round_move"] > 0


def horizon_2(tech: int) -> bool:  # a rover carrying a meteorite
    return round_start_movement("horizon_group", {(3, 5): "c", (4, 5): "c"}, tech,
                                meteorites=[(3, 5)])  # fmt: skip


def oasis_2(tech: int) -> bool:  # a rover on water terrain
    return round_start_movement("oasis_ultd", {(3, 5): "w", (4, 5): "c"}, tech)


def oasis_water_tile(tech: int) -> list:
    game = game_of("oasis_ultd", tech=tech)
    return placed(game, tile(game, "energy", "water"), [(6, 5), (7, 5)]).player(0)[
        "items"
    ]


def oasis_4(tech: int) -> bool:
    return ("patch", 0, 0, 0) in oasis_water_tile(tech)


def oasis_5(tech: int) -> bool:
    return ("synergy", 0, 0, 0) in oasis_water_tile(tech)


def republic_4(tech: int) -> bool:
    game = game_of("republic", tech=tech)
    game.set_tracks(0, {"civ": 1, "water": 3})
    game.give(0, ("advance", TRACKS.index("civ"), 1, 0))  # onto a civ milestone
    return ("synergy", 0, 0, 0) in game.player(0)["items"]


def wormhole_patch(tech: int, meteorites=()) -> ScenarioGame:
    game = game_of("wormhole_corp", {(5, 5): "c", (6, 5): "c"}, tech)
    game.set_planet(0, marked_drawing(game.planet_of(0), {(5, 5): "c", (6, 5): "c"}),
                    meteorites=meteorites)  # fmt: skip
    game.give(0, ("patch", 0, 0, 0))
    if tech >= milestones("wormhole_corp")[3]:
        assert game.decision == "yes_no"  # tech 3: two patches instead of one?
        game.apply(0)
    assert game.decision == "patch"
    return game


def wormhole_2(tech: int) -> bool:  # a patch onto a tile square
    return square_move(5, 5) in wormhole_patch(tech).legal_moves()


def wormhole_4(tech: int) -> bool:
    return STORE in wormhole_patch(tech).legal_moves()


def wormhole_5(tech: int) -> bool:  # a patch onto a meteorite
    return square_move(6, 5) in wormhole_patch(tech, [(6, 5)]).legal_moves()


def flux_3(tech: int) -> bool:  # civ as the flux track: milestones give rank + 1
    game = game_of("flux_industries", tech=tech)
    game.state.set_player_int(0, "flux_track", TRACKS.index("civ"))
    game.set_tracks(0, {"civ": 2})
    game.give(0, ("advance", TRACKS.index("civ"), 1, 0))  # the rank-1 milestone
    return game.player(0)["owed"] == [2]


def flux_4(tech: int) -> bool:  # a tile showing the flux resource collects one
    game = game_of("flux_industries", {(5, 5): "c", (2, 5): "t"}, tech)
    game.set_planet(0, marked_drawing(game.planet_of(0), {(5, 5): "c", (2, 5): "t"}),
                    meteorites=[(2, 5)])  # fmt: skip
    game.state.set_player_int(0, "flux_track", TRACKS.index("civ"))
    placed(game, tile(game, "civ", "energy"), [(6, 5), (7, 5)])
    while game.decision == "order":
        game.apply(game.legal_moves()[0])
    return game.player(0)["meteorites_collected"] == 1


PASSIVE = {
    ("cosmos_inc", 1): cosmos_1,
    ("cosmos_inc", 3): cosmos_3,
    ("cosmos_inc", 4): cosmos_4,
    ("horizon_group", 1): horizon_1,
    ("horizon_group", 2): horizon_2,
    ("oasis_ultd", 2): oasis_2,
    ("oasis_ultd", 4): oasis_4,
    ("oasis_ultd", 5): oasis_5,
    ("republic", 4): republic_4,
    ("wormhole_corp", 2): wormhole_2,
    ("wormhole_corp", 4): wormhole_4,
    ("wormhole_corp", 5): wormhole_5,
    ("flux_industries", 3): flux_3,
    ("flux_industries", 4): flux_4,
}


@pytest.mark.parametrize(("key", "level"), sorted(PASSIVE))
@pytest.mark.parametrize("below", [False, True])
def test_a_passive_tech_works_from_its_milestone_on(key, level, below):
    pos = milestones(key)[level] - (1 if below else 0)
    assert PASSIVE[key, level](pos) is not below
