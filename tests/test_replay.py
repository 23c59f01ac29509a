"""Any game of any run folder can be found again and replayed move by move."""

from __future__ import annotations

import re

import pytest

import pu_sim
from pu_sim.cli import main
from pu_sim.rules import RuleOptions
from pu_sim.simulation.replay import replay
from pu_sim.simulation.runfolder import RunFolderError, read_manifest


def final_scores(text: str) -> list[int]:
    return [int(s) for s in re.findall(r"^score p\d+: score=(-?\d+)", text, re.M)]


def test_a_paired_run_replays_game_by_game(tmp_path):
    options = RuleOptions(private_objectives=True)
    result = pu_sim.run(
        12, out=tmp_path / "run", players=3, corporations="random",
        planets="random", bots=["greedy", "random", "greedy_tuned"], seed=5,
        paired=True, options=options, batch_size=5,
    )  # fmt: skip
    frame = result.scan().collect()
    for game_id in (0, 4, 11):
        game = replay(tmp_path / "run", game_id)
        game.play()
        recorded = frame.filter(frame["game_id"] == game_id).sort("seat")
        assert [s["score"] for s in game.scores()] == recorded["score"].to_list()
        assert game.board_names(0).split(" on ")[0] == recorded["corporation"][0]


def test_the_cli_replays_a_runs_game(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["simulate", "--games", "8", "--players", "2", "--paired",
                 "--corporations", "random", "--seed", "9", "--out", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    frame = pu_sim.scan_run(out).collect()
    capsys.readouterr()
    assert main(["play", "--run", str(out), "--game", "5"]) == 0
    printed = final_scores(capsys.readouterr().out)
    assert (
        printed == frame.filter(frame["game_id"] == 5).sort("seat")["score"].to_list()
    )


def test_play_with_the_runs_flags_is_the_same_game(tmp_path, capsys):
    # `play --seed S --game-index N` with the run's table flags is game N of the run
    out = tmp_path / "run"
    flags = ["--players", "2", "--corporations", "random", "--planets", "random"]
    assert main(["simulate", "--games", "4", *flags, "--seed", "5", "--out", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["play", *flags, "--seed", "5", "--game-index", "3"]) == 0
    frame = pu_sim.scan_run(out).collect()
    expected = frame.filter(frame["game_id"] == 3).sort("seat")["score"].to_list()
    assert final_scores(capsys.readouterr().out) == expected


def test_the_recorded_table_is_the_runs_own(tmp_path):
    pu_sim.run(2, out=tmp_path, players=2, bots="search:budget=2", seed=1,
               options=RuleOptions(event_deck=True, event_deck_mix=(5, 8, 7)))  # fmt: skip
    table = read_manifest(tmp_path).table_setup()
    assert table.options.event_deck_mix == (5, 8, 7)
    assert [b.label for b in table.seat_bots()] == ["search:budget=2"] * 2
    assert table.seat_bots()[0].params["budget"] == 2.0


def test_a_game_outside_the_run_is_refused(tmp_path, capsys):
    pu_sim.run(3, out=tmp_path, seed=1)
    with pytest.raises(RunFolderError, match=r"has games 0..2; no game 3"):
        replay(tmp_path, 3)
    assert main(["play", "--run", str(tmp_path)]) == 2
    assert "--run RUN_FOLDER and --game N go together" in capsys.readouterr().err
