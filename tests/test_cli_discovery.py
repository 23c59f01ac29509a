"""What a new user finds without reading the code: versions, lists, names, flags."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pu_sim
from pu_sim.bots import BOT_NAMES
from pu_sim.cli import main
from pu_sim.cli.parser import build
from pu_sim.rules import RuleOptions, load_game_data
from pu_sim.simulation.runfolder import read_manifest

DATA = load_game_data()


def test_version(capsys):
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"pu-sim {pu_sim.__version__} (rules ")


def test_python_dash_m_runs_the_command():
    done = subprocess.run([sys.executable, "-m", "pu_sim", "--help"],
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0 and "simulate" in done.stdout and "list" in done.stdout


def test_list_shows_keys_and_display_names(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for board in (*DATA.corporations, *DATA.planets):
        assert any(
            board.key in line and board.name in line for line in out.splitlines()
        )
    for name, choice in RuleOptions.choices().items():
        assert f"  {name}: " in out
        assert f"(default {str(choice.default).lower()}" in out or choice.form
    assert "greedy_tuned" in out and "search:budget=64" in out


def test_list_of_one_section(capsys):
    assert main(["list", "planets"]) == 0
    out = capsys.readouterr().out
    assert "KSB-4156" in out and "Horizon Group" not in out


def test_list_bots_says_what_every_bot_is_in_one_column(capsys):
    assert main(["list", "bots"]) == 0
    lines = capsys.readouterr().out.splitlines()
    starts = set()
    for name in BOT_NAMES:
        line = next(ln for ln in lines if ln.split()[:1] == [name])
        text = line[len(f"  {name}") :]
        starts.add(len(line) - len(text.lstrip()))
        assert text.strip()  # a description, not just the name
    assert len(starts) == 1


def test_display_names_work_as_keys(tmp_path):
    frame = pu_sim.simulate(2, players=2, corporations=["Horizon Group", "cosmos inc."],
                            planets=["K-273", "gaia"], seed=1, n_jobs=1)  # fmt: skip
    assert set(frame["corporation"]) == {"Horizon Group", "Cosmos Inc."}
    assert main(["simulate", "--games", "2", "--players", "2", "--corporations",
                 "Horizon Group,Makeshift", "--out", str(tmp_path / "r"),
                 "--no-progress"]) == 0  # fmt: skip
    assert set(pu_sim.scan_run(tmp_path / "r").collect()["corporation"]) == {
        "Horizon Group", "Makeshift"}  # fmt: skip


def test_a_pool_per_seat_on_the_command_line(tmp_path):
    out = tmp_path / "run"
    assert main(["simulate", "--games", "40", "--players", "2", "--corporations",
                 "cosmos_inc+wormhole_corp,makeshift", "--out", str(out),
                 "--no-progress"]) == 0  # fmt: skip
    frame = pu_sim.scan_run(out).collect()
    first = set(frame.filter(frame["seat"] == 0)["corporation"])
    assert first == {"Cosmos Inc.", "Wormhole Corp."}
    assert set(frame.filter(frame["seat"] == 1)["corporation"]) == {"Makeshift"}


def test_every_rule_option_is_settable_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    args = ["simulate", "--games", "2", "--out", str(out), "--no-progress",
            "--option", "civ_pick_timing=on_milestone",
            "--option", "oasis_row11_medal=8", "--option", "interior_shift=3",
            "--option", "station_interior_slots=none",
            "--option", "event_deck_mix=random", "--option", "pajitnov-slide=one_step"]  # fmt: skip
    assert main(args) == 0
    options = read_manifest(out).to_json()["config"]["options"]
    assert options["civ_pick_timing"] == "on_milestone"
    assert options["oasis_row11_medal"] == 8 and options["interior_shift"] == 3
    assert options["event_deck_mix"] == "random"
    assert options["pajitnov_slide"] == "one_step"
    parser = build()
    for name, choice in RuleOptions.choices().items():
        value = choice.values[-1]
        ns = parser.parse_args(["simulate", "--option", f"{name}={value}"])
        assert ns.option[0] == (name, value)


def test_search_budget_and_width_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    assert main(["simulate", "--games", "1", "--bots", "search:budget=4:width=3",
                 "--out", str(out), "--no-progress"]) == 0  # fmt: skip
    bot = read_manifest(out).to_json()["config"]["bots"][0]
    assert bot["label"] == "search:budget=4:width=3"
    assert (bot["params"]["budget"], bot["params"]["width"]) == (4.0, 3.0)


def test_the_solo_summary_shows_the_target_not_a_win_rate(capsys):
    assert main(["simulate", "--games", "20", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "target" in out and "success" in out and "win_rate" not in out
    assert main(["simulate", "--games", "4", "--players", "2", "--no-progress"]) == 0
    assert "win_rate" in capsys.readouterr().out


def test_one_jobs_and_seed_default_everywhere():
    import inspect

    from pu_sim.simulation.seeds import DEFAULT_SEED
    from pu_sim.studies import harness
    from pu_sim.studies import main as study

    parser = build()
    for argv in (["simulate"], ["compare"], ["play"]):
        parsed = parser.parse_args(argv)
        assert (parsed.jobs if argv != ["play"] else -1, parsed.seed) == (
            -1, DEFAULT_SEED)  # fmt: skip
    main_study = harness.start("main", study.Config(), [], doc=None, smoke={},
                               out=Path("runs"))  # fmt: skip
    assert (main_study.jobs, main_study.config.seed) == (-1, DEFAULT_SEED)
    for fn in (pu_sim.simulate, pu_sim.run):
        assert inspect.signature(fn).parameters["n_jobs"].default == -1
    assert inspect.signature(harness.play_run).parameters["jobs"].default == -1


def test_the_study_writes_outside_the_checkout_unless_asked(capsys):
    with pytest.raises(SystemExit):
        main(["study", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "usage: pu-sim study" in text and "reports root (runs/)" in text
