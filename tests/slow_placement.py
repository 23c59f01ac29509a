"""An independent, slow placement oracle written from the rules text.

It shares nothing with the core but the raw tile and planet data: every one of
the 8 transforms of a tile's shape at every translation, kept when it passes
the generic rules (rules.md PL-1..PL-5) and, unless dropped by the fallback
(planets.md 2.8), the planet's own restriction (planets.md 3).  Each distinct
outcome (squares with their parts, icon squares, meteor square) counts once.
"""

from __future__ import annotations

from typing import Any

Cell = tuple[int, int]
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1))
Outcome = tuple[frozenset[tuple[int, int, str]], tuple[Cell, Cell], Cell | None]
Placed = tuple[frozenset[tuple[Cell, str]], Cell, Cell, Cell | None]
"""A placement: squares with their part, icon A square, icon B square, meteor square."""


_OUTCOMES: dict[tuple[int, int], frozenset[Outcome]] = {}


def _outcomes(data: Any, tile: int) -> frozenset[Outcome]:
    key = (id(data), tile)
    if key not in _OUTCOMES:
        _OUTCOMES[key] = _compute_outcomes(data, tile)
    return _OUTCOMES[key]


def _compute_outcomes(data: Any, tile: int) -> frozenset[Outcome]:
    shape = data.shapes[data.tiles[tile].shape]
    meteor = data.tiles[tile].meteor
    out = set()
    for mirror in (False, True):
        for turns in range(4):
            cells = []
            for (x, y), part in zip(shape.cells, shape.parts, strict=True):
                if mirror:
                    x = -x
                for _ in range(turns):
                    x, y = -y, x
                cells.append((x, y, part))
            marks = []
            for cx, cy in (shape.icon_a, shape.icon_b, shape.meteor):
                if mirror:
                    cx = -cx
                for _ in range(turns):
                    cx, cy = -cy, cx
                marks.append((cx, cy))
            mx = min(c[0] for c in cells)
            my = min(c[1] for c in cells)
            norm = frozenset((x - mx, y - my, part) for x, y, part in cells)
            icons = ((marks[0][0] - mx, marks[0][1] - my),
                     (marks[1][0] - mx, marks[1][1] - my))  # fmt: skip
            met = (marks[2][0] - mx, marks[2][1] - my) if meteor else None
            out.add((norm, icons, met))
    return frozenset(out)


def slow_outcomes(rules: Any, tile: int) -> frozenset[Outcome]:
    """Every distinct oriented tile, normalised to its box, from the raw shape data."""
    return _outcomes(rules.data, tile)


def _chars(planet: Any, chars: str) -> set[Cell]:
    return {(x, y) for x, y in planet.grid_squares if planet.grid[y][x] in chars}


def _map(rows: tuple[str, ...], ch: str) -> set[Cell]:
    return {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == ch}


def slides_straight(squares: set[Cell], covered: set[Cell]) -> bool:
    """Add-on rulebook: pushed in a straight line from off the 12x12 board."""
    for dx, dy in NEIGHBOURS:
        path_clear = True
        for k in range(1, 13):
            moved = {(x + k * dx, y + k * dy) for x, y in squares}
            if moved & covered:
                path_clear = False
                break
        if path_clear:
            return True
    return False


def slides_one_step(squares: set[Cell], covered: set[Cell]) -> bool:
    """BGA / designer FAQ: shifted by one square in some direction, it is free."""
    return any(
        not ({(x + dx, y + dy) for x, y in squares} & covered) for dx, dy in NEIGHBOURS
    )


def slow_placements(
    rules: Any,
    planet: Any,
    covered: set[Cell],
    tile: int,
    *,
    planet_rules: bool = True,
    adjacency: bool = True,
    slide: str = "straight",
) -> set[Placed]:
    """Legal placements of `tile` (see Placed) by brute force."""
    data = rules.data
    family = data.families[data.tiles[tile].family]
    terrain = {"A": family.a, "B": family.b}
    grid = set(planet.grid_squares)
    first = (
        set(planet.first_tile_cells)
        if planet.first_tile == "cells"
        else set(planet.edge_squares)
    )
    near = {(x + dx, y + dy) for x, y in covered for dx, dy in NEIGHBOURS}
    restrictions = set(planet.restrictions) if planet_rules else set()
    ice = set(planet.ice_squares)
    ring = _chars(planet, "R")
    side_a = _map(planet.chasm_side_map, "A")
    quadrant = {
        (x, y): int(ch)
        for y, row in enumerate(planet.quadrant_map)
        for x, ch in enumerate(row)
        if ch.isdigit()
    }
    out = set()
    for norm, (icon_a, icon_b), met in slow_outcomes(rules, tile):
        for x in range(-5, 13):
            for y in range(-5, 13):
                parts = {(x + cx, y + cy): part for cx, cy, part in norm}
                squares = set(parts)
                if not squares <= grid or squares & covered:  # PL-1, PL-2
                    continue
                if not covered:
                    if not squares & first:  # PL-3 (Charybdis: the pit)
                        continue
                elif adjacency and not squares & near:  # PL-4
                    continue
                if "ring_anchor" in restrictions and squares <= ring:
                    continue
                if "ice_or_land" in restrictions and not (
                    squares <= ice or not squares & ice
                ):
                    continue
                a = (x + icon_a[0], y + icon_a[1])
                b = (x + icon_b[0], y + icon_b[1])
                if "quadrant_icon_ban" in restrictions and (
                    planet.quadrant_banned_icon.get(quadrant[a]) == terrain["A"]
                    or planet.quadrant_banned_icon.get(quadrant[b]) == terrain["B"]
                ):
                    continue
                if "single_chasm_side" in restrictions and not (
                    squares <= side_a or not squares & side_a
                ):
                    continue
                if "slide_in" in restrictions:
                    test = slides_straight if slide == "straight" else slides_one_step
                    if not test(squares, covered):
                        continue
                m = (x + met[0], y + met[1]) if met else None
                out.add((frozenset(parts.items()), a, b, m))
    return out


def core_placements(rules: Any, state: Any, tile: int, level: int = 0) -> set[Placed]:
    """The core's legal placements in the same form as slow_placements()."""
    t = rules.tables
    out = set()
    for o, x, y in state.placements(0, tile, level):
        n = int(t["orient_ncells"][tile, o])
        cells = {}
        for i in range(n):
            cell = (
                x + int(t["orient_dx"][tile, o, i]),
                y + int(t["orient_dy"][tile, o, i]),
            )
            cells[cell] = "AB"[int(t["orient_part"][tile, o, i])]
        ia, ib = int(t["orient_icon_a"][tile, o]), int(t["orient_icon_b"][tile, o])
        a = (x + int(t["orient_dx"][tile, o, ia]), y + int(t["orient_dy"][tile, o, ia]))
        b = (x + int(t["orient_dx"][tile, o, ib]), y + int(t["orient_dy"][tile, o, ib]))
        m = None
        if data_meteor(rules, tile):
            k = int(t["orient_meteor"][tile, o])
            m = (
                x + int(t["orient_dx"][tile, o, k]),
                y + int(t["orient_dy"][tile, o, k]),
            )
        out.add((frozenset(cells.items()), a, b, m))
    return out


def data_meteor(rules: Any, tile: int) -> bool:
    return bool(rules.data.tiles[tile].meteor)
