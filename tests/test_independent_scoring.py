"""Final scoring against the independent scorer (tests/independent_scoring.py).

Over the whole range of each rule rather than one point: every row and column
of all 13 planets, every Cerberus sub-planet and every one of its squares left
open, every Gaia city, Petra's currents both ways; every space of every track
of all 9 corporations (Oasis' 24 path steps, Makeshift's columns and tech 5,
Wormhole's levels, Jump Drive's falling tech medals); and every category of
every player of played games with random boards, bots and scoring options.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from independent_scoring import (
    cells_of,
    line_medals,
    planet_bonus,
    score,
    subplanet_squares,
    tracker_medals,
)

from pu_sim import Game
from pu_sim.rules import RuleOptions, load_game_data
from pu_sim.rules.gamedata import TRACKS
from pu_sim.testing import ScenarioGame, empty_drawing

DATA = load_game_data()
PLANETS = {p.key: p for p in DATA.planets}
CORPORATIONS = {c.key: c for c in DATA.corporations}
Cell = tuple[int, int]


def seat(planet: str = "ksb_4156", corporation: str = "universal_coalition",
         options: RuleOptions | None = None) -> ScenarioGame:  # fmt: skip
    return ScenarioGame(players=1, planets=planet, corporations=corporation,
                        bots="random", seed=0, options=options)  # fmt: skip


def draw(
    game: ScenarioGame,
    tiles: set[Cell],
    patches: set[Cell] = frozenset(),
    meteorites: set[Cell] = frozenset(),
) -> dict:
    """Set seat 0's planet (tile squares, patches, meteorites) and score it."""
    rows = [list(r) for r in empty_drawing(game.planet_of(0)).splitlines()]
    for x, y in tiles:
        rows[y][x] = "c"
    for x, y in patches:
        rows[y][x] = "p"
    game.set_planet(0, "\n".join("".join(r) for r in rows), meteorites=meteorites)
    game.state.score_now()
    return game.player(0)


# ---- A: every line of every planet -------------------------------------------------


@pytest.mark.parametrize("key", sorted(PLANETS))
def test_every_row_and_column_scores_its_medal_whole_blocked_or_short(key):
    planet = PLANETS[key]
    game = seat(key)
    lines = [(1, y, planet.row_medals[y]) for y in range(12)]
    lines += [(0, x, planet.col_medals[x]) for x in range(12)]
    for axis, index, medal in lines:
        line = {c for c in planet.grid_squares if c[axis] == index}
        assert line, (key, axis, index)  # every row and column has grid squares
        whole = draw(game, line)
        expected = line_medals(planet, line, set()) + planet_bonus(planet, line, set())
        assert whole["score_planet"] == expected, (key, axis, index)
        assert line_medals(planet, line, set()) >= medal
        for square in sorted(line):
            blocked = draw(game, line, meteorites={square})
            assert blocked["score_planet"] == line_medals(
                planet, line, {square}
            ) + planet_bonus(planet, line, set()), (key, axis, index, square)
        short = line - {min(line)}
        assert draw(game, short)["score_planet"] == line_medals(
            planet, short, set()
        ) + planet_bonus(planet, short, set())


@pytest.mark.parametrize("currents", [True, False])
def test_petra_lines_through_open_currents(currents):
    # planets.md 3.11: with the option, a line whose land is covered is complete
    petra = PLANETS["petra"]
    options = RuleOptions(petra_currents_count_covered=currents)
    game = seat("petra", options=options)
    land = {c for c in petra.grid_squares if petra.grid[c[1]][c[0]] not in "EQ"}
    for y in range(12):
        row_land = {c for c in land if c[1] == y}
        info = draw(game, row_land)
        expected = line_medals(petra, row_land, set(), options)
        assert info["score_planet"] == expected, y
        has_current = any(
            petra.grid[y][x] in "EQ" for x in range(12) if petra.is_grid(x, y)
        )
        if currents or not has_current:
            assert expected >= petra.row_medals[y], y
        else:
            assert expected == 0, y


@pytest.mark.parametrize("region", ["whole", "bga_boxes"])
def test_every_cerberus_subplanet_pays_alone_and_not_one_square_short(region):
    cerberus = PLANETS["cerberus"]
    options = RuleOptions(cerberus_bonus_region=region)
    game = seat("cerberus", options=options)
    whole = subplanet_squares(cerberus, RuleOptions())
    checked = subplanet_squares(cerberus, options)
    assert [len(s) for s in whole] == [28, 47, 21]  # planets.md section 5
    for s, squares in enumerate(whole):
        assert draw(game, squares)["score_planet_bonus"] == 2, s
        for square in sorted(squares):
            bonus = draw(game, squares - {square})["score_planet_bonus"]
            # the whole sub-planet must be covered; BGA's boxes skip some squares
            assert bonus == (0 if square in checked[s] else 2), (s, square)
            assert bonus == planet_bonus(cerberus, squares - {square}, set(), options)
    assert draw(game, set().union(*whole))["score_planet_bonus"] == 6


@pytest.mark.parametrize("patch_covers", [True, False])
def test_every_gaia_city_pays_two_until_covered(patch_covers):
    gaia = PLANETS["gaia"]
    options = RuleOptions(gaia_city_covered_by_patch=patch_covers)
    game = seat("gaia", options=options)
    cities = [c for c in gaia.grid_squares if gaia.grid[c[1]][c[0]] == "C"]
    assert len(cities) == 8 and draw(game, set())["score_planet_bonus"] == 16
    for city in cities:
        assert draw(game, {city})["score_planet_bonus"] == 14, city
        under_patch = draw(game, set(), patches={city})["score_planet_bonus"]
        assert under_patch == (14 if patch_covers else 16), city
    assert draw(game, set(cities))["score_planet_bonus"] == 0


@settings(max_examples=80)
@given(
    key=st.sampled_from(sorted(PLANETS)),
    picks=st.sets(st.integers(0, 95), max_size=96),
    patch_picks=st.sets(st.integers(0, 95), max_size=20),
    meteor_picks=st.sets(st.integers(0, 95), max_size=3),
    fill=st.booleans(),
    currents=st.booleans(),
    patch_covers=st.booleans(),
    region=st.sampled_from(["whole", "bga_boxes"]),
)
def test_any_planet_scores_as_the_independent_scorer(
    key, picks, patch_picks, meteor_picks, fill, currents, patch_covers, region
):
    planet = PLANETS[key]
    grid = planet.grid_squares
    covered = {grid[i % len(grid)] for i in picks}
    if fill:  # towards complete lines and regions
        covered = set(grid) - covered
    patches = {grid[i % len(grid)] for i in patch_picks} & covered
    tiles = covered - patches
    meteorites = {grid[i % len(grid)] for i in meteor_picks} & tiles
    options = RuleOptions(petra_currents_count_covered=currents,
                          gaia_city_covered_by_patch=patch_covers,
                          cerberus_bonus_region=region)  # fmt: skip
    info = draw(seat(key, options=options), tiles, patches, meteorites)
    bonus = planet_bonus(planet, covered, patches, options)
    assert info["score_planet_bonus"] == bonus
    assert (
        info["score_planet"]
        == line_medals(planet, covered, meteorites, options) + bonus
    )


# ---- B: every space of every track of every corporation ------------------------------


def tracks_score(game: ScenarioGame) -> int:
    game.state.score_now()
    return game.player(0)["score_tracks"]


@pytest.mark.parametrize("key", sorted(CORPORATIONS))
def test_every_track_position_scores_its_medal(key):
    corp = CORPORATIONS[key]
    game = seat(corporation=key)
    for name in TRACKS:
        top = len(corp.water_path) - 1 if name == "water" and corp.water_path else 15
        for pos in range(top + 1):
            game.set_tracks(0, dict.fromkeys(TRACKS, 0) | {name: pos})
            info = game.player(0)
            expected = sum(tracker_medals(corp, info))
            assert tracks_score(game) == expected, (name, pos)


def test_scoring_positions_agree_with_the_reference_tables():
    # the scorer itself, against corporations.md 1.1, 3.5, 3.7 and 3.9 verbatim
    def medals(key: str, name: str, top: int = 15) -> list[int]:
        corp = CORPORATIONS[key]
        base = dict.fromkeys(TRACKS, 0)
        return [
            tracker_medals(corp, {"track": [(base | {name: pos})[n] for n in TRACKS],
                                  "col": list(range(5)), "pod_on": [0] * 5})[
                TRACKS.index(name)]
            for pos in range(top + 1)
        ]  # fmt: skip

    uc = "universal_coalition"
    assert medals(uc, "civ") == [0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 5]
    assert medals(uc, "water") == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 7, 7, 10]
    assert medals(uc, "biomass") == [0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 5]
    assert medals(uc, "rover") == [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 5]
    assert medals(uc, "tech") == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 5]
    assert medals("jump_drive", "tech") == [0] + [5] * 5 + [3] * 2 + [2] * 3 + [1] * 5
    assert medals("oasis_ultd", "water", 23) == (
        [0] * 10 + [3] * 3 + [6] * 6 + [9] * 2 + [12] * 2 + [15]
    )
    wormhole = medals("wormhole_corp", "biomass")
    assert [wormhole[r] for r in (0, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15)] == (
        [0, 0, 0, 1, 1, 2, 2, 3, 3, 5, 5]
    )


@pytest.mark.parametrize("medal", [9, 8])
def test_oasis_row_11_medal_option(medal):
    corp = CORPORATIONS["oasis_ultd"]
    options = RuleOptions(oasis_row11_medal=medal)
    game = seat(corporation="oasis_ultd", options=options)
    for step in range(len(corp.water_path)):
        game.set_tracks(0, {"water": step})
        expected = sum(tracker_medals(corp, game.player(0), options))
        assert tracks_score(game) == expected, step
    game.set_tracks(0, {"water": 19})
    assert tracks_score(game) == medal


@settings(max_examples=60)
@given(
    rows=st.lists(st.integers(0, 15), min_size=5, max_size=5),
    cols=st.lists(st.integers(0, 4), min_size=5, max_size=5),
)
def test_makeshift_trackers_score_by_column_and_tech_5(rows, cols):
    corp = CORPORATIONS["makeshift"]
    game = seat(corporation="makeshift")
    game.set_tracks(0, dict(zip(TRACKS, rows, strict=True)))
    for t, col in enumerate(cols):
        game.state.set_column(0, t, col)
    info = game.player(0)
    assert info["col"] == cols
    assert tracks_score(game) == sum(tracker_medals(corp, info))


def test_makeshift_tech_5_starts_at_the_tech_columns_fifth_milestone():
    # one tracker low on the biomass column beside a high one; tech 5 lifts it
    game = seat(corporation="makeshift")
    game.set_tracks(0, {"civ": 0, "water": 0, "biomass": 2, "rover": 12, "tech": 13})
    game.state.set_column(0, 3, 2)  # the rover tracker on the biomass column, row 12
    low = tracks_score(game)
    game.set_tracks(0, {"tech": 14})
    # biomass' own tracker now scores row 12 (3 medals) instead of row 2 (0);
    # the tech tracker's own medal is 2 at rows 13 and 14 alike
    assert tracks_score(game) == low + 3


# ---- every category of played games -----------------------------------------------

SCORING_OPTIONS = st.builds(
    RuleOptions,
    petra_currents_count_covered=st.booleans(),
    gaia_city_covered_by_patch=st.booleans(),
    cerberus_bonus_region=st.sampled_from(["whole", "bga_boxes"]),
    oasis_row11_medal=st.sampled_from([9, 8]),
    space_citizen_decree_counts=st.sampled_from(["scoring_lifepods", "all_collected"]),
    private_objectives=st.booleans(),
)


@settings(max_examples=40)
@given(
    players=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    bots=st.sampled_from(["random", "greedy"]),
    options=SCORING_OPTIONS,
)
def test_played_games_score_as_the_independent_scorer(players, seed, bots, options):
    if players == 1:  # the multiplayer module is refused in a solo game
        options = dataclasses.replace(options, private_objectives=False)
    game = Game(players=players, corporations="random", planets="random", bots=bots,
                seed=seed, options=options)  # fmt: skip
    game.play()
    for p in range(players):
        info = game.player(p)
        expected = score(DATA, info, options)
        assert {k: info[k] for k in expected} == expected, (p, game.board_names(p))
        categories = sum(v for k, v in expected.items() if k != "score_planet_bonus")
        assert info["score"] == categories + info["score_objectives"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_many_played_games_score_as_the_independent_scorer(players):
    for seed in range(150):
        game = Game(players=players, corporations="random", planets="random",
                    bots="greedy" if seed % 2 else "random", seed=seed)  # fmt: skip
        game.play()
        for p in range(players):
            info = game.player(p)
            expected = score(DATA, info)
            assert {k: info[k] for k in expected} == expected, (seed, p)


def test_cells_of_reads_row_masks():
    assert cells_of([0b101] + [0] * 10 + [1 << 11]) == {(0, 0), (2, 0), (11, 11)}
