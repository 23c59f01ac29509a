"""The run folder: a study's manifest and its Parquet parts, on disk.

Layout (the analyses and reports rely on it exactly)::

    <out>/manifest.json
    <out>/data/part-<first_game:012d>-<n_games:06d>.parquet
    <out>/round_scores/part-<first_game:012d>-<n_games:06d>.parquet  (optional)

One Parquet file holds one finished batch: games ``[first_game, first_game +
n_games)``, one row per (game, seat), in ``game_id, seat`` order, so the files
in name order are the whole run in game order.  Read a run with
:func:`scan_run` (or ``polars.scan_parquet(f"{out}/data/*.parquet")``) and its
facts with :func:`pu_sim.simulation.manifest.read_manifest`;
:func:`find_run_folders` finds the runs of a study.  A run played with
``round_scores=True`` also keeps each seat's score after every round
(``frames.ROUND_SCORE_SCHEMA``) in ``round_scores/``, one part per batch,
written before the batch's ``data/`` part (so a finished batch always has
both); read it with :func:`scan_round_scores`.  Every file is written
atomically and one process writes a folder at a time
(:mod:`pu_sim.simulation.files`); the manifest is
:mod:`pu_sim.simulation.manifest`'s.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.simulation.files import DATA, LOCK, RunFolderError, atomic_open
from pu_sim.simulation.frames import frame_of_schema
from pu_sim.simulation.manifest import (
    MANIFEST,
    RunManifest,
    is_run_manifest,
    manifest_json,
    read_manifest,
)

ROUND_SCORES = "round_scores"

MAX_BATCH = 999_999
"""Largest batch a part name can hold (six digits)."""

_PART = re.compile(r"^part-(\d{12})-(\d{6})\.parquet$")

StrPath = str | os.PathLike[str]


__all__ = ["DATA", "LOCK", "MANIFEST", "ROUND_SCORES", "RunFolderError",
           "read_manifest"]  # fmt: skip


# --------------------------------------------------------------------------------
# Names
# --------------------------------------------------------------------------------


def part_name(first_game: int, n_games: int) -> str:
    """File name of the part holding games [first_game, first_game + n_games)."""
    return f"part-{first_game:012d}-{n_games:06d}.parquet"


def parse_part_name(name: str) -> tuple[int, int] | None:
    """(first game, number of games) of a part file name, or None."""
    match = _PART.match(name)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))


def part_files(run_dir: StrPath) -> list[Path]:
    """The run's part files in game order (valid names only)."""
    data = Path(run_dir) / DATA
    if not data.is_dir():
        return []
    return sorted(p for p in data.iterdir() if parse_part_name(p.name) is not None)


def missing_ranges(
    n_games: int, done: Sequence[tuple[int, int]], batch_size: int
) -> Iterator[tuple[int, int]]:
    """Batches covering the games in [0, n_games) that no finished part holds.

    Lazy, so a run of any size starts at once and its memory stays flat.
    Raises RunFolderError (before yielding anything) when finished parts
    overlap (a folder assembled by hand): their games would be counted twice.
    """
    finished = sorted(done)
    cursor = 0
    for first, n in finished:
        if first < cursor:
            raise RunFolderError(
                f"part files overlap at game {first}: the folder was not written "
                "by one run"
            )
        cursor = first + n
    return _gaps(n_games, finished, batch_size)


def _gaps(
    n_games: int, finished: list[tuple[int, int]], batch_size: int
) -> Iterator[tuple[int, int]]:
    cursor = 0
    for first, n in finished:
        yield from _chunks(cursor, min(first, n_games), batch_size)
        cursor = first + n
    yield from _chunks(cursor, n_games, batch_size)


def _chunks(start: int, end: int, size: int) -> Iterator[tuple[int, int]]:
    while start < end:
        yield start, min(size, end - start)
        start += size


# --------------------------------------------------------------------------------
# Atomic writes
# --------------------------------------------------------------------------------


def encode_part(frame: pl.DataFrame) -> bytes:
    """A batch's frame as the bytes of its Parquet part file."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, compression="zstd", statistics=True)
    return buffer.getvalue()


def write_part(data_dir: Path, first_game: int, n_games: int, data: bytes) -> Path:
    """Write one finished batch's Parquet bytes as its part file, atomically."""
    path = data_dir / part_name(first_game, n_games)
    data_dir.mkdir(parents=True, exist_ok=True)
    with atomic_open(path) as fh:
        fh.write(data)
    return path


def remove_temporaries(run_dir: StrPath) -> int:
    """Delete temporary files a killed process left behind; return how many."""
    count = 0
    for folder in (Path(run_dir), Path(run_dir) / DATA, Path(run_dir) / ROUND_SCORES):
        if folder.is_dir():
            for p in folder.glob(".*.tmp"):
                with contextlib.suppress(OSError):
                    p.unlink()
                    count += 1
    return count


# --------------------------------------------------------------------------------
# Manifest
# --------------------------------------------------------------------------------


def find_run_folders(path: StrPath) -> list[Path]:
    """The run folders at or below ``path`` (one run, or a study of runs), sorted.

    A folder is a run folder when its ``manifest.json`` is a run manifest; a
    manifest of another kind (a report folder's) is passed over, so a report
    written into its study's folder does not hide the runs below it.

    Raises
    ------
    RunFolderError
        When a ``manifest.json`` cannot be read as JSON.
    """
    root = Path(path)
    if is_run_folder(root):
        return [root]
    return sorted(
        file.parent
        for file in root.rglob(MANIFEST)
        if file.parent != root and is_run_folder(file.parent)
    )


def is_run_folder(path: StrPath) -> bool:
    """Whether ``path`` holds a run manifest (RunFolderError if it is unreadable)."""
    folder = Path(path)
    return (folder / MANIFEST).is_file() and is_run_manifest(manifest_json(folder))


# --------------------------------------------------------------------------------
# Reading a run
# --------------------------------------------------------------------------------


def scan_run(path: StrPath) -> pl.LazyFrame:
    """The games of a run folder as one LazyFrame, in ``game_id, seat`` order.

    Reads the finished parts only, so it works on a running or interrupted run
    too (check ``read_manifest(path)["status"]``).  Enum columns
    (corporation, planet, bot, status, end_trigger, solo_band) come back as
    Polars Enums: Polars stores them in the Parquet metadata, and where a
    reader returns them as strings they are cast back from the manifest.

    Examples
    --------
    >>> import polars as pl
    >>> from pu_sim.simulation.runner import run, scan_run
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = run(6, out=f"{tmp}/run", players=2, bots="random", seed=1)
    ...     scan_run(f"{tmp}/run").select(pl.len()).collect().item()
    12
    """
    manifest = read_manifest(path)
    files = part_files(path)
    if not files:
        return _empty_frame(manifest).lazy()
    frame = pl.scan_parquet(files)
    schema = frame.collect_schema()
    casts: dict[Any, pl.DataType] = {
        col: pl.Enum(labels)
        for col, labels in manifest.enums.items()
        if col in schema and schema[col] != pl.Enum(labels)
    }
    return frame.cast(casts) if casts else frame


def scan_round_scores(path: StrPath) -> pl.LazyFrame | None:
    """The run's round score table (game, round, seat, score), or None.

    None when the run was played without ``round_scores``; like
    :func:`scan_run` it reads the finished parts only.
    """
    folder = Path(path) / ROUND_SCORES
    files = sorted(p for p in folder.glob("part-*.parquet") if parse_part_name(p.name))
    if not files:
        return None
    return pl.scan_parquet(files)


def _empty_frame(manifest: RunManifest) -> pl.DataFrame:
    """A zero-row frame with the run's schema, from its manifest (no core)."""
    return frame_of_schema(manifest.schema, manifest.enums)


def _reason(exc: BaseException) -> str:
    """A reader's failure in a few words."""
    text = str(exc).strip()
    first = text.splitlines()[0][:120] if text else ""
    return f"unreadable ({type(exc).__name__}: {first})"


def part_damage(path: Path, rows: int, schema: Mapping[str, pl.DataType]) -> str | None:
    """Why a part file is not a finished part of this run, or None if it is.

    The whole file is read, not only its footer: a part damaged in the middle
    (a disk fault, a hand edit) reads back with a valid footer and fails only
    when its pages are decoded.
    """
    try:
        frame = pl.read_parquet(path)
    except Exception as exc:  # any reader failure means "not a finished part"
        return _reason(exc)
    if frame.height != rows:
        return f"holds {frame.height} rows, expected {rows}"
    if dict(frame.schema) != dict(schema):
        return "holds other columns than this run's"
    return None


def damaged_parts(path: StrPath) -> list[tuple[Path, str]]:
    """The parts of a run folder that do not read back whole, and why."""
    out = []
    for file in part_files(path):
        try:
            pl.read_parquet(file)
        except Exception as exc:  # any reader failure is damage
            out.append((file, _reason(exc)))
    return out
