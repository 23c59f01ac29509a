"""The rollout-fitted placement values: afterstate features, the fit, the core's
table and the greedy's re-ranking of its best placements."""

from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load
from placement_positions import mid_game_placements, row_five_open, straight_three

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.lab import placement_values as pv
from pu_sim.lab import probes
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.testing import (
    ScenarioGame,
    find_placement,
    place_move,
    placement_cells,
)

Cell = tuple[int, int]
ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "bots" / "placement_values" / "800-games-seed-2028-base"


def features_of(game: ScenarioGame, cells: list[Cell]) -> dict[str, float]:
    o, x, y = find_placement(game.rules, straight_three(game), cells)
    return dict(zip(pv.FEATURES, probes.placement_features(game, place_move(0, o, x, y)),
                    strict=True))  # fmt: skip


def test_known_answer_a_tile_at_the_end_of_the_only_open_row():
    """Covering (0-2, 5): 9 free squares in one region; columns 3-11 each miss
    one square (their medals, 17, count as lines one short); row 5 misses 9."""
    game = row_five_open()
    f = features_of(game, [(0, 5), (1, 5), (2, 5)])
    medals = game.planet_of(0).col_medals
    assert sum(medals[3:]) == 17
    assert f == {"size": 3, "regions": 1, "free_1": 0, "free_2_3": 0,
                 "free_4_7": 0, "free_8": 9, "line_1": 17, "line_2": 0,
                 "line_3_4": 0}  # fmt: skip


def test_known_answer_a_tile_splitting_the_open_row():
    """Covering (4-6, 5) leaves regions of 4 and 5 squares; columns 4-6 complete."""
    game = row_five_open()
    f = features_of(game, [(4, 5), (5, 5), (6, 5)])
    medals = game.planet_of(0).col_medals
    assert f["regions"] == 2 and f["free_4_7"] == 9 and f["free_8"] == 0
    assert f["line_1"] == sum(medals) - sum(medals[4:7])


def test_a_meteorite_line_is_no_line():
    """ME-2: a column holding a meteorite scores nothing, so it is not one short."""
    game = row_five_open(meteorites=((11, 5),))
    f = features_of(game, [(0, 5), (1, 5), (2, 5)])
    medals = game.planet_of(0).col_medals
    assert f["line_1"] == sum(medals[3:11])  # column 11 holds the meteorite


def reference_features(game: ScenarioGame, move: int) -> list[float]:
    """The features by breadth-first search and the engine's line states."""
    planet = game.planet_of(0)
    slot, o, x, y = (move >> 12) & 1, (move >> 8) & 7, move & 15, (move >> 4) & 15
    tile = game.state.depot_tiles(0)[slot]
    cells = set(placement_cells(game.rules, tile, o, x, y))
    occ = game.state.get_grid(0, "occ")
    free = {(a, b) for b in range(12) for a in range(12)
            if planet.is_grid(a, b) and not (occ[b] >> a) & 1} - cells  # fmt: skip
    f = [float(len(cells))] + [0.0] * 8
    seen: set[Cell] = set()
    for start in sorted(free):
        if start in seen:
            continue
        seen.add(start)
        queue, size = deque([start]), 0
        while queue:
            a, b = queue.popleft()
            size += 1
            for n in ((a + 1, b), (a - 1, b), (a, b + 1), (a, b - 1)):
                if n in free and n not in seen:
                    seen.add(n)
                    queue.append(n)
        f[1] += 1
        bucket = 2 if size == 1 else 3 if size <= 3 else 4 if size <= 7 else 5
        f[bucket] += size
    rows = [b for b in range(12) if any(planet.is_grid(a, b) for a in range(12))]
    cols = [a for a in range(12) if any(planet.is_grid(a, b) for b in range(12))]
    lines = [("row", b) for b in rows] + [("col", a) for a in cols]
    for (kind, i), (open_, meteorite, medal) in zip(
        lines, game.state.line_states(0), strict=True
    ):
        covers = sum(1 for a, b in cells if (b if kind == "row" else a) == i)
        missing = open_ - covers
        if not meteorite and 1 <= missing <= 4:
            f[6 if missing == 1 else 7 if missing == 2 else 8] += medal
    return f


@pytest.mark.parametrize("planets", [None, "petra", "oblivion"])
def test_features_match_a_breadth_first_reference(planets):
    """Every legal placement of real mid-game positions, on three planets."""
    checked = 0
    for game in mid_game_placements(range(3), planets):
        for move in game.legal_moves():
            assert probes.placement_features(game, move) == reference_features(
                game, move
            )
            checked += 1
    assert checked > 100


def test_features_refuse_a_move_that_is_no_placement():
    game = ScenarioGame(players=1, bots="greedy", seed=0)
    with pytest.raises(ValueError, match="not a legal placement"):
        probes.placement_features(game, 0)


def test_greedy_adds_the_scaled_table_to_its_best_six_placements():
    """With place_fit s, greedy's best PLACE_FIT_K placements (by its own value)
    move by s x the table's value of their features (relative to greedy's best
    placement); the others keep their value, and the bot plays the best of the
    re-ranked values, which is also the best of all scores (the search's order)."""
    table = fitted.load_table("place_fit")["values"]
    assert np.abs(table).sum() > 0  # the committed fit, not the all-zero stand-in
    # its lookaheads are tested in test_next_fit and test_end_chain
    tuned = {**bots.PRESETS["greedy_tuned"], "next_fit": 0.0, "end_chain": 0.0}
    base = bots.greedy("a", **{**tuned, "place_fit": 0.0})
    refit = bots.greedy("b", **{**tuned, "place_fit": 1.5})
    checked = changed = 0
    for seed in range(4):
        game = ScenarioGame(players=1, bots=refit, seed=seed)
        while not game.is_terminal:
            moves = game.legal_moves()
            if game.decision == "place" and len(moves) > pv.KEPT:
                before = np.asarray(probes.greedy_values(game, base))
                after = np.asarray(probes.greedy_values(game, refit))
                kept = np.argsort(-before, kind="stable")[: pv.KEPT]
                row = table[pv.phase(game.fields()["round"])]
                own = [row @ probes.placement_features(game, moves[i]) for i in kept]
                expected = before.copy()
                for i, value in zip(kept, own, strict=True):
                    expected[i] += 1.5 * (value - own[0])  # relative to greedy's best
                assert after == pytest.approx(expected, abs=1e-9)
                move = game.bot_move()
                assert moves.index(move) in kept
                assert after[moves.index(move)] == pytest.approx(after.max(), abs=1e-9)
                changed += move != moves[kept[0]]
                checked += 1
            game.step()
    assert checked > 50
    assert changed > 0  # the table does change choices


def test_the_placement_table_is_the_committed_fit(rules):
    """pu_sim/data/fitted/place_fit is what the report's fit writes, the core
    holds it, and the fit chose better than greedy on its held-out games."""
    report = read_report_manifest(REPORT).to_json()["results"]
    table = fitted.load_table("place_fit")["values"]
    assert np.array_equal(table, pv.table_arrays(report)["values"])
    assert np.array_equal(rules.core.fitted_arrays()["place_fit"], table)
    assert table == pytest.approx(np.asarray(report["fit"]["table"]))
    held_out = report["held_out"]
    assert held_out["per_decision"] > 0 and held_out["decisions"] > 3000


def test_fit_recovers_known_placement_values():
    """Rollout values made from a known table (plus noise) give that table back."""
    rng = np.random.default_rng(5)
    truth = rng.normal(0, 0.5, (pv.PHASES, pv.N_FEATURES))
    records = []
    for _ in range(6_000):
        rnd = int(rng.integers(1, 21))
        feats = rng.integers(0, 12, (pv.KEPT, pv.N_FEATURES)).astype(float)
        greedy = rng.normal(0, 2, pv.KEPT)
        value = 0.25 * (greedy + feats @ truth[pv.phase(rnd)]) + rng.normal(
            0, 0.3, pv.KEPT
        )
        records.append({"game": 0, "round": rnd, "greedy": list(greedy),
                        "features": feats.tolist(), "value": list(value + 50)})  # fmt: skip
    got = pv.fit(records)
    assert got["greedy_coef"] == pytest.approx(0.25, abs=0.01)
    assert np.abs(np.asarray(got["table"]) - truth).max() < 0.05


def test_smoke_run_writes_a_report_and_leaves_the_table(tmp_path):
    packaged = fitted.load_fitted().digest
    script = load("bots/placement_values")
    assert (
        script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write"]) == 0
    )
    out = tmp_path / "bots" / "placement_values" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert np.shape(data["fit"]["table"]) == (pv.PHASES, pv.N_FEATURES)
    assert data["decisions"] >= 2 * 10  # every placement of 2 games
    assert "| 13+ |" in (out / "README.md").read_text()
    assert fitted.load_fitted().digest == packaged
