"""The rollout-fitted track values: the fit, the core's table, the greedy's use of it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim.engine import Game

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "track_values" / "200-games-seed-78" / "track_values.json"


tv = load("track_values")


def test_fit_recovers_known_track_values():
    """Rollout values made from a known table (plus noise) give that table back."""
    rng = np.random.default_rng(3)
    step = rng.normal(0, 1, (5, 16))
    phase = rng.normal(0, 0.5, (5, 3))
    records = []
    for _ in range(16_000):  # enough that the ridge (10) barely shrinks
        tracks = list(rng.choice(5, size=rng.integers(2, 6), replace=False))
        pos = [int(p) for p in rng.integers(0, 16, len(tracks))]
        rnd = int(rng.integers(1, 21))
        greedy = list(rng.normal(0, 1, len(tracks)))
        value = [50 + 0.3 * greedy[i] + step[t][pos[i]] + phase[t][tv.phase(rnd)]
                 + rng.normal(0, 0.3) for i, t in enumerate(tracks)]  # fmt: skip
        records.append({"game": 0, "round": rnd, "track": tracks, "pos": pos,
                        "greedy": greedy, "value": value})  # fmt: skip
    got = tv.fit(records)
    assert got["greedy_coef"] == pytest.approx(0.3, abs=0.03)
    # within a decision only differences count: compare each track's table
    # after removing its mean (the per-track constant moves into the phases)
    for t in range(5):
        fitted = np.array(got["step"][t]) + np.mean(got["phase"][t])
        truth = step[t] + phase[t].mean()
        d = (fitted - fitted.mean()) - (truth - truth.mean())
        assert np.abs(d).max() < 0.1


def test_core_table_is_the_committed_fit():
    """pu_sim/_greedy_track_fit.pxi is exactly what the report's fit writes."""
    report = json.loads(REPORT.read_text())
    keys = [c.key for c in tv.load_rules().data.corporations]
    assert tv.TABLE_FILE.read_text() == tv.pxi_text(report, keys)
    text = tv.TABLE_FILE.read_text()
    for r in report["held_out"]:
        # a corporation whose fit chose worse on its held-out games keeps 0
        assert (f"# {r['corporation']}: not used" in text) == (not tv.helps(r))
    # the committed fit (seed 78) chose better for every corporation
    assert all(tv.helps(r) for r in report["held_out"])


def test_greedy_adds_the_scaled_table_to_track_choices():
    """At a synergy choice each option's value moves by track_fit x its table entry."""
    report = json.loads(REPORT.read_text())["tables"]["universal_coalition"]
    base = bots.greedy("a", **{**bots.PRESETS["greedy_tuned"], "track_fit": 0.0})
    fitted = bots.greedy("b", **{**bots.PRESETS["greedy_tuned"], "track_fit": 2.5})
    game = Game(1, bots=base, seed=5)
    checked = 0
    while not game.is_terminal and checked < 6:
        if game.decision == "synergy":
            before, after = game.greedy_values(base), game.greedy_values(fitted)
            pos, rnd = game.tracks(0), game.fields()["round"]
            for i, move in enumerate(game.legal_moves()):
                track = game.describe(move).split()[-1]
                t = tv.TRACKS.index(track)
                entry = (report["step"][t][min(pos[track], 15)]
                         + report["phase"][t][tv.phase(rnd)])  # fmt: skip
                assert after[i] - before[i] == pytest.approx(2.5 * entry, abs=2e-3)
            checked += 1
        game.apply(game.bot_move())
    assert checked >= 3


def test_smoke_run_writes_a_report_and_leaves_the_table(tmp_path):
    table = tv.TABLE_FILE.read_text()
    args = ["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write",
            "--corporations", "universal_coalition"]  # fmt: skip
    assert tv.main(args) == 0
    out = tmp_path / "track_values" / "smoke"
    data = json.loads((out / "track_values.json").read_text())
    fit = data["tables"]["universal_coalition"]
    assert np.shape(fit["step"]) == (5, 16) and np.shape(fit["phase"]) == (5, 3)
    assert "| universal_coalition |" in (out / "README.md").read_text()
    assert tv.TABLE_FILE.read_text() == table
