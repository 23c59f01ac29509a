"""The solo-judgement study (pu_sim.lab.solo_judgement): greedy_tuned's
best two solo placements judged by rollouts and by cheaper readings."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim.lab import probes
from pu_sim.lab import solo_judgement as sj
from pu_sim.lab.common import round_part, round_part_labels
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.testing import ScenarioGame


def synthetic(gaps: list[float], games: int = 10) -> list[dict]:
    """Decisions whose second option is better by gaps[k] in every rollout.

    greedy_tuned's value always prefers the first option; the afterstate's
    first reading is the gap itself (a perfect reading).
    """
    records = []
    for game in range(games):
        for gap in gaps:
            records.append({
                "game": game, "round": 3, "bucket": 0, "value": [1.0, 0.0],
                "rollouts": [[50.0] * 4, [50.0 + gap] * 4],
                "playouts": [[0.0] * len(sj.HORIZONS)] * 2,
                "afterstate": [[0.0], [gap]],
            })  # fmt: skip
    return records


def test_the_rollouts_gain_what_separates_the_two_options():
    """Choosing by half the rollouts gains the gap where the second is better,
    nothing where the first is (half against half, no noise here)."""
    gains = sj.search_gain(synthetic([2.0, -3.0]))
    assert gains.tolist() == [2.0, 0.0] * 10


def test_a_perfect_reading_fitted_on_the_other_games_gains_every_gap():
    """A reading that is the rollouts' gap, fitted within decisions on the
    other parity's games, chooses the better option every time; greedy_tuned's
    value alone keeps its own choice."""
    records = synthetic([2.0, -3.0, 1.0])
    sets = sj.reading_sets()
    perfect = sj.reading_gain(records, sets["+ afterstate"])
    assert perfect.tolist() == pytest.approx([2.0, 0.0, 1.0] * 10)
    assert sj.reading_gain(records, sets["greedy_tuned's value"]).tolist() == [0.0] * 30
    summary = sj.summarise(records)
    rows = {r["judge"]: r for r in summary["rows"]}
    assert rows["+ afterstate"]["per_game"] == pytest.approx(3.0)
    assert rows["rollouts (half against half)"]["per_game"] == pytest.approx(3.0)
    assert summary["decisions_per_part"][0] == 30


def last_placement() -> ScenarioGame:
    """The last placement with a choice of a greedy_tuned solo base game."""
    game = ScenarioGame(players=1, bots=sj.BOT, seed=3)
    last = None
    while not game.is_terminal:
        if game.decision == "place" and len(game.legal_moves()) > 1:
            last = game.copy()
        game.step()
    assert last is not None
    return last


def test_a_play_out_past_the_game_s_end_is_the_rollout_and_draws_nothing():
    """At the last placement every horizon lies past the end: each play-out
    score is the final score of the rollout on the same stream; reading it
    leaves the game as it was, and the same stream reads the same."""
    game = last_placement()
    before = game.state.hidden_state(), game.fields()
    for move in game.legal_moves()[:3]:
        scores = sj.playout_scores(game, move, 77)
        assert scores == [probes.rollout(game, move, 77)] * len(sj.HORIZONS)
        assert sj.playout_scores(game, move, 77) == scores
    assert (game.state.hidden_state(), game.fields()) == before


def test_parts_of_the_game_by_round():
    rounds = (1, 5, 6, 10, 11, 14, 15, 17, 18, 19, 20, 23)
    assert [round_part(r) for r in rounds] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    assert round_part_labels() == ["1-5", "6-10", "11-14", "15-17", "18-19", "20+"]


def test_smoke_run_writes_a_report(tmp_path):
    script = load("bots/solo_judgement")
    assert script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    out = tmp_path / "bots" / "solo_judgement" / "smoke"
    results = read_report_manifest(out).to_json()["results"]
    assert results["games"] == 2 and results["decisions"] >= 2 * 15
    assert len(results["rows"]) == 2 + len(sj.HORIZONS) + 2
    assert all(np.isfinite(r["per_game"]) for r in results["rows"])
    assert (out / "figures" / "solo_judgement.png").is_file()
    assert "| rollouts (half against half) |" in (out / "README.md").read_text()
