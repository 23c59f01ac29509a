"""Bots written in Python: a protocol and a loop that pits them against core bots.

The core bots play inside the compiled engine, fast.  A researcher prototyping a
new idea writes a Python class with one method, ``step(game) -> move``, and
plays it on the slow path (:class:`pu_sim.game.Game`) against any core bot,
as OpenSpiel's ``evaluate_bots`` does.  Every decision of a Python bot's seats
is asked of it; the other seats' core bots answer theirs.  A Python bot that
proves itself is ported into the core.

Examples
--------
>>> from pu_sim.bots.python import FirstMoveBot, evaluate_bots
>>> frame = evaluate_bots(2, {0: FirstMoveBot()}, players=2, seed=1)
>>> frame.columns[:4]
['game_id', 'seat', 'bot', 'score']
"""

from __future__ import annotations

import random as _random
from collections.abc import Mapping
from typing import Protocol, Unpack, runtime_checkable

import polars as pl

from pu_sim.game import Game
from pu_sim.simulation.seeds import SeedLike
from pu_sim.simulation.table import TableArgs, TableSetup, table_of


@runtime_checkable
class Bot(Protocol):
    """A bot written in Python: it chooses a legal move for the pending decision."""

    def step(self, game: Game) -> int:
        """One of ``game.legal_moves()`` for ``game.decider``'s pending decision.

        ``game.decision`` names the decision; :meth:`pu_sim.game.Game.describe`
        says a move in words.  The bot must not change ``game``.
        """
        ...


class FirstMoveBot:
    """Always the first legal move: a baseline and a test double."""

    name = "first_move"

    def step(self, game: Game) -> int:
        """The first legal move."""
        return game.legal_moves()[0]


class RandomBot:
    """A uniformly random legal move from its own generator (reproducible per seed)."""

    name = "python_random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = _random.Random(seed)

    def step(self, game: Game) -> int:
        """A random legal move."""
        return self._rng.choice(game.legal_moves())


def play_game(game: Game, bots: Mapping[int, Bot]) -> list[int]:
    """Play ``game`` to its end; ``bots[seat]`` decides for that seat.

    Seats without a Python bot are played by their core bots.

    Returns the final scores by seat.  An illegal move from a Python bot raises
    ValueError naming the decision and the move.
    """
    while not game.is_terminal:
        bot = bots.get(game.decider)
        if bot is None:
            game.step()
            continue
        move = bot.step(game)
        if move not in game.legal_moves():
            raise ValueError(
                f"{type(bot).__name__} chose {move!r}, not a legal move of "
                f"seat {game.decider}'s {game.decision} decision"
            )
        game.apply(move)
    return [int(s["score"]) for s in game.scores()]


def evaluate_bots(
    n_games: int,
    python_bots: Mapping[int, Bot],
    table: TableSetup | None = None,
    *,
    seed: SeedLike = 0,
    first_game: int = 0,
    **table_args: Unpack[TableArgs],
) -> pl.DataFrame:
    """Play ``n_games`` games with Python bots in some seats; a row per (game, seat).

    ``python_bots`` maps a seat to its Python bot; seats not in it are played
    by the table's core bots.  The games are games ``first_game ...`` of the
    table and seed (the same deals as :func:`pu_sim.simulate`), so a Python bot
    and a core bot compared on the same seeds face the same tiles, boards and
    events.  Rows: ``game_id, seat, bot`` (the Python bot's ``name`` or class
    name, else the core bot's label), ``score, rank, won``.
    """
    table = table_of(table, table_args)
    if not python_bots:
        raise ValueError("evaluate_bots needs at least one Python bot")
    for seat, bot in python_bots.items():
        if not 0 <= seat < table.players:
            raise ValueError(
                f"seat {seat} is not a seat of a {table.players}-player table"
            )
        if not isinstance(bot, Bot):
            raise TypeError(f"seat {seat}: {bot!r} has no step(game) method")
    core_labels = [b.label for b in table.seat_bots()]
    rows: list[dict[str, object]] = []
    for i in range(first_game, first_game + n_games):
        game = Game(table, seed=seed, game_index=i)
        scores = play_game(game, python_bots)
        ranks = [s["rank"] for s in game.scores()]
        for seat, score in enumerate(scores):
            python_bot = python_bots.get(seat)
            label = (
                getattr(python_bot, "name", type(python_bot).__name__)
                if python_bot is not None
                else core_labels[seat]
            )
            rows.append(
                {"game_id": i, "seat": seat, "bot": label, "score": score,
                 "rank": int(ranks[seat]), "won": ranks[seat] == 1}
            )  # fmt: skip
    return pl.DataFrame(rows)
