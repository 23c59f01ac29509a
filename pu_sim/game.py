"""The slow path: one game step by step, for people and tests.

:class:`Game` wraps the compiled core's ``GameState`` (the very same rule
functions as the fast path) with a readable API: the pending decision and its
legal moves, applying a move, letting the seat's bot move, rendering planets
as text, scenarios drawn as text, and move-by-move traces.

Planet text (both directions), one character per square::

    -  not a grid square          .  uncovered land     ~  uncovered ice
    c w b r t e  tile square of terrain civ/water/biomass/rover/tech/energy
    C W B R T E  the same, carrying the tile's resource icon
    p  biomass patch              o  lifepod on an uncovered square (input only)

A rendering also overlays tokens: ``o`` lifepod, ``*`` meteorite, ``1``-``8``
the player's rovers.

Examples
--------
>>> from pu_sim.game import Game
>>> game = Game(players=1, bots="greedy", seed=3)
>>> game.decision
'place'
>>> game.play()
>>> game.is_terminal
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from pu_sim._build_check import import_core
from pu_sim.bots import BotSpec
from pu_sim.bots import parse as parse_bot
from pu_sim.rules import RuleOptions, Rules, load_rules
from pu_sim.rules.gamedata import TERRAINS, TRACKS, Planet
from pu_sim.simulation.in_memory import RootSeed, SeedLike
from pu_sim.simulation.table import SeatChoice, TableSetup

T = TypeVar("T")

TERRAIN_CHARS = "cwbrte"
"""Tile terrain letters in TERRAINS order (upper case: the square with the icon)."""

Cell = tuple[int, int]

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


@dataclass(frozen=True)
class PlanetDrawing:
    """What a planet drawing describes (parsed by :func:`parse_planet`)."""

    occ: list[int]
    patch: list[int]
    terr: list[list[int]]  # per terrain, 12 row masks
    icon: list[list[int]]
    lifepods: list[Cell]


def _rows(cells: Iterable[Cell]) -> list[int]:
    rows = [0] * 12
    for x, y in cells:
        rows[y] |= 1 << x
    return rows


def parse_planet(text: str, planet: Planet) -> PlanetDrawing:
    """Parse a planet drawn as text (see the module docstring) against a planet.

    Raises ValueError when the drawing does not match the planet's grid or uses
    an unknown character; the message names the row and column.
    """
    lines = [ln.strip() for ln in text.strip("\n").splitlines() if ln.strip()]
    if len(lines) != 12 or any(len(ln) != 12 for ln in lines):
        raise ValueError("a planet drawing has 12 lines of 12 characters")
    occ: list[Cell] = []
    patch: list[Cell] = []
    terr: list[list[Cell]] = [[] for _ in TERRAINS]
    icon: list[list[Cell]] = [[] for _ in TERRAINS]
    lifepods: list[Cell] = []
    for y, line in enumerate(lines):
        for x, ch in enumerate(line):
            grid = planet.is_grid(x, y)
            if ch == "-":
                if grid:
                    raise ValueError(
                        f"({x}, {y}) is a grid square of {planet.name}, not '-'"
                    )
                continue
            if not grid:
                raise ValueError(f"({x}, {y}) is not a grid square of {planet.name}")
            if ch in ".~":
                continue
            if ch == "o":
                lifepods.append((x, y))
            elif ch == "p":
                occ.append((x, y))
                patch.append((x, y))
                terr[TERRAINS.index("biomass")].append((x, y))
            elif ch.lower() in TERRAIN_CHARS:
                t = TERRAIN_CHARS.index(ch.lower())
                occ.append((x, y))
                terr[t].append((x, y))
                if ch.isupper():
                    icon[t].append((x, y))
            else:
                raise ValueError(f"unknown character {ch!r} at ({x}, {y})")
    return PlanetDrawing(
        occ=_rows(occ), patch=_rows(patch), terr=[_rows(c) for c in terr],
        icon=[_rows(c) for c in icon], lifepods=lifepods,
    )  # fmt: skip


class Game:
    """One game of Planet Unknown on the slow path.

    Parameters
    ----------
    players, corporations, planets, bots, options
        As for :func:`pu_sim.simulate`.
    seed, game_index
        The game is exactly game ``game_index`` of ``simulate(..., seed=seed)``.
    """

    def __init__(
        self,
        players: int = 1,
        *,
        corporations: SeatChoice | Sequence[SeatChoice] = "universal_coalition",
        planets: SeatChoice | Sequence[SeatChoice] = "ksb_4156",
        bots: str | BotSpec | Sequence[str | BotSpec] = "greedy",
        seed: SeedLike = 0,
        game_index: int = 0,
        options: RuleOptions | None = None,
    ) -> None:
        self.rules: Rules = load_rules()
        self._core = import_core()
        table = TableSetup(
            players=players, corporations=corporations, planets=planets, bots=bots,
            options=options or RuleOptions(),
        )  # fmt: skip
        self.spec = table.lower(self.rules.data)
        root = RootSeed.from_seed(seed)
        self.state = self._core.GameState.deal(
            self.rules.core, self.spec, root.k0, root.k1, game_index
        )
        self.state.advance()

    # -- the game ---------------------------------------------------------------

    @property
    def decision(self) -> str | None:
        """Name of the pending decision, None when the game is over."""
        return self.state.decision  # type: ignore[no-any-return]

    @property
    def decider(self) -> int:
        """The player who must decide."""
        return self.state.decider  # type: ignore[no-any-return]

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal  # type: ignore[no-any-return]

    @property
    def status(self) -> str:
        """The game's status: "ok" or the anomaly that stopped it."""
        return self.state.status  # type: ignore[no-any-return]

    def legal_moves(self) -> list[int]:
        """Legal moves of the pending decision (see :meth:`describe`)."""
        return self.state.legal_moves()  # type: ignore[no-any-return]

    def apply(self, move: int) -> None:
        """Apply a legal move (ValueError if it is not legal now)."""
        self.state.apply(move)

    def bot_move(self) -> int:
        """The move the deciding seat's bot would choose now."""
        return self.state.bot_move()  # type: ignore[no-any-return]

    def greedy_values(self, bot: str | BotSpec = "greedy") -> list[float]:
        """What a greedy bot's weights make of each legal move (legal_moves order)."""
        return self.state.greedy_values(parse_bot(bot).vector())  # type: ignore[no-any-return]

    def placement_features(self, move: int) -> list[float]:
        """Afterstate features of a placement, read by greedy's fitted values.

        Tile size, free regions by size, lines close to complete
        (experiments/placement_values.py names them).
        """
        return self.state.placement_features(move)  # type: ignore[no-any-return]

    def track_context(self, p: int = 0) -> list[float]:
        """Player p's context read by greedy's fitted track values.

        Lifepods (near its rovers), rovers, covered squares, civ cards, tech,
        meteorites, tracker positions (experiments/track_values.py names them).
        """
        return self.state.track_context(p)  # type: ignore[no-any-return]

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

    def rollout(self, move: int, stream: int, seat: int = 0) -> float:
        """`seat`'s final score after `move`, the bots playing to the end.

        What `seat` cannot see is redealt from `stream` first (as the search bot
        does); experiments value a decision's options by the mean over streams.
        """
        return float(self.rollout_scores(move, stream, seat)["score"])

    def rollout_scores(self, move: int, stream: int, seat: int = 0) -> dict[str, int]:
        """`seat`'s final score breakdown after `move` (:data:`SCORE_KEYS`).

        :meth:`rollout` with its categories: which a decision's options differ in.
        """
        state = self.state.determinized(seat, stream)
        state.apply(move)
        while not state.is_terminal:
            state.apply(state.bot_move())
        fields = state.player_fields(seat)
        return {k: int(fields[k]) for k in SCORE_KEYS}

    def rollout_value(
        self, move: int, rollouts: int, first_stream: int, seat: int = 0
    ) -> float:
        """Mean of :meth:`rollout` over ``rollouts`` streams from ``first_stream``.

        Valuing every move of a decision on the same streams compares them on the
        same futures (common random numbers).
        """
        return float(
            np.mean(
                [self.rollout(move, first_stream + j, seat) for j in range(rollouts)]
            )
        )

    def play_reading_rounds(
        self, read: Callable[[Any], T]
    ) -> tuple[list[tuple[int, T]], T]:
        """Play to the end by the seats' bots, reading the state at every round start.

        Returns ``[(round, read(state))]`` for each round and ``read`` of the final
        state: what the chance tables (experiments/line_chances.py,
        objective_chances.py) compare each round's position with.
        """
        states: list[tuple[int, T]] = []
        last_round = 0
        while not self.is_terminal:
            round_ = self.state.game_fields()["round"]
            if round_ != last_round:
                states.append((round_, read(self.state)))
                last_round = round_
            self.apply(self.bot_move())
        return states, read(self.state)

    def copy(self) -> Game:
        """An independent copy of the game."""
        other = Game.__new__(Game)
        other.rules = self.rules
        other._core = self._core
        other.spec = self.spec
        other.state = self.state.copy()
        return other

    # -- inspection ----------------------------------------------------------------

    def fields(self) -> dict[str, Any]:
        """Round-level state (round, commander, rotation, piles, stacks, ...)."""
        return self.state.game_fields()  # type: ignore[no-any-return]

    def player(self, p: int) -> dict[str, Any]:
        """Everything about player p."""
        return self.state.player_fields(p)  # type: ignore[no-any-return]

    def tracks(self, p: int) -> dict[str, int]:
        """Player p's tracker positions by track name."""
        return dict(zip(TRACKS, self.player(p)["track"], strict=True))

    def scores(self) -> list[dict[str, int]]:
        """Score breakdown per player (final once the game is over)."""
        n_players: int = self.spec["n_players"]  # type: ignore[assignment]
        keys = (*SCORE_KEYS, "rank")
        return [{k: self.player(p)[k] for k in keys} for p in range(n_players)]

    def planet_of(self, p: int) -> Planet:
        """Player p's planet board."""
        planet: Planet = self.rules.data.planets[self.player(p)["planet"]]
        return planet

    def render(self, p: int = 0) -> str:
        """Player p's planet as text (module docstring legend), with tokens."""
        info = self.player(p)
        planet = self.planet_of(p)
        rovers = {
            (x, y): str(i + 1)
            for i, (status, x, y) in enumerate(info["rovers"])
            if status == 2
        }
        lines = ["   " + "".join(str(x % 10) for x in range(12))]
        for y in range(12):
            row = []
            for x in range(12):
                bit = 1 << x
                if not planet.is_grid(x, y):
                    ch = "-"
                elif (x, y) in rovers:
                    ch = rovers[(x, y)]
                elif info["meteorite"][y] & bit:
                    ch = "*"
                elif info["lifepod"][y] & bit:
                    ch = "o"
                elif info["patch"][y] & bit:
                    ch = "p"
                elif info["occ"][y] & bit:
                    ch = "?"
                    for t, letter in enumerate(TERRAIN_CHARS):
                        if info["terr"][t][y] & bit:
                            ch = letter.upper() if info["icon"][t][y] & bit else letter
                else:
                    ch = "~" if planet.grid[y][x] == "I" else "."
                row.append(ch)
            lines.append(f"{y:2d} " + "".join(row))
        return "\n".join(lines)

    def describe(self, move: int) -> str:
        """A move of the pending decision in words."""
        d = self.decision
        core = self._core.CONSTANTS
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

    def _power_name(self, level: int) -> str:
        corp = self.rules.data.corporations[self.player(self.decider)["corp"]]
        tech = next(t for t in corp.techs if t.level == level)
        return f"use tech {tech.label or level}: {tech.text}"

    def _option_name(self) -> str:
        code = self.fields()["item"][1]
        name = self._core.label(self._core.TriggeredOption(code))
        return TRIGGERED_OPTION_TEXT.get(name, f"option {code}")

    def _pod_place(self, loc: int) -> str:
        if loc == self._core.CONSTANTS["POD_AREA"]:
            return "the scoring area"
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
        shown: list[tuple[int, int | None]] = []

        def record(game: Game, move: int) -> None:
            f = game.fields()
            if f["event"] is not None and (f["round"], f["event"]) not in shown:
                shown.append((f["round"], f["event"]))
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

    # -- scenarios ---------------------------------------------------------------------

    def set_planet(
        self,
        p: int,
        text: str,
        *,
        meteorites: Iterable[Cell] = (),
        meteor_symbols: Iterable[Cell] = (),
        last_tile: Iterable[Cell] = (),
    ) -> None:
        """Replace player p's planet contents with a drawing (tokens as lists)."""
        drawing = parse_planet(text, self.planet_of(p))
        s = self.state
        s.set_grid(p, "occ", drawing.occ)
        s.set_grid(p, "patch", drawing.patch)
        for t in range(len(TERRAINS)):
            s.set_grid(p, f"terr:{t}", drawing.terr[t])
            s.set_grid(p, f"icon:{t}", drawing.icon[t])
        s.set_grid(p, "lifepod", _rows(drawing.lifepods))
        s.set_grid(p, "meteorite", _rows(meteorites))
        s.set_grid(p, "msym", _rows(meteor_symbols))
        s.set_grid(p, "last_tile", _rows(last_tile))

    def set_tracks(self, p: int, positions: Mapping[str, int]) -> None:
        """Put player p's trackers on these positions."""
        for name, pos in positions.items():
            self.state.set_track(p, TRACKS.index(name), pos)

    def set_rovers(
        self, p: int, squares: Sequence[Cell], in_supply: int | None = None
    ) -> None:
        """Put player p's rovers on these squares; its other pieces stay in supply."""
        owned = [r for r, (st, _, _) in enumerate(self.player(p)["rovers"]) if st != 0]
        total = len(owned) if in_supply is None else len(squares) + in_supply
        for r in range(8):
            self.state.set_rover(p, r, 0)
        for r in range(total):
            if r < len(squares):
                x, y = squares[r]
                self.state.set_rover(p, r, 2, x, y)
            else:
                self.state.set_rover(p, r, 1)

    def set_depot(self, p: int, small: int | None, large: int | None) -> None:
        """Put these tiles on top of player p's depot (None empties that stack)."""
        depot = self.state.facing_depot(p)
        for slot, tile in ((0, small), (1, large)):
            stack = self.state.depot_stack(depot, slot)
            if tile is None:
                self.state.set_stack_pos(stack, 12)
            else:
                self.state.set_stack_top(stack, tile)

    def start_draft(self, p: int = 0) -> None:
        """Make player p's tile decision the pending one."""
        self.state.start_draft(p)

    def start_round(self) -> None:
        """Begin a new round from the current position."""
        self.state.start_round()

    def start_stage(self, name: str) -> None:
        """Jump to a stage ("civ", "end_effects", "end_picks", "score", ...)."""
        self.state.start_stage(name)

    def give_cards(self, p: int, *cards: int) -> None:
        """Player p holds exactly these civ cards (ids)."""
        self.state.set_player_int(p, "civ_cards", sum(1 << (c - 1) for c in cards))

    def reveal_event(self, event_id: int) -> None:
        """Reveal this event card as the round's event and carry it out."""
        self.state.set_event(event_id)

    def set_objectives(
        self,
        p: int,
        private: Sequence[int] = (),
        neighbour: Sequence[int] | None = None,
    ) -> None:
        """Player p's private objective ids; optionally the neighbour cards."""
        self.state.set_objectives(p, private, neighbour)

    def give(self, p: int, *items: tuple[str, int, int, int]) -> None:
        """Give player p pending items (kind, a, b, c) and start resolving them."""
        self.state.give_items(p, list(items))


def tile_id(rules: Rules, shape: str, a: str, b: str, meteor: bool = False) -> int:
    """The id of the tile with this shape, terrains (part A, part B) and meteor flag."""
    data = rules.data
    for t in data.tiles:
        fam = data.families[t.family]
        if (
            data.shapes[t.shape].name == shape
            and (fam.a, fam.b) == (a, b)
            and t.meteor == meteor
        ):
            return t.id
    raise ValueError(f"no tile {shape} {a}/{b} meteor={meteor}")
