"""Speed and memory of the engine and the runner, written to reports/benchmark/.

Measures, on one core: games per second and microseconds per decision for the
random and greedy bots at 1, 2, 4 and 6 players and for the search bot solo at
two budgets; the scaling from 1 to 2 workers; and the peak memory of a
10,000-game batch.  Wall time is noisy on a shared machine, so every figure is
the best of a few repeats, and the rows short of the search bot's are timed in
rounds over all of them (a burst of other work then slows one repeat of many
rows, not every repeat of one); for regression hunting compare instruction
counts under ``valgrind --tool=callgrind``.

Then the runner end to end (``pu_sim.simulation.runner.run``: simulation, Parquet parts,
manifest), each run in a fresh process so its peak memory is its own: threads
against processes at 2 workers, the scaling from 1 to 2 workers, and one
million greedy solo games on every core, whose peak memory is compared with a
run ten times smaller (flat memory: the 1M run should need no more).

The engine's speed targets are ratios to a C probe measured in the same run
(``experiments/probe/greedy_limit.c``: a placement-only greedy solo game that no
full-rules bot can beat), since this machine's speed drifts from day to day; the
script builds the probe with the C compiler (``$CC`` or ``cc``) and says so in
the report when there is none.

Usage: ``python experiments/benchmark.py [--smoke] [--out reports/benchmark]``
(``--smoke`` runs every measurement at a tiny size, for CI, and times only the
cheapest search bot).

Why long: it measures, compares with the probe and writes its README and
figures in one script, as every study does; its parts are the functions below.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pu_sim
from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.report.document import from_markdown, write_pages
from pu_sim.simulation.in_memory import play_range
from pu_sim.simulation.manifest import write_report_manifest
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.provenance import game_versions
from pu_sim.simulation.runner import DEFAULT_BATCH_SIZE
from pu_sim.simulation.table import TableSetup

PROBE_SOURCE = Path(__file__).resolve().parent / "probe" / "greedy_limit.c"
PROBE_QUIET = 11_560
"""The probe's games/s on a quiet machine of this kind (the engine issue's scale)."""

TARGETS: dict[tuple[Any, ...], float] = {  # games/s a core, quiet machine (issues)
    ("random", 1): 1.8 * PROBE_QUIET,  # keep today's ratio
    ("greedy", 1): 0.26 * PROBE_QUIET,  # 3,000 games/s
    ("greedy", 4): 0.051 * PROBE_QUIET,  # keep today's ratio
    ("greedy_tuned", 1): 300,
    ("greedy_tuned", 4): 600,
    # strong play at speed: the learned bot at 0.035x the probe at 1, 4 and 6
    # players (about 4x its speed when these targets were set)
    ("greedy_learned", 1): 0.035 * PROBE_QUIET,
    ("greedy_learned", 4): 0.035 * PROBE_QUIET,
    ("greedy_learned", 6): 0.035 * PROBE_QUIET,
    # another family of play: the learned policy at 20 four-player games/s a
    # core on the boards the studies play
    ("policy_td", 4, "all"): 0.0017 * PROBE_QUIET,
}
"""Met when the row's ratio to the probe (same run) reaches target / PROBE_QUIET;
keyed (bot, players) for base boards, (bot, players, boards) otherwise."""
MEMORY_TARGET_MB = 100
MILLION_TARGET_S = 600  # one million greedy solo games end to end on 2 cores
STRONG_MILLION_TARGET_S = 1800  # one million 4-player greedy_learned games, 2 cores
STRONG_RUN = {"players": 4, "bots": "greedy_learned", "corporations": "random",
              "planets": "random", "paired": True}  # fmt: skip
"""The big run at strength: what the balance studies play, through the runner."""
SCALING_TARGET = 1.8  # 1 -> 2 workers through the runner


BOARDS: dict[str, dict[str, Any]] = {  # what the speed rows play on
    "base": {},
    "all": {"corporations": "random", "planets": "random"},
}
"""``base``: Universal Coalition on KSB-4156; ``all``: every seat draws from
the nine corporations and thirteen planets (their special rules cost time)."""


SEARCH_BOTS = {  # search bot speed rows: its cost grows with the budget
    **{f"search-{b}": bots.search(f"search-{b}", budget=b, width=2) for b in (8, 32)},
    # with greedy_tuned's weights (the ladder's search bots): other rollouts
    **{
        f"search-{b}-tuned": bots.search(
            f"search-{b}-tuned", budget=b, width=2, **bots.PRESETS["greedy_tuned"]
        )
        for b in (8, 32, 64)
    },
}


SMOKE_SEARCH_BOTS = ("search-8",)
"""The search rows of a smoke run (greedy_tuned's weights make a game ~20 s)."""


def games_per_second(
    bot: str | BotSpec,
    players: int,
    games: int,
    repeats: int,
    boards: str = "base",
    first: int = 0,
) -> dict[str, Any]:
    """Best-of-`repeats` speed of one GIL-free core call on this thread
    (repeat r plays games r * games onward, from r = first)."""
    bot = SEARCH_BOTS.get(bot, bot) if isinstance(bot, str) else bot
    table = TableSetup(players=players, bots=bot, **BOARDS[boards])
    plan = Plan.of(table)
    best = float("inf")
    for r in range(first, first + repeats):
        start = time.perf_counter()
        out = play_range(plan, r * games, games)
        best = min(best, time.perf_counter() - start)
    decisions = float(out["decisions"].mean())
    return {
        "bot": bots.parse(bot).label,
        "players": players,
        "boards": boards,
        "games": games,
        "games_per_s": games / best,
        "decisions_per_game": decisions,
        "us_per_decision": best / games / decisions * 1e6,
        "mean_score": float(out["score"].mean()),
    }


def interleaved_rows(
    cells: list[tuple[str, int, str, int]], repeats: int
) -> list[dict[str, Any]]:
    """Each cell's best of `repeats` runs, taken in rounds over all the cells:
    a burst of other work on this shared machine then slows one run of many
    rows, not every run of one row.  Decisions and mean score are the last
    round's games (repeat r plays the same games as in a row-by-row pass).
    A cell is (bot, players, boards, games a run)."""
    rows: list[dict[str, Any]] = []
    for r in range(repeats):
        for k, (bot, players, boards, games) in enumerate(cells):
            row = games_per_second(bot, players, games, 1, boards, first=r)
            if r == 0:
                rows.append(row)
                continue
            best = max(rows[k]["games_per_s"], row["games_per_s"])
            per_decision = 1e6 / best / row["decisions_per_game"]
            rows[k] = {**row, "games_per_s": best, "us_per_decision": per_decision}
    return rows


def probe_speed(games: int, repeats: int) -> dict[str, Any]:
    """The C probe's best games/s on one core, built here (``$CC`` or ``cc -O2``).

    ``{"available": False, "reason": ...}`` when there is no C compiler or the
    build fails: the report then gives games/s without ratios.
    """
    names = [os.environ["CC"]] if os.environ.get("CC") else ["cc", "gcc"]
    cc = next((found for n in names if (found := shutil.which(n))), None)
    if cc is None:
        return {"available": False,
                "reason": f"no C compiler found ({' or '.join(names)})"}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "greedy_limit"
        build = subprocess.run([cc, "-O2", "-o", str(exe), str(PROBE_SOURCE)],
                               capture_output=True, text=True)  # fmt: skip
        if build.returncode != 0:
            return {"available": False, "reason": f"{cc} failed: {build.stderr[:300]}"}
        speeds = []
        for _ in range(repeats):
            out = subprocess.run([str(exe), str(games)], capture_output=True,
                                 text=True, check=True).stdout  # fmt: skip
            match = re.search(r"games_per_s_per_core=([0-9.]+)", out)
            assert match, out
            speeds.append(float(match.group(1)))
    return {"available": True, "compiler": cc, "games": games,
            "games_per_s": max(speeds), "runs": speeds}  # fmt: skip


def with_ratios(speed: list[dict[str, Any]], probe: dict[str, Any]) -> None:
    """Each row's games/s as a ratio to the probe's, its target ratio and verdict."""
    for row in speed:
        target = TARGETS.get((row["bot"], row["players"], row["boards"]))
        if target is None and row["boards"] == "base":
            target = TARGETS.get((row["bot"], row["players"]))
        row["target_games_per_s"] = target
        row["target_ratio"] = None if target is None else target / PROBE_QUIET
        row["ratio"] = None
        row["met"] = None
        if probe["available"]:
            row["ratio"] = row["games_per_s"] / probe["games_per_s"]
            if target is not None:
                row["met"] = row["ratio"] >= row["target_ratio"]


def scaling(games: int, repeats: int) -> dict[str, Any]:
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


def peak_memory_mb(games: int) -> dict[str, Any]:
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


RUN_CODE = """
import json, resource, sys, tempfile, time
from pathlib import Path
import polars as pl
from pu_sim.simulation.runner import run, scan_run
games, jobs, backend, batch = (int(sys.argv[1]), int(sys.argv[2]), sys.argv[3],
                               int(sys.argv[4]))
table = json.loads(sys.argv[5])
with tempfile.TemporaryDirectory() as tmp:
    out = Path(tmp) / "run"
    start = time.perf_counter()
    result = run(games, out=out, seed=1, n_jobs=jobs, backend=backend,
                 batch_size=batch, progress=False, **table)
    wall = time.perf_counter() - start
    files = list((out / "data").glob("*.parquet"))
    disk_mb = sum(f.stat().st_size for f in files) / 2**20
    rows = scan_run(out).select(pl.len()).collect().item()
    self_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    child_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({
    "games": games, "jobs": jobs, "backend": backend, "batch_size": batch,
    "wall_s": wall,
    "games_per_s": games / wall, "rows": rows, "files": len(files),
    "disk_mb": disk_mb,
    "peak_rss_mb": self_kb / 1024, "worker_peak_rss_mb": child_kb / 1024,
}))
"""


SOLO_GREEDY = {"players": 1, "bots": "greedy"}
"""The runner figures' table: the cheapest full-rules games, so the runner shows."""


def runner_run(
    games: int,
    jobs: int,
    backend: str = "threads",
    batch: int = DEFAULT_BATCH_SIZE,
    table: dict[str, Any] = SOLO_GREEDY,
) -> dict[str, Any]:
    """One run of `table` (run()'s keywords) through the runner in a fresh process."""
    res = subprocess.run(
        [sys.executable, "-c", RUN_CODE, str(games), str(jobs), backend, str(batch),
         json.dumps(table)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    row: dict[str, Any] = json.loads(res.stdout)
    assert row["rows"] == games * table["players"], row  # a row per seat
    print(f"runner {backend:>9} x{jobs}: {games:>9,} games {row['wall_s']:7.1f} s "
          f"{row['games_per_s']:7,.0f} games/s  peak {row['peak_rss_mb']:.0f} MB",
          flush=True)  # fmt: skip
    return row


def best(games: int, jobs: int, backend: str, repeats: int) -> dict[str, Any]:
    """The fastest of a few runs (wall time is noisy on a shared machine).

    Sixteen batches, so both workers stay busy until the end.
    """
    batch = max(1, games // 16)
    return max(
        (runner_run(games, jobs, backend, batch) for _ in range(repeats)),
        key=lambda r: r["games_per_s"],
    )


def runner_figures(smoke: bool, repeats: int) -> dict[str, Any]:
    """Backends, scaling, the million-game run and flat memory, through run()."""
    mid = 400 if smoke else 40_000
    big = 2_000 if smoke else 1_000_000
    threads_2 = best(mid, 2, "threads", repeats)
    processes_2 = best(mid, 2, "processes", repeats)
    threads_1 = best(mid, 1, "threads", repeats)
    small = runner_run(big // 10, 2)
    million = runner_run(big, 2)
    # at strength: too slow for a million here, so a run of 64 batches
    # (resumable chunks as the big run's), its time per game scaled to 1M
    strong_games = 64 if smoke else 12_800
    strong = runner_run(strong_games, 2, batch=strong_games // 64, table=STRONG_RUN)
    return {
        "strong": strong,
        "backends": {"threads": threads_2, "processes": processes_2},
        "scaling": {
            "1": threads_1,
            "2": threads_2,
            "speedup": threads_2["games_per_s"] / threads_1["games_per_s"],
        },
        "big": million,
        "memory": {"small": small, "big": million},
    }


def render_runner(fig: dict[str, Any]) -> list[str]:
    """The runner's section of the report."""
    big = fig["big"]
    small = fig["memory"]["small"]
    sc = fig["scaling"]
    th = fig["backends"]["threads"]
    pr = fig["backends"]["processes"]
    n = big["games"]
    per_game = big["wall_s"] / n
    million_s = per_game * 1_000_000
    lines = [
        "## Big runs (the runner, end to end)",
        "",
        "Greedy solo games through `pu_sim.run` (simulation, one Parquet "
        "part per batch, manifest), each run in a fresh process; the comparisons "
        "use 16 batches, the memory and big runs the default "
        f"{DEFAULT_BATCH_SIZE:,}-game batches.  The run at strength plays what "
        "the balance studies play (4 players, greedy_learned at every seat, "
        "random corporations and planets, paired seat orders) in 64 batches.  "
        "Peak RSS is the whole process (Python, Polars, the rules tables).",
        "",
        "| run | games | workers | backend | wall s | games/s | peak RSS MB "
        "| Parquet MB |",
        "|---|---|---|---|---|---|---|---|",
    ]
    rows = [
        ("threads vs processes", th),
        ("threads vs processes", pr),
        ("scaling, 1 worker", sc["1"]),
        ("memory, small run", small),
        ("big run", big),
        ("at strength (4 players, greedy_learned)", fig["strong"]),
    ]
    for label, r in rows:
        rss = r["peak_rss_mb"]
        if r["backend"] == "processes":
            rss_text = f"{rss:.0f} + {r['worker_peak_rss_mb']:.0f} per worker"
        else:
            rss_text = f"{rss:.0f}"
        lines.append(
            f"| {label} | {r['games']:,} | {r['jobs']} | {r['backend']} | "
            f"{r['wall_s']:.1f} | {r['games_per_s']:,.0f} | {rss_text} | "
            f"{r['disk_mb']:.1f} |"
        )
    verdict = "met" if million_s < MILLION_TARGET_S else "missed"
    measured = (
        f"{n:,} games took {big['wall_s']:.0f} s"
        if n == 1_000_000
        else f"{n:,} games took {big['wall_s']:.1f} s; extrapolated"
    )
    lines += [
        "",
        f"- One million greedy solo games on 2 workers: {measured} "
        f"({million_s / 60:.1f} min for 1M; target < {MILLION_TARGET_S // 60} min: "
        f"{verdict}).",
        *strong_lines(fig["strong"]),
        f"- Scaling 1 -> 2 workers (threads): {sc['speedup']:.2f}x (target >= "
        f"{SCALING_TARGET}: {'met' if sc['speedup'] >= SCALING_TARGET else 'missed'}).",
        f"- Threads vs processes at 2 workers: {th['games_per_s']:,.0f} vs "
        f"{pr['games_per_s']:,.0f} games/s.",
        f"- Peak memory: {small['games']:,} games {small['peak_rss_mb']:.0f} MB, "
        f"{big['games']:,} games {big['peak_rss_mb']:.0f} MB (flat: memory does "
        "not grow with the run).",
        "",
    ]
    return lines


def strong_lines(strong: dict[str, Any]) -> list[str]:
    """The big run at strength, its time scaled to a million games."""
    million_s = strong["wall_s"] / strong["games"] * 1_000_000
    verdict = "met" if million_s <= STRONG_MILLION_TARGET_S else "missed"
    return [
        f"- A million games at strength (`pu-sim simulate --games 1000000 --players 4 "
        "--bots greedy_learned --corporations random --planets random --paired`, "
        f"2 workers): {strong['games']:,} games took {strong['wall_s']:.1f} s; "
        f"extrapolated {million_s / 60:.0f} min for 1M (target <= "
        f"{STRONG_MILLION_TARGET_S // 60} min: {verdict}).",
    ]


def probe_lines(probe: dict[str, Any]) -> list[str]:
    """What the report says about the C probe the ratios are taken against."""
    if not probe["available"]:
        return [
            f"**No probe figure: {probe['reason']}.**  The targets are ratios to "
            "the probe, so none is judged; install a C compiler and re-run.",
        ]
    return [
        f"Probe (`experiments/probe/greedy_limit.c`, built with `{probe['compiler']} "
        f"-O2`, placement-only greedy solo, {probe['games']:,} games, best of "
        f"{len(probe['runs'])} runs before and after the rows): "
        f"**{probe['games_per_s']:,.0f} games/s** on one core (quiet machine: "
        f"about {PROBE_QUIET:,}).  *x probe* is a row's games/s over the "
        "probe's in this run; a target is met when the ratio reaches the "
        f"target's games/s over {PROBE_QUIET:,} (this machine's speed drifts, "
        "the ratio does not).",
    ]


def render(result: dict[str, Any]) -> str:
    lines = [
        "# Engine benchmark",
        "",
        f"Machine: {result['machine']['cpu']} ({result['machine']['cores']} cores), "
        f"Python {result['machine']['python']}; pu_sim {result['versions']['pu_sim']}, "
        f"rules v{result['versions']['rules']}, "
        f"engine v{result['versions']['engine']}.",
        "Each figure is the best of several runs on one core "
        "(`python experiments/benchmark.py`).",
        "Load average (1, 5, 15 min) before: "
        + ", ".join(f"{v:.2f}" for v in result["load_average"]["before"])
        + "; after: "
        + ", ".join(f"{v:.2f}" for v in result["load_average"]["after"])
        + " (other work on the machine makes wall-time figures pessimistic).",
        "",
        "Boards: *base* is Universal Coalition on KSB-4156 at every seat (the "
        "targets' setting); *all* draws every seat's corporation and planet from "
        "all nine and all thirteen.  *search-B*: the search bot with a budget "
        "of B greedy rollouts per decision over greedy's 2 best moves "
        "(*-tuned*: greedy_tuned's weights, in its ranking and its rollouts).",
        "",
        *probe_lines(result["probe"]),
        "",
        "| bot | players | boards | games/s (1 core) | x probe | target (x probe) "
        "| µs/decision | decisions/game | mean score |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["speed"]:
        boards = row.get("boards", "base")
        target = row.get("target_ratio")
        ratio = row.get("ratio")
        if target is None:
            mark = ""
        else:
            verdict = (
                "" if row["met"] is None else (" met" if row["met"] else " missed")
            )
            mark = f">= {target:.3g} ({row['target_games_per_s']:,.0f} quiet){verdict}"
        digits = 0 if row["games_per_s"] >= 10 else 2  # search: a few games/s
        lines.append(
            f"| {row['bot']} | {row['players']} | {boards} | "
            f"{row['games_per_s']:,.{digits}f} | "
            f"{'' if ratio is None else f'{ratio:.3g}'} | {mark} | "
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
    if "runner" in result:
        lines += render_runner(result["runner"])
    else:
        lines += [
            "The runner's end-to-end figures (a million games on every core) were "
            "not measured in this run (`--no-runner`).",
            "",
        ]
    return "\n".join(lines)


def speed_cells() -> list[tuple[str, int, str]]:
    """The quick rows: (bot, players, boards)."""
    cells = [(bot, players, "base") for bot in ("random", "greedy")
             for players in (1, 2, 4, 6)]  # fmt: skip
    cells += [
        (bot, players, "all") for bot in ("random", "greedy") for players in (1, 4)
    ]
    cells += [(bot, players, "base") for bot in ("greedy_tuned", "greedy_learned")
              for players in (1, 2, 4, 6)]  # fmt: skip
    # what the studies play: every count, random corporations and planets
    cells += [(bot, players, "all") for bot in ("greedy_tuned", "greedy_learned")
              for players in range(1, 7)]  # fmt: skip
    # the studies' third opinion plays 2-6; its strength target is solo
    cells += [("policy_td", players, "all") for players in range(1, 7)]
    return cells


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (CI)")
    parser.add_argument("--out", type=Path, default=Path("reports/benchmark"))
    parser.add_argument(
        "--repeats", type=int, default=None, help="runs per figure (default 3)"
    )
    parser.add_argument(
        "--no-runner",
        action="store_true",
        help="skip the end-to-end runner figures (a million games on every core)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    load_before = os.getloadavg()
    scale = 0.02 if args.smoke else 1.0
    repeats = args.repeats or (1 if args.smoke else 3)
    sizes = {"random": 20_000, "greedy": 3_000, "greedy_tuned": 600,
             "greedy_learned": 600, "policy_td": 100, "search-8": 40,
             "search-32": 10, "search-8-tuned": 40, "search-32-tuned": 10,
             "search-64-tuned": 4}  # fmt: skip
    probe_games = 2_000 if args.smoke else 60_000
    probe_runs = [probe_speed(probe_games, 1 if args.smoke else 2)]
    cells = speed_cells()
    # a smoke run times one game of the cheapest search bot (the others run the
    # same code for longer: search-64-tuned takes ~25 s a game)
    searched = SMOKE_SEARCH_BOTS if args.smoke else tuple(SEARCH_BOTS)
    searches = [(bot, 1, "base") for bot in searched]

    def games_for(bot: str, players: int) -> int:
        least = (1 if args.smoke else 2) if bot in SEARCH_BOTS else 20
        return max(least, int(sizes[bot] * scale / players))

    # the quick rows in rounds (interleaved_rows); each search row on its own
    speed = [
        *interleaved_rows([(b, p, k, games_for(b, p)) for b, p, k in cells], repeats),
        *(games_per_second(b, p, games_for(b, p), repeats, k) for b, p, k in searches),
    ]
    for row in speed:
        print(f"{row['bot']:>6} {row['players']}p {row['boards']:>4}: "
              f"{row['games_per_s']:9,.0f} games/s  "
              f"{row['us_per_decision']:6.2f} us/decision", flush=True)  # fmt: skip
    probe_runs.append(probe_speed(probe_games, 1 if args.smoke else 2))
    probe = max(probe_runs, key=lambda r: r.get("games_per_s", 0.0))
    if probe["available"]:
        probe["runs"] = [v for r in probe_runs for v in r["runs"]]
    with_ratios(speed, probe)
    result = {
        "machine": {
            "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(),
            "python": platform.python_version(),
        },
        "versions": game_versions(),
        "probe": probe,
        "speed": speed,
        "scaling": scaling(max(200, int(8000 * scale)), repeats),
        "memory": peak_memory_mb(max(200, int(10_000 * scale))),
        **({} if args.no_runner else {"runner": runner_figures(args.smoke, repeats)}),
        "smoke": args.smoke,
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    result["scaling"]["games_per_s"] = {
        str(k): v for k, v in result["scaling"]["games_per_s"].items()
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "README.md").write_text(render(result))
    write_pages(from_markdown(render(result)), args.out, markdown=False)  # its web page
    write_report_manifest(
        args.out, study="benchmark", title="Engine benchmark",
        command=" ".join(["python experiments/benchmark.py", *sys.argv[1:]]),
        wall_time_s=round(time.perf_counter() - started, 1), results=result,
    )  # fmt: skip
    print(render(result))


if __name__ == "__main__":
    main()
