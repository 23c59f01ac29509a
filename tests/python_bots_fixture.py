"""Python bots the tests seat by name (``python:python_bots_fixture:...``)."""

from __future__ import annotations

from pu_sim.game import Game


class GreedyProxy:
    """Asks the seat's stand-in core bot (greedy): plays exactly as greedy."""

    name = "greedy_proxy"

    def step(self, game: Game) -> int:
        """The move the core's greedy would make."""
        return game.state.bot_move()


class LastMoveBot:
    """Always the last legal move: a simple policy unlike every core bot."""

    name = "last_move"

    def step(self, game: Game) -> int:
        """The last legal move."""
        return game.legal_moves()[-1]


class IllegalBot:
    """Always an illegal move."""

    name = "illegal"

    def step(self, game: Game) -> int:
        """A move no decision has."""
        return 10**9
