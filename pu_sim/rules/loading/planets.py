"""``planets.toml``: the 13 planet boards and their special rules.

A board is drawn as 12 rows of 12 characters (the grid), with row and column
medals, the lifepods, where the first tile goes, and the maps some planets add
(sub-planets, quadrants, chasm sides), each checked against the grid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import PLANET_RESTRICTIONS, TERRAINS, Cell, Planet
from pu_sim.rules.loading.checks import (
    BOARD,
    Node,
    check_ids,
    check_top_level,
    check_unique_keys,
    connected,
    describe,
    entries,
)

__all__ = ["LIFEPODS_PER_PLANET", "load_planets"]

LIFEPODS_PER_PLANET: Final = 6

_GRID_CHARS: Final = frozenset(".VHLIPRXCTEQ")
_NON_GRID: Final = frozenset(".VH")


def _region_map(
    node: Node, key: str, grid: Sequence[str], allowed: str
) -> tuple[str, ...]:
    """Read a map drawn like the grid: ``allowed`` on grid squares, else '.'."""
    rows = node.get_rows(key)
    if len(rows) != BOARD or any(len(r) != BOARD for r in rows):
        raise node.error(f"'{key}' must be 12 rows of 12 characters")
    for y in range(BOARD):
        for x in range(BOARD):
            ch = rows[y][x]
            on_grid = grid[y][x] not in _NON_GRID
            if on_grid and ch not in allowed:
                raise node.error(
                    f"'{key}': grid square ({x}, {y}) has {ch!r},"
                    f" expected one of {allowed!r}"
                )
            if not on_grid and ch != ".":
                raise node.error(
                    f"'{key}': ({x}, {y}) is not a grid square but has {ch!r}"
                )
    return rows


def _regions(rows: Sequence[str]) -> dict[str, list[Cell]]:
    """Group the squares of a region map by label."""
    out: dict[str, list[Cell]] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                out.setdefault(ch, []).append((x, y))
    return out


def _planet(node: Node) -> Planet:
    """Read one planet board with its special rules."""
    pid = node.get_int("id", lo=0)
    key = node.get_key("planet")
    name = node.get_str("name")
    playable = node.get_bool("playable")
    complexity = node.get_int("complexity", lo=1, hi=5)
    grid = node.get_rows("grid")
    if len(grid) != BOARD or any(len(r) != BOARD for r in grid):
        raise node.error(
            f"grid must be 12 rows of 12 characters, got {[len(r) for r in grid]}"
        )
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            if ch not in _GRID_CHARS:
                raise node.error(f"grid: unknown character {ch!r} at ({x}, {y})")
    for i in range(BOARD):
        if all(grid[i][x] in _NON_GRID for x in range(BOARD)):
            raise node.error(f"row {i} has no grid square")
        if all(grid[y][i] in _NON_GRID for y in range(BOARD)):
            raise node.error(f"column {i} has no grid square")
    row_medals = node.get_ints("row_medals", length=BOARD, lo=1)
    col_medals = node.get_ints("col_medals", length=BOARD, lo=1)

    lifepods = node.get_cells("lifepods")
    pod_squares = {
        (x, y) for y in range(BOARD) for x in range(BOARD) if grid[y][x] in "PQ"
    }
    for x, y in lifepods:
        if (x, y) not in pod_squares:
            raise node.error(f"lifepod ({x}, {y}) is not a 'P' or 'Q' square")
    if len(set(lifepods)) != len(lifepods):
        raise node.error("a lifepod is listed twice")
    unlisted = sorted(pod_squares - set(lifepods))
    if unlisted:
        raise node.error(f"'P'/'Q' square(s) {unlisted} missing from lifepods")
    if len(lifepods) != LIFEPODS_PER_PLANET:
        raise node.error(f"{len(lifepods)} lifepods, every planet has 6")

    def is_grid(cell: Cell) -> bool:
        return grid[cell[1]][cell[0]] not in _NON_GRID

    first_tile = cast(
        Literal["edge", "cells"], node.get_str("first_tile", choices=("edge", "cells"))
    )
    first_cells: tuple[Cell, ...] = ()
    if first_tile == "cells":
        first_cells = node.get_cells("first_tile_cells")
        if not first_cells or not all(is_grid(c) for c in first_cells):
            raise node.error("first_tile_cells must be grid squares")
    elif node.has("first_tile_cells"):
        raise node.error('first_tile_cells needs first_tile = "cells"')
    pits = {(x, y) for y in range(BOARD) for x in range(BOARD) if grid[y][x] == "X"}
    if pits and set(first_cells) != pits:
        raise node.error(
            "the first tile must start on the pit: first_tile_cells = the 'X' squares"
        )

    restrictions = tuple(node.get_list("restrictions", default=[]))
    for r in restrictions:
        if r not in PLANET_RESTRICTIONS:
            raise node.error(
                f"unknown restriction {describe(r)} (see gamedata.PLANET_RESTRICTIONS)"
            )
    if len(set(restrictions)) != len(restrictions):
        raise node.error("a restriction is listed twice")
    chars = {ch for row in grid for ch in row}
    if ("ring_anchor" in restrictions) != ("R" in chars):
        raise node.error("ring_anchor goes with 'R' ring squares, and only with them")

    adjacency_waiver = node.get_bool("adjacency_waiver", default=False)
    city_medals = node.get_int("city_medals", default=0, lo=0)
    if (city_medals > 0) != ("C" in chars):
        raise node.error("city_medals goes with 'C' city squares, and only with them")
    currents = node.get_bool("currents_count_covered", default=False)
    if currents and not chars & {"E", "Q"}:
        raise node.error("currents_count_covered needs 'E'/'Q' current squares")

    subplanet_bonus = node.get_int("subplanet_bonus", default=0, lo=0)
    subplanet_map: tuple[str, ...] = ()
    if node.has("subplanet_map"):
        subplanet_map = _region_map(node, "subplanet_map", grid, "123456789")
        for label, cells in sorted(_regions(subplanet_map).items()):
            if not connected(cells):
                raise node.error(f"sub-planet {label} is not connected")
    if bool(subplanet_map) != (subplanet_bonus > 0):
        raise node.error("subplanet_bonus and subplanet_map go together")
    boxes: list[tuple[int, int, int, int]] = []
    if node.has("bga_subplanet_boxes"):
        for box in node.get_list("bga_subplanet_boxes"):
            if (
                not isinstance(box, list)
                or len(box) != 4
                or not all(isinstance(v, int) and 0 <= v < 12 for v in box)
                or box[0] > box[1]
                or box[2] > box[3]
            ):
                raise node.error(
                    "bga_subplanet_boxes: expected [x_min, x_max, y_min, y_max] boxes"
                )
            boxes.append((box[0], box[1], box[2], box[3]))
        if len(boxes) != len(_regions(subplanet_map)):
            raise node.error("bga_subplanet_boxes needs one box per sub-planet")

    quadrant_map: tuple[str, ...] = ()
    banned: dict[int, str] = {}
    if node.has("quadrant_map"):
        quadrant_map = _region_map(node, "quadrant_map", grid, "1234")
        raw_banned = node.get_table("quadrant_banned_icon")
        for label, icon in raw_banned.items():
            if label not in "1234" or len(label) != 1:
                raise node.error(f"quadrant_banned_icon: unknown quadrant {label!r}")
            if icon not in TERRAINS:
                raise node.error(
                    f"quadrant_banned_icon: unknown resource {describe(icon)}"
                )
            banned[int(label)] = icon
        if set(banned) != {int(q) for q in _regions(quadrant_map)}:
            raise node.error(
                "quadrant_banned_icon must name one icon per quadrant of the map"
            )
    if bool(quadrant_map) != ("quadrant_icon_ban" in restrictions):
        raise node.error("quadrant_icon_ban and quadrant_map go together")

    chasm_map: tuple[str, ...] = ()
    crossings: list[tuple[Cell, Cell]] = []
    if node.has("chasm_side_map"):
        chasm_map = _region_map(node, "chasm_side_map", grid, "AB")
        sides = _regions(chasm_map)
        if set(sides) != {"A", "B"} or not all(connected(c) for c in sides.values()):
            raise node.error("chasm_side_map needs two connected sides 'A' and 'B'")
        for pair in node.get_list("chasm_diagonal_crossings"):
            if not isinstance(pair, list) or len(pair) != 2:
                raise node.error(
                    "chasm_diagonal_crossings: expected [[x, y], [x, y]] pairs"
                )
            a = node.get_cell("chasm_diagonal_crossings", pair[0])
            b = node.get_cell("chasm_diagonal_crossings", pair[1])
            if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
                raise node.error(f"crossing {a}-{b} is not a diagonal step")
            if (
                not (is_grid(a) and is_grid(b))
                or chasm_map[a[1]][a[0]] == chasm_map[b[1]][b[0]]
            ):
                raise node.error(f"crossing {a}-{b} does not join the two sides")
            crossings.append((a, b))
    if bool(chasm_map) != ("single_chasm_side" in restrictions):
        raise node.error("single_chasm_side and chasm_side_map go together")
    node.done()
    return Planet(
        id=pid,
        key=key,
        name=name,
        playable=playable,
        complexity=complexity,
        grid=grid,
        row_medals=row_medals,
        col_medals=col_medals,
        lifepods=lifepods,
        first_tile=first_tile,
        first_tile_cells=first_cells,
        restrictions=cast(tuple[str, ...], restrictions),
        adjacency_waiver=adjacency_waiver,
        city_medals=city_medals,
        subplanet_map=subplanet_map,
        subplanet_bonus=subplanet_bonus,
        bga_subplanet_boxes=tuple(boxes),
        quadrant_map=quadrant_map,
        quadrant_banned_icon=MappingProxyType(banned),
        chasm_side_map=chasm_map,
        chasm_diagonal_crossings=tuple(crossings),
        currents_count_covered=currents,
    )


def load_planets(data: Mapping[str, object]) -> tuple[Planet, ...]:
    """Read all 13 planets, by id."""
    file = "planets.toml"
    check_top_level(file, data, {"planet"})
    planets = [_planet(node) for node in entries(file, data, "planet", "planet")]
    check_ids(file, "planet", [p.id for p in planets], range(len(planets)))
    check_unique_keys(file, "planet", [p.key for p in planets])
    return tuple(sorted(planets, key=lambda p: p.id))
