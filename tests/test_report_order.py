"""A report is the same under every hash seed: no table depends on a join's order.

Polars promises no row order from a join unless asked (``maintain_order``),
and Python's string hashes change with ``PYTHONHASHSEED``: a report that
relied on either could swap its bots or reorder its rows from one process to
the next (it did: a join lost its order under polars 2.1).  The reports of a
study (solo and multiplayer runs, two policies on paired setups, round
scores) and of a comparison are built in fresh processes under several hash
seeds and must be equal, figure for figure of their tables and word for word
of their README.  A second pass makes every join that does not ask for its
order return its rows shuffled (as polars may), so a join whose order matters
is found even where this machine's polars happens to keep it.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pu_sim

SEEDS = ("0", "1", "2")

SHUFFLED_JOINS = """
import os, polars as pl
seed = int(os.environ["PYTHONHASHSEED"])
eager, lazy = pl.DataFrame.join, pl.LazyFrame.join
def _shuffled(frame):
    return frame.sample(fraction=1.0, shuffle=True, seed=seed) if frame.height else frame
def join(self, *args, **kwargs):
    out = eager(self, *args, **kwargs)
    return out if kwargs.get("maintain_order") not in (None, "none") else _shuffled(out)
def lazy_join(self, *args, **kwargs):
    out = lazy(self, *args, **kwargs)
    if kwargs.get("maintain_order") not in (None, "none"):
        return out
    return _shuffled(out.collect()).lazy()
pl.DataFrame.join, pl.LazyFrame.join = join, lazy_join
"""

BUILD = """
import sys
from pathlib import Path
from pu_sim.report.reporting import write_report
from pu_sim.variants.compare import compare
from pu_sim.rules import Variant
study, out = Path(sys.argv[1]), Path(sys.argv[2])
write_report(study, out / "study")
richer = Variant.from_text(
    '[variant]\\nname = "richer"\\n[corporation.cosmos_inc.tracks]\\n'
    'water = { 15 = "medal:14" }\\n', "richer.toml")
compare(richer, 12, players=3, corporations="random", bots="random", paired=True,
        seed=5, n_jobs=1, out=out / "compare", runs_dir=study.parent / "compare-runs")
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("order") / "study"
    common = {"corporations": "random", "planets": "random", "n_jobs": 1}
    pu_sim.run(48, out=root / "mixed", players=3, paired=True, round_scores=True,
               bots=["greedy", "random", "random"], seed=1,
               metadata={"study": "order", "name": "mixed", "pairing": "p"},
               **common)  # fmt: skip
    pu_sim.run(48, out=root / "mixed-other", players=3, paired=True,
               bots=["random", "greedy", "greedy"], seed=1,
               metadata={"study": "order", "name": "mixed-other", "pairing": "p"},
               **common)  # fmt: skip
    pu_sim.run(40, out=root / "four", players=4, bots="greedy", seed=2,
               metadata={"study": "order", "name": "four"}, **common)  # fmt: skip
    for bot in ("greedy", "random"):
        pu_sim.run(30, out=root / f"solo-{bot}", players=1, bots=bot, seed=3,
                   metadata={"study": "order", "name": f"solo-{bot}"},
                   **common)  # fmt: skip
    return root


def reports(
    study: Path, base: Path, prelude: str, seeds: tuple[str, ...] = SEEDS
) -> dict[str, dict[str, str]]:
    """The reports' tables and READMEs built under each hash seed, by seed."""
    out = {}
    for seed in seeds:
        folder = base / f"seed-{seed}"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", prelude + BUILD, str(study), str(folder)],
            env=env, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        files = sorted(
            p for p in folder.rglob("*") if p.suffix in (".csv", ".md") and p.is_file()
        )
        out[seed] = {
            p.relative_to(folder).as_posix(): p.read_text().replace(str(folder), "OUT")
            for p in files
        }
    return out


def assert_equal_under_every_seed(built: dict[str, dict[str, str]]) -> None:
    seeds = list(built)
    first = built[seeds[0]]
    assert len(first) > 20, sorted(first)  # the tables of every section
    for seed in seeds[1:]:
        assert sorted(built[seed]) == sorted(first)
        differ = [name for name in first if built[seed][name] != first[name]]
        assert not differ, (seed, differ)


def test_reports_are_equal_under_every_hash_seed(study, tmp_path):
    assert_equal_under_every_seed(reports(study, tmp_path, ""))


def test_no_report_table_depends_on_a_joins_order(study, tmp_path):
    assert_equal_under_every_seed(
        reports(study, tmp_path, SHUFFLED_JOINS, seeds=SEEDS[:2])
    )


def test_every_join_of_the_analyses_and_reports_states_its_order():
    """The rule the audit left: a join says which order it keeps (or the test
    above would have to find each one that matters anew)."""
    root = Path(pu_sim.__file__).parent
    unordered = []
    for folder in ("analysis", "report", "variants"):
        for path in sorted((root / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "join"
                    and any(k.arg == "on" for k in node.keywords)
                    and not any(k.arg == "maintain_order" for k in node.keywords)
                ):
                    unordered.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not unordered
