"""The greedy bot's planning features against independent references.

Pockets: a brute-force flood fill over every legal placement of real mid-game
positions.  Shape targets: drawn planets where the target is plain to see.
Setup discard: the measured base rates decide which card goes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from placement_positions import mid_game_placements

from pu_sim import Game, bots
from pu_sim.lab import probes
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    marked_drawing,
    placement_cells,
    placement_parts,
)

Cell = tuple[int, int]
SHAPE_ONLY = bots.greedy(shape=1.0, pocket=0.0)
NO_SHAPE = bots.greedy(shape=0.0, pocket=0.0)
POCKET_ONLY = bots.greedy(pocket=1.0)
NO_POCKET = bots.greedy(pocket=0.0)


def place_decisions(seeds: range, from_round: int) -> Iterator[ScenarioGame]:
    """Solo greedy games stopped at their first placement from `from_round` on."""
    for seed in seeds:
        game = ScenarioGame(players=1, bots="greedy", seed=seed)
        while not game.is_terminal:
            if game.decision == "place" and game.fields()["round"] >= from_round:
                yield game
                break
            game.step()


def unpack(move: int) -> tuple[int, int, int, int]:
    return (move >> 12) & 1, (move >> 8) & 7, move & 15, (move >> 4) & 15


def free_squares(game: ScenarioGame) -> set[Cell]:
    planet = game.planet_of(0)
    occ = game.state.get_grid(0, "occ")
    return {
        (x, y)
        for y in range(12)
        for x in range(12)
        if planet.is_grid(x, y) and not (occ[y] >> x) & 1
    }


def reference_pockets(free: set[Cell], foot: set[Cell]) -> int:
    """Areas of 2 or 3 free squares next to the tile once it lies (flood fill)."""
    left = free - foot
    seen: set[Cell] = set()
    count = 0
    for x, y in foot:
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb not in left or nb in seen:
                continue
            area, todo = {nb}, [nb]
            while todo:
                cx, cy = todo.pop()
                for n in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if n in left and n not in area:
                        area.add(n)
                        todo.append(n)
            seen |= area
            count += 2 <= len(area) <= 3
    return count


def test_pocket_penalty_counts_what_a_flood_fill_counts(rules):
    checked = with_pockets = 0
    for game in place_decisions(range(12), from_round=9):
        free = free_squares(game)
        tiles = game.state.depot_tiles(0)
        on = probes.greedy_values(game, POCKET_ONLY)
        off = probes.greedy_values(game, NO_POCKET)
        for move, a, b in zip(game.legal_moves(), on, off, strict=True):
            slot, o, x, y = unpack(move)
            foot = set(placement_cells(rules, tiles[slot], o, x, y))
            expected = reference_pockets(free, foot)
            assert b - a == pytest.approx(expected, abs=1e-9), (game.render(0), move)
            checked += 1
            with_pockets += expected > 0
    assert checked > 1000 and with_pockets > 50  # the positions do close pockets


def shape_game(rules, marks: dict[Cell, str], card: int) -> ScenarioGame:
    """Solo game at a placement, planet drawn, holding only private card `card`."""
    game = ScenarioGame(players=1, bots="greedy", seed=3)
    game.set_planet(0, marked_drawing(game.planet_of(0), marks))
    game.set_objectives(0, [card])
    game.set_depot(0, small=civ_tile(rules), large=None)
    game.start_draft(0)
    assert game.decision == "place"
    return game


def civ_tile(rules) -> int:
    """A small tile without meteor whose part A is civ (family 0: civ / energy)."""
    for tile in range(144):
        t = rules.data.tiles[tile]
        if t.family == 0 and not t.meteor and rules.data.shapes[t.shape].size == 3:
            return tile
    raise AssertionError("no such tile")


def test_a_rectangle_card_pulls_civ_into_the_almost_full_window(rules):
    # Complex (card 37): 3 x 3 of civ; eight of the nine squares at x 4..6,
    # y 4..6 are civ, (6, 6) is free; everything else on the planet is free too
    window = {(x, y) for x in range(4, 7) for y in range(4, 7)}
    marks = {c: "c" for c in window - {(6, 6)}}
    game = shape_game(rules, marks, card=37)
    tile = game.state.depot_tiles(0)[0]
    on = probes.greedy_values(game, SHAPE_ONLY)
    off = probes.greedy_values(game, NO_SHAPE)
    gains = {}
    for move, a, b in zip(game.legal_moves(), on, off, strict=True):
        _, o, x, y = unpack(move)
        parts = placement_parts(rules, tile, o, x, y)
        gains[move] = (a - b, parts.get((6, 6)))
    by_part: dict[int | None, list[float]] = {0: [], 1: [], None: []}
    for gain, part in gains.values():
        by_part[part].append(gain)
    # civ (part A) on the last square completes the target: 5 medals / 1 square;
    # energy there spoils it: the progress lost, 5 x (8 + 1) / 9; anywhere else
    # the target does not care
    for part, expected in ((0, 5.0), (1, -5.0), (None, 0.0)):
        assert by_part[part] and by_part[part] == pytest.approx(
            [expected] * len(by_part[part])
        ), part
    # the bound that prunes before the columns allows the completing move its 5
    bounds = game.state.placement_column_bounds(SHAPE_ONLY.vector())
    assert all(b is not None and b >= v - 1e-9 for v, b, _ in bounds)
    # valued instead of bounded, the shape term takes back the medals the bound
    # allows the placements on the target's rows that do not complete it
    assert all(b + 1e-9 >= s >= v - 1e-9 for v, b, s in bounds)
    assert sum(b - s > 4.0 for _, b, s in bounds) >= len(bounds) // 5


def test_an_area_card_pulls_civ_toward_its_biggest_area(rules):
    # Highway (card 43): a civ area with 6 civ icons; the drawn area holds 4
    # ("C" = civ with icon), so a civ part joining it is worth 5 / (6 - 4)
    area = {(3, 5): "C", (4, 5): "C", (5, 5): "C", (6, 5): "C", (7, 5): "c"}
    game = shape_game(rules, area, card=43)
    tile = game.state.depot_tiles(0)[0]
    on = probes.greedy_values(game, SHAPE_ONLY)
    off = probes.greedy_values(game, NO_SHAPE)
    ring = {(x + dx, y + dy) for x, y in area for dx, dy in
            ((1, 0), (-1, 0), (0, 1), (0, -1))} - set(area)  # fmt: skip
    seen = set()
    for move, a, b in zip(game.legal_moves(), on, off, strict=True):
        _, o, x, y = unpack(move)
        civ = {
            c for c, part in placement_parts(rules, tile, o, x, y).items() if part == 0
        }
        joins = bool(civ & ring)
        assert a - b == pytest.approx(2.5 if joins else 0.0), move
        seen.add(joins)
    assert seen == {True, False}


def test_the_setup_discard_gives_up_the_card_least_often_met():
    # Coveralls (64) was never met in the measurement: whenever it is dealt, it
    # goes, whatever the other three
    dealt_it = 0
    for seed in range(40):
        game = ScenarioGame(players=1, bots="greedy", seed=seed)
        assert game.decision == "objective_discard"
        if 64 in game.player(0)["dealt_objectives"]:
            dealt_it += 1
            assert game.bot_move() + 37 == 64
    assert dealt_it >= 3


def committed_rates() -> list[tuple[float, float, float]]:
    """(rate, lower, upper) per card from the committed objective_rates report."""
    (table,) = (
        Path(__file__)
        .resolve()
        .parents[1]
        .glob("reports/bots/objective_rates/*/tables/objective_rates.csv")
    )
    frame = pl.read_csv(table).sort("card")
    return list(frame.select("rate", "lower", "upper").iter_rows())


def core_rates() -> list[float]:
    """The objective_rate table the greedy bot's setup discard reads."""
    from pu_sim.bots import fitted

    return fitted.load_table("objective_rate")["rate"].tolist()


def test_the_discard_rates_are_the_committed_measurement():
    core = core_rates()
    measured = committed_rates()
    assert len(core) == len(measured) == 28
    for card, (value, (rate, lower, upper)) in enumerate(
        zip(core, measured, strict=True)
    ):
        assert lower - 1e-9 <= value <= upper + 1e-9, (37 + card, value, rate)


# ---- tracks: what a regress does to the path ahead -------------------

CIV, WATER, BIOMASS = 0, 1, 2


def track_game(positions: dict[str, int]) -> ScenarioGame:
    game = ScenarioGame(players=1, bots="random", seed=0)
    game.set_planet(0, marked_drawing(game.planet_of(0), {(5, 5): "c"}))
    game.set_objectives(0, [])
    game.set_tracks(0, positions)
    return game


def test_a_regress_values_the_spaces_it_will_claim_again_and_those_it_delays(rules):
    """Card 105 (regress one tracker twice), UC: civ 4 -> 2 passes back over the
    rank-1 milestone (claimed again) and delays the rank-2 milestone on 6; water
    13 -> 11 passes back over a synergy on 12 and delays nothing (14, 15 are
    medals only)."""
    game = track_game({"civ": 4, "water": 13})
    game.reveal_event(105)
    assert sorted(game.legal_moves()) == [CIV, WATER]
    w = bots.GREEDY_WEIGHTS
    plain = probes.greedy_values(game, bots.greedy())
    delay = probes.greedy_values(game, bots.greedy(regress_delay=1.5))
    again = probes.greedy_values(game, bots.greedy(regress_reclaim=0.5))
    expect_delay = {CIV: -1.5 * w["track"] * w["civ"] * 2, WATER: 0.0}
    expect_again = {
        CIV: 0.5 * w["track"] * w["civ"] * 1,
        WATER: 0.5 * w["track"] * w["synergy"],
    }
    for i, move in enumerate(game.legal_moves()):
        assert delay[i] - plain[i] == pytest.approx(expect_delay[move], abs=1e-9)
        assert again[i] - plain[i] == pytest.approx(expect_again[move], abs=1e-9)
    # plain greedy regresses civ (it loses less medal progress); with the delay
    # counted, it gives up the water steps instead
    assert game.legal_moves()[int(np.argmax(plain))] == CIV
    assert game.legal_moves()[int(np.argmax(delay))] == WATER


@pytest.mark.parametrize(("round_", "factor"), [(1, 0.5), (20, -0.5), (30, -0.5)])
def test_early_weighs_track_benefits_by_the_round(round_, factor):
    """A synergy choice (UC): civ 2 -> 3 (a rank-1 milestone), water 2 -> 3 (a
    synergy), biomass 0 -> 1 (nothing): `early` adds w x (1/2 - share of the game
    gone) x the benefit; medals are not benefits."""
    game = track_game({"civ": 2, "water": 2})
    game.state.set_game_int("round", round_)
    game.give(0, ("synergy", 0, 0, 0))
    assert game.decision == "synergy"
    w = bots.GREEDY_WEIGHTS
    benefit = {CIV: w["civ"], WATER: w["synergy"], BIOMASS: 0.0}
    plain = probes.greedy_values(game, bots.greedy())
    early = probes.greedy_values(game, bots.greedy(early=2.0))
    checked = 0
    for i, move in enumerate(game.legal_moves()):
        if move in benefit:
            expected = 2.0 * factor * w["track"] * benefit[move]
            assert early[i] - plain[i] == pytest.approx(expected, abs=1e-9)
            checked += 1
    assert checked == 3


@pytest.mark.parametrize(("players", "seed"), [(1, 5), (3, 6), (4, 7)])
def test_pruned_placement_choice_is_the_best_full_value(players, seed):
    """Greedy values placements with bounds that skip candidates which cannot
    win (the rows' bound, then the exact contact count): its choice must
    always be worth the best of every legal placement valued in full."""
    game = Game(players=players, bots="greedy", seed=seed,
                corporations="random", planets="random")  # fmt: skip
    params = bots.parse("greedy").vector()
    checked = 0
    while not game.is_terminal:
        if game.decision == "place":
            values = game.state.greedy_values(params)
            chosen = game.legal_moves().index(game.bot_move())
            assert values[chosen] >= max(values) - 1e-9, (checked, game.decider)
            checked += 1
        game.step()
    assert checked >= 15 * players


def _weight_draws(seed: int) -> Iterator[np.ndarray]:
    """greedy_tuned's weights (its lookaheads off) and random rescalings of them,
    some terms negative, so every term of the column bound is exercised."""
    tuned = bots.parse("greedy_tuned").vector()
    rng = np.random.default_rng(seed)
    yield tuned
    for _ in range(3):
        yield tuned * rng.uniform(-0.5, 2.0, size=tuned.size)


@pytest.mark.parametrize(
    ("players", "seed"), [(1, 31), (1, 34), (1, 35), (2, 32), (3, 36), (4, 33)]
)
def test_column_bound_is_never_below_the_column_value(players, seed):
    """placement_cols_bound prunes a candidate before its columns are valued,
    so it must never fall below placement_cols, on any planet (cities,
    sub-planets, objective shapes, ice, lifepods) and under any weights: else
    greedy would skip a placement that wins."""
    game = Game(players=players, bots="greedy", seed=seed,
                corporations="random", planets="random")  # fmt: skip
    draws = list(_weight_draws(seed))
    tuned_gaps: list[float] = []
    bounded = 0
    while not game.is_terminal:
        if game.decision == "place":
            for k, params in enumerate(draws):
                for value, bound, shaped in game.state.placement_column_bounds(params):
                    if bound is None:
                        continue
                    at = (game.fields()["round"], value, bound, shaped)
                    assert bound >= value - 1e-9, at
                    # the shape term valued: still a bound, never a looser one
                    assert bound + 1e-9 >= shaped >= value - 1e-9, at
                    bounded += 1
                    if k == 0:
                        tuned_gaps.append(bound - value)
        game.step()
    assert bounded > 1500  # enough placements checked
    # informative enough to prune: within a few points for most placements
    assert float(np.median(tuned_gaps)) < 3.0


def _reference_distances(planet, pods: list[Cell], diagonal: bool) -> list[list[int]]:
    """A plain breadth-first search over the planet's data: rover steps between
    grid squares, diagonal ones when `diagonal`, never across a chasm."""
    grid = set(planet.grid_squares)
    side = planet.chasm_side_map or None
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if diagonal:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    dist = [[99] * 12 for _ in range(12)]
    front = [c for c in pods if c in grid]
    for x, y in front:
        dist[y][x] = 0
    d = 0
    while front:
        d += 1
        nxt = []
        for x, y in front:
            for dx, dy in steps:
                c = (x + dx, y + dy)
                if (
                    c in grid
                    and dist[c[1]][c[0]] == 99
                    and (side is None or side[y][x] == side[c[1]][c[0]])
                ):
                    dist[c[1]][c[0]] = d
                    nxt.append(c)
        front = nxt
    return dist


@pytest.mark.parametrize(
    ("planet", "corporation", "tech"),
    [
        ("ksb_4156", "universal_coalition", 0),
        ("ksb_4156", "cosmos_inc", 1),  # tech 1: diagonal steps count
        ("tartarus", "universal_coalition", 0),  # never across the chasm
        ("tartarus", "cosmos_inc", 1),  # nor diagonally at its corners
    ],
)
def test_rover_distances_are_a_plain_search_over_the_planet(planet, corporation, tech):
    """The bot's rover distances (a packed breadth-first walk) against a plain
    search over the planet's squares, from lifepods on both chasm sides."""
    game = ScenarioGame(
        players=1, corporations=corporation, planets=planet, bots="random", seed=0
    )
    pods = [(5, 1), (2, 6), (9, 9)]
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for x, y in pods:
        rows[y][x] = "o"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    if tech:
        game.set_tracks(0, {"tech": 3})
    data = next(p for p in game.rules.data.planets if p.key == planet)
    expected = _reference_distances(
        data, pods, diagonal=tech > 0 and planet != "tartarus"
    )
    assert game.state.lifepod_distances(0) == expected


@pytest.mark.parametrize("planets", [None, "petra", "oblivion"])
def test_contact_counts_the_sides_touching_covered_or_off_grid_squares(planets):
    """greedy's contact count (packed rows) against counting each tile square's
    four sides by hand, for every legal placement of mid-game positions."""
    checked = 0
    for game in mid_game_placements(range(3), planets):
        planet = game.planet_of(0)
        occ = game.state.get_grid(0, "occ")
        for move in game.legal_moves():
            slot, o, x, y = (
                (move >> 12) & 1,
                (move >> 8) & 7,
                move & 15,
                (move >> 4) & 15,
            )
            tile = game.state.depot_tiles(0)[slot]
            cells = set(placement_cells(game.rules, tile, o, x, y))
            expected = sum(
                (a + dx, b + dy) not in cells
                and (
                    not planet.is_grid(a + dx, b + dy)
                    or bool((occ[b + dy] >> (a + dx)) & 1)
                )
                for a, b in cells
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            )
            assert game.state.placement_contact(move) == expected, move
            checked += 1
    assert checked > 50
