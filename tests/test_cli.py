"""The pu-sim command: complete help, run folders, reports, one-line errors."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import types
from pathlib import Path

import pytest

import pu_sim
from pu_sim.cli import main
from pu_sim.simulation.runner import read_manifest, run

ROOT = Path(pu_sim.__file__).resolve().parents[1]


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith("pu-sim") and "error:" in err, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (
            "simulate",
            ["--games", "--players", "--corporations", "--planets", "--bots",
             "--seed", "--paired", "--out", "--jobs", "--batch-size", "--backend",
             "--scheduler", "--rules", "--events", "--no-events", "--deck",
             "--private-objectives", "--no-progress", "bga_random", "resume",
             "--variant"],
        ),
        ("report", ["RUN_FOLDER", "--out"]),
        ("play", ["--players", "--bots", "--seed", "--game-index", "--rules", "--deck",
                  "--variant"]),
        ("compare", ["--variant", "--baseline", "--option-variant", "--games",
                     "--players", "--paired", "--confidence", "--correction", "--out",
                     "--jobs", "--backend", "--scheduler"]),
        ("balance", ["SEARCH_FILE", "--out", "--runs", "--jobs", "--backend",
                     "--scheduler", "--no-confirm"]),
        ("study", ["--variant", "--games", "--smoke"]),
    ],
)  # fmt: skip
def test_every_subcommand_has_complete_help(capsys, command, words):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for word in words:
        assert word in text, word
    # every option carries a help text (argparse prints none otherwise)
    if command == "simulate":
        assert text.count("(") > 10


def test_top_level_help_lists_the_commands(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert all(c in text for c in ("simulate", "report", "play", "compare", "balance"))


def test_simulate_to_a_run_folder_prints_a_summary_and_resumes(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "--games", "12", "--players", "2", "--bots", "random",
            "--paired", "--rules", "bga", "--deck", "5,8,7", "--private-objectives",
            "--batch-size", "5", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert (
        "mean_score" in text and "12 games" in text and f"pu-sim report {out}" in text
    )
    m = read_manifest(out).to_json()
    assert m["status"] == "complete" and m["completed_batches"] == 3
    options = m["config"]["options"]
    assert options["event_deck"] is True  # --deck implies the deck, over bga's off
    assert options["event_deck_mix"] == [5, 8, 7]
    assert options["private_objectives"] is True
    assert options["event_round_rule_until"] == "next_event"  # the bga profile
    assert m["config"]["group_size"] == 2 and m["config"]["paired"] is True
    assert main(args) == 0
    assert "resumed: 12 games were already done" in capsys.readouterr().out


def test_simulate_without_out_leaves_nothing_behind(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    assert main(["simulate", "--games", "5", "--bots", "random", "--no-events"]) == 0
    assert "anomalies" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--corporations", "nope"], r"unknown corporation 'nope'; valid corporations: .*universal_coalition"),
        (["--planets", "mars"], r"unknown planet 'mars'; valid planets: .*ksb_4156"),
        (["--bots", "genius"], r"unknown bot 'genius'; valid bots"),
        (["--players", "7"], r"argument --players: must be an integer 1..6"),
        (["--players", "0"], r"argument --players: must be an integer 1..6"),
        (["--players", "2", "--deck", "0,0,20"], r"impossible event deck"),
        (["--deck", "7,7,7"], r"holds 20 cards"),
        (["--deck", "7,7"], r"--deck takes G,O,R"),
        (["--deck", "lots"], r"--deck takes G,O,R"),
        (["--deck", "7,7,6", "--no-events"], r"--no-events contradicts --deck 7,7,6"),
        (["--games", "-3"], r"argument --games: must be a positive integer, got '-3'"),
        (["--games", "five"], r"argument --games: must be a positive integer, got 'five'"),
        (["--players", "3", "--games", "10", "--paired"], r"multiple of group_size \(3\)"),
        (["--batch-size", "0"], r"argument --batch-size: must be an integer 1..999999"),
        (["--jobs", "0"], r"argument --jobs: must be a non-zero integer"),
        (["--backend", "gpu"], r"invalid choice: 'gpu'"),
        (["--backend", "threads", "--scheduler", "tcp://x:1"], r"needs backend 'dask'"),
        (["--rules", "tabletop"], r"invalid choice: 'tabletop'"),
        (["--frobnicate"], r"unrecognized arguments"),
    ],
)  # fmt: skip
def test_bad_input_exits_2_with_one_clear_line(capsys, args, message):
    argv = (
        ["simulate", *args]
        if "--games" in args
        else ["simulate", "--games", "4", *args]
    )
    assert exit_code(argv) == 2
    err = one_line_error(capsys)
    assert re.search(message, err), err


def exit_code(argv: list[str]) -> int | str | None:
    """main()'s return value, or the code argparse exits with."""
    try:
        return main(argv)
    except SystemExit as exc:
        return exc.code


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "--deck", "7,7"])
    assert exit_info.value.code == 2
    one_line_error(capsys)


def test_unwritable_output_folder_exits_2(tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    code = main(["simulate", "--games", "2", "--out", str(tmp_path / "file" / "run")])
    assert code == 2
    assert "cannot create run folder" in one_line_error(capsys)


def test_a_run_folder_with_another_configuration_exits_2(tmp_path, capsys):
    out = str(tmp_path / "run")
    assert main(["simulate", "--games", "4", "--bots", "random", "--out", out]) == 0
    capsys.readouterr()
    code = main(["simulate", "--games", "4", "--bots", "greedy", "--out", out])
    assert code == 2
    err = one_line_error(capsys)
    assert "holds a different run (bots random here greedy)" in err


def test_report_without_reporting_module_exits_2(tmp_path, capsys, monkeypatch):
    run(2, out=tmp_path, bots="random", seed=1)
    monkeypatch.setitem(sys.modules, "pu_sim.report.reporting", None)  # import fails
    assert main(["report", str(tmp_path)]) == 2
    assert "reports are not available" in one_line_error(capsys)


def test_report_calls_write_report(tmp_path, capsys, monkeypatch):
    run(2, out=tmp_path / "run", bots="random", seed=1)
    calls = []
    fake = types.ModuleType("pu_sim.report.reporting")

    def write_report(run_dir, out_dir=None, allow_incomplete=False):
        calls.append((Path(run_dir), out_dir))
        return Path(out_dir)

    fake.write_report = write_report  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pu_sim.report.reporting", fake)
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "rep")]) == 0
    assert calls == [(tmp_path / "run", tmp_path / "rep")]
    assert f"wrote the report to {tmp_path / 'rep'}" in capsys.readouterr().out


def test_report_on_a_folder_that_is_not_a_run_exits_2(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "is not a run folder: no manifest.json in it or below" in one_line_error(
        capsys
    )
    assert main(["report", str(tmp_path / "missing")]) == 2
    assert "no such folder" in one_line_error(capsys)


def test_report_accepts_a_study_folder_of_runs(tmp_path, capsys, monkeypatch):
    run(2, out=tmp_path / "study" / "a", bots="random", seed=1)
    with monkeypatch.context() as m:
        m.setattr("pu_sim.simulation.runner.write_part", _interrupt)
        with pytest.raises(KeyboardInterrupt):
            run(4, out=tmp_path / "study" / "b", bots="random", seed=1, batch_size=2)
    calls = []
    fake = types.ModuleType("pu_sim.report.reporting")
    fake.write_report = lambda run_dir, out_dir=None, allow_incomplete=False: (  # type: ignore[attr-defined]
        calls.append((run_dir, allow_incomplete))
    )
    monkeypatch.setitem(sys.modules, "pu_sim.report.reporting", fake)
    assert main(["report", str(tmp_path / "study")]) == 0
    assert main(["report", str(tmp_path / "study" / "b"), "--allow-incomplete"]) == 0
    assert calls == [(tmp_path / "study", False), (tmp_path / "study" / "b", True)]


def _interrupt(*args):
    raise KeyboardInterrupt


def test_play_accepts_rule_options(capsys):
    assert main(["play", "--players", "2", "--seed", "3", "--events", "--deck",
                 "random", "--bots", "random"]) == 0  # fmt: skip
    assert "event" in capsys.readouterr().out.lower()


def _run_on_terminal(args: list[str]) -> str:
    """Run pu-sim with stderr on a pseudo-terminal; return what it showed there."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pu_sim.cli", *args], stdout=subprocess.DEVNULL,
        stderr=slave, env=env,
    )  # fmt: skip
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(master, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    assert proc.returncode == 0
    return b"".join(chunks).decode(errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_shows_on_a_terminal_unless_switched_off(tmp_path):
    base = ["simulate", "--games", "40", "--bots", "random", "--batch-size", "4"]
    shown = _run_on_terminal([*base, "--out", str(tmp_path / "a")])
    assert "40/40" in shown and "games/s" in shown
    quiet = _run_on_terminal([*base, "--out", str(tmp_path / "b"), "--no-progress"])
    assert quiet == ""
