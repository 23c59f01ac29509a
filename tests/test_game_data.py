"""Game data: every component checked against counts and the reference material.

Two kinds of checks: invariants of the physical game written out here (counts,
station order, planet statistics from planets.md section 5), and element-wise
comparisons with the reference JSON files, which live in ``../shared/reference``
beside the checkout.  The JSON comparisons skip (with a reason) only when that
folder is absent, and never in CI: under ``PU_SIM_CI=1`` (``.ci/run``) they fail.  The last part breaks a copy of the data on purpose and checks
that the loader's message names the file and the entry.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import REFERENCE

from pu_sim.rules.gamedata import (
    TERRAINS,
    TRACKS,
    Corporation,
    DataError,
    Effect,
    GameData,
    Planet,
    Shape,
    Space,
)
from pu_sim.rules.loading import DATA_DIR, EFFECT_OPS, load_game_data

Cell = tuple[int, int]


@cache
def _reference(name: str) -> Any:
    return json.loads((REFERENCE / name).read_text(encoding="utf-8"))


def ref(name: str) -> Any:
    """A reference JSON file, or skip the test when the folder is absent.

    Under ``PU_SIM_CI=1`` the skip is a failure (tests/conftest.py).
    """
    if not (REFERENCE / name).is_file():
        pytest.skip(
            f"reference material not found at {REFERENCE / name}"
            " (it is expected in ../shared/reference beside the checkout)"
        )
    return _reference(name)


@pytest.fixture(scope="module")
def data() -> GameData:
    return load_game_data()


def planet(data: GameData, key: str) -> Planet:
    return next(p for p in data.planets if p.key == key)


def corporation(data: GameData, key: str) -> Corporation:
    return next(c for c in data.corporations if c.key == key)


# ================================================================================
# Loading
# ================================================================================


def test_default_load_is_cached_and_frozen(data: GameData) -> None:
    assert load_game_data() is data
    again = load_game_data(DATA_DIR)
    assert again is not data
    assert again == data
    with pytest.raises(dataclasses.FrozenInstanceError):
        data.planets[0].name = "x"  # type: ignore[misc]


def test_every_op_of_the_vocabulary_is_used(data: GameData) -> None:
    used: set[str] = set()

    def walk(effects: Iterator[Effect] | tuple[Effect, ...]) -> None:
        for effect in effects:
            used.add(effect.op)
            options = effect.params.get("options", ())
            assert isinstance(options, tuple)
            walk(options)

    for corp in data.corporations:
        walk(corp.special_rules)
        for tech in corp.techs:
            walk(tech.effects)
    for card in data.civ_cards:
        walk(card.effects)
    for event in data.events:
        walk(event.immediate)
        if event.round_rule is not None:
            walk((event.round_rule,))
    assert used == set(EFFECT_OPS)


# ================================================================================
# Tiles
# ================================================================================


def shape_terrain(data: GameData, family: int, part: str) -> str:
    fam = data.families[family]
    return fam.a if part == "A" else fam.b


def test_tile_counts(data: GameData) -> None:
    tiles = data.tiles
    assert len(tiles) == 144
    assert [t.id for t in tiles] == list(range(144))
    assert sum(t.meteor for t in tiles) == 72
    assert Counter(t.shape for t in tiles) == dict.fromkeys(range(12), 12)
    assert Counter(t.family for t in tiles) == dict.fromkeys(range(6), 24)
    assert len(data.shapes) == 12
    assert len(data.families) == 6
    for t in tiles:  # BGA id formula (tiles.json composition)
        assert (t.shape, t.family, t.meteor) == (
            t.id % 12,
            t.id // 24,
            t.id // 12 % 2 == 1,
        )
    for shape in range(12):
        stack = [t for t in tiles if t.shape == shape]
        assert Counter((t.family, t.meteor) for t in stack) == {
            (f, m): 1 for f in range(6) for m in (False, True)
        }


def test_family_square_composition(data: GameData) -> None:
    shapes = {s.index: s for s in data.shapes}
    for family in range(6):
        squares = Counter(
            part
            for t in data.tiles
            if t.family == family
            for part in shapes[t.shape].parts
        )
        assert squares == {"A": 56, "B": 40}, family


def test_terrain_squares_and_icons_over_all_tiles(data: GameData) -> None:
    shapes = {s.index: s for s in data.shapes}
    squares: Counter[str] = Counter()
    icons: Counter[str] = Counter()
    for t in data.tiles:
        fam = data.families[t.family]
        for part in shapes[t.shape].parts:
            squares[fam.a if part == "A" else fam.b] += 1
        icons[fam.a] += 1
        icons[fam.b] += 1
    assert squares == dict.fromkeys(TERRAINS, 96)
    assert icons == dict.fromkeys(TERRAINS, 48)  # each tile shows 2 distinct icons
    assert sum(squares.values()) == 576


def test_rings(data: GameData) -> None:
    small = [s for s in data.shapes if s.ring == "small"]
    large = [s for s in data.shapes if s.ring == "large"]
    assert sum(s.size for s in small) == 20
    assert sum(s.size for s in large) == 28
    assert {s.name for s in small} == {
        "straight-3",
        "corner-3",
        "T-4",
        "L-4",
        "domino",
        "square-4",
    }
    assert {s.name for s in large} == {"S-5", "F-5", "S-4", "straight-4", "N-5", "U-5"}


def test_shape_names_and_constants(data: GameData) -> None:
    assert [(s.name, s.bga_constant, s.size) for s in data.shapes] == [
        ("N-5", "TILE_N", 5),
        ("F-5", "TILE_F", 5),
        ("straight-3", "TILE_I", 3),
        ("corner-3", "TILE_v", 3),
        ("T-4", "TILE_t", 4),
        ("S-4", "TILE_s", 4),
        ("L-4", "TILE_L", 4),
        ("U-5", "TILE_U", 5),
        ("domino", "TILE_i", 2),
        ("straight-4", "TILE_BIG_I", 4),
        ("square-4", "TILE_O", 4),
        ("S-5", "TILE_S", 5),
    ]


Labelled = frozenset[tuple[int, int, str]]


def transforms(shape: Shape) -> list[tuple[Labelled, Cell, Cell, Cell]]:
    """The 8 transforms of tiles.json: mirror x -> -x, then k quarter turns
    (x, y) -> (-y, x), then translate to min x = min y = 0.  Each result is
    (cells with parts, icon A, icon B, meteor)."""
    out = []
    for mirrored in (False, True):
        for k in range(4):

            def move(c: Cell, mirrored: bool = mirrored, k: int = k) -> Cell:
                x, y = (-c[0], c[1]) if mirrored else c
                for _ in range(k):
                    x, y = -y, x
                return x, y

            moved = [move(c) for c in shape.cells]
            dx = min(x for x, _ in moved)
            dy = min(y for _, y in moved)

            def norm(c: Cell, dx: int = dx, dy: int = dy) -> Cell:
                return c[0] - dx, c[1] - dy

            cells = frozenset(
                (*norm(c), p) for c, p in zip(moved, shape.parts, strict=True)
            )
            out.append(
                (
                    cells,
                    norm(move(shape.icon_a)),
                    norm(move(shape.icon_b)),
                    norm(move(shape.meteor)),
                )
            )
    return out


def distinct_orientations(shape: Shape) -> tuple[int, int, int, int]:
    results = transforms(shape)
    bare = {frozenset((x, y) for x, y, _ in cells) for cells, *_ in results}
    parts = {cells for cells, *_ in results}
    icons = {(cells, a, b) for cells, a, b, _ in results}
    meteor = set(results)
    return len(bare), len(parts), len(icons), len(meteor)


EXPECTED_ORIENTATIONS = {
    "N-5": (8, 8, 8, 8),
    "F-5": (8, 8, 8, 8),
    "straight-3": (2, 4, 4, 4),
    "corner-3": (4, 8, 8, 8),
    "T-4": (4, 8, 8, 8),
    "S-4": (4, 8, 8, 8),
    "L-4": (8, 8, 8, 8),
    "U-5": (4, 8, 8, 8),
    "domino": (2, 4, 4, 4),
    "straight-4": (2, 4, 4, 4),
    "square-4": (1, 4, 8, 8),
    "S-5": (4, 8, 8, 8),
}


@pytest.mark.parametrize("name", list(EXPECTED_ORIENTATIONS))
def test_distinct_orientations(data: GameData, name: str) -> None:
    shape = next(s for s in data.shapes if s.name == name)
    assert distinct_orientations(shape) == EXPECTED_ORIENTATIONS[name]


def test_distinct_orientations_equal_reference(data: GameData) -> None:
    for rs in ref("tiles.json")["shapes"]:
        d = rs["distinct_orientations"]
        expected = (
            d["shape_only"],
            d["with_terrain_parts"],
            d["with_terrain_parts_and_icons"],
            d["with_terrain_parts_icons_and_meteor"],
        )
        assert distinct_orientations(data.shapes[rs["index"]]) == expected, rs[
            "short_name"
        ]


def test_shapes_equal_reference(data: GameData) -> None:
    for rs in ref("tiles.json")["shapes"]:
        shape = data.shapes[rs["index"]]
        assert shape.name == rs["short_name"]
        assert shape.bga_constant == rs["bga_constant"]
        assert shape.ring == rs["ring"].split()[0]
        assert {
            (x, y, p) for (x, y), p in zip(shape.cells, shape.parts, strict=True)
        } == {(c["x"], c["y"], c["part"]) for c in rs["cells"]}
        assert list(shape.icon_a) == rs["icon_cell_A"]
        assert list(shape.icon_b) == rs["icon_cell_B"]
        assert list(shape.meteor) == rs["meteor_cell"]
        # our transform convention reproduces the reference's 8 transforms
        for (cells, a, b, m), rt in zip(
            transforms(shape), _sorted_transforms(rs), strict=True
        ):
            assert cells == {(x, y, p) for x, y, p in rt["cells"]}
            assert [list(a), list(b), list(m)] == [
                rt["icon_cell_A"],
                rt["icon_cell_B"],
                rt["meteor_cell"],
            ]


def _sorted_transforms(rs: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(
        rs["all_8_transforms"],
        key=lambda t: (t["mirrored"], t["rotation_quarter_turns_cw"]),
    )


def test_families_and_tiles_equal_reference(data: GameData) -> None:
    tiles_json = ref("tiles.json")
    assert [(f.index, f.a, f.b) for f in data.families] == [
        (f["index"], f["A"], f["B"]) for f in tiles_json["families"]
    ]
    assert [[t.id, t.shape, t.family, int(t.meteor)] for t in data.tiles] == tiles_json[
        "composition"
    ]["tiles"]
    for row in tiles_json["composition"]["per_family"]:
        assert [data.families[row["family"]].a, data.families[row["family"]].b] == row[
            "terrains"
        ]


def test_station(data: GameData) -> None:
    names = {s.index: s.name for s in data.shapes}
    st = data.station
    assert st.stack_size == 12
    # rules.md ST-4 (BGA slot order, clockwise)
    assert [names[i] for i in st.interior_slots] == [
        "straight-3",
        "T-4",
        "corner-3",
        "L-4",
        "domino",
        "square-4",
    ]
    assert [names[i] for i in st.exterior_slots] == [
        "S-5",
        "F-5",
        "S-4",
        "straight-4",
        "N-5",
        "U-5",
    ]
    # rules.md ST-6
    assert st.seats == (
        (0,),
        (0, 3),
        (0, 2, 4),
        (0, 1, 3, 4),
        (0, 1, 2, 3, 4),
        (0, 1, 2, 3, 4, 5),
    )


def test_station_equals_reference(data: GameData) -> None:
    order = ref("tiles.json")["space_station"]["bga_slot_order"]
    assert list(data.station.interior_slots) == order["interior_slot_shape_index"]
    assert list(data.station.exterior_slots) == order["exterior_slot_shape_index"]


# ================================================================================
# Planets
# ================================================================================

PLANET_KEYS = [
    "ksb_4156",
    "arashi",
    "cerberus",
    "charybdis",
    "gaia",
    "k_273",
    "k_aax",
    "lacuna",
    "oblivion",
    "pajitnov",
    "persephone",
    "petra",
    "tartarus",
]

# planets.md section 5: grid squares / ice / lifepods / edge squares
PLANET_COUNTS = {
    "ksb_4156": (96, 21, 6, 28),
    "arashi": (96, 22, 6, 28),
    "cerberus": (96, 29, 6, 45),
    "charybdis": (96, 31, 6, 28),
    "gaia": (96, 24, 6, 28),
    "k_273": (96, 80, 6, 28),
    "k_aax": (96, 25, 6, 28),
    "lacuna": (94, 28, 6, 32),
    "oblivion": (96, 36, 6, 44),
    "pajitnov": (96, 28, 6, 28),
    "persephone": (96, 27, 6, 28),
    "petra": (96, 0, 6, 28),
    "tartarus": (96, 23, 6, 28),
}

# planets.md section 5, 'other' column: legend characters counted
PLANET_OTHER = {
    "arashi": {"R": 24},
    "charybdis": {"X": 4},
    "gaia": {"C": 8},
    "k_aax": {"T": 21},
    "lacuna": {"H": 15},
    "oblivion": {"V": 48},
    "petra": {"E": 36, "Q": 1},
}


def test_planet_ids_and_keys(data: GameData) -> None:
    assert [p.id for p in data.planets] == list(range(13))
    assert [p.key for p in data.planets] == PLANET_KEYS


@pytest.mark.parametrize("key", PLANET_KEYS)
def test_planet_counts(data: GameData, key: str) -> None:
    p = planet(data, key)
    counts = (
        len(p.grid_squares),
        len(p.ice_squares),
        len(p.lifepods),
        len(p.edge_squares),
    )
    assert counts == PLANET_COUNTS[key]
    chars = Counter("".join(p.grid))
    for ch, n in PLANET_OTHER.get(key, {}).items():
        assert chars[ch] == n, ch
    assert set(p.lifepods) == {
        (x, y) for y in range(12) for x in range(12) if p.grid[y][x] in "PQ"
    }


def test_cerberus_subplanets(data: GameData) -> None:
    p = planet(data, "cerberus")
    sizes = Counter(ch for row in p.subplanet_map for ch in row if ch != ".")
    assert sizes == {"1": 28, "2": 47, "3": 21}
    assert p.subplanet_bonus == 2
    # the whole sub-planet (REC): the map covers every grid square
    assert {
        (x, y)
        for y, r in enumerate(p.subplanet_map)
        for x, ch in enumerate(r)
        if ch != "."
    } == set(p.grid_squares)


def test_cerberus_bga_boxes_skip_exactly_the_reference_squares(data: GameData) -> None:
    # the squares of each sub-planet outside BGA's box are the ones planets.json
    # lists as never checked by BGA's exclusive loop bounds
    p = planet(data, "cerberus")
    reference = next(
        r for r in ref("planets.json")["planets"] if r["name"] == "Cerberus"
    )
    for s, (x0, x1, y0, y1) in enumerate(p.bga_subplanet_boxes):
        label = str(s + 1)
        region = {
            (x, y)
            for y, r in enumerate(p.subplanet_map)
            for x, ch in enumerate(r)
            if ch == label
        }
        skipped = {(x, y) for x, y in region if not (x0 <= x <= x1 and y0 <= y <= y1)}
        unchecked = reference["bga_cerberus_unchecked_squares"][label]
        assert skipped == {(c["x"], c["y"]) for c in unchecked}
    assert (
        sum(len(v) for v in reference["bga_cerberus_unchecked_squares"].values()) == 22
    )


def test_planet_special_rules(data: GameData) -> None:
    restrictions = {p.key: set(p.restrictions) for p in data.planets if p.restrictions}
    assert restrictions == {
        "arashi": {"ring_anchor"},
        "k_273": {"ice_or_land"},
        "pajitnov": {"slide_in"},
        "persephone": {"quadrant_icon_ban"},
        "tartarus": {"single_chasm_side"},
    }
    assert {p.key for p in data.planets if p.adjacency_waiver} == {"lacuna", "oblivion"}
    assert {p.key: p.city_medals for p in data.planets if p.city_medals} == {"gaia": 2}
    assert {p.key for p in data.planets if p.currents_count_covered} == {"petra"}
    assert {p.key for p in data.planets if p.first_tile == "cells"} == {"charybdis"}
    assert set(planet(data, "charybdis").first_tile_cells) == {
        (5, 5),
        (6, 5),
        (5, 6),
        (6, 6),
    }
    assert dict(planet(data, "persephone").quadrant_banned_icon) == {
        1: "civ",
        2: "energy",
        3: "tech",
        4: "water",
    }
    assert planet(data, "tartarus").chasm_diagonal_crossings == (
        ((5, 3), (6, 4)),
        ((5, 9), (6, 8)),
    )


def test_row_and_column_medal_maximum(data: GameData) -> None:
    for p in data.planets:
        expected = 39 if p.key == "cerberus" else 40
        assert sum(p.row_medals) + sum(p.col_medals) == expected, p.key


def test_planets_equal_reference(data: GameData) -> None:
    for rp in ref("planets.json")["planets"]:
        p = data.planets[rp["id"]]
        assert p.name == rp["name"]
        assert p.complexity == rp["complexity"]
        assert list(p.grid) == rp["grid"]
        assert list(p.row_medals) == rp["row_medals"], p.key
        assert list(p.col_medals) == rp["col_medals"], p.key
        assert [list(c) for c in p.lifepods] == [
            [c["x"], c["y"]] for c in rp["lifepods"]
        ]
        edge = {
            (x, y)
            for y, row in enumerate(rp["edge_mask"])
            for x, ch in enumerate(row)
            if ch == "#"
        }
        assert set(p.edge_squares) == edge, p.key
        c = rp["counts"]
        assert (len(p.grid_squares), len(p.ice_squares), len(p.edge_squares)) == (
            c["grid_squares"],
            c["ice_squares"],
            c["edge_squares"],
        )
        assert sum(p.row_medals) + sum(p.col_medals) == rp["max_row_col_medals"]


def test_planet_maps_equal_reference(data: GameData) -> None:
    by_key = {p.key: p for p in data.planets}
    rps = {rp["id"]: rp for rp in ref("planets.json")["planets"]}
    assert list(by_key["cerberus"].subplanet_map) == rps[2]["subplanet_map"]
    assert list(by_key["persephone"].quadrant_map) == rps[10]["quadrant_map"]
    quadrants = rps[10]["special_rules"]["placement_restrictions"][0]["quadrants"]
    assert [by_key["persephone"].quadrant_banned_icon[i + 1] for i in range(4)] == [
        q["banned_resource"] for q in quadrants
    ]
    tartarus = by_key["tartarus"]
    assert list(tartarus.chasm_side_map) == rps[12]["chasm_side_map"]
    assert [[list(a), list(b)] for a, b in tartarus.chasm_diagonal_crossings] == [
        [[a["x"], a["y"]], [b["x"], b["y"]]]
        for a, b in rps[12]["chasm_diagonal_crossings"]
    ]
    # the side map implies exactly the 16 blocked orthogonal pairs of the reference
    side = tartarus.chasm_side_map
    blocked = {
        frozenset({(x, y), (nx, ny)})
        for x, y in tartarus.grid_squares
        for nx, ny in ((x + 1, y), (x, y + 1))
        if tartarus.is_grid(nx, ny) and side[y][x] != side[ny][nx]
    }
    assert blocked == {
        frozenset({(a["x"], a["y"]), (b["x"], b["y"])})
        for a, b in rps[12]["chasm_blocked_orthogonal_pairs"]
    }
    cities = {
        (x, y)
        for x, y in by_key["gaia"].grid_squares
        if by_key["gaia"].grid[y][x] == "C"
    }
    city_rule = next(
        s
        for s in rps[4]["special_rules"]["scoring"]
        if s["kind"] == "scoring_uncovered_city"
    )
    assert cities == {(c["x"], c["y"]) for c in city_rule["cells"]}
    first = rps[3]["special_rules"]["first_tile"]["cells"]
    assert set(by_key["charybdis"].first_tile_cells) == {
        (c["x"], c["y"]) for c in first
    }


# ================================================================================
# Corporations
# ================================================================================

CORPORATION_KEYS = [
    "universal_coalition",
    "cosmos_inc",
    "flux_industries",
    "horizon_group",
    "jump_drive",
    "makeshift",
    "oasis_ultd",
    "republic",
    "wormhole_corp",
]


def tokens(space: Space) -> Counter[str]:
    """The space written back as reference tokens (built from the fields)."""
    out: Counter[str] = Counter()
    if space.medal:
        out[f"medal:{space.medal}"] += 1
    if space.civ_rank:
        out[f"civ:{space.civ_rank}"] += 1
    if space.synergy_target:
        out[f"synergy:{space.synergy_target}"] += space.synergy
    elif space.synergy:
        out["synergy"] += space.synergy
    if space.patches:
        out["biomass_patch"] += space.patches
    if space.rover:
        out["rover"] += 1
    if space.move:
        out[f"move:{space.move}"] += 1
    if space.tech_level:
        out[f"tech:{space.tech_level}"] += 1
    if space.no_stop:
        out["no_stop"] += 1
    return out


def test_corporation_ids_and_keys(data: GameData) -> None:
    assert [c.id for c in data.corporations] == list(range(9))
    assert [c.key for c in data.corporations] == CORPORATION_KEYS


def test_rovers_equal_rover_milestones(data: GameData) -> None:
    expected = dict(zip(CORPORATION_KEYS, (2, 1, 2, 4, 1, 2, 2, 1, 2), strict=True))
    for c in data.corporations:
        assert c.rovers == expected[c.key]
        assert c.rovers == sum(s.rover for s in c.tracks["rover"].spaces)


def test_universal_coalition_scores(data: GameData) -> None:
    # rules.md Appendix B: maximum track score 30
    uc = corporation(data, "universal_coalition")
    assert sum(uc.tracks[t].score_by_position[-1] for t in TRACKS) == 30
    assert uc.tracks["water"].score_by_position == (
        0,
        0,
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
        5,
        5,
        5,
        7,
        7,
        10,
    )


def test_corporations_equal_reference(data: GameData) -> None:
    for rc in ref("corporations.json")["corporations"]:
        c = data.corporations[rc["bga_id"]]
        assert (c.name, c.complexity, c.rovers, len(c.techs)) == (
            rc["name"],
            rc["complexity"],
            rc["rovers"],
            rc["tech_count"],
        )
        for t in TRACKS:
            rt = rc["tracks"][t]
            track = c.tracks[t]
            assert len(track.spaces) == 16
            for i, space in enumerate(track.spaces):
                assert tokens(space) == Counter(rt["positions"][i]), (c.key, t, i)
            if "score_by_position" in rt:
                assert list(track.score_by_position) == rt["score_by_position"], (
                    c.key,
                    t,
                )
            if "beyond_top_repeat" in rt:
                assert track.beyond_top is not None
                assert tokens(track.beyond_top) == Counter(rt["beyond_top_repeat"])
            else:
                assert track.beyond_top is None
        improved = rc.get("tech3_improved_tracks", {})
        assert set(c.improved_tracks) == set(improved) - {"note"}
        for t, track in c.improved_tracks.items():
            rt = improved[t]
            assert [tokens(s) for s in track.spaces] == [
                Counter(p) for p in rt["positions"]
            ]
            assert list(track.score_by_position) == rt["score_by_position"]
            if "beyond_top_repeat" in rt:
                assert track.beyond_top is not None
                assert tokens(track.beyond_top) == Counter(rt["beyond_top_repeat"])


def test_tech_texts_and_limits(data: GameData) -> None:
    for c in data.corporations:
        for tech in c.techs:
            assert tech.text
            assert tech.effects
    jump = corporation(data, "jump_drive")
    assert jump.tech_slots == 6
    assert [t.label for t in jump.techs] == ["A", "B", "C", "D", "E", "F"]
    assert not any(s.tech_level for s in jump.tracks["tech"].spaces)
    medals = [s.medal for s in jump.tracks["tech"].spaces if s.medal]
    assert medals == [5, 3, 2, 1]  # decreasing: the last medal reached scores
    limits = {c.key: [t.limit for t in c.techs] for c in data.corporations}
    assert limits["makeshift"][3:] == ["once_per_round", "game_end"]
    assert limits["republic"][4] == "game_end"
    assert limits["flux_industries"][:2] == ["round_start", "once_per_game"]


def test_tech_limits_equal_reference(data: GameData) -> None:
    for rc in ref("corporations.json")["corporations"]:
        c = data.corporations[rc["bga_id"]]
        for tech, rt in zip(c.techs, rc["tech_levels"], strict=True):
            effect = rt["effect"]
            expected = {
                "round_start": "round_start",
                "end_of_game": "game_end",
            }.get(effect["kind"], effect["limit"])
            assert tech.limit == ("passive" if expected == "none" else expected), (
                c.key,
                tech.level,
            )
            assert tech.label == rt.get("board_label", "")


# Our op names where the reference's differ (one name per meaning across cards
# and corporations; the reference's gain_rover_movement is split by its source).
RENAMED_OPS = {
    "gain_biomass_patch": {"gain_biomass_patches"},
    "gain_synergy": {"synergy_boost"},
    "regress": {"regress_one_of"},
    "on_civ_milestone": {"regress_one_of"},
    "conditional_advance": {"advance_requires_area_expansion"},
    "gain_rover_movement": {
        "gain_rover_movement_per_rover",
        "gain_rover_tracker_movement",
    },
}
CONDITIONS: dict[str, Callable[[Any], tuple[str, object]]] = {
    "tile_has_resource": lambda v: (
        "tile_has_resource",
        "flux" if v == "flux_track_resource" else v,
    ),
    "tile_covers_ice_squares": lambda v: ("tile_covers_no_ice", v == 0),
    "square_terrain": lambda v: ("square_terrain", v),
    "tracker_at_top": lambda v: ("tracker_at_top", v),
    "min_trackers_on_column": lambda v: ("rover_column_trackers_at_least", v["count"]),
}
TECH_PARAMS = (
    "count", "steps", "amount", "factor", "cost", "per_rover", "draw",
    "keep", "movement_cost", "resource", "restriction", "applies_to",
)  # fmt: skip


def test_corporation_effects_equal_reference(data: GameData) -> None:
    for rc in ref("corporations.json")["corporations"]:
        c = data.corporations[rc["bga_id"]]
        for tech, rt in zip(c.techs, rc["tech_levels"], strict=True):
            effect = rt["effect"]
            when = (
                effect["trigger"] if effect["kind"] == "triggered" else effect["kind"]
            )
            condition = dict(
                CONDITIONS[k](v) for k, v in effect.get("condition", {}).items()
            )
            assert len(tech.effects) == len(effect["do"]), (c.key, tech.level)
            for ours, theirs in zip(tech.effects, effect["do"], strict=True):
                assert ours.op in RENAMED_OPS.get(theirs["op"], {theirs["op"]})
                assert ours.when == when, (c.key, tech.level)
                assert dict(ours.params.get("condition", {})) == condition
                assert ours.params.get("optional", False) == effect["optional"]
                for key in TECH_PARAMS:
                    if key in theirs and key in ours.params:
                        assert ours.params[key] == theirs[key], (c.key, tech.level, key)
        assert [e.op for e in c.special_rules] == [
            next(iter(RENAMED_OPS.get(r["rule"]["op"], {r["rule"]["op"]})))
            for r in rc["special_rules"]
        ]


# corporations.md section 3.7, steps 0..23
OASIS_PATH = [
    ("water", 0), ("water", 1), ("biomass", 2), ("rover", 3),
    ("tech", 4), ("rover", 5), ("biomass", 4), ("water", 3),
    ("civ", 4), ("water", 5), ("water", 6), ("civ", 7),
    ("civ", 8), ("water", 9), ("biomass", 8), ("rover", 7),
    ("tech", 8), ("rover", 9), ("biomass", 10), ("water", 11),
    ("civ", 12), ("water", 13), ("water", 14), ("water", 15),
]  # fmt: skip


def test_oasis_water_path(data: GameData) -> None:
    oasis = corporation(data, "oasis_ultd")
    assert list(oasis.water_path) == OASIS_PATH
    medals = dict(enumerate(oasis.water_path_medals))
    assert {i: m for i, m in medals.items() if m} == {
        10: 3,
        13: 6,
        19: 9,
        21: 12,
        23: 15,
    }
    # O1 / D1: the board art's 9 at water row 11 (BGA has 8)
    assert oasis.tracks["water"].spaces[11].medal == 9


def test_oasis_water_path_equals_reference(data: GameData) -> None:
    rc = ref("corporations.json")["corporations"][6]
    oasis = data.corporations[6]
    assert [list(s) for s in oasis.water_path] == rc["geometry"]["water_path"]
    score = 0
    for step, (t, row), medal, rs in zip(
        range(24),
        oasis.water_path,
        oasis.water_path_medals,
        rc["geometry"]["water_path_steps"],
        strict=True,
    ):
        assert rs["step"] == step
        assert medal == (rs["water_medal_here"] or 0)
        score = medal or score
        assert score == rs["water_score_if_here"]
        claimed = tokens(oasis.tracks[t].spaces[row])
        claimed = Counter(
            {k: n for k, n in claimed.items() if not k.startswith("medal:")}
        )
        assert claimed == Counter(rs["benefits_claimed"]), step


def test_wormhole_levels(data: GameData) -> None:
    worm = corporation(data, "wormhole_corp")
    levels = worm.biomass_levels
    assert len(levels) == 6
    assert [m for _, _, m in levels] == [0, 0, 1, 2, 3, 5]
    assert [a.synergy_target for a, _, _ in levels[2:]] == [
        "civ",
        "water",
        "tech",
        "rover",
    ]
    assert all(b.patches == 1 for _, b, _ in levels[1:])


def test_wormhole_levels_equal_reference(data: GameData) -> None:
    rt = ref("corporations.json")["corporations"][8]["tracks"]["biomass"]
    for (a, b, medal), rl in zip(
        data.corporations[8].biomass_levels, rt["levels"], strict=True
    ):
        assert medal == rl["score"]
        options = rl["options"] if len(rl["options"]) == 2 else rl["options"] * 2
        assert [tokens(a), tokens(b)] == [Counter(o) for o in options]


def test_makeshift_geometry_equals_reference(data: GameData) -> None:
    geometry = ref("corporations.json")["corporations"][5]["geometry"]
    make = corporation(data, "makeshift")
    assert [list(p) for p in make.column_neighbours] == geometry["adjacent_pairs"]
    wrap = next(e for e in make.techs[0].effects if e.op == "treat_columns_adjacent")
    columns = wrap.params["columns"]
    assert isinstance(columns, tuple)
    assert [list(columns)] == geometry["adjacent_pairs_with_tech1"]


# ================================================================================
# Civ cards
# ================================================================================

CIV_RANKS = {
    1: [1, 2, 3, 4, 5, 6, 7, 29, 33],
    2: [8, 9, 10, 11, 12, 13, 14, 30, 34],
    3: [15, 16, 17, 18, 19, 20, 21, 31, 35],
    4: [22, 23, 24, 25, 26, 27, 28, 32, 36],
}
IMMEDIATE = {1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 16, 17, 18, 19, 21, 25, 26}


def test_civ_cards(data: GameData) -> None:
    cards = data.civ_cards
    assert len(cards) == 36
    for rank, ids in CIV_RANKS.items():
        assert sorted(c.id for c in cards if c.rank == rank) == ids
    assert {c.id for c in cards if c.timing == "immediate"} == IMMEDIATE
    assert sum(c.timing == "end_of_game" for c in cards) == 19
    for c in cards:
        whens = {e.when for e in c.effects}
        if c.timing == "immediate":
            assert whens == {"on_take"}
        else:
            assert whens <= {"end_of_game_step", "final_scoring"}


PARAMS_TO_COMPARE = (
    "count", "steps", "steps_each", "amount", "medals", "medals_each",
    "position", "item", "tracks", "claim_benefits", "terrain",
)  # fmt: skip


def same_params(effect: Effect, reference: dict[str, Any]) -> None:
    for key in PARAMS_TO_COMPARE:
        if key in reference and key in effect.params:
            value = effect.params[key]
            assert (list(value) if isinstance(value, tuple) else value) == reference[
                key
            ], key


def test_civ_cards_equal_reference(data: GameData) -> None:
    for rc in ref("civ_cards.json")["cards"]:
        c = data.civ_cards[rc["id"] - 1]
        assert (c.id, c.name, c.rank, c.timing) == (
            rc["id"],
            rc["name"],
            rc["rank"],
            rc["timing"],
        )
        assert [(e.op, e.when) for e in c.effects] == [
            (r["op"], r["when"]) for r in rc["effects"]
        ]
        for effect, reference in zip(c.effects, rc["effects"], strict=True):
            same_params(effect, reference)
            if "medals_per_3_meteorites_by_cards_held" in reference:
                table = reference["medals_per_3_meteorites_by_cards_held"]
                assert effect.params["medals_per_3_meteorites"] == tuple(
                    table[str(i)] for i in range(5)
                )
            if "total_medals_by_cards_held" in reference:
                table = reference["total_medals_by_cards_held"]
                assert effect.params["total_medals"] == tuple(
                    table[str(i)] for i in range(5)
                )


# ================================================================================
# Events and the solo target
# ================================================================================

SOLO_ONLY = {65, 66, 67, 79, 110, 116}


def test_events(data: GameData) -> None:
    events = data.events
    assert len(events) == 60
    assert Counter(e.colour for e in events) == {"green": 20, "orange": 20, "red": 20}
    assert {e.id for e in events if e.solo_only} == SOLO_ONLY
    assert sum(e.round_rule is not None for e in events) == 17
    multiplayer = Counter(e.colour for e in events if not e.solo_only)
    assert multiplayer == {"green": 16, "orange": 20, "red": 18}
    for e in events:
        assert e.immediate or e.round_rule is not None
        assert all(x.when == "on_reveal" for x in e.immediate)
        assert e.round_rule is None or e.round_rule.when == "this_round"


def test_events_equal_reference(data: GameData) -> None:
    events_json = ref("events.json")
    assert events_json["counts"]["solo_only_ids"] == sorted(SOLO_ONLY)
    for re_ in events_json["events"]:
        e = data.events[re_["id"] - 65]
        assert (e.id, e.name, e.colour, e.solo_only) == (
            re_["id"],
            re_["name"],
            re_["colour"],
            re_["solo_only"],
        )
        assert [x.op for x in e.immediate] == [r["op"] for r in re_["immediate"]]
        for effect, reference in zip(e.immediate, re_["immediate"], strict=True):
            same_params(effect, reference)
            if reference["op"] == "choose_one":
                options = effect.params["options"]
                assert isinstance(options, tuple)
                assert [o.op for o in options] == [
                    o["op"] for o in reference["options"]
                ]
        if re_["round_rule"] is None:
            assert e.round_rule is None
        else:
            assert e.round_rule is not None
            assert e.round_rule.op == re_["round_rule"]["rule"]
            same_params(e.round_rule, re_["round_rule"])
            if "milestones" in re_["round_rule"]:
                milestones = e.round_rule.params["milestones"]
                assert isinstance(milestones, tuple)
                assert list(milestones) == re_["round_rule"]["milestones"]


def solo_target(data: GameData, **counts: int) -> int:
    total = data.solo_target_base
    for colour, n in counts.items():
        band = next(
            i for i, (lo, hi) in enumerate(data.solo_target_bands) if lo <= n <= hi
        )
        total += data.solo_target_adjustments[colour][band]
    return total


def test_solo_target(data: GameData) -> None:
    assert data.solo_target_base == 60
    assert data.solo_target_bands == ((0, 2), (3, 6), (7, 10), (11, 14), (15, 20))
    assert data.solo_target_adjustments == {
        "red": (0, -5, -7, -9, -11),
        "orange": (0, -1, -2, -3, -4),
        "green": (0, 3, 6, 9, 12),
    }
    assert solo_target(data, red=8, orange=3, green=9) == 58  # rules.md 10.2
    assert solo_target(data, red=0, orange=0, green=20) == 72
    assert solo_target(data, red=20, orange=0, green=0) == 49


def test_solo_target_equals_reference(data: GameData) -> None:
    setup = ref("events.json")["deck_setup"]["solo_target_adjustment_by_count"]
    assert data.solo_target_base == setup["base_target"]
    labels = ["0-2", "3-6", "7-10", "11-14", "15+"]
    for colour in ("red", "orange", "green"):
        table = setup[colour]
        assert list(data.solo_target_adjustments[colour]) == [table[k] for k in labels]


def test_solo_outcome_bands(data: GameData) -> None:
    bands = data.solo_outcome_bands
    assert [b.row for b in bands] == ["-15", "-10", "-5", "target", "+5", "+10", "+15"]

    def row(d: int) -> str:
        return next(
            b.row
            for b in bands
            if (b.min_diff is None or b.min_diff <= d)
            and (b.max_diff is None or d <= b.max_diff)
        )

    diffs = (-30, -11, -10, -6, -5, -1, 0, 4, 5, 9, 10, 14, 15, 40)
    assert [row(d) for d in diffs] == [
        "-15", "-15", "-10", "-10", "-5", "-5", "target", "target",
        "+5", "+5", "+10", "+10", "+15", "+15",
    ]  # fmt: skip


# ================================================================================
# Objectives
# ================================================================================

MEASURE_COUNTS = {
    "count_resources_on_edge": 5,
    "largest_terrain_area_size": 6,
    "terrain_area_count": 6,
    "count_resources_on_planet": 6,
    "trackers_at_maximum_count": 1,
    "collected_count": 4,
}
CONDITION_COUNTS = {
    "has_solid_rectangle": 12,
    "has_terrain_area_with_resources": 6,
    "tracker_at_maximum": 5,
    "resource_count_at_most": 1,
    "collected_at_least": 1,
    "collected_greater_than": 1,
    "no_uncovered_ice": 1,
    "no_uncovered_land": 1,
}


def test_objectives(data: GameData) -> None:
    objectives = data.objectives
    assert [o.id for o in objectives] == list(range(37, 65))
    assert Counter(o.neighbour.kind for o in objectives) == MEASURE_COUNTS
    assert Counter(o.private.kind for o in objectives) == CONDITION_COUNTS
    for o in objectives:
        assert (o.neighbour.win_medals, o.neighbour.tie_medals) == (5, 2)
        assert o.neighbour.better in ("higher", "lower")
        assert (o.private.win_medals, o.private.better) == (5, "")
    assert sum(o.neighbour.better == "lower" for o in objectives) == 8


def test_objectives_equal_reference(data: GameData) -> None:
    objectives_json = ref("objectives.json")
    assert objectives_json["counts"]["neighbor_measure_kinds"] == MEASURE_COUNTS
    assert objectives_json["counts"]["private_condition_kinds"] == CONDITION_COUNTS
    for ro in objectives_json["objectives"]:
        o = data.objectives[ro["id"] - 37]
        for side, rs, key in (
            (o.neighbour, ro["neighbor_side"], "measure"),
            (o.private, ro["private_side"], "condition"),
        ):
            assert side.name == rs["name"]
            expected = {k: v for k, v in rs[key].items() if k != "definition"}
            actual = {
                k: list(v) if isinstance(v, tuple) else v
                for k, v in side.params.items()
            }
            assert {"kind": side.kind, **actual} == expected
        assert o.neighbour.better == ro["neighbor_side"]["better"]
        assert o.neighbour.win_medals == ro["neighbor_side"]["win_medals"]
        assert o.neighbour.tie_medals == ro["neighbor_side"]["tie_medals"]
        assert o.private.win_medals == ro["private_side"]["medals_if_met"]


# ================================================================================
# Broken copies: the loader names the file and the entry
# ================================================================================


@pytest.fixture
def broken(tmp_path: Path) -> Callable[[str, str, str, str], Path]:
    """Copy the data folder and apply one edit: in ``file``, the first ``old``
    after ``anchor`` becomes ``new``."""
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)

    def edit(file: str, anchor: str, old: str, new: str) -> Path:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        start = text.index(anchor)
        at = text.index(old, start)
        path.write_text(text[:at] + new + text[at + len(old) :], encoding="utf-8")
        return folder

    return edit


BREAKAGES = [
    pytest.param(
        "planets.toml", 'key = "lacuna"', "[3, 3]", "[3, 9]",
        "planets.toml: planet 'lacuna': lifepod (3, 9) is not a 'P' or 'Q' square",
        id="wrong-lifepod",
    ),
    pytest.param(
        "planets.toml", 'key = "gaia"', "lifepods = [[6, 0], ", "lifepods = [",
        "planets.toml: planet 'gaia': 'P'/'Q' square(s) [(6, 0)] missing from lifepods",
        id="missing-lifepod",
    ),
    pytest.param(
        "planets.toml", 'key = "arashi"', "complexity = 2", "complexity = 2\nsize = 1",
        "planets.toml: planet 'arashi': unknown key(s) 'size'",
        id="unknown-key",
    ),
    pytest.param(
        "planets.toml", 'key = "petra"', "..LPLLLEQL..", "..LPLLLEQL.",
        "planets.toml: planet 'petra': grid must be 12 rows of 12 characters",
        id="grid-size",
    ),
    pytest.param(
        "planets.toml", 'key = "tartarus"', "..AAAAABBB..", "..AAAAABAB..",
        "planets.toml: planet 'tartarus': chasm_side_map needs two connected sides",
        id="chasm-side",
    ),
    pytest.param(
        "planets.toml", 'key = "k_273"', '"ice_or_land"', '"ice_and_land"',
        "planets.toml: planet 'k_273': unknown restriction 'ice_and_land'",
        id="unknown-restriction",
    ),
    pytest.param(
        "tiles.toml", "[ 17,", "[ 17, ", "# [ 17, ",
        "tiles.toml: expected tile ids 0..143 (144 entries); missing [17]",
        id="missing-tile",
    ),
    pytest.param(
        "tiles.toml", "[ 17,", '"S-4",        0, true', '"S-4",        1, true',
        "tiles.toml: tiles: tile 17: [S-4, family 1, meteor True]"
        " breaks the id formula",
        id="tile-formula",
    ),
    pytest.param(
        "tiles.toml", "[ 17,", '"S-4"', '"S4"',
        "tiles.toml: tiles: tile 17: unknown shape name 'S4'",
        id="tile-unknown-shape",
    ),
    pytest.param(
        "tiles.toml", 'name = "L-4"', ".A\n.a\nBb", "bA\n.a\n.B",
        "tiles.toml: shape 'L-4': part B is not one connected group",
        id="shape-part-split",
    ),
    pytest.param(
        "tiles.toml", 'name = "T-4"', "meteor = [1, 1]", "meteor = [2, 1]",
        "tiles.toml: shape 'T-4': meteor (2, 1) is not a square of the shape",
        id="meteor-outside-shape",
    ),
    pytest.param(
        "tiles.toml", 'name = "F-5"', ".a.", ".A.",
        "tiles.toml: shape 'F-5': part A needs exactly one icon square 'a', has 0",
        id="missing-icon",
    ),
    pytest.param(
        "tiles.toml", "index = 3\na =", '"tech"', '"science"',
        "tiles.toml: family 3: 'a': 'science' is not one of",
        id="unknown-terrain",
    ),
    pytest.param(
        "tiles.toml", "interior_slots", '"domino"', '"S-4"',
        "tiles.toml: station: interior_slots: shape 'S-4' belongs to the large ring",
        id="station-ring",
    ),
    pytest.param(
        "civ_cards.toml", "id = 6\n", 'op = "score_medals"', 'op = "score_medal"',
        "civ_cards.toml: civ card 6: effects[0]: unknown op 'score_medal'",
        id="bad-op",
    ),
    pytest.param(
        "civ_cards.toml", "id = 7\n", "medals = 2", "medal = 2",
        "civ_cards.toml: civ card 7: effects[0]: op 'score_medals':"
        " unknown parameter 'medal'",
        id="bad-op-param",
    ),
    pytest.param(
        "civ_cards.toml", "id = 12\n", "count = 2", "count = 0",
        "civ_cards.toml: civ card 12: effects[0]: op 'gain_biomass_patches':"
        " parameter 'count': 0 is below the minimum 1",
        id="bad-param-value",
    ),
    pytest.param(
        "civ_cards.toml", "id = 9\n", 'when = "final_scoring"', 'when = "on_take"',
        "civ_cards.toml: civ card 9: a end_of_game card cannot act 'on_take'",
        id="timing-mismatch",
    ),
    pytest.param(
        "civ_cards.toml", "id = 30\n", "rank = 2", "rank = 1",
        "civ_cards.toml: rank 1 has 10 cards, expected 9",
        id="rank-count",
    ),
    pytest.param(
        "events.toml", "id = 90", 'colour = "orange"', 'colour = "green"',
        "events.toml: event 90: id 90 is not a green id",
        id="event-colour",
    ),
    pytest.param(
        "events.toml", "id = 99", 'terrain = "energy"', 'terrain = "lava"',
        "events.toml: event 99: round_rule: op 'rover_cannot_enter_terrain':"
        " parameter 'terrain': 'lava' is not one of",
        id="round-rule-param",
    ),
    pytest.param(
        "events.toml", "id = 80", 'when = "on_reveal"', 'when = "on_take"',
        "events.toml: event 80: immediate[0]: op 'gain_biomass_patches':"
        " 'when' = 'on_take'",
        id="bad-when",
    ),
    pytest.param(
        "events.toml", "[solo_target]", "-3, -4]", "-3]",
        "events.toml: solo_target: 'orange': expected 5 values, got 4",
        id="solo-table",
    ),
    pytest.param(
        "corporations.toml", 'key = "cosmos_inc"', '"move:1", ', '"mve:1",  ',
        "corporations.toml: corporation 'cosmos_inc': tracks.rover[2]:"
        " unknown token 'mve:1'",
        id="unknown-token",
    ),
    pytest.param(
        "corporations.toml", 'key = "horizon_group"', "rovers = 4", "rovers = 3",
        "corporations.toml: corporation 'horizon_group':"
        " rovers = 3 but the rover track has 4",
        id="rover-count",
    ),
    pytest.param(
        "corporations.toml", 'key = "republic"', '"civ:3",   "",', '"tech:3",  "",',
        "corporations.toml: corporation 'republic': tracks.civ[8]:"
        " 'tech:3' belongs on the tech track",
        id="token-on-wrong-track",
    ),
    pytest.param(
        "corporations.toml", 'key = "oasis_ultd"', '["civ", 12]', '["civ", 13]',
        "corporations.toml: corporation 'oasis_ultd':"
        " water_path step 19 -> 20 (water 11 -> civ 13)",
        id="oasis-path",
    ),
    pytest.param(
        "corporations.toml", 'key = "flux_industries"',
        'limit = "round_start"', 'limit = "passive"',
        "corporations.toml: corporation 'flux_industries': tech 1: limit 'passive'",
        id="tech-limit",
    ),
    pytest.param(
        "corporations.toml", 'key = "makeshift"', "tracks = [", "trackz = [",
        "corporations.toml: corporation 'makeshift': tech 4: effects[0]:"
        " op 'regress_one_of':"
        " unknown parameter 'trackz'",
        id="corp-op-param",
    ),
    pytest.param(
        "objectives.toml", "id = 40", '"has_solid_rectangle"', '"has_rectangle"',
        "objectives.toml: objective 40: private side:"
        " 'kind': 'has_rectangle' is not one of",
        id="objective-kind",
    ),
    pytest.param(
        "objectives.toml", "id = 64", "id = 64", "id = 63",
        "objectives.toml: duplicate objective id(s) [63]",
        id="objective-duplicate",
    ),
    pytest.param(
        "events.toml", "id = 70", "[[event]]", "[[event]\n",
        "events.toml: invalid TOML",
        id="toml-syntax",
    ),
    # The checks every component shares: each is one helper serving all files.
    pytest.param(
        "objectives.toml", "[[objective]]", "[[objective]]", "scoring = 1\n[[objective]]",
        "objectives.toml: unknown top-level key(s) ['scoring']",
        id="unknown-top-level-key",
    ),
    pytest.param(
        "corporations.toml", 'key = "cosmos_inc"', '"cosmos_inc"', '"Cosmos Inc"',
        "corporations.toml: corporation 'Cosmos Inc': key must be snake_case ascii",
        id="key-not-snake-case",
    ),
    pytest.param(
        "planets.toml", 'key = "gaia"', '"gaia"', '"lacuna"',
        "planets.toml: duplicate planet key",
        id="duplicate-planet-key",
    ),
    pytest.param(
        "tiles.toml", "seats = [", "[0, 3]", "[0, -3]",
        "tiles.toml: station: seats[1]: -3 is below the minimum 0",
        id="station-seat-value",
    ),
    pytest.param(
        "corporations.toml", 'key = "wormhole_corp"', "[2, 3]", "[2, 3, 4]",
        "corporations.toml: corporation 'wormhole_corp':"
        " biomass_levels[1]: expected [index A, index B]",
        id="biomass-level-shape",
    ),
    pytest.param(
        "events.toml", "[solo_target]", "[15, 20]", "[15, 21]",
        "events.toml: solo_target: bands[4]: 21 is above the maximum 20",
        id="solo-band-range",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("file", "anchor", "old", "new", "message"), BREAKAGES)
def test_loader_names_file_and_entry(
    broken: Callable[[str, str, str, str], Path],
    file: str,
    anchor: str,
    old: str,
    new: str,
    message: str,
) -> None:
    folder = broken(file, anchor, old, new)
    with pytest.raises(DataError, match=re.escape(message)):
        load_game_data(folder)


def test_missing_file_is_named(tmp_path: Path) -> None:
    shutil.copytree(DATA_DIR, tmp_path / "data")
    (tmp_path / "data" / "events.toml").unlink()
    with pytest.raises(DataError, match=r"^events\.toml: file not found"):
        load_game_data(tmp_path / "data")


def test_the_planet_labels_are_in_id_order():
    from pu_sim.simulation.frames import planet_enum

    data = load_game_data()
    names = {p.id: p.name for p in data.planets}
    assert list(planet_enum(data).categories) == [names[i] for i in sorted(names)]
