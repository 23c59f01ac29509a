"""The benchmark script runs end to end at its smoke size (as CI can afford)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pu_sim
from pu_sim.report.manifest import read_report_manifest

ROOT = Path(pu_sim.__file__).resolve().parents[1]


def test_benchmark_smoke_writes_every_figure(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run(
        [sys.executable, str(ROOT / "experiments" / "benchmark.py"), "--smoke",
         "--out", str(tmp_path)],
        check=True, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    result = read_report_manifest(tmp_path)["results"]
    runner = result["runner"]
    assert set(runner) == {"backends", "scaling", "big", "memory"}
    assert set(runner["backends"]) == {"threads", "processes"}
    assert runner["big"]["rows"] == runner["big"]["games"] > 0
    assert runner["scaling"]["speedup"] > 0
    text = (tmp_path / "README.md").read_text()
    assert "## Big runs" in text and "Scaling 1 -> 2 workers" in text
    # the full run's rows but for the costlier search bots
    bots = [r["bot"] for r in result["speed"]]
    assert len(bots) == 19 - 4 and {"greedy_tuned", "search-8"} <= set(bots)
    assert not set(bots) & {
        "search-32", "search-8-tuned", "search-32-tuned", "search-64-tuned"}  # fmt: skip
    assert {r["boards"] for r in result["speed"]} == {"base", "all"}
    assert "| greedy | 4 | all |" in text
