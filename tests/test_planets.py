"""The twelve asymmetric planets (planets.md sections 2.8 and 3), rule by rule.

Placement legality on every planet is checked against the independent oracle
in tests/slow_placement.py; the other special rules (scoring, rovers, energy,
objectives, the fallback ladder) get one scenario each, drawn on the planet.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slow_placement import core_placements, slow_placements

from pu_sim.engine.core import constants
from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    square_move,
    step_move,
    tile_id,
)

Cell = tuple[int, int]
LEVEL = constants()
DONE = 0xFFFF
PLANET_KEYS = ("ksb_4156", "arashi", "cerberus", "charybdis", "gaia", "k_273", "k_aax",
               "lacuna", "oblivion", "pajitnov", "persephone", "petra", "tartarus")  # fmt: skip


def drawn(
    key: str,
    covered: dict[Cell, str] | None = None,
    *,
    players: int = 1,
    lifepods: tuple[Cell, ...] = (),
    options: RuleOptions | None = None,
) -> ScenarioGame:
    """A game whose seat 0 plays `key` with exactly these squares covered."""
    planets = [key] + ["ksb_4156"] * (players - 1)
    game = ScenarioGame(
        players=players, planets=planets, bots="random", seed=0, options=options
    )
    planet = game.planet_of(0)
    rows = [list(r) for r in empty_drawing(planet).splitlines()]
    for (x, y), ch in (covered or {}).items():
        rows[y][x] = ch
    for x, y in lifepods:
        rows[y][x] = "o"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    return game


def planet_of(rules, key: str):
    return next(p for p in rules.data.planets if p.key == key)


def squares_with(rules, key: str, chars: str) -> list[Cell]:
    planet = planet_of(rules, key)
    return [(x, y) for x, y in planet.grid_squares if planet.grid[y][x] in chars]


def score(game: ScenarioGame) -> dict:
    game.start_stage("score")
    return game.player(0)


def covering(
    rules, tile: int, game: ScenarioGame, cells: list[Cell], level: int = 0
) -> bool:
    """Whether the tile may be placed exactly on `cells` at this fallback level."""
    o, x, y = find_placement(rules, tile, cells)
    return (o, x, y) in game.state.placements(0, tile, level)


def civ_energy(rules, shape: str) -> int:
    return tile_id(rules, shape, "civ", "energy")


# ---- every planet against the oracle ---------------------------------------------------

SHAPES = ("domino", "straight-3", "corner-3", "T-4", "square-4", "S-4", "L-4",
          "straight-4", "N-5", "F-5", "U-5", "S-5")  # fmt: skip
FAMILIES = (("civ", "energy"), ("energy", "water"), ("rover", "tech"),
            ("tech", "biomass"), ("water", "rover"), ("biomass", "civ"))  # fmt: skip


@pytest.mark.parametrize("key", PLANET_KEYS)
def test_first_tile_placements_match_the_oracle_on_every_planet(rules, key):
    game = drawn(key)
    planet = game.planet_of(0)
    for shape in ("domino", "T-4", "U-5"):
        for a, b in FAMILIES[::2]:
            tile = tile_id(rules, shape, a, b)
            assert core_placements(rules, game.state, tile) == slow_placements(
                rules, planet, set(), tile
            )


@settings(max_examples=150)
@given(
    key=st.sampled_from(PLANET_KEYS),
    picks=st.sets(st.integers(0, 95), min_size=1, max_size=45),
    shape=st.sampled_from(SHAPES),
    family=st.sampled_from(FAMILIES),
    meteor=st.booleans(),
    planet_rules=st.booleans(),
    one_step=st.booleans(),
)
def test_placements_match_the_oracle_on_any_board(
    rules, key, picks, shape, family, meteor, planet_rules, one_step
):
    planet = planet_of(rules, key)
    grid = planet.grid_squares
    covered = {grid[i % len(grid)] for i in picks}
    options = RuleOptions(pajitnov_slide="one_step" if one_step else "straight")
    game = drawn(key, dict.fromkeys(covered, "c"), options=options)
    tile = tile_id(rules, shape, *family, meteor)
    level = LEVEL["LEVEL_ALL"] if planet_rules else LEVEL["LEVEL_NO_PLANET"]
    expected = slow_placements(
        rules, planet, covered, tile, planet_rules=planet_rules,
        slide="one_step" if one_step else "straight",
    )  # fmt: skip
    assert core_placements(rules, game.state, tile, level) == expected


# ---- Arashi (3.1) ---------------------------------------------------------------------


def test_arashi_a_tile_on_the_ring_must_reach_outside_it(rules):
    game = drawn("arashi")
    straight = civ_energy(rules, "straight-3")
    assert not covering(rules, straight, game, [(0, 5), (1, 5), (2, 5)])
    assert covering(rules, straight, game, [(1, 4), (1, 5), (1, 6)])
    square = civ_energy(rules, "square-4")
    assert not covering(rules, square, game, [(0, 5), (1, 5), (0, 6), (1, 6)])
    # level 3 of the fallback drops the ring rule
    assert covering(
        rules, straight, game, [(0, 5), (1, 5), (2, 5)], LEVEL["LEVEL_NO_PLANET"]
    )


def test_arashi_a_biomass_patch_never_goes_on_the_ring(rules):
    game = drawn("arashi", {(5, 4): "c", (5, 5): "c"})
    squares = set(game.state.patch_squares(0))
    assert (4, 5) not in squares and (6, 5) not in squares and (5, 6) not in squares
    assert {(4, 4), (6, 4), (5, 3)} <= squares


def arashi_only_ring_left(rules, options=None) -> ScenarioGame:
    """Every square outside rows 5-6 is covered: any tile lies on the ring only."""
    outside = {
        c: "c" for c in planet_of(rules, "arashi").grid_squares if c[1] not in (5, 6)
    }
    game = drawn("arashi", outside, options=options)
    game.set_depot(0, civ_energy(rules, "straight-3"), None)
    return game


def test_arashi_fallback_drops_the_ring_rule_only_when_nothing_else_fits(rules):
    game = arashi_only_ring_left(rules)
    game.start_draft(0)
    assert game.player(0)["place_level"] == LEVEL["LEVEL_NO_PLANET"]
    assert game.decision == "place" and game.legal_moves()
    game.apply(game.legal_moves()[0])
    assert game.player(0)["placements_relaxed"] == 1


def test_arashi_bga_fallback_never_drops_the_ring_rule(rules):
    game = arashi_only_ring_left(rules, RuleOptions(planet_fallback="bga"))
    game.start_draft(0)
    assert game.player(0)["place_level"] == LEVEL["LEVEL_NONE"]
    assert not game.player(0)["can_place"]


# ---- Cerberus (3.2) -------------------------------------------------------------------


def subplanet(rules, digit: str) -> list[Cell]:
    planet = planet_of(rules, "cerberus")
    return [
        (x, y)
        for y, row in enumerate(planet.subplanet_map)
        for x, ch in enumerate(row)
        if ch == digit
    ]


def test_cerberus_pays_two_medals_per_completely_covered_subplanet(rules):
    bottom_right = subplanet(rules, "3")
    assert len(bottom_right) == 21
    full = score(drawn("cerberus", dict.fromkeys(bottom_right, "c")))
    assert full["score_planet_bonus"] == 2
    # a meteorite sits on a tile: its square still counts as covered
    missing = {c: "c" for c in bottom_right if c != (11, 9)}
    assert score(drawn("cerberus", missing))["score_planet_bonus"] == 0


def test_cerberus_bga_boxes_ignore_the_squares_bga_never_checks(rules):
    # (11, 9) is one of the 22 squares BGA's exclusive loop bounds skip
    missing = {c: "c" for c in subplanet(rules, "3") if c != (11, 9)}
    bga = RuleOptions(cerberus_bonus_region="bga_boxes")
    assert score(drawn("cerberus", missing, options=bga))["score_planet_bonus"] == 2
    checked = {c: "c" for c in subplanet(rules, "3") if c != (8, 8)}
    assert score(drawn("cerberus", checked, options=bga))["score_planet_bonus"] == 0


def test_cerberus_rows_run_across_the_gaps(rules):
    # row 6 is split by the gap; it scores only when both pieces are full
    row6 = [c for c in planet_of(rules, "cerberus").grid_squares if c[1] == 6]
    assert [x for x, _ in row6] == [0, 1, 2, 3, 4, 5, 6]
    game = score(drawn("cerberus", dict.fromkeys(row6, "c")))
    assert game["rows_complete"] == 1 and game["score_planet"] == 2


# ---- Charybdis (3.3) ------------------------------------------------------------------


def test_charybdis_first_tile_covers_the_pit_and_not_the_edge(rules):
    game = drawn("charybdis")
    domino = civ_energy(rules, "domino")
    assert covering(rules, domino, game, [(5, 5), (5, 4)])
    assert not covering(rules, domino, game, [(0, 5), (1, 5)])  # edge only
    # from the second tile on, adjacency as usual
    later = drawn("charybdis", {(5, 5): "c"})
    assert covering(rules, domino, later, [(4, 5), (3, 5)])


# ---- Gaia (3.4) -----------------------------------------------------------------------


def test_gaia_each_uncovered_city_scores_two_medals(rules):
    cities = squares_with(rules, "gaia", "C")
    assert len(cities) == 8
    assert score(drawn("gaia"))["score_planet_bonus"] == 16
    one_covered = score(drawn("gaia", {(5, 0): "c"}))
    assert one_covered["score_planet_bonus"] == 14
    assert one_covered["score_planet"] == 14  # no line is complete


@pytest.mark.parametrize(("option", "bonus"), [(True, 14), (False, 16)])
def test_gaia_city_under_a_patch(rules, option, bonus):
    game = drawn(
        "gaia", {(2, 2): "p"}, options=RuleOptions(gaia_city_covered_by_patch=option)
    )
    assert score(game)["score_planet_bonus"] == bonus


# ---- K-273 (3.5) ----------------------------------------------------------------------


def test_k273_a_tile_lies_all_on_ice_or_all_on_land(rules):
    #   row 5: IILLIIIIIIII   (2, 5) and (3, 5) are land
    game = drawn("k_273", {(1, 4): "w", (2, 4): "w"})
    domino = civ_energy(rules, "domino")
    assert covering(rules, domino, game, [(2, 5), (3, 5)])  # land and land
    assert covering(rules, domino, game, [(1, 5), (0, 5)])  # ice and ice
    assert not covering(rules, domino, game, [(1, 5), (2, 5)])  # ice and land
    assert covering(rules, domino, game, [(1, 5), (2, 5)], LEVEL["LEVEL_NO_PLANET"])


# ---- K'aax (3.6) ----------------------------------------------------------------------


def test_kaax_rovers_never_enter_uncovered_toxic_squares(rules):
    #   row 5: PTLLLLLLLLLP   (1, 5) is toxic
    assert (1, 5) in squares_with(rules, "k_aax", "T")
    open_toxic = drawn("k_aax", {(2, 5): "r", (3, 5): "r"})
    open_toxic.set_rovers(0, [(2, 5)], in_supply=0)
    open_toxic.state.set_player_int(0, "move_budget", 2)
    open_toxic.give(0)
    assert step_move(0, 1, 5) not in open_toxic.legal_moves()
    assert step_move(0, 2, 4) in open_toxic.legal_moves()
    covered = drawn("k_aax", {(1, 5): "c", (2, 5): "r", (3, 5): "r"})
    covered.set_rovers(0, [(2, 5)], in_supply=0)
    covered.state.set_player_int(0, "move_budget", 2)
    covered.give(0)
    assert step_move(0, 1, 5) in covered.legal_moves()


def test_kaax_a_teleport_never_lands_on_an_uncovered_toxic_square(rules):
    game = drawn("k_aax", {(2, 5): "r"})
    game.set_rovers(0, [(2, 5)], in_supply=0)
    game.give(0, ("teleport", 0, 0, 0))
    assert game.decision == "teleport"
    targets = {m & 0xFF for m in game.legal_moves() if m != DONE}
    toxic = {square_move(x, y) for x, y in squares_with(rules, "k_aax", "T")}
    assert targets and not targets & toxic
    assert square_move(3, 5) in targets


# ---- Lacuna and Oblivion: holes, the void, the waiver (3.7, 3.8, 2.8 level 4) --------


def test_lacuna_holes_take_no_tile(rules):
    #   row 2: .LIILHHLLLL.   row 3: .LIPHLLHLLL.   (5, 2) and (4, 3) are holes
    planet = planet_of(rules, "lacuna")
    assert not planet.is_grid(5, 2) and len(planet.grid_squares) == 94
    game = drawn("lacuna", {(5, 3): "c"})
    domino = civ_energy(rules, "domino")
    cells = placed_cells(rules, game, domino)
    assert cells and not any({(5, 2), (4, 3)} & c for c in cells)
    # (5, 3) is walled in by holes except below: only (6, 3) and (5, 4)... (5, 4) is
    # a hole too, so every domino touching it uses (6, 3)
    assert all((6, 3) in c for c in cells)


def placed_cells(rules, game: ScenarioGame, tile: int) -> list[set[Cell]]:
    return [
        {c for c, _ in squares}
        for squares, *_ in core_placements(rules, game.state, tile)
    ]


def waiver_board(rules, key: str, players: int, options=None) -> ScenarioGame:
    """Only patches around one tile square, and a free pocket far away.

    With patches not anchoring adjacency, no tile can touch a tile square:
    only the adjacency waiver lets the square-4 go into the pocket.
    """
    pocket = {(8, 1), (9, 1), (8, 2), (9, 2), (10, 2), (8, 3), (9, 3), (10, 3)}
    planet = planet_of(rules, key)
    covered = {c: "p" for c in planet.grid_squares if c not in pocket}
    covered[(0, 5)] = "c"
    opts = options or RuleOptions(patches_anchor_adjacency=False)
    game = drawn(key, covered, players=players, options=opts)
    game.set_depot(0, civ_energy(rules, "square-4"), None)
    return game


@pytest.mark.parametrize("key", ["lacuna", "oblivion"])
def test_adjacency_waiver_once_in_multiplayer(rules, key):
    game = waiver_board(rules, key, players=2)
    game.start_draft(0)
    assert game.player(0)["place_level"] == LEVEL["LEVEL_WAIVER"]
    square = civ_energy(rules, "square-4")
    assert game.state.placement_count(0, square, LEVEL["LEVEL_NO_PLANET"]) == 0
    pocket = {(8, 1), (9, 1), (8, 2), (9, 2), (10, 2), (8, 3), (9, 3), (10, 3)}
    waived = core_placements(rules, game.state, square, LEVEL["LEVEL_WAIVER"])
    assert waived and all({c for c, _ in sq} <= pocket for sq, *_ in waived)
    moves = game.legal_moves()
    assert len(moves) == len(waived)
    game.apply(moves[0])
    assert game.player(0)["waiver_used"] == 1
    again = waiver_board(rules, key, players=2)
    again.state.set_player_int(0, "waiver_used", 1)
    again.start_draft(0)
    assert again.player(0)["place_level"] == LEVEL["LEVEL_NONE"]


@pytest.mark.parametrize(
    ("key", "players", "options"),
    [
        ("lacuna", 1, RuleOptions(patches_anchor_adjacency=False)),
        ("lacuna", 2, RuleOptions(patches_anchor_adjacency=False,
                                  lacuna_oblivion_adjacency_waiver=False)),
        ("ksb_4156", 2, RuleOptions(patches_anchor_adjacency=False)),
    ],
)  # fmt: skip
def test_no_adjacency_waiver_in_solo_off_or_elsewhere(rules, key, players, options):
    game = waiver_board(rules, key, players, options)
    game.start_draft(0)
    assert game.player(0)["place_level"] == LEVEL["LEVEL_NONE"]


def test_oblivion_perimeter_is_the_outer_frame_only(rules):
    game = drawn("oblivion")
    domino = civ_energy(rules, "domino")
    #   row 2: IIILVVVVLIII   (3, 2) and (3, 3) touch the void, not the frame
    assert not covering(rules, domino, game, [(3, 2), (3, 3)])
    assert covering(rules, domino, game, [(0, 3), (1, 3)])


def test_oblivion_rows_ignore_the_void(rules):
    result = score(drawn("oblivion", {(0, 5): "c", (11, 5): "c"}))
    assert result["rows_complete"] == 1
    assert result["score_planet"] == planet_of(rules, "oblivion").row_medals[5]


# ---- Pajitnov (3.9) -------------------------------------------------------------------

# The domino's pocket at (5, 5)-(6, 5): one square's shift up or down is free, but
# every straight path in is blocked further out.
#     column: 0123456789AB
POCKET = """
            -----..-----
            ---~~....---
            --.~.c.~~.--
            -..~....~~.-
            -~..~~.....-
            .~~.c..c....
            ..~....~....
            -..~...~~..-
            -..~..c....-
            --.~...~~~--
            ---~....~---
            -----..-----
"""


@pytest.mark.parametrize(("slide", "legal"), [("straight", False), ("one_step", True)])
def test_pajitnov_slide_in(rules, slide, legal):
    game = ScenarioGame(players=1, planets="pajitnov", bots="random",
                options=RuleOptions(pajitnov_slide=slide))  # fmt: skip
    game.set_planet(0, POCKET)
    domino = civ_energy(rules, "domino")
    assert covering(rules, domino, game, [(5, 5), (6, 5)]) is legal
    assert covering(rules, domino, game, [(5, 5), (6, 5)], LEVEL["LEVEL_NO_PLANET"])
    # an open lane from the left: straight in along row 3 is fine
    assert covering(rules, domino, game, [(4, 3), (5, 3)])


@settings(max_examples=120)
@given(
    picks=st.sets(st.integers(0, 95), min_size=2, max_size=10),
    shape=st.sampled_from(
        ("U-5", "F-5", "N-5", "S-5", "T-4", "L-4", "S-4", "corner-3")
    ),
    one_step=st.booleans(),
)
def test_pajitnov_slides_match_the_oracle_around_scattered_pegs(
    rules, picks, shape, one_step
):
    # sparse boards: tiles wrap around lone covered squares, which is where the
    # straight slide and the one-step test disagree most
    planet = planet_of(rules, "pajitnov")
    covered = {planet.grid_squares[i] for i in picks}
    slide = "one_step" if one_step else "straight"
    game = drawn("pajitnov", dict.fromkeys(covered, "c"),
                 options=RuleOptions(pajitnov_slide=slide))  # fmt: skip
    tile = tile_id(rules, shape, "civ", "energy")
    expected = slow_placements(rules, planet, covered, tile, slide=slide)
    assert core_placements(rules, game.state, tile) == expected


def test_pajitnov_a_u_slides_onto_a_peg_only_mouth_first(rules):
    # U-5 around the peg at (5, 5), its mouth open to the right: pushed in from
    # the left its arms pass either side of the peg; from above, below or the
    # right some square of the U would cross the peg
    game = drawn("pajitnov", {(5, 5): "c"})
    u = civ_energy(rules, "U-5")
    cells = [(4, 4), (5, 4), (4, 5), (4, 6), (5, 6)]
    assert covering(rules, u, game, cells)
    blocked = drawn("pajitnov", {(5, 5): "c", (1, 5): "c"})  # the left lane shut
    assert not covering(rules, u, blocked, cells)


def test_pajitnov_patches_are_exempt(rules):
    game = ScenarioGame(players=1, planets="pajitnov", bots="random")
    game.set_planet(0, POCKET)
    assert (5, 5) in game.state.patch_squares(0)


# ---- Persephone (3.10) ----------------------------------------------------------------


def test_persephone_bans_a_resource_icon_in_its_quadrant(rules):
    game = drawn("persephone", {(5, 5): "c", (6, 6): "c"})
    planet = game.planet_of(0)
    tile = civ_energy(rules, "straight-3")
    q1 = {(x, y) for x in range(6) for y in range(6)}  # top-left bans civ icons
    q2 = {(x, y) for x in range(6, 12) for y in range(6)}  # top-right bans energy
    placed = core_placements(rules, game.state, tile)
    assert placed
    for _, icon_civ, icon_energy, _ in placed:
        assert icon_civ not in q1 and icon_energy not in q2
    # civ terrain without the icon may lie in the quadrant
    assert any(
        any(c in q1 and part == "A" for c, part in squares) for squares, *_ in placed
    )
    assert planet.quadrant_banned_icon == {1: "civ", 2: "energy", 3: "tech", 4: "water"}


# ---- Petra (3.11) ---------------------------------------------------------------------


def petra_row5_land(rules) -> dict[Cell, str]:
    """Cover the land of row 5 (LLEEEELEEELL), leaving its currents open."""
    return {(x, 5): "c" for x in (0, 1, 6, 10, 11)}


@pytest.mark.parametrize(("option", "rows"), [(True, 1), (False, 0)])
def test_petra_open_currents_count_as_covered_for_lines(rules, option, rows):
    game = drawn(
        "petra", petra_row5_land(rules),
        options=RuleOptions(petra_currents_count_covered=option),
    )  # fmt: skip
    result = score(game)
    assert result["rows_complete"] == rows
    assert result["uncovered"] == 96 - 5  # the tie-breaker counts them uncovered


def test_petra_energy_area_runs_through_open_currents(rules):
    #   row 4: .LLLLELELLL.   row 5: LLEEEELEEELL; a tech square at (6, 5)
    game = drawn("petra", {(6, 5): "t"})
    tile = tile_id(rules, "domino", "civ", "energy")
    o, x, y = find_placement(rules, tile, [(1, 4), (2, 4)], part_a=[(1, 4)])
    # the energy square (2, 4) touches the current (2, 5), which runs to (5, 5)
    assert "tech" in tracks_named(game.state.energy_candidates(0, tile, o, x, y))
    cut = drawn("petra", {(6, 5): "t", (2, 5): "c"})  # a tile covers the current
    assert "tech" not in tracks_named(cut.state.energy_candidates(0, tile, o, x, y))


def tracks_named(indices: list[int]) -> list[str]:
    from pu_sim.rules.gamedata import TRACKS

    return [TRACKS[i] for i in indices]


@pytest.mark.parametrize("option", [True, False])
def test_petra_objectives_follow_the_currents_option(rules, option):
    land = {c: "c" for c in planet_of(rules, "petra").grid_squares}
    for c in squares_with(rules, "petra", "EQ"):
        del land[c]
    opts = RuleOptions(petra_currents_count_covered=option)
    game = drawn("petra", land, options=opts)
    assert game.state.objective_value(0, 64, "private") is option  # Coveralls
    #   rows 6-8, columns 1-3:  EEL / ELL / EEE  -- energy tiles on the three
    #   land squares complete a 3x3 of energy with the currents around them
    tiles = {(3, 6): "e", (2, 7): "e", (3, 7): "e"}
    block = {(x, y) for x in range(1, 4) for y in range(6, 9)}
    assert block == set(tiles) | (block & set(squares_with(rules, "petra", "EQ")))
    energy = drawn("petra", tiles, options=opts)
    assert energy.state.objective_value(0, 42, "private") is option  # Voltaic


# ---- Tartarus (3.12) ------------------------------------------------------------------


def test_tartarus_tiles_stay_on_one_side_of_the_chasm(rules):
    #   chasm row 1: ...AAABBB...
    game = drawn("tartarus", {(5, 2): "c", (6, 2): "c"})
    domino = civ_energy(rules, "domino")
    assert not covering(rules, domino, game, [(5, 1), (6, 1)])
    assert covering(rules, domino, game, [(4, 1), (5, 1)])
    assert covering(rules, domino, game, [(6, 1), (7, 1)])


def test_tartarus_rovers_never_cross_the_chasm(rules):
    game = drawn("tartarus", {(5, 2): "r", (6, 2): "r"})
    game.set_rovers(0, [(5, 2)], in_supply=0)
    game.state.set_player_int(0, "move_budget", 1)
    game.give(0)
    moves = game.legal_moves()
    assert step_move(0, 6, 2) not in moves
    assert step_move(0, 4, 2) in moves and step_move(0, 5, 1) in moves
