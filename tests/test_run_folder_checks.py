"""Every read of a run folder checks it against its manifest: nothing read quietly.

``scan_run``, ``pu-sim report`` (and ``write_report``), ``replay`` and a resumed
``run`` check the folder's games, batches, parts and checksums against the
manifest: a run with games missing or damaged is refused in one line naming
the games and how to repair them (run the same command again), unless asked
(``allow_incomplete``, ``--allow-incomplete``: the report says so in its first
lines); a manifest edited by hand is refused; a resumed run says in Python
too what it plays again.  A hypothesis test damages folders at random.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import warnings
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim.cli import main
from pu_sim.report.reporting import write_report
from pu_sim.simulation.manifest import ManifestError
from pu_sim.simulation.replay import replay
from pu_sim.simulation.runfolder import (
    IncompleteRunError,
    RunFolderError,
    RunFolderWarning,
    check_run,
    part_files,
    read_manifest,
    scan_run,
)

KW = dict(players=2, bots="random", seed=8, batch_size=5)


def made(path: Path, n_games: int = 15) -> Path:
    pu_sim.run(n_games, out=path, **KW)
    return path


def flip(file: Path, at: float = 0.5, width: int = 40) -> None:
    data = bytearray(file.read_bytes())
    mid = int(len(data) * at)
    lo, hi = max(0, mid - width), min(len(data), mid + width)
    data[lo:hi] = bytes(b ^ 0xFF for b in data[lo:hi])
    file.write_bytes(bytes(data))


def edit_manifest(path: Path, change) -> None:
    manifest = json.loads((path / "manifest.json").read_text())
    change(manifest)
    (path / "manifest.json").write_text(json.dumps(manifest))


def one_line_error(capsys, argv) -> str:
    assert main(argv) == 2, argv
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# --------------------------------------------------------------------------------
# scan_run
# --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda parts: parts[1].unlink(), "games 5..9 are missing (5 of 15)"),
        (lambda parts: flip(parts[0]), "games 0..4 in data/part-000000000000-000005"),
        (lambda parts: parts[2].write_bytes(parts[2].read_bytes()[:100]),
         "games 10..14 in data/part-000000000010-000005.parquet are damaged"),
        (lambda parts: parts[0].write_bytes(parts[1].read_bytes()), "are damaged"),
    ],
)  # fmt: skip
def test_scan_run_refuses_a_damaged_or_incomplete_run_in_one_line(
    tmp_path, damage, words
):
    run = made(tmp_path / "run")
    damage(part_files(run))
    with pytest.raises(IncompleteRunError) as info:
        scan_run(run).collect()
    message = str(info.value)
    assert words in message and "\n" not in message
    assert "run the command that made it again" in message
    with pytest.warns(RunFolderWarning, match="is incomplete"):
        frame = scan_run(run, allow_incomplete=True).collect()
    assert frame.height == 10 * 2  # the two good parts, nothing that fails to read


def test_a_running_or_interrupted_run_is_incomplete(tmp_path, monkeypatch):
    from pu_sim.simulation import runner

    real = runner.write_part
    calls = []

    def interrupted(*args):
        calls.append(args)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(runner, "write_part", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pu_sim.run(15, out=tmp_path, n_jobs=1, **KW)
    check = check_run(tmp_path)
    assert not check.complete and check.missing == ((5, 10),)
    with pytest.raises(IncompleteRunError, match=r"games 5\.\.14 are missing"):
        scan_run(tmp_path)


def test_a_complete_run_reads_without_a_word(tmp_path):
    run = made(tmp_path / "run")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert scan_run(run).collect().height == 30
    check = check_run(run)
    assert check.complete and len(check.parts) == 3 and check.notes == ()
    manifest = json.loads((run / "manifest.json").read_text())
    assert [p["file"] for p in manifest["parts"]] == [
        f"data/{f.name}" for f in part_files(run)
    ]
    assert all(len(p["sha256"]) == 64 for p in manifest["parts"])


def test_round_score_parts_are_checked_too(tmp_path):
    pu_sim.run(10, out=tmp_path, round_scores=True, **KW)
    rounds = sorted((tmp_path / "round_scores").glob("part-*.parquet"))
    assert [p["file"] for p in read_manifest(tmp_path).to_json()["parts"]][-2:] == [
        f"round_scores/{f.name}" for f in rounds
    ]
    flip(rounds[0])
    with pytest.raises(IncompleteRunError, match="round_scores/part-"):
        scan_run(tmp_path)
    with pytest.warns(RunFolderWarning, match="games 0..4 are played again"):
        result = pu_sim.run(10, out=tmp_path, round_scores=True, **KW)
    assert result.games_played == 5 and check_run(tmp_path).complete


# --------------------------------------------------------------------------------
# An edited manifest
# --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda m: m["config"].update(players=3), "config.players is 3"),
        (lambda m: m["table"].update(n_players=3), "config.players is 2"),
        (lambda m: m["seed"]["root_key"].__setitem__(0, 5), "root_key"),
        (lambda m: m["config"].update(seed=9), "root_key does not derive"),
        (lambda m: m["config"].update(unique_asymmetric=False), "checksum"),
        (lambda m: m["table"].update(events_on=1), "checksum"),
        (lambda m: m.update(n_games=10), "checksum"),
    ],
)  # fmt: skip
def test_a_manifest_edited_by_hand_is_refused_by_every_reader(
    tmp_path, capsys, monkeypatch, change, words
):
    run = made(tmp_path / "run")
    edit_manifest(run, change)
    for call in (lambda: read_manifest(run), lambda: scan_run(run),
                 lambda: replay(run, 0), lambda: pu_sim.run(15, out=run, **KW),
                 lambda: write_report(run, tmp_path / "rep")):  # fmt: skip
        with pytest.raises(ManifestError) as info:
            call()
        assert "edited by hand" in str(info.value) and words in str(info.value)
    monkeypatch.chdir(tmp_path)
    assert words in one_line_error(capsys, ["report", str(run)])
    assert "edited by hand" in one_line_error(
        capsys, ["play", "--run", str(run), "--game", "0"]
    )
    assert not (tmp_path / "rep").exists() and not (tmp_path / "reports").exists()


def test_metadata_may_change_freely(tmp_path):
    run = made(tmp_path / "run")
    edit_manifest(run, lambda m: m["metadata"].update(name="renamed"))
    assert read_manifest(run).name == "renamed"
    assert scan_run(run).collect().height == 30


def test_round_scores_of_an_incomplete_run_are_read_only_when_asked_and_quietly(
    tmp_path,
):
    from pu_sim.simulation.runfolder import scan_round_scores

    pu_sim.run(10, out=tmp_path, round_scores=True, **KW)
    flip(sorted((tmp_path / "round_scores").glob("part-*.parquet"))[0])
    with pytest.raises(IncompleteRunError, match="round_scores/part-"):
        scan_round_scores(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the caller's scan_run has said it already
        table = scan_round_scores(tmp_path, allow_incomplete=True)
    assert table is not None and table.collect()["game_id"].min() == 5


def test_parts_the_manifest_does_not_list_are_recorded_as_written(tmp_path):
    # a run stopped before its manifest listed its last parts: the check
    # re-derives each part's record (games, rows, checksum) from the file
    pu_sim.run(10, out=tmp_path, round_scores=True, **KW)
    written = sorted(check_run(tmp_path).records, key=lambda r: r.file)
    assert any(r.file.startswith("round_scores/") for r in written)
    edit_manifest(tmp_path, lambda m: [m.pop("parts"), m.pop("record_sha256")])
    check = check_run(tmp_path)
    assert check.complete
    assert sorted(check.records, key=lambda r: r.file) == written


def test_an_older_manifest_without_checksums_reads_with_a_note(tmp_path):
    run = made(tmp_path / "run")
    reference = scan_run(run).collect()
    edit_manifest(run, lambda m: [m.pop("parts"), m.pop("record_sha256")])
    assert read_manifest(run).parts is None
    with pytest.warns(RunFolderWarning, match="written before part checksums"):
        assert_frame_equal(scan_run(run).collect(), reference)
    flip(part_files(run)[1])  # found by reading the part whole
    with (
        pytest.warns(RunFolderWarning, match="written before part checksums"),
        pytest.raises(IncompleteRunError, match=r"games 5\.\.9 in"),
    ):
        scan_run(run)
    with pytest.warns(RunFolderWarning, match="games 5..9 are played again"):
        pu_sim.run(15, out=run, **KW)
    assert read_manifest(run).parts is not None  # checksums recorded on resume
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_frame_equal(scan_run(run).collect(), reference)


# --------------------------------------------------------------------------------
# Reports, replays, resumes, compare
# --------------------------------------------------------------------------------


def test_report_refuses_an_incomplete_run_unless_asked(tmp_path, capsys, monkeypatch):
    run = made(tmp_path / "run")
    part_files(run)[1].unlink()
    monkeypatch.chdir(tmp_path)
    err = one_line_error(capsys, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert "games 5..9 are missing (5 of 15)" in err and "--allow-incomplete" in err
    assert not (tmp_path / "rep").exists()
    with pytest.raises(IncompleteRunError, match="allow_incomplete=True"):
        write_report(run, tmp_path / "rep")
    assert main(["report", str(run), "--out", str(tmp_path / "rep"),
                 "--allow-incomplete"]) == 0  # fmt: skip
    assert "pu-sim: note: run folder" in capsys.readouterr().err
    lines = (tmp_path / "rep" / "README.md").read_text().splitlines()
    assert lines[0].startswith("# ")
    assert lines[2].startswith("**Written from an incomplete run.**")
    assert "games 5..9 are missing" in lines[2] and "10 games" in lines[2]
    manifest = json.loads((tmp_path / "rep" / "manifest.json").read_text())
    assert manifest["results"]["incomplete"] and manifest["games"] == 10


def test_a_complete_report_says_nothing_of_the_kind(tmp_path):
    run = made(tmp_path / "run")
    readme = (write_report(run, tmp_path / "rep") / "README.md").read_text()
    assert "incomplete" not in readme


def test_replay_of_an_incomplete_run_says_so_and_replays(tmp_path, capsys):
    run = made(tmp_path / "run")
    part_files(run)[0].unlink()
    with pytest.warns(RunFolderWarning, match="replayed from the run's seed"):
        game = replay(run, 2)
    assert game.game_index == 2
    assert main(["play", "--run", str(run), "--game", "2"]) == 0
    assert "pu-sim: note: run folder" in capsys.readouterr().err


def test_run_in_python_says_what_it_plays_again(tmp_path):
    run = made(tmp_path / "run")
    reference = scan_run(run).collect()
    part_files(run)[2].unlink()
    with pytest.warns(RunFolderWarning, match=r"games 10\.\.14 are played again"):
        result = pu_sim.run(15, out=run, **KW)
    assert result.games_played == 5 and len(result.repaired) == 1
    assert_frame_equal(scan_run(run).collect(), reference)


def test_compare_says_what_it_plays_again(tmp_path):
    text = '[variant]\nname = "rich"\n[corporation.cosmos_inc.tracks]\nwater = { 15 = "medal:12" }\n'
    variant = pu_sim.Variant.from_text(text, "rich.toml")
    args = dict(players=2, bots="random", seed=1, n_jobs=1, out=tmp_path / "c",
                corporations=["cosmos_inc", "universal_coalition"])  # fmt: skip
    pu_sim.compare(variant, 4, **args)
    part_files(tmp_path / "c" / "runs" / "rich")[0].unlink()
    with pytest.warns(RunFolderWarning, match="are played again"):
        result = pu_sim.compare(variant, 4, **args)
    assert result.effects.height


# --------------------------------------------------------------------------------
# Random damage (hypothesis)
# --------------------------------------------------------------------------------


def _truncate(folder: Path, i: int, cut: float) -> None:
    file = part_files(folder)[i]
    data = file.read_bytes()
    file.write_bytes(data[: int(len(data) * cut)])


def _append(folder: Path, i: int, cut: float) -> None:
    file = part_files(folder)[i]
    file.write_bytes(file.read_bytes() + b"\x00" * (1 + int(cut * 50)))


def _swap(folder: Path, i: int, cut: float) -> None:
    files = part_files(folder)
    j = (i + 1) % len(files)
    a, b = files[i].read_bytes(), files[j].read_bytes()
    files[i].write_bytes(b)
    files[j].write_bytes(a)


def _manifest(key: str, value: object):
    def damage(folder: Path, i: int, cut: float) -> None:
        edit_manifest(folder, lambda m: m.update({key: value}))

    return damage


DAMAGE = {
    "delete": lambda f, i, cut: part_files(f)[i].unlink(),
    "flip": lambda f, i, cut: flip(part_files(f)[i], cut, 1 + int(cut * 60)),
    "truncate": _truncate,
    "append": _append,
    "swap": _swap,
    "stray .parquet": lambda f, i, cut: (f / "data" / "part-x.parquet").write_text(
        "junk"
    ),
    "manifest players": lambda f, i, cut: edit_manifest(
        f, lambda m: m["config"].update(players=1 + i)
    ),
    "manifest n_games": _manifest("n_games", 20),
    "manifest no seed": lambda f, i, cut: edit_manifest(f, lambda m: m.pop("seed")),
    "manifest parts": _manifest("parts", [{"file": 3}]),
    "manifest truncated": lambda f, i, cut: (f / "manifest.json").write_text(
        (f / "manifest.json").read_text()[: int(200 * cut)]
    ),
    "manifest deleted": lambda f, i, cut: (f / "manifest.json").unlink(),
}


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory) -> tuple[Path, pl.DataFrame]:
    folder = made(tmp_path_factory.mktemp("reference") / "run")
    return folder, scan_run(folder).collect()


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow,
                                 HealthCheck.function_scoped_fixture])  # fmt: skip
@given(
    damages=st.lists(
        st.tuples(st.sampled_from(sorted(DAMAGE)), st.integers(0, 2),
                  st.floats(0.0, 1.0)),
        min_size=1, max_size=3,
    )
)  # fmt: skip
def test_a_damaged_run_folder_is_never_read_quietly(
    reference_run, tmp_path_factory, damages
):
    source, reference = reference_run
    folder = tmp_path_factory.mktemp("damaged") / "run"
    shutil.copytree(source, folder)
    for name, i, cut in damages:
        # damage to what an earlier damage removed or broke does nothing
        with contextlib.suppress(IndexError, KeyError, OSError, ValueError):
            DAMAGE[name](folder, i, cut)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RunFolderWarning)
        read = _outcome(lambda: scan_run(folder).collect())
        if isinstance(read, Exception):  # ManifestError, IncompleteRunError too
            assert isinstance(read, RunFolderError), read
            assert "\n" not in str(read) and str(folder) in str(read), read
        else:  # read without a word: only when it is the very run
            assert_frame_equal(read, reference)
        # a resume repairs what is damaged, or refuses the folder in one line
        resumed = _outcome(lambda: pu_sim.run(15, out=folder, **KW))
        if isinstance(resumed, Exception):
            assert isinstance(resumed, RunFolderError), resumed
            assert "\n" not in str(resumed) and str(folder) in str(resumed), resumed
        else:
            assert_frame_equal(scan_run(folder).collect(), reference)


def _outcome(call):
    """What ``call`` returned, or the exception it raised."""
    try:
        return call()
    except Exception as exc:
        return exc


def test_a_readers_failure_is_said_in_a_few_words():
    from pu_sim.simulation.runfolder import _reason

    assert _reason(OSError("bad footer\nmore")) == "unreadable (OSError: bad footer)"
    assert _reason(ValueError("x" * 300)) == f"unreadable (ValueError: {'x' * 120})"
    assert _reason(ValueError()) == "unreadable (ValueError: )"


def test_a_root_key_that_seed_0_does_not_derive_is_refused(tmp_path):
    # seed 0 is a seed like any other: its root key is checked too
    pu_sim.run(2, out=tmp_path, players=1, bots="random", seed=0)
    edit_manifest(tmp_path, lambda m: m["seed"]["root_key"].__setitem__(0, 5))
    with pytest.raises(ManifestError, match="root_key does not derive from its seed 0"):
        read_manifest(tmp_path)
