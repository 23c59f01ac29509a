"""A report folder's manifest: one shape, written and read back, errors named."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from pu_sim.simulation.manifest import (
    REPORT_FORMAT,
    ReportManifest,
    ReportManifestError,
    read_report_manifest,
    write_report_manifest,
)


@dataclass(frozen=True)
class Config:
    n_games: int = 10
    decks: tuple[tuple[int, int, int], ...] = ((7, 7, 6),)


def test_a_written_manifest_reads_back_with_every_key(tmp_path):
    report = tmp_path / "report"
    elsewhere = tmp_path / "elsewhere" / "run"
    path = write_report_manifest(
        report, study="s", title="T", command="python -m x", config=Config(),
        runs=[report / "runs" / "a", elsewhere], games=12, wall_time_s=1.5,
        results={"share": 0.25},
    )  # fmt: skip
    assert path == report / "manifest.json"
    manifest = read_report_manifest(report)
    on_disk = json.loads(path.read_text())
    assert list(on_disk) == list(ReportManifest.KEYS)
    assert manifest.format == REPORT_FORMAT == on_disk["format"]
    assert manifest.config == {"n_games": 10, "decks": [[7, 7, 6]]}
    # A run beneath the report is stored relative to it, any other absolute:
    # the folder joined with each entry finds every run.
    assert manifest.runs == ["runs/a", elsewhere.resolve().as_posix()]
    assert [(report / r).resolve() for r in manifest.runs] == [
        (report / "runs" / "a").resolve(), elsewhere.resolve(),
    ]  # fmt: skip
    assert (manifest.games, manifest.results) == (12, {"share": 0.25})
    assert manifest.versions["rules"] >= 1 and manifest.created


def test_folders_without_a_report_manifest_are_named(tmp_path):
    with pytest.raises(ReportManifestError, match="not a report folder"):
        read_report_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text("{broken")
    with pytest.raises(ReportManifestError, match="unreadable"):
        read_report_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "pu_sim-run/1"}))
    with pytest.raises(ReportManifestError, match=r"not a pu_sim\.report/1 report"):
        read_report_manifest(tmp_path)
    write_report_manifest(tmp_path, study="s", title="T")
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    del manifest["results"]
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ReportManifestError, match="missing keys results"):
        read_report_manifest(tmp_path)
