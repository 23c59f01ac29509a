"""The run folder: a study's manifest and its Parquet parts, on disk.

Layout (the analyses and reports rely on it exactly)::

    <out>/manifest.json
    <out>/data/part-<first_game:012d>-<n_games:06d>.parquet
    <out>/round_scores/part-<first_game:012d>-<n_games:06d>.parquet  (optional)

One Parquet file holds one finished batch: games ``[first_game, first_game +
n_games)``, one row per (game, seat), in ``game_id, seat`` order, so the files
in name order are the whole run in game order.  Read a run with
:func:`scan_run` (or ``polars.scan_parquet(f"{out}/data/*.parquet")``) and its
facts with :func:`read_manifest`; :func:`find_run_folders` finds the runs of
a study.  A run played with ``round_scores=True`` also keeps each seat's score
after every round (``frames.ROUND_SCORE_SCHEMA``) in ``round_scores/``,
one part per batch, written before the batch's ``data/`` part (so a finished
batch always has both); read it with :func:`scan_round_scores`.  This module
is the only reader and writer of run manifests.

Every file is written under a temporary name in the same folder (``.<name>.tmp``,
which no ``*.parquet`` glob matches), flushed to disk with fsync and then
renamed with :func:`os.replace`, which is atomic: a reader, or a resumed run,
sees either the complete file or none.  A process holds ``<out>/.lock`` while it
writes, so two runs never fill one folder at once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, cast

import polars as pl

from pu_sim.simulation.frames import frame_of_schema

MANIFEST = "manifest.json"
DATA = "data"
ROUND_SCORES = "round_scores"
LOCK = ".lock"
FORMAT = "pu_sim-run/1"
"""Manifest format tag; bumped if the folder layout ever changes."""

MAX_BATCH = 999_999
"""Largest batch a part name can hold (six digits)."""

_PART = re.compile(r"^part-(\d{12})-(\d{6})\.parquet$")

StrPath = str | os.PathLike[str]


class RunFolderError(ValueError):
    """A folder that is not a usable run folder for this run (bad input)."""


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


def _fsync_dir(path: Path) -> None:
    """Make a rename durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def temporary_name(path: Path) -> Path:
    """Where ``path`` is written before its atomic rename."""
    return path.with_name(f".{path.name}.tmp")


@contextlib.contextmanager
def atomic_open(path: Path) -> Iterator[IO[bytes]]:
    """Write ``path`` all or nothing: temporary file, fsync, ``os.replace``.

    On any error (a full disk, an interrupt) the temporary file is removed and
    ``path`` keeps its previous content or stays absent.
    """
    tmp = temporary_name(path)
    try:
        with open(tmp, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


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


def jsonable(value: Any) -> Any:
    """Plain JSON values: sequences become lists, mappings and dataclasses dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return jsonable(value.tolist())
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


def write_manifest(run_dir: StrPath, manifest: Mapping[str, Any]) -> None:
    """Write ``manifest.json`` atomically."""
    text = json.dumps(jsonable(manifest), indent=2, sort_keys=False) + "\n"
    with atomic_open(Path(run_dir) / MANIFEST) as fh:
        fh.write(text.encode())


@contextlib.contextmanager
def locked(path: Path) -> Iterator[None]:
    """Create the folder and hold its lock, so two processes never share it."""
    try:
        (path / DATA).mkdir(parents=True, exist_ok=True)
        fh = open(path / LOCK, "a+")  # noqa: SIM115 - held for the whole run
    except OSError as exc:
        raise RunFolderError(
            f"cannot create run folder {path}: {exc.strerror or exc}"
        ) from None
    try:
        _lock_file(fh, path)
        yield
    finally:
        fh.close()


def _lock_file(fh: IO[str], path: Path) -> None:
    """An exclusive advisory lock (released by the OS if the process dies)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory lock
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.seek(0)
        owner = fh.read().strip() or "?"
        raise RunFolderError(
            f"run folder {path} is in use by another process (pid {owner})"
        ) from None
    fh.seek(0)
    fh.truncate()
    fh.write(f"{os.getpid()}\n")
    fh.flush()


def writer_alive(path: StrPath) -> bool:
    """Whether a process holds the folder's lock (is writing the run now)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory lock
        return True
    try:
        fh = open(Path(path) / LOCK)  # noqa: SIM115 - closed below
    except OSError:
        return False
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        fh.close()
    return False


REQUIRED = {
    "status": str, "n_games": int, "completed_games": int, "batch_size": int,
    "config": dict, "table": dict, "seed": dict, "versions": dict,
    "schema": list, "enums": dict,
}  # fmt: skip
"""Top-level manifest keys every reader relies on, and their JSON types."""

REQUIRED_CONFIG = ("players", "corporations", "planets", "bots", "options",
                   "unique_asymmetric", "group_size", "seed")  # fmt: skip


def _check_manifest(file: Path, manifest: dict[str, Any]) -> None:
    """One clear line for a manifest that lost or mangled a key (a hand edit)."""
    for key, kind in REQUIRED.items():
        if not isinstance(manifest.get(key), kind):
            raise RunFolderError(
                f"{file} is damaged: {key!r} is missing or not a {kind.__name__} "
                "(edited by hand?); restore it or start a new run folder"
            )
    missing = [k for k in REQUIRED_CONFIG if k not in manifest["config"]]
    key = manifest["seed"].get("root_key")
    if missing or not (
        isinstance(key, list) and len(key) == 2 and all(isinstance(k, int) for k in key)
    ):
        what = f"config lacks {', '.join(missing)}" if missing else "seed.root_key"
        raise RunFolderError(
            f"{file} is damaged ({what}, edited by hand?); restore it or start a "
            "new run folder"
        )


def read_manifest(path: StrPath) -> dict[str, Any]:
    """The manifest of a run folder, as a dict.

    Keys (all always present): ``format``, ``status`` (``"running"``,
    ``"complete"`` or ``"interrupted"``), ``n_games``, ``completed_games``,
    ``completed_batches``, ``batch_size``, ``config`` (every argument of
    :func:`pu_sim.run`, rule options as ``RuleOptions.as_dict()``, bots with their
    parameters), ``table`` (the core's table spec), ``seed``
    (``entropy`` and the derived 128-bit ``root_key``), ``versions`` (pu_sim,
    rules, engine, rules digest, Python and libraries), ``git`` (revision and
    dirty flag, or null), ``machine``, ``backend``, ``n_jobs``, ``workers``
    (the parallel workers it resolved to), ``scheduler``,
    ``schema``, ``enums``, ``created``, ``updated``, ``wall_time_s``,
    ``games_per_s``, ``sessions`` (one entry per invocation), ``error`` and
    ``metadata`` (the caller's free-form facts).

    A run left ``"running"`` by a process that died without a word (killed,
    power cut) reads as ``"interrupted"``: no process holds the folder's lock.

    Raises
    ------
    RunFolderError
        When ``path`` holds no readable manifest, or one missing a key its
        readers need (a hand edit).
    """
    file = Path(path) / MANIFEST
    parsed = _manifest_json(path)
    if not _is_run_manifest(parsed):
        raise RunFolderError(
            f"{file} is not a pu_sim run manifest (format {FORMAT!r} expected)"
        )
    manifest = cast(dict[str, Any], parsed)
    _check_manifest(file, manifest)
    if manifest["status"] == "running" and not writer_alive(path):
        manifest["status"] = "interrupted"
        manifest["error"] = manifest.get("error") or (
            "the process writing this run stopped without a word (killed?)"
        )
    return manifest


def _manifest_json(path: StrPath) -> object:
    """The parsed ``manifest.json`` of a folder, whatever its kind."""
    file = Path(path) / MANIFEST
    try:
        return json.loads(file.read_text())
    except FileNotFoundError:
        raise RunFolderError(
            f"{path} is not a run folder: it has no {MANIFEST}"
        ) from None
    except (OSError, ValueError) as exc:
        raise RunFolderError(f"cannot read {file}: {exc}") from None


def _is_run_manifest(manifest: object) -> bool:
    """Whether a parsed manifest is a run's (not a report folder's, say)."""
    return isinstance(manifest, dict) and manifest.get("format") == FORMAT


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
    return (folder / MANIFEST).is_file() and _is_run_manifest(_manifest_json(folder))


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
    casts = {
        col: pl.Enum(labels)
        for col, labels in manifest["enums"].items()
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


def _empty_frame(manifest: Mapping[str, Any]) -> pl.DataFrame:
    """A zero-row frame with the run's schema, from its manifest (no core)."""
    return frame_of_schema(manifest["schema"], manifest["enums"])


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
