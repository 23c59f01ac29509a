"""Setup (rules.md section 3): station, seats, facing depots, boards, civ piles."""

from __future__ import annotations

import pytest

from pu_sim.game import Game
from pu_sim.rules import RuleOptions

SMALL = ["straight-3", "T-4", "corner-3", "L-4", "domino", "square-4"]
LARGE = ["S-5", "F-5", "S-4", "straight-4", "N-5", "U-5"]


def shape_name(rules, tile: int) -> str:
    return rules.data.shapes[rules.data.tiles[tile].shape].name


def test_every_stack_holds_the_12_tiles_of_its_shape_in_bga_slot_order(rules):
    # ST-1, ST-2, ST-4
    game = Game(players=1, seed=5)
    stacks = game.fields()["stacks"]
    for s in range(12):
        names = {shape_name(rules, t) for t in stacks[s]}
        expected = SMALL[s] if s < 6 else LARGE[s - 6]
        assert names == {expected}
    # before any draft every stack still has 12 tiles: 6 families x (meteor or not)
    game = Game(players=3, seed=5)
    for tiles in game.fields()["stacks"]:
        assert len(tiles) == 12
        fams = [(rules.data.tiles[t].family, rules.data.tiles[t].meteor) for t in tiles]
        assert sorted(fams) == sorted((f, m) for f in range(6) for m in (False, True))


def test_stacks_are_shuffled_per_game(rules):
    a = Game(players=3, seed=1, game_index=0).fields()["stacks"]
    b = Game(players=3, seed=1, game_index=1).fields()["stacks"]
    assert a != b


def test_custom_slot_order_loads_the_station_accordingly(rules):
    order = ("domino", "straight-3", "T-4", "corner-3", "L-4", "square-4")
    game = Game(players=3, seed=2, options=RuleOptions(station_interior_slots=order))
    stacks = game.fields()["stacks"]
    assert [shape_name(rules, stacks[s][0]) for s in range(6)] == list(order)


@pytest.mark.parametrize(
    ("slots", "message"),
    [
        (("domino", "S-5", "T-4", "corner-3", "L-4", "square-4"), "must hold each"),
        (("domino", "nope", "T-4", "corner-3", "L-4", "square-4"), "unknown shape"),
    ],
)
def test_bad_slot_order_is_a_clear_error(rules, slots, message):
    with pytest.raises(ValueError, match=message):
        RuleOptions(station_interior_slots=slots).stack_shapes(rules.data)


@pytest.mark.parametrize("shift", range(6))
def test_depot_pairs_exterior_slot_d_with_interior_slot_d_plus_shift(shift):
    # ST-5
    game = Game(players=1, seed=3, options=RuleOptions(interior_shift=shift))
    for depot in range(6):
        assert game.state.depot_stack(depot, 0) == (depot + shift) % 6
        assert game.state.depot_stack(depot, 1) == 6 + depot


@pytest.mark.parametrize(
    ("players", "seats"),
    [(1, [0]), (2, [0, 3]), (3, [0, 2, 4]), (4, [0, 1, 3, 4]), (5, [0, 1, 2, 3, 4]),
     (6, [0, 1, 2, 3, 4, 5])],
)  # fmt: skip
def test_seat_positions_follow_the_bga_table(players, seats):
    # ST-6, and ST-7: seat p faces depot (p + rotation) mod 6
    game = Game(players=players, seed=4, options=RuleOptions(initial_rotation=0))
    assert [game.player(p)["seat_pos"] for p in range(players)] == seats
    rotation = game.fields()["rotation"]
    for p in range(players):
        assert game.state.facing_depot(p) == (seats[p] + rotation) % 6
    faced = [game.state.facing_depot(p) for p in range(players)]
    assert len(set(faced)) == players  # every depot faces at most one player


def test_boards_trackers_lifepods_and_rovers_at_setup(rules):
    # ST-8: trackers on 0, the planet's lifepods, the corporation's rovers in supply
    game = Game(players=2, seed=6)
    planet = rules.data.planets[0]
    for p in range(2):
        info = game.player(p)
        assert info["track"] == [0, 0, 0, 0, 0]
        pods = {
            (x, y) for y in range(12) for x in range(12) if info["lifepod"][y] >> x & 1
        }
        assert pods == set(planet.lifepods)
        statuses = [st for st, _, _ in info["rovers"]]
        assert statuses.count(1) == rules.data.corporations[0].rovers == 2
        assert info["occ"] == [0] * 12


@pytest.mark.parametrize("players", range(1, 7))
def test_civ_piles_keep_players_plus_one_per_rank(rules, players):
    # ST-11
    game = Game(players=players, seed=7)
    f = game.fields()
    for rank in range(4):
        pile, reserve = f["piles"][rank], f["reserve"][rank]
        assert len(pile) == players + 1
        assert len(reserve) == 9 - players - 1
        assert all(rules.data.civ_cards[c - 1].rank == rank + 1 for c in pile + reserve)
        assert sorted(pile + reserve) == sorted(
            c.id for c in rules.data.civ_cards if c.rank == rank + 1
        )


def test_first_player_is_the_first_station_commander():
    # ST-10
    game = Game(players=4, seed=8)
    assert game.fields()["commander"] == 0
    assert game.decision == "rotation" and game.decider == 0
