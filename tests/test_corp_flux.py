"""Flux Industries (corporations.md 3.3): the flux token and one active tech; techs 1-5."""

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


def flux(rules, covered=None, *, tech=0, flux_track=None, options=None, meteorites=()):
    game = ScenarioGame(players=1, corporations="flux_industries", bots="random", seed=0,
                options=options)  # fmt: skip
    game.set_planet(
        0, marked_drawing(game.planet_of(0), covered), meteorites=meteorites
    )
    game.set_tracks(0, {"tech": TECH_AT[tech] if tech else 0})
    if flux_track is not None:
        game.state.set_player_int(0, "flux_track", flux_track)
    return game


def track(game: ScenarioGame, t: int) -> int:
    return game.player(0)["track"][t]


def test_the_flux_token_is_placed_at_every_tech_milestone(rules):
    game = flux(rules)
    assert game.player(0)["flux_track"] == -1  # no function before the first tech
    game.set_tracks(0, {"tech": 2})
    game.give(0, ("advance", TECH, 1, 0))
    assert game.decision == "flux_track"
    assert sorted(game.legal_moves()) == [0, 1, 2, 3, 4]
    game.apply(BIOMASS)
    assert game.player(0)["flux_track"] == BIOMASS


def test_only_the_newest_tech_is_active(rules):
    game = flux(rules, tech=2, flux_track=CIV)
    assert game.state.has_tech(0, 2) and not game.state.has_tech(0, 1)
    game.set_tracks(0, {"tech": 4})  # back below tech 2's milestone
    assert game.state.has_tech(0, 1) and not game.state.has_tech(0, 2)


@pytest.mark.parametrize("when", ["at_use", "round_start"])
def test_tech_1_two_movement_per_rover_on_flux_terrain(rules, when):
    covered = {(3, 5): "b", (4, 5): "b", (6, 5): "c"}
    game = flux(rules, covered, tech=1, flux_track=BIOMASS,
                options=RuleOptions(flux_tech1_track=when))  # fmt: skip
    game.set_rovers(0, [(3, 5), (4, 5), (6, 5)], in_supply=0)
    game.set_depot(0, tile_id(rules, "domino", "biomass", "civ"), None)
    game.start_stage("check")  # the tile phase begins: positions are noted
    if when == "round_start":
        assert game.player(0)["round_move"] == 4  # BGA: granted at once
        return
    assert game.player(0)["round_move"] == 0
    game.apply(game.legal_moves()[0])  # the draft placement; then the pool
    while game.decision not in ("power", None):
        moves = game.legal_moves()
        game.apply(DONE if DONE in moves else moves[0])
    assert game.decision == "power" and 1 in game.legal_moves()
    game.apply(1)
    assert game.player(0)["round_move"] == 4


def test_tech_1_is_not_offered_for_no_movement(rules):
    # no rover stands on the flux terrain (biomass): tech 1 would give 0 movement
    covered = {(3, 5): "c", (6, 5): "c"}
    game = flux(rules, covered, tech=1, flux_track=BIOMASS)
    game.set_rovers(0, [(3, 5), (6, 5)], in_supply=1)
    game.set_depot(0, tile_id(rules, "domino", "biomass", "civ"), None)
    game.start_stage("check")
    game.apply(game.legal_moves()[0])
    offers = []
    while game.decision not in ("tile", None):
        moves = game.legal_moves()
        offers += [moves] if game.decision == "power" else []
        game.apply(DONE if DONE in moves else moves[0])
    assert all(1 not in moves for moves in offers)
    assert game.player(0)["round_move"] == 0


@pytest.mark.parametrize(("on_way", "synergy"), [(True, True), (False, False)])
def test_tech_2_to_the_next_milestone(rules, on_way, synergy):
    game = flux(rules, tech=2, flux_track=BIOMASS,
                options=RuleOptions(flux_tech2_benefits_on_way=on_way))  # fmt: skip
    game.set_tracks(0, {"biomass": 1})
    game.give(0)
    assert game.decision == "power" and 2 in game.legal_moves()
    game.apply(2)
    # biomass 2 is a synergy space, 3 the first patch milestone
    assert track(game, BIOMASS) == 3
    kinds = [k for k, *_ in game.player(0)["items"]]
    pending = set(kinds) | {game.decision}
    assert ("synergy" in pending) is synergy
    assert "patch" in pending


def test_tech_2_does_nothing_on_water(rules):
    game = flux(rules, tech=2, flux_track=WATER)
    game.give(0)
    assert game.decision != "power"  # no milestone on the water track (F3)


def test_tech_3_improves_the_flux_track(rules):
    civ = flux(rules, tech=3, flux_track=CIV)
    civ.set_tracks(0, {"civ": 2})
    civ.give(0, ("advance", CIV, 1, 0))
    assert civ.player(0)["owed"] == [2]  # civ index 3: rank 1 + 1
    other = flux(rules, tech=3, flux_track=WATER)
    other.set_tracks(0, {"civ": 2})
    other.give(0, ("advance", CIV, 1, 0))
    assert other.player(0)["owed"] == [1]


@pytest.mark.parametrize(("scope", "bonus"), [("all_movement", 1), ("track_only", 0)])
def test_tech_3_rover_bonus_scope(rules, scope, bonus):
    game = flux(rules, {(5, 5): "c"}, tech=3, flux_track=ROVER,
                options=RuleOptions(flux_tech3_rover_scope=scope))  # fmt: skip
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.set_tracks(0, {"rover": 2})
    game.give(0, ("advance", ROVER, 1, 0))
    assert game.player(0)["move_budget"] == 2  # improved rover space 3: move 2
    card = flux(rules, {(5, 5): "c"}, tech=3, flux_track=ROVER,
                options=RuleOptions(flux_tech3_rover_scope=scope))  # fmt: skip
    card.set_rovers(0, [(5, 5)], in_supply=1)
    engineering = 4  # Dept of Engineering: 4 rover movement
    rank = rules.data.civ_cards[engineering - 1].rank
    other = next(c.id for c in rules.data.civ_cards if c.rank == rank and c.id != 4)
    card.state.set_pile(rank, [engineering, other])
    card.state.owe_pick(0, rank)
    card.start_stage("civ")
    card.apply(engineering)
    assert card.player(0)["move_budget"] == 4 + bonus


def test_tech_4_a_tile_showing_the_flux_resource_collects_a_meteorite(rules):
    game = flux(rules, {(5, 5): "c", (2, 5): "t"}, tech=4, flux_track=CIV,
                meteorites=[(2, 5)])  # fmt: skip
    tile = tile_id(rules, "domino", "civ", "energy")
    o, x, y = find_placement(rules, tile, [(6, 5), (7, 5)])
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    while game.decision not in (None,) and game.player(0)["meteorites_collected"] == 0:
        moves = game.legal_moves()
        game.apply(DONE if DONE in moves else moves[0])
    assert game.player(0)["meteorites_collected"] == 1


def test_tech_5_advances_the_flux_tracker_once_a_round(rules):
    game = flux(rules, tech=5, flux_track=WATER)
    game.give(0)
    assert game.decision == "power" and 5 in game.legal_moves()
    game.apply(5)
    assert track(game, WATER) == 1
    assert game.decision is None  # nothing left: tech 5 is spent for the round
    assert game.player(0)["used_round"] == 1 << 5
