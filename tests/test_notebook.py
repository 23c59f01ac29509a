"""The designer's notebook runs end to end, on small counts, as a reader would run it."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import matplotlib
import polars as pl
import pytest

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "designer_notebook.ipynb"


def run_cells(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """Every code cell in order in one namespace; each cell's last expression."""
    notebook = json.loads(path.read_text())
    namespace: dict[str, Any] = {}
    shown = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        assert not cell["outputs"], "the notebook is committed without outputs"
        tree = ast.parse("".join(cell["source"]))
        *body, last = tree.body
        exec(compile(ast.Module(body, []), str(path), "exec"), namespace)
        if isinstance(last, ast.Expr):
            shown.append(
                eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)
            )
        else:
            exec(compile(ast.Module([last], []), str(path), "exec"), namespace)
    return namespace, shown


def test_the_designer_notebook_asks_its_question_end_to_end(monkeypatch):
    matplotlib.use("Agg")
    monkeypatch.setenv("PU_SIM_NOTEBOOK_GAMES", "120")
    ns, shown = run_cells(NOTEBOOK)
    status, head, rates, figure, effects = shown
    assert status == "complete" and head.height == 5
    assert ns["games"].height == 120 * 4
    # the verdict: one row per corporation seen, effects sorted, intervals around them
    assert rates["effect_pp"].is_sorted()
    assert (rates["lower_pp"] <= rates["effect_pp"]).all()
    assert (rates["effect_pp"] <= rates["upper_pp"]).all()
    assert rates["n"].sum() == ns["games"].height
    (ax,) = figure.axes
    assert (
        "greedy_tuned" in ax.get_xlabel() and len(ax.get_yticklabels()) == rates.height
    )
    # the variant: every corporation's change in win rate, Cosmos Inc. among them
    assert (
        isinstance(effects, pl.DataFrame) and "Cosmos Inc." in effects["name"].to_list()
    )
    assert effects["change"].is_sorted()
    assert (ns["comparison"].effects["games"] > 0).all()


def test_the_notebook_cell_runner_fails_on_a_failing_cell(tmp_path):
    """The runner above must not swallow errors (or the notebook test could pass
    with a broken cell)."""
    bad = {"cells": [{"cell_type": "code", "outputs": [], "source": ["1 / 0\n"]}]}
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps(bad))
    with pytest.raises(ZeroDivisionError):
        run_cells(path)
