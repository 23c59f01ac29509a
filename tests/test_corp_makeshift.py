"""Makeshift (corporations.md 3.6): trackers change lanes and block; techs 1-5."""

from __future__ import annotations

from pu_sim.engine.core import constants
from pu_sim.rules import RuleOptions
from pu_sim.testing import ScenarioGame, marked_drawing, step_move

DONE = 0xFFFF
CONST = constants()
SIDEWAYS, BEYOND = CONST["STEP_SIDEWAYS"], CONST["STEP_BEYOND"]
CIV, WATER, BIOMASS, ROVER, TECH = range(5)
TECH_AT = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}


def makeshift(rules, places=None, *, options=None, covered=None) -> ScenarioGame:
    """A Makeshift game with trackers on (column, row) places (tracker -> place)."""
    game = ScenarioGame(players=1, corporations="makeshift", bots="random", seed=0,
                options=options)  # fmt: skip
    game.set_planet(0, marked_drawing(game.planet_of(0), covered))
    for t, (col, row) in (places or {}).items():
        game.state.set_column(0, t, col)
        game.state.set_track(0, t, row)
    return game


def place_of(game: ScenarioGame, t: int) -> tuple[int, int]:
    info = game.player(0)
    return info["col"][t], info["track"][t]


def test_each_tracker_starts_on_its_own_track(rules):
    game = makeshift(rules)
    assert game.player(0)["col"] == [0, 1, 2, 3, 4]
    assert game.player(0)["track"] == [0, 0, 0, 0, 0]


def test_an_advance_goes_straight_or_diagonally_onto_a_free_space(rules):
    game = makeshift(
        rules, {BIOMASS: (BIOMASS, 4), WATER: (WATER, 5)}, covered={(5, 5): "c"}
    )
    game.set_rovers(0, [(5, 5)], in_supply=1)  # so the movement can be spent
    game.give(0, ("advance", BIOMASS, 1, 0))
    assert game.decision == "direction"
    # straight (biomass 5) or diagonal onto rover 5; water 5 holds the water tracker
    assert sorted(game.legal_moves()) == [BIOMASS, ROVER]
    game.apply(ROVER)
    assert place_of(game, BIOMASS) == (ROVER, 5)
    assert game.player(0)["move_budget"] == 2  # the rover column's move:2 at row 5


def test_a_tracker_with_one_free_target_moves_without_a_question(rules):
    game = makeshift(rules, {CIV: (CIV, 4), WATER: (WATER, 5)})
    game.give(0, ("advance", CIV, 1, 0))  # civ 5 is free, water 5 is taken
    assert place_of(game, CIV) == (CIV, 5)


def test_a_blocked_advance_is_lost_m3(rules):
    game = makeshift(rules, {CIV: (CIV, 4), WATER: (WATER, 4), BIOMASS: (CIV, 5)})
    game.state.set_column(0, ROVER, WATER)
    game.state.set_track(0, ROVER, 5)
    game.give(0, ("advance", CIV, 1, 0))  # civ 5 and water 5 are both taken
    assert place_of(game, CIV) == (CIV, 4)


def test_any_tracker_claims_what_the_space_shows(rules):
    # the water (blue) tracker steps diagonally onto civ row 3: a rank-1 civ milestone
    game = makeshift(rules, {WATER: (WATER, 2)})
    game.give(0, ("advance", WATER, 1, 0))
    game.apply(CIV)
    assert place_of(game, WATER) == (CIV, 3)
    assert game.player(0)["owed"] == [1]


def test_the_highest_tracker_on_the_tech_column_sets_the_tech_level(rules):
    game = makeshift(rules, {TECH: (TECH, 2), ROVER: (TECH, 7)})
    assert game.player(0)["tech_level"] == 3
    none_there = makeshift(rules, {TECH: (ROVER, 9), ROVER: (WATER, 9)})
    assert none_there.player(0)["tech_level"] == 0


def test_trackers_score_the_column_they_stand_on(rules):
    # two trackers on the civ column: rows 9 (medal 3) and 5 (medal 2)
    game = makeshift(rules, {CIV: (CIV, 9), WATER: (CIV, 5)})
    game.start_stage("score")
    assert game.player(0)["score_tracks"] == 5


def test_the_rover_column_top_repeats_its_movement(rules):
    game = makeshift(
        rules, {BIOMASS: (ROVER, 15), ROVER: (WATER, 3)}, covered={(5, 5): "c"}
    )
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.give(0, ("advance", BIOMASS, 1, 0))
    assert place_of(game, BIOMASS) == (ROVER, 15)
    assert game.player(0)["move_budget"] == 3


def test_tech_1_civ_and_tech_are_neighbours(rules):
    plain = makeshift(rules, {CIV: (CIV, 4), TECH: (TECH, 2)})  # no tech yet
    plain.give(0, ("advance", CIV, 1, 0))
    assert plain.decision == "direction"
    assert sorted(plain.legal_moves()) == [CIV, WATER]
    wrap = makeshift(rules, {CIV: (CIV, 4), TECH: (TECH, 3)})  # tech 1
    wrap.give(0, ("advance", CIV, 1, 0))
    assert sorted(wrap.legal_moves()) == [CIV, WATER, TECH]


def test_tech_2_a_conditional_point_for_two_trackers_on_the_rover_column(rules):
    tech2 = {TECH: (TECH, 5), ROVER: (ROVER, 3)}
    alone = makeshift(rules, tech2, covered={(5, 5): "c"})
    alone.set_rovers(0, [(5, 5)], in_supply=1)
    alone.give(0, ("advance", ROVER, 1, 0))
    assert alone.decision == "direction"
    alone.apply(ROVER)  # straight: rover row 4, move 2
    info = alone.player(0)
    assert info["move_budget"] == 2 and info["cond_move"] == 1
    # with a second tracker on the rover column the point is spendable
    two = makeshift(rules, {**tech2, BIOMASS: (ROVER, 8)}, covered={(5, 5): "c"})
    two.set_rovers(0, [(5, 5)], in_supply=1)
    two.state.set_player_int(0, "move_budget", 1)
    two.state.set_player_int(0, "cond_move", 1)
    two.give(0)
    two.apply(step_move(0, 6, 5))
    two.apply(step_move(0, 5, 5))
    assert two.player(0)["cond_move"] == 0 and two.player(0)["move_budget"] == 0
    # with the rover tracker alone on its column the point waits
    one = makeshift(rules, tech2, covered={(5, 5): "c"})
    one.set_rovers(0, [(5, 5)], in_supply=1)
    one.state.set_player_int(0, "move_budget", 1)
    one.state.set_player_int(0, "cond_move", 1)
    one.give(0)
    one.apply(step_move(0, 6, 5))
    assert one.decision is None  # no second step: the point was not spendable


def test_tech_2_bga_checks_when_the_movement_is_gained(rules):
    places = {TECH: (TECH, 5), ROVER: (ROVER, 3), BIOMASS: (ROVER, 8)}
    game = makeshift(rules, places, options=RuleOptions(makeshift_tech2_check="on_gain"),
                     covered={(5, 5): "c"})  # fmt: skip
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.give(0, ("advance", ROVER, 1, 0))
    assert game.decision == "direction"
    game.apply(ROVER)
    assert game.player(0)["move_budget"] == 3 and game.player(0)["cond_move"] == 0


def test_tech_3_sideways_instead_of_advancing(rules):
    game = makeshift(rules, {TECH: (TECH, 7), CIV: (CIV, 4)})
    game.give(0, ("advance", CIV, 1, 0))
    assert game.decision == "direction"
    assert (WATER | SIDEWAYS) in game.legal_moves()
    game.apply(WATER | SIDEWAYS)
    assert place_of(game, CIV) == (WATER, 4)  # water row 4: medal only


def test_tech_4_steps_any_tracker_down_once_a_round(rules):
    game = makeshift(rules, {TECH: (TECH, 10), WATER: (WATER, 6)})
    game.give(0)
    assert game.decision == "power" and 4 in game.legal_moves()
    game.apply(4)
    assert game.decision == "regress"
    game.apply(WATER)
    assert place_of(game, WATER) == (WATER, 5)
    assert game.decision is None  # nothing left: tech 4 is spent for the round
    assert game.player(0)["used_round"] == 1 << 4


def test_tech_4_offers_every_tracker_that_can_step_down(rules):
    places = {CIV: (CIV, 4), WATER: (WATER, 6), BIOMASS: (BIOMASS, 3),
              ROVER: (ROVER, 5), TECH: (TECH, 10)}  # fmt: skip
    game = makeshift(rules, places)
    game.give(0)
    game.apply(4)
    assert game.decision == "regress"
    assert sorted(game.legal_moves()) == [CIV, WATER, BIOMASS, ROVER, TECH]
    game.apply(CIV)
    assert place_of(game, CIV) == (CIV, 3)


def test_an_event_that_gives_nothing_offers_no_power(rules):
    # tech 4 is ready, but event 97 (a round rule) puts nothing in the pool:
    # the event step passes without opening it
    game = makeshift(rules, {TECH: (TECH, 10), WATER: (WATER, 6)})
    game.reveal_event(97)
    assert game.decision != "power"
    assert game.player(0)["used_round"] == 0


def test_tech_5_every_tracker_scores_as_the_highest_on_its_column(rules):
    places = {TECH: (TECH, 14), CIV: (CIV, 9), WATER: (CIV, 5)}
    game = makeshift(rules, places)
    game.start_stage("score")
    # civ column: both as row 9 (3 + 3); tech column row 14 scores 2; the rest 0
    assert game.player(0)["score_tracks"] == 3 + 3 + 2


def test_m2_bga_option_onto_the_rover_top_from_row_15(rules):
    places = {BIOMASS: (BIOMASS, 15)}
    plain = makeshift(rules, places)
    plain.give(0, ("advance", BIOMASS, 1, 0))
    assert place_of(plain, BIOMASS) == (BIOMASS, 15)  # no row 16: lost
    bga = makeshift(rules, places,
                    options=RuleOptions(makeshift_row15_diagonal_to_rover_top=True))  # fmt: skip
    bga.give(0, ("advance", BIOMASS, 1, 0))
    assert place_of(bga, BIOMASS) == (ROVER, 15)
