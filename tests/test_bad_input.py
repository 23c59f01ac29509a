"""A fuzz of bad inputs through the CLI and the API: one clear line each.

Every case gives one line that names the offending input (the flag, the
argument or the value) and never a traceback; nothing half-runs.  A new entry
point or flag adds its bad inputs here.
"""

from __future__ import annotations

import json
import math

import pytest

import pu_sim
from pu_sim import bots
from pu_sim.cli import main
from pu_sim.game import Game
from pu_sim.rules import RuleOptions
from pu_sim.simulation.runfolder import RunFolderError, read_manifest, scan_run

S = ["simulate", "--games", "4"]

CLI_CASES = [
    # (argv, a word the one line must hold)
    (["simulate", "--games", "0"], "--games"),
    (["simulate", "--games", "-1"], "--games"),
    (["simulate", "--games", "five"], "five"),
    (["simulate", "--games", "1.5"], "1.5"),
    (["simulate", "--games", "20000000"], "--out"),
    ([*S, "--players", "0"], "--players"),
    ([*S, "--players", "7"], "--players"),
    ([*S, "--players", "-2"], "--players"),
    ([*S, "--players", "two"], "two"),
    ([*S, "--corporations", "nope"], "nope"),
    ([*S, "--corporations", "cosmos_inc,,random"], "cosmos_inc,,random"),
    ([*S, "--corporations", "cosmos_inc+"], "cosmos_inc+"),
    ([*S, "--players", "2", "--corporations", "cosmos_inc,cosmos_inc"], "cosmos_inc"),
    ([*S, "--players", "2", "--corporations", "a,b,c"], "3 entries"),
    ([*S, "--planets", "mars"], "mars"),
    ([*S, "--planets", "gaia+mars"], "mars"),
    ([*S, "--players", "3", "--planets", "gaia,gaia"], "2 entries"),
    ([*S, "--bots", "genius"], "genius"),
    ([*S, "--bots", "search:budget=-1"], "search:budget=-1"),
    ([*S, "--bots", "greedy:line_complete=nan"], "line_complete"),
    ([*S, "--bots", "greedy:line_complete=1e9"], "line_complete"),
    ([*S, "--bots", "greedy:line_complete=-1e308"], "line_complete"),
    ([*S, "--bots", "greedy:foo=1"], "foo"),
    ([*S, "--bots", "search:budget=abc"], "budget=abc"),
    ([*S, "--bots", "search:budget=2.5"], "budget"),
    ([*S, "--bots", "random:x=1"], "random:x=1"),
    ([*S, "--bots", "greedy_tuned:noise=inf"], "noise"),
    ([*S, "--bots", "search:width=0"], "search:width=0"),
    ([*S, "--bots", "search:width=1000"], "width"),
    ([*S, "--bots", "search:minor=2"], "minor"),
    (
        [*S, "--bots", "greedy_tuned:look_width=0"],
        "look_width must be a whole number 1..12",
    ),
    ([*S, "--bots", "greedy_tuned:look_width=2.5"], "look_width"),
    ([*S, "--bots", "greedy,"], "greedy,"),
    ([*S, "--players", "2", "--bots", "greedy,random,greedy"], "3 entries"),
    ([*S, "--seed", "-1"], "--seed"),
    ([*S, "--seed", "x"], "--seed"),
    ([*S, "--seed", "1.5"], "--seed"),
    ([*S, "--deck", "-1,11,10"], "-1,11,10"),
    ([*S, "--deck", "7,7"], "7,7"),
    ([*S, "--deck", "lots"], "lots"),
    ([*S, "--deck", "7,7,7"], "20"),
    ([*S, "--players", "2", "--deck", "0,0,20"], "0, 0, 20"),
    ([*S, "--deck", "7,7,6", "--no-events"], "--no-events"),
    ([*S, "--option", "foo=1"], "foo"),
    ([*S, "--option", "civ_pick_timing=later"], "later"),
    ([*S, "--option", "civ_pick_timing"], "civ_pick_timing"),
    ([*S, "--option", "interior_shift=9"], "9"),
    ([*S, "--option", "interior_shift=-1"], "interior_shift"),
    ([*S, "--option", "event_deck=maybe"], "maybe"),
    ([*S, "--option", "event_deck_mix=1,2"], "event_deck_mix"),
    ([*S, "--option", "event_deck_mix=5,5,5"], "20"),
    ([*S, "--option", "station_interior_slots=a,b"], "a"),
    ([*S, "--option", "oasis_row11_medal=7"], "7"),
    ([*S, "--option", "=true"], "=true"),
    ([*S, "--rules", "tabletop"], "tabletop"),
    ([*S, "--batch-size", "0"], "--batch-size"),
    ([*S, "--batch-size", "1000000"], "--batch-size"),
    ([*S, "--batch-size", "big"], "big"),
    ([*S, "--jobs", "0"], "--jobs"),
    ([*S, "--jobs", "all"], "--jobs"),
    ([*S, "--backend", "gpu"], "gpu"),
    ([*S, "--backend", "threads", "--scheduler", "tcp://x:1"], "dask"),
    ([*S, "--group-size", "0"], "--group-size"),
    ([*S, "--group-size", "-1"], "--group-size"),
    ([*S, "--group-size", "x"], "--group-size"),
    ([*S, "--players", "2", "--paired", "--group-size", "3"], "group_size"),
    (["simulate", "--games", "5", "--players", "2", "--paired"], "group_size"),
    ([*S, "--frobnicate"], "--frobnicate"),
    (["play", "--game-index", "-1"], "--game-index"),
    (["play", "--game-index", "x"], "--game-index"),
    (["play", "--game-index", str(2**63)], "--game-index"),
    (["play", "--seed", "-5"], "--seed"),
    (["play", "--players", "9"], "--players"),
    (["play", "--game", "5"], "--run"),
    (["play", "--run", "/nonexistent/run", "--game", "0"], "/nonexistent/run"),
    (["play", "--corporations", "Hoizon Group"], "Hoizon Group"),
    (["play", "--bots", "search:budget=-3"], "budget"),
    (["report", "/nonexistent/run"], "/nonexistent/run"),
    (["list", "spaceships"], "spaceships"),
    (["study", "--games", "0"], "--games"),
    (["study", "--seed", "-1"], "--seed"),
    (["study", "--jobs", "0"], "--jobs"),
    (["fly"], "fly"),
]


def finished_game() -> Game:
    game = Game(players=2, bots="random", seed=1)
    game.play()
    return game


def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("pu-sim") and "error:" in err and "Traceback" not in err
    return err


def exit_code(argv: list[str]) -> int | str | None:
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


@pytest.mark.parametrize(("argv", "word"), CLI_CASES)
def test_bad_command_lines(capsys, argv, word):
    assert exit_code(argv) == 2
    assert word in one_line(capsys)


def folder_cases(tmp_path):
    """Damaged and foreign folders (made on the fly)."""
    run = tmp_path / "run"
    pu_sim.run(4, out=run, bots="random", seed=3, batch_size=2)
    file = tmp_path / "file.txt"
    file.write_text("x")
    empty = tmp_path / "empty"
    empty.mkdir()

    def edited(name, change):
        folder = tmp_path / name
        pu_sim.run(2, out=folder, bots="random", seed=3)
        manifest = json.loads((folder / "manifest.json").read_text())
        change(manifest)
        (folder / "manifest.json").write_text(json.dumps(manifest))
        return folder

    no_config = edited("no_config", lambda m: m.pop("config"))
    no_seed = edited("no_seed", lambda m: m.pop("seed"))
    not_json = tmp_path / "not_json"
    not_json.mkdir()
    (not_json / "manifest.json").write_text("{oops")
    return run, file, empty, no_config, no_seed, not_json


def test_bad_folders_on_the_command_line(tmp_path, capsys):
    run, file, empty, no_config, no_seed, not_json = folder_cases(tmp_path)
    for argv, word in [
        (["report", str(file)], "is a file"),
        (["report", str(empty)], "no manifest.json"),
        (["report", str(no_config)], "config"),
        (["report", str(no_seed)], "seed"),
        (["report", str(not_json)], "cannot read"),
        (["play", "--run", str(file), "--game", "0"], str(file)),
        (["play", "--run", str(no_config), "--game", "0"], "config"),
        (["play", "--run", str(run), "--game", "4"], "no game 4"),
        (["simulate", "--games", "2", "--out", str(file)], str(file)),
        (["simulate", "--games", "2", "--out", str(no_seed)], "seed"),
        (["simulate", "--games", "2", "--out", str(file / "run")], str(file)),
        (["simulate", "--games", "4", "--bots", "greedy", "--out", str(run)], "bots"),
    ]:
        assert exit_code(argv) == 2, argv
        assert word in one_line(capsys), argv


API_CASES = [
    # (call, an exception type, a word the message must hold)
    (lambda: pu_sim.simulate(-1), ValueError, "n_games"),
    (lambda: pu_sim.simulate(1.5), ValueError, "n_games"),
    (lambda: pu_sim.simulate("10"), ValueError, "n_games"),
    (lambda: pu_sim.simulate(True), ValueError, "n_games"),
    (lambda: pu_sim.simulate(10**13), ValueError, "pu_sim.run"),
    (lambda: pu_sim.simulate(2, players=0), ValueError, "players"),
    (lambda: pu_sim.simulate(2, players=7), ValueError, "players"),
    (lambda: pu_sim.simulate(2, players=2.5), ValueError, "players"),
    (lambda: pu_sim.simulate(2, players="2"), ValueError, "players"),
    (lambda: pu_sim.simulate(2, players=True), ValueError, "players"),
    (lambda: pu_sim.simulate(2, corporations="nope"), ValueError, "nope"),
    (lambda: pu_sim.simulate(2, corporations=[]), ValueError, "corporations"),
    (lambda: pu_sim.simulate(2, corporations=[[]]), ValueError, "pool is empty"),
    (lambda: pu_sim.simulate(2, players=2, corporations=["a", "b", "c"]), ValueError, "3 entries"),
    (lambda: pu_sim.simulate(2, planets=5), TypeError, "planets"),
    (lambda: pu_sim.simulate(2, bots="genius"), ValueError, "genius"),
    (lambda: pu_sim.simulate(2, bots=5), TypeError, "5"),
    (lambda: pu_sim.simulate(2, bots="search:budget=-1"), ValueError, "budget"),
    (lambda: pu_sim.simulate(2, options="bga"), TypeError, "options"),
    (lambda: pu_sim.simulate(2, seed=-1), ValueError, "seed"),
    (lambda: pu_sim.simulate(2, seed="x"), ValueError, "seed"),
    (lambda: pu_sim.simulate(2, seed=1.5), ValueError, "seed"),
    (lambda: pu_sim.simulate(2, n_jobs=0), ValueError, "n_jobs"),
    (lambda: pu_sim.simulate(2, n_jobs="x"), ValueError, "n_jobs"),
    (lambda: pu_sim.simulate(2, batch_size=0), ValueError, "batch_size"),
    (lambda: pu_sim.simulate(2, batch_size=2.5), ValueError, "batch_size"),
    (lambda: pu_sim.simulate(2, group_size=0), ValueError, "group_size"),
    (lambda: pu_sim.simulate(5, players=3, group_size=3), ValueError, "group_size"),
    (lambda: pu_sim.simulate(4, players=3, paired=True, group_size=2), ValueError, "group_size"),
    (lambda: pu_sim.simulate(2, pu_sim.TableSetup(), players=2), TypeError, "not both"),
    (lambda: pu_sim.simulate(2, "greedy"), TypeError, "TableSetup"),
    (lambda: pu_sim.simulate(2, player=2), TypeError, "player"),
    (lambda: pu_sim.simulate(2, backend="gpu"), ValueError, "gpu"),
    (lambda: pu_sim.TableSetup(players=2, corporations=["cosmos_inc"] * 2).lower(pu_sim.load_rules().data), ValueError, "cosmos_inc"),
    (lambda: Game(seed=-1), ValueError, "seed"),
    (lambda: Game(game_index=-1), ValueError, "game_index"),
    (lambda: Game(game_index=2**63), ValueError, "game_index"),
    (lambda: Game(game_index=1.5), ValueError, "game_index"),
    (lambda: Game(players=7), ValueError, "players"),
    (lambda: Game(bots="genius"), ValueError, "genius"),
    (lambda: Game(corporations="Hoizon Group"), ValueError, "Hoizon Group"),
    (lambda: Game().apply(10**9), ValueError, "1000000000"),
    (lambda: Game().apply(-1), ValueError, "move -1 is not legal"),
    (lambda: Game().apply(2**40), ValueError, "is not legal"),
    (lambda: Game().apply(1.5), ValueError, "1.5"),
    (lambda: Game().apply(True), ValueError, "True"),
    (lambda: Game().apply("0"), ValueError, "'0'"),
    (lambda: finished_game().apply(0), ValueError, "the game is over"),
    (lambda: bots.greedy(line_complete=math.nan), ValueError, "line_complete"),
    (lambda: bots.greedy(line_complete=-1e308), ValueError, "line_complete"),
    (lambda: bots.greedy(line_complete=math.inf), ValueError, "line_complete"),
    (lambda: bots.greedy(line_complete="1"), ValueError, "line_complete"),
    (lambda: bots.greedy(foo=1.0), ValueError, "foo"),
    (lambda: bots.search(budget=-1), ValueError, "budget"),
    (lambda: bots.search(width=0), ValueError, "width"),
    (lambda: bots.greedy(look_width=13), ValueError, "look_width must be a whole number 1..12"),
    (lambda: bots.search(budget=10**9), ValueError, "budget"),
    (lambda: bots.parse(5), TypeError, "5"),
    (lambda: bots.parse("greedy:x"), ValueError, "x"),
    (lambda: bots.preset("greedy_best"), ValueError, "greedy_best"),
    (lambda: bots.BotSpec("neural"), ValueError, "neural"),
    (lambda: RuleOptions(interior_shift=9), ValueError, "interior_shift"),
    (lambda: RuleOptions(initial_rotation=-1), ValueError, "initial_rotation"),
    (lambda: RuleOptions(civ_pick_timing="later"), ValueError, "civ_pick_timing"),
    (lambda: RuleOptions(oasis_row11_medal=7), ValueError, "oasis_row11_medal"),
    (lambda: pu_sim.simulate(1, options=RuleOptions(event_deck_mix=(1, 2, 3))), ValueError, "20"),
    (lambda: pu_sim.simulate(1, options=RuleOptions(event_deck_mix="lots")), ValueError, "lots"),
    (lambda: pu_sim.simulate(1, options=RuleOptions(station_interior_slots=("a",))), ValueError, "a"),
    (lambda: pu_sim.simulate(2, players=2, options=RuleOptions(event_deck=True, event_deck_mix=(0, 0, 20))), ValueError, "0, 0, 20"),
]  # fmt: skip


@pytest.mark.parametrize(("call", "kind", "word"), API_CASES)
def test_bad_api_calls(call, kind, word):
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and word in message, message


def test_bad_folders_through_the_api(tmp_path):
    run, file, empty, no_config, no_seed, not_json = folder_cases(tmp_path)
    for call, word in [
        (lambda: read_manifest(file), str(file)),
        (lambda: read_manifest(empty), "no manifest.json"),
        (lambda: read_manifest(no_config), "config"),
        (lambda: read_manifest(no_seed), "seed"),
        (lambda: read_manifest(not_json), "cannot read"),
        (lambda: scan_run(empty), "no manifest.json"),
        (lambda: pu_sim.run(2, out=file), str(file)),
        (lambda: pu_sim.run(2, out=no_config), "config"),
        (lambda: pu_sim.run(-2, out=tmp_path / "new"), "n_games"),
        (lambda: pu_sim.run(4, out=run, bots="greedy"), "bots"),
    ]:
        with pytest.raises(
            RunFolderError if "n_games" not in word else ValueError
        ) as info:
            call()
        assert "\n" not in str(info.value) and word in str(info.value)
    assert not (tmp_path / "new").exists()


def test_the_fuzz_is_big_enough():
    assert len(CLI_CASES) + len(API_CASES) + 22 >= 100
