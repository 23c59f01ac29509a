"""The greedy bot's next-tile lookahead (`next_fit`, core/bots/greedy_next_fit.pxi):
greedy's best value for the next depot's tiles on the planet each of its best
placements leaves, re-derived here through the engine's public API."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim._core import CONSTANTS
from pu_sim.bots import fitted
from pu_sim.game import Game
from pu_sim.lab import next_fit as nfv
from pu_sim.lab import placement_values as pv
from pu_sim.lab import probes
from pu_sim.lab.probes import values_after_redeals
from pu_sim.simulation.manifest import read_report_manifest

KEPT = int(CONSTANTS["NEXT_FIT_K"])
DEEP_WIDTH = int(CONSTANTS["DEEP_LOOK_WIDTH"])
PLACE_FIT_K = int(CONSTANTS["PLACE_FIT_K"])
# the endgame chain has its own tests (test_end_chain.py)
TUNED = {**bots.PRESETS["greedy_tuned"], "end_chain": 0.0}
LOOK = bots.greedy("look", **TUNED)
PLAIN = bots.greedy("plain", **{**TUNED, "next_fit": 0.0, "place_fit": 0.0})
NO_LOOK = bots.greedy("no_look", **{**TUNED, "next_fit": 0.0})


def expected_values(
    game: Game, weight: float, deep: float, width: int = KEPT
) -> tuple[np.ndarray, np.ndarray]:
    """Greedy's values with place_fit 1, next_fit `weight`, next_fit_deep `deep`
    and look_width `width`, from the parts, and the placements it looks ahead
    from (in the last round place_fit alone re-ranks its own best few).

    Scoring mode shows greedy's plain value for a placement it does not look
    ahead from; the next tiles are valued without place_fit (PLAIN)."""
    moves = game.legal_moves()
    plain = np.asarray(probes.greedy_values(game, PLAIN))
    looks = not game.fields()["last_round"]
    kept = np.argsort(-plain, kind="stable")[: KEPT if looks else PLACE_FIT_K]
    row = fitted.load_table("place_fit")["values"][pv.phase(game.fields()["round"])]
    fit = np.array([row @ probes.placement_features(game, moves[i]) for i in kept])
    ranked = plain[kept] + TUNED["place_fit"] * (fit - fit[0])
    if not looks:
        out = plain.copy()
        out[kept] = ranked
        return out, kept
    # the best `width` by their re-ranked values, ties by move order
    order = sorted(range(len(kept)), key=lambda k: (-ranked[k], kept[k]))[:width]
    kept, ranked = kept[order], ranked[order]
    both = [nfv.next_and_after(game, moves[i], PLAIN) for i in kept]
    known = [k for k, b in enumerate(both) if b is not None]
    ahead = {k: both[k][0] for k in known}  # type: ignore[index]
    if deep != 0 and nfv.deep_counts(game):
        # the depot after next for the best DEEP_WIDTH by value + next
        # (ties: the earlier), the mean of theirs for the others
        deep_ones = sorted(known, key=lambda k: (-(ranked[k] + weight * ahead[k]), k))
        deep_ones = deep_ones[:DEEP_WIDTH]
        mean_after = float(np.mean([both[k][1] for k in deep_ones]))  # type: ignore[index]
        for k in known:
            later = both[k][1] if k in deep_ones else mean_after  # type: ignore[index]
            ahead[k] += deep * later
    if len(known) >= 2:
        mean = float(np.mean(list(ahead.values())))
        for k, value in ahead.items():
            ranked[k] += weight * (value - mean)
    out = plain.copy()
    out[kept] = ranked
    return out, kept


def test_the_lookahead_keeps_more_placements_than_the_placement_table():
    assert PLACE_FIT_K <= KEPT == 12
    assert DEEP_WIDTH == 6 < KEPT  # the depot after next: from the best six


@pytest.mark.parametrize(("deep", "width"), [(0.0, KEPT), (1.0, KEPT), (0.5, 3)])
def test_greedy_adds_the_next_tiles_value_to_its_best_placements(deep, width):
    """Known answer: every solo placement decision's values equal greedy's own
    (place_fit re-ranking the best 12, of which the best look_width look
    ahead) plus next_fit x (the next depot's best value after each of them,
    plus next_fit_deep x the depot after's once greedy's choice is placed,
    for the best six by then, their mean for the others - centred over
    them); the bot plays the best of those."""
    weight = 1.5
    spec = bots.greedy("ahead", **{**TUNED, "next_fit": weight, "next_fit_deep": deep,
                                   "look_width": float(width)})  # fmt: skip
    checked = moved = 0
    for seed in range(2):
        game = Game(players=1, bots=spec, seed=seed)
        while not game.is_terminal:
            moves = game.legal_moves()
            if game.decision == "place" and len(moves) > KEPT:
                values = np.asarray(probes.greedy_values(game, spec))
                expected, kept = expected_values(game, weight, deep, width)
                assert values == pytest.approx(expected, abs=1e-9)
                best = moves.index(game.bot_move())
                assert best in kept
                assert values[best] == pytest.approx(values[kept].max(), abs=1e-9)
                moved += best != int(np.argmax(probes.greedy_values(game, NO_LOOK)))
                checked += 1
            game.step()
    assert checked > 20
    assert moved > 0  # the lookahead changes some choices


def test_with_three_players_the_commander_picks_the_depot_so_nothing_changes():
    """SS-3: with 3+ players the next depot is the commander's choice, so the
    lookahead is off and the preset plays as without it."""
    game = Game(players=3, bots="greedy_tuned", seed=5)
    checked = 0
    while not game.is_terminal and checked < 15:
        if game.decision == "place" and len(game.legal_moves()) > 1:
            assert probes.greedy_values(game, LOOK) == probes.greedy_values(
                game, NO_LOOK
            )
            checked += 1
        game.step()
    assert checked == 15


def test_two_players_with_the_fixed_rotation_look_ahead():
    """SS-4/SS-6: the 2-player variant turns the station by itself, so the next
    depot is known and the lookahead moves some values."""
    game = Game(players=2, bots="greedy_tuned", seed=5)
    differ = 0
    while not game.is_terminal:
        if game.decision == "place" and len(game.legal_moves()) > 1:
            differ += probes.greedy_values(game, LOOK) != probes.greedy_values(
                game, NO_LOOK
            )
        game.step()
    assert differ > 5


def test_in_the_last_round_no_next_depot_is_valued():
    """9.1: once a trigger has fired the current round is the last, so the next
    depot's tiles are never placed: the preset values placements as without the
    lookahead, there and in a mid-game position marked as the last round."""
    game = Game(players=1, bots="greedy_tuned", seed=4)
    last = marked = 0
    while not game.is_terminal:
        if game.decision == "place" and len(game.legal_moves()) > 1:
            look = probes.greedy_values(game, LOOK)
            if game.fields()["last_round"]:
                assert look == probes.greedy_values(game, NO_LOOK)
                last += 1
            elif look != probes.greedy_values(game, NO_LOOK):
                other = game.copy()
                other.state.set_game_int("last_round", 1)
                assert probes.greedy_values(other, LOOK) == probes.greedy_values(
                    other, NO_LOOK
                )
                marked += 1
        game.step()
    assert last >= 1 and marked > 5


def test_the_depot_after_next_is_skipped_when_the_next_round_is_the_last():
    """9.1 C: the round that reveals the event deck's last card is the last, so
    with one card left next_fit_deep adds nothing; with more it moves values."""
    deep_off = bots.greedy("deep_off", **{**TUNED, "next_fit_deep": 0.0})
    ends = moves = 0
    for seed in range(2):
        game = Game(players=1, bots="greedy_tuned", seed=seed)
        while not game.is_terminal:
            fields = game.fields()
            if (game.decision == "place" and len(game.legal_moves()) > 1
                    and not fields["last_round"]):  # fmt: skip
                same = probes.greedy_values(game, LOOK) == probes.greedy_values(
                    game, deep_off
                )
                if len(fields["deck"]) == 1:
                    assert same
                    ends += 1
                else:
                    moves += not same
            game.step()
    assert ends >= 1 and moves > 5


def test_the_lookahead_reads_no_hidden_tile():
    """Only the tops of the stacks are public (SS-1): redealing everything the
    player cannot see leaves every placement's value unchanged."""
    game = Game(players=1, bots="greedy_tuned", seed=3)
    checked = 0
    while not game.is_terminal:
        if game.decision == "place" and len(game.legal_moves()) > 1:
            values = probes.greedy_values(game, "greedy_tuned")
            for redealt in values_after_redeals(game, "greedy_tuned", range(3)):
                assert redealt == pytest.approx(values)
            checked += 1
        game.step()
    assert checked > 10


def test_smoke_study_writes_a_report(tmp_path):
    script = load("bots/next_fit_values")
    assert script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    out = tmp_path / "bots" / "next_fit_values" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert data["decisions"] > 0
    assert [r["weight"] for r in data["offline"]] == list(nfv.OFFLINE_WEIGHTS)
    assert data["offline"][0]["gain"] == pytest.approx(0.0)  # weight 0: greedy's choice
    assert {r["boards"] for r in data["paired_rows"]} == {"base", "random"}
    assert "| weight |" in (out / "README.md").read_text()


def test_choice_gains_know_the_answer():
    """The lookahead flips the first decision to a better option (+2), breaks the
    second's tie (+2 over the tied mean) and cannot centre the third's single
    next-tile value, so greedy's choice stands."""
    records = [
        {"round": 3, "greedy": [5.0, 4.9], "ahead": [1.0, 3.0], "value": [50.0, 52.0]},
        {"round": 9, "greedy": [5.0, 5.0], "ahead": [1.0, 2.0], "value": [40.0, 44.0]},
        {
            "round": 16,
            "greedy": [5.0, 4.0],
            "ahead": [np.nan, 9.0],
            "value": [40.0, 44.0],
        },
    ]
    assert nfv.choice_gains(records, 0.0) == pytest.approx([0.0, 0.0, 0.0])
    assert nfv.choice_gains(records, 1.0) == pytest.approx([2.0, 2.0, 0.0])
