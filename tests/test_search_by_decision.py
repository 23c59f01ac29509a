"""The search restricted to one kind of decision: pairing with the preset,
groups, report."""

from __future__ import annotations

from experiment_scripts import load

import pu_sim
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab import search_by_decision as sbd
from pu_sim.lab.common import seat_outcomes
from pu_sim.simulation.manifest import read_report_manifest


def test_unsearched_games_are_the_presets_own_games():
    """Pairing: with no group searched, game i is game i of simulate()."""
    frame = pu_sim.simulate(3, bots="greedy_tuned", seed=11)
    scores = [sbd.play("greedy_tuned", "none", i, 11) for i in range(3)]
    assert scores == frame["score"].cast(float).to_list()


def test_groups_name_real_decisions_once():
    names = [d for group in sbd.GROUPS.values() for d in group]
    assert len(names) == len(set(names))
    seen = set()
    for seed in range(3):
        game = Game(players=1, bots="greedy_tuned", seed=seed)
        while not game.is_terminal:
            seen.add(game.decision)
            game.step()
    assert seen - set(names) <= {"objective_discard", "choose_one", "line"}
    assert {"place", "synergy", "regress", "civ_pick", "rover_step"} <= seen


def test_a_searched_group_changes_play_and_the_smoke_report(tmp_path):
    # default greedy's games: its rollouts are fast (greedy_tuned's pairing: above)
    plain = [sbd.play("greedy", "none", i, 5) for i in range(4)]
    searched = [sbd.play("greedy", "place", i, 5) for i in range(4)]
    assert plain != searched
    assert plain == pu_sim.simulate(4, bots="greedy", seed=5)["score"].to_list()
    script = load("bots/search_by_decision")
    assert script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    out = tmp_path / "bots" / "search_by_decision" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert [g["group"] for g in data["groups"]] == list(script.SMOKE["groups"])
    assert "| place |" in (out / "README.md").read_text()
    assert script.Config().groups == tuple(sbd.GROUPS)  # the full study: every group


def test_seat_outcomes_are_margin_over_the_best_opponent_and_share_beaten():
    scores = [[50, 40, 55], [60, 60, 30], [70, 10, 20]]
    margin, ahead = seat_outcomes(scores)
    assert margin.tolist() == [-5, 0, 50]
    assert ahead.tolist() == [0.5, 0.75, 1.0]
    margin, ahead = seat_outcomes(scores, seat=2)  # any seat against the rest
    assert margin.tolist() == [5, -30, -50]
    assert ahead.tolist() == [1.0, 0.0, 0.5]


def test_with_more_players_only_seat_0_searches_on_its_margin():
    """Unsearched 3-player games are simulate()'s; a searched group changes
    seat 0's play, valued by rollout_margin (its score minus the best other)."""
    frame = pu_sim.simulate(3, players=3, bots="greedy", seed=5)
    plain = [sbd.play_scores("greedy", "none", i, 5, players=3) for i in range(3)]
    by_game = frame.sort("game_id", "seat")["score"].cast(float).to_list()
    assert [s for game in plain for s in game] == by_game
    searched = [sbd.play_scores("greedy", "place", i, 5, players=3) for i in range(3)]
    assert searched != plain
    game = Game(players=3, bots="greedy", seed=5)
    move = game.legal_moves()[0]
    own = probes.rollout_value(game, move, 2, 0)
    assert probes.rollout_margin(game, move, 2, 0) < own  # others score too
