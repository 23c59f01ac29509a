"""The bot-development scripts' shared plumbing: flags from a Config, the report
folder and manifest, paired differences, chunks, the rollout helpers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pytest

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.game import Game
from pu_sim.lab import common
from pu_sim.lab.rollouts import decisions, top_moves
from pu_sim.simulation.manifest import read_report_manifest


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 100
    seed: int = 7
    rollouts: int = 4
    planets: str = field(default="base", metadata={"choices": ("base", "random")})
    groups: tuple[str, ...] = ("a", "b")
    start: Mapping[str, float] = field(default_factory=dict)
    ratio: float = 0.5
    fast: bool = False
    opponents: tuple[BotSpec, ...] = (bots.random(),)  # no flag: the Config sets it


def test_flags_come_from_the_config_and_smoke_yields_to_explicit_flags(tmp_path):
    argv = ["--out", str(tmp_path), "--smoke", "--rollouts", "9", "--groups", "c",
            "--start", '{"w": 1.5}', "--fast", "--planets", "random"]  # fmt: skip
    run = common.start("study", Config(), argv, doc="A study.\n\nMore.",
                       smoke={"n_games": 3, "rollouts": 1})  # fmt: skip
    c = run.config
    assert (c.n_games, c.rollouts, c.groups, c.start, c.fast, c.planets) == (
        3, 9, ("c",), {"w": 1.5}, True, "random")  # fmt: skip
    assert run.folder == tmp_path / "bots" / "study" / "smoke"
    assert run.command == (
        "python experiments/bots/study.py --games 3 --seed 7 --rollouts 9 --planets "
        "random --groups c --start '{\"w\": 1.5}' --ratio 0.5 --fast --smoke"
    )
    with pytest.raises(SystemExit):
        common.start("study", Config(), ["--opponents", "x"], doc=None, smoke={})
    with pytest.raises(SystemExit):
        common.start("study", Config(), ["--planets", "mars"], doc=None, smoke={})
    with pytest.raises(SystemExit):
        common.start("study", Config(), ["--games", "0"], doc=None, smoke={})


def test_run_names_checks_and_table_flags(tmp_path, capsys):
    run = common.start("study", Config(), ["--out", str(tmp_path), "--seed", "3"],
                       doc=None, smoke={})  # fmt: skip
    assert run.folder.name == "100-games-seed-3" and not run.write
    named = common.start(
        "study", Config(), ["--write", "--tables", str(tmp_path)], doc=None,
        smoke={}, table="place_fit", run_name=lambda c: f"x-{c.rollouts}",
    )  # fmt: skip
    assert named.folder.name == "x-4" and named.write and named.tables == tmp_path
    assert named.command.endswith("--write")
    with pytest.raises(SystemExit):
        common.start("study", Config(), [], doc=None, smoke={},
                     check=lambda c: "no good")  # fmt: skip
    assert "no good" in capsys.readouterr().err


def test_finish_writes_the_readme_and_the_one_manifest_shape(tmp_path):
    run = common.start("study", Config(), ["--out", str(tmp_path)], doc=None, smoke={})
    folder = run.finish(title="T", readme="# T\n", results={"x": np.float64(2.0)},
                        games=5)  # fmt: skip
    manifest = read_report_manifest(folder).to_json()
    assert (folder / "README.md").read_text() == "# T\n"
    assert manifest["results"] == {"x": 2.0} and manifest["games"] == 5
    assert manifest["config"]["n_games"] == 100 and manifest["study"] == "study"
    assert manifest["versions"]["fitted_digest"]
    # a smoke run asked to write without a folder of its own writes nothing
    smoke = common.start("s", Config(), ["--smoke", "--write"], doc=None, smoke={},
                         table="place_fit")  # fmt: skip
    assert smoke.write_table({"values": np.zeros((4, 9))}) is None


def test_paired_and_chunks():
    mean, half = common.paired([3.0, 5.0, 7.0], [1.0, 2.0, 3.0])
    assert mean == pytest.approx(3.0)
    assert half == pytest.approx(1.96 * np.std([2.0, 3.0, 4.0], ddof=1) / np.sqrt(3))
    assert common.paired([2.0], [1.0]) == (1.0, 0.0)
    parts = common.in_chunks(lambda games, k: [g * k for g in games], 45, 1, 2)
    assert len(parts) == 23 and [x for p in parts for x in p] == [
        2 * g for g in range(45)
    ]


def test_decisions_stop_before_the_named_decisions_and_play_the_bots_moves():
    game = Game(players=1, bots="greedy", seed=4)
    seen = [game.decision for _ in decisions(game, ("place",))]
    assert seen and set(seen) == {"place"} and game.is_terminal
    again = Game(players=1, bots="greedy", seed=4)
    again.play()
    assert game.scores() == again.scores()
    assert top_moves([1.0, 3.0, 3.0, 2.0], 3).tolist() == [1, 2, 3]
