"""Jump Drive (corporations.md 3.5): techs A-F bought with lifepods; falling tech medals."""

from __future__ import annotations

import pytest

from pu_sim.engine.core import constants
from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    place_move,
    step_move,
    tile_id,
)

DONE = 0xFFFF
CONST = constants()
AREA, SLOT, TWICE = CONST["POD_AREA"], CONST["POD_SLOT"], CONST["SYNERGY_TWICE"]
CIV, WATER, BIOMASS, ROVER, TECH = range(5)


def jump(
    rules, covered=None, *, techs=(), lifepods=(), players=1, options=None
) -> ScenarioGame:
    """A Jump Drive game (seat 0) whose lifepods already unlocked `techs` (1-6)."""
    corps = ["jump_drive"] + ["universal_coalition"] * (players - 1)
    game = ScenarioGame(players=players, corporations=corps, bots="random", seed=0,
                options=options)  # fmt: skip
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for (x, y), ch in (covered or {}).items():
        rows[y][x] = ch
    spots = [(x, 5) for x in range(len(techs))] + list(lifepods)
    for x, y in spots:
        rows[y][x] = "o"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    for level in techs:
        game.give(0, ("lifepod", 1, 0, 0))
        if game.decision == "lifepod":
            game.apply(game.legal_moves()[0])
        game.apply(SLOT + level)
    return game


def test_the_tech_track_has_no_milestones_and_falling_medals(rules):
    corp = next(c for c in rules.data.corporations if c.key == "jump_drive")
    tech = corp.tracks["tech"]
    assert not any(sp.tech_level for sp in tech.spaces)
    assert tech.score_by_position == (0, 5, 5, 5, 5, 5, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1)
    game = jump(rules)
    game.set_tracks(0, {"tech": 15})
    assert not any(game.state.has_tech(0, level) for level in range(1, 7))


def test_a_collected_lifepod_may_unlock_any_locked_tech_for_good(rules):
    game = jump(rules, lifepods=[(0, 5)])
    game.give(0, ("lifepod", 1, 0, 0))
    assert game.decision == "pod_place"
    assert set(game.legal_moves()) == {AREA} | {SLOT + level for level in range(1, 7)}
    game.apply(SLOT + 3)
    info = game.player(0)
    assert game.state.has_tech(0, 3) and info["pods_on_slots"] == 1
    assert info["tech_level"] == 1
    game.start_stage("score")
    assert game.player(0)["score_lifepods"] == 0  # it no longer scores


def test_tech_a_a_patch_may_become_a_synergy_once_a_round(rules):
    game = jump(rules, {(5, 5): "c"}, techs=[1])
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "yes_no"
    game.apply(1)
    assert game.decision == "synergy"
    game.apply(game.legal_moves()[0])
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch"  # used this round


def test_tech_b_jumps_to_a_tile_square_of_the_same_terrain(rules):
    covered = {(2, 5): "c", (3, 5): "e", (9, 5): "c", (9, 4): "p", (8, 5): "w"}
    game = jump(rules, covered, techs=[2])
    game.set_rovers(0, [(2, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 2)
    game.give(0)
    moves = set(game.legal_moves())
    assert step_move(0, 9, 5) in moves  # civ to civ
    assert step_move(0, 8, 5) not in moves  # water
    game.apply(step_move(0, 9, 5))
    assert game.player(0)["used_round"] == 1 << 2
    assert not any(
        m != DONE and abs((m & 0xFF) % 12 - 9) + abs((m & 0xFF) // 12 - 5) > 1
        for m in game.legal_moves()
    )  # no second jump this round


def test_tech_c_a_synergy_may_advance_twice_once_a_round(rules):
    game = jump(rules, techs=[3])
    game.give(0, ("synergy", 0, 0, 0))
    assert game.decision == "synergy"
    assert (WATER | TWICE) in game.legal_moves()
    assert game.describe(WATER | TWICE) == "advance water twice"
    game.apply(WATER | TWICE)
    assert game.player(0)["track"][WATER] == 2
    game.give(0, ("synergy", 0, 0, 0))
    assert not any(m & TWICE for m in game.legal_moves())


@pytest.mark.parametrize("card", [81, 84, 117, 118])
@pytest.mark.parametrize(
    ("event_boosts", "steps"),
    [(True, 2), (False, 1)],  # the default (card text), BGA's value (corp-J7)
)
def test_tech_c_and_an_event_card_s_synergy_boost(rules, card, event_boosts, steps):
    options = RuleOptions(jump_drive_tech_c_event_boosts=event_boosts)
    assert RuleOptions.bga().jump_drive_tech_c_event_boosts is False
    game = jump(rules, techs=[3], options=options)
    game.reveal_event(card)
    if game.decision == "choose_one":  # 117/118: the boost, not the peek
        game.apply(0)
    assert game.decision == "synergy"
    assert ((WATER | TWICE) in game.legal_moves()) == event_boosts
    game.apply(WATER | TWICE if event_boosts else WATER)
    assert game.player(0)["track"][WATER] == steps
    # with BGA's value the event's boost leaves the round's tech C unused
    game.give(0, ("synergy", 0, 0, 0))
    assert any(m & TWICE for m in game.legal_moves()) != event_boosts


def energy_mask(game: ScenarioGame) -> int:
    if game.decision == "energy":
        return game.fields()["item"][1]
    return next(a for kind, a, *_ in game.player(0)["items"] if kind == "energy")


def test_tech_d_tech_terrain_acts_as_energy(rules):
    # the tech square (6, 5) touches energy (7, 5), which touches rover (8, 5)
    covered = {(5, 5): "c", (7, 5): "e", (8, 5): "r"}
    tile = tile_id(rules, "domino", "tech", "biomass")
    for option, expected in (
        ("optional_area", {TECH, BIOMASS, ROVER, CIV}),
        ("mandatory_per_square", {BIOMASS, CIV}),
    ):
        game = jump(rules, covered, techs=[4],
                    options=RuleOptions(jump_drive_tech_d=option))  # fmt: skip
        o, x, y = find_placement(rules, tile, [(6, 5), (6, 4)], part_a=[(6, 5)])
        game.set_depot(0, tile, None)
        game.start_draft(0)
        game.apply(place_move(0, o, x, y))
        mask = energy_mask(game)
        assert {t for t in range(5) if mask >> t & 1} == expected, option


def test_tech_e_claims_a_whole_row_once_a_game(rules):
    game = jump(rules, techs=[5])
    game.set_tracks(0, {"civ": 3, "water": 6, "biomass": 6, "rover": 6})
    game.set_rovers(0, [], in_supply=1)
    game.give(0)
    assert game.decision == "power" and 5 in game.legal_moves()
    game.apply(5)
    assert game.decision == "track"
    # row 6: the civ:2 milestone, a water medal (not a benefit), a patch, 2 rover
    # movement (Jump Drive's rover track), a tech medal
    game.apply(WATER)
    info = game.player(0)
    assert info["owed"] == [2]
    assert game.decision == "patch" and info["move_budget"] == 2
    assert info["track"] == [3, 6, 6, 6, 0]  # nobody moved
    assert info["used_game"] == 1 << 5


def test_tech_f_a_contested_objective_for_everybody(rules):
    game = jump(rules, techs=[6], players=2)
    undealt = game.fields()["objective_deck"]  # card ids, next to draw first
    game.give(0)
    assert game.decision == "power" and 6 in game.legal_moves()
    game.apply(6)
    assert game.decision == "keep_objective"
    cards = [37 + m for m in game.legal_moves()]  # moves are card indices
    assert cards == undealt[:3]
    game.apply(cards[1] - 37)
    assert game.player(0)["extra_objective"] == cards[1]
    game.start_stage("score")
    # independent scoring: the three neighbour cards between the two players, then
    # the contested card (5 to the best alone, 2 each on a tie)
    expected = [0, 0]
    for card in [*game.fields()["neighbour_objectives"], cards[1]]:
        side = next(o for o in rules.data.objectives if o.id == card).neighbour
        m = [game.state.objective_value(p, card, "neighbour") for p in range(2)]
        if side.better == "lower":
            m = [-v for v in m]
        if m[0] == m[1]:
            expected = [e + 2 for e in expected]
        else:
            expected[m.index(max(m))] += 5
    assert [game.player(p)["score_neighbour"] for p in range(2)] == expected
