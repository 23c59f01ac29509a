"""Tables with bots written in Python: played on the slow path, recorded like any.

A seat's Python bot (:class:`pu_sim.bots.python.Bot`) is asked every decision
of its seat that offers a choice; the other seats' core bots play inside the
core exactly as on the fast path (``GameState.play_until_seats``), and the
finished game is written as the same seat records (``records_into``), so a
run with a Python bot is a run folder like any other: resumable, reported by
``pu-sim report``, replayed by ``pu-sim play --run``.

Reproducible whatever the batches: each game gets a fresh copy of every Python
bot, whose ``start(game)`` (if it has one) is called before its first move.
The GIL is held throughout, so threads add no speed: this path is for
prototypes, and a bot that proves itself is ported into the core.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Unpack

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.bots.python import Bot, FirstMoveBot, RandomBot, bot_label
from pu_sim.engine import core
from pu_sim.game import Game
from pu_sim.simulation.plan import UNSET, Plan, SeedArg, plan_of
from pu_sim.simulation.table import BotChoice, TableArgs, TableSetup

__all__ = ["Bot", "FirstMoveBot", "RandomBot", "evaluate_bots", "play_game",
           "play_python_range"]  # fmt: skip


class PythonBotError(RuntimeError):
    """A Python bot failed or chose an illegal move: the game cannot go on."""


def play_game(game: Game) -> None:
    """Play ``game`` to its end, its Python bots deciding their seats' choices.

    An illegal move or a failing bot raises :class:`PythonBotError` naming
    the bot, the decision and the game.
    """
    bots = game.python_bots
    seats = sum(1 << seat for seat in bots)
    while game.state.play_until_seats(seats):
        bot = bots[game.decider]
        try:
            move = bot.step(game)
        except Exception as exc:
            raise PythonBotError(
                f"Python bot {bot_label(bot)!r} failed at seat {game.decider}'s "
                f"{game.decision} decision of game {game.game_index}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        try:
            move = game.check_move(move)
        except ValueError:
            raise PythonBotError(
                f"Python bot {bot_label(bot)!r} chose {move!r}, not a legal move of "
                f"seat {game.decider}'s {game.decision} decision "
                f"(game {game.game_index})"
            ) from None
        game.state.apply(move)


def play_python_range(
    plan: Plan, first_game: int, n_games: int
) -> npt.NDArray[np.void]:
    """Games ``[first_game, first_game + n_games)`` of a plan with Python bots.

    The same records as the core's batch call would write, one row per seat.
    """
    players = plan.players
    out = core.empty_records(n_games * players)
    for k in range(n_games):
        index = first_game + k
        game = Game(plan, game_index=index)  # fresh copies of the Python bots
        play_game(game)
        game.state.records_into(out[k * players : (k + 1) * players], index)
    return out


def evaluate_bots(
    n_games: int,
    python_bots: Mapping[int, Bot],
    table: TableSetup | Plan | None = None,
    *,
    seed: SeedArg = UNSET,
    first_game: int = 0,
    **table_args: Unpack[TableArgs],
) -> pl.DataFrame:
    """Python bots in some seats against the table's core bots (OpenSpiel's shape).

    ``python_bots`` maps a seat to its Python bot; the other seats keep the
    table's bots.  The games are games ``first_game ...`` of the table and
    seed, the same deals as :func:`pu_sim.simulate`'s, so a Python bot and a
    core bot compared on the same seeds face the same tiles, boards and
    events.  Returns the full result frame (one row per game and seat).

    Examples
    --------
    >>> from pu_sim.simulation.python_bots import FirstMoveBot, evaluate_bots
    >>> frame = evaluate_bots(2, {0: FirstMoveBot()}, players=2, seed=1)
    >>> frame.filter(seat=0)["bot"].unique().to_list()
    ['first_move']
    """
    from pu_sim.simulation import frames

    plan = plan_of(table, seed, table_args)
    if not python_bots:
        raise ValueError("evaluate_bots needs at least one Python bot")
    seats: list[BotChoice] = list(plan.table.per_seat(plan.table.bots, "bots"))  # type: ignore[arg-type]
    for seat, bot in python_bots.items():
        if not 0 <= seat < plan.players:
            raise ValueError(
                f"seat {seat} is not a seat of a {plan.players}-player table"
            )
        if not isinstance(bot, Bot):
            raise TypeError(f"seat {seat}: {bot!r} has no step(game) method")
        seats[seat] = bot
    seated = Plan.of(dataclasses.replace(plan.table, bots=seats), seed=plan.seed)
    records = play_python_range(seated, first_game, n_games)
    return frames.to_frame(records, seated.rules.data, seated.bot_labels)
