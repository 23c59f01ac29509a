"""Commanders' rotation decisions shared by the rotation tests: copies of a
game at each station turn its commander chooses (3+ players, SS-3)."""

from __future__ import annotations

from pu_sim import bots
from pu_sim.game import Game


def rotation_decisions(
    players: int, seed: int, bot: bots.BotSpec, n: int | None = None
) -> list[Game]:
    """Copies of a game at its commanders' rotation decisions (the first n)."""
    game = Game(players=players, bots=bot, seed=seed)
    out = []
    while not game.is_terminal and (n is None or len(out) < n):
        if game.decision == "rotation":
            out.append(game.copy())
        game.apply(game.bot_move())
    return out
