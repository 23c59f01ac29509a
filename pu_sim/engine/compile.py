"""Compile the game data into the integer tables the core reads.

The readable source is ``pu_sim/data/*.toml`` (checked by :mod:`pu_sim.rules.loading`);
this module turns it into small numpy arrays (tile orientations as row masks,
planet masks, track spaces, card operations) and hands them to the compiled
core once per process.  Orientation enumeration happens here, in readable
Python, so the core only loops over precomputed candidates (DESIGN 4.4).

A data string becomes the core's code by name (``pu_sim._core.code``): the core's
enum member spells it (``"advance_distinct_trackers"`` is
``CardOp.OP_ADVANCE_DISTINCT_TRACKERS``), so no table here mirrors the core.
Part of the engine facade: the compile step needs the core's enums and sizes,
so it sits beside the one module that imports the core
(:mod:`pu_sim.engine.core`), and :mod:`pu_sim.rules` stays pure data.

Why long: it is the one step from data to tables;
it has one _compile_<component> function per component of the game.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from pu_sim.engine.core import import_core
from pu_sim.rules.gamedata import (
    COLOURS,
    TERRAINS,
    TRACKS,
    CivCard,
    Corporation,
    DataError,
    EventCard,
    GameData,
    ObjectiveSide,
    Planet,
    Space,
)

Cell = tuple[int, int]


# --------------------------------------------------------------------------------
# Tile orientations
# --------------------------------------------------------------------------------


def _transform(cells: list[Cell], k: int, mirrored: bool) -> list[Cell]:
    """Mirror (x -> -x) if asked, then k clockwise quarter turns ((x, y) -> (-y, x))."""
    out = [(-x, y) if mirrored else (x, y) for x, y in cells]
    for _ in range(k):
        out = [(-y, x) for x, y in out]
    return out


def tile_orientations(
    data: GameData, tile_id: int
) -> list[tuple[list[Cell], list[int], int, int, int]]:
    """Distinct orientations of a tile: (cells, part per cell, icon A, icon B, meteor).

    Two transforms are the same orientation when they cover the same squares
    with the same parts, icons and (on a meteor tile) meteor symbol.  Icon and
    meteor entries are indices into the orientation's cell list; meteor is -1
    on a tile without the symbol.  Order: the reference's transform order.
    """
    tile = data.tiles[tile_id]
    shape = data.shapes[tile.shape]
    base = list(shape.cells)
    parts = [0 if p == "A" else 1 for p in shape.parts]
    marks = [
        base.index(shape.icon_a),
        base.index(shape.icon_b),
        base.index(shape.meteor),
    ]
    seen: set[tuple[object, ...]] = set()
    out = []
    for mirrored in (False, True):
        for k in range(4):
            cells = _transform(base, k, mirrored)
            mx = min(x for x, _ in cells)
            my = min(y for _, y in cells)
            cells = [(x - mx, y - my) for x, y in cells]
            order = sorted(range(len(cells)), key=lambda i: (cells[i][1], cells[i][0]))
            cells_sorted = [cells[i] for i in order]
            parts_sorted = [parts[i] for i in order]
            icon_a = order.index(marks[0])
            icon_b = order.index(marks[1])
            meteor = order.index(marks[2]) if tile.meteor else -1
            key = (
                tuple(zip(cells_sorted, parts_sorted, strict=True)),
                cells_sorted[icon_a],
                cells_sorted[icon_b],
                cells_sorted[meteor] if meteor >= 0 else None,
            )
            if key in seen:
                continue
            seen.add(key)
            out.append((cells_sorted, parts_sorted, icon_a, icon_b, meteor))
    return out


MAX_NBR = 12
"""Room for the squares outside an oriented tile that touch it (10 at most)."""

_SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))  # left, right, up, down (bit order)


def _outside_neighbours(cells: list[Cell]) -> dict[Cell, tuple[int, int]]:
    """Squares touching `cells` from outside: (sides touching, inside-neighbour bits).

    The second value has bit k set when the square's neighbour in direction
    _SIDES[k] is one of `cells`; the greedy bot uses it to see which squares a
    placement walls in without building the footprint.
    """
    own = set(cells)
    out: dict[Cell, tuple[int, int]] = {}
    for x, y in cells:
        for nx, ny in ((x + dx, y + dy) for dx, dy in _SIDES):
            if (nx, ny) in own:
                continue
            mult, _ = out.get((nx, ny), (0, 0))
            inside = sum(
                1 << k for k, (dx, dy) in enumerate(_SIDES) if (nx + dx, ny + dy) in own
            )
            out[(nx, ny)] = (mult + 1, inside)
    if len(out) > MAX_NBR:
        raise ValueError(f"an orientation touches {len(out)} squares (max {MAX_NBR})")
    return out


# --------------------------------------------------------------------------------
# Compilation
# --------------------------------------------------------------------------------


def _mask(squares: object) -> npt.NDArray[np.uint16]:
    rows = np.zeros(12, dtype=np.uint16)
    for x, y in squares:  # type: ignore[attr-defined]
        rows[y] |= 1 << x
    return rows


def _char_squares(planet: Planet, chars: str) -> list[Cell]:
    return [(x, y) for y in range(12) for x in range(12) if planet.grid[y][x] in chars]


def _map_squares(rows: tuple[str, ...], char: str) -> list[Cell]:
    return [(x, y) for y in range(12) for x in range(12) if rows and rows[y][x] == char]


def _compile_tiles(data: GameData, t: dict[str, npt.NDArray[Any]]) -> None:
    n = len(data.tiles)
    t["tile_shape"] = np.array([tile.shape for tile in data.tiles], np.uint8)
    fam = [data.families[tile.family] for tile in data.tiles]
    t["tile_ta"] = np.array([TERRAINS.index(f.a) for f in fam], np.uint8)
    t["tile_tb"] = np.array([TERRAINS.index(f.b) for f in fam], np.uint8)
    t["tile_meteor"] = np.array([tile.meteor for tile in data.tiles], np.uint8)
    t["tile_size"] = np.array(
        [data.shapes[tile.shape].size for tile in data.tiles], np.uint8
    )
    n_orient = np.zeros(n, np.uint8)
    shape8 = (n, 8)
    w, h, nc = (np.zeros(shape8, np.uint8) for _ in range(3))
    dx, dy, part = (np.zeros((*shape8, 5), np.uint8) for _ in range(3))
    rows, rows_a, rows_b = (np.zeros((*shape8, 5), np.uint16) for _ in range(3))
    icon_a, icon_b, meteor = (np.full(shape8, -1, np.int8) for _ in range(3))
    rowcnt, colcnt = (np.zeros((*shape8, 5), np.uint8) for _ in range(2))
    n_nbr = np.zeros(shape8, np.uint8)
    nbr = np.zeros((*shape8, MAX_NBR, 4), np.int8)
    n_enbr = np.zeros((*shape8, 2), np.uint8)
    enbr = np.zeros((*shape8, 2, MAX_NBR, 2), np.int8)
    for tid in range(n):
        orients = tile_orientations(data, tid)
        n_orient[tid] = len(orients)
        for o, (cells, parts, ia, ib, me) in enumerate(orients):
            w[tid, o] = max(x for x, _ in cells) + 1
            h[tid, o] = max(y for _, y in cells) + 1
            nc[tid, o] = len(cells)
            icon_a[tid, o], icon_b[tid, o], meteor[tid, o] = ia, ib, me
            for i, ((x, y), pt) in enumerate(zip(cells, parts, strict=True)):
                dx[tid, o, i], dy[tid, o, i], part[tid, o, i] = x, y, pt
                rows[tid, o, y] |= 1 << x
                (rows_a if pt == 0 else rows_b)[tid, o, y] |= 1 << x
                rowcnt[tid, o, y] += 1
                colcnt[tid, o, x] += 1
            outside = _outside_neighbours(cells)
            n_nbr[tid, o] = len(outside)
            for i, (cell, (mult, inside)) in enumerate(outside.items()):
                nbr[tid, o, i] = (*cell, mult, inside)
            for side in (0, 1):
                own = [c for c, pt in zip(cells, parts, strict=True) if pt == side]
                near = list(_outside_neighbours(own))
                n_enbr[tid, o, side] = len(near)
                for i, cell in enumerate(near):
                    enbr[tid, o, side, i] = cell
    t.update(
        tile_n_orient=n_orient, orient_w=w, orient_h=h, orient_ncells=nc,
        orient_dx=dx, orient_dy=dy, orient_part=part, orient_rows=rows,
        orient_rows_a=rows_a, orient_rows_b=rows_b, orient_icon_a=icon_a,
        orient_icon_b=icon_b, orient_meteor=meteor, orient_rowcnt=rowcnt,
        orient_colcnt=colcnt, orient_n_nbr=n_nbr, orient_nbr=nbr,
        orient_n_enbr=n_enbr, orient_enbr=enbr,
    )  # fmt: skip
    st = data.station
    shape_tiles = np.zeros((12, st.stack_size), np.uint8)
    for shape in data.shapes:
        ids = [tile.id for tile in data.tiles if tile.shape == shape.index]
        shape_tiles[shape.index] = ids
    t["shape_tiles"] = shape_tiles
    seat_pos = np.zeros((6, 6), np.uint8)
    for n_players, seats in enumerate(st.seats, start=1):
        seat_pos[n_players - 1, : len(seats)] = seats
    t["seat_pos"] = seat_pos


def _compile_planets(data: GameData, t: dict[str, npt.NDArray[Any]]) -> None:
    core = import_core()
    flag = core.PlanetFlag
    n = capacity(data, "planets")
    masks = np.zeros((n, core.CONSTANTS["N_PMASK"], 12), np.uint16)
    row_medal = np.zeros((n, 12), np.uint8)
    col_medal = np.zeros((n, 12), np.uint8)
    flags = np.zeros(n, np.uint32)
    city = np.zeros(n, np.uint8)
    sub_bonus = np.zeros(n, np.uint8)
    for planet in data.planets:
        k = planet.id
        masks[k, core.PM_GRID] = _mask(planet.grid_squares)
        masks[k, core.PM_ICE] = _mask(planet.ice_squares)
        masks[k, core.PM_EDGE] = _mask(planet.edge_squares)
        masks[k, core.PM_LIFEPOD] = _mask(planet.lifepods)
        masks[k, core.PM_FIRST] = _mask(planet.first_tile_cells)
        masks[k, core.PM_RING] = _mask(_char_squares(planet, "R"))
        masks[k, core.PM_CITY] = _mask(_char_squares(planet, "C"))
        masks[k, core.PM_TOXIC] = _mask(_char_squares(planet, "T"))
        masks[k, core.PM_CURRENT] = _mask(_char_squares(planet, "EQ"))
        masks[k, core.PM_SIDE_A] = _mask(_map_squares(planet.chasm_side_map, "A"))
        masks[k, core.PM_HOLE] = _mask(_char_squares(planet, "H"))
        masks[k, core.PM_CROSS] = _mask(
            c for pair in planet.chasm_diagonal_crossings for c in pair
        )
        for q in range(4):
            masks[k, core.PM_Q1 + q] = _mask(
                _map_squares(planet.quadrant_map, str(q + 1))
            )
        for s in range(3):
            masks[k, core.PM_SUB1 + s] = _mask(
                _map_squares(planet.subplanet_map, str(s + 1))
            )
        for s, (x0, x1, y0, y1) in enumerate(planet.bga_subplanet_boxes):
            region = _map_squares(planet.subplanet_map, str(s + 1))
            masks[k, core.PM_SUBBGA1 + s] = _mask(
                (x, y) for x, y in region if x0 <= x <= x1 and y0 <= y <= y1
            )
        for quadrant, terrain in planet.quadrant_banned_icon.items():
            idx = core.PM_BAN0 + TERRAINS.index(terrain)
            masks[k, idx] |= _mask(_map_squares(planet.quadrant_map, str(quadrant)))
        row_medal[k] = planet.row_medals
        col_medal[k] = planet.col_medals
        bits = 0
        for name in planet.restrictions:
            bits |= core.code(flag, name)
        if planet.adjacency_waiver:
            bits |= flag.PF_WAIVER
        if planet.city_medals:
            bits |= flag.PF_CITIES
        if planet.subplanet_bonus:
            bits |= flag.PF_SUBPLANETS
        if planet.currents_count_covered or _char_squares(planet, "EQ"):
            bits |= flag.PF_CURRENTS
        if _char_squares(planet, "T"):
            bits |= flag.PF_TOXIC
        if planet.first_tile == "cells":
            bits |= flag.PF_FIRST_CELLS
        flags[k] = bits
        city[k] = planet.city_medals
        sub_bonus[k] = planet.subplanet_bonus
    t.update(
        pmask=masks, row_medal=row_medal, col_medal=col_medal, planet_flags=flags,
        city_medals=city, subplanet_bonus=sub_bonus,
    )  # fmt: skip


def _space_row(core: ModuleType, sp: Space, row: npt.NDArray[np.int8]) -> None:
    """One printed space as the core's field vector."""
    row[core.SP_MEDAL] = sp.medal
    row[core.SP_CIV] = sp.civ_rank
    # a targeted synergy ("synergy:civ") is counted in sp.synergy too
    row[core.SP_SYNERGY] = sp.synergy - (1 if sp.synergy_target else 0)
    row[core.SP_PATCH] = sp.patches
    row[core.SP_ROVER] = int(sp.rover)
    row[core.SP_MOVE] = sp.move
    row[core.SP_TECH] = sp.tech_level
    row[core.SP_NOSTOP] = int(sp.no_stop)
    if sp.synergy_target:
        row[core.SP_SYN_TARGET] = TRACKS.index(sp.synergy_target) + 1


def _compile_corporations(data: GameData, t: dict[str, npt.NDArray[Any]]) -> None:
    core = import_core()
    n = capacity(data, "corporations")
    n_pos = core.CONSTANTS["N_POS"]
    space = np.zeros((n, 5, n_pos, core.CONSTANTS["N_SPACE_FIELDS"]), np.int8)
    score_pos = np.zeros((n, 5, 16), np.uint8)
    tech_level_at = np.zeros((n, 16), np.uint8)
    rovers = np.zeros(n, np.uint8)
    max_tech = core.CONSTANTS["MAX_TECH"]
    limit = np.zeros((n, max_tech + 1), np.uint8)
    activated = np.zeros((n, max_tech + 1), np.uint8)
    tech_pos = np.zeros((n, max_tech + 1), np.uint8)
    corp: Corporation
    for corp in data.corporations:
        for ti, track_name in enumerate(TRACKS):
            track = corp.tracks[track_name]
            spaces = [*track.spaces, track.beyond_top]
            for pos, sp in enumerate(spaces):
                if sp is None:
                    continue
                _space_row(core, sp, space[corp.id, ti, pos])
            score_pos[corp.id, ti] = track.score_by_position
        level = 0
        for pos, sp in enumerate(corp.tracks["tech"].spaces):
            if sp.tech_level:
                level = max(level, sp.tech_level)
            tech_level_at[corp.id, pos] = level
        rovers[corp.id] = corp.rovers
        for pos, sp in enumerate(corp.tracks["tech"].spaces):
            if sp.tech_level:
                tech_pos[corp.id, sp.tech_level] = pos
        for tech in corp.techs:
            limit[corp.id, tech.level] = core.code(core.TechLimit, tech.limit)
            activated[corp.id, tech.level] = any(
                e.when == "activated" for e in tech.effects
            )
    t.update(space=space, score_pos=score_pos, tech_level_at=tech_level_at)
    t["corp_rovers"] = rovers
    t["tech_limit"] = limit
    t["tech_activated"] = activated
    t["tech_pos"] = tech_pos
    level_a = np.zeros(6, np.uint8)
    level_of = np.zeros(16, np.uint8)
    for corp in data.corporations:
        if corp.biomass_levels:
            stops = [
                i for i, s in enumerate(corp.tracks["biomass"].spaces) if not s.no_stop
            ]
            level_a[:] = [stops[0], *stops[1::2]]
            for level, a in enumerate(level_a):
                level_of[a : a + 2 if level else 1] = level
    flux = np.zeros((5, n_pos, core.CONSTANTS["N_SPACE_FIELDS"]), np.int8)
    for corp in data.corporations:
        for ti, track_name in enumerate(TRACKS):
            improved = corp.improved_tracks.get(track_name)
            if improved is None:
                continue
            for pos, sp in enumerate([*improved.spaces, improved.beyond_top]):
                if sp is not None:
                    _space_row(core, sp, flux[ti, pos])
    t["flux_space"] = flux
    path_track = np.zeros(24, np.uint8)
    path_row = np.zeros(24, np.uint8)
    path_score = np.zeros(24, np.uint8)
    for corp in data.corporations:
        if corp.water_path:
            if len(corp.water_path) != 24:
                raise ValueError(f"{corp.key}: the core holds a 24-step water path")
            medal = 0
            for step, ((track_name, row), printed) in enumerate(
                zip(corp.water_path, corp.water_path_medals, strict=True)
            ):
                path_track[step] = TRACKS.index(track_name)
                path_row[step] = row
                medal = printed or medal  # the last water medal reached
                path_score[step] = medal
    t.update(path_track=path_track, path_row=path_row, path_score=path_score)
    t["wh_level_a"] = level_a
    t["wh_level_of"] = level_of
    t["corp_has_powers"] = np.asarray(activated.any(axis=1), np.uint8)


def _card_op(card: CivCard, op: str, params: dict[str, Any]) -> tuple[str, int]:
    """Map a civ card effect to the core's operation label and its one argument."""
    if op == "advance_distinct_trackers":
        return op, int(params["count"])
    if op == "advance_one_tracker":
        return op, int(params["steps"])
    if op == "gain_biomass_patches":
        return op, int(params["count"])
    if op == "gain_rover_movement":
        return op, int(params["amount"])
    if op == "place_tile_from_own_depot":
        return op, int(bool(params["advance_trackers_for_resources"]))
    if op == "teleport_rover":
        return op, 0
    if op == "collect_from_planet" and params.get("item") == "lifepod":
        return "collect_lifepods", int(params["count"])
    if op in ("destroy_meteorites_in_line",):
        return op, 0
    if op == "destroy_meteorites_on_planet":
        return op, int(params["count"])
    if op == "raise_trackers_to_position":
        return op, int(params["position"])
    if op == "score_medals":
        return op, int(params["medals"])
    if op == "score_per_count":
        count = params["count"]
        if count == "biomass_patches_on_planet":
            return "score_patches", 0
        if count == "collected_lifepods_scoring":
            return "score_lifepod_bonus", 0
    if op in ("set_collection_meteorite_repo", "set_collection_commerce_agreement"):
        return op, 0
    raise ValueError(
        f"civ card {card.id} ({card.name}): the core has no operation {op!r}"
    )


def _compile_cards(data: GameData, t: dict[str, npt.NDArray[Any]]) -> None:
    core = import_core()
    rank = np.zeros(37, np.uint8)
    immediate = np.zeros(37, np.uint8)
    op = np.zeros((37, 2), np.uint8)
    arg = np.zeros((37, 2), np.uint8)
    when = np.zeros((37, 2), np.uint8)
    for card in data.civ_cards:
        rank[card.id] = card.rank
        immediate[card.id] = card.timing == "immediate"
        if len(card.effects) > 2:
            raise ValueError(f"civ card {card.id}: the core holds at most 2 effects")
        for k, eff in enumerate(card.effects):
            name, value = _card_op(card, eff.op, dict(eff.params))
            op[card.id, k] = core.code(core.CardOp, name)
            arg[card.id, k] = value
            when[card.id, k] = core.code(core.CardWhen, eff.when)
    rank_cards = np.zeros((4, 9), np.uint8)
    for r in range(1, 5):
        rank_cards[r - 1] = sorted(c.id for c in data.civ_cards if c.rank == r)
    t.update(card_rank=rank, card_immediate=immediate, card_op=op, card_arg=arg,
             card_when=when, rank_cards=rank_cards)  # fmt: skip


ITEMS = ("lifepod", "meteorite")


def _int(params: dict[str, object], key: str) -> int:
    """An integer parameter of a validated effect."""
    value = params[key]
    if not isinstance(value, int):
        raise TypeError(f"parameter {key!r} should be an integer, got {value!r}")
    return value


def _str(params: dict[str, object], key: str) -> str:
    return str(params[key])


def _track_mask(tracks: object) -> int:
    if not isinstance(tracks, (list, tuple)):
        raise TypeError(f"a track list was expected, got {tracks!r}")
    return sum(1 << TRACKS.index(str(t)) for t in tracks)


def _event_op(card: EventCard) -> tuple[str, int, int, int]:
    """An event's immediate effect as (core op label, a, b, c)."""
    if not card.immediate:
        return "none", 0, 0, 0
    if len(card.immediate) > 1:
        raise ValueError(f"event {card.id}: the core holds one immediate effect")
    eff = card.immediate[0]
    prm = dict(eff.params)
    op = eff.op
    if op == "advance_one_of":
        return (
            op,
            _track_mask(prm["tracks"]),
            _int(prm, "steps"),
            int(bool(prm["claim_benefits"])),
        )
    if op == "regress_one_of":
        return op, _track_mask(prm["tracks"]), _int(prm, "steps"), 0
    if op == "choose_one":
        options = prm["options"]
        names = [o.op for o in options] if isinstance(options, tuple) else []
        if names != ["synergy_boost", "peek_next_event"]:
            raise ValueError(f"event {card.id}: unsupported choice {names}")
        return "choose_synergy_or_peek", 0, 0, 0
    if op == "collect_from_planet":
        return f"collect_{prm['item']}", _int(prm, "count"), 0, 0
    if op == "destroy_collected":
        return f"destroy_collected_{prm['item']}", _int(prm, "count"), 0, 0
    if op == "destroy_rover_on_planet":
        return op, _int(prm, "count"), _int(prm, "min_rovers_on_planet"), 0
    count = prm.get("count", prm.get("per_rank", 0))
    return op, count if isinstance(count, int) else 0, 0, 0


def _compile_events(data: GameData, t: dict[str, npt.NDArray[Any]]) -> None:
    core = import_core()
    n = len(data.events)
    cols = {
        k: np.zeros(n, np.uint8)
        for k in ("colour", "solo", "op", "a", "b", "c", "rule", "arg")
    }
    for i, card in enumerate(sorted(data.events, key=lambda e: e.id)):
        if card.id != 65 + i:
            raise ValueError(f"event ids must run 65..124, found {card.id} at {i}")
        cols["colour"][i] = COLOURS.index(card.colour)
        cols["solo"][i] = card.solo_only
        op, a, b, c = _event_op(card)
        cols["op"][i] = core.code(core.EventOp, op)
        cols["a"][i], cols["b"][i], cols["c"][i] = a, b, c
        if card.round_rule is not None:
            cols["rule"][i] = core.code(core.RoundRule, card.round_rule.op)
            terrain = dict(card.round_rule.params).get("terrain")
            cols["arg"][i] = TERRAINS.index(str(terrain)) if terrain else 0
    for key, arr in cols.items():
        t[f"event_{key}"] = arr


def _objective_side(side: ObjectiveSide, kind: int) -> list[int]:
    """(kind, a, b, c, d) for the core, given the core's code of ``side.kind``.

    The meaning of a..d depends on the kind.
    """
    prm = dict(side.params)
    if side.kind in ("count_resources_on_edge", "count_resources_on_planet"):
        return [kind, TERRAINS.index(_str(prm, "resource")), 0, 0, 0]
    if side.kind in ("largest_terrain_area_size", "terrain_area_count"):
        return [kind, TERRAINS.index(_str(prm, "terrain")), 0, 0, 0]
    if side.kind == "trackers_at_maximum_count":
        return [kind, _track_mask(prm["tracks"]), 0, 0, 0]
    if side.kind == "collected_count":
        return [kind, ITEMS.index(_str(prm, "item")), 0, 0, 0]
    if side.kind == "has_solid_rectangle":
        return [kind, TERRAINS.index(_str(prm, "terrain")), _int(prm, "width"),
                _int(prm, "height"), int(bool(prm["either_orientation"]))]  # fmt: skip
    if side.kind == "has_terrain_area_with_resources":
        terrain = TERRAINS.index(_str(prm, "terrain"))
        resource = TERRAINS.index(_str(prm, "resource"))
        return [kind, terrain, resource, _int(prm, "min_resources"), 0]
    if side.kind == "tracker_at_maximum":
        return [kind, TRACKS.index(_str(prm, "track")), 0, 0, 0]
    if side.kind == "resource_count_at_most":
        return [kind, TERRAINS.index(_str(prm, "resource")), _int(prm, "max"), 0, 0]
    if side.kind == "collected_at_least":
        return [kind, ITEMS.index(_str(prm, "item")), _int(prm, "min"), 0, 0]
    if side.kind == "collected_greater_than":
        return [
            kind,
            ITEMS.index(_str(prm, "more")),
            ITEMS.index(_str(prm, "less")),
            0,
            0,
        ]
    if side.kind in ("no_uncovered_ice", "no_uncovered_land"):
        return [kind, 0, 0, 0, 0]
    raise ValueError(
        f"objective side {side.name!r}: the core has no kind {side.kind!r}"
    )


def _compile_objectives(data: GameData, t: dict[str, npt.NDArray[Any]]) -> None:
    core = import_core()
    cards = sorted(data.objectives, key=lambda o: o.id)
    neighbour = np.zeros((len(cards), 6), np.uint8)
    private = np.zeros((len(cards), 5), np.uint8)
    for i, card in enumerate(cards):
        if card.id != 37 + i:
            raise ValueError(f"objective ids must run 37..64, found {card.id} at {i}")
        neighbour[i, :5] = _objective_side(
            card.neighbour, core.code(core.ObjectiveMeasure, card.neighbour.kind)
        )
        neighbour[i, 5] = card.neighbour.better == "higher"
        private[i] = _objective_side(
            card.private, core.code(core.ObjectiveCondition, card.private.kind)
        )
    t["objective_neighbour"] = neighbour
    t["objective_private"] = private


def capacity(data: GameData, kind: str) -> int:
    """Rows the core holds for ``kind`` (corporations, planets): its room for them.

    The data may hold fewer (the rest stay zero and no seat can draw them);
    more is refused, since every seat's pool of them is a 16-bit mask.
    """
    constant = {"corporations": "MAX_CORPS", "planets": "MAX_PLANETS"}[kind]
    room = int(import_core().CONSTANTS[constant])
    count = len(getattr(data, kind))
    if count > room:
        raise DataError(f"{count} {kind}: the core has room for {room} at most")
    return room


def check_rooms(data: GameData) -> None:
    """Refuse data that would make the core read or write outside its tables.

    A variant is untrusted data: the loader checks every value's type and
    range (each integer fits the byte the core keeps it in), and this checks
    what only the core's sizes tell, before any table is filled.
    """
    room = import_core().CONSTANTS
    for corp in data.corporations:
        if corp.rovers > room["MAX_ROVERS"]:
            raise DataError(
                f"corporation {corp.key!r}: rovers = {corp.rovers}, but the core has "
                f"room for {room['MAX_ROVERS']} rovers a player"
            )


_COMPONENTS = (
    ("tiles", _compile_tiles), ("planets", _compile_planets),
    ("corporations", _compile_corporations), ("civ cards", _compile_cards),
    ("events", _compile_events), ("objectives", _compile_objectives),
)  # fmt: skip


def compile_tables(data: GameData) -> dict[str, npt.NDArray[Any]]:
    """Every table the core reads, as contiguous numpy arrays.

    A value that does not fit its table (too large for its type, or an
    index past its end) is a :class:`DataError` naming the component: it
    never wraps around or reaches the core.
    """
    check_rooms(data)
    tables: dict[str, npt.NDArray[Any]] = {}
    for component, step in _COMPONENTS:
        try:
            step(data, tables)
        except (OverflowError, IndexError, TypeError) as exc:
            raise DataError(
                f"{component}: a value does not fit the core's tables "
                f"({' '.join(str(exc).split())})"
            ) from None
    return tables
