"""The run folder: a study's manifest and its Parquet parts, on disk.

Layout (the analyses and reports rely on it exactly)::

    <out>/manifest.json
    <out>/data/part-<first_game:012d>-<n_games:06d>.parquet
    <out>/round_scores/part-<first_game:012d>-<n_games:06d>.parquet  (optional)

One Parquet file holds one finished batch: games ``[first_game, first_game +
n_games)``, one row per (game, seat), in ``game_id, seat`` order, so the files
in name order are the whole run in game order.  Read a run with
:func:`scan_run` (``polars.scan_parquet(f"{out}/data/*.parquet")`` reads the
same parts but checks nothing) and its facts with
:func:`pu_sim.simulation.manifest.read_manifest`;
:func:`find_run_folders` finds the runs of a study.  A run played with
``round_scores=True`` also keeps each seat's score after every round
(``frames.ROUND_SCORE_SCHEMA``) in ``round_scores/``, one part per batch,
written before the batch's ``data/`` part (so a finished batch always has
both); read it with :func:`scan_round_scores`.  Every file is written
atomically and one process writes a folder at a time
(:mod:`pu_sim.simulation.files`); the manifest is
:mod:`pu_sim.simulation.manifest`'s.

Every read checks the folder against its manifest (:func:`check_run`): the
games recorded, the parts that hold them and each part's checksum.

Why long: the folder's names, writes and reads, and the check every read
makes, in one module, so that no reader can skip the check.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.simulation.files import DATA, LOCK, RunFolderError, atomic_open
from pu_sim.simulation.frames import frame_of_schema
from pu_sim.simulation.manifest import (
    MANIFEST,
    PartRecord,
    RunManifest,
    is_run_manifest,
    manifest_json,
    read_manifest,
    sha256_of,
)

ROUND_SCORES = "round_scores"

MAX_BATCH = 999_999
"""Largest batch a part name can hold (six digits)."""

_PART = re.compile(r"^part-(\d{12})-(\d{6})\.parquet$")

StrPath = str | os.PathLike[str]


__all__ = ["DATA", "LOCK", "MANIFEST", "ROUND_SCORES", "IncompleteRunError",
           "RunCheck", "RunFolderError", "RunFolderWarning", "check_run",
           "read_manifest", "scan_run"]  # fmt: skip


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


def scan_run(path: StrPath, *, allow_incomplete: bool = False) -> pl.LazyFrame:
    """The games of a run folder as one LazyFrame, in ``game_id, seat`` order.

    The folder is checked against its manifest first (:func:`check_run`):
    every game recorded must be in a part whose checksum matches.  A run with
    games missing or damaged (a part deleted, truncated or with flipped bytes;
    a run still playing or interrupted) is refused with one line naming the
    games and how to repair them, unless ``allow_incomplete=True``: then the
    parts that read back whole are returned and the line is given as a
    :class:`RunFolderWarning`.  Enum columns (corporation, planet, bot,
    status, end_trigger, solo_band) come back as Polars Enums: Polars stores
    them in the Parquet metadata, and where a reader returns them as strings
    they are cast back from the manifest.

    Raises
    ------
    IncompleteRunError
        The run lacks games or holds damaged parts (``allow_incomplete``
        not given).

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
    check = check_run(path)
    check.require(allow_incomplete)
    files = check.parts
    if not files:
        return _empty_frame(check.manifest).lazy()
    frame = pl.scan_parquet(list(files))
    schema = frame.collect_schema()
    casts: dict[Any, pl.DataType] = {
        col: pl.Enum(labels)
        for col, labels in check.manifest.enums.items()
        if col in schema and schema[col] != pl.Enum(labels)
    }
    return frame.cast(casts) if casts else frame


def scan_round_scores(
    path: StrPath, *, allow_incomplete: bool = False
) -> pl.LazyFrame | None:
    """The run's round score table (game, round, seat, score), or None.

    None when the run was played without ``round_scores``; checked like
    :func:`scan_run` (its parts too carry checksums).
    """
    check = check_run(path)
    check.require(allow_incomplete, quiet=True)
    if not check.round_parts:
        return None
    return pl.scan_parquet(list(check.round_parts))


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


# --------------------------------------------------------------------------------
# Checking a run against its manifest
# --------------------------------------------------------------------------------


class IncompleteRunError(RunFolderError):
    """A run folder lacks games or holds damaged parts (bad input for a reader).

    ``check`` is the :class:`RunCheck` that found it.
    """

    def __init__(self, check: RunCheck, message: str) -> None:
        super().__init__(message)
        self.check = check


class RunFolderWarning(UserWarning):
    """What a reader of a run folder must know: games left out, parts replayed."""


@dataclass(frozen=True)
class RunCheck:
    """A run folder checked against its manifest (:func:`check_run`).

    ``parts`` (and ``round_parts``) are the part files that hold what the
    manifest says, in game order; ``missing`` the game ranges ``(first, n)``
    no such part holds; ``damaged`` the part files that are not what was
    written, with why; ``notes`` what a reader should know besides.
    """

    path: Path
    manifest: RunManifest
    parts: tuple[Path, ...]
    round_parts: tuple[Path, ...]
    missing: tuple[tuple[int, int], ...]
    damaged: tuple[tuple[Path, str], ...]
    notes: tuple[str, ...] = ()
    records: tuple[PartRecord, ...] = field(default=(), repr=False)
    """The records of the good parts (their checksums), for the runner."""

    @property
    def complete(self) -> bool:
        """Every game recorded is in a part that reads back as written."""
        return not self.missing and not self.damaged

    @property
    def games(self) -> int:
        """Games in the good parts."""
        return self.manifest.n_games - sum(n for _, n in self.missing)

    def problem(self) -> str:
        """One line: which games are missing or damaged, and how to repair them."""
        m = self.manifest
        bad = [(f, why, parse_part_name(f.name)) for f, why in self.damaged]
        bad_games = [r for f, _, r in bad if r is not None and f.parent.name == DATA]
        gone = [r for r in self.missing if not any(_within(r, b) for b in bad_games)]
        parts = []
        if gone:
            lost = sum(n for _, n in gone)
            parts.append(
                f"games {_ranges(gone)} are missing ({lost:,} of {m.n_games:,})"
            )
        if bad:
            file, why, games = bad[0]
            which = "" if games is None else f"games {_ranges([games])} in "
            more = f" and {len(bad) - 1} more part(s)" if len(bad) > 1 else ""
            parts.append(
                f"{which}{file.parent.name}/{file.name} are damaged ({why}){more}"
            )
        if m.status == "running" and not self.damaged:
            repair = "it is still being played: wait for it to finish"
        else:
            repair = (
                "run the command that made it again (the same flags and --out "
                f"{self.path}, or pu_sim.run with the same arguments): it resumes and "
                "plays the missing and damaged games again"
            )
        return f"run folder {self.path} is incomplete: {'; '.join(parts)}; {repair}"

    def require(
        self,
        allow_incomplete: bool,
        how: str = "allow_incomplete=True",
        *,
        quiet: bool = False,
    ) -> None:
        """Refuse an incomplete run unless allowed; allowed, say what is left out.

        ``how`` names the way to allow it in the refusal (the CLI's flag);
        ``quiet`` says nothing when allowed (a reader of the same run's
        companion table, whose games were told already).
        """
        # said from here, so each line is said once however many readers ask
        for note in self.notes:
            warnings.warn(note, RunFolderWarning, stacklevel=1)
        if self.complete:
            return
        if not allow_incomplete:
            raise IncompleteRunError(
                self, f"{self.problem()} (or read what is there with {how})"
            )
        if not quiet:
            warnings.warn(self.problem(), RunFolderWarning, stacklevel=1)


def _within(games: tuple[int, int], part: tuple[int, int]) -> bool:
    """Whether a game range lies inside a part's."""
    return part[0] <= games[0] and games[0] + games[1] <= part[0] + part[1]


def _ranges(ranges: Sequence[tuple[int, int]], at_most: int = 4) -> str:
    """``5..9, 20..24`` (the first few game ranges)."""
    merged: list[list[int]] = []
    for first, n in sorted(ranges):
        if merged and merged[-1][1] == first:
            merged[-1][1] = first + n
        else:
            merged.append([first, first + n])
    text = ", ".join(
        f"{a}" if b - a == 1 else f"{a}..{b - 1}" for a, b in merged[:at_most]
    )
    return text + (f" and {len(merged) - at_most} more ranges" if len(merged) > at_most
                   else "")  # fmt: skip


def check_run(path: StrPath, manifest: RunManifest | None = None) -> RunCheck:
    """Check a run folder against its manifest: games, batches, parts, checksums.

    A part the manifest lists must have its recorded checksum; a part it does
    not list (written after the last manifest update of a run that stopped,
    or by a run from before checksums were kept) must read back whole with
    the run's rows and columns.  Games no good part holds are missing.
    Nothing is changed on disk (the runner sets damaged parts aside).
    """
    folder = Path(path)
    manifest = read_manifest(folder) if manifest is None else manifest
    listed = {r.file: r for r in manifest.parts or ()}
    players = int(manifest.table.get("n_players") or manifest.config.players)
    schema = dict(_empty_frame(manifest).schema)
    good: list[PartRecord] = []
    damaged: list[tuple[Path, str]] = []
    for file in part_files(folder):
        record = _checked(folder, file, listed, players, schema, damaged)
        if record is not None:
            good.append(record)
    covered = sorted((r.first_game, r.n_games) for r in good)
    missing = tuple(_uncovered(manifest.n_games, covered))
    rounds: list[Path] = []
    round_records: list[PartRecord] = []
    if manifest.config.round_scores:
        for file in _round_files(folder):
            record = _checked_round(folder, file, listed, damaged)
            if record is not None:
                rounds.append(file)
                round_records.append(record)
    notes = []
    if manifest.parts is None and part_files(folder):
        notes.append(
            f"run folder {folder} was written before part checksums were kept: its "
            "parts were checked by reading them whole (running its command again "
            "records their checksums)"
        )
    return RunCheck(
        path=folder, manifest=manifest,
        parts=tuple(folder / r.file for r in good), round_parts=tuple(rounds),
        missing=missing, damaged=tuple(damaged), notes=tuple(notes),
        records=tuple(good + round_records),
    )  # fmt: skip


def _checked(
    folder: Path,
    file: Path,
    listed: Mapping[str, PartRecord],
    players: int,
    schema: Mapping[str, pl.DataType],
    damaged: list[tuple[Path, str]],
) -> PartRecord | None:
    """The record of a data part that is what was written, or None (damaged)."""
    first, n = parse_part_name(file.name)  # type: ignore[misc]
    name = f"{DATA}/{file.name}"
    digest = sha256_of(file.read_bytes())
    if name in listed:
        return _as_listed(file, listed[name], digest, damaged)
    damage = part_damage(file, n * players, schema)
    if damage is not None:
        damaged.append((file, damage))
        return None
    return PartRecord(name, first, n, n * players, digest)


def _as_listed(
    file: Path, record: PartRecord, digest: str, damaged: list[tuple[Path, str]]
) -> PartRecord | None:
    """A part the manifest lists: its record when the bytes are the ones written."""
    if digest != record.sha256:
        damaged.append((file, "its checksum differs"))
        return None
    return record


def _round_files(folder: Path) -> list[Path]:
    """The round score parts, in game order."""
    rounds = folder / ROUND_SCORES
    if not rounds.is_dir():
        return []
    return sorted(p for p in rounds.iterdir() if parse_part_name(p.name) is not None)


def _checked_round(
    folder: Path,
    file: Path,
    listed: Mapping[str, PartRecord],
    damaged: list[tuple[Path, str]],
) -> PartRecord | None:
    """The record of a round score part that is what was written, or None."""
    first, n = parse_part_name(file.name)  # type: ignore[misc]
    name = f"{ROUND_SCORES}/{file.name}"
    digest = sha256_of(file.read_bytes())
    if name in listed:
        return _as_listed(file, listed[name], digest, damaged)
    try:
        rows = pl.read_parquet(file).height
    except Exception as exc:  # any reader failure means "not a finished part"
        damaged.append((file, _reason(exc)))
        return None
    return PartRecord(name, first, n, rows, digest)


def _uncovered(
    n_games: int, covered: Sequence[tuple[int, int]]
) -> Iterator[tuple[int, int]]:
    """The game ranges of [0, n_games) no finished part holds."""
    cursor = 0
    for first, n in covered:
        if first > cursor:
            yield cursor, min(first, n_games) - cursor
        cursor = max(cursor, first + n)
        if cursor >= n_games:
            return
    if cursor < n_games:
        yield cursor, n_games - cursor
