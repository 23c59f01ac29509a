"""Invariants over thousands of random and greedy games (pgx api_test style)."""

from __future__ import annotations

import polars as pl
import pytest

import pu_sim
from pu_sim.rules import RuleOptions, load_game_data
from pu_sim.testing import frame_violations


def check(frame: pl.DataFrame, rules) -> None:
    bad = frame_violations(frame, rules.data)
    assert bad.is_empty(), bad.group_by("invariant").len()


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(rules, players):
    check(
        pu_sim.simulate(
            1500 // players + 200, players=players, bots="random", seed=players
        ),
        rules,
    )


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_greedy_games_keep_every_invariant(rules, players):
    check(
        pu_sim.simulate(
            600 // players, players=players, bots="greedy", seed=10 + players
        ),
        rules,
    )


def test_mixed_bots_and_the_two_player_commander_variant(rules):
    from pu_sim.rules import RuleOptions

    frame = pu_sim.simulate(
        300, players=2, bots=["greedy", "random"], seed=3,
        options=RuleOptions(
            two_player_fixed_rotation=False, store_patch_without_square=False,
            patches_anchor_adjacency=False, civ_pick_timing="on_milestone",
            end_phase_pick_commander="next_player",
        ),
    )  # fmt: skip
    check(frame, rules)


@pytest.mark.parametrize("players", [1, 2, 3, 5])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_games_with_events_and_private_objectives_keep_every_invariant(
    rules, players, bot
):
    options = RuleOptions(  # the multiplayer module (refused in a solo game)
        event_deck=True, event_deck_mix="random", private_objectives=players > 1
    )
    n = 400 if bot == "random" else 120
    check(pu_sim.simulate(n // players, players=players, bots=bot, seed=30 + players,
                          options=options), rules)  # fmt: skip


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bga_profile_games_keep_every_invariant(rules, bot):
    options = RuleOptions.bga()
    options = RuleOptions(**{**options.as_dict(), "event_deck": True})
    check(pu_sim.simulate(150, players=2, bots=bot, seed=41, options=options), rules)


PLANETS = ("arashi", "cerberus", "charybdis", "gaia", "k_273", "k_aax", "lacuna",
           "oblivion", "pajitnov", "persephone", "petra", "tartarus")  # fmt: skip


@pytest.mark.parametrize("planet", PLANETS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_games_on_every_planet_keep_every_invariant(rules, planet, bot):
    n = 240 if bot == "random" else 60
    solo = pu_sim.simulate(n // 2, players=1, planets=planet, bots=bot, seed=7)
    table = pu_sim.simulate(
        n // 8, players=4, planets=[planet, "random", "random", "random"], bots=bot,
        seed=8,
    )  # fmt: skip
    check(solo, rules)
    check(table, rules)
    assert (solo["planet"] == planet_name(rules, planet)).all()


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_bga_planet_rules_keep_every_invariant(rules, bot):
    options = RuleOptions.bga()
    check(
        pu_sim.simulate(60, players=3, planets="random", bots=bot, seed=43,
                        options=options),
        rules,
    )  # fmt: skip


ASYMMETRIC_CORPORATIONS = sorted(
    set(load_game_data().playable_corporations) - {"universal_coalition"}
)


@pytest.mark.parametrize("corporation", ASYMMETRIC_CORPORATIONS)
@pytest.mark.parametrize("players", [1, 2, 4, 6])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_games_of_every_corporation_keep_every_invariant(
    rules, corporation, players, bot
):
    n = (400 if bot == "random" else 100) // players + 10
    seats = [corporation] + ["random"] * (players - 1)
    frame = pu_sim.simulate(
        n, players=players, corporations=seats, planets="random", bots=bot, seed=players
    )
    check(frame, rules)
    assert (
        frame.filter(pl.col("seat") == 0)["corporation"]
        == corp_name(rules, corporation)
    ).all()


def corp_name(rules, key: str) -> str:
    return next(c.name for c in rules.data.corporations if c.key == key)


def planet_name(rules, key: str) -> str:
    return next(p.name for p in rules.data.planets if p.key == key)


def test_the_checker_catches_a_broken_row(rules):
    frame = pu_sim.simulate(5, players=2, bots="random", seed=1)
    broken = frame.with_columns(
        pl.when(pl.col("seat") == 0)
        .then(pl.col("score") + 1)
        .otherwise(pl.col("score"))
    )
    names = set(frame_violations(broken, rules.data)["invariant"])
    assert "score is the sum of its categories" in names


def test_greedy_clearly_beats_random_in_solo():
    greedy = pu_sim.simulate(400, players=1, bots="greedy", seed=1)["score"].mean()
    random = pu_sim.simulate(400, players=1, bots="random", seed=1)["score"].mean()
    assert greedy > random + 15, (greedy, random)


@pytest.mark.slow
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_many_games_keep_every_invariant(rules, players, bot):
    n = 20000 if bot == "random" else 3000
    check(
        pu_sim.simulate(n, players=players, bots=bot, seed=100 + players, n_jobs=2),
        rules,
    )
