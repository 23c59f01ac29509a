"""Resolving a placed tile (rules.md section 8): resources, water, energy,
resolution order, trackers, synergy, tech levels, meteorites, unplaced tiles.

Each test draws a planet, puts chosen tiles in the depot, plays the decision
and checks trackers, pending choices and tokens.
"""

from __future__ import annotations

import pytest

from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    marked_drawing,
    place_move,
    tile_id,
)

TRACKS = ("civ", "water", "biomass", "rover", "tech")


def drawn(
    rules, covered: dict[tuple[int, int], str] | None = None, **kw
) -> ScenarioGame:
    """A solo game whose planet holds exactly `covered` (square -> terrain letter)."""
    game = ScenarioGame(players=1, bots="random", seed=0, **kw)
    game.set_planet(0, marked_drawing(rules.data.planets[0], covered))
    return game


def place(
    game: ScenarioGame, rules, tile: int, cells, part_a=None, slot: int = 0
) -> None:
    """Draft `tile` from the given depot slot onto exactly `cells`."""
    o, x, y = find_placement(rules, tile, cells, part_a)
    other = None
    if slot == 0:
        game.set_depot(0, tile, other)
    else:
        game.set_depot(0, other, tile)
    game.start_draft(0)
    assert game.decision == "place"
    game.apply(place_move(slot, o, x, y))


def resolve_all(game: ScenarioGame, prefer=()) -> None:
    """Answer pending decisions of this turn: preferred tracks first, rovers stop."""
    while game.decision in ("order", "energy", "synergy", "track", "rover_step"):
        moves = game.legal_moves()
        if game.decision in ("energy", "synergy", "track"):
            pick = next(
                (TRACKS.index(t) for t in prefer if TRACKS.index(t) in moves), moves[0]
            )
            game.apply(pick)
        elif game.decision == "rover_step":
            game.apply(0xFFFF)
        else:
            game.apply(moves[0])


# ---- RS-1: each resource icon gives one resolution --------------------------------


def test_a_tile_advances_each_of_its_two_resources_once(rules):
    game = drawn(rules, {(5, 5): "c"})
    tile = tile_id(
        rules, "straight-4", "tech", "biomass"
    )  # 4 squares, still one step each
    place(game, rules, tile, [(6, 5), (7, 5), (8, 5), (9, 5)], slot=1)
    resolve_all(game)
    assert game.tracks(0) == {"civ": 0, "water": 0, "biomass": 1, "rover": 0, "tech": 1}


# ---- 8.4 water -----------------------------------------------------------------------


def test_water_advances_only_when_a_water_square_covers_ice(rules):
    tile = tile_id(rules, "domino", "water", "rover")
    # KSB ice at (4, 2) and (5, 2); land at (6, 2)
    on_ice = drawn(rules, {(3, 2): "c"})
    place(on_ice, rules, tile, [(4, 2), (5, 2)], part_a=[(4, 2)])
    resolve_all(on_ice)
    assert on_ice.tracks(0)["water"] == 1
    rover_on_ice = drawn(
        rules, {(4, 2): "c"}
    )  # the rover part is on ice, water on land
    place(rover_on_ice, rules, tile, [(5, 2), (6, 2)], part_a=[(6, 2)])
    resolve_all(rover_on_ice)
    assert rover_on_ice.tracks(0)["water"] == 0
    assert rover_on_ice.tracks(0)["rover"] == 1


def test_several_water_squares_on_ice_still_advance_once(rules):
    # rules.md 14.18: only Oasis counts squares
    tile = tile_id(rules, "straight-3", "water", "rover")
    game = drawn(rules, {(3, 9): "c"})
    planet = game.planet_of(0)
    assert all(planet.grid[y][x] == "I" for x, y in [(3, 8), (4, 8)])
    o, x, y = find_placement(
        rules, tile, [(3, 8), (4, 8), (5, 8)], part_a=[(3, 8), (4, 8)]
    )
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    resolve_all(game)
    assert game.tracks(0)["water"] == 1


def test_tech_level_4_doubles_tile_water_on_ice_only(rules):
    tile = tile_id(rules, "domino", "water", "rover")
    game = drawn(rules, {(3, 2): "c"})
    game.set_tracks(0, {"tech": 10})  # UC tech L4
    place(game, rules, tile, [(4, 2), (5, 2)], part_a=[(4, 2)])
    resolve_all(game)
    assert game.tracks(0)["water"] == 2
    # energy choosing water is not doubled (rules.md 14.5) and needs no ice (WA-3)
    energy = tile_id(rules, "domino", "energy", "water")
    game = drawn(rules, {(7, 5): "c"})
    game.set_tracks(0, {"tech": 10})
    place(game, rules, energy, [(8, 5), (9, 5)], part_a=[(8, 5)])  # water on land
    resolve_all(game, prefer=("water",))
    assert game.tracks(0)["water"] == 1


def test_tech_unlocked_first_in_the_same_turn_doubles_water(rules):
    # RS-2: the player orders the tile's resources; tech first unlocks L4 for the water
    tile = tile_id(rules, "domino", "water", "rover")
    game = drawn(rules, {(3, 2): "c"})
    game.set_tracks(0, {"tech": 9})
    game.give(0, ("advance", 4, 1, 0))  # a pending tech advance, e.g. from energy
    assert game.tracks(0)["tech"] == 10
    place(game, rules, tile, [(4, 2), (5, 2)], part_a=[(4, 2)])
    resolve_all(game)
    assert game.tracks(0)["water"] == 2


# ---- 8.5 energy ----------------------------------------------------------------------


def test_energy_defaults_to_the_tiles_other_terrain(rules):
    # rulebook example 1: an energy area touching nothing else
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, {(0, 5): "b"})  # biomass touches the civ square only
    o, x, y = find_placement(rules, tile, [(1, 5), (2, 5)], part_a=[(1, 5)])
    assert game.state.energy_candidates(0, tile, o, x, y) == [0]  # civ only
    place(game, rules, tile, [(1, 5), (2, 5)], part_a=[(1, 5)])
    resolve_all(game)
    assert game.tracks(0)["civ"] == 2  # the civ icon and the energy icon


def test_energy_area_extends_through_earlier_energy_tiles(rules):
    # EN-1/EN-2: the area crosses tiles; a terrain touching it anywhere is a candidate
    covered = {(3, 5): "e", (4, 5): "e", (3, 4): "t", (2, 5): "w"}
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, covered)
    o, x, y = find_placement(rules, tile, [(5, 5), (6, 5)], part_a=[(6, 5)])
    assert game.state.energy_candidates(0, tile, o, x, y) == [
        0,
        1,
        4,
    ]  # civ, water, tech


@pytest.mark.parametrize(("touching", "energy", "civ"), [
    ((5, 0), (5, 1), (6, 1)),     # the top row
    ((0, 5), (1, 5), (1, 6)),     # the left column
    ((11, 5), (10, 5), (10, 6)),  # the right column
    ((5, 11), (5, 10), (6, 10)),  # the bottom row
])  # fmt: skip
def test_a_terrain_on_the_planets_edge_touching_the_energy_area_is_a_candidate(
    rules, touching, energy, civ
):
    # EN-1/EN-2 over the whole grid: the edge rows and columns are searched too
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, {touching: "w"})
    o, x, y = find_placement(rules, tile, [energy, civ], part_a=[civ])
    assert game.state.energy_candidates(0, tile, o, x, y) == [0, 1]  # civ, water


def test_a_terrain_touching_the_tile_but_not_the_energy_area_is_no_candidate(rules):
    # EN-3, the rulebook's example: a rover part next to the tile's civ part only
    covered = {(4, 4): "r", (4, 6): "b"}
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, covered)
    o, x, y = find_placement(rules, tile, [(4, 5), (5, 5)], part_a=[(4, 5)])
    cands = game.state.energy_candidates(0, tile, o, x, y)
    assert cands == [0]  # rover and biomass touch the civ square, not the energy one


def test_patches_count_as_biomass_terrain_for_energy(rules):
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, {(6, 4): "p", (4, 5): "c"})
    o, x, y = find_placement(rules, tile, [(5, 5), (6, 5)], part_a=[(5, 5)])
    assert game.state.energy_candidates(0, tile, o, x, y) == [0, 2]


def test_topped_trackers_are_no_energy_candidates_and_none_means_nothing(rules):
    # EN-5, rules.md 14.6
    covered = {(3, 5): "e", (3, 4): "t"}
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, covered)
    game.set_tracks(0, {"tech": 15, "civ": 15})
    o, x, y = find_placement(rules, tile, [(4, 5), (5, 5)], part_a=[(5, 5)])
    assert game.state.energy_candidates(0, tile, o, x, y) == []
    place(game, rules, tile, [(4, 5), (5, 5)], part_a=[(5, 5)])
    assert game.decision != "energy"
    assert game.tracks(0) == {
        "civ": 15,
        "water": 0,
        "biomass": 0,
        "rover": 0,
        "tech": 15,
    }


def test_energy_with_several_candidates_is_the_players_choice(rules):
    covered = {(3, 5): "e", (3, 4): "t", (2, 5): "w"}
    tile = tile_id(rules, "domino", "civ", "energy")
    game = drawn(rules, covered)
    place(game, rules, tile, [(4, 5), (5, 5)], part_a=[(5, 5)])
    while game.decision == "order":
        game.apply(game.legal_moves()[-1])
    assert game.decision == "energy"
    assert sorted(game.legal_moves()) == [0, 1, 4]
    game.apply(1)
    resolve_all(game)
    assert game.tracks(0)["water"] == 1 and game.tracks(0)["civ"] == 1


# ---- 8.3 trackers --------------------------------------------------------------------


def test_benefits_on_the_space_entered_are_claimed(rules):
    # TR-1: biomass 2 is a synergy, 3 a patch; civ 3 is a rank-1 civ milestone
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"biomass": 1})
    game.give(0, ("advance", 2, 1, 0))
    assert game.decision == "synergy"
    assert sorted(game.legal_moves()) == [0, 1, 2, 3, 4]
    game.apply(2)  # the synergy moves biomass onto its patch milestone
    assert game.decision == "patch"


def test_synergy_offers_only_trackers_that_can_move(rules):
    # TR-4, rules.md 14.17: the rover track always can
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 15, "water": 15, "biomass": 15, "tech": 15})
    game.give(0, ("synergy", 0, 0, 0))
    assert game.decision != "synergy"  # one movable tracker: no choice to ask
    assert game.tracks(0)["rover"] == 1


def test_top_of_track_stops_and_rover_repeats_its_top_movement(rules):
    # TR-2, TR-3: a topped tracker does not move; the topped rover re-grants move 4
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 15, "rover": 15})
    game.set_rovers(0, [(5, 5)], in_supply=0)
    game.give(0, ("advance", 0, 1, 0))
    assert game.tracks(0)["civ"] == 15
    game.give(0, ("advance", 3, 1, 0))
    assert game.tracks(0)["rover"] == 15
    assert game.player(0)["move_budget"] == 4
    assert game.decision == "rover_step"


def test_track_medals_score_the_highest_medal_at_or_below(rules):
    # TR-5 on Universal Coalition: civ 9 -> 3, water 14 -> 7, biomass 7 -> 1,
    # rover 12 -> 2, tech 6 -> 1
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 9, "water": 14, "biomass": 7, "rover": 12, "tech": 6})
    game.state.score_now()
    assert game.player(0)["score_tracks"] == 3 + 7 + 1 + 2 + 1


def test_tech_level_follows_the_tech_trackers_position(rules):
    # TE-1: milestones at 3, 5, 7, 10, 14
    game = drawn(rules, {(5, 5): "c"})
    levels = []
    for pos in range(16):
        game.set_tracks(0, {"tech": pos})
        levels.append(game.player(0)["tech_level"])
    assert levels == [0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5]


def test_tech_level_3_adds_one_to_rover_track_movement_only(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.set_tracks(0, {"tech": 7, "rover": 3})  # L3; rover 4 gives move 2
    game.give(0, ("advance", 3, 1, 0))
    assert game.player(0)["move_budget"] == 3


# ---- 8.11 meteorites -----------------------------------------------------------------


def test_a_meteor_tile_puts_a_meteorite_on_its_symbol_unless_tech_5(rules):
    tile = tile_id(rules, "domino", "civ", "energy", meteor=True)
    shape = rules.data.shapes[rules.data.tiles[tile].shape]
    for tech, expected in ((0, 1), (14, 0)):
        game = drawn(rules, {(5, 5): "t"})
        game.set_tracks(0, {"tech": tech})
        place(game, rules, tile, [(6, 5), (7, 5)])
        info = game.player(0)
        meteorites = sum(bin(r).count("1") for r in info["meteorite"])
        assert meteorites == expected
        assert sum(bin(r).count("1") for r in info["msym"]) == 1  # the symbol itself
    assert shape.name == "domino"


# ---- 9.2 a tile that cannot be placed ------------------------------------------------


def test_an_unplaced_energy_water_tile_gives_water_twice(rules):
    # rulebook scoring example, rules.md 9.2 / 14.7: energy becomes the other
    # resource, water needs no ice, the meteor is ignored
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for x, y in rules.data.planets[0].grid_squares:
        rows[y][x] = "c"
    game = ScenarioGame(players=1, bots="random", seed=0)
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    tile = tile_id(rules, "domino", "energy", "water", meteor=True)
    other = tile_id(rules, "straight-4", "civ", "energy")
    game.set_depot(0, tile, other)
    game.start_draft(0)
    assert game.decision == "no_place"
    assert game.legal_moves() == [0, 1]
    game.apply(0)
    resolve_all(game)
    info = game.player(0)
    assert game.tracks(0)["water"] == 2
    assert info["tiles_unplaced"] == 1 and info["meteorite"] == [0] * 12
