"""Shared plumbing of the chance-table experiments (line and objective chances).

Both play solo games with a random corporation and planet per game, count
positions and outcomes at every round start, and write the measured table into
a ``.pxi`` file the core includes.  Games are counted in chunks on joblib
workers; the counts add up, so the table does not depend on ``--jobs``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from pu_sim.bots import BotSpec
from pu_sim.engine import Game
from pu_sim.rules import load_rules

Floats = npt.NDArray[np.float64]
Counter = Callable[[range, int], tuple[Floats, Floats]]


def random_board_game(bot: BotSpec, seed: int, index: int) -> Game:
    """Solo game `index` of the run, on a corporation and planet of its own.

    Drawn from the game's own generator, so a game is the same in any chunk.
    """
    data = load_rules().data
    pick = random.Random(seed * 1_000_003 + index)
    return Game(
        1,
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
    chunk = max(1, n_games // 20)
    parts = Parallel(n_jobs=jobs)(
        delayed(count)(range(s, min(n_games, s + chunk)), seed)
        for s in range(0, n_games, chunk)
    )
    return sum(p[0] for p in parts), sum(p[1] for p in parts)


def table_parser(
    description: str, seed: int, table_file: Path
) -> argparse.ArgumentParser:
    """The flags every chance-table script takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--write", action="store_true", help=f"rewrite {table_file.name}"
    )
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (tests)")
    return parser


def pxi_rows(values: Floats) -> list[str]:
    """One table row as .pxi lines of 8 values."""
    return [
        "    " + ", ".join(f"{v:.4f}" for v in values[i : i + 8]) + ","
        for i in range(0, len(values), 8)
    ]
