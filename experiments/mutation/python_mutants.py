"""Mutants of the Python layers (analysis and simulation), by mutmut, sampled.

mutmut (configured under ``[tool.mutmut]`` in pyproject.toml) writes every
mutant of ``pu_sim/analysis`` and ``pu_sim/simulation`` into ``mutants/`` and
learns which tests call each function; this script then asks it to test a
seeded random sample of them (every mutant would take a day on two cores) and
writes the outcome, with each survivor's diff, to a JSON file that
``report.py`` turns into the report.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from pu_sim.studies.harness import guarded

ROOT = Path(__file__).resolve().parents[2]
MUTMUT = [sys.executable, "-m", "mutmut"]


def _status(exit_code: int | None) -> str:
    """mutmut's reading of a mutant's exit code, in the report's words."""
    from mutmut.stats import status_by_exit_code  # a dev tool: imported when run

    status: str = status_by_exit_code[exit_code]
    return "crashed" if status == "segfault" else status


def _environment() -> dict[str, str]:
    env = dict(os.environ, HYPOTHESIS_PROFILE="mutants")
    env.setdefault("PU_SIM_REFERENCE", str(ROOT.parent / "shared" / "reference"))
    return env


def _exit_codes() -> dict[str, int | None]:
    """Every mutant mutmut wrote, with its last exit code (None: not run)."""
    codes: dict[str, int | None] = {}
    for meta in sorted((ROOT / "mutants").rglob("*.py.meta")):
        codes.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return codes


def _layer(name: str) -> str:
    return "simulation" if name.startswith("pu_sim.simulation.") else "analysis"


def _diff(name: str, env: dict[str, str]) -> str:
    done = subprocess.run(
        [*MUTMUT, "show", name],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return "\n".join(done.stdout.splitlines()[1:])


def run(
    sample: int, seed: int, out: Path, *, retry: tuple[str, ...] = ()
) -> dict[str, object]:
    """Test ``sample`` mutants per layer, chosen with ``seed``; write the results."""
    env = _environment()
    # A name that matches nothing: mutmut writes the mutants and its test
    # map, then stops (it refuses an empty selection).
    subprocess.run([*MUTMUT, "run", "nothing.matches"], cwd=ROOT, env=env, check=False)
    every = sorted(_exit_codes())
    if not every:
        raise SystemExit("mutmut wrote no mutants (see its output above)")
    rng = random.Random(seed)
    chosen: list[str] = []
    population: dict[str, int] = {}
    for layer in ("analysis", "simulation"):
        names = [n for n in every if _layer(n) == layer]
        population[layer] = len(names)
        chosen += rng.sample(names, min(sample, len(names)))
    done = _exit_codes()
    # mutants with a result are not run again (a stopped run resumes), except
    # those in retry (survivors, once a test has been written for them)
    todo = [n for n in chosen if done.get(n) is None or n in retry]
    if todo:
        subprocess.run([*MUTMUT, "run", *todo], cwd=ROOT, env=env, check=False)
    codes = _exit_codes()
    results = []
    for name in chosen:
        status = _status(codes.get(name))
        diff = (
            _diff(name, env) if status in ("survived", "no tests", "suspicious") else ""
        )
        results.append(
            {"id": name, "layer": _layer(name), "status": status, "diff": diff}
        )
    summary = {
        "population": population,
        "sample": sample,
        "seed": seed,
        "mutants": results,
    }
    out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sample", type=int, default=100, help="mutants per layer (default 100)"
    )
    parser.add_argument("--seed", type=int, default=2066)
    parser.add_argument(
        "--out", type=Path, default=ROOT / "reports/mutation/python.json"
    )
    parser.add_argument(
        "--retry", nargs="*", default=(), help="mutant names to test again"
    )
    args = parser.parse_args(argv)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    run(args.sample, args.seed, args.out, retry=tuple(args.retry))


if __name__ == "__main__":
    raise SystemExit(guarded(main))
