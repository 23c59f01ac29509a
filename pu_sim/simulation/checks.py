"""Checks of the counts, seeds and indices every entry point shares.

The primitives (types without truthiness, ranges, contradictions) are the
one validation layer's, :mod:`pu_sim.rules.validation`.

A bad count, seed or index is refused before any game is played, with a
message that names the argument and the valid range, so that neither the
API nor the CLI fails later with a bare ``TypeError`` or ``OverflowError``
from deep inside numpy or the core.
"""

from __future__ import annotations

import os

import numpy as np

from pu_sim.rules.validation import is_int

MAX_GAMES = 2**62
"""Game indices stay below this (the core's 64-bit index, with room to add)."""

MAX_BATCH = 999_999
"""Games per batch at most (a run folder's part names hold six digits)."""

MEMORY_SHARE = 0.5
"""simulate() refuses a frame estimated above this share of physical memory."""


def check_seed(seed: object, name: str = "seed") -> None:
    """A root seed is a non-negative integer, a SeedSequence, a RootSeed or None."""
    from pu_sim.simulation.seeds import RootSeed

    if seed is None or isinstance(seed, np.random.SeedSequence | RootSeed):
        return
    if not is_int(seed) or int(seed) < 0:  # type: ignore[call-overload]
        raise ValueError(f"{name} must be a non-negative integer or None, got {seed!r}")


def check_game_index(index: object, name: str = "game_index") -> None:
    """A game index is an integer in [0, MAX_GAMES)."""
    if not is_int(index) or not 0 <= int(index) < MAX_GAMES:  # type: ignore[call-overload]
        raise ValueError(
            f"{name} must be an integer from 0 to {MAX_GAMES - 1:,}, got {index!r}"
        )


def check_counts(n_games: object, batch_size: object, n_jobs: object) -> None:
    """Games, batch size and workers: integers in range."""
    if not is_int(n_games) or not 0 <= int(n_games) <= MAX_GAMES:  # type: ignore[call-overload]
        raise ValueError(
            f"n_games must be a non-negative integer (at most {MAX_GAMES:,}), "
            f"got {n_games!r}"
        )
    if not is_int(batch_size) or not 1 <= int(batch_size) <= MAX_BATCH:  # type: ignore[call-overload]
        raise ValueError(
            f"batch_size must be an integer 1..{MAX_BATCH}, got {batch_size!r}"
        )
    if not is_int(n_jobs) or int(n_jobs) == 0:  # type: ignore[call-overload]
        raise ValueError(
            f"n_jobs must be a non-zero integer (-1: all cores), got {n_jobs!r}"
        )


def physical_memory() -> int | None:
    """Bytes of physical memory, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def check_fits_in_memory(n_rows: int, row_bytes: int) -> None:
    """Refuse an in-memory frame that would not fit; point to the streaming run."""
    total = physical_memory()
    need = 2 * n_rows * row_bytes  # the records and the frame built from them
    if total is not None and need > MEMORY_SHARE * total:
        raise ValueError(
            f"{n_rows:,} result rows need about {need / 2**30:,.1f} GiB in memory "
            f"(this machine has {total / 2**30:,.1f} GiB): use pu_sim.run(..., "
            "out=FOLDER) or `pu-sim simulate --out FOLDER`, which stream the games "
            "to disk"
        )
