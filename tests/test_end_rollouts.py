"""The endgame's rollouts (`end_redeals`, core/bots/greedy_end_rollouts.pxi): in the
last solo rounds each kept placement is valued by the mean final score of games
played to their end on redeals of what the player cannot see, the best few by
more of them."""

from __future__ import annotations

import numpy as np
import pytest
from placement_positions import late_decisions, late_placements

from pu_sim import bots
from pu_sim._core import CONSTANTS
from pu_sim.lab import probes
from pu_sim.testing import ScenarioGame

KEPT = int(CONSTANTS["NEXT_FIT_K"])
FINALISTS = int(CONSTANTS["END_ROLLOUT_FINALISTS"])
MORE = int(CONSTANTS["END_ROLLOUT_MORE"])
FAST = bots.PRESETS["greedy_learned"]
REDEALS = int(FAST["end_redeals"])
SCALE = FAST["end_chain"]
# one-ply, without the fitted table or the learned value: the kept placements
# are then greedy's best 12 by the plain values, and nothing else is added
ONE_PLY = {
    **FAST,
    "place_fit": 0.0,
    "ntuple": 0.0,
    "next_fit": 0.0,
    "next_fit_deep": 0.0,
}
ROLLING = bots.greedy("rolling", **ONE_PLY)
PLAIN = bots.greedy("plain", **{**ONE_PLY, "end_chain": 0.0, "end_redeals": 0.0})
# what every decision of a rollout plays: the bot's weights, one-ply, without
# the chain, the rollouts, the fitted table or the learned value
POLICY = bots.greedy("policy", **{**FAST, "end_chain": 0.0, "end_redeals": 0.0,
                                  "next_fit": 0.0, "place_fit": 0.0, "ntuple": 0.0})  # fmt: skip


def played_out(game: ScenarioGame, move: int, seed: int, redeal: int) -> float:
    """The player's final score once `move` is played on redeal `redeal` of
    `seed` and the game played to its end by the seat's bot (the game's
    seat plays POLICY)."""
    state = game.state.determinized(0, seed, redeal)
    state.apply(move)
    state.play_out()
    return float(state.player_fields(0)["score"])


def test_a_rollout_is_the_game_played_to_its_end_on_the_bots_redeal():
    """Every rule plays in a rollout (events, civ cards, the tiles below the
    tops), on the redeal the bot reads; the redeals differ somewhere."""
    checked = redeals_differ = 0
    for game, left in late_placements(0, POLICY):
        if left > 2:
            continue
        moves = game.legal_moves()
        reading = game.state.end_rollout_scores(ROLLING.vector(), 2)
        best = int(np.argmax(probes.greedy_values(game, PLAIN)))
        for i in {0, len(moves) - 1, best}:
            for redeal in range(2):
                assert reading["scores"][i][redeal] == played_out(
                    game, moves[i], reading["seed"], redeal
                )
        redeals_differ += any(a != b for a, b in reading["scores"])
        checked += 1
    assert checked >= 3 and redeals_differ >= 1


def expected_values(plain: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, ...]:
    """The kept placements (greedy's best 12, the first on a tie), the
    finalists among them and the values the rollouts give the finalists:
    plain + SCALE x (mean of every rollout - the kept placements' mean first
    mean); finalists: the best FINALISTS by plain + SCALE x (first mean - that
    mean)."""
    kept = np.argsort(-plain, kind="stable")[:KEPT]
    first = scores[kept, :REDEALS].mean(axis=1)
    ranked = plain[kept] + SCALE * (first - first.mean())
    finalists = kept[np.argsort(-ranked, kind="stable")[:FINALISTS]]
    final = plain[finalists] + SCALE * (scores[finalists].mean(axis=1) - first.mean())
    rest = kept[np.argsort(-ranked, kind="stable")[FINALISTS:]]
    return kept, finalists, final, rest


def test_the_kept_placements_take_their_rollouts_mean_and_the_finalists_more():
    """The 12 kept placements get REDEALS rollouts each; the best FINALISTS by
    the value so far get MORE x REDEALS more, and their value is the mean of
    all of theirs; the other kept ones rank below them, in the order of the
    value so far; the placements not kept keep greedy's value."""
    assert REDEALS >= 1 and FINALISTS < KEPT
    checked = 0
    for game, left in late_placements(1):
        if not 1 <= left <= 3:
            continue
        plain = np.asarray(probes.greedy_values(game, PLAIN))
        if len(plain) <= KEPT:
            continue
        reading = game.state.end_rollout_scores(ROLLING.vector(), REDEALS * (1 + MORE))
        kept, finalists, final, rest = expected_values(
            plain, np.asarray(reading["scores"])
        )
        values = np.asarray(probes.greedy_values(game, ROLLING))
        assert values[finalists] == pytest.approx(final, abs=1e-9)
        assert values[rest].max() < values[finalists].min()
        assert np.all(np.diff(values[rest]) < 0)  # in the order so far, no ties
        others = np.setdiff1d(np.arange(len(plain)), kept)
        assert values[others] == pytest.approx(plain[others], abs=1e-9)
        checked += 1
    assert checked >= 2


def test_reading_the_rollouts_draws_nothing_from_the_game():
    game = next(g for g, left in late_placements(2) if left <= 3)
    untouched = game.copy()
    probes.greedy_values(game, ROLLING)
    game.state.end_rollout_scores(ROLLING.vector(), 2)
    game.play()
    untouched.play()
    assert game.scores() == untouched.scores()


def test_rollouts_run_in_the_last_end_rounds_and_may_start_before_the_chain_s_cap():
    """Values change only when at most end_rounds rounds follow; rollouts redeal
    the tiles nobody has seen, so unlike the chain (END_CHAIN_MAX_ROUNDS) they
    may start 7 rounds before the end."""
    assert int(CONSTANTS["END_CHAIN_MAX_ROUNDS"]) < 7
    early = bots.greedy("early", **{**ONE_PLY, "end_rounds": 7.0})
    early_off = bots.greedy("early_off", **{**PLAIN.params, "end_rounds": 7.0})
    moved = 0
    for game, left in late_placements(3):
        if left < 6:
            break
        same = probes.greedy_values(game, early) == probes.greedy_values(
            game, early_off
        )
        assert same == (left > 7)
        moved += not same
    assert moved >= 1


def test_with_two_players_the_rollouts_stay_off():
    """SS-6: the other seat drafts from the depot three ahead, so the endgame
    valuation stays off, as the chain does."""
    game = ScenarioGame(players=2, bots="greedy_tuned", seed=2)
    checked = 0
    while not game.is_terminal:
        late = len(game.fields()["deck"]) <= 2
        if late and game.decision == "place" and len(game.legal_moves()) > 1:
            assert probes.greedy_values(game, ROLLING) == probes.greedy_values(
                game, PLAIN
            )
            checked += 1
        game.step()
    assert checked >= 2


# ---- the other decisions (end_other_rounds) -----------------------------------

OTHER_ROUNDS = int(FAST["end_other_rounds"])
LEARNED = bots.parse("greedy_learned")
# the same bot without the other decisions' rollouts (its placements keep theirs)
PLACEMENTS_ONLY = bots.greedy("placements_only", **{**FAST, "end_other_rounds": 0.0})
STEPS = ("rover_step", "pod_move", "lifepod")  # never rolled out


def test_the_other_decisions_take_their_rollouts_like_the_placements():
    """In the last end_other_rounds rounds every other decision with a choice
    (which track, which civ card, a patch's square...) values greedy's best
    12 options as the placements' rollouts do: REDEALS each, and when there are
    more than FINALISTS, MORE x REDEALS more for the best FINALISTS, the rest
    below them; the bot plays the best value, and somewhere that differs from
    greedy's own choice."""
    assert OTHER_ROUNDS >= 1
    checked, kinds, changed = 0, set(), 0
    for seed in range(4, 8):
        for game, left in late_decisions(seed, LEARNED):
            if game.decision in (*STEPS, "place") or left > OTHER_ROUNDS:
                continue
            plain = np.asarray(probes.greedy_values(game, PLACEMENTS_ONLY))
            reading = game.state.end_rollout_scores(
                LEARNED.vector(), REDEALS * (1 + MORE)
            )
            scores = np.asarray(reading["scores"])
            values = np.asarray(probes.greedy_values(game, LEARNED))
            if len(plain) > FINALISTS:
                kept, finalists, final, rest = expected_values(plain, scores)
                assert values[finalists] == pytest.approx(final, abs=1e-9)
                assert values[rest].max() < values[finalists].min()
                others = np.setdiff1d(np.arange(len(plain)), kept)  # beyond the best 12
                assert values[others] == pytest.approx(plain[others], abs=1e-9)
            else:  # all finalists already: no second round
                first = scores[:, :REDEALS].mean(axis=1)
                expected = plain + SCALE * (first - first.mean())
                assert values == pytest.approx(expected, abs=1e-9)
            move = game.legal_moves()[int(np.argmax(values))]
            assert game.bot_move() == move
            changed += move != game.legal_moves()[int(np.argmax(plain))]
            kinds.add(game.decision)
            checked += 1
    assert checked >= 10 and len(kinds) >= 3 and changed >= 1


def test_the_other_decisions_roll_out_only_in_their_rounds_and_never_the_steps():
    """Before the last end_other_rounds rounds, at a step (a rover's, a Cosmos
    lifepod's) or a lifepod pick, and with two players, the values are greedy's."""
    seen_early = seen_step = moved = 0
    for game, left in late_decisions(4, LEARNED):
        if game.decision == "place":
            continue
        same = probes.greedy_values(game, LEARNED) == probes.greedy_values(
            game, PLACEMENTS_ONLY
        )
        step = game.decision in STEPS
        if left > OTHER_ROUNDS or step:
            assert same
        moved += not same  # (options whose rollouts all agree keep their values)
        seen_early += left > OTHER_ROUNDS
        seen_step += step and left <= OTHER_ROUNDS
    assert seen_early >= 1 and seen_step >= 1 and moved >= 2
    game = ScenarioGame(players=2, bots="greedy_learned", seed=3)
    checked = 0
    while not game.is_terminal:
        late = len(game.fields()["deck"]) <= 2
        if (
            late
            and game.decision not in ("place", *STEPS)
            and len(game.legal_moves()) > 1
        ):
            assert probes.greedy_values(game, LEARNED) == probes.greedy_values(
                game, PLACEMENTS_ONLY
            )
            checked += 1
        game.step()
    assert checked >= 1


def test_choosing_by_rollouts_draws_nothing_from_the_game():
    game = next(g for g, left in late_decisions(5, LEARNED)
                if left <= OTHER_ROUNDS and g.decision not in (*STEPS, "place"))  # fmt: skip
    untouched = game.copy()
    probes.greedy_values(game, LEARNED)
    game.bot_move()
    game.play()
    untouched.play()
    assert game.scores() == untouched.scores()
