"""Research probes: what a bot makes of a position, and what a move is worth.

Bot development asks questions the step-by-step game does not: how greedy's
weights value every legal move, the afterstate and context features its fitted
tables read, and the final score a move leads to when the bots play on from a
redeal of what the deciding seat cannot see (rollouts, as the search bot runs
them).  These functions answer them for a :class:`pu_sim.game.Game` without
changing it; the scripts under ``experiments/bots/`` and the bot tests use them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import numpy as np

from pu_sim.bots.specs import BotSpec
from pu_sim.bots.specs import parse as parse_bot
from pu_sim.game import SCORE_KEYS, Game

T = TypeVar("T")


def greedy_values(game: Game, bot: str | BotSpec = "greedy") -> list[float]:
    """What a greedy bot's weights make of each legal move (legal_moves order)."""
    return game.state.greedy_values(parse_bot(bot).vector())


def placement_features(game: Game, move: int) -> list[float]:
    """Afterstate features of a placement, read by greedy's fitted values.

    Tile size, free regions by size, lines close to complete
    (the placement-values fit names them).
    """
    return game.state.placement_features(move)


def planet_keys(game: Game, move: int) -> dict[str, Any]:
    """What the learned planet value reads of the planet a placement leaves.

    Its part of the game, each 3x3 window's pattern, each line's free squares
    and meteorite, and the table's value (core/bots/greedy_ntuple.pxi).
    """
    return game.state.planet_keys(move)


def track_context(game: Game, p: int = 0) -> list[float]:
    """Player p's context read by greedy's fitted track values.

    Lifepods (near its rovers), rovers, covered squares, civ cards, tech,
    meteorites, tracker positions (the track-values fit names them).
    """
    return game.state.track_context(p)


def _played_out(game: Game, move: int, stream: int, seat: int) -> Any:
    """The game after `move`, the bots playing to the end.

    What `seat` cannot see is redealt from `stream` first (as the search bot
    does), so what is read from it uses public information only.
    """
    state = game.state.determinized(seat, stream)
    state.apply(move)
    state.play_out()
    return state


def rollout_scores(game: Game, move: int, stream: int, seat: int = 0) -> dict[str, int]:
    """`seat`'s final score breakdown after `move` (:func:`_played_out`)."""
    fields = _played_out(game, move, stream, seat).player_fields(seat)
    return {k: int(fields[k]) for k in SCORE_KEYS}


def rollout(game: Game, move: int, stream: int, seat: int = 0) -> float:
    """`seat`'s final score after `move` (:func:`rollout_scores`' total)."""
    return float(rollout_scores(game, move, stream, seat)["score"])


def rollout_value(
    game: Game, move: int, rollouts: int, first_stream: int, seat: int = 0
) -> float:
    """Mean of :func:`rollout` over ``rollouts`` streams from ``first_stream``.

    Valuing every move of a decision on the same streams compares them on the
    same futures (common random numbers).
    """
    return float(
        np.mean([rollout(game, move, first_stream + j, seat) for j in range(rollouts)])
    )


def rollout_margin(
    game: Game,
    move: int,
    rollouts: int,
    first_stream: int,
    seat: int = 0,
    versus: str = "best",
) -> float:
    """Mean over ``rollouts`` streams of `seat`'s score minus the best opponent's.

    How the search bot values a move with more players (common random numbers
    as in :func:`rollout_value`); ``versus="mean"``: minus the opponents' mean.
    """
    if versus not in ("best", "mean"):
        raise ValueError(f"versus {versus!r}: choose 'best' or 'mean'")
    players = len(game.scores())
    margins: list[float] = []
    for j in range(rollouts):
        state = _played_out(game, move, first_stream + j, seat)
        scores = [float(state.player_fields(p)["score"]) for p in range(players)]
        own = scores.pop(seat)
        margins.append(
            own - (max(scores) if versus == "best" else float(np.mean(scores)))
        )
    return float(np.mean(margins))


def play_reading_rounds(
    game: Game, read: Callable[[Any], T]
) -> tuple[list[tuple[int, T]], T]:
    """Play to the end by the seats' bots, reading the state at every round start.

    Returns ``[(round, read(state))]`` for each round and ``read`` of the final
    state: what the chance tables compare each round's position with.
    """
    states: list[tuple[int, T]] = []
    last_round = 0
    while not game.is_terminal:
        round_ = game.state.game_fields()["round"]
        if round_ != last_round:
            states.append((round_, read(game.state)))
            last_round = round_
        game.apply(game.bot_move())
    return states, read(game.state)


def values_after_redeals(
    game: Game, bot: str | BotSpec, streams: Iterable[int]
) -> Iterator[list[float]]:
    """Greedy's values of the legal moves, once per redeal of what seat 0 cannot see.

    One redeal per stream of the tiles below the stacks' tops, the event deck
    and the civ piles: a bot that reads only public state values every redeal
    as it values the game itself.
    """
    for stream in streams:
        other = game.copy()
        other.state = game.state.determinized(0, stream)
        yield greedy_values(other, bot)
