"""Bots written in Python sit at a table like core bots, on the slow path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim.bots.python import FirstMoveBot, RandomBot, bot_path, load_bot
from pu_sim.game import Game
from pu_sim.simulation.python_bots import PythonBotError, evaluate_bots
from pu_sim.simulation.replay import replay
from pu_sim.simulation.runfolder import read_manifest, scan_run

sys.path.insert(0, str(Path(__file__).parent))
from python_bots_fixture import GreedyProxy, IllegalBot, LastMoveBot

TABLE = {"players": 3, "corporations": "random", "planets": "random"}


@pytest.mark.parametrize("seat", [0, 2])
def test_the_core_seats_play_exactly_as_on_the_fast_path(seat):
    """A Python bot that plays as greedy gives greedy's games, record for record."""
    core: list[object] = ["greedy_tuned", "greedy_tuned", "greedy_learned"]
    core[seat] = "greedy"  # the Python seat's stand-in in the core's spec
    python = list(core)
    python[seat] = GreedyProxy()
    fast = pu_sim.simulate(6, bots=core, seed=4, **TABLE)  # type: ignore[arg-type]
    slow = pu_sim.simulate(6, bots=python, seed=4, **TABLE)  # type: ignore[arg-type]
    assert slow.filter(seat=seat)["bot"].to_list() == ["greedy_proxy"] * 6
    assert_frame_equal(slow.drop("bot"), fast.drop("bot"))


def test_a_python_bot_changes_its_seats_play():
    greedy = pu_sim.simulate(4, players=2, bots="greedy", seed=2)
    last = pu_sim.simulate(4, players=2, bots=[LastMoveBot(), "greedy"], seed=2)
    assert greedy["score"].to_list() != last["score"].to_list()
    assert last.filter(seat=1)["bot"].unique().to_list() == ["greedy"]


def test_games_do_not_depend_on_batches_or_workers():
    """Each game gets a fresh copy of the bot, seeded from the game (RandomBot)."""
    table = {"players": 2, "bots": [RandomBot(3), "greedy"], "seed": 9}
    one = pu_sim.simulate(6, batch_size=6, n_jobs=1, **table)  # type: ignore[arg-type]
    many = pu_sim.simulate(6, batch_size=1, n_jobs=2, **table)  # type: ignore[arg-type]
    assert_frame_equal(one, many)
    tail = pu_sim.simulate(6, batch_size=4, n_jobs=1, **table)  # type: ignore[arg-type]
    assert_frame_equal(one, tail)


def test_a_run_folder_with_a_python_bot_resumes_reports_and_replays(tmp_path):
    out = tmp_path / "run"
    name = "python:python_bots_fixture:LastMoveBot"
    pu_sim.run(4, out=out, players=2, bots=[name, "greedy"], seed=5, batch_size=2)
    again = pu_sim.run(6, out=out, players=2, bots=[name, "greedy"], seed=5,
                       batch_size=2)  # fmt: skip
    assert (again.games_resumed, again.games_played) == (4, 2)
    manifest = read_manifest(out).to_json()
    assert manifest["config"]["bots"][0] == {
        "kind": "python", "label": "last_move", "params": {}, "python": name
    }  # fmt: skip
    frame = scan_run(out).collect()
    direct = pu_sim.simulate(6, players=2, bots=[LastMoveBot(), "greedy"], seed=5)
    assert_frame_equal(frame, direct)
    game = replay(out, 3)
    game.play()
    assert [s["score"] for s in game.scores()] == (
        frame.filter(game_id=3).sort("seat")["score"].to_list()
    )
    report = subprocess.run(
        [sys.executable, "-m", "pu_sim", "report", str(out), "--out",
         str(tmp_path / "report")],
        capture_output=True, text=True, check=False, cwd=Path(__file__).parent,
    )  # fmt: skip
    assert report.returncode == 0, report.stderr
    assert "last_move" in (tmp_path / "report" / "README.md").read_text()


def test_the_cli_seats_a_python_bot_by_name(tmp_path):
    out = tmp_path / "cli"
    result = subprocess.run(
        [sys.executable, "-m", "pu_sim", "simulate", "--players", "2", "--games", "2",
         "--bots", "python:python_bots_fixture:LastMoveBot,greedy", "--out", str(out)],
        capture_output=True, text=True, check=False, cwd=Path(__file__).parent,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert scan_run(out).collect().filter(seat=0)["bot"].unique().to_list() == [
        "last_move"
    ]


def test_game_step_asks_the_python_bot():
    game = Game(players=2, bots=[LastMoveBot(), "greedy"], seed=1)
    while game.decider != 0 or len(game.legal_moves()) < 2:
        game.step()
    assert game.bot_move() == game.legal_moves()[-1]


def test_evaluate_bots_plays_the_requested_games():
    frame = evaluate_bots(2, {1: FirstMoveBot()}, players=2, seed=3, first_game=5)
    assert sorted(frame["game_id"].unique().to_list()) == [5, 6]
    assert frame.filter(seat=1)["bot"].unique().to_list() == ["first_move"]
    same = pu_sim.simulate(7, players=2, bots=["greedy", FirstMoveBot()], seed=3)
    assert_frame_equal(frame, same.filter(pl.col("game_id") >= 5))


class _Crashing:
    name = "crashing"

    def step(self, game: Game) -> int:
        raise KeyError("no such square")


def test_a_failing_python_bot_is_named_with_its_seat_decision_and_game():
    with pytest.raises(
        PythonBotError,
        match=r"^Python bot 'crashing' failed at seat 1's \w+ decision of game 2: "
        r"KeyError: 'no such square'",
    ):
        evaluate_bots(1, {1: _Crashing()}, players=2, seed=1, first_game=2)


def test_round_scores_with_a_python_bot_are_refused_saying_why(tmp_path):
    from pu_sim.simulation.runner import RunError

    with pytest.raises(RunError, match=": round scores are kept on the fast path only"):
        pu_sim.run(2, out=tmp_path, players=2, bots=["greedy", LastMoveBot()],
                   round_scores=True, seed=1)  # fmt: skip


def test_evaluate_bots_names_the_bots_entry_that_does_not_fit_the_table():
    with pytest.raises(ValueError, match=r"^bots: got 3 entries for 2 players"):
        evaluate_bots(1, {1: FirstMoveBot()}, players=2, bots=["greedy"] * 3, seed=3)


def test_bad_python_bots_get_one_clear_line():
    with pytest.raises(PythonBotError, match="'illegal' chose 1000000000, not a legal"):
        pu_sim.simulate(1, players=2, bots=[IllegalBot(), "greedy"], seed=1, n_jobs=1)
    for name, words in [
        ("python:nowhere_module:Bot", "cannot import 'nowhere_module'"),
        ("python:python_bots_fixture:Missing", "has no 'Missing'"),
        ("python:python_bots_fixture", "python:package.module:Class"),
    ]:
        with pytest.raises(ValueError, match=words):
            load_bot(name)
    with pytest.raises(ValueError, match="named like a core bot"):
        pu_sim.simulate(1, players=2, bots=[_Named("greedy"), "greedy"])
    assert bot_path(LastMoveBot()) == "python:python_bots_fixture:LastMoveBot"


class _Named:
    def __init__(self, name: str) -> None:
        self.name = name

    def step(self, game: Game) -> int:
        return game.legal_moves()[0]
