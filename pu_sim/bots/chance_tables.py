"""Shared plumbing of the chance-table experiments (line and objective chances).

Both play solo games with a random corporation and planet per game, count
positions and outcomes at every round start, and write the measured table as
a fitted-table data file (:mod:`pu_sim.bots.fitted`).  Games are counted in
chunks on joblib workers; the counts add up, so the table does not depend on
``--jobs``.  The rollout-fitted tables (track_values.py, placement_values.py)
share the flags and the policy-without-its-feature.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from pu_sim import bots
from pu_sim.bots import BotSpec, fitted
from pu_sim.game import Game
from pu_sim.rules import load_rules

ROUNDS = 20  # a game's usual length; later rounds count as the last
PRIOR = 20.0  # pseudo-observations pulling a cell toward its neighbouring rounds
SHOWN_ROUNDS = (1, 5, 10, 15, 18, 20)  # the rounds a report's tables show

Floats = npt.NDArray[np.float64]
Counter = Callable[[range, int], tuple[Floats, Floats]]


def policy_without(weight: str) -> BotSpec:
    """greedy_tuned with one feature switched off: what its table measures.

    Labelled greedy_tuned, as the committed reports record it.
    """
    return bots.greedy("greedy_tuned", **{**bots.PRESETS["greedy_tuned"], weight: 0.0})


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
    description: str,
    seed: int,
    table: str,
    games: int = 4000,
    games_help: str | None = None,
) -> argparse.ArgumentParser:
    """The flags every script that writes a fitted table takes.

    ``--write`` writes the table into ``--tables`` (default: the packaged
    ``pu_sim/data/fitted``); a ``--smoke`` run writes only into a ``--tables``
    folder given explicitly, never over the packaged table.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=games, help=games_help)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--write", action="store_true", help=f"write the {table} table (--tables)"
    )
    parser.add_argument(
        "--tables", type=Path, default=None,
        help="folder of fitted tables to write into (default: the packaged ones)",
    )  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (tests)")
    return parser


def write_if_asked(
    args: argparse.Namespace,
    table: str,
    arrays: Mapping[str, npt.ArrayLike],
    provenance: fitted.Provenance,
) -> Path | None:
    """Write the table when ``--write`` asks (see :func:`table_parser`)."""
    if not args.write or (args.smoke and args.tables is None):
        return None
    return fitted.write_table(table, arrays, provenance, args.tables)


def report_folder(
    study: str, args: argparse.Namespace, n_games: int
) -> tuple[Path, str]:
    """The run's report folder under ``--out`` (created), and its command.

    The command is the one that rewrites the table (``--write``).
    """
    command = (
        f"python experiments/{study}.py --games {n_games} --seed {args.seed} --write"
    )
    name = "smoke" if args.smoke else f"{n_games}-games-seed-{args.seed}"
    out = args.out / study / name
    out.mkdir(parents=True, exist_ok=True)
    return out, command


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
