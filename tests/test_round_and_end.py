"""The round (rules.md 4, 5.2), the end (9.1-9.3), scoring (9.4), ties (9.5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pu_sim.rules import RuleOptions
from pu_sim.testing import ScenarioGame, empty_drawing, tile_id

DONE = 0xFFFF


def fill_planet(
    rules, game: ScenarioGame, p: int, leave: set[tuple[int, int]] = frozenset()
) -> None:
    """Cover every grid square of player p's planet except `leave`."""
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for x, y in rules.data.planets[0].grid_squares:
        if (x, y) not in leave:
            rows[y][x] = "c"
    game.set_planet(p, "\n".join("".join(r) for r in rows))


def to_first_draft(game: ScenarioGame) -> ScenarioGame:
    """Let the bots settle setup choices (solo private objectives) and reach round 1."""
    while game.decision not in ("place", "rotation", "no_place"):
        game.step()
    return game


def play_round(game: ScenarioGame) -> None:
    """Let the bots play until the next round starts (or the game ends)."""
    to_first_draft(game)
    start = game.fields()["round"]
    while not game.is_terminal and game.fields()["round"] == start:
        game.step()


# ---- 5.2 rotation --------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2])
def test_solo_and_two_player_station_turns_one_depot_clockwise_each_round(players):
    # SS-5/SS-6: r <- r - 1 (mod 6) at the start of every round, round 1 included
    options = RuleOptions(initial_rotation=4, event_deck=False)
    game = to_first_draft(
        ScenarioGame(players=players, bots="greedy", seed=2, options=options)
    )
    rotations = [game.fields()["rotation"]]
    for _ in range(4):
        play_round(game)
        rotations.append(game.fields()["rotation"])
    assert rotations == [3, 2, 1, 0, 5]
    if players == 2:
        assert {game.state.facing_depot(0), game.state.facing_depot(1)} == {
            5,
            (5 + 3) % 6,
        }


def test_two_players_without_the_variant_let_the_commander_choose():
    game = ScenarioGame(
        players=2, seed=2, options=RuleOptions(two_player_fixed_rotation=False)
    )
    assert (game.decision, game.decider) == ("rotation", 0)
    assert game.legal_moves() == [0, 1, 2, 3, 4, 5]


def test_commander_chooses_any_rotation_and_the_token_passes_clockwise():
    # SS-3, rules.md 4.1 and 4.7
    game = ScenarioGame(players=4, bots="greedy", seed=3)
    commanders = []
    for _ in range(5):
        assert game.decision == "rotation"
        commanders.append(game.decider)
        game.apply(5)
        assert game.fields()["rotation"] == 5
        play_round(game)
    assert commanders == [0, 1, 2, 3, 0]


def test_draft_goes_clockwise_from_the_commander_with_each_player_resolving_fully():
    game = ScenarioGame(players=3, bots="greedy", seed=4)
    game.state.set_game_int("commander", 2)
    game.start_round()
    game.apply(0)
    order = []
    while game.decision != "rotation":
        if game.decision == "place":
            order.append(game.decider)
        game.step()
    assert order == [2, 0, 1]


# ---- 9.1 triggers --------------------------------------------------------------------


def test_trigger_a_the_round_is_finished_and_then_the_game_ends(rules):
    # a player who cannot place takes a tile unplaced; the others still place
    game = ScenarioGame(players=2, bots="greedy", seed=5)
    fill_planet(rules, game, 1)
    game.start_round()
    f = game.fields()
    assert f["last_round"] == 1 and f["end_trigger"] == "cannot_place"
    placed_before = game.player(0)["tiles_placed"]
    while not game.is_terminal:
        game.step()
    assert game.player(0)["tiles_placed"] == placed_before + 1
    assert game.player(1)["tiles_unplaced"] == 1
    assert game.fields()["round"] == f["round"]


def test_trigger_b_an_empty_depot_ends_the_game_after_the_round(rules):
    game = to_first_draft(ScenarioGame(players=1, bots="greedy", seed=6))
    # empty both stacks of a depot nobody faces this round
    far = (game.state.facing_depot(0) + 3) % 6
    game.state.set_stack_pos(game.state.depot_stack(far, 0), 12)
    game.state.set_stack_pos(game.state.depot_stack(far, 1), 12)
    play_round(game)
    assert game.is_terminal
    assert game.fields()["end_trigger"] == "depot_empty"


def test_one_empty_stack_is_not_enough_and_the_other_tile_must_be_taken(rules):
    game = to_first_draft(
        ScenarioGame(
            players=1, bots="greedy", seed=7, options=RuleOptions(event_deck=False)
        )
    )
    depot = (game.state.facing_depot(0) - 1) % 6  # faced next round
    game.state.set_stack_pos(game.state.depot_stack(depot, 1), 12)
    play_round(game)
    assert not game.is_terminal
    assert game.decision == "place"
    assert all((m >> 12) & 1 == 0 for m in game.legal_moves())  # small stack only


def test_stored_patches_are_placed_in_the_end_phase(rules):
    # 9.3: stored patches placed under the normal rules before scoring
    game = ScenarioGame(players=1, bots="random", seed=8)
    fill_planet(rules, game, 0, leave={(5, 5), (6, 5)})
    game.state.set_player_int(0, "stored_patches", 3)
    game.start_stage("end_effects")
    placed = 0
    while game.decision == "patch":
        assert 255 not in game.legal_moves()  # no storing again
        game.apply(game.legal_moves()[0])
        placed += 1
    assert game.is_terminal
    info = game.player(0)
    # a choice of two squares, then the last square without a choice, then lost
    assert (placed, info["patches_placed"], info["patches_lost"]) == (1, 2, 1)
    assert info["uncovered"] == 0


# ---- 9.4 scoring ---------------------------------------------------------------------


def test_complete_rows_and_columns_score_their_medals_unless_a_meteorite(rules):
    game = ScenarioGame(players=1, bots="random", seed=9)
    # cover row 5 (medal 3) and column 0 (medal 1: rows 5-6 only)
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for x in range(12):
        rows[5][x] = "c"
    rows[6][0] = "c"
    game.set_planet(0, "\n".join("".join(r) for r in rows))
    game.state.score_now()
    assert game.player(0)["score_planet"] == 3 + 1
    game.set_planet(0, "\n".join("".join(r) for r in rows), meteorites=[(0, 6)])
    game.state.score_now()
    assert game.player(0)["score_planet"] == 3  # column 0 blocked, row 6 incomplete
    game.set_planet(0, "\n".join("".join(r) for r in rows), meteorites=[(0, 5)])
    game.state.score_now()
    assert game.player(0)["score_planet"] == 0  # row 5 and column 0 blocked


def test_a_full_planet_without_meteorites_scores_40(rules):
    game = ScenarioGame(players=1, bots="random", seed=9)
    fill_planet(rules, game, 0)
    game.state.score_now()
    assert game.player(0)["score_planet"] == 40


def reference_planet_score(planet, covered: set, meteorites: set) -> int:
    """A small independent scorer (DESIGN 4.12, msgpack's dual-implementation idea)."""
    total = 0
    for axis, medals in ((1, planet.row_medals), (0, planet.col_medals)):
        for line in range(12):
            squares = [c for c in planet.grid_squares if c[axis] == line]
            if not squares or not all(c in covered for c in squares):
                continue
            if any(m[axis] == line for m in meteorites):
                continue
            total += medals[line]
    return total


@given(
    st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=144),
    st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=4),
    st.booleans(),
)
def test_planet_score_matches_an_independent_scorer(rules, squares, meteorites, fill):
    planet = rules.data.planets[0]
    covered = {c for c in squares if planet.is_grid(*c)}
    if fill:  # bias towards complete lines
        covered = set(planet.grid_squares) - covered
    mets = {m for m in meteorites if m in covered}
    rows = [list(r) for r in empty_drawing(planet).splitlines()]
    for x, y in covered:
        rows[y][x] = "c"
    game = ScenarioGame(players=1, bots="random", seed=0)
    game.set_planet(0, "\n".join("".join(r) for r in rows), meteorites=mets)
    game.state.score_now()
    assert game.player(0)["score_planet"] == reference_planet_score(
        planet, covered, mets
    )


# ---- 9.5 ties ------------------------------------------------------------------------


def test_ties_break_on_uncovered_squares_then_meteorites_then_share(rules):
    game = ScenarioGame(players=3, bots="random", seed=10)
    base = empty_drawing(rules.data.planets[0])
    one = base.replace(".", "c", 3)
    two = base.replace(".", "c", 4)
    game.set_planet(0, one, meteorites=[])
    game.set_planet(1, two)  # fewer uncovered squares
    game.set_planet(2, one)
    game.state.score_now()
    scores = [game.player(p)["score"] for p in range(3)]
    assert len(set(scores)) == 1  # equal medals (no complete lines, nothing else)
    assert [game.player(p)["rank"] for p in range(3)] == [2, 1, 2]  # shared second
    first_sq = rules.data.planets[0].grid_squares[0]
    game.set_planet(2, one, meteorites=[first_sq])  # same squares, one meteorite left
    game.state.score_now()
    assert [game.player(p)["rank"] for p in range(3)] == [2, 1, 3]


def test_scores_are_the_sum_of_categories_and_the_winner_ranks_first():
    game = ScenarioGame(players=4, bots="greedy", seed=11)
    game.play()
    scores = game.scores()
    for s in scores:
        parts = ("score_planet", "score_tracks", "score_lifepods", "score_meteorites",
                 "score_civ", "score_objectives")  # fmt: skip
        assert s["score"] == sum(s[k] for k in parts)
    best = max(s["score"] for s in scores)
    winners = [s for s in scores if s["rank"] == 1]
    assert winners and all(s["score"] == best for s in winners)


def test_tile_ids_used_in_tests_exist(rules):
    assert tile_id(rules, "domino", "civ", "energy") in range(144)
