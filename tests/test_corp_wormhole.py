"""Wormhole Corp. (corporations.md 3.9): the branching biomass track; techs 1-5."""

from __future__ import annotations

import pytest

from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    find_placement,
    marked_drawing,
    place_move,
    square_move,
    tile_id,
)

DONE = 0xFFFF
STORE = 255
TECH_AT = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}
CIV, WATER, BIOMASS, ROVER, TECH = range(5)


def wormhole(
    rules, covered=None, *, tech: int = 0, meteorites=(), options=None
) -> ScenarioGame:
    game = ScenarioGame(players=1, corporations="wormhole_corp", bots="random", seed=0,
                options=options)  # fmt: skip
    game.set_planet(
        0, marked_drawing(game.planet_of(0), covered), meteorites=meteorites
    )
    game.set_tracks(0, {"tech": TECH_AT[tech] if tech else 0})
    return game


def track(game: ScenarioGame, t: int) -> int:
    return game.player(0)["track"][t]


# ---- the branching track --------------------------------------------------------------


def test_each_biomass_advance_reaches_the_next_level_and_takes_one_half(rules):
    game = wormhole(rules, {(5, 5): "c"})
    game.give(0, ("advance", BIOMASS, 1, 0))
    assert game.decision == "branch"
    assert sorted(game.legal_moves()) == [0, 1]
    game.apply(0)  # level 1, half A: a synergy boost
    assert track(game, BIOMASS) == 2 and game.decision == "synergy"
    other = wormhole(rules, {(5, 5): "c"})
    other.give(0, ("advance", BIOMASS, 1, 0))
    other.apply(1)  # level 1, half B: a patch
    assert track(other, BIOMASS) == 3 and other.decision == "patch"


def test_level_two_a_advances_civ_and_medals_sit_between_levels(rules):
    game = wormhole(rules)
    game.set_tracks(0, {"biomass": 3})  # level 1 (patch half)
    game.give(0, ("advance", BIOMASS, 1, 0))
    game.apply(0)  # level 2 half A: synergy:civ
    assert track(game, BIOMASS) == 5 and track(game, CIV) == 1
    game.start_stage("score")
    assert game.player(0)["score_tracks"] == 1  # the medal between levels 1 and 2


def test_the_top_level_cannot_advance(rules):
    game = wormhole(rules)
    game.set_tracks(0, {"biomass": 14, "civ": 3})
    game.give(0, ("synergy", 0, 0, 0))
    assert game.decision == "synergy" and BIOMASS not in game.legal_moves()


def test_a_regress_goes_back_one_level(rules):
    game = wormhole(rules)
    game.set_tracks(0, {"biomass": 9})  # level 3, patch half
    game.give(0, ("regress", 1 << BIOMASS, 1, 0))
    assert track(game, BIOMASS) == 5  # level 2


@pytest.mark.parametrize(("half", "row"), [(0, 5), (1, 6)])
def test_unionization_stops_at_level_two(rules, half, row):
    # corp-G1: advance while the board row is below 5; level 1 is rows 2/3,
    # level 2 rows 5/6, so two advances, ending on the half taken at level 2
    game = wormhole(rules)
    game.give(0, ("raise", 5, 0, 0))
    branches = 0
    while game.decision in ("track", "branch", "order", "synergy", "patch"):
        moves = game.legal_moves()
        if game.decision == "track":
            game.apply(BIOMASS if BIOMASS in moves else moves[0])
        elif game.decision == "branch":
            branches += 1
            game.apply(half)
        else:
            game.apply(DONE if DONE in moves else moves[0])
    assert branches == 2
    assert track(game, BIOMASS) == row


# ---- biomass from tiles ------------------------------------------------------------------


def place(rules, game: ScenarioGame, tile: int, cells, part_a) -> None:
    o, x, y = find_placement(rules, tile, cells, part_a=part_a)
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))


def test_a_biomass_tile_advances_only_when_it_grows_a_biomass_area(rules):
    tile = tile_id(rules, "domino", "tech", "biomass")
    lone = wormhole(rules, {(5, 5): "c"})
    place(rules, lone, tile, [(6, 5), (7, 5)], part_a=[(6, 5)])
    assert track(lone, BIOMASS) == 0 and track(lone, TECH) == 1
    grows = wormhole(rules, {(5, 5): "c", (8, 5): "p"})  # a patch is biomass terrain
    place(rules, grows, tile, [(6, 5), (7, 5)], part_a=[(6, 5)])
    # both resources wait, in icon order, for the player to order them
    assert grows.decision == "order" and track(grows, BIOMASS) == 0
    items = grows.player(0)["items"]
    assert items == [("advance", TECH, 1, 0), ("advance", BIOMASS, 1, 0)]
    grows.apply(1)  # the biomass advance reaches level 1: its branch waits
    assert grows.player(0)["items"] == [("advance", TECH, 1, 0), ("branch", 0, 0, 0)]
    grows.apply(1)
    assert grows.decision == "branch" and sorted(grows.legal_moves()) == [0, 1]
    grows.apply(1)  # half B: a patch, waiting beside the tech advance
    assert track(grows, BIOMASS) == 3
    assert grows.player(0)["items"] == [("advance", TECH, 1, 0), ("patch", 0, 0, 0)]


def test_energy_never_offers_biomass_by_default(rules):
    tile = tile_id(rules, "domino", "civ", "energy")
    covered = {(5, 5): "b"}
    for option, offered in (("if_expanded", False), ("never", False), ("always", True)):
        game = wormhole(rules, covered,
                        options=RuleOptions(wormhole_energy_biomass=option))  # fmt: skip
        # the energy square (6, 5) touches the biomass square (5, 5)
        place(rules, game, tile, [(7, 5), (6, 5)], part_a=[(7, 5)])
        energy = [a for kind, a, *_ in game.player(0)["items"] if kind == "energy"]
        if game.decision == "energy":
            energy = [game.fields()["item"][1]]
        assert energy and bool(energy[0] >> BIOMASS & 1) is offered, option


# ---- techs ---------------------------------------------------------------------------------


def test_tech_1_the_top_biomass_tracker_may_go_back_to_zero(rules):
    game = wormhole(rules, tech=1)
    game.set_tracks(0, {"biomass": 15})
    game.give(0)
    assert game.decision == "power" and 1 in game.legal_moves()
    game.apply(1)
    assert track(game, BIOMASS) == 0
    low = wormhole(rules, tech=1)
    low.set_tracks(0, {"biomass": 12})
    low.give(0)
    assert low.decision != "power"


def test_tech_2_patches_on_tile_squares_not_on_meteorites(rules):
    covered = {(5, 5): "c", (6, 5): "C", (7, 5): "w"}
    game = wormhole(rules, covered, tech=2, meteorites=[(7, 5)])
    squares = set(game.state.patch_squares(0))
    assert {(5, 5), (6, 5)} <= squares and (7, 5) not in squares
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch"
    game.apply(square_move(6, 5))
    info = game.player(0)
    assert info["patches_on_tiles"] == 1
    assert not info["icon"][CIV][5] >> 6 & 1  # the civ icon is covered
    assert info["terr"][BIOMASS][5] >> 6 & 1
    plain = wormhole(rules, covered, tech=1)
    assert (5, 5) not in set(plain.state.patch_squares(0))


def test_tech_3_one_patch_gain_per_round_may_give_two(rules):
    game = wormhole(rules, {(5, 5): "c"}, tech=3)
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "yes_no"
    game.apply(1)
    assert game.player(0)["used_round"] == 1 << 3
    placed = 0
    while game.decision == "patch":
        game.apply(game.legal_moves()[0])
        placed += 1
    assert placed == 2
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch"  # not asked again this round


def test_tech_4_stores_patches(rules):
    game = wormhole(rules, {(5, 5): "c"}, tech=4)
    game.give(0, ("patch", 0, 0, 0))
    while game.decision == "yes_no":
        game.apply(0)
    assert game.decision == "patch" and STORE in game.legal_moves()


def test_tech_5_a_patch_destroys_a_meteorite(rules):
    game = wormhole(rules, {(5, 5): "c", (6, 5): "c"}, tech=5, meteorites=[(6, 5)])
    assert (6, 5) in set(game.state.patch_squares(0))
    game.give(0, ("patch", 0, 0, 0))
    while game.decision == "yes_no":
        game.apply(0)
    game.apply(square_move(6, 5))
    info = game.player(0)
    assert info["meteorites_destroyed"] == 1 and info["meteorites_collected"] == 0
    assert not info["meteorite"][5] >> 6 & 1
