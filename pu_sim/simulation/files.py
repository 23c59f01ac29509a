"""Files a run writes: atomic writes, and the lock that keeps one writer a folder.

Every file is written under a temporary name in the same folder (``.<name>.tmp``,
which no ``*.parquet`` glob matches), flushed to disk with fsync and then
renamed with :func:`os.replace`, which is atomic: a reader, or a resumed run,
sees either the complete file or none.  A process holds ``<folder>/.lock``
while it writes, so two runs never fill one folder at once.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO

StrPath = str | os.PathLike[str]

LOCK = ".lock"
DATA = "data"


class RunFolderError(ValueError):
    """A folder that is not a usable run folder for this run (bad input)."""


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
