"""Counting at round starts: the plumbing of the measured chance tables.

The line, objective and objective-rate tables are shares: solo games with a
random corporation and planet per game are played by greedy_tuned without the
feature the table serves, positions are counted at every round start with
whether they paid at the end, and the share that paid (smoothed toward the
neighbouring rounds) is the table.  Games are counted in chunks on joblib
workers; the counts add up, so a table does not depend on ``--jobs``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import numpy as np
import numpy.typing as npt

from pu_sim.bots import BotSpec
from pu_sim.engine import load_rules
from pu_sim.game import Game
from pu_sim.lab.common import in_chunks
from pu_sim.simulation.seeds import derive

ROUNDS = 20  # a game's usual length; later rounds count as the last
PRIOR = 20.0  # pseudo-observations pulling a cell toward its neighbouring rounds
SHOWN_ROUNDS = (1, 5, 10, 15, 18, 20)  # the rounds a report's tables show

Floats = npt.NDArray[np.float64]
Counter = Callable[[range, int], tuple[Floats, Floats]]


def random_board_game(bot: BotSpec, seed: int, index: int) -> Game:
    """Solo game `index` of the run, on a corporation and planet of its own.

    Drawn from the game's own generator, so a game is the same in any chunk.
    """
    data = load_rules().data
    pick = random.Random(derive(seed, "boards", index).k0)
    return Game(
        players=1,
        corporations=pick.choice([c.key for c in data.corporations]),
        planets=pick.choice([p.key for p in data.planets]),
        bots=bot,
        seed=seed,
        game_index=index,
    )


def count_in_chunks(
    count: Counter, n_games: int, seed: int, jobs: int
) -> tuple[Floats, Floats]:
    """(positions seen, positions that paid), summed over about 20 chunks of games."""
    parts = in_chunks(count, n_games, jobs, seed)
    # counts are whole numbers: their sum does not depend on the order
    return np.sum([p[0] for p in parts], axis=0), np.sum([p[1] for p in parts], axis=0)


def rounds_table(
    first: str, counted: str, rows: Iterable[tuple[object, Floats, float]]
) -> list[str]:
    """A Markdown table of chances at SHOWN_ROUNDS.

    One row per (label, chance by round, positions seen).
    """
    return [
        f"| {first} | " + " | ".join(f"round {r}" for r in SHOWN_ROUNDS)
        + f" | {counted} |",
        "|---|" + "---|" * (len(SHOWN_ROUNDS) + 1),
        *(f"| {label} | " + " | ".join(f"{chance[r - 1]:.3f}" for r in SHOWN_ROUNDS)
          + f" | {int(seen):,} |" for label, chance, seen in rows),
    ]  # fmt: skip
