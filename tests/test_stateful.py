"""A hypothesis state machine over the slow path: random legal moves, invariants
after every step, copies independent, illegal moves refused."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from pu_sim.game import Game


def bits(rows: list[int]) -> set[tuple[int, int]]:
    return {(x, y) for y in range(12) for x in range(12) if rows[y] >> x & 1}


class PlayGame(RuleBasedStateMachine):
    """Drive a game with hypothesis-chosen legal moves."""

    @initialize(
        players=st.integers(1, 6), seed=st.integers(0, 2**32 - 1),
        bots=st.sampled_from(["random", "greedy"]),
    )  # fmt: skip
    def deal(self, players: int, seed: int, bots: str) -> None:
        self.game = Game(players=players, bots=bots, seed=seed)
        self.grid = set(self.game.planet_of(0).grid_squares)

    @precondition(lambda self: not self.game.is_terminal)
    @rule(data=st.data())
    def play_a_legal_move(self, data) -> None:
        moves = self.game.legal_moves()
        assert moves, "a pending decision always has a legal move"
        self.game.apply(data.draw(st.sampled_from(moves)))

    @precondition(lambda self: not self.game.is_terminal)
    @rule()
    def let_the_bot_move(self) -> None:
        move = self.game.bot_move()
        assert move in self.game.legal_moves()
        self.game.apply(move)

    @precondition(lambda self: not self.game.is_terminal)
    @rule(data=st.data())
    def an_illegal_move_is_refused_and_changes_nothing(self, data) -> None:
        legal = set(self.game.legal_moves())
        move = data.draw(st.integers(0, 0xFFFF).filter(lambda m: m not in legal))
        before = self.game.fields(), [self.game.player(p) for p in range(self._n())]
        with pytest.raises(ValueError, match="not legal"):
            self.game.apply(move)
        assert before == (
            self.game.fields(),
            [self.game.player(p) for p in range(self._n())],
        )

    @precondition(lambda self: not self.game.is_terminal)
    @rule()
    def a_copy_is_independent(self) -> None:
        copy = self.game.copy()
        before = [self.game.player(p) for p in range(self._n())], self.game.fields()
        while not copy.is_terminal:
            copy.step()
        assert before == (
            [self.game.player(p) for p in range(self._n())],
            self.game.fields(),
        )

    def _n(self) -> int:
        return self.game.fields()["n_players"]

    @invariant()
    def planets_are_consistent(self) -> None:
        for p in range(self._n()):
            info = self.game.player(p)
            occ = bits(info["occ"])
            terrains = [bits(rows) for rows in info["terr"]]
            assert occ <= self.grid
            assert set().union(*terrains) == occ  # every covered square has a terrain
            assert sum(len(t) for t in terrains) == len(occ)  # and only one
            assert bits(info["patch"]) <= terrains[2]
            for t in range(6):
                assert bits(info["icon"][t]) <= terrains[t]
            assert not bits(info["lifepod"]) & occ  # a covered lifepod was destroyed
            assert bits(info["meteorite"]) <= occ  # meteorites sit on tiles
            rovers = [(x, y) for st_, x, y in info["rovers"] if st_ == 2]
            assert len(set(rovers)) == len(rovers) and set(rovers) <= self.grid
            assert bits(info["rover_at"]) == set(rovers)
            assert all(0 <= t <= 15 for t in info["track"])
            assert info["tile_squares"] + info["patches_placed"] == len(occ)

    @invariant()
    def status_is_ok(self) -> None:
        assert self.game.status == "ok"


PlayGame.TestCase.settings = settings(
    max_examples=25, stateful_step_count=60, deadline=None
)
test_play_game = PlayGame.TestCase
