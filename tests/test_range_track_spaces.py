"""What every track space grants (rules.md 8.3 TR-1, corporations.md 2.3 and 2.6).

A tracker entering a space claims every non-medal token printed there: synergy
boosts, biomass patches, a rover, rover movement, a civ milestone of its rank,
a tech milestone.  Each test puts a tracker one space below, advances it once
and compares what the player was given with the space in the data (itself
checked against the reference in test_game_data.py): every space of every
track of all nine corporations, Flux's improved tracks, every step of Oasis'
water path, every column a Makeshift tracker may enter, both halves of every
Wormhole biomass level, and the rover track's repeat above its top.
"""

from __future__ import annotations

import pytest

from pu_sim.rules import load_game_data
from pu_sim.rules.gamedata import TRACKS, Corporation, Space
from pu_sim.testing import ScenarioGame, marked_drawing

DATA = load_game_data()
CORPORATIONS = {c.key: c for c in DATA.corporations}
CIV, WATER, BIOMASS, ROVER, TECH = range(5)
LAST_TILE = [(5, 5), (6, 5)]  # a rover milestone's rover goes on (6, 5)


def board(key: str) -> ScenarioGame:
    """A solo game: one rover on the last tile, one more in supply, trackers at 0."""
    game = ScenarioGame(players=1, corporations=key, bots="random", seed=0)
    covered = dict.fromkeys(LAST_TILE, "c")
    game.set_planet(0, marked_drawing(game.planet_of(0), covered), last_tile=LAST_TILE)
    game.set_rovers(0, [(5, 5)], in_supply=1)
    return game


def rovers_out(game: ScenarioGame) -> int:
    return sum(status == 2 for status, _, _ in game.player(0)["rovers"])


def granted(game: ScenarioGame, rovers_before: int) -> dict[str, object]:
    """What the last advance gave: pending items, the decision asked, counters."""
    info = game.player(0)
    kinds = [kind for kind, *_ in info["items"]]
    decision = game.decision
    return {
        "synergy": kinds.count("synergy") + (decision == "synergy"),
        "patches": kinds.count("patch") + (decision == "patch"),
        "rover": kinds.count("rover") + (decision == "rover_place")
        + rovers_out(game) - rovers_before,
        "move": info["move_budget"],
        "civ": info["owed"],
    }  # fmt: skip


def claims(space: Space, move_bonus: int = 0) -> dict[str, object]:
    """What entering a space must give (targeted synergies are checked apart)."""
    return {
        "synergy": 0 if space.synergy_target else space.synergy,
        "patches": space.patches,
        "rover": int(space.rover),
        "move": space.move + (move_bonus if space.move else 0),
        "civ": [space.civ_rank] if space.civ_rank else [],
    }


def tech_level(corp: Corporation, pos: int) -> int:
    return sum(1 for s in corp.tracks["tech"].spaces[: pos + 1] if s.tech_level)


def advance(game: ScenarioGame, t: int, pos: int) -> int:
    """Put tracker t on pos - 1 and advance it once; the rovers out before."""
    game.set_tracks(0, {TRACKS[t]: pos - 1})
    before = rovers_out(game)
    game.give(0, ("advance", t, 1, 0))
    return before


STRAIGHT = [
    (c.key, name)
    for c in DATA.corporations
    for name in TRACKS
    if not (c.key == "oasis_ultd" and name == "water")  # the path, below
    and not (c.key == "wormhole_corp" and name == "biomass")  # the branch, below
    and c.key != "makeshift"  # lanes, below
]


@pytest.mark.parametrize(("key", "name"), STRAIGHT)
def test_every_space_of_a_straight_track_gives_what_is_printed(key, name):
    corp = CORPORATIONS[key]
    t = TRACKS.index(name)
    for pos in range(1, 16):
        game = board(key)
        before = advance(game, t, pos)
        assert game.tracks(0)[name] == pos
        space = corp.tracks[name].spaces[pos]
        assert granted(game, before) == claims(space), (name, pos)
        assert game.player(0)["tech_level"] == (
            tech_level(corp, pos) if t == TECH else 0
        )


@pytest.mark.parametrize("key", sorted(CORPORATIONS))
def test_the_topped_rover_tracker_repeats_its_top_movement(key):
    corp = CORPORATIONS[key]
    game = board(key)
    game.set_tracks(0, {"rover": 15})
    game.give(0, ("advance", ROVER, 1, 0))
    if game.decision == "direction":  # Makeshift: the top repeat is its own move
        repeat = [m for m in game.legal_moves() if "repeat" in game.describe(m)]
        assert len(repeat) == 1
        game.apply(repeat[0])
    assert game.tracks(0)["rover"] == 15
    assert corp.tracks["rover"].beyond_top is not None
    assert game.player(0)["move_budget"] == corp.tracks["rover"].beyond_top.move


@pytest.mark.parametrize("name", ["civ", "water", "biomass", "rover"])
def test_flux_improved_tracks_give_their_improved_spaces(name):
    # tech 3 improves the flux track's spaces (corporations.md 3.3)
    corp = CORPORATIONS["flux_industries"]
    t = TRACKS.index(name)
    for pos in range(1, 16):
        game = board("flux_industries")
        game.state.set_player_int(0, "flux_track", t)
        game.set_tracks(0, {"tech": 7})  # tech 3, the active one
        before = advance(game, t, pos)
        space = corp.improved_tracks[name].spaces[pos]
        assert granted(game, before) == claims(space), (name, pos)


def test_every_step_of_the_oasis_water_path_claims_its_space():
    # corporations.md 3.7: the water tracker claims the benefit of the space it
    # lands on, whichever track the path crosses there
    corp = CORPORATIONS["oasis_ultd"]
    assert len(corp.water_path) == 24
    for step in range(1, 24):
        game = board("oasis_ultd")
        before = advance(game, WATER, step)
        assert game.tracks(0)["water"] == step
        track, row = corp.water_path[step]
        space = corp.tracks[track].spaces[row]
        assert granted(game, before) == claims(space), step


def test_the_oasis_path_benefits_are_the_references():
    # corporations.md 3.7, the path table: synergy at steps 2, 7, 9, 12 and 18,
    # movement 1 at step 3 and 2 at steps 5, 15 and 17, nothing elsewhere
    corp = CORPORATIONS["oasis_ultd"]
    got = {}
    for step, (track, row) in enumerate(corp.water_path):
        space = corp.tracks[track].spaces[row]
        if space.synergy or space.move:
            got[step] = (
                ("synergy", space.synergy) if space.synergy else ("move", space.move)
            )
    assert got == {2: ("synergy", 1), 3: ("move", 1), 5: ("move", 2),
                   7: ("synergy", 1), 9: ("synergy", 1), 12: ("synergy", 1),
                   15: ("move", 2), 17: ("move", 2), 18: ("synergy", 1)}  # fmt: skip


@pytest.mark.parametrize("name", TRACKS)
def test_a_makeshift_tracker_claims_the_space_of_the_column_it_enters(name):
    # corporations.md 3.6: straight or diagonally up; the printed space decides
    corp = CORPORATIONS["makeshift"]
    t = TRACKS.index(name)
    lanes = {t} | {c for c in (t - 1, t + 1) if 0 <= c < 5}
    for pos in range(1, 16):
        neighbours = set(lanes)
        if t == TECH and tech_level(corp, pos - 1) >= 1:
            neighbours.add(CIV)  # tech 1: civ and tech are neighbours
        for column in sorted(neighbours):
            game = board("makeshift")
            game.set_tracks(0, {name: pos - 1})
            before = rovers_out(game)
            game.give(0, ("advance", t, 1, 0))
            assert game.decision == "direction", (name, pos)
            # up moves (tech 3's sideways shifts, from tech space 7, are others)
            up = {m & 7: m for m in game.legal_moves() if "up onto" in game.describe(m)}
            assert set(up) == neighbours, (name, pos)
            game.apply(up[column])
            info = game.player(0)
            assert (info["col"][t], info["track"][t]) == (column, pos)
            space = corp.tracks[TRACKS[column]].spaces[pos]
            assert granted(game, before) == claims(space), (name, column, pos)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("half", [0, 1])
def test_every_wormhole_biomass_level_gives_the_half_taken(level, half):
    # corporations.md 3.9: level k is rows 3k - 1 (A) and 3k (B); A is a synergy
    # (level 1: any tracker; then civ, water, tech, rover), B a patch
    corp = CORPORATIONS["wormhole_corp"]
    game = board("wormhole_corp")
    game.set_tracks(0, {"biomass": 0 if level == 1 else 3 * (level - 1)})
    before = rovers_out(game)
    game.give(0, ("advance", BIOMASS, 1, 0))
    assert game.decision == "branch" and sorted(game.legal_moves()) == [0, 1]
    game.apply(half)
    assert game.tracks(0)["biomass"] == 3 * level - 1 + half
    space = corp.biomass_levels[level][half]
    target = space.synergy_target
    if target:
        # the targeted synergy advances its tracker at once (claiming its space)
        assert game.tracks(0)[target] == 1
        assert granted(game, before) == claims(corp.tracks[target].spaces[1])
    else:
        assert granted(game, before) == claims(space)
    expected = [("synergy", ""), ("synergy", "civ"), ("synergy", "water"),
                ("synergy", "tech"), ("synergy", "rover")][level - 1]  # fmt: skip
    if half == 0:
        assert (space.synergy, space.synergy_target) == (1, expected[1])
    else:
        assert (space.patches, space.synergy) == (1, 0)
