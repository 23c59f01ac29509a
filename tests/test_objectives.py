"""Objective cards (rules.md 3.5, 9.4 E-F; cards.md 6-7): dealing, every card's
two sides against an independent implementation of the glossary, and scoring."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pu_sim
from pu_sim.rules import RuleOptions
from pu_sim.rules.gamedata import TERRAINS, TRACKS
from pu_sim.rules.planet_text import TERRAIN_CHARS
from pu_sim.testing import ScenarioGame, empty_drawing

Cell = tuple[int, int]


# ---- an independent reading of the glossary (cards.md 7) ---------------------------


def areas(squares: set[Cell]) -> list[set[Cell]]:
    """Orthogonally connected groups."""
    left, out = set(squares), []
    while left:
        stack = [left.pop()]
        group = set(stack)
        while stack:
            x, y = stack.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.remove(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out


def board_of(game: ScenarioGame, p: int = 0) -> dict:
    info = game.player(p)

    def cells(rows):
        return {(x, y) for y in range(12) for x in range(12) if rows[y] >> x & 1}

    return {
        "terr": {t: cells(info["terr"][i]) for i, t in enumerate(TERRAINS)},
        "icon": {t: cells(info["icon"][i]) for i, t in enumerate(TERRAINS)},
        "occ": cells(info["occ"]),
        "track": dict(zip(TRACKS, info["track"], strict=True)),
        "lifepod": info["lifepods_collected"],
        "meteorite": info["meteorites_collected"],
    }


def reference_measure(side, board, planet) -> int:
    prm = dict(side.params)
    edge = set(planet.edge_squares)
    if side.kind == "count_resources_on_edge":
        return len(board["icon"][prm["resource"]] & edge)
    if side.kind == "largest_terrain_area_size":
        return max((len(a) for a in areas(board["terr"][prm["terrain"]])), default=0)
    if side.kind == "terrain_area_count":
        return len(areas(board["terr"][prm["terrain"]]))
    if side.kind == "count_resources_on_planet":
        return len(board["icon"][prm["resource"]])
    if side.kind == "trackers_at_maximum_count":
        return sum(board["track"][t] == 15 for t in prm["tracks"])
    if side.kind == "collected_count":
        return board[prm["item"]]
    raise AssertionError(side.kind)


def reference_met(side, board, planet) -> bool:
    prm = dict(side.params)
    grid = set(planet.grid_squares)
    ice = set(planet.ice_squares)
    if side.kind == "has_solid_rectangle":
        t = board["terr"][prm["terrain"]]
        shapes = {(prm["width"], prm["height"])}
        if prm["either_orientation"]:
            shapes.add((prm["height"], prm["width"]))
        return any(
            all(
                (x + i, y + j) in t and (x + i, y + j) in grid
                for i in range(w)
                for j in range(h)
            )
            for w, h in shapes
            for x in range(12)
            for y in range(12)
        )
    if side.kind == "has_terrain_area_with_resources":
        icons = board["icon"][prm["resource"]]
        return any(len(a & icons) >= prm["min_resources"]
                   for a in areas(board["terr"][prm["terrain"]]))  # fmt: skip
    if side.kind == "tracker_at_maximum":
        return board["track"][prm["track"]] == 15
    if side.kind == "resource_count_at_most":
        return len(board["icon"][prm["resource"]]) <= prm["max"]
    if side.kind == "collected_at_least":
        return board[prm["item"]] >= prm["min"]
    if side.kind == "collected_greater_than":
        return board[prm["more"]] > board[prm["less"]]
    if side.kind == "no_uncovered_ice":
        return ice <= board["occ"]
    if side.kind == "no_uncovered_land":
        return (grid - ice) <= board["occ"]
    raise AssertionError(side.kind)


def check_all_cards(rules, game: ScenarioGame, p: int = 0) -> None:
    board = board_of(game, p)
    planet = game.planet_of(p)
    for card in rules.data.objectives:
        got = game.state.objective_value(p, card.id, "neighbour")
        assert got == reference_measure(card.neighbour, board, planet), (
            card.neighbour.name
        )
        met = game.state.objective_value(p, card.id, "private")
        assert met == reference_met(card.private, board, planet), card.private.name


def drawn(rules, text: str | None = None, *, players: int = 1, **kw) -> ScenarioGame:
    game = ScenarioGame(players=players, bots="random", seed=0, **kw)
    if text is not None:
        for p in range(players):
            game.set_planet(p, text)
    return game


# ---- every card, both sides ---------------------------------------------------------------


DRAWN = """
-----cC-----
---CcCcW~---
--eEe~.bBB--
-eEE..WWwbb-
-.EE..Www.b-
cCcrrRWwwwpp
cccrRr.ttTpp
-.CrR~tTTt.-
-..~~..tt..-
--.~....bB--
---~.....---
-----..-----
"""


def test_every_card_on_a_drawn_planet(rules):
    game = drawn(rules, DRAWN)
    game.set_tracks(0, {"civ": 15, "water": 15, "rover": 12})
    game.state.set_player_int(0, "lifepods_collected", 3)
    game.state.set_player_int(0, "meteorites_collected", 9)
    check_all_cards(rules, game)


def test_every_card_on_an_empty_planet(rules):
    # the low end of every measure: no area, no icon, nothing collected
    game = drawn(rules)
    assert not any(board_of(game, 0)["occ"])
    check_all_cards(rules, game)


def test_known_answers_on_the_drawn_planet(rules):
    # worked by hand from the drawing above
    game = drawn(rules, DRAWN)
    v = game.state.objective_value
    assert v(0, 37, "neighbour") == 2  # civ icons on edge squares: (6,0), (3,1)
    assert v(0, 45, "neighbour") == 7  # largest civ area: rows 5-7 at the left
    assert v(0, 50, "neighbour") == 1  # the energy squares form one area
    assert v(0, 42, "neighbour") == 10  # largest biomass area, patches included
    assert v(0, 48, "neighbour") == 2  # biomass areas
    assert v(0, 60, "private") is True  # exactly 5 energy icons: "no more than 5"
    assert v(0, 37, "private") is False  # no 3x3 civ block


@given(st.data())
def test_every_card_on_random_boards(rules, data):
    planet = rules.data.planets[0]
    rows = [list(r) for r in empty_drawing(planet).splitlines()]
    for x, y in planet.grid_squares:
        ch = data.draw(
            st.sampled_from(
                [".", "c", "w", "b", "r", "t", "e", "C", "W", "B", "R", "T", "E", "p"]
            )
        )
        rows[y][x] = ch
    game = drawn(rules, "\n".join("".join(r) for r in rows))
    tracks = data.draw(st.lists(st.integers(0, 15), min_size=5, max_size=5))
    game.set_tracks(0, dict(zip(TRACKS, tracks, strict=True)))
    game.state.set_player_int(0, "lifepods_collected", data.draw(st.integers(0, 6)))
    game.state.set_player_int(0, "meteorites_collected", data.draw(st.integers(0, 12)))
    check_all_cards(rules, game)


def test_every_card_on_real_end_of_game_planets(rules):
    for seed in range(6):
        game = ScenarioGame(players=2, bots="greedy", seed=seed)
        game.play()
        for p in range(2):
            check_all_cards(rules, game, p)


@pytest.mark.parametrize(("w", "h", "ok"), [(3, 3, True), (3, 2, False)])
def test_a_rectangle_needs_every_square(rules, w, h, ok):
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for x in range(4, 4 + w):
        for y in range(4, 4 + h):
            rows[y][x] = "t"
    game = drawn(rules, "\n".join("".join(r) for r in rows))
    assert game.state.objective_value(0, 38, "private") is ok  # Rubik: 3x3 tech


def test_two_by_five_counts_in_either_orientation(rules):
    for cells in ([(x, y) for x in (5, 6) for y in range(2, 7)],
                  [(x, y) for x in range(3, 8) for y in (5, 6)]):  # fmt: skip
        rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
        for x, y in cells:
            rows[y][x] = "c"
        game = drawn(rules, "\n".join("".join(r) for r in rows))
        assert game.state.objective_value(0, 49, "private") is True  # Skyway: 2x5 civ


def test_six_icons_must_share_one_area(rules):
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for x in range(2, 10):
        rows[5][x] = "W" if x != 6 else "."  # two separate areas: 4 + 3 icons
    game = drawn(rules, "\n".join("".join(r) for r in rows))
    assert game.state.objective_value(0, 46, "private") is False  # Amazon
    rows[5][6] = "w"
    game = drawn(rules, "\n".join("".join(r) for r in rows))
    assert game.state.objective_value(0, 46, "private") is True


def test_patches_are_biomass_and_cover_for_the_coverage_cards(rules):
    # cards.md A6
    planet = rules.data.planets[0]
    rows = [list(r) for r in empty_drawing(planet).splitlines()]
    for x, y in planet.ice_squares:
        rows[y][x] = "p"
    game = drawn(rules, "\n".join("".join(r) for r in rows))
    assert game.state.objective_value(0, 63, "private") is True  # Meltdown
    assert game.state.objective_value(0, 48, "neighbour") == len(
        areas(set(planet.ice_squares))
    )  # biomass areas made of patches


# ---- dealing ---------------------------------------------------------------------------------


def test_solo_draws_four_and_keeps_three(rules):
    game = ScenarioGame(players=1, bots="greedy", seed=4)
    assert game.decision == "objective_discard"
    dealt = game.player(0)["dealt_objectives"]
    assert len(dealt) == 4 and sorted(m + 37 for m in game.legal_moves()) == sorted(
        dealt
    )
    game.step()
    kept = game.player(0)["private_objectives"]
    assert len(kept) == 3 and set(kept) < set(dealt)
    assert game.fields()["neighbour_objectives"] == []


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_neighbour_cards_and_the_private_module(rules, players):
    game = ScenarioGame(players=players, bots="greedy", seed=5,
                options=RuleOptions(private_objectives=True))  # fmt: skip
    for p in range(players):
        assert game.decision == "objective_discard" and game.decider == p
        assert len(game.legal_moves()) == 2
        game.step()
    neighbours = game.fields()["neighbour_objectives"]
    assert len(neighbours) == (3 if players == 2 else players)
    privates = [c for p in range(players) for c in game.player(p)["private_objectives"]]
    assert all(len(game.player(p)["private_objectives"]) == 1 for p in range(players))
    cards = neighbours + privates
    assert len(set(cards)) == len(cards)  # a card is only ever used on one side


@pytest.mark.parametrize(
    ("players", "module"),
    [(1, False)] + [(n, m) for n in range(2, 7) for m in (True, False)],
)
def test_every_objective_card_is_dealt_on_the_table_or_still_in_the_deck(
    rules, players, module
):
    # the deal takes cards off the top in turn: none is lost, none used twice
    game = ScenarioGame(players=players, bots="greedy", seed=players,
                        options=RuleOptions(private_objectives=module))  # fmt: skip
    fields = game.fields()
    dealt = [c for p in range(players) for c in game.player(p)["dealt_objectives"]]
    cards = dealt + fields["neighbour_objectives"] + fields["objective_deck"]
    assert sorted(cards) == [o.id for o in rules.data.objectives]
    assert len(dealt) == (4 if players == 1 else 2 * players if module else 0)


def test_without_the_module_multiplayer_has_no_private_objectives():
    game = ScenarioGame(players=3, bots="greedy", seed=6)
    assert game.decision != "objective_discard"
    assert game.player(0)["private_objectives"] == []


# ---- scoring --------------------------------------------------------------------------------


def test_neighbour_cards_pay_five_to_the_better_and_two_each_on_a_tie(rules):
    # 3 players: card k sits between seats k and k + 1
    game = drawn(rules, players=3)
    texts = {
        0: empty_drawing(rules.data.planets[0]).replace(".", "C", 5),
        1: empty_drawing(rules.data.planets[0]).replace(".", "C", 3),
        2: empty_drawing(rules.data.planets[0]).replace(".", "C", 3),
    }
    for p, text in texts.items():
        game.set_planet(p, text)
    # 59 "Rural": fewer civ icons wins; 45 "Megacity": larger civ area wins
    game.set_objectives(0, [], neighbour=[59, 59, 45])
    game.state.score_now()
    s = [game.player(p)["score_neighbour"] for p in range(3)]
    # card 0 (p0 vs p1): p1 fewer icons -> 5; card 1 (p1 vs p2): tie -> 2 + 2;
    # card 2 (p2 vs p0): p0 has the larger civ area -> 5
    assert s == [5, 5 + 2, 2]


def test_two_players_compare_on_all_three_cards(rules):
    game = drawn(rules, players=2)
    game.set_planet(0, empty_drawing(rules.data.planets[0]).replace(".", "C", 2))
    game.set_objectives(
        0, [], neighbour=[59, 54, 45]
    )  # fewer civ, fewer tech, civ area
    game.state.score_now()
    assert game.player(0)["score_neighbour"] == 0 + 2 + 5
    assert game.player(1)["score_neighbour"] == 5 + 2 + 0


def test_private_cards_pay_five_each_when_met(rules):
    game = drawn(rules, empty_drawing(rules.data.planets[0]).replace(".", "c"))
    game.set_tracks(0, {"civ": 15})
    game.set_objectives(0, [64, 55, 56])  # Coveralls, Crowd Source (civ top), Exponient
    game.state.score_now()
    info = game.player(0)
    assert info["score_private"] == 10 and sorted(info["private_met"]) == [55, 64]
    assert info["score_objectives"] == 10


def test_objectives_are_in_the_frame(rules):
    frame = pu_sim.simulate(50, players=3, bots="greedy", seed=7)
    assert (
        frame["score_objectives"] == frame["score_private"] + frame["score_neighbour"]
    ).all()
    assert frame["neighbour_cards"].list.len().eq(2).all()
    import polars as pl

    games = frame.group_by("game_id").agg(pl.col("score_neighbour").sum().alias("paid"))
    # three cards per game, each paying 5 (a winner) or 4 (a tie)
    assert games["paid"].is_between(12, 15).all()


def test_terrain_letters_match_the_engine():
    assert len(TERRAIN_CHARS) == len(TERRAINS)
