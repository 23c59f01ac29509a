"""The search restricted to one kind of decision: pairing with the preset,
groups, report."""

from __future__ import annotations

from experiment_scripts import load

import pu_sim
from pu_sim.bots.fitting import search_by_decision as sbd
from pu_sim.game import Game
from pu_sim.report.manifest import read_report_manifest


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
    data = read_report_manifest(out)["results"]
    assert [g["group"] for g in data["groups"]] == list(script.SMOKE["groups"])
    assert "| place |" in (out / "README.md").read_text()
    assert script.Config().groups == tuple(sbd.GROUPS)  # the full study: every group
