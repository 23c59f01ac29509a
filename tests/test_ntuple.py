"""The learned planet value (n-tuple network): what it reads of a planet, the
symmetry classes and fit behind its table, and greedy's re-ranking with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load
from placement_positions import mid_game_placements, row_five_open

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.engine import load_rules
from pu_sim.engine.core import import_core
from pu_sim.lab import ntuple_values as nt
from pu_sim.lab import probes
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.testing import (
    ScenarioGame,
    find_placement,
    place_move,
    placement_cells,
)

Cell = tuple[int, int]


def keys_after(game: ScenarioGame, cells: list[Cell]) -> dict:
    tile = game.state.depot_tiles(0)[0]
    o, x, y = find_placement(game.rules, tile, cells)
    return probes.planet_keys(game, place_move(0, o, x, y))


def window(keys: dict, wx: int, wy: int) -> int:
    return int(keys["window"][wy * 10 + wx])


def test_known_answer_windows_and_lines_around_a_tile_in_the_open_row():
    """Covering (0-2, 5) of the only open row: the window over rows 3-5, columns
    0-2 is all covered (511); over rows 4-6, columns 3-5 only its middle row is
    free (7 + 448); row 5 keeps 9 free squares, columns 0-2 none, 3-11 one."""
    keys = keys_after(row_five_open(), [(0, 5), (1, 5), (2, 5)])
    assert window(keys, 0, 3) == 511
    assert window(keys, 3, 4) == 7 | (7 << 6)
    assert window(keys, 3, 3) == 7 | (7 << 3)  # rows 3-5: row 5 free at columns 3-5
    assert keys["line_free"][5] == 9
    assert keys["line_free"][12:15] == [0, 0, 0]
    assert keys["line_free"][15:] == [1] * 9
    assert keys["line_met"] == [0] * 24
    assert keys["phase"] == 0
    assert keys["value"] == pytest.approx(
        value_of(keys, fitted.load_table("ntuple")), abs=1e-9
    )


def test_the_tiles_meteorite_blocks_its_row_and_column():
    """ME-2: the meteorite the tile brings keeps its row and one of the tile's
    columns from scoring."""
    keys = keys_after(row_five_open(tile_meteor=True), [(0, 5), (1, 5), (2, 5)])
    assert keys["line_met"][5] == 1
    assert sum(keys["line_met"][:12]) == 1
    assert sum(keys["line_met"][12:15]) == 1 and sum(keys["line_met"][15:]) == 0


def value_of(keys: dict, table: fitted.FittedTable) -> float:
    """The table's value of the keys, summed in Python."""
    ph = keys["phase"]
    v = sum(table["window"][ph][w] for w in keys["window"])
    v += sum(table["line"][ph][m][f]
             for m, f in zip(keys["line_met"], keys["line_free"], strict=True))  # fmt: skip
    return float(v)


def reference_keys(game: ScenarioGame, move: int) -> tuple[list[int], list[int]]:
    """Windows and free counts from the planet's squares, by hand."""
    planet = game.planet_of(0)
    slot, o, x, y = (move >> 12) & 1, (move >> 8) & 7, move & 15, (move >> 4) & 15
    tile = game.state.depot_tiles(0)[slot]
    cells = set(placement_cells(game.rules, tile, o, x, y))
    occ = game.state.get_grid(0, "occ")

    def blocked(a: int, b: int) -> bool:
        return not planet.is_grid(a, b) or bool((occ[b] >> a) & 1) or (a, b) in cells

    windows = [sum(1 << (3 * r + c) for r in range(3) for c in range(3)
                   if blocked(wx + c, wy + r))
               for wy in range(10) for wx in range(10)]  # fmt: skip
    # a line's free squares: Petra's uncovered currents already count as covered
    currents = {(a, b) for b, row in enumerate(planet.grid)
                for a, ch in enumerate(row) if ch in "EQ"} if planet.currents_count_covered else set()  # fmt: skip

    def free(a: int, b: int) -> bool:
        return not blocked(a, b) and (a, b) not in currents

    rows = [sum(free(a, b) for a in range(12)) for b in range(12)]
    cols = [sum(free(a, b) for b in range(12)) for a in range(12)]
    return windows, rows + cols


@pytest.mark.parametrize("planets", [None, "petra", "oblivion"])
def test_keys_match_a_reference_on_real_positions(planets):
    """Every legal placement of mid-game positions on three planets."""
    checked = 0
    for game in mid_game_placements(range(3), planets):
        for move in game.legal_moves():
            keys = probes.planet_keys(game, move)
            windows, free = reference_keys(game, move)
            assert keys["window"] == windows
            assert keys["line_free"] == free
            checked += 1
    assert checked > 50


def test_keys_refuse_a_move_that_is_no_placement():
    game = ScenarioGame(players=1, bots="greedy", seed=0)
    with pytest.raises(ValueError, match="not a legal placement"):
        probes.planet_keys(game, 0)


def test_pattern_classes_are_the_squares_symmetry_classes():
    """102 classes (Burnside: (512 + 2 x 8 + 32 + 4 x 64) / 8), each closed
    under the 8 rotations and reflections of the window."""
    classes = nt.CLASSES
    assert nt.N_CLASSES == 102
    rng = np.random.default_rng(1)
    for pattern in rng.integers(0, 512, 60):
        square = (pattern >> np.arange(9)).reshape(3, 3) & 1
        for k in range(4):
            for grid in (np.rot90(square, k), np.rot90(square, k).T):
                moved = int((grid.ravel() << np.arange(9)).sum())
                assert classes[moved] == classes[pattern]
    assert classes[0] != classes[1] and classes[1] == classes[4] == classes[256]
    assert classes[1] != classes[16]  # a corner is no centre


def test_fit_recovers_known_pattern_values():
    """Rollout values made from known class and line values (plus noise) give
    them back, in the bot's own units."""
    rng = np.random.default_rng(7)
    truth = rng.normal(0, 0.3, (nt.PHASES, nt.N_FEATURES))
    records = []
    for _ in range(5_000):
        rnd = int(rng.integers(1, 21))
        feats = rng.integers(0, 6, (nt.KEPT, nt.N_FEATURES)).astype(np.int16)
        own = rng.normal(0, 2, nt.KEPT)
        value = 0.2 * (own + feats @ truth[nt.phase(rnd)]) + rng.normal(0, 0.2, nt.KEPT)
        records.append({"game": 1, "round": rnd, "own": own, "features": feats,
                        "value": value + 50})  # fmt: skip
    got = nt.fit(records, ridge=1.0)
    assert got["own_coef"] == pytest.approx(0.2, abs=0.01)
    assert np.abs(got["coef"] - truth).max() < 0.05


def test_the_table_gives_every_pattern_its_class_value():
    coef = np.arange(nt.PHASES * nt.N_FEATURES, dtype=float).reshape(nt.PHASES, -1) / 7
    arrays = nt.table_arrays(coef)
    for ph in range(nt.PHASES):
        for pattern in (0, 1, 4, 16, 511, 300):
            assert arrays["window"][ph][pattern] == pytest.approx(
                coef[ph][nt.CLASSES[pattern]], abs=1e-4
            )
        assert arrays["line"][ph][1][3] == pytest.approx(
            coef[ph][nt.N_CLASSES + nt.LINE_FREE + 3], abs=1e-4
        )
    fitted.check_arrays("ntuple", arrays, "test")


def planted_table(folder: Path) -> None:
    """The packaged tables, with an ntuple table that rewards free 3x3 windows."""
    for name, table in fitted.load_fitted().items():
        arrays = dict(table.arrays)
        if name == "ntuple":
            arrays = {"window": np.zeros((nt.PHASES, nt.PATTERNS)),
                      "line": np.zeros((nt.PHASES, 2, nt.LINE_FREE))}  # fmt: skip
            arrays["window"][:, 0] = 0.5
            arrays["window"][:, 511] = -0.2
        fitted.write_table(name, arrays, fitted.Provenance(command="test"), folder)


def test_greedy_re_ranks_its_best_placements_by_the_learned_value(tmp_path):
    """With ntuple s, greedy plays the best of its NEXT_FIT_K placements by its
    own value + s x (learned value - that of greedy's best), and the planted
    table changes some of its choices."""
    planted_table(tmp_path)
    rules = load_rules(tmp_path)
    learned = nt.fast_bot(1.0)
    checked = changed = 0
    for seed in range(3):
        game = ScenarioGame(players=1, bots=learned, seed=seed)
        game.state = import_core().GameState.deal(rules.core, game.spec, seed, 0, 0)
        game.state.advance()
        while not game.is_terminal:
            moves = game.legal_moves()
            if game.decision == "place" and len(moves) > nt.KEPT:
                kept, own = nt.own_values(game, moves, learned)
                values = [probes.planet_keys(game, moves[i])["value"] for i in kept]
                total = own + 1.0 * (np.asarray(values) - values[0])
                move = game.bot_move()
                assert moves.index(move) in kept
                assert total[kept.index(moves.index(move))] == pytest.approx(
                    total.max(), abs=1e-9
                )
                changed += own[kept.index(moves.index(move))] < own.max() - 1e-9
                checked += 1
            game.step()
    assert checked > 30
    assert changed > 0


def test_greedy_learned_is_greedy_tuned_with_the_learned_values_and_endgame_rollouts():
    """greedy_learned is greedy_tuned with the report's planet value (ntuple 0.5,
    with 1 and 2 players only), the learned rotation value and the endgame's
    rollouts instead of its chain (solo only: placements in the last 6 rounds,
    the other decisions in the last 3), looking ahead from all 12 kept
    placements (greedy_tuned from its best 10); greedy_tuned (and so its
    golden traces) plays without any of them."""
    tuned = bots.PRESETS["greedy_tuned"]
    for learned in ("ntuple", "rotation_round", "end_redeals", "end_other_rounds"):
        assert tuned.get(learned, 0.0) == 0.0
    expected = bots.greedy("expected", **{
        **tuned, "ntuple": nt.WEIGHTS[0], "rotation_round": 1.0,
        "end_chain": 4.0, "end_rounds": 6.0, "end_redeals": 3.0,
        "end_other_rounds": 3.0, "look_width": 12.0, "ntuple_players": 2.0})  # fmt: skip
    assert bots.parse("greedy_learned").vector() == pytest.approx(expected.vector())


@pytest.mark.parametrize("players", [3, 4])
def test_from_three_players_greedy_learned_is_one_ply_greedy_tuned_with_the_rotation_value(
    players,
):
    """The depot lookaheads and the endgame run only where the station turns by
    itself (solo, 2-player variant), and the learned planet value only with 1
    or 2 players: from 3 players greedy_learned's moves are greedy_tuned's
    one-ply moves (its deny at 3 players only) with the learned rotation
    value."""
    fast = bots.greedy("fast_rr", **{**nt.fast_bot(0.0).params,
                                     "rotation_round": 1.0})  # fmt: skip
    a = ScenarioGame(players=players, bots="greedy_learned", seed=5)
    b = ScenarioGame(players=players, bots=fast, seed=5)
    while not a.is_terminal:
        move = a.bot_move()
        assert move == b.bot_move()
        a.apply(move)
        b.apply(move)


@pytest.mark.parametrize(("players", "upto", "counts"),
                         [(1, 2, True), (2, 2, True), (3, 2, False), (2, 1, False)])  # fmt: skip
def test_the_learned_value_counts_only_up_to_its_player_count(players, upto, counts):
    """ntuple_players: with more players the bot plays as with ntuple 0; up to
    it, as without the cap (move for move, nothing else differs)."""
    learned = {**bots.PRESETS["greedy_learned"], "end_redeals": 0.0}  # quicker
    capped = bots.greedy("capped", **{**learned, "ntuple_players": float(upto)})
    same = bots.greedy("same", **{**learned, "ntuple_players": 0.0,
                                  **({} if counts else {"ntuple": 0.0})})  # fmt: skip
    other = bots.greedy("other", **{**learned, "ntuple_players": 0.0,
                                    **({"ntuple": 0.0} if counts else {})})  # fmt: skip
    a = ScenarioGame(players=players, bots=capped, seed=6)
    b = ScenarioGame(players=players, bots=same, seed=6)
    c = ScenarioGame(players=players, bots=other, seed=6)
    differs = 0
    while not a.is_terminal:
        move = a.bot_move()
        assert move == b.bot_move()
        differs += int(move != c.bot_move())
        for game in (a, b, c):
            game.apply(move)
    assert differs >= 1  # the learned value does change some move here


def test_weight_zero_plays_as_before():
    """ntuple 0 is the bot without the learned value, move for move."""
    a = ScenarioGame(players=1, bots=nt.fast_bot(0.0), seed=4)
    b = ScenarioGame(players=1, bots=bots.greedy(
        "plain", **{**bots.PRESETS["greedy_tuned"], "next_fit": 0.0,
                    "next_fit_deep": 0.0, "end_chain": 0.0}), seed=4)  # fmt: skip
    while not a.is_terminal:
        move = a.bot_move()
        assert move == b.bot_move()
        a.apply(move)
        b.apply(move)


def test_play_out_makes_the_moves_bot_move_makes():
    game = ScenarioGame(players=2, bots="greedy", seed=3)
    for _ in range(40):
        game.step()
    by_python = game.state.copy()
    while not by_python.is_terminal:
        by_python.apply(by_python.bot_move())
    in_core = game.state.copy()
    in_core.play_out()
    assert in_core.is_terminal
    for p in range(2):
        assert in_core.player_fields(p) == by_python.player_fields(p)


REPORT = Path(__file__).resolve().parents[1] / "reports" / "bots" / "ntuple_values"


def test_the_packaged_table_is_the_reports_fit():
    """pu_sim/data/fitted/ntuple is the fit the committed report measured, and
    that report found it lifts the fast bot (95% interval above nothing)."""
    (run,) = sorted(REPORT.iterdir())
    packaged = fitted.load_table("ntuple")
    reported = fitted.load_table("ntuple", run / "table")
    for array in ("window", "line"):
        assert np.array_equal(packaged[array], reported[array])
    assert np.abs(packaged["window"]).sum() > 0  # a fit, not the all-zero stand-in
    rows = read_report_manifest(run).to_json()["results"]["paired"]
    fast = [r for r in rows if r["bot"] == "greedy_tuned_fast" and r["weight"] == 0.5]
    assert fast and fast[0]["gain"] - fast[0]["half_width"] > 0


def test_smoke_run_writes_a_report_and_leaves_the_packaged_table(tmp_path):
    packaged = fitted.load_fitted().digest
    script = load("bots/ntuple_values")
    assert (
        script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write"]) == 0
    )
    out = tmp_path / "bots" / "ntuple_values" / "smoke"
    results = read_report_manifest(out).to_json()["results"]
    assert results["decisions"] >= 4 * 10  # every placement of 4 games
    assert {r["weight"] for r in results["paired"]} == {nt.CONTROL, *nt.WEIGHTS}
    assert 0 <= results["three_player"]["ahead"] <= 1
    assert (out / "figures" / "ntuple_values.png").is_file()
    assert fitted.load_table("ntuple", out / "table")["window"].shape == (3, 512)
    assert fitted.load_fitted().digest == packaged
