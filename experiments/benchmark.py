"""Speed and memory of the engine, written to reports/benchmark/.

Measures, on one core: games per second and microseconds per decision for the
random and greedy bots at 1, 2, 4 and 6 players; the scaling from 1 to 2
workers; and the peak memory of a 10,000-game batch.  Wall time is noisy on a
shared machine, so every figure is the best of a few repeats; for regression
hunting compare instruction counts under ``valgrind --tool=callgrind``.

Usage: ``python experiments/benchmark.py [--smoke] [--out reports/benchmark]``
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

import pu_sim
from pu_sim import _core
from pu_sim.rules import RULES_VERSION, load_rules
from pu_sim.table import TableSetup

TARGETS = {  # (bot, players): games/s per core, from the engine issue
    ("random", 1): 20_000,
    ("greedy", 1): 3_000,
    ("greedy", 4): 600,
}
MEMORY_TARGET_MB = 100


def games_per_second(bot: str, players: int, games: int, repeats: int) -> dict:
    """Best-of-`repeats` speed of one GIL-free core call on this thread."""
    rules = load_rules()
    spec = TableSetup(players=players, bots=bot).lower(rules.data)
    best = float("inf")
    out = np.zeros(games * players, dtype=_core.RECORD_DTYPE)
    for r in range(repeats):
        start = time.perf_counter()
        _core.play_batch(rules.core, spec, 1, 2, r * games, out)
        best = min(best, time.perf_counter() - start)
    decisions = float(out["decisions"].mean())
    return {
        "bot": bot,
        "players": players,
        "games": games,
        "games_per_s": games / best,
        "decisions_per_game": decisions,
        "us_per_decision": best / games / decisions * 1e6,
        "mean_score": float(out["score"].mean()),
    }


def scaling(games: int, repeats: int) -> dict:
    """Greedy solo games/s through simulate() with 1 and 2 thread workers."""
    out = {}
    for jobs in (1, 2):
        best = float("inf")
        for r in range(repeats):
            start = time.perf_counter()
            pu_sim.simulate(
                games, bots="greedy", seed=r, n_jobs=jobs, batch_size=games // 8
            )
            best = min(best, time.perf_counter() - start)
        out[jobs] = games / best
    return {"games": games, "games_per_s": out, "speedup": out[2] / out[1]}


def peak_memory_mb(games: int) -> dict:
    """Peak RSS of a fresh process running one simulate() call, minus its baseline."""
    code = (
        "import resource, pu_sim\n"
        "pu_sim.simulate(10, bots='greedy', seed=1)\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        f"df = pu_sim.simulate({games}, bots='greedy', seed=2)\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(base, peak, df.estimated_size())\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    base_kb, peak_kb, frame_bytes = (int(v) for v in res.stdout.split())
    return {
        "games": games,
        "process_peak_mb": peak_kb / 1024,
        "batch_increase_mb": (peak_kb - base_kb) / 1024,
        "frame_mb": frame_bytes / 2**20,
    }


def render(result: dict) -> str:
    lines = [
        "# Engine benchmark",
        "",
        f"Machine: {result['machine']['cpu']} ({result['machine']['cores']} cores), "
        f"Python {result['machine']['python']}; pu_sim {result['versions']['pu_sim']}, "
        f"rules v{result['versions']['rules']}, "
        f"engine v{result['versions']['engine']}.",
        "Each figure is the best of several runs on one core "
        "(`python experiments/benchmark.py`).",
        "",
        "| bot | players | games/s (1 core) | target | µs/decision "
        "| decisions/game | mean score |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in result["speed"]:
        target = TARGETS.get((row["bot"], row["players"]))
        mark = (
            ""
            if target is None
            else f"{target:,} ({'met' if row['games_per_s'] >= target else 'missed'})"
        )
        lines.append(
            f"| {row['bot']} | {row['players']} | {row['games_per_s']:,.0f} | {mark} | "
            f"{row['us_per_decision']:.2f} | {row['decisions_per_game']:.0f} | "
            f"{row['mean_score']:.1f} |"
        )
    sc = result["scaling"]
    mem = result["memory"]
    lines += [
        "",
        f"Scaling (greedy solo through `simulate`, {sc['games']:,} games): "
        f"1 worker {sc['games_per_s']['1']:,.0f} games/s, 2 workers "
        f"{sc['games_per_s']['2']:,.0f} games/s, speedup {sc['speedup']:.2f}x.",
        "",
        f"Memory of a {mem['games']:,}-game batch: +{mem['batch_increase_mb']:.1f} MB "
        f"(process peak {mem['process_peak_mb']:.0f} MB; "
        f"result frame {mem['frame_mb']:.1f} MB); "
        f"target < {MEMORY_TARGET_MB} MB: "
        f"{'met' if mem['batch_increase_mb'] < MEMORY_TARGET_MB else 'missed'}.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (CI)")
    parser.add_argument("--out", type=Path, default=Path("reports/benchmark"))
    args = parser.parse_args()
    scale = 0.02 if args.smoke else 1.0
    repeats = 1 if args.smoke else 3
    sizes = {"random": 20_000, "greedy": 3_000}
    speed = []
    for bot in ("random", "greedy"):
        for players in (1, 2, 4, 6):
            games = max(20, int(sizes[bot] * scale / players))
            row = games_per_second(bot, players, games, repeats)
            speed.append(row)
            print(f"{bot:>6} {players}p: {row['games_per_s']:9,.0f} games/s  "
                  f"{row['us_per_decision']:6.2f} us/decision", flush=True)  # fmt: skip
    result = {
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
        "versions": {
            "pu_sim": pu_sim.__version__,
            "rules": RULES_VERSION,
            "engine": _core.ENGINE_VERSION,
        },
        "speed": speed,
        "scaling": scaling(max(200, int(8000 * scale)), repeats),
        "memory": peak_memory_mb(max(200, int(10_000 * scale))),
        "smoke": args.smoke,
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    result["scaling"]["games_per_s"] = {
        str(k): v for k, v in result["scaling"]["games_per_s"].items()
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "benchmark.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "README.md").write_text(render(result))
    print(render(result))


if __name__ == "__main__":
    main()
