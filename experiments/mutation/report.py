"""The mutation report: how many realistic one-line bugs the tests catch.

Reads the results that ``core_mutants.py`` and ``python_mutants.py`` wrote
under ``reports/mutation/`` and the equivalent mutants listed (with a reason
each) in ``equivalent.toml`` beside this script, and writes the report's
``README.md`` and ``index.html``.  A layer's score is the share of its
sampled, non-equivalent mutants that some test kills (a mutant that makes the
tests run past their time limit counts as killed: the suite noticed), with a
95% Wilson interval for the whole layer, since only a sample was tried.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path
from typing import Any

from pu_sim.analysis.stats import wilson_interval
from pu_sim.report.document import Document, write_pages
from pu_sim.report.markdown import md_table
from pu_sim.studies.harness import guarded

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
TARGET = 0.90
DETECTED = ("killed", "timeout", "crashed")
UNDETECTED = ("survived", "no tests")
NOT_COUNTED = ("does not build", "equivalent", "code removed")


def load_equivalent(path: Path = HERE / "equivalent.toml") -> dict[str, str]:
    """Mutant id -> why no test can tell it from the original."""
    data = tomllib.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    return {e["id"]: e["reason"] for group in data.values() for e in group}


def _with_equivalents(
    mutants: list[dict[str, Any]], equivalent: dict[str, str]
) -> list[dict[str, Any]]:
    out = []
    for m in mutants:
        if m["id"] in equivalent and m["status"] in UNDETECTED:
            m = {**m, "status": "equivalent", "reason": equivalent[m["id"]]}
        out.append(m)
    return out


def score(mutants: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts by status and the killed share with its 95% Wilson interval."""
    counts = {
        s: sum(m["status"] == s for m in mutants)
        for s in (*DETECTED, *UNDETECTED, *NOT_COUNTED)
    }
    counted = sum(counts[s] for s in (*DETECTED, *UNDETECTED))
    detected = sum(counts[s] for s in DETECTED)
    lo, hi = wilson_interval(detected, counted)
    share = detected / counted if counted else float("nan")
    interval = {"share": share, "lo": float(lo), "hi": float(hi)}
    return {**counts, "sampled": len(mutants), "counted": counted,
            "detected": detected, **interval}  # fmt: skip


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


Layer = tuple[str, int, dict[str, Any], list[dict[str, Any]]]
"""A layer's name, its mutant count, its score and its sampled mutants."""


def _layers(
    core: dict[str, Any] | None,
    python: dict[str, Any] | None,
    equivalent: dict[str, str],
) -> list[Layer]:
    layers = []
    if python:
        for name in ("analysis", "simulation"):
            ms = _with_equivalents(
                [m for m in python["mutants"] if m["layer"] == name], equivalent
            )
            layers.append(
                (f"pu_sim/{name} (Python)", python["population"][name], score(ms), ms)
            )
    if core:
        ms = _with_equivalents(core["mutants"], equivalent)
        layers.append(("rules core (Cython)", core["population"], score(ms), ms))
    return layers


def build(
    core: dict[str, Any] | None,
    python: dict[str, Any] | None,
    equivalent: dict[str, str],
) -> Document:
    """The report as a Document."""
    layers = _layers(core, python, equivalent)
    doc = Document(title="Mutation testing: the bugs the tests catch")
    doc.intro.append(
        "A *mutant* is the code with one realistic one-line bug put in (a boundary "
        "`<` for `<=`, `+=` written `=`, a flipped condition, an off-by-one range, a "
        "swapped row and column, a changed constant). It is *killed* when some test "
        "fails on it. Each layer's mutants are sampled at random with a fixed seed "
        "(testing all of them would take days on two cores), so each score has a "
        f"95% interval for the whole layer. The target is {_pct(TARGET)} killed in "
        "every layer. Mutants that no test can tell from the original (*equivalent*) "
        "are listed below with the reason and left out of the score."
    )
    rows = [_score_row(name, population, s) for name, population, s, _ in layers]
    for name, _, s, _ in layers:
        doc.headlines.append(
            f"{name}: the tests kill {s['detected']} of {s['counted']} sampled "
            f"mutants, {_pct(s['share'])} (95% interval {_pct(s['lo'])} to "
            f"{_pct(s['hi'])}); target {_pct(TARGET)} {_met(s)}."
        )
    doc.body.append(
        "## Scores\n\n"
        + md_table(rows, SCORE_HEADER)
        + "\n\n*killed*: a test failed; *timed out*: the tests ran past their "
        "limit (counted as killed); *survived*: every test passed; *no test runs "
        "it*: no test calls the mutated function (counted as survived). Mutants "
        "that do not compile, and those whose code was deleted since as dead code, "
        "are sampled but count neither way. The rules "
        "core's mutants are judged by the rules tests alone: golden traces and "
        "known-answer scores do not count."
    )
    if core:
        doc.body.append(_by_operator(layers[-1][3]))  # the core is the last layer
    doc.body.append(_survivors(layers))
    doc.body.append(_equivalents(layers))
    doc.provenance.append(_reproducibility(core, python))
    return doc


def _by_operator(ms: list[dict[str, Any]]) -> str:
    """The rules core's killed share per operator, weakest first."""
    ops = sorted({m["operator"] for m in ms})
    op_rows = []
    for op in ops:
        s = score([m for m in ms if m["operator"] == op])
        op_rows.append([op, str(s["counted"]), str(s["detected"]), _pct(s["share"])])
    op_rows.sort(key=lambda r: float(r[3].rstrip("%")) if r[3] != "nan%" else 0.0)
    return "## Rules core by operator\n\n" + md_table(
        op_rows, ["operator", "counted", "killed", "killed share"]
    )


def _survivors(layers: list[Layer]) -> str:
    """Every surviving mutant, each a bug the tests would let in today."""
    survivor_lines = []
    for name, _, _, ms in layers:
        for m in ms:
            if m["status"] in UNDETECTED:
                line = f"- {name}, {m['status']}: {_where(m)}: {_change(m)}"
                survivor_lines.append(line)
    return "## Surviving mutants\n\n" + (
        "Each is a bug the tests would let in today.\n\n" + "\n".join(survivor_lines)
        if survivor_lines
        else "None in the sample."
    )


def _equivalents(layers: list[Layer]) -> str:
    """The equivalent mutants with their reasons."""
    eq_lines = [
        f"- {_where(m)}: {m['reason']}"
        for _, _, _, ms in layers
        for m in ms
        if m["status"] == "equivalent"
    ]
    return "## Equivalent mutants\n\n" + ("\n".join(eq_lines) or "None in the sample.")


def _reproducibility(core: dict[str, Any] | None, python: dict[str, Any] | None) -> str:
    """How the results and this page were made."""
    return (
        "## Reproducibility\n\n"
        + "- Python layers: `python experiments/mutation/python_mutants.py"
        + (f" --sample {python['sample']} --seed {python['seed']}`" if python else "`")
        + " (mutmut, configured under `[tool.mutmut]` in `pyproject.toml`).\n"
        + "- Rules core: `python experiments/mutation/core_mutants.py"
        + (f" --sample {core['sample']} --seed {core['seed']}`" if core else "`")
        + " (our operators; each mutant rebuilt at `-O0`, then the rules tests).\n"
        + "- This page: `python experiments/mutation/report.py`; all three: "
        "`make mutants`.\n"
        + "- Results: `core.json`, `python.json` in this folder; equivalents: "
        "`experiments/mutation/equivalent.toml`."
    )


SCORE_HEADER = [
    "layer", "mutants", "sampled", "equivalent", "killed", "timed out",
    "survived", "no test runs it", "killed share [95%]", "target",
]  # fmt: skip


def _met(s: dict[str, Any]) -> str:
    return "met" if s["share"] >= TARGET else "not met"


def _score_row(name: str, population: int, s: dict[str, Any]) -> list[str]:
    sampled = s["sampled"]
    killed = s["killed"] + s["crashed"]
    counts = [
        sampled,
        s["equivalent"],
        killed,
        s["timeout"],
        s["survived"],
        s["no tests"],
    ]
    interval = f"{_pct(s['share'])} [{_pct(s['lo'])}, {_pct(s['hi'])}]"
    return [name, f"{population:,}", *map(str, counts), interval, _met(s)]


def _where(m: dict[str, Any]) -> str:
    """A core mutant's file, line and operator; a Python mutant's mutmut name."""
    if "file" in m:
        return f"`{m['file']}:{m['line']}` ({m['operator']})"
    return f"`{m['id']}`"


def _change(m: dict[str, Any]) -> str:
    if "before" in m:
        return f"`{m['before']}` → `{m['after']}`".replace("|", "\\|")
    return _one_line_diff(m.get("diff", ""))


def _one_line_diff(diff: str) -> str:
    minus = [
        ln[1:].strip()
        for ln in diff.splitlines()
        if ln.startswith("-") and not ln.startswith("---")
    ]
    plus = [
        ln[1:].strip()
        for ln in diff.splitlines()
        if ln.startswith("+") and not ln.startswith("+++")
    ]
    if not minus and not plus:
        return "(diff unavailable)"
    return f"`{' '.join(minus)}` → `{' '.join(plus)}`".replace("|", "\\|")


def _read(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=ROOT / "reports/mutation")
    args = parser.parse_args(argv)
    core, python = _read(args.folder / "core.json"), _read(args.folder / "python.json")
    if core is None and python is None:
        raise ValueError(
            f"no results in {args.folder}: run core_mutants.py and python_mutants.py"
        )
    page = write_pages(build(core, python, load_equivalent()), args.folder)
    print(f"wrote {page}")


if __name__ == "__main__":
    raise SystemExit(guarded(main))
