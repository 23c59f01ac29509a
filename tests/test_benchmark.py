"""The benchmark script runs end to end at its smoke size (as CI can afford)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import pu_sim
from pu_sim.simulation.manifest import read_report_manifest

ROOT = Path(pu_sim.__file__).resolve().parents[1]


def test_benchmark_smoke_writes_every_figure(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "benchmark.py"), "--smoke",
         "--out", str(tmp_path)],
        check=True, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    result = read_report_manifest(tmp_path).to_json()["results"]
    runner = result["runner"]
    assert set(runner) == {"backends", "scaling", "big", "memory", "strong"}
    # the big run at strength: what the balance studies play, scaled to 1M
    strong = runner["strong"]
    assert strong["rows"] == 4 * strong["games"] > 0 and strong["files"] == 64
    assert set(runner["backends"]) == {"threads", "processes"}
    assert runner["big"]["rows"] == runner["big"]["games"] > 0
    scaling = runner["scaling"]
    assert scaling["speedup"] == pytest.approx(
        scaling["2"]["games_per_s"] / scaling["1"]["games_per_s"]
    )
    text = (tmp_path / "README.md").read_text()
    page = (tmp_path / "index.html").read_text()  # the same report as a web page
    assert "Big runs" in page and "policy_td" in page
    assert "## Big runs" in text and "Scaling 1 -> 2 workers" in text
    # the full run's rows but for the costlier search bots
    bots = [r["bot"] for r in result["speed"]]
    assert len(bots) == 25 + 12 + 6 - 4 and {"greedy_tuned", "search-8"} <= set(bots)
    policy = {r["players"] for r in result["speed"] if r["bot"] == "policy_td"}
    assert policy == set(range(1, 7))  # every count the studies play it at
    for preset in ("greedy_tuned", "greedy_learned"):
        for boards, counts in (("base", {1, 2, 4, 6}), ("all", set(range(1, 7)))):
            seats = {r["players"] for r in result["speed"]
                     if r["bot"] == preset and r["boards"] == boards}  # fmt: skip
            assert seats == counts, (preset, boards)
    assert not set(bots) & {
        "search-32", "search-8-tuned", "search-32-tuned", "search-64-tuned"}  # fmt: skip
    assert {r["boards"] for r in result["speed"]} == {"base", "all"}
    assert "| greedy | 4 | all |" in text
    # the probe is built and run (a C compiler is there in CI), each row has its
    # ratio to it, and the targets are judged on the ratios
    probe = result["probe"]
    assert probe["available"] and probe["games_per_s"] == max(probe["runs"])
    rows = {(r["bot"], r["players"], r["boards"]): r for r in result["speed"]}
    greedy = rows[("greedy", 1, "base")]
    assert greedy["ratio"] == pytest.approx(
        greedy["games_per_s"] / probe["games_per_s"]
    )
    assert greedy["target_ratio"] == pytest.approx(0.26)
    assert greedy["met"] == (greedy["ratio"] >= 0.26)
    assert rows[("greedy_tuned", 4, "base")]["target_games_per_s"] == 600
    for players in (1, 4, 6):  # strong play at speed: 0.035x the probe
        assert rows[("greedy_learned", players, "base")]["target_ratio"] == (
            pytest.approx(0.035)
        )
    assert "A million games at strength" in text and "extrapolated" in text
    assert rows[("greedy", 1, "all")]["target_ratio"] is None
    assert "Probe (`experiments/probe/greedy_limit.c`" in text


def test_benchmark_says_so_without_a_c_compiler(tmp_path):
    """No compiler: no probe figure, and the reason instead of ratios."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CC": str(tmp_path / "no-cc")}
    code = (
        "import runpy, sys; sys.argv = ['benchmark']; "
        f"m = runpy.run_path({str(ROOT / 'experiments' / 'benchmark.py')!r}, "
        "run_name='bench'); probe = m['probe_speed'](10, 1); "
        "print(probe); print(m['probe_lines'](probe))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True,
                         capture_output=True, text=True, env=env).stdout  # fmt: skip
    assert "'available': False" in out and "No probe figure" in out
