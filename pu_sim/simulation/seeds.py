"""Seeds, game indices and batches: the numbers that make a game reproducible.

Reproducibility contract: a game's outcome depends only on the root seed, its
global game index, the table setup, ``RULES_VERSION`` and ``ENGINE_VERSION``;
never on ``n_jobs``, the batch size, the joblib backend or the order in which
batches finish.  Each game seeds its own generator from ``(root key, index)``
inside the core (DESIGN 4.7), so a batch is any range of indices.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from pu_sim.simulation.checks import check_seed

DEFAULT_BATCH_SIZE = 2000
"""Games per core call (and per Parquet part of a run folder), everywhere."""


@dataclass(frozen=True)
class RootSeed:
    """A run's root seed: the SeedSequence entropy and the 128-bit key the core uses."""

    entropy: int
    k0: int
    k1: int

    @classmethod
    def from_seed(cls, seed: SeedLike) -> RootSeed:
        """Normalise like ``numpy.random.default_rng``: None draws fresh entropy."""
        if isinstance(seed, RootSeed):
            return seed
        check_seed(seed)
        ss = (
            seed
            if isinstance(seed, np.random.SeedSequence)
            else np.random.SeedSequence(seed)
        )
        k0, k1 = (int(v) for v in ss.generate_state(2, np.uint64))
        entropy = ss.entropy if isinstance(ss.entropy, int) else int(ss.entropy[0])  # type: ignore[index]
        return cls(entropy=entropy, k0=k0, k1=k1)


SeedLike = int | np.random.SeedSequence | RootSeed | None
"""A root seed: a non-negative int, a SeedSequence, a run's recorded
:class:`RootSeed`, or None for fresh entropy."""


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
