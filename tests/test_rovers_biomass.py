"""Rovers (rules.md 8.7, 14.2, 14.3, 14.16, 14.25) and biomass patches (8.9, 14.8)."""

from __future__ import annotations

from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    place_move,
    square_move,
    step_move,
    tile_id,
)

DONE = 0xFFFF
STORE = 255


def drawn(
    rules, covered, *, meteorites=(), last_tile=(), lifepods=(), **kw
) -> ScenarioGame:
    """A solo game with exactly these squares covered (square -> terrain letter)."""
    game = ScenarioGame(players=1, bots="random", seed=0, **kw)
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for (x, y), ch in covered.items():
        rows[y][x] = ch
    for x, y in lifepods:
        rows[y][x] = "o"
    text = "\n".join("".join(r) for r in rows)
    game.set_planet(0, text, meteorites=meteorites, last_tile=last_tile)
    return game


def squares_of(rows: list[int]) -> set[tuple[int, int]]:
    return {(x, y) for y in range(12) for x in range(12) if rows[y] >> x & 1}


def rover_squares(game: ScenarioGame, p: int = 0) -> list[tuple[int, int]]:
    return [(x, y) for st, x, y in game.player(p)["rovers"] if st == 2]


# ---- RV-1 rover milestone ------------------------------------------------------------


def test_rover_milestone_puts_a_rover_on_the_last_placed_tile(rules):
    tile = tile_id(rules, "domino", "water", "rover")
    game = drawn(rules, {(5, 5): "c"})
    o, x, y = find_placement(rules, tile, [(6, 5), (7, 5)])
    game.set_depot(0, tile, None)
    game.start_draft(0)
    game.apply(place_move(0, o, x, y))
    # water is not on ice here, so the only pool item is the rover advance; the
    # rover track's space 1 is a rover milestone with two squares to choose from
    assert game.decision == "rover_place"
    assert sorted(game.legal_moves()) == [square_move(6, 5), square_move(7, 5)]
    game.apply(square_move(7, 5))
    assert rover_squares(game) == [(7, 5)]


def test_rover_placed_on_a_meteorite_collects_it(rules):
    tile = [(5, 5), (6, 5)]
    game = drawn(rules, dict.fromkeys(tile, "r"), meteorites=[(6, 5)], last_tile=tile)
    game.give(0, ("rover", 0, 0, 0))
    assert game.decision == "rover_place"
    game.apply(square_move(6, 5))
    assert game.player(0)["meteorites_collected"] == 1
    assert game.player(0)["meteorite"] == [0] * 12


def test_rover_milestone_skips_squares_with_a_rover_and_does_nothing_without_room(
    rules,
):
    # rules.md 14.2 and 14.16
    tile = [(5, 5), (6, 5)]
    game = drawn(rules, dict.fromkeys(tile, "r"), last_tile=tile)
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.give(0, ("rover", 0, 0, 0))
    assert sorted(rover_squares(game)) == [(5, 5), (6, 5)]  # the only free square
    game.give(0, ("rover", 0, 0, 0))  # no rover left in supply: nothing happens
    assert len(rover_squares(game)) == 2
    fresh = drawn(rules, {(5, 5): "r"})  # no tile placed yet this game: no last tile
    fresh.give(0, ("rover", 0, 0, 0))
    assert rover_squares(fresh) == []
    assert [st for st, _, _ in fresh.player(0)["rovers"]].count(1) == 2


# ---- RV-3/RV-4 movement and collecting -----------------------------------------------


def test_rovers_move_orthogonally_on_the_grid_and_collect_on_the_way(rules):
    covered = {(5, 5): "c", (6, 5): "c", (7, 5): "c"}
    game = drawn(rules, covered, meteorites=[(6, 5)], lifepods=[(8, 5)])
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.state.set_player_int(0, "move_budget", 3)
    game.give(0)
    assert game.decision == "rover_step"
    moves = set(game.legal_moves())
    assert moves == {step_move(0, 6, 5), step_move(0, 4, 5), step_move(0, 5, 4),
                     step_move(0, 5, 6), DONE}  # fmt: skip
    game.apply(step_move(0, 6, 5))  # passes the meteorite: collected
    game.apply(step_move(0, 7, 5))
    game.apply(step_move(0, 8, 5))  # uncovered land with a lifepod: collected
    info = game.player(0)
    assert info["meteorites_collected"] == 1 and info["lifepods_collected"] == 1
    assert info["move_budget"] == 0 and game.decision != "rover_step"


def test_rovers_cannot_leave_the_grid_or_share_a_square(rules):
    game = drawn(rules, {(0, 5): "c"})
    game.set_rovers(0, [(0, 5), (1, 5)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    moves = set(game.legal_moves())
    assert step_move(0, 1, 5) not in moves  # own rover there
    assert step_move(1, 0, 5) not in moves
    assert step_move(0, 0, 4) not in moves  # (0, 4) is not a grid square
    assert step_move(0, 0, 6) in moves


def test_unspent_movement_lapses_at_the_end_of_the_turn(rules):
    # RS-3, rules.md 14.25: spending is optional; the budget does not carry over
    game = drawn(rules, {(5, 5): "c"})
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.state.set_player_int(0, "move_budget", 3)
    game.give(0)
    game.apply(DONE)
    assert game.player(0)["move_budget"] == 0


def test_movement_can_be_spent_between_pending_items(rules):
    # RS-3: the budget interleaves with the pool (D_ORDER offers "move now")
    game = drawn(rules, {(5, 5): "c"})
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.state.set_player_int(0, "move_budget", 2)
    game.give(0, ("advance", 0, 1, 0), ("advance", 2, 1, 0))
    assert game.decision == "order"
    assert 254 in game.legal_moves()
    game.apply(254)
    assert game.decision == "rover_step"
    game.apply(step_move(0, 5, 4))
    game.apply(DONE)  # back to the pool with one point left
    assert game.decision == "order" and game.player(0)["move_budget"] == 1


# ---- 8.9 biomass patches -------------------------------------------------------------


def test_a_patch_is_placed_at_once_covers_and_destroys(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.state.set_grid(0, "lifepod", [1 << 6 if y == 5 else 0 for y in range(12)])
    game.set_tracks(0, {"biomass": 2})
    game.give(0, ("advance", 2, 1, 0))  # biomass 3: patch milestone
    assert game.decision == "patch"
    assert STORE not in game.legal_moves()  # no storage tech yet
    game.apply(square_move(6, 5))
    info = game.player(0)
    assert (6, 5) in squares_of(info["patch"]) and (6, 5) in squares_of(info["occ"])
    assert info["lifepods_lost"] == 1
    assert game.tracks(0)["biomass"] == 3  # a patch never advances biomass
    assert info["last_tile"] == [0] * 12  # a patch is not a tile


def test_storage_tech_lets_a_patch_wait_for_the_end(rules):
    # BI-2: UC tech L2 (tech position 5)
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"tech": 5})
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch" and STORE in game.legal_moves()
    game.apply(STORE)
    assert game.player(0)["stored_patches"] == 1


def test_a_patch_without_a_legal_square_is_lost_or_stored_by_option(rules):
    # BI-3, rules.md 14.8: stored with storage tech by default; BGA loses it
    full = {(x, y): "c" for x, y in rules.data.planets[0].grid_squares}
    for store, stored, lost in ((True, 1, 0), (False, 0, 1)):
        game = drawn(rules, full, options=RuleOptions(store_patch_without_square=store))
        game.set_tracks(0, {"tech": 5})
        game.give(0, ("patch", 0, 0, 0))
        assert game.player(0)["stored_patches"] == stored
        assert game.player(0)["patches_lost"] == lost
    game = drawn(rules, full)  # no storage tech: lost
    game.give(0, ("patch", 0, 0, 0))
    assert game.player(0)["patches_lost"] == 1


def test_a_patch_chosen_square_must_touch_a_covered_square(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.give(0, ("patch", 0, 0, 0))
    squares = {(m % 12, m // 12) for m in game.legal_moves()}
    assert squares == {(4, 5), (6, 5), (5, 4), (5, 6)}
