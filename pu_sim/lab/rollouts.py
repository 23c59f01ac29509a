"""Rollout values of the greedy bot's options, the fits' raw material.

The fitting studies play games with a greedy bot and stop at some decisions
to value a few of its best moves by Monte Carlo rollouts (the game
determinized for the player, the move applied, the game played to the end by
the same bots, on common random numbers: rollout stream ``index * STREAM`` of
game ``index``), then let the bot play on.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from pu_sim.game import Game
from pu_sim.lab import probes

STREAM = 100_000
"""Rollout streams reserved per game index (common random numbers per game)."""


def decisions(game: Game, names: Container[str] | None = None) -> Iterator[list[int]]:
    """Play ``game`` by its bots, yielding before the decisions asked for.

    Before each decision with more than one legal move (named in ``names``, or
    any) its moves are yielded; then the bot's move is played.
    """
    while not game.is_terminal:
        moves = game.legal_moves()
        if len(moves) > 1 and (names is None or game.decision in names):
            yield moves
        game.apply(game.bot_move())


def top_moves(values: npt.ArrayLike, k: int) -> npt.NDArray[np.intp]:
    """Indices of the k highest values, best first.

    Ties keep the earlier move, as the search bot keeps them.
    """
    return np.argsort(-np.asarray(values, np.float64), kind="stable")[:k]


def rollout_values(
    game: Game, moves: Sequence[int], rollouts: int, index: int
) -> list[float]:
    """Mean final score of each move over ``rollouts`` rollouts.

    On game ``index``'s common random numbers.
    """
    return [probes.rollout_value(game, m, rollouts, index * STREAM) for m in moves]
