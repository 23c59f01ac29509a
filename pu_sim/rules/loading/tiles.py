"""``tiles.toml``: the colour families, the 12 shapes, the 144 tiles, the station.

Shapes are drawn as small pictures (``A``/``B`` for the two parts, lower case
for the square carrying that part's resource icon); every tile row is checked
against BGA's id formula, and the station's slots and seats against the rings.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import (
    TERRAINS,
    Cell,
    DataError,
    Family,
    Shape,
    Station,
    Tile,
)
from pu_sim.rules.loading.checks import (
    Node,
    check_ids,
    connected,
    describe,
    entries,
)

__all__ = ["N_FAMILIES", "N_METEOR_TILES", "N_SHAPES", "N_TILES", "load_tiles"]

N_FAMILIES: Final = 6
N_SHAPES: Final = 12
N_TILES: Final = 144
N_METEOR_TILES: Final = 72

_SHAPE_CHARS: Final = frozenset(".AaBb")


def load_tiles(
    data: Mapping[str, object],
) -> tuple[tuple[Family, ...], tuple[Shape, ...], tuple[Tile, ...], Station]:
    """Read families, shapes, the 144 tiles and the station."""
    file = "tiles.toml"
    top = Node(file, "top level", dict(data))
    terrains = top.get_list("terrains")
    if tuple(terrains) != TERRAINS:
        raise top.error(f"'terrains' must be {list(TERRAINS)} (gamedata.TERRAINS)")

    families = []
    for node in entries(file, data, "family", "family"):
        top.seen.add("family")
        index = node.get_int("index", lo=0)
        node.rename(f"family {index}")
        a = node.get_str("a", choices=TERRAINS)
        b = node.get_str("b", choices=TERRAINS)
        if a == b:
            raise node.error("a tile shows two different terrains")
        node.done()
        families.append(Family(index=index, a=a, b=b))
    if [f.index for f in families] != list(range(N_FAMILIES)):
        raise DataError(
            f"{file}: expected {N_FAMILIES} families with index 0..5 in order"
        )
    for terrain in TERRAINS:
        as_a = sum(f.a == terrain for f in families)
        as_b = sum(f.b == terrain for f in families)
        if (as_a, as_b) != (1, 1):
            raise DataError(
                f"{file}: terrain {terrain!r} is part A of {as_a} and part B of {as_b}"
                " families (each must be A once and B once)"
            )

    shapes = []
    for node in entries(file, data, "shape", "shape"):
        top.seen.add("shape")
        shapes.append(_shape(node))
    if [s.index for s in shapes] != list(range(N_SHAPES)):
        raise DataError(f"{file}: expected {N_SHAPES} shapes with index 0..11 in order")
    by_name: dict[str, Shape] = {}
    for shape in shapes:
        if shape.name in by_name:
            raise DataError(f"{file}: shape {shape.name!r}: duplicate name")
        by_name[shape.name] = shape
    if len({s.bga_constant for s in shapes}) != N_SHAPES:
        raise DataError(f"{file}: duplicate bga_constant among the shapes")
    for ring in ("small", "large"):
        ring_shapes = [s for s in shapes if s.ring == ring]
        if len(ring_shapes) != N_SHAPES // 2:
            raise DataError(
                f"{file}: the {ring} ring needs 6 shapes, got {len(ring_shapes)}"
            )

    station = _station(Node(file, "station", top.get_table("station")), by_name)
    tiles = _tile_rows(Node(file, "tiles", top.get_table("tiles")), by_name, families)
    top.done()
    return tuple(families), tuple(shapes), tiles, station


def _shape(node: Node) -> Shape:
    """Read one shape from its drawing."""
    index = node.get_int("index", lo=0)
    name = node.get_str("name")
    node.rename(f"shape {name!r}")
    bga_constant = node.get_str("bga_constant")
    if not re.fullmatch(r"TILE_\w+", bga_constant):
        raise node.error(f"bga_constant {bga_constant!r} is not a TILE_* constant")
    ring = cast(
        Literal["small", "large"], node.get_str("ring", choices=("small", "large"))
    )
    rows = node.get_rows("drawing")
    if not rows or len({len(r) for r in rows}) != 1:
        raise node.error("drawing rows must all have the same length")
    cells: list[Cell] = []
    parts: list[str] = []
    icons: dict[str, list[Cell]] = {"a": [], "b": []}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in _SHAPE_CHARS:
                raise node.error(f"drawing: unknown character {ch!r} at ({x}, {y})")
            if ch == ".":
                continue
            cells.append((x, y))
            parts.append(ch.upper())
            if ch.islower():
                icons[ch].append((x, y))
    if not 2 <= len(cells) <= 5:
        raise node.error(f"a tile has 2 to 5 squares, the drawing has {len(cells)}")
    if (
        min(x for x, _ in cells)
        or min(y for _, y in cells)
        or len(rows[0]) - 1 != max(x for x, _ in cells)
    ):
        raise node.error("drawing has an empty border column (draw it tight)")
    if any(set(row) == {"."} for row in rows):
        raise node.error("drawing has an empty row (draw it tight)")
    for part in ("A", "B"):
        part_cells = [c for c, p in zip(cells, parts, strict=True) if p == part]
        if not part_cells:
            raise node.error(f"drawing has no part {part}")
        if not connected(part_cells):
            raise node.error(f"part {part} is not one connected group")
        if len(icons[part.lower()]) != 1:
            raise node.error(
                f"part {part} needs exactly one icon square {part.lower()!r},"
                f" has {len(icons[part.lower()])}"
            )
    if not connected(cells):
        raise node.error("the shape is not connected")
    meteor = node.get_cell("meteor", node.raw("meteor"))
    if meteor not in cells:
        raise node.error(f"meteor {meteor} is not a square of the shape")
    node.done()
    return Shape(
        index=index,
        name=name,
        bga_constant=bga_constant,
        ring=ring,
        cells=tuple(cells),
        parts=tuple(parts),
        icon_a=icons["a"][0],
        icon_b=icons["b"][0],
        meteor=meteor,
    )


def _station(node: Node, by_name: Mapping[str, Shape]) -> Station:
    """Read stack size, slot order by ring (rules.md ST-4) and seats (ST-6)."""
    stack_size = node.get_int("stack_size", lo=1)
    if stack_size != N_TILES // N_SHAPES:
        raise node.error(
            f"stack_size must be {N_TILES // N_SHAPES} (all tiles of a shape)"
        )
    slots: dict[str, tuple[int, ...]] = {}
    for key, ring in (("interior_slots", "small"), ("exterior_slots", "large")):
        names = node.get_list(key)
        indices = []
        for name in names:
            shape = by_name.get(name) if isinstance(name, str) else None
            if shape is None:
                raise node.error(f"{key}: unknown shape name {describe(name)}")
            if shape.ring != ring:
                raise node.error(
                    f"{key}: shape {name!r} belongs to the {shape.ring} ring"
                )
            indices.append(shape.index)
        expected = sorted(s.index for s in by_name.values() if s.ring == ring)
        if sorted(indices) != expected:
            raise node.error(f"{key}: must hold every {ring}-ring shape exactly once")
        slots[key] = tuple(indices)
    seats_raw = node.get_list("seats")
    if len(seats_raw) != 6:
        raise node.error("seats: expected one entry per player count 1..6")
    seats = []
    for n, entry in enumerate(seats_raw, start=1):
        row = node.item_ints(
            f"seats[{n - 1}]", entry, lo=0, hi=5, expected="expected a list"
        )
        if len(row) != n or len(set(row)) != n:
            raise node.error(f"seats[{n - 1}]: {n} player(s) need {n} distinct slots")
        seats.append(row)
    node.done()
    return Station(
        stack_size=stack_size,
        interior_slots=slots["interior_slots"],
        exterior_slots=slots["exterior_slots"],
        seats=tuple(seats),
    )


def _tile_rows(
    node: Node, by_name: Mapping[str, Shape], families: Sequence[Family]
) -> tuple[Tile, ...]:
    """Read the explicit tile table, checking each row against the id formula."""
    rows = node.get_list("rows")
    tiles = []
    for i, row in enumerate(rows):
        if (
            not isinstance(row, list)
            or len(row) != 4
            or not isinstance(row[0], int)
            or isinstance(row[0], bool)
            or not isinstance(row[1], str)
            or not isinstance(row[2], int)
            or isinstance(row[2], bool)
            or not isinstance(row[3], bool)
        ):
            raise node.error(f"rows[{i}]: expected [id, shape name, family, meteor]")
        tile_id, shape_name, family, meteor = cast(
            tuple[int, str, int, bool], tuple(row)
        )
        where = f"tile {tile_id}"
        shape = by_name.get(shape_name)
        if shape is None:
            raise node.error(f"{where}: unknown shape name {shape_name!r}")
        if not 0 <= family < len(families):
            raise node.error(f"{where}: unknown family {family}")
        k, shape_index = divmod(tile_id, N_SHAPES)
        expected = (shape_index, k // 2, k % 2 == 1)
        if (shape.index, family, meteor) != expected or not 0 <= tile_id < N_TILES:
            raise node.error(
                f"{where}: [{shape.name}, family {family}, meteor {meteor}] breaks"
                f" the id formula (expects shape index {expected[0]},"
                f" family {expected[1]}, meteor {expected[2]})"
            )
        tiles.append(Tile(id=tile_id, shape=shape.index, family=family, meteor=meteor))
    node.done()
    check_ids("tiles.toml", "tile", [t.id for t in tiles], range(N_TILES))
    meteors = sum(t.meteor for t in tiles)
    if meteors != N_METEOR_TILES:
        raise DataError(f"tiles.toml: {meteors} tiles carry a meteor, expected 72")
    for counter, what, each in (
        (Counter(t.shape for t in tiles), "shape", N_TILES // N_SHAPES),
        (Counter(t.family for t in tiles), "family", N_TILES // N_FAMILIES),
    ):
        for key, count in sorted(counter.items()):
            if count != each:
                raise DataError(
                    f"tiles.toml: {what} {key} has {count} tiles, expected {each}"
                )
    return tuple(sorted(tiles, key=lambda t: t.id))
