"""The manifest of a report folder: one shape for every study's report.

Every report folder under ``reports/`` holds ``manifest.json`` with the same
keys, whatever study wrote it, so a reader (or a test) can tell from any
report which command, configuration, bots, versions and run folders its
numbers came from.  Study-specific numbers go under ``results``.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pu_sim.simulation import provenance
from pu_sim.simulation.runfolder import jsonable

REPORT_FORMAT = "pu_sim.report/1"
"""Bumped when the manifest's keys change."""

MANIFEST = "manifest.json"

KEYS = (
    "format",
    "study",
    "title",
    "command",
    "created",
    "wall_time_s",
    "games",
    "runs",
    "config",
    "versions",
    "git",
    "machine",
    "results",
)
"""Every report manifest's keys, in this order."""


class ReportManifestError(ValueError):
    """A report folder's manifest is missing, unreadable or of another shape."""


def write_report_manifest(
    folder: str | Path,
    *,
    study: str,
    title: str,
    command: str | None = None,
    config: Any = None,
    runs: Sequence[str | Path] = (),
    games: int | None = None,
    wall_time_s: float | None = None,
    results: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``folder/manifest.json``; returns its path.

    ``runs`` are the run folders the report read (stored relative to the
    report folder when they lie beneath it, else as absolute paths, so
    ``folder / run`` finds each); ``config`` is the study's configuration (a
    dataclass or a mapping); ``results`` the study's own numbers, as plain
    JSON.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {
        "format": REPORT_FORMAT,
        "study": study,
        "title": title,
        "command": command,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "wall_time_s": wall_time_s,
        "games": games,
        "runs": [_relative(Path(r), out) for r in runs],
        "config": jsonable(config),
        "versions": {**provenance.game_versions(), **provenance.library_versions()},
        "git": provenance.git_revision(),
        "machine": provenance.machine(),
        "results": jsonable(dict(results or {})),
    }
    path = out / MANIFEST
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    return path


def read_report_manifest(folder: str | Path) -> dict[str, Any]:
    """The manifest of a report folder; one clear error if it is not one."""
    path = Path(folder) / MANIFEST
    try:
        manifest = json.loads(path.read_text())
    except FileNotFoundError:
        raise ReportManifestError(
            f"{folder}: no {MANIFEST}: not a report folder"
        ) from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ReportManifestError(f"{path}: unreadable ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != REPORT_FORMAT:
        raise ReportManifestError(f"{path}: not a {REPORT_FORMAT} report manifest")
    missing = [k for k in KEYS if k not in manifest]
    if missing:
        raise ReportManifestError(f"{path}: missing keys {', '.join(missing)}")
    return manifest


def _relative(run: Path, folder: Path) -> str:
    """A run folder's path: relative to the report folder when beneath it."""
    try:
        return run.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return run.resolve().as_posix()
