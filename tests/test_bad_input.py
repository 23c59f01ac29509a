"""A fuzz of bad inputs through the CLI and the API: one clear line each.

Every case gives one line that names the offending input (the flag, the
argument or the value) and never a traceback; nothing half-runs.  A new entry
point or flag adds its bad inputs here.
"""

from __future__ import annotations

import json
import math
import re

import pytest

import pu_sim
from pu_sim import bots
from pu_sim.cli import main
from pu_sim.game import Game
from pu_sim.rules import RuleOptions
from pu_sim.simulation.replay import replay
from pu_sim.simulation.runfolder import (
    RunFolderError,
    check_run,
    part_files,
    read_manifest,
    scan_run,
)

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
    (
        [*S, "--bots", "greedy_learned:rotation_width=7"],
        "rotation_width must be a whole number 1..6",
    ),
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
    (lambda: bots.greedy(rotation_width=0), ValueError, "rotation_width must be a whole number 1..6"),
    (lambda: bots.greedy(rotation_width=2.5), ValueError, "rotation_width must be a whole number"),
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


# --------------------------------------------------------------------------------
# Contradictions, option types, every subcommand: more command lines
# --------------------------------------------------------------------------------

MORE_CLI_CASES = [
    ([*S, "--events", "--no-events"], "--events contradicts --no-events"),
    ([*S, "--no-events", "--events"], "--no-events contradicts --events"),
    ([*S, "--no-events", "--option", "event_deck=true"], "event_deck=true"),
    ([*S, "--events", "--option", "event_deck=false"], "event_deck=false"),
    ([*S, "--deck", "7,7,6", "--option", "event_deck=false"], "--deck 7,7,6"),
    ([*S, "--deck", "7,7,6", "--option", "event_deck_mix=random"], "event_deck_mix"),
    ([*S, "--deck", "random", "--deck", "bga_random"], "--deck bga_random"),
    ([*S, "--players", "2", "--players", "3"], "--players 3"),
    ([*S, "--seed", "1", "--seed", "2"], "--seed 2"),
    ([*S, "--bots", "greedy", "--bots", "random"], "--bots"),
    ([*S, "--rules", "bga", "--rules", "default"], "--rules"),
    ([*S, "--batch-size", "5", "--batch-size", "6"], "--batch-size 6"),
    ([*S, "--option", "civ_pick_timing=on_milestone", "--option",
      "civ_pick_timing=end_of_round"], "civ_pick_timing=end_of_round"),
    ([*S, "--private-objectives"], "--players 1"),
    ([*S, "--option", "private_objectives=true"], "--players 1"),
    ([*S, "--option", "neighbour_objectives=true"], "--players 1"),
    ([*S, "--players", "2", "--private-objectives", "--option",
      "private_objectives=false"], "private_objectives=false"),
    ([*S, "--option", "event_deck=yes"], "yes"),
    ([*S, "--option", "event_deck=1"], "event_deck"),
    ([*S, "--option", "private_objectives=no"], "no"),
    ([*S, "--option", "event_deck_mix=-1,11,10"], "event_deck_mix"),
    ([*S, "--option", "event_deck_mix=7,7,6,0"], "event_deck_mix"),
    ([*S, "--option", "event_deck_mix=7,7,x"], "7,7,x"),
    ([*S, "--option", "station_interior_slots=a,b,c"], "station_interior_slots"),
    ([*S, "--option", "interior_shift=2.5"], "2.5"),
    ([*S, "--option", "initial_rotation=6"], "initial_rotation"),
    ([*S, "--option", "oasis_row11_medal=nine"], "nine"),
    ([*S, "--option", "planet_fallback="], "planet_fallback"),
    ([*S, "--variant", "/nonexistent/v.toml"], "/nonexistent/v.toml"),
    (["simulate", "--games", "2", "--games", "3"], "--games 3"),
    ([*S, "--group-size", "2.5"], "--group-size"),
    ([*S, "--jobs", "-0"], "--jobs"),
    ([*S, "--out"], "--out"),
    (["play", "--run", "/r", "--game", "0", "--players", "2"], "--players"),
    (["play", "--run", "/r", "--game", "0", "--seed", "3"], "--seed"),
    (["play", "--run", "/r", "--game", "0", "--events"], "--events"),
    (["play", "--run", "/r", "--game", "0", "--bots", "random"], "--bots"),
    (["play", "--run", "/r", "--game", "0", "--game-index", "2"], "--game-index"),
    (["play", "--run", "/r", "--game", "0", "--variant", "v.toml"], "--variant"),
    (["play", "--run", "/r"], "--game"),
    (["play", "--game", "-1", "--run", "/r"], "--game"),
    (["play", "--players", "1", "--private-objectives"], "--private-objectives"),
    (["play", "--events", "--no-events"], "--no-events"),
    (["report"], "RUN_FOLDER"),
    (["report", "/nonexistent/run", "--allow-incomplete"], "/nonexistent/run"),
    (["report", "/x", "--allow-incomplete=yes"], "--allow-incomplete"),
    (["compare", "--games", "2"], "--variant"),
    (["compare", "--games", "0", "--option-variant", "civ_pick_timing=on_milestone"],
     "--games"),
    (["compare", "--option-variant", "civ_pick_timing=end_of_round"],
     "--option-variant civ_pick_timing=end_of_round"),
    (["compare", "--option-variant", "foo=1"], "foo"),
    (["compare", "--option-variant", "civ_pick_timing"], "civ_pick_timing"),
    (["compare", "--variant", "/nonexistent/v.toml"], "/nonexistent/v.toml"),
    (["compare", "--baseline", "/nonexistent/b.toml", "--option-variant",
      "civ_pick_timing=on_milestone"], "/nonexistent/b.toml"),
    (["compare", "--confidence", "2", "--option-variant",
      "civ_pick_timing=on_milestone"], "--confidence"),
    (["compare", "--confidence", "nan", "--option-variant",
      "civ_pick_timing=on_milestone"], "--confidence"),
    (["compare", "--correction", "tukey"], "tukey"),
    (["compare", "--option-variant", "civ_pick_timing=on_milestone", "--players",
      "1", "--private-objectives"], "--players 1"),
    (["balance", "/nonexistent/s.toml", "--out", "/tmp/never"], "/nonexistent/s.toml"),
    (["balance", "s.toml"], "--out"),
    (["balance", "s.toml", "--out", "o", "--jobs", "0"], "--jobs"),
    (["balance", "s.toml", "--out", "o", "--backend", "gpu"], "gpu"),
    (["study", "--players", "9", "--smoke"], "--players"),
    (["study", "--players", "--smoke"], "--players"),
    (["study", "--variant", "/nonexistent/v.toml"], "/nonexistent/v.toml"),
    (["study", "--seed", "x"], "--seed"),
    (["study", "--games", "1.5"], "--games"),
    (["study", "--smoke", "--smoke-x"], "--smoke-x"),
    (["list", "options", "extra"], "extra"),
    (["--version", "x"], "x"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "word"), MORE_CLI_CASES)
def test_more_bad_command_lines(capsys, argv, word, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # nothing half-written lands in the checkout
    assert exit_code(argv) == 2
    assert word in one_line(capsys)
    assert not list(tmp_path.iterdir())  # nothing half-runs


def test_bad_files_on_the_command_line(tmp_path, capsys):
    files = {
        "empty.toml": "",
        "comment.toml": "# nothing\n",
        "no-table.toml": "[options]\n",
        "unnamed.toml": "[variant]\ndescription = 'x'\n",
        "bad.toml": "[variant\n",
        "binary.toml": "\udcff",
        "unknown.toml": "[variant]\nname = 'x'\n[spaceship]\nspeed = 1\n",
        "big.toml": "[corporation.cosmos_inc.tracks]\nwater = { 15 = 'medal:1 "
        + "synergy " * 20
        + "' }\n",
        "huge.toml": "[planet.gaia]\nrow_medals = { 0 = 300 }\n",
        "typed.toml": "[options]\nevent_deck = 'yes'\n",
        "search.toml": "[search]\nname = 'x'\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, errors="surrogateescape")
    cases = [
        *[([*S, "--variant", str(tmp_path / name)], name) for name in files],
        (["compare", "--games", "2", "--variant", str(tmp_path / "empty.toml")],
         "empty.toml"),
        (["compare", "--games", "2", "--baseline", str(tmp_path / "comment.toml"),
          "--option-variant", "civ_pick_timing=on_milestone"], "comment.toml"),
        (["balance", str(tmp_path / "empty.toml"), "--out", str(tmp_path / "o")],
         "[[change]]"),
        (["balance", str(tmp_path / "bad.toml"), "--out", str(tmp_path / "o")],
         "bad.toml"),
        (["play", "--variant", str(tmp_path / "unnamed.toml")], "unnamed.toml"),
    ]  # fmt: skip
    for argv, word in cases:
        assert exit_code(argv) == 2, argv
        assert word in one_line(capsys), argv
    assert not (tmp_path / "o").exists()
    assert len(cases) == 16


# --------------------------------------------------------------------------------
# More of the API
# --------------------------------------------------------------------------------


NO_FOLDER = "/nonexistent-folder/run"

MORE_API_CASES = [
    (lambda: pu_sim.TableSetup(paired="no"), ValueError, "paired"),
    (lambda: pu_sim.TableSetup(paired="false"), ValueError, "paired"),
    (lambda: pu_sim.TableSetup(paired=1), ValueError, "paired"),
    (lambda: pu_sim.TableSetup(paired=None), ValueError, "paired"),
    (lambda: pu_sim.TableSetup(unique_asymmetric="no"), ValueError, "unique_asymmetric"),
    (lambda: pu_sim.simulate(2, players=2, paired="yes"), ValueError, "paired"),
    (lambda: pu_sim.run(2, out=NO_FOLDER, round_scores="false"), ValueError, "round_scores"),
    (lambda: pu_sim.run(2, out=NO_FOLDER, round_scores=1), ValueError, "round_scores"),
    (lambda: pu_sim.run(2, out=NO_FOLDER, progress="no"), ValueError, "progress"),
    (lambda: pu_sim.run(2, out=NO_FOLDER, metadata="x"), ValueError, "metadata"),
    (lambda: pu_sim.run(2, out=NO_FOLDER, batch_size=10**6), ValueError, "batch_size"),
    (lambda: RuleOptions(event_deck_mix=(1, 2, 3)), ValueError, "sums to 6"),
    (lambda: RuleOptions(event_deck_mix=(-1, 11, 10)), ValueError, "counts >= 0"),
    (lambda: RuleOptions(event_deck_mix=(7, 7, 6, 0)), ValueError, "event_deck_mix"),
    (lambda: RuleOptions(event_deck_mix=(True, True, 18)), ValueError, "event_deck_mix"),
    (lambda: RuleOptions(event_deck_mix=(7.0, 7.0, 6.0)), ValueError, "event_deck_mix"),
    (lambda: RuleOptions(event_deck_mix="Random"), ValueError, "Random"),
    (lambda: RuleOptions(event_deck_mix=None), ValueError, "event_deck_mix"),
    (lambda: RuleOptions(station_interior_slots="straight-3"), ValueError, "station_interior_slots"),
    (lambda: RuleOptions(station_exterior_slots=(1, 2, 3, 4, 5, 6)), ValueError, "station_exterior_slots"),
    (lambda: RuleOptions(event_deck="true"), ValueError, "event_deck"),
    (lambda: RuleOptions(event_deck=1), ValueError, "event_deck"),
    (lambda: RuleOptions(private_objectives="no"), ValueError, "private_objectives"),
    (lambda: RuleOptions(interior_shift=True), ValueError, "interior_shift"),
    (lambda: RuleOptions(oasis_row11_medal="9"), ValueError, "oasis_row11_medal"),
    (lambda: RuleOptions(nope=1), TypeError, "nope"),
    (lambda: RuleOptions.parse("event_deck_mix", "5,5,5"), ValueError, "sums to 15"),
    (lambda: RuleOptions.parse("event_deck", "maybe"), ValueError, "maybe"),
    (lambda: RuleOptions.parse("nope", "1"), ValueError, "nope"),
    (lambda: pu_sim.simulate(1, options=RuleOptions(private_objectives=True)), ValueError, "players=1"),
    (lambda: Game(options=RuleOptions(private_objectives=True)), ValueError, "private_objectives"),
    (lambda: pu_sim.load_rules(variant=5), TypeError, "variant"),
    (lambda: pu_sim.load_rules(variant="/nonexistent/v.toml"), ValueError, "/nonexistent/v.toml"),
    (lambda: pu_sim.load_rules(variant=["/nonexistent/v.toml"]), ValueError, "v.toml"),
    (lambda: pu_sim.Variant.from_text(""), ValueError, "empty"),
    (lambda: pu_sim.Variant.from_text("# only words\n"), ValueError, "empty"),
    (lambda: pu_sim.Variant.from_text("[options]\n"), ValueError, "no [variant] table"),
    (lambda: pu_sim.Variant.from_text("[variant]\n"), ValueError, "names nothing"),
    (lambda: pu_sim.Variant.from_text("[variant]\nname = 1\n"), ValueError, "expected a string"),
    (lambda: pu_sim.Variant.from_text("[corporation.cosmos_inc]\nrovers = 300\n"), ValueError, "300"),
    (lambda: pu_sim.Variant.from_text("[planet.gaia]\nrow_medals = { 0 = 256 }\n"), ValueError, "256"),
    (lambda: pu_sim.Variant.from_text("[planet.gaia]\ncity_medals = -1\n"), ValueError, "city_medals"),
    (lambda: pu_sim.Variant.from_text("[corporation.cosmos_inc.tracks]\nwater = { 15 = 'medal:1 " + "synergy " * 20 + "' }\n"), ValueError, "at most 9"),
    (lambda: pu_sim.Variant.from_text("[options]\nevent_deck_mix = [1, 2, 3]\n"), ValueError, "event_deck_mix"),
    (lambda: pu_sim.Variant.from_text("[options]\nprivate_objectives = 'yes'\n"), ValueError, "private_objectives"),
    (lambda: pu_sim.Variant.from_text("[card.12]\neffects = { 0 = { count = 999 } }\n"), ValueError, "999"),
    (lambda: pu_sim.Variant.read("/nonexistent/v.toml"), ValueError, "/nonexistent/v.toml"),
    (lambda: pu_sim.simulate(2, variant="/nonexistent/v.toml"), ValueError, "/nonexistent/v.toml"),
    (lambda: pu_sim.simulate(2, variant=5), TypeError, "variant"),
    (lambda: pu_sim.compare([], 2), ValueError, "at least one variant"),
    (lambda: pu_sim.compare("/nonexistent/v.toml", 2), ValueError, "/nonexistent/v.toml"),
    (lambda: pu_sim.compare(IDENTITY, 2, confidence=2), ValueError, "confidence"),
    (lambda: pu_sim.compare(IDENTITY, 2, confidence=True), ValueError, "confidence"),
    (lambda: pu_sim.compare(IDENTITY, 2, correction="tukey"), ValueError, "tukey"),
    (lambda: pu_sim.compare(IDENTITY, 2, method="jackknife"), ValueError, "jackknife"),
    (lambda: pu_sim.compare(IDENTITY, 2, kinds="corporation"), ValueError, "kinds"),
    (lambda: pu_sim.compare(IDENTITY, 2, kinds=["seat"]), ValueError, "kinds"),
    (lambda: pu_sim.compare([IDENTITY, IDENTITY], 2), ValueError, "twice"),
    (lambda: scan_run(NO_FOLDER), ValueError, NO_FOLDER),
    (lambda: replay(NO_FOLDER, 0), ValueError, NO_FOLDER),
    (lambda: pu_sim.simulate(2, round_scores=True), TypeError, "round_scores"),
    (lambda: Game(players=2, seed=1).check_move(-5), ValueError, "move -5"),
    (lambda: bots.parse("greedy:line_complete="), ValueError, "line_complete"),
]  # fmt: skip

IDENTITY = pu_sim.Variant.from_text("[variant]\nname = 'same'\n", "same.toml")


@pytest.mark.parametrize(("call", "kind", "word"), MORE_API_CASES)
def test_more_bad_api_calls(call, kind, word):
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and word in message, message


# --------------------------------------------------------------------------------
# Damaged run folders, through the CLI and the API
# --------------------------------------------------------------------------------


def damaged_folders(tmp_path):
    """Run folders each damaged one way, and the words their one line holds."""

    def made(name):
        folder = tmp_path / name
        pu_sim.run(10, out=folder, players=2, bots="random", seed=4, batch_size=5)
        return folder

    def flip(file):
        data = bytearray(file.read_bytes())
        mid = len(data) // 2
        data[mid - 30 : mid + 30] = bytes(b ^ 0xFF for b in data[mid - 30 : mid + 30])
        file.write_bytes(bytes(data))

    def edit(folder, change):
        manifest = json.loads((folder / "manifest.json").read_text())
        change(manifest)
        (folder / "manifest.json").write_text(json.dumps(manifest))

    out = {}
    folder = made("deleted")
    part_files(folder)[1].unlink()
    out[folder] = "games 5..9 are missing"
    folder = made("flipped")
    flip(part_files(folder)[0])
    out[folder] = "games 0..4 in data/part-000000000000-000005.parquet are damaged"
    folder = made("truncated")
    part_files(folder)[1].write_bytes(part_files(folder)[1].read_bytes()[:64])
    out[folder] = "games 5..9 in data/part-000000000005-000005.parquet are damaged"
    folder = made("players")
    edit(folder, lambda m: m["config"].update(players=3))
    out[folder] = "config.players is 3"
    folder = made("table")
    edit(folder, lambda m: m["table"].update(events_on=1))
    out[folder] = "edited by hand"
    folder = made("parts")
    edit(folder, lambda m: m.update(parts="all of them"))
    out[folder] = "'parts'"
    return out


def test_damaged_folders_on_the_command_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cases = []
    for folder, words in damaged_folders(tmp_path).items():
        cases.append((["report", str(folder)], words))
        cases.append((["report", str(folder), "--out", str(tmp_path / "r")], words))
        if "edited" in words or "players" in words or "parts" in words:
            cases.append((["play", "--run", str(folder), "--game", "0"], words))
            cases.append((["simulate", "--games", "10", "--players", "2", "--bots",
                           "random", "--seed", "4", "--batch-size", "5", "--out",
                           str(folder)], words))  # fmt: skip
    for argv, words in cases:
        assert exit_code(argv) == 2, argv
        err = one_line(capsys)
        assert words in err and str(argv[1] if argv[0] == "report" else argv[-1]) in (
            err + str(argv)
        ), (argv, err)
    assert not (tmp_path / "r").exists() and not (tmp_path / "reports").exists()
    assert len(cases) == 18


def test_damaged_folders_through_the_api(tmp_path):
    from pu_sim.report.reporting import write_report

    cases = []
    for folder, words in damaged_folders(tmp_path).items():
        cases += [
            (lambda f=folder: scan_run(f).collect(), words),
            (lambda f=folder: write_report(f, tmp_path / "r"), words),
            (lambda f=folder: check_run(f).require(False), words),
        ]
    for call, words in cases:
        with pytest.raises(ValueError, match=re.escape(words)) as info:
            call()
        assert "\n" not in str(info.value), info.value
    assert not (tmp_path / "r").exists()
    assert len(cases) == 18


# --------------------------------------------------------------------------------
# The study scripts
# --------------------------------------------------------------------------------


STUDY_CASES = [
    ("seat_order", ["--jobs", "0"], "--jobs"),
    ("seat_order", ["--jobs", "x"], "--jobs"),
    ("seat_order", ["--seed", "-1"], "--seed"),
    ("seat_order", ["--seed", "1.5"], "--seed"),
    ("seat_order", ["--games", "0"], "--games"),
    ("seat_order", ["--players", "9"], "--players"),
    ("seat_order", ["--players", "0"], "--players"),
    ("seat_order", ["--players"], "--players"),
    ("seat_order", ["--second-share", "nan"], "--second-share"),
    ("seat_order", ["--second-share", "x"], "--second-share"),
    ("seat_order", ["--bot", "genius"], "genius"),
    ("seat_order", ["--second", "search:budget=-1"], "budget"),
    ("seat_order", ["--variant", "/nonexistent/v.toml"], "/nonexistent/v.toml"),
    ("seat_order", ["--smoke", "--smoke", "--players", "2", "--players", "3"], "--players 3"),
    ("corp_planet_balance", ["--corporations", "nope"], "nope"),
    ("corp_planet_balance", ["--planets", "mars"], "mars"),
    ("corp_planet_balance", ["--players", "7"], "--players"),
    ("corp_planet_balance", ["--jobs", "0"], "--jobs"),
    ("solo_target_calibration", ["--planets", "mars"], "mars"),
    ("solo_target_calibration", ["--corporations", "a+b"], "a+b"),
    ("solo_target_calibration", ["--search", "genius"], "genius"),
    ("solo_target_calibration", ["--variant", "/nonexistent/v.toml"], "v.toml"),
    ("bots/bot_ladder", ["--jobs", "0"], "--jobs"),
    ("bots/bot_ladder", ["--seed", "-1"], "--seed"),
    ("bots/search_gap", ["--variant", "/nonexistent/v.toml"], "v.toml"),
]  # fmt: skip


@pytest.mark.parametrize(("script", "argv", "word"), STUDY_CASES)
def test_bad_study_flags(script, argv, word, tmp_path, capsys):
    from experiment_scripts import load

    from pu_sim.studies.harness import guarded

    module = load(script)
    argv = [*argv, "--out", str(tmp_path / "out"), "--smoke"]
    try:
        code = guarded(lambda: module.main(argv))
    except SystemExit as exc:  # argparse's own one line
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and word in err, err
    assert not (tmp_path / "out").exists()  # nothing half-runs


def test_every_study_script_runs_its_main_guarded():
    from experiment_scripts import EXPERIMENTS

    for path in sorted(EXPERIMENTS.rglob("*.py")):
        text = path.read_text()
        if "def main(" in text and "start(" in text:
            assert "raise SystemExit(guarded(main))" in text, path.name


def test_the_fuzz_is_big_enough():
    folder_cases_count = 12 + 10  # test_bad_folders_*
    damaged = 18 + 18 + 16  # the damaged folders and bad files
    total = (len(CLI_CASES) + len(API_CASES) + folder_cases_count
             + len(MORE_CLI_CASES) + len(MORE_API_CASES) + damaged
             + len(STUDY_CASES))  # fmt: skip
    assert total >= 250, total
