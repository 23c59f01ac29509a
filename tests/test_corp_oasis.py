"""Oasis Ultd. (corporations.md 3.7): the winding water path and blocking; techs 1-5."""

from __future__ import annotations

import pytest

from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    find_placement,
    marked_drawing,
    place_move,
    tile_id,
)

DONE = 0xFFFF
TECH_AT = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}
CIV, WATER, BIOMASS, ROVER, TECH = range(5)


def oasis(rules, covered=None, *, tech=0, options=None) -> ScenarioGame:
    game = ScenarioGame(players=1, corporations="oasis_ultd", bots="random", seed=0,
                options=options)  # fmt: skip
    game.set_planet(0, marked_drawing(game.planet_of(0), covered))
    game.set_tracks(0, {"tech": TECH_AT[tech] if tech else 0})
    return game


def track(game: ScenarioGame, t: int) -> int:
    return game.player(0)["track"][t]


def test_water_medals_along_the_path(rules):
    corp = next(c for c in rules.data.corporations if c.key == "oasis_ultd")
    assert len(corp.water_path) == 24
    medals = {s: m for s, m in enumerate(corp.water_path_medals) if m}
    assert medals == {10: 3, 13: 6, 19: 9, 21: 12, 23: 15}  # O1: 9 at row 11
    for step, score in ((9, 0), (10, 3), (12, 3), (19, 9), (20, 9), (23, 15)):
        game = oasis(rules)
        game.set_tracks(0, {"water": step})
        game.start_stage("score")
        assert game.player(0)["score_tracks"] == score, step


def test_the_water_tracker_claims_the_spaces_of_other_tracks(rules):
    game = oasis(rules)
    game.set_tracks(0, {"water": 1})
    game.give(0, ("advance", WATER, 1, 0))  # step 2 = biomass row 2: a synergy
    assert track(game, WATER) == 2 and game.decision == "synergy"
    game2 = oasis(rules, {(5, 5): "c"})
    game2.set_rovers(0, [(5, 5)], in_supply=1)
    game2.set_tracks(0, {"water": 2})
    game2.give(0, ("advance", WATER, 1, 0))  # step 3 = rover row 3: move 1
    assert game2.player(0)["move_budget"] == 1


def place(rules, game: ScenarioGame, tile: int, cells, water) -> None:
    """Draft `tile` onto `cells` with its water part on `water`, resolve the pool."""
    o, x, y = find_placement(rules, tile, cells, part_a=water)
    shape = rules.data.shapes[rules.data.tiles[tile].shape]
    slot = 0 if shape.ring == "small" else 1
    game.set_depot(0, tile if slot == 0 else None, tile if slot == 1 else None)
    game.start_draft(0)
    game.apply(place_move(slot, o, x, y))
    while game.decision == "order":
        game.apply(0)


def test_a_water_tile_advances_once_per_water_square_on_ice(rules):
    # KSB-4156: (0, 5), (1, 5) and (1, 6) are ice, (1, 3) and (1, 4) land
    one = oasis(rules, {(2, 5): "c"})
    place(
        rules,
        one,
        tile_id(rules, "domino", "water", "rover"),
        [(0, 5), (1, 5)],
        [(0, 5)],
    )
    assert track(one, WATER) == 1
    two = oasis(rules, {(2, 4): "c"})
    straight = tile_id(rules, "straight-4", "water", "rover")
    cells = [(1, 3), (1, 4), (1, 5), (1, 6)]
    place(rules, two, straight, cells, [(1, 5), (1, 6)])
    assert track(two, WATER) == 2
    dry = oasis(rules, {(2, 4): "c"})
    place(rules, dry, straight, cells, [(1, 3), (1, 4)])
    assert track(dry, WATER) == 0


def test_a_blocked_advance_is_lost(rules):
    game = oasis(rules)
    game.set_tracks(0, {"water": 1, "biomass": 2})  # step 2 is biomass row 2
    game.give(0, ("advance", WATER, 1, 0))
    assert track(game, WATER) == 1
    other = oasis(rules)
    other.set_tracks(0, {"water": 2, "biomass": 1})
    other.give(0, ("advance", BIOMASS, 1, 0))  # biomass row 2 holds the water tracker
    assert track(other, BIOMASS) == 1


def test_a_synergy_cannot_pick_a_blocked_tracker_z1(rules):
    for must_move, offered in ((True, False), (False, True)):
        game = oasis(rules, options=RuleOptions(synergy_target_must_move=must_move))
        game.set_tracks(0, {"water": 1, "biomass": 2})
        game.give(0, ("synergy", 0, 0, 0))
        assert (WATER in game.legal_moves()) is offered


def test_tech_1_jumps_the_blocking_tracker(rules):
    # rulebook example: water jumps the biomass tracker and lands on rover row 3
    game = oasis(rules, {(5, 5): "c"}, tech=1)
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.set_tracks(0, {"water": 1, "biomass": 2})
    game.give(0, ("advance", WATER, 1, 0))
    assert track(game, WATER) == 3 and game.player(0)["move_budget"] == 1


def test_tech_2_round_start_movement_per_rover_on_water(rules):
    covered = {(3, 5): "w", (4, 5): "w", (6, 5): "c"}
    game = oasis(rules, covered, tech=2)
    game.set_rovers(0, [(3, 5), (4, 5), (6, 5)], in_supply=0)
    game.start_stage("check")
    assert game.player(0)["round_move"] == 2


@pytest.mark.parametrize(
    ("tech_space", "cells", "water_item"),
    [
        (TECH_AT[3], [(6, 5), (7, 5)], True),  # land only: one water advance
        (TECH_AT[3] - 1, [(6, 5), (7, 5)], False),  # tech 2: not yet
        (TECH_AT[3], [(0, 5), (1, 5)], False),  # (0, 5) is ice
    ],
)
def test_tech_3_a_tile_on_no_ice_advances_water(rules, tech_space, cells, water_item):
    game = oasis(rules, {(5, 5): "c", (2, 5): "c"})
    game.set_tracks(0, {"tech": tech_space})
    tile = tile_id(rules, "domino", "civ", "energy")
    o, x, y = find_placement(rules, tile, cells, part_a=cells[:1])
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    # the civ resource, the energy (whose only candidate is civ), then the water
    # advance of tech 3, each waiting for the player; nothing has moved yet
    expected = [("advance", CIV, 1, 0), ("energy", 1 << CIV, 0, 0)]
    if water_item:
        expected.append(("advance", WATER, 1, 0))
    assert game.player(0)["items"] == expected
    assert track(game, WATER) == 0 and track(game, CIV) == 0


def test_techs_4_and_5_a_water_tile_gives_a_patch_and_a_synergy(rules):
    game = oasis(rules, {(5, 5): "c"}, tech=5)
    tile = tile_id(rules, "domino", "energy", "water")
    o, x, y = find_placement(
        rules, tile, [(6, 5), (7, 5)]
    )  # no ice: water gives nothing
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    kinds = sorted(k for k, *_ in game.player(0)["items"])
    assert "patch" in kinds and "synergy" in kinds


def test_the_water_tracker_regresses_one_step_but_never_onto_a_tracker(rules):
    game = oasis(rules)
    game.set_tracks(0, {"water": 4})
    game.give(0, ("regress", 1 << WATER, 1, 0))
    assert track(game, WATER) == 3
    blocked = oasis(rules)
    blocked.set_tracks(0, {"water": 4, "rover": 3})  # step 3 is rover row 3
    blocked.give(0, ("regress", 1 << WATER, 1, 0))
    assert track(blocked, WATER) == 4


def test_unionization_stops_water_at_rover_row_5(rules):
    game = oasis(rules)
    game.give(0, ("raise", 5, 0, 0))
    while game.decision in ("track", "order", "synergy"):
        moves = game.legal_moves()
        game.apply(WATER if game.decision == "track" and WATER in moves else moves[0])
    assert track(game, WATER) == 5  # step 5 = rover row 5 (corp-G1)


def test_bga_options_row_11_medal_and_tech_2_on_use(rules):
    game = oasis(rules, options=RuleOptions(oasis_row11_medal=8))
    game.set_tracks(0, {"water": 19})
    game.start_stage("score")
    assert game.player(0)["score_tracks"] == 8
    covered = {(3, 5): "w", (6, 5): "c"}
    bga = RuleOptions(oasis_tech2_timing="on_use")
    start = oasis(rules, covered, tech=2, options=bga)
    start.set_rovers(0, [(3, 5), (6, 5)], in_supply=0)
    start.start_stage("check")
    assert start.player(0)["round_move"] == 0  # nothing at round start
    use = oasis(rules, covered, tech=2, options=bga)
    use.set_rovers(0, [(3, 5), (6, 5)], in_supply=0)
    use.give(0)
    assert use.decision == "power" and 2 in use.legal_moves()
    use.apply(2)
    assert use.player(0)["round_move"] == 1
