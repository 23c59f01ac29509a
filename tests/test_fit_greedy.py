"""Greedy weights fitted to rollouts: the fit, the slopes, the shipped preset."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim.engine import load_rules
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab import weights as fg
from pu_sim.simulation.manifest import read_report_manifest

ROOT = Path(__file__).resolve().parents[1]
LATEST = ROOT / "reports" / "bots" / "fit_greedy" / "greedy_tuned-1000-games-seed-14"
script = load("bots/fit_greedy")


def synthetic_records(beta: np.ndarray, coef: float, n: int) -> list[dict[str, object]]:
    """Decisions whose rollout values are coef x greedy + beta . slopes + noise."""
    rng = np.random.default_rng(5)
    records = []
    for game in range(n):
        slopes = rng.normal(0, 1, (4, len(fg.FITTED)))
        greedy = rng.normal(0, 1, 4)
        value = coef * greedy + slopes @ beta + rng.normal(0, 0.5, 4)
        records.append({"game": game, "decision": "place", "greedy": greedy,
                        "slopes": slopes, "value": value})  # fmt: skip
    return records


def test_fit_recovers_known_weight_directions():
    beta = np.random.default_rng(1).normal(0, 0.3, len(fg.FITTED))
    fitted = fg.fit(synthetic_records(beta, 0.5, 8_000), ["place"])
    assert fitted[0] == pytest.approx(0.5, abs=0.02)
    assert fitted[1:] == pytest.approx(beta, abs=0.02)


def test_the_fit_lowers_regret_when_greedy_misweights_a_feature():
    beta = np.zeros(len(fg.FITTED))
    beta[0] = 1.0  # greedy under-weights line completion
    records = synthetic_records(beta, 0.5, 2_000)
    fitted = fg.fit(records[:1_000], ["place"])
    assert fg.regret(records[1_000:], ["place"], fitted) < 0.8 * fg.regret(
        records[1_000:], ["place"], None
    )


def test_steps_stay_non_negative_and_leave_unfitted_weights():
    weights = {**bots.GREEDY_WEIGHTS, **bots.PRESETS["greedy_tuned"]}  # as main() does
    direction = {n: -100.0 for n in fg.FITTED}
    direction["track"] = 1.0
    new = fg.stepped(weights, direction, 0.5)
    assert new["track"] == pytest.approx(weights["track"] + 0.5, abs=1e-4)
    assert all(new[n] == 0.0 for n in fg.FITTED if n != "track")
    assert set(new) == set(weights) and new["track_fit"] == weights["track_fit"]


def test_the_size_slope_of_a_placement_is_the_tile_size():
    """Known answer: a placement's value has w_size x squares, nothing else with size.

    Without the lookahead: it adds the next tiles' sizes too, a different
    amount for each placement where greedy's choice of next tile differs."""
    shapes = load_rules().data.shapes
    tiles = load_rules().data.tiles
    game = Game(players=1, bots="greedy_tuned", seed=3)
    while game.decision != "place":
        game.step()
    moves = game.legal_moves()
    own = "greedy_tuned:next_fit=0:end_chain=0"
    base = bots.parse(own).vector()
    record = fg.measure(game, moves, base, rollouts=1, index=0)
    assert record is not None and record["decision"] == "place"
    value = np.asarray(probes.greedy_values(game, own))
    top = np.argsort(-value, kind="stable")[: fg.TOP]
    sizes = [shapes[tiles[int(re.search(r"#(\d+)", game.describe(moves[k]))[1])].shape].size
             for k in top]  # fmt: skip
    assert record["slopes"][:, fg.FITTED.index("size")] == pytest.approx(sizes)
    assert record["greedy"] == pytest.approx(value[top])
    assert len(record["value"]) == len(top)


def test_greedy_tuned_is_where_the_latest_refit_started_and_stayed():
    """The seed-14 refit (from greedy_tuned with next_fit 0.75) accepted a step
    by its own rule (fresh games), but 4,000 paired solo games on seed 11 did not
    confirm it: the preset is its starting point.  Its later weights are scales
    of tables and lookaheads fitted since: place_fit and track_fit 1 and 0.75,
    next_fit 0.75 and next_fit_deep 0.5; noise is 0."""
    latest = read_report_manifest(LATEST).to_json()["results"]
    (iteration,) = latest["iterations"]
    assert iteration["accepted"] and latest["weights"] != iteration["before"]
    assert "--start" not in read_report_manifest(LATEST).to_json()["command"]
    preset = {**bots.GREEDY_WEIGHTS, **bots.PRESETS["greedy_tuned"]}
    assert preset["place_fit"] == 1.0 and preset["track_fit"] == 0.75
    assert preset["next_fit"] == 0.75 and preset["next_fit_deep"] == 0.5
    assert preset["noise"] == 0.0
    for later in (
        "next_fit_deep",
        "end_chain",
        "end_rounds",
        "ntuple",
        "look_width",
        "rotation_fit",
        "rotation_deny",
        "rotation_deny_players",
        "rotation_round",
        "end_redeals",
        "end_other_rounds",
        "rotation_width",
        "ntuple_players",
    ):
        del preset[later]  # later weights than this fit
    assert iteration["before"] == pytest.approx(preset)


def test_smoke_run_writes_a_report(tmp_path):
    assert script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    out = tmp_path / "bots" / "fit_greedy" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    assert data["iterations"][0]["decisions"] > 0
    assert {s["alpha"] for s in data["iterations"][0]["line_search"]} == set(fg.ALPHAS)
    assert "| place |" in (out / "README.md").read_text()


def test_start_changes_weights_before_the_fit_and_names_unknown_ones(tmp_path, capsys):
    args = ["--smoke", "--out", str(tmp_path), "--jobs", "1",
            "--start", '{"regress_delay": 1.25}']  # fmt: skip
    assert script.main(args) == 0
    manifest = read_report_manifest(
        tmp_path / "bots" / "fit_greedy" / "smoke"
    ).to_json()
    data = {**manifest["results"], "command": manifest["command"]}
    before = data["iterations"][0]["before"]
    assert before["regress_delay"] == 1.25
    # weights the preset does not name start at greedy's defaults
    assert set(before) == set(bots.GREEDY_WEIGHTS)
    assert "--start '{\"regress_delay\": 1.25}'" in data["command"]
    with pytest.raises(SystemExit):
        script.main(["--smoke", "--start", '{"no_such_weight": 1}'])
    assert "no_such_weight" in capsys.readouterr().err
