"""Mutants of the Cython rules core: one realistic one-line bug at a time.

No mutation tool reads Cython, so this script is ours: it lists every place
in the rules core (``pu_sim/core/engine`` and ``pu_sim/core/corporations``)
where one of a few operators makes a plausible bug (a boundary flip, an
off-by-one range, ``+=`` written as ``=``, ``&`` for ``|``, swapped row and
column), samples them with a seed, and for each one rebuilds a copy of the
checkout with the mutant and runs the rules tests (never the golden traces or
known-answer scores: a mutant only those catch is counted as surviving).
Results go to a JSON file that ``report.py`` turns into the report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pu_sim.studies.harness import guarded

ROOT = Path(__file__).resolve().parents[2]
CORE_DIRS = ("pu_sim/core/engine", "pu_sim/core/corporations")

RULES_TESTS = [
    "tests/test_api.py",
    "tests/test_civ_cards.py",
    "tests/test_corp_cosmos.py",
    "tests/test_corp_flux.py",
    "tests/test_corp_horizon.py",
    "tests/test_corp_jump.py",
    "tests/test_corp_makeshift.py",
    "tests/test_corp_oasis.py",
    "tests/test_corp_republic.py",
    "tests/test_corp_rooms.py",
    "tests/test_corp_wormhole.py",
    "tests/test_end_chain.py",
    "tests/test_events.py",
    "tests/test_independent_scoring.py",
    "tests/test_invariants.py",
    "tests/test_objectives.py",
    "tests/test_placement.py",
    "tests/test_planets.py",
    "tests/test_range_end_triggers.py",
    "tests/test_range_techs.py",
    "tests/test_range_track_spaces.py",
    "tests/test_resolution.py",
    "tests/test_rotation_round.py",
    "tests/test_round_and_end.py",
    "tests/test_rovers_biomass.py",
    "tests/test_rule_options.py",
    "tests/test_setup.py",
    "tests/test_solo.py",
    "tests/test_stateful.py",
    # the engine's walks and counts that the bots read, against plain searches
    "tests/test_greedy_features.py",
]
"""The rules tests a core mutant must fail (no golden traces, no known answers)."""


@dataclass(frozen=True)
class Mutant:
    """One edit of one line: where, which operator, the line before and after."""

    id: str
    file: str
    line: int
    operator: str
    before: str
    after: str


# A cast such as <uint8_t>x or <const Game_t*>p: its angle brackets are not comparisons.
CAST = re.compile(r"<\s*(?:const\s+)?[A-Za-z_][A-Za-z0-9_]*\s*\**\s*>")
# NAME = value lines of enums and tables: renumbering an identifier is no rule bug.
CONSTANT_DEFINITION = re.compile(r"^\s*[A-Z_][A-Z0-9_]*\s*=")
BINARY_BEFORE = re.compile(r"[A-Za-z0-9_\)\]]\s*$")


def _masked(code: str) -> str:
    """The code with casts and string literals blanked (same length)."""
    code = CAST.sub(lambda m: " " * len(m.group()), code)
    return re.sub(r"\"[^\"]*\"|'[^']*'", lambda m: " " * len(m.group()), code)


def _edits(code: str) -> list[tuple[str, int, int, str]]:
    """Every (operator, start, end, replacement) in one line of code."""
    masked = _masked(code)
    out: list[tuple[str, int, int, str]] = []
    swaps = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
    for m in re.finditer(r"(?<![<>=!-])(<=|>=|<|>)(?![<>=])", masked):
        out.append(("boundary", m.start(), m.end(), swaps[m.group()]))
    for m in re.finditer(r"==|!=", masked):
        out.append(("negate", m.start(), m.end(), "!=" if m.group() == "==" else "=="))
    for m in re.finditer(r"(\+|-|\|)=(?!=)", masked):
        out.append(("assign", m.start(), m.end(), "="))
    for m in re.finditer(r"(?<![&|])([&|])(?![&|=])", masked):
        if BINARY_BEFORE.search(masked[: m.start()]):
            out.append(("bitop", m.start(), m.end(), "|" if m.group() == "&" else "&"))
    for m in re.finditer(r"\b(and|or)\b", masked):
        out.append(("logic", m.start(), m.end(), "or" if m.group() == "and" else "and"))
    for m in re.finditer(r"<<|>>", masked):
        out.append(("shift", m.start(), m.end(), ">>" if m.group() == "<<" else "<<"))
    for m in re.finditer(r"\bnot\s+", masked):
        out.append(("not", m.start(), m.end(), ""))
    for m in re.finditer(r"\brange\(([^()]*(?:\([^()]*\))?[^()]*)\)", masked):
        inner_start, inner_end = m.start(1), m.end(1)
        out.append(("range", inner_end, inner_end, " - 1"))
        if "," in m.group(1):
            comma = masked.index(",", inner_start)
            out.append(("range", comma, comma, " + 1"))
    for m in re.finditer(r"\[([A-Za-z_]\w*)\]\[([A-Za-z_]\w*)\]", masked):
        if m.group(1) != m.group(2):
            out.append(("row-col", m.start(), m.end(), f"[{m.group(2)}][{m.group(1)}]"))
    for m in re.finditer(r"(?<![\w.\[])(\d+)(?![\w.\]])", masked):
        value = int(m.group())
        out.append(("constant", m.start(), m.end(), str(value + 1)))
    return out


def _code_lines(text: str) -> list[tuple[int, str]]:
    """(line number, code) of every line outside comments and docstrings."""
    lines: list[tuple[int, str]] = []
    in_doc = False
    for n, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        quotes = stripped.count('"""')
        if in_doc:
            in_doc = quotes % 2 == 0
            continue
        if stripped.startswith('"""'):
            in_doc = quotes == 1
            continue
        if not stripped or stripped.startswith(("#", "cimport", "from ", "include ")):
            continue
        if (
            stripped.startswith(("cdef ", "cpdef ", "ctypedef ", "DEF "))
            and "=" not in stripped
        ):
            continue
        if CONSTANT_DEFINITION.match(raw):
            continue
        code = raw.split("#", 1)[0].rstrip()
        lines.append((n, code))
    return lines


def enumerate_mutants(root: Path = ROOT) -> list[Mutant]:
    """Every mutant of the rules core, in file and line order."""
    mutants: list[Mutant] = []
    for folder in CORE_DIRS:
        for path in sorted((root / folder).glob("*.pxi")):
            rel = path.relative_to(root).as_posix()
            seen: dict[str, int] = {}
            for n, code in _code_lines(path.read_text(encoding="utf-8")):
                # the id survives edits elsewhere: file, line text, its repeat, edit
                repeat = seen[code.strip()] = seen.get(code.strip(), -1) + 1
                for k, (op, start, end, repl) in enumerate(_edits(code)):
                    after = code[:start] + repl + code[end:]
                    key = f"{rel}|{code.strip()}|{repeat}|{op}|{k}"
                    mid = hashlib.sha1(key.encode()).hexdigest()[:10]
                    mutants.append(Mutant(mid, rel, n, op, code.strip(), after.strip()))
    return mutants


def _run(
    cmd: list[str], cwd: Path, timeout: float, env: dict[str, str]
) -> tuple[int, str]:
    """Exit code (124 on timeout) and the output's tail."""
    try:
        done = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return 124, "timeout"
    return done.returncode, (done.stdout + done.stderr)[-3000:]


def _first_failure(output: str) -> str:
    """The first failing test's node id in pytest's -q output, or ''."""
    found = re.search(r"^(?:FAILED|ERROR) (\S+)", output, re.MULTILINE)
    return found.group(1) if found else ""


def _environment() -> dict[str, str]:
    env = dict(os.environ, PU_SIM_OPT="-O0", HYPOTHESIS_PROFILE="mutants")
    env.setdefault("PU_SIM_REFERENCE", str(ROOT.parent / "shared" / "reference"))
    return env


def _copy_checkout(work: Path) -> None:
    """A copy of the checkout's tracked files (as they are now) in ``work``."""
    if work.exists():
        shutil.rmtree(work)
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        src = ROOT / name.decode()
        if src.is_file():
            dst = work / name.decode()
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def _build(work: Path, env: dict[str, str]) -> tuple[int, str]:
    return _run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"], work, 600, env
    )


def _pytest(work: Path, env: dict[str, str], timeout: float) -> tuple[int, str, float]:
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
    cmd += [
        "--no-header",
        "-o",
        "addopts=-m 'not slow and not benchmark'",
        *RULES_TESTS,
    ]
    start = time.perf_counter()
    code, out = _run(cmd, work, timeout, env)
    return code, out, time.perf_counter() - start


def run(
    sample: int, seed: int, out: Path, work: Path, *, retry: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Build and test ``sample`` seeded mutants; write and return the results.

    A run interrupted part-way resumes from ``out`` with the same mutants; the
    mutants in ``retry`` (ids) are tested again, e.g. survivors once a test
    has been written for them.
    """
    env = _environment()
    every = enumerate_mutants()
    results = _finished(out, sample, seed, every)
    todo = [_mutant(r) for r in results if r["id"] in retry]
    results = [r for r in results if r["id"] not in retry]
    if len(results) + len(todo) < sample:
        seen = {r["id"] for r in results} | {m.id for m in todo}
        fresh = random.Random(seed).sample(every, min(sample, len(every)))
        todo += [m for m in fresh if m.id not in seen][
            : sample - len(results) - len(todo)
        ]
    _copy_checkout(work)
    code, log = _build(work, env)
    if code:
        raise SystemExit(f"the unmutated core does not build in {work}:\n{log}")
    code, log, baseline = _pytest(work, env, 3600)
    if code:
        raise SystemExit(f"the rules tests fail on the unmutated core:\n{log}")
    print(f"{len(every)} mutants in the rules core; {len(todo)} to test; "
          f"rules tests take {baseline:.0f} s", flush=True)  # fmt: skip
    for i, m in enumerate(todo, start=1):
        results.append(_judge(m, work, env, max(120.0, 4 * baseline)))
        print(f"[{i}/{len(todo)}] {results[-1]['status']:14} {m.file}:{m.line} "
              f"{m.operator}: {m.before} -> {m.after}", flush=True)  # fmt: skip
        out.write_text(
            json.dumps(_summary(every, sample, seed, results), indent=1) + "\n"
        )
    return _summary(every, sample, seed, results)


def _judge(
    m: Mutant, work: Path, env: dict[str, str], timeout: float
) -> dict[str, Any]:
    """Put mutant ``m`` into the copy, build it, run the rules tests, undo it."""
    path = work / m.file
    original = path.read_text(encoding="utf-8")
    lines = original.splitlines(keepends=True)
    text = lines[m.line - 1]
    indent = text[: len(text) - len(text.lstrip())]
    comment = text.rstrip("\n")[len(indent) + len(m.before) :]
    lines[m.line - 1] = indent + m.after + comment + "\n"
    path.write_text("".join(lines), encoding="utf-8")
    try:
        code, log = _build(work, env)
        if code:
            status, test, seconds = "does not build", "", 0.0
        else:
            code, log, seconds = _pytest(work, env, timeout)
            status = {0: "survived", 124: "timeout"}.get(code, "killed")
            test = _first_failure(log) if status == "killed" else ""
            if status == "killed" and not test:
                status = "crashed"
    finally:
        path.write_text(original, encoding="utf-8")
    return {**asdict(m), "status": status, "killed_by": test, "seconds": seconds}


def _mutant(r: dict[str, Any]) -> Mutant:
    return Mutant(
        *(r[f] for f in ("id", "file", "line", "operator", "before", "after"))
    )


def _finished(
    out: Path, sample: int, seed: int, every: list[Mutant]
) -> list[dict[str, Any]]:
    """An earlier run's results for the same sample, matched to today's code.

    The code may have changed since (a line moved, dead code deleted): a
    result keeps its mutant when its id (file, line text, which repeat of that
    text, edit) still exists, else it goes to today's mutant of the same file,
    operator and text on the nearest line; one whose line is gone is marked
    ``code removed``.
    """
    if not out.is_file():
        return []
    earlier = json.loads(out.read_text(encoding="utf-8"))
    if (earlier["sample"], earlier["seed"]) != (sample, seed):
        return []
    by_id = {m.id: m for m in every}
    by_text: dict[tuple[str, str, str, str], list[Mutant]] = {}
    for m in every:
        by_text.setdefault((m.file, m.operator, m.before, m.after), []).append(m)
    results = []
    for r in earlier["mutants"]:
        same = by_text.get((r["file"], r["operator"], r["before"], r["after"]), [])
        if r["id"] in by_id:  # the id names the line text and which repeat of it
            results.append({**r, "line": by_id[r["id"]].line})
        elif same:
            now = min(same, key=lambda m: abs(m.line - r["line"]))
            results.append({**r, "id": now.id, "line": now.line})
        else:
            results.append({**r, "status": "code removed"})
    return results


def _summary(
    every: list[Mutant], sample: int, seed: int, results: list[dict[str, Any]]
) -> dict[str, Any]:
    return {"layer": "rules core (Cython)", "population": len(every), "sample": sample,
            "seed": seed, "tests": RULES_TESTS, "mutants": results}  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sample", type=int, default=100, help="mutants to try (default 100)"
    )
    parser.add_argument("--seed", type=int, default=2066)
    parser.add_argument("--out", type=Path, default=ROOT / "reports/mutation/core.json")
    parser.add_argument("--work", type=Path, default=ROOT / "build/core-mutants")
    parser.add_argument(
        "--retry", nargs="*", default=(), help="mutant ids to test again"
    )
    parser.add_argument(
        "--list", action="store_true", help="count the mutants per operator and stop"
    )
    args = parser.parse_args(argv)
    if args.list:
        every = enumerate_mutants()
        for op in sorted({m.operator for m in every}):
            print(f"{op:10} {sum(m.operator == op for m in every)}")
        print(f"{'total':10} {len(every)}")
        return
    args.out.parent.mkdir(parents=True, exist_ok=True)
    run(args.sample, args.seed, args.out, args.work, retry=tuple(args.retry))


if __name__ == "__main__":
    raise SystemExit(guarded(main))
