"""The mutation scripts: which edits the core's operators make, how the report scores."""

from __future__ import annotations

import pytest
from experiment_scripts import load

core = load("mutation/core_mutants")
report = load("mutation/report")


def edits(code: str) -> set[tuple[str, str]]:
    """(operator, mutated line) of every edit of one line."""
    return {(op, code[:a] + r + code[b:]) for op, a, b, r in core._edits(code)}


def test_a_cast_is_not_a_comparison_but_the_comparison_beside_it_is():
    found = edits("x = <uint8_t>a < b")
    assert ("boundary", "x = <uint8_t>a <= b") in found
    assert not any("<uint8_t>" not in line for _, line in found)


def test_an_address_is_not_a_bit_operation():
    assert not any(op == "bitop" for op, _ in edits("f(&g.pl[p], x)"))
    assert ("bitop", "y = a | b") in edits("y = a & b")


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("n += 1", ("assign", "n = 1")),
        ("if a == b:", ("negate", "if a != b:")),
        ("if a and b:", ("logic", "if a or b:")),
        ("m = 1 << k", ("shift", "m = 1 >> k")),
        ("if not done:", ("not", "if done:")),
        ("for i in range(a, b):", ("range", "for i in range(a + 1, b):")),
        ("for i in range(n):", ("range", "for i in range(n - 1):")),
        ("v = grid[y][x]", ("row-col", "v = grid[x][y]")),
        ("k = 12", ("constant", "k = 13")),
    ],
)
def test_each_operator_makes_its_edit(code, expected):
    assert expected in edits(code)


def test_comments_docstrings_and_constant_tables_are_not_mutated():
    text = '''
# a comment with a < b
cdef inline int f(int a) noexcept nogil:
    """A docstring with a < b."""
    return a < 3
N_THINGS = 4
'''
    assert [code.strip() for _, code in core._code_lines(text)] == ["return a < 3"]


def test_every_core_mutant_has_its_own_stable_id():
    first = core.enumerate_mutants()
    assert len(first) > 1000
    assert len({m.id for m in first}) == len(first)
    assert [m.id for m in core.enumerate_mutants()] == [m.id for m in first]


def mutant(status: str, i: int) -> dict:
    return {"id": f"m{i}", "status": status}


def test_the_score_counts_timeouts_as_killed_and_untested_code_as_survived():
    ms = [mutant("killed", 0), mutant("timeout", 1), mutant("no tests", 2),
          mutant("survived", 3), mutant("does not build", 4)]  # fmt: skip
    s = report.score(ms)
    assert (s["detected"], s["counted"]) == (2, 4)
    assert s["share"] == 0.5 and s["lo"] < 0.5 < s["hi"]


def test_an_equivalent_mutant_leaves_the_score_but_a_killed_one_stays():
    ms = [mutant("killed", 0), mutant("survived", 1), mutant("killed", 2)]
    marked = report._with_equivalents(
        ms, {"m1": "same program", "m2": "listed by mistake"}
    )
    assert [m["status"] for m in marked] == ["killed", "equivalent", "killed"]
    assert report.score(marked)["share"] == 1.0


def test_the_report_says_whether_each_layer_meets_the_target():
    core_run = {"population": 50, "sample": 10, "seed": 1, "mutants": [
        {**mutant("killed" if i < 8 else "survived", i), "file": "f.pxi", "line": i,
         "operator": "negate", "before": "a == b", "after": "a != b"} for i in range(10)
    ]}  # fmt: skip
    python_run = {"population": {"analysis": 5, "simulation": 5}, "sample": 5, "seed": 1,
                  "mutants": [{**mutant("killed", i), "layer": layer, "diff": ""}
                              for i, layer in enumerate(["analysis"] * 5 + ["simulation"] * 5)]}  # fmt: skip
    doc = report.build(core_run, python_run, {})
    by_layer = {h.split(":")[0]: h for h in doc.headlines}
    assert "target 90.0% not met" in by_layer["rules core (Cython)"]
    assert "kill 8 of 10" in by_layer["rules core (Cython)"]
    assert "target 90.0% met" in by_layer["pu_sim/analysis (Python)"]
    assert "`f.pxi:8` (negate)" in "\n".join(doc.body)


def test_earlier_results_follow_their_line_or_say_the_code_is_gone(tmp_path):
    every = core.enumerate_mutants()
    m = every[len(every) // 2]
    moved = {**core.asdict(m), "id": "old", "line": m.line + 7, "status": "killed"}
    gone = {**moved, "before": "a line deleted since", "status": "survived"}
    out = tmp_path / "core.json"
    out.write_text(core.json.dumps({"sample": 2, "seed": 1, "mutants": [moved, gone]}))
    now, removed = core._finished(out, 2, 1, every)
    assert (now["id"], now["line"], now["status"]) == (m.id, m.line, "killed")
    assert removed["status"] == "code removed"
    assert core._finished(out, 3, 1, every) == []  # another sample: start afresh


@pytest.mark.slow
def test_a_sample_of_core_mutants_is_judged_as_the_report_says(tmp_path):
    # one mutant the rules tests kill and one equivalent (the report's own),
    # each rebuilt in a copy of the checkout: the machinery, end to end
    every = {m.id: m for m in core.enumerate_mutants()}
    work = tmp_path / "work"
    core._copy_checkout(work)
    env = core._environment()
    assert core._build(work, env)[0] == 0
    flux = next(m for m in every.values() if m.file.endswith("flux_industries.pxi")
                and "flux_t1_movement(pl) >= 0" in m.after)  # fmt: skip
    killed = core._judge(flux, work, env, timeout=900)
    assert killed["status"] == "killed" and "test_corp_flux" in killed["killed_by"]
    same = core._judge(every["405c7b525f"], work, env, timeout=900)
    assert same["status"] == "survived"
