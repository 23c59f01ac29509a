"""Horizon Group (corporations.md 3.4): pick up and deliver meteorites; techs 1-5."""

from __future__ import annotations

from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    place_move,
    placement_cells,
    square_move,
    step_move,
    tile_id,
)

DONE = 0xFFFF
TECH_AT = {1: 3, 2: 5, 3: 7, 4: 10, 5: 14}  # standard tech track milestones


def horizon(
    rules,
    covered: dict[tuple[int, int], str],
    *,
    meteorites=(),
    lifepods=(),
    tech: int = 0,
    last_tile=(),
) -> ScenarioGame:
    """A solo Horizon game on KSB-4156 with exactly these squares covered."""
    game = ScenarioGame(players=1, corporations="horizon_group", bots="random", seed=0)
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for (x, y), ch in covered.items():
        rows[y][x] = ch
    for x, y in lifepods:
        rows[y][x] = "o"
    game.set_planet(
        0,
        "\n".join("".join(r) for r in rows),
        meteorites=meteorites,
        last_tile=last_tile,
    )
    game.set_tracks(0, {"tech": TECH_AT[tech] if tech else 0})
    return game


def meteorite_squares(game: ScenarioGame) -> set[tuple[int, int]]:
    rows = game.player(0)["meteorite"]
    return {(x, y) for y in range(12) for x in range(12) if rows[y] >> x & 1}


def moving(game: ScenarioGame, rovers, budget: int) -> None:
    game.set_rovers(0, rovers, in_supply=0)
    game.state.set_player_int(0, "move_budget", budget)
    game.give(0)


# ---- the board --------------------------------------------------------------------------


def test_four_rovers_and_the_horizon_rover_track(rules):
    game = ScenarioGame(players=1, corporations="horizon_group", bots="random", seed=0)
    assert sum(1 for st, _, _ in game.player(0)["rovers"] if st == 1) == 4
    corp = next(c for c in rules.data.corporations if c.key == "horizon_group")
    rover = corp.tracks["rover"]
    assert [i for i, sp in enumerate(rover.spaces) if sp.rover] == [1, 3, 6, 9]
    assert [sp.move for sp in rover.spaces[2:]] == [
        2,
        2,
        2,
        3,
        3,
        3,
        4,
        4,
        4,
        4,
        5,
        5,
        5,
        5,
    ]
    assert rover.beyond_top.move == 5


# ---- pick up and deliver ---------------------------------------------------------------


def test_a_rover_picks_a_meteorite_up_and_carries_it(rules):
    row = {(x, 5): "c" for x in range(3, 8)}
    game = horizon(rules, row, meteorites=[(4, 5)])
    moving(game, [(3, 5)], 2)
    game.apply(step_move(0, 4, 5))  # onto the meteorite: picked up, not collected
    assert meteorite_squares(game) == {(4, 5)}
    assert game.player(0)["meteorites_collected"] == 0
    game.apply(step_move(0, 5, 5))  # it travels along
    assert meteorite_squares(game) == {(5, 5)}
    assert game.player(0)["meteorites_collected"] == 0


def test_a_carried_meteorite_is_delivered_on_a_rover_icon(rules):
    # (6, 5) shows a rover resource icon ("R"); (5, 5) is rover terrain without one
    covered = {(3, 5): "c", (4, 5): "c", (5, 5): "r", (6, 5): "R"}
    game = horizon(rules, covered, meteorites=[(4, 5)])
    moving(game, [(3, 5)], 3)
    game.apply(step_move(0, 4, 5))
    game.apply(step_move(0, 5, 5))
    assert game.player(0)["meteorites_collected"] == 0  # no icon: still carried
    game.apply(step_move(0, 6, 5))
    assert game.player(0)["meteorites_collected"] == 1
    assert meteorite_squares(game) == set()


def test_a_carrying_rover_swaps_meteorites_h2(rules):
    row = {(x, 5): "c" for x in range(3, 8)}
    game = horizon(rules, row, meteorites=[(4, 5), (6, 5)])
    moving(game, [(3, 5)], 3)
    game.apply(step_move(0, 4, 5))
    game.apply(step_move(0, 5, 5))  # carrying the first one to (5, 5)
    game.apply(step_move(0, 6, 5))  # the second one: the first stays behind
    assert meteorite_squares(game) == {(5, 5), (6, 5)}
    assert game.player(0)["meteorites_collected"] == 0


def test_a_rover_set_down_on_a_meteorite_on_a_rover_icon_collects_it_h3(rules):
    tile = [(5, 5), (6, 5)]
    game = horizon(
        rules, {(5, 5): "R", (6, 5): "t"}, meteorites=[(5, 5)], last_tile=tile
    )
    game.give(0, ("rover", 0, 0, 0))
    assert game.decision == "rover_place"
    game.apply(square_move(5, 5))
    assert game.player(0)["meteorites_collected"] == 1


def test_lifepods_are_collected_as_usual(rules):
    game = horizon(rules, {(3, 5): "c"}, lifepods=[(4, 5)])
    moving(game, [(3, 5)], 1)
    game.apply(step_move(0, 4, 5))
    assert game.player(0)["lifepods_collected"] == 1


def test_a_card_collects_a_meteorite_directly_h1(rules):
    game = horizon(rules, {(3, 5): "c"}, meteorites=[(3, 5)])
    game.give(0, ("collect_meteorite", 1, 0, 0))
    assert game.player(0)["meteorites_collected"] == 1


def test_a_carried_meteorite_blocks_its_current_line_and_is_not_collected_at_the_end(
    rules,
):
    row = {c: "c" for c in game_row(rules, 5)}
    game = horizon(rules, row, meteorites=[(4, 5)])
    moving(game, [(3, 5)], 2)
    game.apply(step_move(0, 4, 5))
    game.apply(step_move(0, 4, 4))  # carried off row 5 onto (uncovered) row 4
    game.start_stage("score")
    result = game.player(0)
    assert result["rows_complete"] == 1 and result["score_planet"] == 3  # row 5 scores
    assert result["meteorites_collected"] == 0 and result["meteorites_left"] == 1


def game_row(rules, y: int) -> list[tuple[int, int]]:
    return [c for c in rules.data.planets[0].grid_squares if c[1] == y]


def test_a_tile_over_a_carried_meteorite_keeps_it_on_top_h5(rules):
    # the rover carried a meteorite onto uncovered (6, 5); a tile covers that square
    game = horizon(rules, {(5, 5): "c"}, meteorites=[(6, 5)])
    game.set_rovers(0, [(6, 5)], in_supply=3)
    tile = tile_id(rules, "domino", "civ", "energy", meteor=True)
    o, x, y = find_placement(rules, tile, [(6, 5), (7, 5)])
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    info = game.player(0)
    assert info["rovers_lost"] == 1
    placed = info["meteorites_placed"]
    left = len(meteorite_squares(game))
    # nothing vanished: every meteorite is on the planet, counted once
    assert (
        placed - info["meteorites_collected"] - info["meteorites_destroyed"] == left - 1
    )


# ---- techs -------------------------------------------------------------------------------


def test_tech_1_rover_tiles_skip_adjacency_only(rules):
    game = horizon(rules, {(5, 5): "c"}, tech=1)
    rover_tile = tile_id(rules, "domino", "water", "rover")
    other = tile_id(rules, "domino", "civ", "energy")
    far = [(8, 3), (8, 4)]  # interior squares, not touching (5, 5)
    o, x, y = find_placement(rules, rover_tile, far)
    assert (o, x, y) in game.state.placements(0, rover_tile)
    o, x, y = find_placement(rules, other, far)
    assert (o, x, y) not in game.state.placements(0, other)
    # without the tech, adjacency holds for rover tiles too
    plain = horizon(rules, {(5, 5): "c"})
    o, x, y = find_placement(rules, rover_tile, far)
    assert (o, x, y) not in plain.state.placements(0, rover_tile)
    # the first tile still touches the edge (only adjacency is lifted)
    first = horizon(rules, {}, tech=1)
    assert (o, x, y) not in first.state.placements(0, rover_tile)


def test_tech_1_bga_scope_still_keeps_rover_tiles_on_the_grid_and_off_covered_squares(
    rules,
):
    # horizon_tech1_scope="all_checks" (BGA): every other check is lifted, not these
    game = ScenarioGame(players=1, corporations="horizon_group", bots="random", seed=0,
                        options=RuleOptions(horizon_tech1_scope="all_checks"))  # fmt: skip
    covered = {(8, 4), (2, 7), (5, 5)}
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for x, y in covered:
        rows[y][x] = "c"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    game.set_tracks(0, {"tech": 3})
    planet = game.planet_of(0)
    for shape in ("domino", "N-5", "T-4"):
        tile = tile_id(rules, shape, "water", "rover")
        placements = game.state.placements(0, tile)
        assert placements
        for o, x, y in placements:
            cells = placement_cells(rules, tile, o, x, y)
            assert all(planet.is_grid(*c) for c in cells) and not covered & set(cells)


def test_tech_2_round_start_movement_per_carrying_rover(rules):
    row = {(x, 5): "c" for x in range(2, 9)}
    game = horizon(rules, row, meteorites=[(3, 5), (6, 5)], tech=2)
    game.set_rovers(0, [(3, 5), (6, 5), (8, 5)], in_supply=1)  # two of them carry
    game.start_stage("check")  # the tile phase begins: round-start techs
    assert game.player(0)["round_move"] == 2


def test_tech_3_each_collected_meteorite_gives_a_patch(rules):
    game = horizon(rules, {(3, 5): "c", (4, 5): "R"}, meteorites=[(3, 5)], tech=3)
    moving(game, [(2, 5)], 2)
    game.apply(step_move(0, 3, 5))
    game.apply(step_move(0, 4, 5))  # delivered
    assert game.player(0)["meteorites_collected"] == 1
    assert game.decision == "patch" and game.player(0)["items"] == []


def test_tech_4_a_meteorite_carried_onto_water_may_be_destroyed(rules):
    covered = {(3, 5): "c", (4, 5): "w", (5, 5): "w"}
    for answer, destroyed in ((1, 1), (0, 0)):
        game = horizon(rules, covered, meteorites=[(3, 5)], tech=4)
        moving(game, [(2, 5)], 3)
        game.apply(step_move(0, 3, 5))  # picked up on civ terrain: no question
        assert game.decision == "rover_step"
        game.apply(step_move(0, 4, 5))  # brought onto water
        assert game.decision == "yes_no"
        game.apply(answer)
        assert game.player(0)["meteorites_destroyed"] == destroyed
        assert len(meteorite_squares(game)) == 1 - destroyed


def test_tech_5_advances_the_rover_tracker_once_per_round(rules):
    game = horizon(rules, {(5, 5): "c"}, tech=5)
    game.set_tracks(0, {"rover": 4})
    game.set_rovers(0, [(5, 5)], in_supply=3)
    game.give(0)
    assert game.decision == "power"
    assert sorted(game.legal_moves()) == [5, DONE]
    game.apply(5)
    info = game.player(0)
    assert info["track"][3] == 5
    assert info["move_budget"] == 3  # Horizon rover space 5: move 3
    assert game.decision == "rover_step"
    game.apply(DONE)
    assert game.decision != "power"  # used this round
    game.start_round()
    assert game.player(0)["used_round"] == 0


def test_tech_1_bga_scope_skips_every_check_but_grid_and_overlap(rules):
    from pu_sim.rules import RuleOptions

    game = ScenarioGame(
        players=1, corporations="horizon_group", planets="arashi", bots="random",
        options=RuleOptions(horizon_tech1_scope="all_checks"),
    )  # fmt: skip
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    rows[2][5] = "c"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    game.set_tracks(0, {"tech": TECH_AT[1]})
    rover_tile = tile_id(rules, "domino", "water", "rover")
    ring_only = [(5, 5), (6, 5)]  # all on Arashi's ring, far from (5, 2)
    o, x, y = find_placement(rules, rover_tile, ring_only)
    assert (o, x, y) in game.state.placements(0, rover_tile)
    game.state.set_game_int("options", 0)  # the rulebook scope: ring rule holds
    assert (o, x, y) not in game.state.placements(0, rover_tile)


def test_once_per_round_powers_come_back_in_bga_phases(rules):
    from pu_sim.rules import RuleOptions

    for reset, used_after_draft in (("round_start", 1 << 5), ("bga_phases", 0)):
        game = ScenarioGame(
            players=1, corporations="horizon_group", bots="random",
            options=RuleOptions(once_per_round_reset=reset),
        )  # fmt: skip
        game.set_tracks(0, {"tech": TECH_AT[5]})
        game.state.owe_pick(0, 1)  # so that the civ step stops for a decision
        game.start_draft(0)
        game.state.set_player_int(0, "used_round", 1 << 5)  # tech 5 used this round
        while game.decision != "civ_pick":
            game.step()
        assert game.player(0)["used_round"] == used_after_draft
