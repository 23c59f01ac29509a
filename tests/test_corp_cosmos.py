"""Cosmos Inc. (corporations.md 3.2): lifepods on tracks, jumped by trackers; techs 1-5."""

from __future__ import annotations

from pu_sim.engine.core import constants, policy_offsets
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    marked_drawing,
    place_move,
    step_move,
    tile_id,
)

DONE = 0xFFFF
AREA = constants()["POD_AREA"]
TECH_AT = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}
CIV, WATER, BIOMASS, ROVER, TECH = range(5)


def loc(track: int, pos: int) -> int:
    return track * 16 + pos


def cosmos(
    rules, covered=None, *, tech: int = 0, lifepods=(), planet="ksb_4156", bots="random"
) -> ScenarioGame:
    game = ScenarioGame(
        players=1, corporations="cosmos_inc", planets=planet, bots=bots, seed=0
    )
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for (x, y), ch in (covered or {}).items():
        rows[y][x] = ch
    for x, y in lifepods:
        rows[y][x] = "o"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    game.set_tracks(0, {"tech": TECH_AT[tech] if tech else 0})
    return game


def collect_onto(game: ScenarioGame, where: int) -> None:
    """Collect one lifepod by a card and put it at `where`."""
    game.give(0, ("lifepod", 1, 0, 0))
    if game.decision == "lifepod":  # which lifepod of the planet: any
        game.apply(game.legal_moves()[0])
    assert game.decision == "pod_place"
    game.apply(where)


def with_pods(rules, pods: list[int], **kw) -> ScenarioGame:
    """A Cosmos game with collected lifepods at these places."""
    spots = [(x, 5) for x in range(len(pods))]
    game = cosmos(rules, lifepods=spots, **kw)
    for where in pods:
        collect_onto(game, where)
    return game


def track(game: ScenarioGame, t: int) -> int:
    return game.player(0)["track"][t]


# ---- where a collected lifepod goes ----------------------------------------------------


def test_a_collected_lifepod_may_go_onto_any_free_track_space(rules):
    game = cosmos(rules, lifepods=[(0, 5)])
    game.set_tracks(0, {"civ": 4})
    game.give(0, ("lifepod", 1, 0, 0))
    assert game.decision == "pod_place"
    moves = set(game.legal_moves())
    assert AREA in moves
    assert loc(CIV, 4) not in moves  # the tracker's space (C1)
    assert all(loc(t, 15) not in moves for t in range(5))  # never a top space
    assert loc(CIV, 0) in moves and loc(CIV, 5) in moves  # below or above the tracker
    assert len(moves) == 5 * 15 - 5 + 1  # five trackers' spaces, plus the area
    game.apply(loc(BIOMASS, 2))
    info = game.player(0)
    assert info["lifepods_collected"] == 1 and info["pods_on_tracks"] == 1


def test_a_tracker_jumps_a_lifepod_and_claims_only_the_landing_space(rules):
    # rulebook example: the biomass tracker jumps a lifepod on a synergy space
    game = with_pods(rules, [loc(BIOMASS, 2)])
    game.set_tracks(0, {"biomass": 1})
    game.give(0, ("advance", BIOMASS, 1, 0))
    assert track(game, BIOMASS) == 3
    assert game.decision == "patch"  # index 3's patch, not index 2's synergy


def test_several_lifepods_in_a_row_are_jumped_in_one_advance(rules):
    game = with_pods(rules, [loc(CIV, 1), loc(CIV, 2), loc(CIV, 3)])
    game.give(0, ("advance", CIV, 1, 0))
    assert track(game, CIV) == 4


def test_covered_medals_are_skipped_at_scoring(rules):
    game = with_pods(rules, [loc(CIV, 5)])  # civ index 5: medal 2
    game.set_tracks(0, {"civ": 6})
    game.start_stage("score")
    info = game.player(0)
    assert info["score_tracks"] == 1  # the next lower uncovered medal (index 2)
    assert info["score_lifepods"] == 0 and info["lifepods_collected"] == 1


def test_a_covered_tech_milestone_is_locked_c2(rules):
    game = with_pods(rules, [loc(TECH, 3)], tech=2)  # tech 1's milestone covered
    assert game.player(0)["tech_level"] == 2
    assert not game.state.has_tech(0, 1) and game.state.has_tech(0, 2)


def test_regressing_also_jumps_lifepods(rules):
    game = with_pods(rules, [loc(WATER, 3)])
    game.set_tracks(0, {"water": 4})
    game.give(0, ("regress", 1 << WATER, 1, 0))
    assert track(game, WATER) == 2


def test_event_114_lets_the_player_choose_which_collected_lifepod_is_lost(rules):
    game = with_pods(rules, [loc(CIV, 5), AREA])
    game.reveal_event(114)
    assert game.decision == "pod_destroy"
    assert set(game.legal_moves()) == {loc(CIV, 5), AREA}
    game.apply(loc(CIV, 5))
    info = game.player(0)
    assert info["pods_on_tracks"] == 0 and info["lifepods_collected"] == 1


# ---- techs ---------------------------------------------------------------------------------


def test_tech_1_diagonal_rover_moves(rules):
    game = cosmos(rules, {(5, 5): "c"}, tech=1)
    game.set_rovers(0, [(5, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    moves = set(game.legal_moves())
    assert {step_move(0, 6, 6), step_move(0, 4, 4), step_move(0, 6, 4)} <= moves
    plain = cosmos(rules, {(5, 5): "c"})
    plain.set_rovers(0, [(5, 5)], in_supply=0)
    plain.state.set_player_int(0, "move_budget", 1)
    plain.give(0)
    assert step_move(0, 6, 6) not in plain.legal_moves()


def test_tech_1_crosses_the_tartarus_chasm_only_at_its_faded_corners(rules):
    game = cosmos(rules, {(5, 3): "c"}, tech=1, planet="tartarus")
    game.set_rovers(0, [(5, 3)], in_supply=0)  # side A; (6, 4) is side B
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    moves = set(game.legal_moves())
    assert step_move(0, 6, 4) in moves  # the faded corner
    assert step_move(0, 6, 3) not in moves  # orthogonally across: never
    other = cosmos(rules, {(5, 2): "c"}, tech=1, planet="tartarus")
    other.set_rovers(0, [(5, 2)], in_supply=0)  # (6, 1) and (6, 3) are side B
    other.state.set_player_int(0, "move_budget", 1)
    other.give(0)
    assert step_move(0, 6, 3) not in other.legal_moves()


def test_tech_2_moves_up_to_three_lifepods_once_per_game(rules):
    game = with_pods(rules, [AREA, AREA, AREA, AREA], tech=2)
    game.give(0)
    assert game.decision == "power"
    game.apply(2)
    for step in range(3):
        assert game.decision == "pod_move"
        game.apply((AREA << 8) | loc(CIV, 5 + step))
    assert game.decision != "pod_move"
    assert game.player(0)["pods_on_tracks"] == 3
    game.give(0)
    assert game.decision != "power"  # spent for the game
    assert game.player(0)["used_game"] == 1 << 2


def test_tech_2_may_stop_early(rules):
    game = with_pods(rules, [AREA, AREA], tech=2)
    game.give(0)
    game.apply(2)
    game.apply((AREA << 8) | loc(CIV, 5))
    game.apply(DONE)
    assert game.player(0)["pods_on_tracks"] == 1


def test_tech_3_an_energy_tile_lets_a_lifepod_move(rules):
    game = with_pods(rules, [AREA], tech=3)
    game.set_planet(0, planet_text(game, {(5, 5): "c"}))
    energy_tile = tile_id(rules, "domino", "civ", "energy")
    o, x, y = find_placement(rules, energy_tile, [(6, 5), (7, 5)])
    game.set_depot(0, energy_tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    # the tile's two resources, then the lifepod move tech 3 adds
    assert game.decision == "order"
    assert game.player(0)["items"] == [
        ("advance", CIV, 1, 0), ("energy", 1 << CIV, 0, 0), ("pod_move", 1, 0, 0)
    ]  # fmt: skip


def planet_text(game: ScenarioGame, covered) -> str:
    return marked_drawing(game.planet_of(0), covered)


def test_tech_4_entering_energy_terrain_is_free(rules):
    game = cosmos(rules, {(5, 5): "c", (6, 5): "e", (7, 5): "e", (8, 5): "c"}, tech=4)
    game.set_rovers(0, [(5, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    game.apply(step_move(0, 6, 5))
    game.apply(step_move(0, 7, 5))
    assert game.player(0)["move_budget"] == 1
    game.apply(step_move(0, 8, 5))  # civ terrain: costs the point
    assert game.player(0)["move_budget"] == 0


def test_tech_5_moves_one_lifepod_once_per_round(rules):
    game = with_pods(rules, [loc(CIV, 2)], tech=5)
    game.give(0)
    assert game.decision == "power" and 5 in game.legal_moves()
    game.apply(5)
    assert game.decision == "pod_move"
    game.apply((loc(CIV, 2) << 8) | AREA)
    info = game.player(0)
    assert info["pods_on_tracks"] == 0 and info["used_round"] == 1 << 5
    # spent for the round: only the once-a-game tech 2 is still offered
    assert game.decision == "power" and game.legal_moves() == [2, DONE]


def test_only_scoring_area_lifepods_score(rules):
    game = with_pods(rules, [loc(CIV, 9), AREA, AREA])
    game.start_stage("score")
    info = game.player(0)
    assert info["score_lifepods"] == 2 and info["lifepods_collected"] == 3


# ---- the greedy bots' use of the techs ------------------------------------------------


def pods_behind(rules, bot: str, *, last_round: bool) -> ScenarioGame:
    """Cosmos at tech 2 played by `bot`, trackers at 8 with three lifepods behind
    them (passed: no medal or tech under them), offered its powers in round 19."""
    game = with_pods(rules, [loc(CIV, 1), loc(WATER, 1), loc(BIOMASS, 1)], tech=2,
                     bots=bot)  # fmt: skip
    game.set_tracks(0, {"civ": 8, "water": 8, "biomass": 8, "tech": TECH_AT[2]})
    game.state.set_game_int("round", 19)
    game.state.set_game_int("last_round", int(last_round))
    game.give(0)
    assert game.decision == "power" and 2 in game.legal_moves()
    assert game.player(0)["pods_on_tracks"] == 3
    return game


def test_greedy_bots_bring_lifepods_home_with_tech_2_in_the_last_round(rules):
    """Lifepods on tracks score nothing (3.2): in the known last round the
    greedy bots spend tech 2 moving all three back to the scoring area."""
    for bot in ("greedy", "greedy_tuned"):
        game = pods_behind(rules, bot, last_round=True)
        while game.decision in ("power", "pod_move"):
            game.apply(game.bot_move())
        assert game.player(0)["pods_on_tracks"] == 0, bot


def test_greedy_bots_keep_tech_2_when_no_lifepod_move_gains(rules):
    """With every lifepod already scoring, using the once-a-game power would
    waste it: the bot keeps it (a tie must not use it)."""
    for bot in ("greedy", "greedy_tuned"):
        game = with_pods(rules, [AREA, AREA], tech=2, bots=bot)
        game.state.set_game_int("last_round", 1)
        game.give(0)
        assert game.decision == "power" and 2 in game.legal_moves()
        assert game.bot_move() != 2, bot


# ---- what the policy bot's network reads of them ------------------------------------


def pods_entries(game: ScenarioGame) -> set[tuple[int, int, int]]:
    """The policy network's active entries of its lifepods table, as (track,
    tracker position, lifepods above the tracker) (core/bots/policy_net.pxi)."""
    c = constants()
    start = policy_offsets()["pods"]
    size = c["N_TRACKS"] * c["POL_POS"] * c["POL_AHEAD"] * c["POL_STAGES"]
    out = set()
    for i in game.state.policy_features(0)[1]:
        if start <= i < start + size:
            cell, _stage = divmod(i - start, c["POL_STAGES"])
            cell, ahead = divmod(cell, c["POL_AHEAD"])
            out.add((*divmod(cell, c["POL_POS"]), ahead))
    return out


def test_the_policy_network_sees_the_lifepods_each_tracker_will_jump(rules):
    game = with_pods(rules, [loc(CIV, 5), loc(CIV, 7), loc(WATER, 2), AREA])
    game.set_tracks(0, {"civ": 6, "water": 1})
    # civ: one lifepod above the tracker (the one below is jumped no more);
    # water: one; the other tracks and the scoring area's lifepod: none
    assert pods_entries(game) == {(CIV, 6, 1), (WATER, 1, 1)}
    game.set_tracks(0, {"civ": 0, "water": 3})
    assert pods_entries(game) == {(CIV, 0, 2)}
    many = with_pods(rules, [loc(ROVER, p) for p in (2, 4, 6, 8, 10)])
    assert pods_entries(many) == {(ROVER, 0, 3)}  # three or more
    assert pods_entries(cosmos(rules)) == set()
