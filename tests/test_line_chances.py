"""Line chances: the measured table, the core's copy, the greedy's use of it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.lab import line_chances as lc
from pu_sim.lab import probes
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.testing import ScenarioGame, marked_drawing, square_move, step_move

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "bots" / "line_chances" / "20000-games-seed-31"


def committed() -> dict:
    """The committed measurement's numbers (its report manifest's results)."""
    return read_report_manifest(REPORT).to_json()["results"]


def drawn_game(marks, meteorites=()):
    """A solo game on the base planet drawn from marks, objectives cleared."""
    game = ScenarioGame(players=1, bots="random", seed=0)
    game.set_planet(0, marked_drawing(game.planet_of(0), marks), meteorites=meteorites)
    game.set_objectives(0, [])
    return game


def test_line_states_count_open_squares_meteorites_and_medals():
    # row 5: columns 1..10 covered, a meteorite on (3, 5); column 3: rows 5 and 6
    covered = {(x, 5): "c" for x in range(1, 11)} | {(3, 6): "c"}
    game = drawn_game(covered, meteorites=[(3, 5)])
    planet = game.planet_of(0)
    states = game.state.line_states(0)
    rows = [y for y in range(12) if any(planet.is_grid(x, y) for x in range(12))]
    cols = [x for x in range(12) if any(planet.is_grid(x, y) for y in range(12))]
    assert len(states) == len(rows) + len(cols)
    for i, y in enumerate(rows):
        grid = {x for x in range(12) if planet.is_grid(x, y)}
        open_ = len(grid - {x for (x, yy) in covered if yy == y})
        assert states[i] == (open_, y == 5, planet.row_medals[y])
    for j, x in enumerate(cols):
        grid = {y for y in range(12) if planet.is_grid(x, y)}
        open_ = len(grid - {y for (xx, y) in covered if xx == x})
        assert states[len(rows) + j] == (open_, x == 3, planet.col_medals[x])


def test_chances_are_smoothed_monotone_and_exact_at_the_end():
    rng = np.random.default_rng(1)
    seen = rng.integers(0, 50, (2, lc.SQUARES, lc.ROUNDS)).astype(float)
    seen[0, 4, 7] = 0  # a cell never seen takes its rounds' neighbourhood
    scored = np.floor(seen * rng.uniform(0, 1, seen.shape))
    table = lc.chances(seen, scored)
    assert table.shape == (2, lc.SQUARES, lc.ROUNDS + 1)
    assert (np.diff(table[:, :, : lc.ROUNDS], axis=1) <= 1e-12).all()
    end = np.zeros((2, lc.SQUARES))
    end[0, 0] = 1.0
    assert (table[:, :, lc.ROUNDS] == end).all()
    near = slice(5, 10)
    expected = scored[0, 4, near].sum() / seen[0, 4, near].sum()
    assert table[0, 4, 7] <= expected + 1e-12  # the prior, capped by monotonicity
    assert table.min() >= 0.0 and table.max() <= 1.0


def test_the_line_table_is_the_committed_measurement():
    """pu_sim/data/fitted/line_chance is exactly what the report's table writes."""
    report = committed()
    table = np.array(report["chance"])
    written = fitted.load_table("line_chance")["chance"]
    assert np.array_equal(written, lc.table_arrays(table)["chance"])
    # more open squares never score more often; a line that is complete stays
    assert (np.diff(table[:, :, :-1], axis=1) <= 0).all()
    assert table[0, 0, :-1].min() > 0.95


def test_a_patch_is_credited_with_the_chance_it_adds_to_its_row_and_column():
    """Known answer: medal x (chance with one open square less - chance now),
    from the report's table, for the row and the column of every square."""
    chance = np.array(committed()["chance"])
    covered = {(x, 5): "c" for x in range(1, 10)} | {(4, y): "c" for y in range(2, 9)}
    game = drawn_game(covered, meteorites=[(4, 8)])
    game.give(0, ("patch", 0, 0, 0))
    assert game.decision == "patch"
    planet = game.planet_of(0)
    rows, cols = {}, {}
    for y in range(12):
        grid = [x for x in range(12) if planet.is_grid(x, y)]
        rows[y] = len([x for x in grid if (x, y) not in covered])
    for x in range(12):
        grid = [y for y in range(12) if planet.is_grid(x, y)]
        cols[x] = len([y for y in grid if (x, y) not in covered])
    after = min(game.fields()["round"] + 1, lc.ROUNDS + 1) - 1

    def gain(open_: int, meteor: bool, medal: int) -> float:
        m = int(meteor)
        return medal * (
            chance[m, min(open_ - 1, 12), after] - chance[m, min(open_, 12), after]
        )

    plain, with_chance = bots.greedy(), bots.greedy(line_chance=2.0)
    before, now = (
        probes.greedy_values(game, plain),
        probes.greedy_values(game, with_chance),
    )
    checked = 0
    for i, move in enumerate(game.legal_moves()):
        for x, y in [(x, y) for y in range(12) for x in range(12)]:
            if move == square_move(x, y):
                expected = 2.0 * (gain(rows[y], y == 8, planet.row_medals[y])
                                  + gain(cols[x], x == 4, planet.col_medals[x]))  # fmt: skip
                assert now[i] - before[i] == pytest.approx(expected, abs=1e-9)
                checked += 1
    assert checked >= 20  # the squares a patch may take (next to the tiles)
    # the square finishing row 5 (with its column) gains the most
    best = game.legal_moves()[int(np.argmax(np.subtract(now, before)))]
    assert best in (square_move(0, 5), square_move(10, 5), square_move(11, 5))


def test_a_meteorite_is_worth_the_line_chance_collecting_it_frees():
    """Known answer (ME-2): two meteorites two steps from a rover, one in a row
    with no open square, one in a nearly empty row; both in column 5, which
    keeps the other, so only the rows count.  meteor_lines adds medal x (chance
    without a meteorite - chance with one, at least 0) to each meteorite's target
    value."""
    chance = np.array(committed()["chance"])
    probe = ScenarioGame(players=1, bots="random", seed=0).planet_of(0)
    covered = {(x, 3): "c" for x in range(12) if probe.is_grid(x, 3)}
    covered |= {(5, y): "c" for y in range(3, 8)}
    game = drawn_game(covered, meteorites=[(5, 3), (5, 7)])
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    assert game.decision == "rover_step"
    planet = game.planet_of(0)
    after = min(game.fields()["round"] + 1, lc.ROUNDS + 1) - 1
    open7 = sum(planet.is_grid(x, 7) for x in range(12)) - 1

    def freed(open_: int, medal: int) -> float:
        open_ = min(open_, 12)
        return medal * max(0.0, chance[0, open_, after] - chance[1, open_, after])

    base = bots.GREEDY_WEIGHTS["meteor_target"]
    up_row = base + 2.0 * freed(0, planet.row_medals[3])
    down_row = base + 2.0 * freed(open7, planet.row_medals[7])
    assert up_row > down_row >= base  # the full row is the one worth unblocking
    moves = game.legal_moves()
    up, down = moves.index(step_move(0, 5, 4)), moves.index(step_move(0, 5, 6))
    plain = probes.greedy_values(game, bots.greedy())
    assert plain[up] == pytest.approx(plain[down])  # equally far: a tie
    values = probes.greedy_values(game, bots.greedy(meteor_lines=2.0))
    here = max(up_row, down_row) / 3
    assert values[up] == pytest.approx(max(up_row / 2, down_row / 4) - here)
    assert values[down] == pytest.approx(max(up_row / 4, down_row / 2) - here)
    assert moves[int(np.argmax(values))] == step_move(0, 5, 4)


def test_smoke_run_writes_a_report_and_leaves_the_table(tmp_path):
    packaged = fitted.load_fitted().digest
    args = ["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write"]
    script = load("bots/line_chances")
    assert script.main(args) == 0
    out = tmp_path / "bots" / "line_chances" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert np.shape(data["chance"]) == (2, lc.SQUARES, lc.ROUNDS + 1)
    assert sum(map(sum, data["seen"][0])) > 8 * 20  # every line, every round
    assert "| 12 |" in (out / "README.md").read_text()
    assert fitted.load_fitted().digest == packaged
    assert script.main([*args, "--tables", str(tmp_path / "fitted")]) == 0
    written = fitted.load_table("line_chance", tmp_path / "fitted")["chance"]
    assert np.array_equal(written, fitted.rounded(data["chance"]))


def test_play_reading_rounds_reads_every_round_start_and_the_end():
    """The chance experiments' recorder: one reading per round, in order, taken
    before the round's first move, and the final position; the game is the one
    simulate() plays."""
    game = ScenarioGame(players=1, bots="greedy_tuned", seed=3)
    states, final = probes.play_reading_rounds(game, lambda s: s.game_fields()["round"])
    assert [r for r, _ in states] == list(range(1, len(states) + 1))
    assert all(r == value for r, value in states)
    assert game.is_terminal and final == game.fields()["round"] >= len(states)
    again = ScenarioGame(players=1, bots="greedy_tuned", seed=3)
    again.play()
    assert game.scores() == again.scores()
