"""What the bot lab's scripts share, beside the study harness.

A script under ``experiments/bots/`` is a frozen ``Config`` dataclass and a
``main(argv)`` that calls :func:`start`, the study harness
(:func:`pu_sim.studies.harness.start`) with the lab's report folder
``<out>/bots/<study>/<run>/``.

Also here, for several studies: greedy_tuned without one feature, paired
differences with their 95% half-width, the games of one table in one core
call, paired games on the base or random boards (with a folder of fitted
tables) and the share of
opponents one seat beats there, and work over chunks of games on joblib
workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.engine import core, load_rules
from pu_sim.simulation.in_memory import play_range
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.seeds import SeedLike
from pu_sim.simulation.table import TableSetup
from pu_sim.studies import harness
from pu_sim.studies.harness import Study

REPORTS = "bots"
"""The bot studies' folder under the reports root (``reports/bots/<study>``)."""

C = TypeVar("C")
R = TypeVar("R")
Floats = npt.NDArray[np.float64]


guarded = harness.guarded
"""A lab script's ``main`` run as the command line runs a command: one line per
failure (:func:`pu_sim.studies.harness.guarded`)."""


def start(study: str, config: C, argv: Sequence[str] | None, **kwargs: Any) -> Study:
    """A lab script's flags and report folder (``<out>/bots/<study>/<run>/``).

    The keywords are :func:`pu_sim.studies.harness.start`'s.
    """
    return harness.start(study, config, argv, reports=REPORTS, **kwargs)


# --------------------------------------------------------------------------------
# Shared measurements
# --------------------------------------------------------------------------------


ROUND_PARTS = (1, 6, 11, 15, 18, 20)
"""Parts of the game by round (the first round of each; a game ends about round
20): the rows of the learned rotation value's table
(core/bots/greedy_rotation_round.pxi), and the parts other studies report by."""


def round_part(round_: int) -> int:
    """The part of the game (index into ROUND_PARTS) a round falls in."""
    return int(np.searchsorted(ROUND_PARTS, round_, side="right")) - 1


def round_part_labels() -> list[str]:
    """The parts of the game as round ranges: 1-5, ..., 20+."""
    ends = [*ROUND_PARTS[1:], None]
    return [f"{s}" if e == s + 1 else (f"{s}+" if e is None else f"{s}-{e - 1}")
            for s, e in zip(ROUND_PARTS, ends, strict=True)]  # fmt: skip


def policy_without(weight: str) -> BotSpec:
    """greedy_tuned with one feature switched off: what its table measures.

    Labelled greedy_tuned, as the committed reports record it.
    """
    return bots.greedy("greedy_tuned", **{**bots.PRESETS["greedy_tuned"], weight: 0.0})


def paired(a: npt.ArrayLike, b: npt.ArrayLike) -> tuple[float, float]:
    """Mean of a - b and the half-width of its 95% interval (normal)."""
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    if len(d) < 2:
        return float(d.mean()), 0.0
    return float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))


def seat_outcomes(scores: npt.ArrayLike, seat: int = 0) -> tuple[Floats, Floats]:
    """Per game (rows: games, columns: seats): `seat`'s margin and share beaten.

    Its score minus the best opponent's, and the share of opponents it finished
    ahead of (ties half).
    """
    s = np.asarray(scores, np.float64)
    own, others = s[:, seat], np.delete(s, seat, axis=1)
    margin = own - others.max(axis=1)
    ahead = ((own[:, None] > others) + 0.5 * (own[:, None] == others)).mean(axis=1)
    return margin, ahead


def play_records(
    setup: TableSetup, n_games: int, seed: SeedLike, first_game: int = 0
) -> npt.NDArray[np.void]:
    """Games [first_game, first_game + n_games) of a table in one core call.

    Game ``i`` is game ``i`` of ``pu_sim.simulate(table, seed=seed)``.
    """
    return play_range(Plan.of(setup, seed=seed), first_game, n_games)


def _batch(
    plan: Plan, first: int, n: int, tables: Path | None
) -> npt.NDArray[np.float64]:
    """Seat scores of ``n`` games of ``plan`` from ``first``.

    Played with the fitted tables of ``tables`` (None: the packaged ones).
    """
    rules = load_rules(tables).core
    out = core.play_batch(rules, plan.spec, plan.key, first, n)
    return np.asarray(out["score"], np.float64)


BOARDS: dict[str, dict[str, Any]] = {
    "base": {"corporations": "universal_coalition", "planets": "ksb_4156"},
    "random": {"corporations": "random", "planets": "random"},
}
"""The tables the lab's paired games are played on: the base game (Universal
Coalition on KSB-4156 at every seat) or, as the studies play, every seat's
corporation and planet drawn at random."""


def game_scores(
    seats: Sequence[BotSpec], n: int, seed: SeedLike, jobs: int,
    tables: Path | None = None, boards: str = "base",
) -> Floats:  # fmt: skip
    """Scores [game, seat] of n games on `boards`, the tables read from `tables`.

    Game i deals the same setup whoever sits where.
    """
    setup = TableSetup(players=len(seats), bots=list(seats), **BOARDS[boards])
    plan = Plan.of(setup, seed=seed)
    step = max(1, n // 40)
    parts = Parallel(n_jobs=jobs, prefer="threads")(
        delayed(_batch)(plan, s, min(step, n - s), tables) for s in range(0, n, step)
    )
    return np.concatenate(parts).reshape(n, len(seats))


def share_row(
    learned: BotSpec, field_bot: BotSpec, players: int, n: int, seed: SeedLike,
    jobs: int, tables: Path | None = None, boards: str = "base",
) -> dict[str, Any]:  # fmt: skip
    """One ``learned`` seat among ``field_bot`` seats: the share of opponents beaten.

    Each of n setups (`boards`) in every cyclic seat order; the share of
    opponents it finished ahead of (ties half), its interval over setups (a
    setup's games one cluster).
    """
    ahead = np.zeros(n)
    for k in range(players):
        seats = [field_bot] * players
        seats[k] = learned
        scores = game_scores(seats, n, seed, jobs, tables, boards)
        ahead += seat_outcomes(scores, k)[1]
    share, half = paired(ahead / players, 0.0)
    return {"bot": learned.label, "against": field_bot.label, "players": players,
            "setups": n, "ahead": share, "half_width": half}  # fmt: skip


def in_chunks(
    work: Callable[..., R],
    n_games: int,
    jobs: int,
    *args: Any,
    parts: int = 20,
    progress: str | None = None,
) -> list[R]:
    """``work(games, *args)`` over chunks of ``range(n_games)`` on joblib workers.

    About ``parts`` chunks, results in game order (so none depends on ``jobs``);
    ``progress`` names a bar on stderr that counts the finished chunks.
    """
    from tqdm.auto import tqdm

    chunk = max(1, n_games // parts)
    starts = range(0, n_games, chunk)
    results = Parallel(n_jobs=jobs, return_as="generator")(
        delayed(work)(range(s, min(n_games, s + chunk)), *args) for s in starts
    )
    bar = tqdm(results, total=len(starts), desc=progress, disable=progress is None)
    return list(bar)
