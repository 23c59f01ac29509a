"""Drawing helpers for scenario tests, and where a tile lands on a planet.

A scenario starts from a planet's empty drawing (:func:`empty_drawing`), marks
the squares the situation needs (:func:`marked_drawing`) and hands the text to
:meth:`pu_sim.testing.ScenarioGame.set_planet`; the text format is
:mod:`pu_sim.rules.planet_text`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pu_sim.engine import Rules
from pu_sim.rules.gamedata import Planet
from pu_sim.rules.planet_text import Cell


def empty_drawing(planet: Planet, *, lifepods: bool = False) -> str:
    """A planet with nothing on it, as text (``-`` off-grid, ``~`` ice, ``.`` land)."""
    rows = []
    for y in range(12):
        row = ""
        for x in range(12):
            if not planet.is_grid(x, y):
                row += "-"
            elif lifepods and (x, y) in planet.lifepods:
                row += "o"
            else:
                row += "~" if planet.grid[y][x] == "I" else "."
        rows.append(row)
    return "\n".join(rows)


def marked_drawing(
    planet: Planet, marks: Mapping[tuple[int, int], str] | None = None
) -> str:
    """The empty drawing with some squares redrawn: how a scenario sets its planet.

    ``marks`` maps ``(x, y)`` to a drawing character (e.g. ``"c"`` covered).
    """
    rows = [list(r) for r in empty_drawing(planet).splitlines()]
    for (x, y), ch in (marks or {}).items():
        rows[y][x] = ch
    return "\n".join("".join(r) for r in rows)


def placement_cells(rules: Rules, tile: int, o: int, x: int, y: int) -> list[Cell]:
    """Squares covered by a tile in orientation o with its box at (x, y)."""
    t = rules.tables
    n = int(t["orient_ncells"][tile, o])
    return [
        (x + int(t["orient_dx"][tile, o, i]), y + int(t["orient_dy"][tile, o, i]))
        for i in range(n)
    ]


def placement_parts(rules: Rules, tile: int, o: int, x: int, y: int) -> dict[Cell, int]:
    """Square -> part (0 = A, 1 = B) of a placed tile."""
    t = rules.tables
    cells = placement_cells(rules, tile, o, x, y)
    return {c: int(t["orient_part"][tile, o, i]) for i, c in enumerate(cells)}


def find_placement(
    rules: Rules, tile: int, cells: Iterable[Cell], part_a: Iterable[Cell] | None = None
) -> tuple[int, int, int]:
    """(orientation, x, y) covering exactly `cells` (and with part A on `part_a`).

    Raises ValueError when the tile cannot cover those squares.
    """
    want = set(cells)
    want_a = set(part_a) if part_a is not None else None
    xs = [c[0] for c in want]
    ys = [c[1] for c in want]
    x0, y0 = min(xs), min(ys)
    for o in range(int(rules.tables["tile_n_orient"][tile])):
        parts = placement_parts(rules, tile, o, x0, y0)
        if set(parts) != want:
            continue
        if want_a is not None and {c for c, p in parts.items() if p == 0} != want_a:
            continue
        return o, x0, y0
    raise ValueError(f"tile {tile} cannot cover exactly {sorted(want)}")
