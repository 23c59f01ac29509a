"""Republic (corporations.md 3.8): seven civ milestones, a step back for each; techs 1-5."""

from __future__ import annotations

import pytest

from pu_sim.rules.gamedata import TRACKS
from pu_sim.testing import (
    ScenarioGame,
    find_placement,
    marked_drawing,
    place_move,
    step_move,
    tile_id,
)

DONE = 0xFFFF
TECH_AT = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}
CIV, WATER, BIOMASS, ROVER, TECH = range(5)


def republic(rules, covered=None, *, tech: int = 0, players: int = 1) -> ScenarioGame:
    game = ScenarioGame(
        players=players,
        corporations=["republic"] + ["universal_coalition"] * (players - 1),
        bots="random",
        seed=0,
    )
    game.set_planet(0, marked_drawing(game.planet_of(0), covered))
    game.set_tracks(0, {"tech": TECH_AT[tech] if tech else 0})
    return game


def tracks(game: ScenarioGame) -> dict[str, int]:
    return dict(zip(TRACKS, game.player(0)["track"], strict=True))


def test_the_republic_civ_track(rules):
    corp = next(c for c in rules.data.corporations if c.key == "republic")
    civ = corp.tracks["civ"]
    ranks = {i: sp.civ_rank for i, sp in enumerate(civ.spaces) if sp.civ_rank}
    assert ranks == {2: 1, 4: 2, 6: 2, 8: 3, 10: 3, 12: 4, 14: 4}
    assert {i: sp.medal for i, sp in enumerate(civ.spaces) if sp.medal} == {15: 5}
    assert not any(sp.synergy for sp in civ.spaces)
    assert corp.rovers == 1


def test_a_civ_milestone_costs_a_step_of_another_tracker(rules):
    game = republic(rules)
    game.set_tracks(0, {"civ": 1, "water": 3, "biomass": 2, "rover": 0, "tech": 0})
    game.give(0, ("advance", CIV, 1, 0))  # onto civ index 2: rank-1 milestone
    assert game.decision == "regress"
    assert sorted(game.legal_moves()) == [WATER, BIOMASS]  # trackers on 0 cannot
    game.apply(WATER)
    assert tracks(game)["water"] == 2 and tracks(game)["civ"] == 2
    assert game.player(0)["owed"] == [1]  # the card itself waits for the civ step


def test_a_single_candidate_regresses_without_a_question_and_none_means_nothing(rules):
    game = republic(rules)
    game.set_tracks(0, {"civ": 1, "rover": 4})
    game.give(0, ("advance", CIV, 1, 0))
    assert tracks(game)["rover"] == 3
    bare = republic(rules)
    bare.set_tracks(0, {"civ": 1})
    bare.give(0, ("advance", CIV, 1, 0))
    assert tracks(bare)["civ"] == 2 and bare.player(0)["owed"] == [1]


def test_regressing_below_a_tech_milestone_locks_it(rules):
    game = republic(rules, tech=1)
    game.set_tracks(0, {"civ": 1})
    assert game.player(0)["tech_level"] == 1
    game.give(0, ("advance", CIV, 1, 0))  # only tech can step back: 3 -> 2
    assert tracks(game)["tech"] == 2 and game.player(0)["tech_level"] == 0


# ---- tech 1 -------------------------------------------------------------------------------


def civ_draft(rules, tech: int = 1) -> tuple[ScenarioGame, int, int]:
    game = republic(rules, {(5, 5): "c"}, tech=tech)
    civ_tile = tile_id(rules, "domino", "civ", "energy")
    other = tile_id(rules, "S-5", "rover", "tech")
    game.set_depot(0, civ_tile, other)
    game.set_tracks(0, {"rover": 5})  # rover space 5: move 2
    game.set_rovers(0, [(5, 5)], in_supply=0)
    return game, civ_tile, other


def test_tech_1_select_the_civ_tile_and_move_before_placing(rules):
    game, civ_tile, _ = civ_draft(rules)
    game.start_draft(0)
    assert game.decision == "yes_no"
    game.apply(1)
    assert game.player(0)["move_budget"] == 2
    assert game.decision == "rover_step"  # before any tile is placed
    game.apply(step_move(0, 5, 4))
    game.apply(DONE)
    assert game.decision == "place"
    slots = {m >> 12 for m in game.legal_moves()}
    assert slots == {0}  # only the civ tile now
    o, x, y = find_placement(rules, civ_tile, [(4, 5), (3, 5)])
    game.apply(place_move(0, o, x, y))
    assert game.player(0)["tiles_placed"] == 1


def test_tech_1_declined_still_gives_the_movement_for_a_civ_tile(rules):
    game, civ_tile, _ = civ_draft(rules)
    game.start_draft(0)
    game.apply(0)
    assert game.decision == "place"
    assert {m >> 12 for m in game.legal_moves()} == {0, 1}
    o, x, y = find_placement(rules, civ_tile, [(4, 5), (3, 5)])
    game.apply(place_move(0, o, x, y))
    assert game.player(0)["move_budget"] >= 2  # gained on taking the civ tile


def test_tech_1_nothing_for_a_non_civ_tile_or_without_the_tech(rules):
    game, _, other = civ_draft(rules)
    game.start_draft(0)
    game.apply(0)
    o, x, y = find_placement(rules, other, [(6, 5), (6, 4), (7, 4), (8, 4), (8, 3)])
    game.apply(place_move(1, o, x, y))
    assert game.player(0)["move_budget"] == 0
    plain, _, _ = civ_draft(rules, tech=0)
    plain.start_draft(0)
    assert plain.decision == "place"


# ---- tech 2 -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tech", "rank", "extra"), [(2, 1, True), (0, 1, False), (2, 4, False)]
)
def test_tech_2_adds_a_card_of_the_next_rank(rules, tech, rank, extra):
    game = republic(rules, tech=tech)
    piles = game.fields()["piles"]
    game.state.owe_pick(0, rank)
    game.start_stage("civ")
    assert game.decision == "civ_pick"
    moves = set(game.legal_moves())
    assert set(piles[rank - 1]) <= moves
    added = moves - set(piles[rank - 1])
    if not extra:
        assert not added
        return
    assert len(added) == 1 and added <= set(piles[rank])
    (card,) = added
    game.apply(card)
    after = game.fields()["piles"]
    assert card not in after[rank] and after[rank - 1] == piles[rank - 1]


# ---- tech 3 -------------------------------------------------------------------------------


def test_tech_3_jumps_between_civ_icons_for_one_movement(rules):
    covered = {(2, 5): "C", (3, 5): "e", (9, 5): "C", (8, 5): "c"}
    game = republic(rules, covered, tech=3)
    game.set_rovers(0, [(2, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    assert step_move(0, 9, 5) in game.legal_moves()
    assert step_move(0, 8, 5) not in game.legal_moves()  # civ terrain, no icon (R1)
    game.apply(step_move(0, 9, 5))
    assert game.player(0)["rovers"][0][1:] == (9, 5)
    assert game.player(0)["move_budget"] == 0
    off_icon = republic(rules, covered, tech=3)
    off_icon.set_rovers(0, [(3, 5)], in_supply=0)
    off_icon.state.set_player_int(0, "move_budget", 1)
    off_icon.give(0)
    assert step_move(0, 9, 5) not in off_icon.legal_moves()


# ---- tech 4 -------------------------------------------------------------------------------


def test_tech_4_a_civ_milestone_also_gives_a_synergy_boost(rules):
    game = republic(rules, tech=4)
    game.set_tracks(0, {"civ": 1})
    game.give(0, ("advance", CIV, 1, 0))
    # both join the pool: the step back (here only tech can go) and the boost
    assert game.decision == "order"
    kinds = sorted(kind for kind, *_ in game.player(0)["items"])
    assert kinds == ["regress", "synergy"]
    plain = republic(rules, tech=3)
    plain.set_tracks(0, {"civ": 1})
    plain.give(0, ("advance", CIV, 1, 0))
    assert tracks(plain)["tech"] == 6 and plain.player(0)["items"] == []


# ---- tech 5 -------------------------------------------------------------------------------


def test_tech_5_two_cards_from_every_pile_at_the_end(rules):
    game = republic(rules, tech=5)
    piles = game.fields()["piles"]
    every = {c for pile in piles for c in pile}
    game.start_stage("end_effects")
    assert game.decision == "civ_pick"
    assert set(game.legal_moves()) == every
    first = max(every)
    game.apply(first)
    while game.decision not in ("civ_pick", None):
        moves = game.legal_moves()
        game.apply(DONE if DONE in moves else moves[0])
    assert game.decision == "civ_pick"
    assert set(game.legal_moves()) == every - {first}


def test_tech_3_bga_option_jumps_between_civ_terrain(rules):
    from pu_sim.rules import RuleOptions

    covered = {(2, 5): "c", (3, 5): "e", (9, 5): "c"}
    game = ScenarioGame(players=1, corporations="republic", bots="random",
                options=RuleOptions(republic_tech3_squares="terrain"))  # fmt: skip
    game.set_planet(0, marked_drawing(game.planet_of(0), covered))
    game.set_tracks(0, {"tech": TECH_AT[3]})
    game.set_rovers(0, [(2, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    assert step_move(0, 9, 5) in game.legal_moves()
