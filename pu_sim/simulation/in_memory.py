"""Play many games in parallel and return one Polars frame.

Reproducibility contract: a game's outcome depends only on the root seed, its
global game index, the table setup, ``RULES_VERSION`` and ``ENGINE_VERSION``;
never on ``n_jobs``, the batch size, the joblib backend or the order in which
batches finish.  Each game seeds its own generator from ``(root key, index)``
inside the core (DESIGN 4.7).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
from joblib import Parallel, delayed

from pu_sim._build_check import import_core
from pu_sim.bots import BotSpec
from pu_sim.rules import RuleOptions, load_rules
from pu_sim.simulation import frames
from pu_sim.simulation.table import SeatChoice, TableSetup

DEFAULT_BATCH_SIZE = 2000

SeedLike = int | np.random.SeedSequence | None


@dataclass(frozen=True)
class RootSeed:
    """A run's root seed: the SeedSequence entropy and the 128-bit key the core uses."""

    entropy: int
    k0: int
    k1: int

    @classmethod
    def from_seed(cls, seed: SeedLike) -> RootSeed:
        """Normalise like ``numpy.random.default_rng``: None draws fresh entropy."""
        ss = (
            seed
            if isinstance(seed, np.random.SeedSequence)
            else np.random.SeedSequence(seed)
        )
        k0, k1 = (int(v) for v in ss.generate_state(2, np.uint64))
        entropy = ss.entropy if isinstance(ss.entropy, int) else int(ss.entropy[0])  # type: ignore[index]
        return cls(entropy=entropy, k0=k0, k1=k1)


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


def play_range(
    spec: dict[str, Any], root: RootSeed, first_game: int, n_games: int
) -> npt.NDArray[np.void]:
    """Play games [first_game, first_game + n_games) in one GIL-free core call.

    Only small picklable values cross here; every worker (thread, process or
    cluster node) loads and caches the compiled rules itself.
    """
    core = import_core()
    out = frames.empty_records(core.RECORD_DTYPE, n_games * int(spec["n_players"]))
    core.play_batch(load_rules().core, spec, root.k0, root.k1, first_game, out)
    return out


def simulate(
    n_games: int,
    *,
    players: int = 1,
    corporations: SeatChoice | Sequence[SeatChoice] = "universal_coalition",
    planets: SeatChoice | Sequence[SeatChoice] = "ksb_4156",
    bots: str | BotSpec | Sequence[str | BotSpec] = "greedy",
    seed: SeedLike = None,
    n_jobs: int = 1,
    batch_size: int = DEFAULT_BATCH_SIZE,
    options: RuleOptions | None = None,
    unique_asymmetric: bool = True,
    group_size: int = 1,
    backend: str | None = None,
) -> pl.DataFrame:
    """Play ``n_games`` games and return one row per (game, seat).

    Parameters
    ----------
    n_games
        Number of games.
    players
        Players per game, 1..6.
    corporations, planets
        Per seat (or one for all): a key, ``"random"`` or a list of keys to
        draw from uniformly per game.
    bots
        Per seat (or one for all): ``"random"``, ``"greedy"`` or a
        :class:`pu_sim.bots.BotSpec`.
    seed
        Root seed (int, SeedSequence or None for fresh entropy).
    n_jobs
        Parallel workers (joblib; threads by default, since the core releases
        the GIL).  Results do not depend on it.
    batch_size
        Games per core call.  Results do not depend on it.
    options
        Rule options; defaults follow the reference's recommendations.
    unique_asymmetric, group_size
        See :class:`pu_sim.simulation.table.TableSetup`.
    backend
        joblib backend name (None: threads).

    Returns
    -------
    polars.DataFrame
        Columns ``game_id, seat, n_players, corporation, planet, bot, score,
        rank, won, score_planet, score_tracks, score_lifepods,
        score_meteorites, score_civ, score_objectives, rounds, status`` and
        more (track positions, tiles placed, lifepods lost, ...), sorted by
        ``game_id`` and ``seat``.  ``score`` is the sum of the ``score_*``
        parts.

    Examples
    --------
    >>> import pu_sim
    >>> df = pu_sim.simulate(4, players=2, bots="random", seed=1)
    >>> df.shape[0]
    8
    >>> bool((df["status"] == "ok").all())
    True
    """
    if not isinstance(n_games, int) or n_games < 0:
        raise ValueError(f"n_games must be a non-negative integer, got {n_games!r}")
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    rules = load_rules()
    table = TableSetup(
        players=players, corporations=corporations, planets=planets, bots=bots,
        options=options or RuleOptions(), unique_asymmetric=unique_asymmetric,
        group_size=group_size,
    )  # fmt: skip
    spec = table.lower(rules.data)
    root = RootSeed.from_seed(seed)
    jobs = list(batches(n_games, batch_size))
    if n_jobs == 1 and backend is None:
        parts = [play_range(spec, root, start, size) for start, size in jobs]
    else:
        parallel = Parallel(n_jobs=n_jobs, prefer="threads", backend=backend)
        parts = list(parallel(delayed(play_range)(spec, root, s, n) for s, n in jobs))
    if parts:
        records = np.concatenate(parts)
    else:
        records = frames.empty_records(import_core().RECORD_DTYPE, 0)
    frame = frames.to_frame(records, rules.data, spec["bot_labels"])  # type: ignore[arg-type]
    return frame.sort("game_id", "seat")
