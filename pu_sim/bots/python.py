"""Bots written in Python: the protocol a researcher's bot follows.

The core bots play inside the compiled engine, fast.  A researcher prototyping
a new idea writes a Python class with one method, ``step(game) -> move``, and
seats it at any table like a core bot (``bots=[MyBot(), "greedy_tuned"]``):
:func:`pu_sim.simulate`, :func:`pu_sim.run` (a run folder that
``pu-sim report`` reads) and ``pu-sim simulate --bots module:Class`` then play
on the slow path (:mod:`pu_sim.simulation.python_bots`), every decision of a
Python bot's seats asked of it and the other seats' core bots answering
theirs exactly as on the fast path.  A Python bot that proves itself is
ported into the core.

Reproducible like a core bot: each game gets a fresh copy of the bot (so a
game never depends on the games before it in its batch), and its optional
``start(game)`` hook is called first, where a bot that draws random numbers
seeds them from the game (:class:`RandomBot` does).

Examples
--------
>>> import pu_sim
>>> from pu_sim.bots.python import FirstMoveBot
>>> games = pu_sim.simulate(2, players=2, bots=[FirstMoveBot(), "greedy"], seed=1)
>>> games.filter(seat=0)["bot"].to_list()
['first_move', 'first_move']
"""

from __future__ import annotations

import random as _random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from pu_sim.game import Game


@runtime_checkable
class Bot(Protocol):
    """A bot written in Python: it chooses a legal move for the pending decision."""

    def step(self, game: Game) -> int:
        """One of ``game.legal_moves()`` for ``game.decider``'s pending decision.

        ``game.decision`` names the decision; :meth:`pu_sim.game.Game.describe`
        says a move in words.  The bot must not change ``game``.
        """
        ...


def bot_label(bot: Bot) -> str:
    """A Python bot's label in result frames: its ``name``, else its class name."""
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) and name else type(bot).__name__


PREFIX = "python:"
"""How a bot name says "a bot written in Python": ``python:package.module:Class``."""


def bot_path(bot: Bot) -> str:
    """The name that builds this Python bot again: ``python:module:Class``."""
    cls = type(bot)
    return f"{PREFIX}{cls.__module__}:{cls.__qualname__}"


def load_bot(name: str) -> Bot:
    """The Python bot a name builds: ``python:package.module:Class``, called bare.

    The class is imported (from ``sys.path``, the working folder included when
    run from a shell) and called without arguments.  One clear line names the
    module, the class or the missing ``step`` method otherwise.
    """
    import importlib
    import sys

    path = name.removeprefix(PREFIX)
    module_name, sep, qualname = path.partition(":")
    if not name.startswith(PREFIX) or not sep or not module_name or not qualname:
        raise ValueError(
            f"a Python bot is named python:package.module:Class, got {name!r}"
        )
    if "" not in sys.path:
        sys.path.insert(0, "")  # the working folder, as `python -m` has it
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"Python bot {name!r}: cannot import {module_name!r} ({exc})"
        ) from None
    target: object = module
    for part in qualname.split("."):
        target = getattr(target, part, None)
        if target is None:
            raise ValueError(f"Python bot {name!r}: {module_name} has no {qualname!r}")
    if not callable(target):
        raise ValueError(f"Python bot {name!r}: {qualname!r} is not a class")
    try:
        bot = target()
    except TypeError as exc:
        raise ValueError(
            f"Python bot {name!r}: {qualname}() needs arguments ({exc}); seat an "
            "instance from Python instead"
        ) from None
    if not isinstance(bot, Bot):
        raise ValueError(f"Python bot {name!r}: {qualname} has no step(game) method")
    return bot


class FirstMoveBot:
    """Always the first legal move: a baseline and a test double."""

    name = "first_move"

    def step(self, game: Game) -> int:
        """The first legal move."""
        return game.legal_moves()[0]


class RandomBot:
    """A uniformly random legal move, drawn from the game's own seed and index."""

    name = "python_random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._rng = _random.Random(seed)

    def start(self, game: Game) -> None:
        """Seed from the bot's seed, the run's root key and the game index."""
        self._rng = _random.Random(f"{self.seed}/{game.seed.k0}/{game.game_index}")

    def step(self, game: Game) -> int:
        """A random legal move."""
        return self._rng.choice(game.legal_moves())
