"""The game's components as validated, frozen Python objects.

``pu_sim/data/*.toml`` is the human-readable source of truth for every component
of Planet Unknown (tiles, station, planets, corporations, civ cards, events,
objectives).  :func:`load_game_data` reads those files, validates them (unknown
keys, broken references and wrong counts raise :class:`DataError` naming the file
and the entry) and returns a :class:`GameData`.  :mod:`pu_sim.rules` compiles a
``GameData`` into the compact integer tables the compiled core reads.

Conventions (the same as the reference material): coordinates are ``(x, y)``
with ``x`` the column and ``y`` the row, ``(0, 0)`` top-left; grids are indexed
``grid[y][x]``; ids (tile, planet, corporation, card) are Board Game Arena's so a
game logged here can be compared with one logged there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

TRACKS: tuple[str, ...] = ("civ", "water", "biomass", "rover", "tech")
"""The five resource tracks, in board order (left to right)."""

TERRAINS: tuple[str, ...] = ("civ", "water", "biomass", "rover", "tech", "energy")
"""The six terrains / resources; the first five have a tracker, energy has none."""

COLOURS: tuple[str, ...] = ("green", "orange", "red")
"""The event cards' colours (the solo event deck's mix is counted by colour)."""

Cell = tuple[int, int]
"""A grid square ``(x, y)``."""


class DataError(ValueError):
    """A data file is malformed; the message names the file and the entry."""


# --------------------------------------------------------------------------------
# Tiles and the space station
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Family:
    """A colour family: the two terrains (and resources) a tile shows."""

    index: int
    a: str  # terrain of part A (a member of TERRAINS)
    b: str  # terrain of part B


@dataclass(frozen=True)
class Shape:
    """One of the 12 polyomino shapes in its canonical orientation.

    ``cells`` and ``parts`` are parallel; ``parts[i]`` is ``"A"`` or ``"B"``.
    The canonical orientation is the one of the reference (transform 0).
    """

    index: int  # reference/BGA shape index 0..11
    name: str  # short name, e.g. "N-5", "straight-3", "domino"
    bga_constant: str  # e.g. "TILE_N"
    ring: Literal["small", "large"]
    cells: tuple[Cell, ...]
    parts: tuple[str, ...]
    icon_a: Cell  # square of part A carrying the part-A resource icon
    icon_b: Cell  # square of part B carrying the part-B resource icon
    meteor: Cell  # square carrying the meteor symbol on the meteor variant

    @property
    def size(self) -> int:
        """Number of squares."""
        return len(self.cells)


@dataclass(frozen=True)
class Tile:
    """One of the 144 physical tiles."""

    id: int  # BGA id = 12 * k + shape, k = 0..11
    shape: int  # Shape.index
    family: int  # Family.index
    meteor: bool  # carries the meteor symbol


@dataclass(frozen=True)
class Station:
    """Space station loading (BGA slot order) and seat positions."""

    stack_size: int  # 12
    interior_slots: tuple[int, ...]  # shape index in interior (small) slots 0..5
    exterior_slots: tuple[int, ...]  # shape index in exterior (large) slots 0..5
    seats: tuple[tuple[int, ...], ...]  # seats[n - 1] = indicator slots for n players


# --------------------------------------------------------------------------------
# Planets
# --------------------------------------------------------------------------------

PLANET_RESTRICTIONS: tuple[str, ...] = (
    "ring_anchor",  # Arashi: covering ring squares requires a square outside rows 5-6
    "ice_or_land",  # K-273: all squares on printed ice or all on non-ice
    "quadrant_icon_ban",  # Persephone: no banned resource icon in a quadrant
    "slide_in",  # Pajitnov: the tile must slide in from outside
    "single_chasm_side",  # Tartarus: all squares on one side of the chasm
)
"""Placement restrictions subject to the 'follow if possible' fallback."""


@dataclass(frozen=True)
class Planet:
    """A planet board (the symmetric KSB-4156 or one of the 12 asymmetric ones).

    ``grid`` rows use the legend of ``planets.toml``: ``.`` outer space, ``V``
    Oblivion's void, ``H`` Lacuna hole (the three non-grid characters; only ``.``
    makes a neighbour an edge square), ``L`` land, ``I`` ice, ``P`` land with a
    lifepod, ``R`` Arashi ring, ``X`` Charybdis pit, ``C`` Gaia city, ``T`` K'aax
    toxic, ``E`` Petra current, ``Q`` Petra current with a lifepod.
    """

    id: int  # BGA planet id 0..12
    key: str  # identifier used in the API, e.g. "ksb_4156", "k_aax"
    name: str  # printed name, e.g. "KSB-4156", "K'aax"
    playable: bool  # every rule of it is in the engine (a seat may get it)
    complexity: int
    grid: tuple[str, ...]  # 12 strings of 12 legend characters
    row_medals: tuple[int, ...]  # 12 values, row y
    col_medals: tuple[int, ...]  # 12 values, column x
    lifepods: tuple[Cell, ...]  # 6 start squares; equal to the P/Q squares
    first_tile: Literal["edge", "cells"]  # "cells": must cover one of first_tile_cells
    first_tile_cells: tuple[Cell, ...] = ()
    restrictions: tuple[str, ...] = ()  # members of PLANET_RESTRICTIONS
    # Lacuna/Oblivion: may ignore adjacency once (multiplayer):
    adjacency_waiver: bool = False
    city_medals: int = 0  # Gaia: medals per uncovered city square
    # Cerberus: 12 rows, digit = sub-planet, '.' none:
    subplanet_map: tuple[str, ...] = ()
    subplanet_bonus: int = 0  # Cerberus: medals per completely covered sub-planet
    # Cerberus, BGA parity: the boxes BGA's code checks per sub-planet, as
    # (x_min, x_max, y_min, y_max) inclusive; empty unless given.
    bga_subplanet_boxes: tuple[tuple[int, int, int, int], ...] = ()
    quadrant_map: tuple[str, ...] = ()  # Persephone: 12 rows of quadrant digits 1-4
    quadrant_banned_icon: Mapping[int, str] = field(default_factory=dict)
    chasm_side_map: tuple[str, ...] = ()  # Tartarus: 12 rows of 'A'/'B' ('.' non-grid)
    chasm_diagonal_crossings: tuple[tuple[Cell, Cell], ...] = ()
    currents_count_covered: bool = False  # Petra: uncovered currents count as covered

    def is_grid(self, x: int, y: int) -> bool:
        """Whether ``(x, y)`` is a grid square."""
        return 0 <= x < 12 and 0 <= y < 12 and self.grid[y][x] not in ".VH"

    @property
    def grid_squares(self) -> tuple[Cell, ...]:
        """Every grid square, row by row."""
        return tuple((x, y) for y in range(12) for x in range(12) if self.is_grid(x, y))

    @property
    def edge_squares(self) -> tuple[Cell, ...]:
        """Grid squares with an orthogonal neighbour that is ``.`` or off the board."""
        out = []
        for x, y in self.grid_squares:
            for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                if not (0 <= nx < 12 and 0 <= ny < 12) or self.grid[ny][nx] == ".":
                    out.append((x, y))
                    break
        return tuple(out)

    @property
    def ice_squares(self) -> tuple[Cell, ...]:
        """Printed planetary ice."""
        return tuple((x, y) for x, y in self.grid_squares if self.grid[y][x] == "I")


# --------------------------------------------------------------------------------
# Corporations
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Space:
    """One printed space of a track and every token on it."""

    medal: int = 0  # medal value printed here (scored at game end only)
    civ_rank: int = 0  # civ milestone of this rank (0 = none)
    synergy: int = 0  # number of synergy boosts
    synergy_target: str = ""  # Wormhole: targeted synergy ("civ", ...), else ""
    patches: int = 0  # biomass patches gained
    rover: bool = False  # rover milestone
    move: int = 0  # rover movement gained
    tech_level: int = 0  # tech milestone unlocking this level (0 = none)
    no_stop: bool = False  # not a stoppable space (Wormhole / Oasis separators)


@dataclass(frozen=True)
class Track:
    """A resource track: 16 spaces, index 0 = start, 15 = top."""

    spaces: tuple[Space, ...]
    beyond_top: Space | None = None  # rover 'N-infinity': regained when topped

    @property
    def score_by_position(self) -> tuple[int, ...]:
        """Medal scored by a tracker ending on each index (highest at or below)."""
        best, out = 0, []
        for space in self.spaces:
            best = space.medal or best
            out.append(best)
        return tuple(out)


@dataclass(frozen=True)
class Effect:
    """A structured effect: an operation name and its parameters.

    The vocabulary of ``op`` values (and the parameters each one takes) is fixed
    by the loader; an unknown op or parameter is a :class:`DataError`.
    """

    op: str
    params: Mapping[str, object] = field(default_factory=dict)
    when: str = ""  # e.g. "on_take", "end_of_game_step", "final_scoring", "passive"


TechLimit = Literal[
    "passive", "once_per_round", "once_per_game", "round_start", "game_end"
]
"""How often a tech may be used ("passive" = no use limit)."""


@dataclass(frozen=True)
class Tech:
    """One tech level of a corporation."""

    level: int  # 1..5 (Jump Drive: 1..6 = A..F)
    text: str
    limit: TechLimit
    effects: tuple[Effect, ...]
    label: str = ""  # printed label where it is not the level (Jump Drive: "A".."F")


@dataclass(frozen=True)
class Corporation:
    """A corporation board."""

    id: int  # BGA corporation id 0..8
    key: str  # identifier used in the API, e.g. "universal_coalition"
    name: str  # printed name, e.g. "Universal Coalition"
    playable: bool  # every rule of it is in the engine (a seat may get it)
    complexity: int
    rovers: int  # rover pieces = rover milestones on the rover track
    tracks: Mapping[str, Track]  # keyed by TRACKS
    techs: tuple[Tech, ...]
    special_rules: tuple[Effect, ...] = ()
    # Board geometry where it differs from five straight tracks:
    improved_tracks: Mapping[str, Track] = field(default_factory=dict)  # Flux tech 3
    water_path: tuple[tuple[str, int], ...] = ()  # Oasis: (track, row) per path step
    water_path_medals: tuple[int, ...] = ()  # Oasis: water medal printed at each step
    biomass_levels: tuple[tuple[Space, Space, int], ...] = ()  # Wormhole: (A, B, medal)
    tech_slots: int = 0  # Jump Drive: lifepod slots that unlock techs A..F
    column_neighbours: tuple[tuple[str, str], ...] = ()  # Makeshift: lane-change pairs


# --------------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CivCard:
    """A civilization card (ids 1-36)."""

    id: int
    name: str
    rank: int  # 1..4
    timing: Literal["immediate", "end_of_game"]
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class EventCard:
    """An event card (ids 65-124)."""

    id: int
    name: str
    colour: Literal["green", "orange", "red"]
    solo_only: bool
    text: str
    immediate: tuple[Effect, ...]
    round_rule: Effect | None


@dataclass(frozen=True)
class ObjectiveSide:
    """One side of an objective card.

    Neighbour side: ``kind`` is the measure, ``better`` is ``"higher"`` or
    ``"lower"``.  Private side: ``kind`` is the yes/no condition, ``better`` is
    ``""``.  ``params`` holds the measure's arguments (terrain, resource, item,
    width, height, min, tracks, ...).
    """

    name: str
    text: str
    kind: str
    params: Mapping[str, object]
    better: str = ""
    win_medals: int = 5  # neighbour: strictly better; private: condition met
    tie_medals: int = 2  # neighbour only


@dataclass(frozen=True)
class Objective:
    """A double-sided objective card (ids 37-64)."""

    id: int
    neighbour: ObjectiveSide
    private: ObjectiveSide


@dataclass(frozen=True)
class SoloOutcomeBand:
    """A solo result band for ``D = final score - target`` (bounds inclusive)."""

    row: str  # the rulebook's row label: "-15", "-10", "-5", "target", "+5", ...
    min_diff: int | None  # None = open below
    max_diff: int | None  # None = open above
    meaning: str


# --------------------------------------------------------------------------------
# Everything
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameData:
    """Every component of the game, validated."""

    families: tuple[Family, ...]
    shapes: tuple[Shape, ...]
    tiles: tuple[Tile, ...]
    station: Station
    planets: tuple[Planet, ...]
    corporations: tuple[Corporation, ...]
    civ_cards: tuple[CivCard, ...]
    events: tuple[EventCard, ...]
    objectives: tuple[Objective, ...]
    solo_target_base: int  # 60
    solo_target_bands: tuple[tuple[int, int], ...]  # (min count, max count) per band
    # colour -> adjustment per band:
    solo_target_adjustments: Mapping[str, tuple[int, ...]]
    solo_outcome_bands: tuple[SoloOutcomeBand, ...] = ()  # ordered from worst to best

    @property
    def playable_corporations(self) -> tuple[str, ...]:
        """Keys of the corporations a seat may get (``playable`` in the data)."""
        return tuple(c.key for c in self.corporations if c.playable)

    @property
    def playable_planets(self) -> tuple[str, ...]:
        """Keys of the planets a seat may get (``playable`` in the data)."""
        return tuple(p.key for p in self.planets if p.playable)
