"""Civ milestones, the civ step, and all 36 civ cards (rules.md 8.6; cards.md 4).

Each card test takes the card in a scenario and checks its effect; the
end-of-game cards are checked in the end phase and in final scoring.
"""

from __future__ import annotations

import pytest

from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    place_move,
    square_move,
    tile_id,
)

DONE = 0xFFFF
CIV, WATER, BIOMASS, ROVER, TECH = range(5)

COVERED: set[int] = set()


def covers(*cards: int):
    """Record which civ cards a test checks (see the last test of this file)."""
    COVERED.update(cards)
    return lambda test: test


def drawn(
    rules, covered=None, *, players=1, meteorites=(), lifepods=(), **kw
) -> ScenarioGame:
    game = ScenarioGame(players=players, bots="random", seed=0, **kw)
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for (x, y), ch in (covered or {}).items():
        rows[y][x] = ch
    for x, y in lifepods:
        rows[y][x] = "o"
    for p in range(players):
        game.set_planet(p, "\n".join("".join(r) for r in rows), meteorites=meteorites)
    return game


def rank_of(rules, card: int) -> int:
    return rules.data.civ_cards[card - 1].rank


def take(game: ScenarioGame, rules, card: int, p: int = 0) -> None:
    """Player p reaches a milestone of the card's rank and keeps the card."""
    rank = rank_of(rules, card)
    others = [c.id for c in rules.data.civ_cards if c.rank == rank and c.id != card]
    game.state.set_pile(rank, [card, others[0]])
    game.state.owe_pick(p, rank)
    game.start_stage("civ")
    assert game.decision == "civ_pick" and game.decider == p
    assert sorted(game.legal_moves()) == sorted([card, others[0]])
    game.apply(card)
    assert card in game.player(p)["civ_cards"]


def tracks(game: ScenarioGame, p: int = 0) -> list[int]:
    return game.player(p)["track"]


def squares(rows: list[int]) -> set[tuple[int, int]]:
    return {(x, y) for y in range(12) for x in range(12) if rows[y] >> x & 1}


# ---- milestones and the civ step -----------------------------------------------------


def test_civ_milestones_give_picks_of_their_rank(rules):
    # CV-1: Universal Coalition civ milestones at 3, 6, 10, 14 are ranks 1-4
    game = drawn(rules, {(5, 5): "c"})
    owed = []
    for pos in (2, 5, 9, 13):
        game.set_tracks(0, {"civ": pos})
        game.give(0, ("advance", CIV, 1, 0))
        owed.append(game.player(0)["owed"][-1])
    assert owed == [1, 2, 3, 4]


def test_picks_wait_for_the_civ_step_in_commander_order(rules):
    # CV-2/CV-4, designer FAQ Q1: the commander picks first from a contested pile
    game = drawn(rules, {(5, 5): "c"}, players=3)
    game.state.set_game_int("commander", 1)
    game.state.set_pile(1, [1, 2])
    for p in range(3):
        game.state.owe_pick(p, 1)
    game.start_stage("civ")
    assert (game.decision, game.decider) == ("civ_pick", 1)
    game.apply(2)  # the commander takes Dept of Operations
    while game.decision in ("track", "order", "patch", "synergy", "rover_step"):
        game.apply(game.legal_moves()[0])
    assert (game.decision, game.decider) == ("civ_pick", 2)
    assert game.legal_moves() == [1]
    game.apply(1)
    while game.decision in ("track", "order", "patch", "synergy", "rover_step"):
        game.apply(game.legal_moves()[0])
    # player 0 comes last and finds the rank-1 pile empty: nothing (CV-3), and the
    # round moves on to the next commander's rotation
    assert (game.decision, game.decider) == ("rotation", 2)
    assert game.player(0)["civ_cards"] == [] and game.player(0)["owed"] == []
    assert game.fields()["piles"][0] == []


def test_a_players_owed_picks_are_taken_in_the_order_owed(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.state.set_pile(1, [6])
    game.state.set_pile(3, [20])
    game.state.owe_pick(0, 3)
    game.state.owe_pick(0, 1)
    game.start_stage("civ")
    picked = []
    while game.decision == "civ_pick":
        picked.append(game.legal_moves())
        game.apply(picked[-1][0])
    assert picked == [[20], [6]]
    assert game.player(0)["owed"] == [] and game.player(0)["civ_cards"] == [6, 20]


def test_a_milestone_reached_in_the_civ_step_is_picked_in_the_same_turn(rules):
    # rules.md 4.6: Temp Agency moving civ onto rank 2 gives the next pick at once
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 5})
    game.state.set_pile(2, [9, 8])
    take(game, rules, 1)
    assert game.decision == "track"
    game.apply(CIV)
    assert game.decision == "track"
    game.apply(WATER)
    assert game.decision == "civ_pick" and sorted(game.legal_moves()) == [8, 9]


# ---- immediate cards -----------------------------------------------------------------


@covers(1, 10, 11, 19)
@pytest.mark.parametrize(("card", "count"), [(1, 2), (11, 2), (10, 3), (19, 3)])
def test_advance_distinct_trackers(rules, card, count):
    # Temp Agency, Wage Increase, New Angel Investors, Partnership Opportunity
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"water": 4, "tech": 15})  # tech topped: not eligible
    take(game, rules, card)
    chosen = []
    for _ in range(count):
        assert game.decision == "track"
        moves = game.legal_moves()
        assert TECH not in moves and not set(chosen) & set(moves)
        chosen.append(moves[0])
        game.apply(moves[0])
        while game.decision in ("order", "synergy", "patch", "rover_place"):
            game.apply(game.legal_moves()[0])
    assert len(set(chosen)) == count


@covers(2)
def test_dept_of_operations_moves_one_tracker_two_spaces_claiming_both(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"biomass": 1})
    take(game, rules, 2)
    game.apply(BIOMASS)  # 2 = synergy, 3 = patch
    assert game.tracks(0)["biomass"] == 3
    assert game.decision == "order"
    assert sorted(item[0] for item in game.player(0)["items"]) == ["patch", "synergy"]


def test_dept_of_operations_second_step_is_lost_at_the_top(rules):
    # cards.md A8
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 15, "water": 15, "biomass": 14, "tech": 15})
    take(game, rules, 2)
    game.apply(BIOMASS)
    assert game.tracks(0)["biomass"] == 15


@covers(3, 12, 26)
@pytest.mark.parametrize(("card", "patches"), [(3, 1), (12, 2), (26, 3)])
def test_patch_cards(rules, card, patches):
    game = drawn(rules, {(5, 5): "c"})
    take(game, rules, card)
    for _ in range(patches):
        assert game.decision == "patch"
        game.apply(game.legal_moves()[0])
    assert game.player(0)["patches_placed"] == patches


@covers(4)
def test_dept_of_engineering_gives_four_movement_without_the_tech_bonus(rules):
    # cards.md A3: UC tech 3 adds only to rover-track movement
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"tech": 7})
    game.set_rovers(0, [(5, 5)], in_supply=1)
    take(game, rules, 4)
    assert game.decision == "rover_step"
    assert game.player(0)["move_budget"] == 4


@covers(5, 16)
@pytest.mark.parametrize(("card", "advances"), [(5, False), (16, True)])
def test_salvage_yard_and_depot_repair_place_a_depot_tile(rules, card, advances):
    game = drawn(rules, {(5, 5): "c"})
    tile = tile_id(rules, "domino", "tech", "biomass", meteor=True)
    game.set_depot(0, tile, None)
    take(game, rules, card)
    assert game.decision == "place"
    o, x, y = find_placement(rules, tile, [(6, 5), (7, 5)])
    game.apply(place_move(0, o, x, y))
    while game.decision == "order":
        game.apply(game.legal_moves()[0])
    info = game.player(0)
    assert {(6, 5), (7, 5)} <= squares(info["occ"])
    assert squares(info["last_tile"]) == {(6, 5), (7, 5)}
    assert sum(bin(r).count("1") for r in info["meteorite"]) == 1
    assert game.state.depot_tiles(0)[0] != tile  # it left the station
    expected = 1 if advances else 0
    assert (game.tracks(0)["tech"], game.tracks(0)["biomass"]) == (expected, expected)


def test_depot_tile_cards_are_skipped_when_nothing_fits(rules):
    full = {(x, y): "c" for x, y in rules.data.planets[0].grid_squares}
    game = drawn(rules, full)
    take(game, rules, 5)
    assert game.decision != "place"
    assert game.player(0)["tiles_placed"] == 0


@covers(13, 18)
@pytest.mark.parametrize(("card", "count"), [(13, 2), (18, 3)])
def test_collect_lifepods_from_the_planet(rules, card, count):
    pods = [(1, 4), (10, 4), (2, 7), (8, 8)]
    game = drawn(rules, {(5, 5): "c"}, lifepods=pods)
    take(game, rules, card)
    for _ in range(count):
        assert game.decision == "lifepod"
        game.apply(game.legal_moves()[0])
    info = game.player(0)
    assert info["lifepods_collected"] == count
    assert len(squares(info["lifepod"])) == 4 - count


def test_collect_lifepods_takes_what_there_is(rules):
    game = drawn(rules, {(5, 5): "c"}, lifepods=[(1, 4)])
    take(game, rules, 18)
    assert game.player(0)["lifepods_collected"] == 1
    assert game.decision != "lifepod"


@covers(14)
def test_relocation_bonus_teleports_a_rover_and_collects_there(rules):
    game = drawn(rules, {(5, 5): "c"}, lifepods=[(1, 4)])
    game.set_rovers(0, [(5, 5), (6, 6)], in_supply=0)
    take(game, rules, 14)
    assert game.decision == "teleport"
    moves = game.legal_moves()
    assert DONE in moves  # optional
    assert ((0 << 8) | square_move(6, 6)) not in moves  # cards.md A4: not onto a rover
    game.apply((0 << 8) | square_move(1, 4))
    info = game.player(0)
    assert info["lifepods_collected"] == 1
    assert info["rovers"][0][:3] == (2, 1, 4)


def test_relocation_bonus_offers_every_free_square_to_each_rover(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_rovers(0, [(5, 5), (6, 6)], in_supply=0)
    take(game, rules, 14)
    assert game.decision == "teleport"
    moves = [m for m in game.legal_moves() if m != DONE]
    by_rover = {r: {m & 0xFF for m in moves if m >> 8 == r} for r in (0, 1)}
    assert len(moves) == len(set(moves))
    assert by_rover[0] == by_rover[1]  # the same squares, none under a rover (A4)
    assert not by_rover[0] & {square_move(5, 5), square_move(6, 6)}
    assert len(by_rover[0]) > 80


@covers(17)
def test_landing_zone_approved_clears_one_line_of_meteorites(rules):
    met = [(5, 5), (7, 5), (5, 8)]
    game = drawn(rules, {c: "c" for c in met}, meteorites=met)
    take(game, rules, 17)
    assert game.decision == "line"
    assert sorted(game.legal_moves()) == [5, 8, 12 + 5, 12 + 7]
    game.apply(5)  # row 5
    info = game.player(0)
    assert squares(info["meteorite"]) == {(5, 8)}
    assert info["meteorites_destroyed"] == 2 and info["meteorites_collected"] == 0


@covers(25)
def test_meteor_defense_destroys_up_to_three_of_the_players_choice(rules):
    met = [(5, 5), (6, 5), (7, 5), (8, 5)]
    game = drawn(rules, {c: "c" for c in met}, meteorites=met)
    take(game, rules, 25)
    for _ in range(3):
        assert game.decision == "meteorite"
        assert DONE in game.legal_moves()
        game.apply(game.legal_moves()[0])
    assert game.player(0)["meteorites_destroyed"] == 3
    assert len(squares(game.player(0)["meteorite"])) == 1


@covers(21)
def test_unionization_raises_every_lower_tracker_to_5_without_synergies(rules):
    # cards.md A10: milestones and movement claimed, synergy boosts not
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 7, "water": 4, "biomass": 1, "rover": 0, "tech": 2})
    take(game, rules, 21)
    seen = []
    while game.decision in ("track", "order", "patch", "rover_place", "rover_step",
                            "civ_pick"):  # fmt: skip
        seen.append(game.decision)
        moves = game.legal_moves()
        game.apply(DONE if DONE in moves else moves[0])
    assert game.tracks(0) == {"civ": 7, "water": 5, "biomass": 5, "rover": 5, "tech": 5}
    assert "synergy" not in seen
    assert game.player(0)["tech_level"] == 2


# ---- end-of-game cards ---------------------------------------------------------------


def finish(game: ScenarioGame) -> dict:
    game.start_stage("end_effects")
    while game.decision is not None:
        moves = game.legal_moves()
        game.apply(DONE if DONE in moves else moves[0])
    return game.scores()[0]


@covers(6, 7, 8, 9, 15, 20, 27)
@pytest.mark.parametrize(
    ("card", "medals"), [(6, 1), (7, 2), (8, 1), (9, 2), (15, 2), (20, 3), (27, 4)]
)
def test_medal_cards(rules, card, medals):
    game = drawn(rules, {(5, 5): "c"})
    game.give_cards(0, card)
    assert finish(game)["score_civ"] == medals


@covers(22)
def test_sustainable_living_act_scores_patches_on_the_planet(rules):
    game = drawn(rules, {(5, 5): "p", (6, 5): "p", (7, 5): "c"})
    game.give_cards(0, 22)
    assert finish(game)["score_civ"] == 2


@covers(23, 24)
@pytest.mark.parametrize(("card", "medals"), [(23, 2), (24, 3)])
def test_gaming_commission_and_planet_lottery_advance_at_the_end(rules, card, medals):
    # designer FAQ Q4: the advance happens in the end phase, with its benefit; a
    # civ milestone reached there gives another pick (rules.md 14.14)
    game = drawn(rules, {(5, 5): "c"})
    game.give_cards(0, card)
    game.set_tracks(0, {"civ": 13})
    game.state.set_pile(4, [27])
    game.start_stage("end_effects")
    assert game.decision == "track"
    game.apply(CIV)
    assert game.decision == "civ_pick" and game.legal_moves() == [27]
    game.apply(27)
    while game.decision is not None:
        game.apply(game.legal_moves()[0])
    score = game.scores()[0]
    assert game.tracks(0)["civ"] == 14
    assert score["score_civ"] == medals + 4


@covers(28)
def test_space_citizen_decree_adds_a_medal_per_collected_lifepod(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.give_cards(0, 28)
    game.state.set_player_int(0, "lifepods_collected", 3)
    score = finish(game)
    assert (score["score_lifepods"], score["score_civ"]) == (3, 3)


@covers(28)
@pytest.mark.parametrize(
    ("counts", "medals"), [("scoring_lifepods", 1), ("all_collected", 3)]
)
def test_space_citizen_decree_counts_pods_off_the_scoring_area_only_under_bga(
    rules, counts, medals
):
    # cards-D5: of 3 collected lifepods, 2 sit on (Cosmos) tracks, 1 scores
    game = drawn(
        rules, {(5, 5): "c"}, options=RuleOptions(space_citizen_decree_counts=counts)
    )
    game.give_cards(0, 28)
    game.state.set_player_int(0, "lifepods_collected", 3)
    game.state.set_player_int(0, "pods_on_tracks", 2)
    score = finish(game)
    assert (score["score_lifepods"], score["score_civ"]) == (1, medals)


@covers(29, 30, 31, 32)
@pytest.mark.parametrize(
    ("cards", "bonus"), [((29,), 2), ((29, 30), 4), ((29, 30, 31, 32), 8)]
)
def test_meteorite_repo_improves_the_meteorite_ratio(rules, cards, bonus):
    # 7 meteorites = 2 sets: 1 per set normally, (1 + N) with N repo cards
    game = drawn(rules, {(5, 5): "c"})
    game.give_cards(0, *cards)
    game.state.set_player_int(0, "meteorites_collected", 7)
    score = finish(game)
    assert score["score_meteorites"] == 2
    assert score["score_civ"] == bonus


@covers(33, 34, 35, 36)
@pytest.mark.parametrize(
    ("cards", "medals"),
    [((33,), 1), ((33, 34), 3), ((33, 34, 35), 6), ((33, 34, 35, 36), 10)],
)
def test_commerce_agreement_set(rules, cards, medals):
    game = drawn(rules, {(5, 5): "c"})
    game.give_cards(0, *cards)
    assert finish(game)["score_civ"] == medals


def test_every_civ_card_is_covered_by_a_test(rules):
    assert {c.id for c in rules.data.civ_cards} == COVERED


# ---- options -------------------------------------------------------------------------


def test_on_milestone_timing_picks_inside_the_players_turn(rules):
    # rules.md 13.6 option "on_milestone": the rulebook's track wording
    game = drawn(
        rules, {(5, 5): "c"}, options=RuleOptions(civ_pick_timing="on_milestone")
    )
    game.set_tracks(0, {"civ": 2})
    game.state.set_pile(1, [3, 6])
    game.give(0, ("advance", CIV, 1, 0))
    assert game.decision == "civ_pick"  # at once, not in the civ step
    game.apply(3)  # Dept of Natural Resources: its patch resolves in the same turn
    assert game.decision == "patch"
    assert game.player(0)["owed"] == []


@pytest.mark.parametrize(("choice", "first"), [("final_round", 1), ("next_player", 0)])
def test_end_phase_picks_start_with_the_final_rounds_commander_or_bga(
    rules, choice, first
):
    # rules.md 14.27: a contested last card in the end phase

    game = drawn(rules, {(5, 5): "c"}, players=2,
                 options=RuleOptions(end_phase_pick_commander=choice))  # fmt: skip
    game.state.set_game_int("commander", 1)
    game.state.set_game_int("last_round", 1)
    game.state.set_pile(4, [27])
    game.state.owe_pick(0, 4)
    game.state.owe_pick(1, 4)
    game.start_stage("end_round")
    assert (game.decision, game.decider) == ("civ_pick", first)
