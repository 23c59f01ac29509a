"""Objective chances: the units a card misses, the measured table, the greedy's use."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.lab import objective_chances as oc
from pu_sim.lab import probes
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.testing import ScenarioGame, marked_drawing, square_move

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "bots" / "objective_chances" / "20000-games-seed-37"


def committed() -> dict:
    """The committed measurement's numbers (its report manifest's results)."""
    return read_report_manifest(REPORT).to_json()["results"]


COMPLEX, RUBIK, AMAZON, CROWD_SOURCE = 37, 38, 46, 55  # 3x3 civ, 3x3 tech, water area
ALT_ENERGY, CLEANUP, MELTDOWN = 60, 61, 63
CIV_TOP, ICE = 3, 9  # chance groups (GROUPS order)


def drawn_game(marks, private, meteorites=()):
    """A solo game on the base planet drawn from marks, holding these cards."""
    game = ScenarioGame(players=1, bots="random", seed=0)
    game.set_planet(0, marked_drawing(game.planet_of(0), marks), meteorites=meteorites)
    game.set_objectives(0, private)
    return game


def open_ice(game, covered=()):
    planet = game.planet_of(0)
    return sum(
        planet.grid[y][x] == "I" and (x, y) not in covered
        for y in range(12)
        for x in range(12)
    )


def test_units_missing_per_card_kind():
    # civ: a 2 x 3 block (rows 4-5, columns 4-6) with water below it, so the best
    # free 3x3 window is rows 3-5; water: an area with 3 icons and a lone icon
    marks = {(x, y): "c" for x in range(4, 7) for y in (4, 5)} | {(5, 6): "w"}
    marks |= {(8, 5): "W", (9, 5): "W", (8, 6): "W", (9, 6): "w", (2, 8): "W"}
    cards = [COMPLEX, RUBIK, AMAZON, CROWD_SOURCE, ALT_ENERGY, CLEANUP, MELTDOWN]
    game = drawn_game(marks, cards)
    game.set_tracks(0, {"civ": 11})
    game.state.set_player_int(0, "meteorites_collected", 4)
    states = {card: (group, missing, met) for card, group, missing, met
              in game.state.objective_states(0)}  # fmt: skip
    assert states[COMPLEX] == (0, 3, False)
    assert states[RUBIK] == (0, 9, False)
    assert states[AMAZON] == (2, 3, False)
    assert states[CROWD_SOURCE] == (CIV_TOP, 15 - 11, False)
    assert states[CLEANUP] == (8, 9 - 4, False)
    assert states[MELTDOWN] == (ICE, min(15, open_ice(game, marks)), False)
    assert states[ALT_ENERGY] == (-1, 0, True)  # 5 energy icons at most: met


def test_a_rectangle_with_no_free_window_is_dead():
    # tech terrain in every third column and row: no 3x3 window free of it
    planet = ScenarioGame(players=1, seed=0).planet_of(0)
    marks = {(x, y): "t" for y in range(12) for x in range(12)
             if (x % 3 == 1 or y % 3 == 1) and planet.is_grid(x, y)}  # fmt: skip
    game = drawn_game(marks, [COMPLEX])
    assert game.state.objective_states(0) == [(COMPLEX, 0, oc.DEAD, False)]


def test_chances_are_smoothed_monotone_and_exact_at_the_end():
    rng = np.random.default_rng(2)
    shape = (len(oc.GROUPS), oc.MISSING, oc.ROUNDS)
    seen = rng.integers(0, 40, shape).astype(float)
    seen[1, 5, :9] = 0  # never seen before round 10: borrows from the nearest rounds
    met = np.floor(seen * rng.uniform(0, 1, shape))
    table = oc.chances(seen, met)
    assert table.shape == (len(oc.GROUPS), oc.MISSING, oc.ROUNDS + 1)
    body = table[:, 1 : oc.DEAD, : oc.ROUNDS]
    assert (np.diff(body, axis=1) <= 1e-12).all()
    assert (table[:, 0, : oc.ROUNDS] >= table[:, 1, : oc.ROUNDS] - 1e-12).all()
    end = np.zeros((len(oc.GROUPS), oc.MISSING))
    end[:, 0] = 1.0
    assert (table[:, :, oc.ROUNDS] == end).all()
    assert oc.nearby_share(seen[1, 5], met[1, 5], 2) == pytest.approx(
        met[1, 5, 9:11].sum() / seen[1, 5, 9:11].sum()
    )
    assert table.min() >= 0.0 and table.max() <= 1.0


def test_the_objective_table_is_the_committed_measurement():
    """pu_sim/data/fitted/objective_chance is exactly what the report's table writes."""
    report = committed()
    table = np.array(report["chance"])
    written = fitted.load_table("objective_chance")["chance"]
    assert np.array_equal(written, oc.table_arrays(table)["chance"])
    assert report["groups"] == list(oc.GROUPS)
    assert report["weights"]["objective_chance"] == 0.0  # the policy measured
    # a 3x3 block one square short in round 10 is met about half the time
    assert 0.3 < table[0, 1, 9] < 0.7
    assert (np.diff(table[:, 1 : oc.DEAD, :-1], axis=1) <= 0).all()


def test_a_track_step_is_credited_with_the_chance_it_adds():
    """Known answer: 5 x weight x (chance one step closer - chance now) for the
    civ tracker under a civ-at-the-top card; other tracks gain nothing."""
    chance = np.array(committed()["chance"])
    game = drawn_game({}, [CROWD_SOURCE])
    game.set_tracks(0, {"civ": 12})
    game.give(0, ("energy", 0b11111, 0, 0))
    assert game.decision == "energy"
    after = game.fields()["round"]  # the chances after this round (index round + 1 - 1)
    expected = 5 * 2.0 * (chance[CIV_TOP, 2, after] - chance[CIV_TOP, 3, after])
    assert expected > 0
    plain, with_chance = bots.greedy(), bots.greedy(objective_chance=2.0)
    gain = np.subtract(
        probes.greedy_values(game, with_chance), probes.greedy_values(game, plain)
    )
    for move, g in zip(game.legal_moves(), gain, strict=True):
        assert g == pytest.approx(expected if move == 0 else 0.0, abs=1e-9)


def test_a_patch_on_the_window_is_credited_with_the_rectangle_chance():
    """Known answer: a biomass patch in a 3x3 biomass window that lacks one square
    gains 5 x weight x (chance complete - chance one short); a square elsewhere
    that joins no window gains nothing from the card."""
    chance = np.array(committed()["chance"])
    landfill = 39  # 3x3 biomass
    window = {(x, y) for x in range(4, 7) for y in range(4, 7)}
    marks = {cell: "b" for cell in window - {(6, 6)}}
    marks |= {(x, 7): "c" for x in range(3, 8)} | {(7, y): "c" for y in range(3, 7)}
    marks |= {(x, 3): "c" for x in range(3, 7)} | {(3, y): "c" for y in range(4, 7)}
    game = drawn_game(marks, [landfill])
    assert game.state.objective_states(0) == [(landfill, 0, 1, False)]
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch"
    after = game.fields()["round"]
    expected = 5 * 1.5 * (chance[0, 0, after] - chance[0, 1, after])
    plain, with_chance = bots.greedy(), bots.greedy(objective_chance=1.5)
    gain = np.subtract(
        probes.greedy_values(game, with_chance), probes.greedy_values(game, plain)
    )
    moves = game.legal_moves()
    assert gain[moves.index(square_move(6, 6))] == pytest.approx(expected, abs=1e-9)
    outside = [i for i, m in enumerate(moves) if m == square_move(2, 5)]
    assert outside and gain[outside[0]] == pytest.approx(0.0, abs=1e-9)


def test_smoke_run_writes_a_report_and_leaves_the_table(tmp_path):
    packaged = fitted.load_fitted().digest
    script = load("bots/objective_chances")
    assert (
        script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write"]) == 0
    )
    out = tmp_path / "bots" / "objective_chances" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert np.shape(data["chance"]) == (len(oc.GROUPS), oc.MISSING, oc.ROUNDS + 1)
    assert sum(sum(map(sum, g)) for g in data["seen"]) > 8 * 10  # cards x rounds
    assert "## 3x3 rectangle" in (out / "README.md").read_text()
    assert fitted.load_fitted().digest == packaged


def test_neighbour_adds_to_objective_for_the_neighbour_cards_only():
    """greedy_tuned's solo fit lowered `objective`; `neighbour` gives the
    neighbour cards their own scale: objective o + neighbour n values a
    multiplayer placement as objective o + n would, once no private card is held,
    and changes nothing in solo."""
    duo = ScenarioGame(players=2, bots="greedy", seed=4)
    duo.set_objectives(0, [], neighbour=[37, 47, 52])  # edges, area counts, collected
    while duo.decision != "place" or duo.decider != 0:
        duo.step()
    split = probes.greedy_values(duo, bots.greedy(objective=1.0, neighbour=0.5))
    assert split == pytest.approx(probes.greedy_values(duo, bots.greedy(objective=1.5)))
    assert split != pytest.approx(probes.greedy_values(duo, bots.greedy(objective=1.0)))
    solo = drawn_game({(5, 5): "c"}, [COMPLEX, AMAZON, CROWD_SOURCE])
    solo.give(0, ("patch", 0, 0, 0))
    assert probes.greedy_values(
        solo, bots.greedy(neighbour=3.0)
    ) == probes.greedy_values(solo, bots.greedy())
