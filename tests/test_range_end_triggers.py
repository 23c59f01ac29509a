"""The end triggers over their whole range (rules.md 9.1), not at one point.

* B, an emptied depot: every one of the six depots, faced by a player or by
  nobody, whatever the interior ring's offset; one stack short is never enough.
  Which stacks make a depot is taken from the rules (ST-5: depot d is exterior
  slot d and interior slot (d + shift) mod 6), not from the engine.
* A, a player who cannot place: every seat of 1-4 players.
* C, the event deck: every position of the deck; only its last card ends it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pu_sim.rules import RuleOptions
from pu_sim.testing import ScenarioGame, empty_drawing

EMPTY = 12  # a stack's position once its 12 tiles are gone


def small_stack(game: ScenarioGame, depot: int) -> int:
    """Interior slot (depot + shift) mod 6: stacks 0-5 are the interior ring."""
    return (depot + game.fields()["shift"]) % 6


def large_stack(depot: int) -> int:
    """Exterior slot `depot`: stacks 6-11 are the exterior ring."""
    return 6 + depot


def first_placement(game: ScenarioGame) -> ScenarioGame:
    """Let the bots act until the round's first tile decision."""
    while game.decision not in ("place", "no_place"):
        game.step()
    return game


def finish_round(game: ScenarioGame) -> None:
    """Let the bots play until the next round starts (or the game ends)."""
    start = game.fields()["round"]
    while not game.is_terminal and game.fields()["round"] == start:
        game.step()


def facing(game: ScenarioGame, depot: int) -> int | None:
    """The player whose seat faces the depot this round (ST-6/ST-7), if any."""
    f = game.fields()
    seats = game.rules.data.station.seats[f["n_players"] - 1]
    return next(
        (p for p, seat in enumerate(seats) if (seat + f["rotation"]) % 6 == depot),
        None,
    )


@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("depot", range(6))
@settings(max_examples=3)
@given(offset=st.integers(0, 5), shift=st.integers(0, 5))
def test_trigger_b_any_depot_with_both_stacks_empty_ends_the_game(
    players, depot, offset, shift
):
    # empty the small stack of `depot` and the large stack of `depot + offset`:
    # a depot is empty (and the game ends after this round) exactly when the
    # two are the same depot; both cases for every depot and table size
    for other in (depot, (depot + offset) % 6 if offset else (depot + 1) % 6):
        game = ScenarioGame(players=players, bots="random", seed=shift,
                            options=RuleOptions(event_deck=False))  # fmt: skip
        game.state.set_game_int("shift", shift)
        first_placement(game)
        start = game.fields()["round"]
        game.state.set_stack_pos(small_stack(game, depot), EMPTY)
        if other == depot and facing(game, depot) is not None:
            # a faced depot empties when its player takes the last tile left
            game.state.set_stack_pos(large_stack(depot), EMPTY - 1)
        else:
            game.state.set_stack_pos(large_stack(other), EMPTY)
        finish_round(game)
        f = game.fields()
        if other == depot:
            assert game.is_terminal
            assert (f["end_trigger"], f["round"]) == ("depot_empty", start)
        else:
            assert not game.is_terminal
            assert (f["end_trigger"], f["round"]) == ("none", start + 1)


@given(depot=st.integers(0, 5), shift=st.integers(0, 5))
def test_a_player_facing_one_empty_stack_takes_the_other_and_empties_the_depot(
    depot, shift
):
    game = ScenarioGame(players=1, bots="random", seed=1,
                        options=RuleOptions(event_deck=False))  # fmt: skip
    game.state.set_game_int("shift", shift)
    first_placement(game)
    game.state.set_game_int("rotation", depot)  # the solo seat 0 faces `depot`
    assert game.state.facing_depot(0) == depot
    game.state.set_stack_pos(small_stack(game, depot), EMPTY)
    game.state.set_stack_pos(large_stack(depot), EMPTY - 1)
    game.start_draft(0)
    moves = game.legal_moves()
    assert moves and all(m >> 12 & 1 == 1 for m in moves)  # the large tile only
    finish_round(game)
    assert game.is_terminal and game.fields()["end_trigger"] == "depot_empty"


@settings(max_examples=20)
@given(players=st.integers(1, 4), data=st.data())
def test_trigger_a_any_seat_that_cannot_place_ends_the_game(players, data):
    seat = data.draw(st.integers(0, players - 1))
    game = ScenarioGame(players=players, bots="random", seed=5,
                        options=RuleOptions(event_deck=False))  # fmt: skip
    first_placement(game)
    planet = game.planet_of(seat)
    full = empty_drawing(planet)
    for ch in ".~":
        full = full.replace(ch, "c")
    game.set_planet(seat, full)
    game.start_round()
    if game.decision == "rotation":  # 3+ players: the check follows the rotation
        game.step()
    f = game.fields()
    assert (f["last_round"], f["end_trigger"]) == (1, "cannot_place")
    placed = [game.player(p)["tiles_placed"] for p in range(players)]
    while not game.is_terminal:
        game.step()
    assert game.fields()["round"] == f["round"]
    for p in range(players):
        info = game.player(p)
        if p == seat:
            assert (info["tiles_placed"], info["tiles_unplaced"]) == (placed[p], 1)
        else:
            assert (info["tiles_placed"], info["tiles_unplaced"]) == (placed[p] + 1, 0)


def test_trigger_c_only_the_decks_last_card_ends_the_game():
    game = ScenarioGame(players=1, bots="random", seed=2)
    first_placement(game)
    f = game.fields()
    n = sum(f["deck_counts"])  # cards in the deck (20 in solo)
    assert n == len(f["deck"]) + 1  # round 1 revealed one
    for pos in range(n):
        trial = game.copy()
        trial.state.set_game_int("deck_pos", pos)
        trial.start_round()
        first_placement(trial)
        f = trial.fields()
        last = pos == n - 1
        assert (f["last_round"], f["end_trigger"]) == (
            (1, "events") if last else (0, "none")
        ), pos
