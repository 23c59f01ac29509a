"""Damaged run folders are repaired and the user is told what was replayed."""

from __future__ import annotations

import json

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim.cli import main
from pu_sim.simulation.runfolder import (
    RunFolderWarning,
    damaged_parts,
    part_files,
    read_manifest,
)

KW = dict(players=2, bots="random", seed=8, batch_size=5)


def games(path) -> pl.DataFrame:
    return pu_sim.scan_run(path).collect().sort("game_id", "seat")


def damage_middle(file) -> None:
    """Flip bytes in the middle of a part: its footer still reads."""
    data = bytearray(file.read_bytes())
    mid = len(data) // 2
    data[mid - 40 : mid + 40] = bytes(b ^ 0xFF for b in data[mid - 40 : mid + 40])
    file.write_bytes(bytes(data))


def test_a_part_damaged_in_the_middle_is_found_replayed_and_told(tmp_path):
    pu_sim.run(15, out=tmp_path, **KW)
    reference = games(tmp_path)
    bad = part_files(tmp_path)[1]
    damage_middle(bad)
    assert [f for f, _ in damaged_parts(tmp_path)] == [bad]
    with pytest.warns(RunFolderWarning, match="games 5..9 are played again"):
        result = pu_sim.run(15, out=tmp_path, **KW)
    assert result.games_played == 5
    assert len(result.repaired) == 1
    assert bad.name in result.repaired[0] and "games 5..9" in result.repaired[0]
    assert read_manifest(tmp_path).to_json()["sessions"][-1]["repaired"] == list(
        result.repaired
    )
    assert_frame_equal(games(tmp_path), reference)


def test_a_truncated_or_missing_part_is_told(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "--games", "15", "--players", "2", "--bots", "random",
            "--seed", "8", "--batch-size", "5", "--out", str(out), "--no-progress"]  # fmt: skip
    assert main(args) == 0
    first, second, _ = part_files(out)
    first.write_bytes(first.read_bytes()[:100])
    second.unlink()
    capsys.readouterr()
    assert main(args) == 0
    err = capsys.readouterr().err
    assert f"{first.name} was damaged" in err and "games 0..4 are played again" in err
    assert "5 games recorded as finished have no part file" in err


def test_report_on_a_damaged_part_is_one_line(tmp_path, capsys, monkeypatch):
    pu_sim.run(10, out=tmp_path / "run", **KW)
    damage_middle(part_files(tmp_path / "run")[0])
    monkeypatch.chdir(tmp_path)  # the default report folder is reports/ here
    assert main(["report", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "are damaged" in err and "part-" in err
    assert "--allow-incomplete" in err
    assert not (tmp_path / "reports").exists()  # nothing half-written


def test_an_edited_root_key_is_named(tmp_path):
    pu_sim.run(2, out=tmp_path, bots="random", seed=5)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    manifest["seed"]["root_key"][0] += 1
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ValueError, match="root_key does not derive from its seed 5"):
        pu_sim.run(2, out=tmp_path, bots="random", seed=5)
