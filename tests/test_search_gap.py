"""Where search's medals come from: pairing, the rollout breakdowns, the report."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import load

import pu_sim
from pu_sim.game import SCORE_KEYS, Game
from pu_sim.lab import probes
from pu_sim.lab import search_gap as sg
from pu_sim.simulation.manifest import read_report_manifest


def test_the_greedy_side_is_the_presets_own_games():
    greedy, search = sg.paired_games("greedy_tuned", 2, 3, 11, 1)
    plain = pu_sim.simulate(3, bots="greedy_tuned", seed=11)
    assert greedy["score"].to_list() == plain["score"].to_list()
    assert greedy["game_id"].to_list() == search["game_id"].to_list()


def test_rollout_scores_add_up_and_match_the_rollout():
    """The breakdown's categories sum to its score, which is rollout()'s value."""
    game = Game(players=1, bots="greedy_tuned", seed=3)
    while game.decision != "place":
        game.step()
    move = game.legal_moves()[0]
    for stream in range(3):
        parts = probes.rollout_scores(game, move, stream)
        assert list(parts) == list(SCORE_KEYS)
        assert parts["score"] == sum(parts[k] for k in SCORE_KEYS[1:])
        assert parts["score"] == probes.rollout(game, move, stream)


def test_placement_pairs_are_the_second_best_minus_the_best():
    pairs = sg.placement_pairs(range(1), "greedy_tuned", 2, 5)
    assert len(pairs) >= 15  # about 20 placements a game
    for round_, diff in pairs:
        assert 1 <= round_ <= 25 and diff.shape == (2, len(SCORE_KEYS))
        assert np.array_equal(diff[:, 0], diff[:, 1:].sum(1))  # categories add up
    assert any(np.any(d != 0) for _, d in pairs)  # the two options do differ


def test_card_rows_count_kept_and_met_cards():
    import polars as pl

    greedy = pl.DataFrame(
        {"private_cards": [[43, 50], [43]], "private_met": [[43], []]}
    )
    search = pl.DataFrame(
        {"private_cards": [[43, 50], [43]], "private_met": [[43, 50], [43]]}
    )
    rows = {r["card"]: r for r in sg.card_rows(greedy, search)}
    assert rows[43]["met_greedy"] == 0.5 and rows[43]["met_search"] == 1.0
    assert rows[50]["diff"] == 1.0 and rows[50]["name"] == "Project: Equator"
    assert [r["card"] for r in sg.card_rows(greedy, search)] == [50, 43]  # most gained


def test_oracle_gain_known_answers():
    assert sg.oracle_gain(0.0, 1.0) == pytest.approx(1 / np.sqrt(2 * np.pi))
    assert sg.oracle_gain(-1.0, 0.0) == 0.0 and sg.oracle_gain(2.0, 0.0) == 2.0


def test_smoke_report(tmp_path):
    script = load("bots/search_gap")
    assert script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    out = tmp_path / "bots" / "search_gap" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert [r["column"] for r in data["categories"]][: len(SCORE_KEYS)] == list(
        SCORE_KEYS
    )
    assert data["placements"][0]["what"] == "score"
    assert (out / "figures" / "search_gap.png").stat().st_size > 0
    assert (
        "## How far apart greedy's two best placements are"
        in (out / "README.md").read_text()
    )
