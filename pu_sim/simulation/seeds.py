"""Seeds, game indices and batches: the numbers that make a game reproducible.

Reproducibility contract: a game's outcome depends only on the root seed, its
global game index, the table setup, ``RULES_VERSION`` and ``ENGINE_VERSION``;
never on ``n_jobs``, the batch size, the joblib backend or the order in which
batches finish.  Each game seeds its own generator from ``(root key, index)``
inside the core (DESIGN 4.7), so a batch is any range of indices.

This module is the only place where seeds are combined.  A study that needs
several independent streams (one per player count, per run, per bot study)
derives them from its root seed by a key path (:meth:`RootSeed.child`,
:func:`derive`): numpy's ``SeedSequence`` spawn keys, so seed 7 and seed 8 and
the children of either are independent streams, and ``seed + n`` arithmetic,
which makes study A's run 1 study B's run 0, never appears.  Every entry point
defaults to one root seed, :data:`DEFAULT_SEED`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

import numpy as np

from pu_sim.simulation.checks import check_seed

DEFAULT_BATCH_SIZE = 2000
"""Games per core call (and per Parquet part of a run folder), everywhere."""

DEFAULT_SEED: Final = 20240611
"""The root seed of every entry point (simulate, run, Game, compare, balance,
the CLI, the studies) when none is given: a result is reproducible by default.
``seed=None`` asks for fresh entropy, which the run manifest records."""

KeyPart = int | str
"""One step of a key path: a non-negative int, or a name (hashed stably)."""


@dataclass(frozen=True)
class RootSeed:
    """A run's root seed: its SeedSequence (entropy and spawn key) and the core's key.

    ``k0, k1`` are the 128-bit key the core seeds every game from; they are
    derived from ``entropy`` and ``spawn_key`` by numpy's SeedSequence.
    """

    entropy: int
    k0: int
    k1: int
    spawn_key: tuple[int, ...] = ()

    @classmethod
    def from_seed(cls, seed: SeedLike) -> RootSeed:
        """Normalise like ``numpy.random.default_rng``: None draws fresh entropy."""
        if isinstance(seed, RootSeed):
            return seed
        check_seed(seed)
        if isinstance(seed, np.integer):  # numpy's SeedSequence keeps its type
            seed = int(seed)
        ss = (
            seed
            if isinstance(seed, np.random.SeedSequence)
            else np.random.SeedSequence(seed)
        )
        return cls._of(ss)

    @classmethod
    def from_entropy(cls, entropy: int, spawn_key: tuple[int, ...] = ()) -> RootSeed:
        """The root seed of a recorded entropy and spawn key (a manifest's)."""
        return cls._of(np.random.SeedSequence(entropy, spawn_key=spawn_key))

    @classmethod
    def _of(cls, ss: np.random.SeedSequence) -> RootSeed:
        k0, k1 = (int(v) for v in ss.generate_state(2, np.uint64))
        entropy = ss.entropy if isinstance(ss.entropy, int) else int(ss.entropy[0])  # type: ignore[index]
        return cls(entropy=entropy, k0=k0, k1=k1, spawn_key=tuple(ss.spawn_key))

    def child(self, *key: KeyPart) -> RootSeed:
        """An independent root seed, named by a key path below this one.

        ``seed.child("main", 4)`` is the same seed for the same path, and
        independent of every other path and of ``seed`` itself.
        """
        if not key:
            return self
        path = self.spawn_key + tuple(key_number(k) for k in key)
        return RootSeed._of(np.random.SeedSequence(self.entropy, spawn_key=path))

    def record(self) -> dict[str, object]:
        """The seed as a run manifest records it (JSON)."""
        return {
            "entropy": self.entropy,
            "spawn_key": list(self.spawn_key),
            "root_key": [self.k0, self.k1],
        }

    @property
    def label(self) -> str:
        """Short text naming the seed: its entropy, and its key path if any."""
        if not self.spawn_key:
            return str(self.entropy)
        return f"{self.entropy}/{'/'.join(str(k) for k in self.spawn_key)}"


SeedLike = int | np.random.SeedSequence | RootSeed | None
"""A root seed: a non-negative int, a SeedSequence, a run's recorded
:class:`RootSeed`, or None for fresh entropy."""


def key_number(part: KeyPart) -> int:
    """A key path step as a spawn-key number; a name by its SHA-256 (stable)."""
    if isinstance(part, str):
        return int.from_bytes(hashlib.sha256(part.encode()).digest()[:4], "little")
    if isinstance(part, bool) or not isinstance(part, int | np.integer) or part < 0:
        raise ValueError(f"a seed key is a name or an integer >= 0, got {part!r}")
    return int(part)


def derive(seed: SeedLike, *key: KeyPart) -> RootSeed:
    """The root seed ``seed`` names, then its child at ``key``.

    See :meth:`RootSeed.child`.
    """
    return RootSeed.from_seed(seed).child(*key)


def batches(
    n_games: int, batch_size: int, first_game: int = 0
) -> Iterator[tuple[int, int]]:
    """(first game index, number of games) of each batch."""
    start = first_game
    end = first_game + n_games
    while start < end:
        size = min(batch_size, end - start)
        yield start, size
        start += size
