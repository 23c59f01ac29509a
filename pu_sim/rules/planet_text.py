"""A planet as text, both ways: how people read a game and draw a scenario.

One character per square::

    -  not a grid square          .  uncovered land     ~  uncovered ice
    c w b r t e  tile square of terrain civ/water/biomass/rover/tech/energy
    C W B R T E  the same, carrying the tile's resource icon
    p  biomass patch              o  lifepod on an uncovered square

A rendering (:func:`render_planet`, :meth:`pu_sim.game.Game.render`) also
overlays tokens: ``o`` lifepod, ``*`` meteorite, ``1``-``8`` the player's
rovers.  :func:`parse_planet` reads a drawing back (tokens other than lifepods
are given separately), so a scenario test sets a planet by drawing it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pu_sim.rules.gamedata import TERRAINS, Planet

TERRAIN_CHARS = "cwbrte"
"""Tile terrain letters in TERRAINS order (upper case: the square with the icon)."""

Cell = tuple[int, int]
"""A square ``(x, y)``: column, then row."""


def render_planet(info: Mapping[str, Any], planet: Planet) -> str:
    """A player's planet as text, with a column ruler and row numbers.

    ``info`` is the core's player record (``GameState.player_fields``).
    """
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


@dataclass(frozen=True)
class PlanetDrawing:
    """What a planet drawing describes (parsed by :func:`parse_planet`)."""

    occ: list[int]
    patch: list[int]
    terr: list[list[int]]  # per terrain, 12 row masks
    icon: list[list[int]]
    lifepods: list[Cell]


def rows_of(cells: Iterable[Cell]) -> list[int]:
    """The 12 row bitmasks of a set of squares (the core's board layout)."""
    rows = [0] * 12
    for x, y in cells:
        rows[y] |= 1 << x
    return rows


def parse_planet(text: str, planet: Planet) -> PlanetDrawing:
    """Parse a planet drawn as text (the module docstring's legend) against a planet.

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
        occ=rows_of(occ), patch=rows_of(patch), terr=[rows_of(c) for c in terr],
        icon=[rows_of(c) for c in icon], lifepods=lifepods,
    )  # fmt: skip
