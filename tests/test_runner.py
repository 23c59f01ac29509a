"""The runner: identical results however a run is split, interrupted or resumed."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim.rules import RULES_VERSION, RuleOptions
from pu_sim.simulation import provenance, runfolder, runner
from pu_sim.simulation.files import atomic_open
from pu_sim.simulation.manifest import write_manifest
from pu_sim.simulation.runfolder import RunFolderWarning
from pu_sim.simulation.runner import (
    RunError,
    RunFolderError,
    read_manifest,
    run,
    scan_run,
)
from pu_sim.simulation.seeds import RootSeed

ROOT = Path(pu_sim.__file__).resolve().parents[1]
ENUMS = ("corporation", "planet", "bot", "status", "end_trigger", "solo_band")


def games(path: Path) -> pl.DataFrame:
    return scan_run(path).collect()


def parts(path: Path) -> list[Path]:
    return sorted((path / "data").glob("*.parquet"))


def hidden(path: Path) -> list[Path]:
    return [p for p in (path / "data").iterdir() if p.name.startswith(".")]


# ---------------------------------------------------------------------------------
# Determinism
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize("bots", ["random", "greedy"])
def test_results_do_not_depend_on_jobs_batches_or_backend(tmp_path, bots):
    kw = dict(players=2, bots=bots, seed=11)
    n = 40 if bots == "greedy" else 120
    reference = pu_sim.simulate(n, **kw)
    settings = [
        dict(n_jobs=1, batch_size=n),
        dict(n_jobs=2, batch_size=7),
        dict(n_jobs=2, batch_size=3, backend="processes"),
        dict(n_jobs=2, batch_size=11, backend="loky"),
    ]
    for i, extra in enumerate(settings):
        out = tmp_path / f"run{i}"
        run(n, out=out, **kw, **extra)
        assert_frame_equal(games(out), reference)
        batch = extra["batch_size"]
        assert len(parts(out)) == -(-n // batch)


def test_results_do_not_depend_on_the_order_batches_run_in(tmp_path, monkeypatch):
    kw = dict(players=3, bots="random", seed=12, batch_size=3, n_jobs=1)
    reference = games(run(30, out=tmp_path / "a", **kw).path)
    real = runner.missing_ranges
    monkeypatch.setattr(runner, "missing_ranges", lambda *a: list(real(*a))[::-1])
    written = []
    real_write = runner.write_part
    monkeypatch.setattr(
        runner,
        "write_part",
        lambda d, f, n, b: written.append(f) or real_write(d, f, n, b),
    )
    run(30, out=tmp_path / "b", **kw)
    assert written == sorted(written, reverse=True)  # last batch written first
    assert_frame_equal(games(tmp_path / "b"), reference)


def test_paired_groups_are_identical_across_batch_boundaries(tmp_path):
    options = RuleOptions(event_deck=True, event_deck_mix="random")
    kw = dict(players=3, bots="random", seed=5, options=options)
    run(12, out=tmp_path / "a", paired=True, batch_size=12, **kw)
    run(12, out=tmp_path / "b", paired=True, batch_size=4, n_jobs=2, **kw)
    a = games(tmp_path / "a")
    assert_frame_equal(a, games(tmp_path / "b"))
    assert_frame_equal(a, pu_sim.simulate(12, group_size=3, **kw))
    assert read_manifest(tmp_path / "a").to_json()["config"]["group_size"] == 3
    # a group shares its setup (the event deck), groups differ
    decks = a.group_by((pl.col("game_id") // 3).alias("group")).agg(
        pl.col("deck_green").n_unique().alias("decks"), pl.col("deck_green").first()
    )
    assert decks["decks"].to_list() == [1] * 4
    unpaired = games(run(12, out=tmp_path / "c", **kw).path)
    assert (
        unpaired.group_by(pl.col("game_id") // 3)
        .agg(pl.col("deck_green").n_unique())["deck_green"]
        .max()
        > 1
    )


def test_paired_needs_whole_groups_and_agrees_with_group_size(tmp_path):
    with pytest.raises(ValueError, match=r"multiple of group_size \(4\)"):
        run(10, out=tmp_path / "a", players=4, paired=True)
    with pytest.raises(ValueError, match="paired=True sets group_size"):
        run(8, out=tmp_path / "b", players=4, paired=True, group_size=2)
    assert not (tmp_path / "a").exists()


def test_scan_is_in_game_order_with_enums(tmp_path):
    run(30, out=tmp_path, players=2, bots=["greedy", "random"], seed=2, batch_size=4,
        n_jobs=2)  # fmt: skip
    frame = games(tmp_path)
    assert frame.height == 60
    assert frame["game_id"].to_list() == sorted(frame["game_id"].to_list())
    assert frame.equals(frame.sort("game_id", "seat"))
    for col in ENUMS:
        assert isinstance(frame.schema[col], pl.Enum), col
    # the plain polars glob the analyses use reads the same thing
    glob = pl.scan_parquet(f"{tmp_path}/data/*.parquet").collect()
    assert_frame_equal(glob.sort("game_id", "seat"), frame)
    assert set(frame["bot"].cast(str)) == {"greedy", "random"}


def test_enums_are_restored_when_a_reader_returns_strings(tmp_path):
    run(6, out=tmp_path, players=1, bots="random", seed=2)
    file = parts(tmp_path)[0]
    plain = pl.read_parquet(file).with_columns(pl.col(ENUMS).cast(pl.String))
    plain.write_parquet(file)
    # as another Parquet writer would have written it: recorded with its checksum
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["parts"][0]["sha256"] = hashlib.sha256(file.read_bytes()).hexdigest()
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    frame = games(tmp_path)
    for col in ENUMS:
        assert isinstance(frame.schema[col], pl.Enum), col


def test_empty_run_has_the_schema(tmp_path):
    result = run(0, out=tmp_path, players=3, bots="random", seed=1)
    frame = result.scan().collect()
    assert frame.height == 0
    assert frame.columns[:3] == ["game_id", "seat", "n_players"]
    assert read_manifest(tmp_path).to_json()["status"] == "complete"


# ---------------------------------------------------------------------------------
# Manifest
# ---------------------------------------------------------------------------------


def test_manifest_records_the_run(tmp_path):
    options = RuleOptions(private_objectives=True, event_deck=True)
    bot = pu_sim.bots.greedy("tidy", hole=2.0)
    started = time.perf_counter()
    result = run(
        20, out=tmp_path, players=2, bots=[bot, "random"], seed=77, batch_size=6,
        n_jobs=2, options=options, metadata={"study": "demo", "pairing": "p1"},
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    m = read_manifest(tmp_path).to_json()
    assert m["metadata"] == {"study": "demo", "pairing": "p1"}
    assert m == result.manifest.to_json()  # the returned manifest is the file's
    assert m["status"] == "complete" and m["error"] is None
    assert (m["n_games"], m["completed_games"], m["completed_batches"]) == (20, 20, 4)
    assert m["batch_size"] == 6 and m["backend"] == "threads" and m["n_jobs"] == 2
    assert m["workers"] == 2 and m["sessions"][0]["workers"] == 2
    assert m["sessions"][0]["git"] == provenance.git_revision()
    config = m["config"]
    expected_args = {
        "n_games", "out", "players", "corporations", "planets", "bots", "seed",
        "n_jobs", "batch_size", "options", "unique_asymmetric", "group_size",
        "paired", "backend", "scheduler", "progress", "metadata", "variant",
        "round_scores",
    }  # fmt: skip
    assert set(config) == expected_args
    assert config["variant"] is None  # the published game
    assert config["round_scores"] is False  # the round score trace is opt-in
    assert config["options"] == json.loads(json.dumps(options.as_dict()))
    assert config["bots"][0] == {
        "kind": "greedy", "label": "tidy", "params": dict(bot.params)
    }  # fmt: skip
    assert config["bots"][1]["kind"] == "random"
    assert m["table"]["bot_labels"] == ["random", "tidy"]
    root = RootSeed.from_seed(77)
    assert m["seed"] == {"entropy": 77, "spawn_key": [], "root_key": [root.k0, root.k1]}
    versions = m["versions"]
    assert versions["rules"] == RULES_VERSION
    assert versions["engine"] == pu_sim._core.ENGINE_VERSION
    assert versions["pu_sim"] == pu_sim.__version__
    assert re.fullmatch(r"[0-9a-f]{64}", versions["rules_digest"])
    for lib in ("python", "numpy", "polars", "joblib", "tqdm"):
        assert versions[lib], lib
    if m["git"] is not None:  # a source checkout
        assert re.fullmatch(r"[0-9a-f]{40}", m["git"]["revision"])
        assert isinstance(m["git"]["dirty"], bool)
    assert m["machine"]["cpu_count"] == os.cpu_count()
    # the session's time is within the call's, and the speed is games / the
    # recorded time to a tenth (speed targets live in the benchmark, never in
    # a timed test); exact, since a tolerance of half a tenth failed when the
    # rate fell on a half (20 / 0.128 = 156.25 is recorded 156.2)
    session = m["sessions"][0]
    assert 0 < m["wall_time_s"] == session["wall_time_s"] <= elapsed
    assert m["games_per_s"] == session["games_per_s"] == round(20 / m["wall_time_s"], 1)
    assert [s["status"] for s in m["sessions"]] == ["complete"]
    assert m["enums"]["solo_band"] and m["enums"]["bot"] == ["random", "tidy"]
    assert not list(tmp_path.glob(".*.tmp"))


def test_manifest_file_is_valid_json_with_plain_values(tmp_path):
    run(4, out=tmp_path, players=1, bots="random", seed=np.random.SeedSequence(3))
    text = (tmp_path / "manifest.json").read_text()
    m = json.loads(text)
    assert m["config"]["seed"] == {"entropy": 3, "spawn_key": []}
    # no options given: the run records the rules it played, the defaults
    assert m["config"]["options"] == json.loads(json.dumps(RuleOptions().as_dict()))


# ---------------------------------------------------------------------------------
# Resume and refusal
# ---------------------------------------------------------------------------------


def test_resume_skips_finished_batches_and_can_extend(tmp_path):
    kw = dict(players=2, bots="random", seed=3, batch_size=5)
    run(20, out=tmp_path, **kw)
    stamps = {p.name: p.stat().st_mtime_ns for p in parts(tmp_path)}
    speed = read_manifest(tmp_path).to_json()
    again = run(20, out=tmp_path, **kw)
    assert (again.games_played, again.games_resumed) == (0, 20)
    # a resume with nothing to play leaves the run's time and speed alone
    resumed = read_manifest(tmp_path).to_json()
    for key in ("wall_time_s", "games_per_s"):
        assert resumed[key] == speed[key] > 0, key
    assert {p.name: p.stat().st_mtime_ns for p in parts(tmp_path)} == stamps
    bigger = run(33, out=tmp_path, **{**kw, "batch_size": 4})  # new batch size too
    assert (bigger.games_played, bigger.games_resumed) == (13, 20)
    assert_frame_equal(games(tmp_path), pu_sim.simulate(33, players=2, bots="random",
                                                        seed=3))  # fmt: skip
    m = read_manifest(tmp_path).to_json()
    assert len(m["sessions"]) == 3 and m["n_games"] == 33


def test_seed_none_resumes_with_the_recorded_seed(tmp_path):
    run(6, out=tmp_path, players=1, bots="random", seed=None)
    entropy = read_manifest(tmp_path).to_json()["seed"]["entropy"]
    run(10, out=tmp_path, players=1, bots="random", seed=None)
    expected = pu_sim.simulate(10, players=1, bots="random", seed=entropy)
    assert_frame_equal(games(tmp_path), expected)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (dict(seed=4), r"seed 3 here 4"),
        (dict(players=3), r"players 2 here 3"),
        (dict(bots="greedy"), r"bots random,random here greedy,greedy"),
        (dict(bots=pu_sim.bots.random("r2")), r"bots random,random here r2,r2"),
        (
            dict(options=RuleOptions(event_deck=True)),
            r"option event_deck null here true",
        ),
        (dict(paired=True), r"group_size 1 here 2"),
        (dict(n_games=8), r"holds a run of 10 games; asked for 8"),
    ],
)
def test_a_folder_with_a_different_run_is_refused(tmp_path, change, message):
    kw = dict(n_games=10, players=2, bots="random", seed=3)
    run(out=tmp_path, **kw)
    before = read_manifest(tmp_path)
    with pytest.raises(RunFolderError, match=message):
        run(out=tmp_path, **{**kw, **change})
    assert read_manifest(tmp_path) == before  # untouched


def test_a_folder_made_by_other_versions_is_refused(tmp_path):
    run(4, out=tmp_path, players=1, bots="random", seed=3)
    m = read_manifest(tmp_path)
    m.versions["engine"] = -1
    write_manifest(tmp_path, m)
    with pytest.raises(RunFolderError, match=r"engine version -1 here \d+"):
        run(4, out=tmp_path, players=1, bots="random", seed=3)


def test_a_folder_checks_only_the_fitted_tables_its_bots_read(tmp_path):
    """Another policy network (the whole fitted digest moves) leaves a folder
    of other bots resumable; a change to the tables its bots read does not."""
    kinds = {"greedy": ["greedy"], "policy_td": ["policy"], "random": ["random"]}
    digests = {bot: provenance.bots_fitted_digest(k) for bot, k in kinds.items()}
    assert len(set(digests.values())) == 3
    run(4, out=tmp_path, players=1, bots="random", seed=3)
    m = read_manifest(tmp_path)
    assert m.versions["bots_fitted_digest"] == digests["random"]
    assert m.versions["fitted_digest"] == provenance.game_versions()["fitted_digest"]
    m.versions["fitted_digest"] = "0" * 64
    write_manifest(tmp_path, m)
    assert run(4, out=tmp_path, players=1, bots="random", seed=3).games_played == 0
    m.versions["bots_fitted_digest"] = "0" * 64
    write_manifest(tmp_path, m)
    with pytest.raises(RunFolderError, match=r"bots_fitted_digest version 0{64} here"):
        run(4, out=tmp_path, players=1, bots="random", seed=3)


def test_folders_that_are_not_run_folders_are_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(RunFolderError, match="not a run folder"):
        run(2, out=tmp_path, bots="random")
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunFolderError, match="cannot create run folder"):
        run(2, out=tmp_path / "file" / "run", bots="random")
    with pytest.raises(RunFolderError, match=r"no manifest\.json"):
        scan_run(tmp_path)


def test_run_folders_are_found_by_their_manifests_alone(tmp_path):
    study = tmp_path / "study"
    run(2, out=study / "runs" / "b", bots="random", seed=1)
    run(2, out=study / "runs" / "a", bots="random", seed=2)
    assert runfolder.find_run_folders(study / "runs" / "a") == [study / "runs" / "a"]
    # A report written into its study folder keeps a manifest of another kind
    # there: it is passed over, and so is any manifest that is not a run's.
    (study / "manifest.json").write_text(json.dumps({"format": "pu_sim.report/1"}))
    (study / "notes").mkdir()
    (study / "notes" / "manifest.json").write_text("{}")
    assert runfolder.find_run_folders(study) == [
        study / "runs" / "a", study / "runs" / "b",
    ]  # fmt: skip
    assert runfolder.find_run_folders(tmp_path / "missing") == []
    (study / "notes" / "manifest.json").write_text("{not json")
    with pytest.raises(RunFolderError, match="cannot read"):
        runfolder.find_run_folders(study)


def test_the_lock_file_names_the_writer_alone(tmp_path):
    from pu_sim.simulation.files import LOCK, locked

    tmp_path.mkdir(exist_ok=True)
    (tmp_path / LOCK).write_text("4194304\n")  # left by a process long gone
    with locked(tmp_path):
        assert (tmp_path / LOCK).read_text() == f"{os.getpid()}\n"


def test_a_folder_in_use_is_refused(tmp_path):
    fcntl = pytest.importorskip("fcntl")
    run(2, out=tmp_path, bots="random", seed=1)
    with open(tmp_path / ".lock", "a+") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(RunFolderError, match="in use by another process"):
            run(4, out=tmp_path, bots="random", seed=1)
    run(4, out=tmp_path, bots="random", seed=1)  # lock released: fine again


def test_leftovers_are_cleaned_and_bad_parts_replayed(tmp_path):
    kw = dict(players=2, bots="random", seed=8, batch_size=5)
    run(15, out=tmp_path, **kw)
    reference = games(tmp_path)
    bad = parts(tmp_path)[1]
    bad.write_bytes(b"PAR1 truncated")  # a disk fault: unreadable
    tmp = tmp_path / "data" / ".part-000000000015-000005.parquet.tmp"
    tmp.write_bytes(b"half")  # left by a killed process
    assert pl.scan_parquet(f"{tmp_path}/data/*.parquet").collect_schema()  # not seen
    with pytest.warns(RunFolderWarning, match="games 5..9 are played again"):
        result = run(15, out=tmp_path, **kw)
    assert result.games_played == 5
    assert not tmp.exists()
    assert (tmp_path / "data" / (bad.name + ".bad")).exists()
    assert_frame_equal(games(tmp_path), reference)


def test_interrupt_keeps_finished_batches_and_resumes(tmp_path, monkeypatch):
    kw = dict(players=2, bots="random", seed=9, batch_size=4)
    real = runner.write_part
    calls = []

    def interrupted(*args):
        calls.append(args[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runner, "write_part", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run(20, out=tmp_path, **kw)
    m = read_manifest(tmp_path).to_json()
    assert m["status"] == "interrupted" and m["completed_batches"] == 2
    assert m["error"] == "interrupted" and m["sessions"][0]["n_jobs"] == -1
    assert len(parts(tmp_path)) == 2 and not hidden(tmp_path)
    monkeypatch.setattr(runner, "write_part", real)
    result = run(20, out=tmp_path, **kw)
    assert (result.games_resumed, result.games_played) == (8, 12)
    assert_frame_equal(games(tmp_path), pu_sim.simulate(20, players=2, bots="random",
                                                        seed=9))  # fmt: skip
    statuses = [s["status"] for s in read_manifest(tmp_path).to_json()["sessions"]]
    assert statuses == ["interrupted", "complete"]


def test_a_full_disk_loses_nothing_and_leaves_no_partial_file(tmp_path, monkeypatch):
    kw = dict(players=1, bots="random", seed=10, batch_size=5)
    real = runner.write_part
    calls = []

    def disk_fills(data_dir, first, n, data):
        calls.append(first)
        if len(calls) < 3:
            return real(data_dir, first, n, data)
        with atomic_open(data_dir / runfolder.part_name(first, n)) as fh:
            fh.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(runner, "write_part", disk_fills)
    with pytest.raises(RunError, match=r"No space left on device.*resume"):
        run(25, out=tmp_path, **kw)
    assert len(parts(tmp_path)) == 2 and not hidden(tmp_path)
    m = read_manifest(tmp_path).to_json()
    assert m["status"] == "interrupted" and "No space left" in m["error"]
    monkeypatch.setattr(runner, "write_part", real)
    run(25, out=tmp_path, **kw)
    assert_frame_equal(games(tmp_path), pu_sim.simulate(25, players=1, bots="random",
                                                        seed=10))  # fmt: skip


# ---------------------------------------------------------------------------------
# Killing a real `pu-sim simulate`
# ---------------------------------------------------------------------------------

KILL_ARGS = ["--games", "600", "--players", "2", "--bots", "greedy", "--seed", "21",
             "--batch-size", "10", "--jobs", "2"]  # fmt: skip


def cli(*args: str, **kw) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}  # fmt: skip
    return subprocess.Popen(
        [sys.executable, "-m", "pu_sim.cli", "simulate", *args], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw,
    )  # fmt: skip


def wait_for_parts(out: Path, count: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while len(parts(out)) < count if (out / "data").is_dir() else True:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.01)


def check_no_partial_files(out: Path) -> int:
    """Every visible part reads back complete; return the games they hold."""
    total = 0
    for file in parts(out):
        first, n = runfolder.parse_part_name(file.name)
        frame = pl.read_parquet(file)
        assert frame.height == 2 * n
        expected = [g for g in range(first, first + n) for _ in range(2)]
        assert frame["game_id"].to_list() == expected
        total += n
    return total


@pytest.fixture(scope="module")
def kill_reference():
    return pu_sim.simulate(600, players=2, bots="greedy", seed=21)


@pytest.mark.parametrize(
    ("sig", "status", "code"),
    [
        # nobody holds the lock of a killed run: it reads as interrupted
        (signal.SIGKILL, "interrupted", -signal.SIGKILL),
        (signal.SIGINT, "interrupted", 130),
        (signal.SIGTERM, "interrupted", 130),
    ],
    ids=["SIGKILL", "SIGINT", "SIGTERM"],
)
def test_killed_cli_run_resumes_to_the_uninterrupted_result(
    tmp_path, kill_reference, sig, status, code
):
    out = tmp_path / "run"
    proc = cli(*KILL_ARGS, "--out", str(out))
    wait_for_parts(out, 3, proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    if sig != signal.SIGKILL:
        assert "run the same command to resume" in err and "Traceback" not in err
    saved = check_no_partial_files(out)
    assert 30 <= saved < 600
    assert read_manifest(out).to_json()["status"] == status
    resumed = cli(*KILL_ARGS, "--out", str(out))
    stdout, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert f"resumed: {saved:,} games were already done" in stdout
    assert not hidden(out)
    assert_frame_equal(games(out), kill_reference)
    assert read_manifest(out).to_json()["status"] == "complete"


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if int(stat[1]) == pid and b"popen_loky" in cmd:
                out.append(int(entry.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_a_killed_worker_process_stops_the_run_cleanly(tmp_path, kill_reference):
    out = tmp_path / "run"
    args = [*KILL_ARGS, "--backend", "processes", "--out", str(out)]
    proc = cli(*args)
    wait_for_parts(out, 3, proc)
    workers = _children(proc.pid)
    assert workers, "no loky worker found"
    os.kill(workers[0], signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, err
    assert "TerminatedWorkerError" in err and "resume" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    check_no_partial_files(out)
    assert read_manifest(out).to_json()["status"] == "interrupted"
    resumed = cli(*args)
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert_frame_equal(games(out), kill_reference)


# ---------------------------------------------------------------------------------
# Dask
# ---------------------------------------------------------------------------------


def test_dask_cluster_gives_the_local_result(tmp_path):
    # no fixed port (scheduler port 0, its HTTP server on ':0', no dashboard),
    # so two suites at once cannot collide; 8787 is held to prove it (dask's
    # default there warns, an error under filterwarnings = error)
    distributed = pytest.importorskip(
        "dask.distributed", reason="dask[distributed] is not installed"
    )
    kw = dict(players=2, bots="greedy", seed=31, batch_size=6)
    reference = pu_sim.simulate(30, players=2, bots="greedy", seed=31)
    with _dashboard_port_taken():
        _dask_runs(distributed, tmp_path, kw, reference)


@contextlib.contextmanager
def _dashboard_port_taken() -> Iterator[None]:
    """Hold dask's default dashboard port 8787, as another suite's cluster would."""
    with socket.socket() as hold:
        with contextlib.suppress(OSError):  # taken already: the same situation
            hold.bind(("0.0.0.0", 8787))
            hold.listen()
        yield


def _dask_runs(distributed, tmp_path, kw, reference) -> None:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        scheduler_port=0, dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
    ) as cluster:  # fmt: skip
        result = run(30, out=tmp_path / "remote", scheduler=cluster.scheduler_address,
                      **kw)  # fmt: skip
    assert (
        result.manifest.to_json()["backend"] == "dask"
        and result.manifest.to_json()["workers"] == 2
    )
    assert result.manifest.to_json()["scheduler"].startswith("tcp://127.0.0.1:")
    session = result.manifest.to_json()["sessions"][0]
    assert session["scheduler"] == cluster.scheduler_address
    assert_frame_equal(games(tmp_path / "remote"), reference)
    run(30, out=tmp_path / "local", backend="dask", n_jobs=2, **kw)
    assert_frame_equal(games(tmp_path / "local"), reference)


def test_dask_needs_a_reachable_scheduler_and_the_dask_backend(tmp_path):
    with pytest.raises(ValueError, match="needs backend 'dask'"):
        run(2, out=tmp_path, backend="threads", scheduler="tcp://127.0.0.1:1")
    with pytest.raises(ValueError, match="unknown backend 'gpu'; valid: threads"):
        run(2, out=tmp_path, backend="gpu")


# ---------------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------------


def test_progress_is_quiet_without_a_terminal(tmp_path, capsys):
    run(10, out=tmp_path / "a", bots="random", seed=1, batch_size=2)
    assert capsys.readouterr().err == ""
    run(10, out=tmp_path / "b", bots="random", seed=1, batch_size=2, progress=True)
    err = capsys.readouterr().err
    assert "10/10" in err and "games/s" in err


def test_bad_counts_are_clear_errors(tmp_path):
    for kwargs, message in [
        (dict(n_games=-1), "n_games must be a non-negative integer"),
        (dict(n_games=5, batch_size=0), r"batch_size must be an integer 1\.\.999999"),
        (dict(n_games=5, batch_size=1_000_000), "batch_size must be"),
        (dict(n_games=5, n_jobs=0), "n_jobs must be a non-zero integer"),
        (dict(n_games=5, group_size=0), "group_size must be an integer >= 1"),
    ]:
        with pytest.raises(ValueError, match=message):
            run(out=tmp_path / "x", **kwargs)
    assert not (tmp_path / "x").exists()


def test_an_exception_is_described_in_one_line_even_without_a_message():
    from pu_sim.simulation.runner import _describe

    assert _describe(ValueError()) == "ValueError"
    assert _describe(ValueError("  ")) == "ValueError"
    assert _describe(OSError("disk full\nmore detail")) == "OSError: disk full"


def test_a_stream_without_isatty_is_no_terminal():
    from pu_sim.simulation.runner import _isatty

    class Closed:
        def isatty(self) -> bool:
            raise ValueError("I/O operation on closed file")

    assert _isatty(object()) is False
    assert _isatty(Closed()) is False
