"""What the policy bot's network reads of a position (core/bots/policy_net.pxi).

Scenarios set a planet, rovers, cards and pending items by hand and decode the
network's active entries by the tables' layout (pu_sim.bots.fitted), so a
feature that reads the wrong square, order or count fails here by name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import pytest

from pu_sim.bots.fitted import TABLES
from pu_sim.engine.core import code, constants, policy_offsets
from pu_sim.testing import ScenarioGame, empty_drawing

Cell = tuple[int, int]


def entries(game: ScenarioGame, table: str) -> list[dict[str, int]]:
    """The active entries of one table for player 0, in the network's order,
    each as its axes' values."""
    axes = TABLES["policy"].arrays[table]
    shape = [int(a.expected(constants()) or 0) for a in axes]
    start = policy_offsets()[table]
    out = []
    for i in game.state.policy_features(0)[1]:
        if start <= i < start + int(np.prod(shape)):
            cell = np.unravel_index(i - start, shape)
            out.append({a.name: int(v) for a, v in zip(axes, cell, strict=True)})
    return out


def planet(
    covered: Iterable[Cell] = (),
    meteorites: Sequence[Cell] = (),
    corporation: str = "universal_coalition",
    marked: dict[Cell, str] | None = None,
) -> ScenarioGame:
    """A solo game of `corporation` on KSB-4156, its planet empty but for
    `covered` (civ squares), `marked` (drawing letters) and `meteorites`."""
    game = ScenarioGame(
        players=1, corporations=corporation, planets="ksb_4156", bots="random",
        seed=0,
    )  # fmt: skip
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for x, y in covered:
        rows[y][x] = "c"
    for (x, y), letter in (marked or {}).items():
        rows[y][x] = letter
    game.set_planet(0, "\n".join("".join(r) for r in rows), meteorites=meteorites)
    return game


def stakes(game: ScenarioGame) -> list[tuple[int, int]]:
    """(the nearest rover's walk, the stake) of each meteorite entry, in order."""
    return [(e["rover_distance"], e["stake"]) for e in entries(game, "stakes")]


def test_each_meteorite_reads_its_nearest_rovers_walk_nearest_first():
    # KSB-4156 (empty_drawing): row 5 is all grid, column 10 grid in rows
    # 3-8, row 9 from x=2 to 9.  Row 5 is left open on 4 squares (so column
    # 10 on 5), row 9 on 2.  A stake is the free squares of the fuller of the
    # meteorite's row and column: the fewer of the two (6: more)
    row5 = {(x, 5) for x in range(12)} - {(0, 5), (1, 5), (6, 5), (7, 5)}
    row9 = {(x, 9) for x in range(2, 8)}
    game = planet(row5 | row9, meteorites=[(9, 9), (6, 5), (2, 2), (10, 8)])
    game.set_rovers(0, [(2, 4)])
    # walks from (2, 4): (2, 2) 2 steps, (6, 5) 5; (10, 8) and (9, 9) 12,
    # none within 8; at one distance by row, then column
    assert stakes(game) == [(2, 6), (5, 4), (9, 5), (9, 2)]
    movement = {e["movement"] for e in entries(game, "stakes")}
    assert len(movement) == 1


def test_with_no_rover_on_the_planet_every_meteorite_is_out_of_reach():
    game = planet(meteorites=[(3, 3), (8, 1)])
    game.set_rovers(0, [])
    assert stakes(game) == [(9, 6), (9, 6)]


def test_no_meteorite_no_stake():
    game = planet()
    game.set_rovers(0, [(5, 5)])
    assert stakes(game) == []


def test_at_most_sixteen_meteorites_are_read_the_nearest_first():
    far = [(x, y) for y in (10, 11) for x in range(2, 10)]  # 16 beyond reach
    near = [(5, 2), (6, 2)]
    game = planet(meteorites=far + near)
    game.set_rovers(0, [(5, 0)])
    got = stakes(game)
    assert len(got) == 16
    assert [d for d, _ in got] == [2, 3] + [9] * 14


def rover_reads(game: ScenarioGame) -> list[tuple[int, int]]:
    """(target, walk) of each rover-table entry, sorted."""
    return sorted((e["target"], e["distance"]) for e in entries(game, "rover"))


ROW5 = {(x, 5) for x in range(1, 11)}  # KSB-4156's row 5 covered: a rover's road


def test_a_rover_reads_its_walk_to_the_nearest_lifepod_and_meteorite():
    game = planet(ROW5, meteorites=[(8, 5)])
    game.set_rovers(0, [(3, 5)])
    assert rover_reads(game) == [(0, 9), (1, 5)]  # no lifepod within 8


def test_a_free_horizon_rover_reads_its_walk_to_a_meteorite_as_its_own_target():
    # corporations.md 3.4: Horizon's rovers carry meteorites to rover icons,
    # so its walks are not the other corporations' one step from collecting
    game = planet(ROW5, meteorites=[(8, 5)], corporation="horizon_group")
    game.set_rovers(0, [(3, 5)])
    assert rover_reads(game) == [(0, 9), (3, 5)]


def test_a_carrying_horizon_rover_reads_its_walk_to_a_rover_icon():
    # the rover on (4, 5) carries the meteorite there; its walk is to the
    # icon on (7, 5), and the free rover on (2, 5) walks past the carried
    # meteorite (2 steps) to the one no rover carries on (10, 5)
    game = planet(
        ROW5 - {(7, 5)}, meteorites=[(4, 5), (10, 5)],
        corporation="horizon_group", marked={(7, 5): "R"},
    )  # fmt: skip
    game.set_rovers(0, [(4, 5), (2, 5)])
    assert rover_reads(game) == [(0, 9), (0, 9), (2, 3), (3, 8)]


@pytest.mark.parametrize("cards", [[1], [3, 17, 36], [36, 2]])
def test_every_civ_card_held_is_an_entry_in_the_cards_order(cards):
    game = planet()
    game.give_cards(0, *cards)
    assert [e["card"] for e in entries(game, "civ")] == sorted(cards)


def test_each_kind_of_pending_item_is_one_entry_with_its_count():
    game = planet()
    assert entries(game, "items") == []
    game.give(0, ("patch", 0, 0, 0), ("teleport", 0, 0, 0), ("patch", 0, 0, 0))
    assert game.decision == "order"  # all three wait for the player to choose
    got = [(e["item"], e["count"]) for e in entries(game, "items")]
    assert got == [(code("Item", "patch"), 2), (code("Item", "teleport"), 1)]
