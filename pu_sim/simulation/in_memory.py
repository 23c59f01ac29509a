"""Play many games in parallel and return one Polars frame (in memory).

The reproducibility contract is :mod:`pu_sim.simulation.seeds`': a game
depends only on the root seed, its index, the table, ``RULES_VERSION`` and
``ENGINE_VERSION``.  For more games than memory holds, :func:`pu_sim.run`
streams them into a resumable run folder instead.
"""

from __future__ import annotations

from typing import Unpack

import numpy as np
import numpy.typing as npt
import polars as pl
from joblib import Parallel, delayed

from pu_sim.engine import core
from pu_sim.simulation import frames
from pu_sim.simulation.checks import check_counts, check_fits_in_memory
from pu_sim.simulation.plan import UNSET, Plan, SeedArg, plan_of
from pu_sim.simulation.seeds import DEFAULT_BATCH_SIZE, batches
from pu_sim.simulation.table import TableArgs, TableSetup


def play_range(plan: Plan, first_game: int, n_games: int) -> npt.NDArray[np.void]:
    """Play games [first_game, first_game + n_games) of a plan: their seat records.

    One GIL-free core call; a table with Python bots plays on the slow path
    (:mod:`pu_sim.simulation.python_bots`) and gives the same records.  Only
    the plan crosses to a worker (thread, process or cluster node), which
    loads and caches the compiled rules itself.
    """
    if plan.python_bots:
        from pu_sim.simulation.python_bots import play_python_range

        return play_python_range(plan, first_game, n_games)
    return core.play_batch(plan.rules.core, plan.spec, plan.key, first_game, n_games)


def play_range_traced(
    plan: Plan, first_game: int, n_games: int
) -> tuple[npt.NDArray[np.void], pl.DataFrame]:
    """:func:`play_range` plus the games' round score table.

    The same games (tracing only reads the game between rounds), and each
    seat's score after every round (:func:`frames.round_score_frame`).
    """
    if plan.python_bots:
        raise ValueError(
            "round scores are kept on the fast path only: a table with a Python "
            "bot plays without them (drop round_scores)"
        )
    out, trace, none = core.play_batch_traced(
        plan.rules.core, plan.spec, plan.key, first_game, n_games
    )
    return out, frames.round_score_frame(trace, first_game, none)


def simulate(
    n_games: int,
    table: TableSetup | Plan | None = None,
    *,
    seed: SeedArg = UNSET,
    n_jobs: int = -1,
    batch_size: int = DEFAULT_BATCH_SIZE,
    backend: str | None = None,
    **table_args: Unpack[TableArgs],
) -> pl.DataFrame:
    """Play ``n_games`` games and return one row per (game, seat).

    Parameters
    ----------
    n_games
        Number of games (0 gives an empty frame with the schema).  A frame too
        big for memory is refused:
        :func:`pu_sim.run` streams any number of games to disk.
    table, **table_args
        The table: a :class:`pu_sim.TableSetup`, or its fields as keywords
        (``players``, ``corporations``, ``planets``, ``bots``, ``options``,
        ``unique_asymmetric``, ``group_size``, ``paired``, ``variant``) with its
        defaults:
        solo, Universal Coalition on KSB-4156, the greedy bot, the reference's
        rule options.  Or a :class:`pu_sim.simulation.plan.Plan` (a table and a
        seed, lowered once).
    seed
        Root seed (a non-negative int, a SeedSequence, or None for fresh
        entropy); default :data:`~pu_sim.simulation.seeds.DEFAULT_SEED`.
    n_jobs
        Parallel workers (joblib; threads by default, since the core releases
        the GIL); -1, the default, uses every core.  Results do not depend on it.
    batch_size
        Games per core call.  Results do not depend on it.
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
    check_counts(n_games, batch_size, n_jobs)
    plan = plan_of(table, seed, table_args)
    plan.table.check_games(n_games)
    check_fits_in_memory(n_games * plan.players, core.record_dtype().itemsize)
    jobs = list(batches(n_games, batch_size))
    if n_jobs == 1 and backend is None:
        parts = [play_range(plan, s, n) for s, n in jobs]
    else:
        parallel = Parallel(n_jobs=n_jobs, prefer="threads", backend=backend)
        parts = list(parallel(delayed(play_range)(plan, s, n) for s, n in jobs))
    records = np.concatenate(parts) if parts else core.empty_records(0)
    frame = frames.to_frame(records, plan.rules.data, plan.bot_labels)
    return frame.sort("game_id", "seat")
