"""Placement positions shared by the afterstate-feature and endgame tests: a
planet with one open row, and real placements of greedy_tuned solo games."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pu_sim.bots import BotSpec
from pu_sim.testing import ScenarioGame, marked_drawing

Cell = tuple[int, int]


def straight_three(game: ScenarioGame, meteor: bool = False) -> int:
    """A straight-3 tile, with or without a meteor symbol."""
    data = game.rules.data
    return next(t.id for t in data.tiles
                if data.shapes[t.shape].name == "straight-3" and t.meteor == meteor)  # fmt: skip


def row_five_open(
    meteorites: tuple[Cell, ...] = (), tile_meteor: bool = False
) -> ScenarioGame:
    """Base planet covered everywhere but row 5 (12 squares), a straight-3 to place."""
    game = ScenarioGame(players=1, bots="random", seed=0)
    planet = game.planet_of(0)
    marks = {(x, y): "c" for y in range(12) for x in range(12)
             if y != 5 and planet.is_grid(x, y)}  # fmt: skip
    game.set_planet(0, marked_drawing(planet, marks), meteorites=meteorites)
    game.set_objectives(0, [])
    game.set_depot(0, small=straight_three(game, tile_meteor), large=None)
    game.start_draft(0)
    assert game.decision == "place"
    return game


def mid_game_placements(seeds: range, planets: str | None) -> Iterator[ScenarioGame]:
    """greedy_tuned solo games stopped at their first placement from round 6."""
    for seed in seeds:
        boards = {} if planets is None else {"planets": planets}
        game = ScenarioGame(players=1, bots="greedy_tuned", seed=seed, **boards)  # type: ignore[arg-type]
        while not game.is_terminal:
            if game.decision == "place" and game.fields()["round"] >= 6:
                yield game
                break
            game.step()


def late_decisions(
    seed: int,
    bot: BotSpec | str = "greedy_tuned",
    kinds: tuple[str, ...] | None = None,
    **setup: Any,
) -> Iterator[tuple[ScenarioGame, int]]:
    """A solo game's decisions with a choice (of the kinds named, or all), with
    the rounds left to follow (0 in the last round)."""
    game = ScenarioGame(players=1, bots=bot, seed=seed, **setup)
    while not game.is_terminal:
        if (kinds is None or game.decision in kinds) and len(game.legal_moves()) > 1:
            fields = game.fields()
            yield game, 0 if fields["last_round"] else len(fields["deck"])
        game.step()


def late_placements(
    seed: int, bot: BotSpec | str = "greedy_tuned", **setup: Any
) -> Iterator[tuple[ScenarioGame, int]]:
    """A solo game's placement decisions with a choice, with the rounds left
    to follow (0 in the last round)."""
    return late_decisions(seed, bot, ("place",), **setup)
