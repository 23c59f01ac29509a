"""The slow path: one game step by step, for people and tests.

:class:`Game` wraps the compiled core's ``GameState`` (the very same rule
functions as the fast path) with a readable API: the pending decision and its
legal moves, applying a move, letting the seat's bot move, rendering planets
as text and move-by-move traces.

Planets render as text (:mod:`pu_sim.rules.planet_text` gives the legend).  The
scenario setters tests use live in :class:`pu_sim.testing.ScenarioGame`, the
research probes bot development uses in :mod:`pu_sim.lab.probes`, and a bot
written in Python plays through :mod:`pu_sim.bots.python`.

Examples
--------
>>> from pu_sim.game import Game
>>> game = Game(players=2, bots="greedy", seed=3)
>>> game.decision
'place'
>>> game.play()
>>> game.is_terminal
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, Self, Unpack

from pu_sim.bots.python import Bot
from pu_sim.engine import Rules
from pu_sim.engine.core import constants as _constants
from pu_sim.engine.core import deal
from pu_sim.engine.core import label as _core_label
from pu_sim.rules.gamedata import TRACKS, Planet
from pu_sim.rules.planet_text import render_planet
from pu_sim.rules.validation import is_int
from pu_sim.simulation.checks import check_game_index
from pu_sim.simulation.plan import UNSET, Plan, SeedArg, plan_of
from pu_sim.simulation.table import TableArgs, TableSetup

SCORE_KEYS = ("score", "score_planet", "score_tracks", "score_lifepods",
              "score_meteorites", "score_civ", "score_objectives")  # fmt: skip
"""A player's final score and its scoring categories (A-E), as player fields."""

TRIGGERED_OPTION_TEXT: Mapping[str, str] = {
    "horizon_destroy": "Horizon tech 4: destroy the carried meteorite",
    "republic_civ_first": "Republic tech 1: select the civ tile first",
    "wormhole_double": "Wormhole tech 3: two patches instead of one",
    "jump_patch_swap": "Jump Drive tech A: a synergy boost instead of the patch",
}
"""The optional power a yes/no decision asks about, in words, by the label of the
core's TriggeredOption member (OPTION_HORIZON_DESTROY: "horizon_destroy")."""


class Game:
    """One game of Planet Unknown on the slow path.

    Parameters
    ----------
    table, **table_args
        The table (:class:`pu_sim.TableSetup`), or its fields as keywords
        (``players=2, corporations="random", bots="greedy_tuned"``), with the
        same defaults as :func:`pu_sim.simulate`; or a
        :class:`~pu_sim.simulation.plan.Plan` (a table and a seed).
    seed, game_index
        The game is exactly game ``game_index`` of a run with this root seed
        and table: ``pu_sim.simulate(..., seed=seed)``, ``pu_sim.run`` and
        ``pu-sim play --run FOLDER --game N`` all play the same game.

    A seat with a bot written in Python (:class:`pu_sim.bots.python.Bot`) has
    its own copy of the bot for this game (``python_bots``), started with
    the game; :meth:`bot_move` asks it whenever that seat has a choice.
    """

    def __init__(
        self,
        table: TableSetup | Plan | None = None,
        *,
        seed: SeedArg = UNSET,
        game_index: int = 0,
        **table_args: Unpack[TableArgs],
    ) -> None:
        self.plan = plan_of(table, seed, table_args)
        self.table = self.plan.table
        self.rules: Rules = self.plan.rules
        self.spec = self.plan.spec
        check_game_index(game_index)
        self.seed = self.plan.seed
        self.game_index = game_index
        self.state = deal(self.rules.core, self.spec, self.plan.key, game_index)
        self.python_bots: dict[int, Bot] = {
            seat: copy.deepcopy(bot) for seat, bot in self.plan.python_bots.items()
        }
        for bot in self.python_bots.values():
            start = getattr(bot, "start", None)
            if callable(start):
                start(self)

    # -- the game ---------------------------------------------------------------

    @property
    def decision(self) -> str | None:
        """Name of the pending decision, None when the game is over."""
        return self.state.decision

    @property
    def decider(self) -> int:
        """The player who must decide."""
        return self.state.decider

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal

    @property
    def status(self) -> str:
        """The game's status: "ok" or the anomaly that stopped it."""
        return self.state.status

    def legal_moves(self) -> list[int]:
        """Legal moves of the pending decision (see :meth:`describe`)."""
        return self.state.legal_moves()

    def apply(self, move: int) -> None:
        """Apply a legal move (ValueError if it is not legal, or the game is over)."""
        number = self._move_number(move)
        try:
            self.state.apply(number)
        except ValueError:
            raise self._illegal(move) from None

    def check_move(self, move: object) -> int:
        """``move`` as an int if it is legal now; else ValueError saying why not."""
        number = self._move_number(move)
        if number not in self.legal_moves():
            raise self._illegal(move)
        return number

    def _move_number(self, move: object) -> int:
        """An integer move of a game still going (not yet checked for legality)."""
        if not is_int(move):
            raise ValueError(
                f"a move is an integer from legal_moves(), got {move!r} "
                f"({type(move).__name__})"
            )
        if self.is_terminal:
            raise ValueError(
                f"the game is over (status {self.status}): no move can be applied, "
                f"got move {move}"
            )
        number: int = int(move)  # type: ignore[call-overload]
        if not 0 <= number < 2**32:  # the core's moves are unsigned 32-bit
            raise self._illegal(move)
        return number

    def _illegal(self, move: object) -> ValueError:
        """One line: the move, the pending decision and some of its legal moves."""
        legal = self.legal_moves()
        shown = ", ".join(map(str, legal[:8])) + (", ..." if len(legal) > 8 else "")
        return ValueError(
            f"move {move} is not legal for the pending {self.decision!r} decision "
            f"of player {self.decider}; legal moves: {shown}"
        )

    def bot_move(self) -> int:
        """The move the deciding seat's bot would choose now.

        A Python bot's seat asks the bot (a forced move is made for it).
        """
        bot = self.python_bots.get(self.decider)
        if bot is None:
            return self.state.bot_move()
        moves = self.legal_moves()
        return moves[0] if len(moves) == 1 else bot.step(self)

    def step(self) -> int:
        """Let the deciding seat's bot make one decision; returns the move."""
        move = self.bot_move()
        self.apply(move)
        return move

    def play(self, on_decision: Callable[[Game, int], None] | None = None) -> None:
        """Let the bots play to the end (calling ``on_decision(game, move)`` first)."""
        while not self.is_terminal:
            move = self.bot_move()
            if on_decision is not None:
                on_decision(self, move)
            self.apply(move)

    def copy(self) -> Self:
        """An independent copy of the game."""
        other = type(self).__new__(type(self))
        other.plan = self.plan
        other.table = self.table
        other.python_bots = copy.deepcopy(self.python_bots)
        other.rules = self.rules
        other.spec = self.spec
        other.seed = self.seed
        other.game_index = self.game_index
        other.state = self.state.copy()
        return other

    # -- inspection ----------------------------------------------------------------

    def fields(self) -> dict[str, Any]:
        """Round-level state (round, commander, rotation, piles, stacks, ...)."""
        return self.state.game_fields()

    def player(self, p: int) -> dict[str, Any]:
        """Everything about player p."""
        return self.state.player_fields(p)

    def tracks(self, p: int) -> dict[str, int]:
        """Player p's tracker positions by track name."""
        return dict(zip(TRACKS, self.player(p)["track"], strict=True))

    def scores(self) -> list[dict[str, int]]:
        """Score breakdown per player (final once the game is over)."""
        n_players: int = self.spec["n_players"]
        keys = (*SCORE_KEYS, "rank")
        return [{k: self.player(p)[k] for k in keys} for p in range(n_players)]

    def board_names(self, p: int) -> str:
        """Player p's corporation and planet by their display names."""
        info = self.player(p)
        data = self.rules.data
        return (
            f"{data.corporations[info['corp']].name} on "
            f"{data.planets[info['planet']].name}"
        )

    def planet_of(self, p: int) -> Planet:
        """Player p's planet board."""
        planet: Planet = self.rules.data.planets[self.player(p)["planet"]]
        return planet

    def render(self, p: int = 0) -> str:
        """Player p's planet as text (:mod:`pu_sim.rules.planet_text`), with tokens."""
        return render_planet(self.player(p), self.planet_of(p))

    def describe(self, move: int) -> str:
        """A move of the pending decision in words.

        Why long: one branch per kind of decision, each wording its moves; a
        lookup table would hide how each move is read.
        """
        d = self.decision
        core = _constants()
        data = self.rules.data
        if d == "rotation":
            return f"rotate the station to {move}"
        if d == "place":
            slot, o, y, x = (
                (move >> 12) & 1,
                (move >> 8) & 7,
                (move >> 4) & 15,
                move & 15,
            )
            tile = self.state.depot_tiles(self.decider)[slot]
            return f"place {self.tile_name(tile)} orientation {o} at ({x}, {y})"
        if d == "no_place":
            tile = self.state.depot_tiles(self.decider)[move]
            return f"take {self.tile_name(tile)} without placing it"
        if d == "order":
            if move == core["MV_MOVE"]:
                return "move rovers now"
            if move > core["MV_POWER"]:
                return self._power_name(move - core["MV_POWER"])
            kind, a, b, c = self.player(self.decider)["items"][move]
            return f"resolve {self._item_name(kind, a, b, c)}"
        if d in ("energy", "synergy", "track"):
            if move & core["SYNERGY_TWICE"]:  # Jump Drive tech C
                return f"advance {TRACKS[move & ~core['SYNERGY_TWICE']]} twice"
            return f"advance {TRACKS[move]}"
        if d in ("patch", "rover_place", "lifepod", "meteorite"):
            if move in (core["MV_STORE"], core["MV_DONE"]):
                return "store the patch" if move == core["MV_STORE"] else "stop"
            return f"{d.replace('_', ' ')} at ({move % 12}, {move // 12})"
        if d in ("rover_step", "teleport"):
            if move == core["MV_DONE"]:
                return "stop moving" if d == "rover_step" else "skip"
            sq = move & 0xFF
            return f"rover {(move >> 8) + 1} to ({sq % 12}, {sq // 12})"
        if d == "civ_pick":
            card = data.civ_cards[move - 1]
            return f"take civ card {card.id} {card.name!r}"
        if d == "line":
            return f"clear row {move}" if move < 12 else f"clear column {move - 12}"
        if d == "regress":
            return f"regress {TRACKS[move]}"
        if d == "choose_one":
            return "take a synergy boost" if move == 0 else "peek at the next event"
        if d == "keep_resource":
            kind, a, b, c = self.player(self.decider)["keep"][move]
            return f"keep {self._item_name(kind, a, b, c)}"
        if d in ("meteor_symbol", "destroy_lifepod", "collect_meteorite"):
            if move == core["MV_DONE"]:
                return "decline"
            return f"{d.replace('_', ' ')} at ({move % 12}, {move // 12})"
        if d == "destroy_rover":
            return f"lose rover {move + 1}"
        if d == "remove_stack":
            return f"remove the {'small' if move == 0 else 'large'} stack"
        if d == "power":
            return (
                "keep the powers" if move == core["MV_DONE"] else self._power_name(move)
            )
        if d == "yes_no":
            return f"{'use' if move else 'decline'} {self._option_name()}"
        if d in ("pod_place", "pod_destroy"):
            where = self._pod_place(move)
            return (
                f"lifepod to {where}"
                if d == "pod_place"
                else f"lose the lifepod {where}"
            )
        if d == "pod_move":
            if move == core["MV_DONE"]:
                return "stop moving lifepods"
            source, target = self._pod_place(move >> 8), self._pod_place(move & 0xFF)
            return f"move a lifepod {source} -> {target}"
        if d == "direction":
            column = TRACKS[move & 7]
            if move & core["STEP_BEYOND"]:
                return "the rover top repeat"
            how = "sideways to" if move & core["STEP_SIDEWAYS"] else "up onto"
            return f"{how} the {column} column"
        if d == "objective_discard":
            objective = next(o for o in data.objectives if o.id == move + 37)
            return f"give up objective {objective.id} {objective.private.name!r}"
        return f"{d} {move}"

    def _tech(self, level: int) -> Any:
        """The deciding player's corporation's tech at this level."""
        corp = self.rules.data.corporations[self.player(self.decider)["corp"]]
        return next(t for t in corp.techs if t.level == level)

    def _power_name(self, level: int) -> str:
        tech = self._tech(level)
        return f"use tech {tech.label or level}: {tech.text}"

    def _option_name(self) -> str:
        code = self.fields()["item"][1]
        name = str(_core_label("TriggeredOption", code))
        return TRIGGERED_OPTION_TEXT.get(name, f"option {code}")

    def _pod_place(self, loc: int) -> str:
        """Where a lifepod goes: a Cosmos track space, a Jump Drive tech slot."""
        constants = _constants()
        if loc == constants["POD_AREA"]:
            return "the scoring area"
        if loc >= constants["POD_SLOT"]:
            return f"the tech {self._tech(loc - constants['POD_SLOT']).label} slot"
        return f"{TRACKS[loc >> 4]} space {loc & 15}"

    def _item_name(self, kind: str, a: int, b: int, c: int) -> str:
        if kind == "advance":
            return f"advance {TRACKS[a]}"
        if kind == "energy":
            return (
                "energy (" + "/".join(TRACKS[t] for t in range(5) if a >> t & 1) + ")"
            )
        return kind.replace("_", " ")

    def tile_name(self, tile: int | None) -> str:
        """A tile in words: id, shape, terrains, meteor."""
        if tile is None:
            return "nothing"
        t = self.rules.data.tiles[tile]
        fam = self.rules.data.families[t.family]
        shape = self.rules.data.shapes[t.shape].name
        return f"#{tile} {shape} {fam.a}/{fam.b}{' meteor' if t.meteor else ''}"

    def trace(self) -> list[str]:
        """Play to the end with the bots, returning one line per decision.

        Event reveals get a line of their own, so a trace reads like the game.
        """
        lines: list[str] = []
        shown: set[tuple[int, int]] = set()

        def record(game: Game, move: int) -> None:
            f = game.fields()
            # a reveal is a card drawn: the card and the cards left tell it apart
            # (the last round's card stays in view until the next is drawn)
            reveal = (f["event"], len(f["deck"]))
            if f["event"] is not None and reveal not in shown:
                shown.add(reveal)
                card = self.rules.data.events[f["event"] - 65]
                lines.append(
                    f"r{f['round']:02d} event {card.id} ({card.colour}): {card.text}"
                )
            lines.append(
                f"r{f['round']:02d} p{game.decider} {game.decision:<11} "
                f"n={len(game.legal_moves()):<4} {game.describe(move)}"
            )

        self.play(record)
        for p, s in enumerate(self.scores()):
            lines.append(f"score p{p}: " + " ".join(f"{k}={v}" for k, v in s.items()))
        return lines
