"""The layer contract (docs/architecture.md), checked: imports, the core, seeds."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pu_sim"

PURE = ["pu_sim.analysis", "pu_sim.report.reporting", "pu_sim.rules",
        "pu_sim.simulation.runfolder", "pu_sim.bots"]  # fmt: skip
"""Modules an analyst uses to read and analyse saved runs without a C compiler."""


def contract() -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]
    return config["importlinter"]


def python_files(*folders: Path) -> list[Path]:
    return sorted(p for folder in folders for p in folder.rglob("*.py"))


@pytest.mark.parametrize("module", PURE)
def test_reading_and_analysing_runs_does_not_import_the_compiled_core(module):
    code = (
        "import importlib, pkgutil, sys\n"
        f"m = importlib.import_module({module!r})\n"
        "for sub in pkgutil.walk_packages(getattr(m, '__path__', []), m.__name__ + '.'):\n"
        "    importlib.import_module(sub.name)\n"
        "assert 'pu_sim._core' not in sys.modules, sorted(\n"
        "    k for k in sys.modules if k.startswith('pu_sim'))\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_layer_contract_holds():
    """import-linter checks every import (lazy ones too) against the layers."""
    result = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command;"
         "lint_imports_command()"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


def test_the_contract_names_every_part_of_the_package_and_ignores_none():
    (layers,) = [c for c in contract()["contracts"] if c["type"] == "layers"]
    named = {m.strip() for layer in layers["layers"]
             for m in layer.replace(":", "|").split("|")}  # fmt: skip
    parts = {
        p.stem if p.is_file() else p.name
        for p in PACKAGE.iterdir()
        if (p.is_dir() and (p / "__init__.py").is_file())
        or (p.suffix == ".py" and not p.name.startswith("_"))
    }
    assert parts == named, (
        f"not in the contract: {parts - named}; gone: {named - parts}"
    )
    assert all("ignore_imports" not in c for c in contract()["contracts"])


def test_only_the_engine_facade_imports_the_compiled_core():
    facade = PACKAGE / "engine" / "core.py"
    offenders = []
    for path in python_files(PACKAGE, ROOT / "experiments"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names]
                names += [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Name | ast.Attribute):
                names = [getattr(node, "id", None) or getattr(node, "attr", "")]
            hit = any(n.endswith("pu_sim._core") or n == "import_core" for n in names)
            if hit and path != facade and PACKAGE / "engine" not in path.parents:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders


def test_no_seed_arithmetic_outside_the_seed_module():
    """Sub-seeds are derived (seeds.derive), never seed + n."""
    allowed = PACKAGE / "simulation" / "seeds.py"

    def is_seed(node: ast.AST) -> bool:
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            name = str(node.slice.value)  # budget["seed"]
        else:
            name = getattr(node, "id", None) or getattr(node, "attr", None) or ""
        return name == "seed" or name.endswith("_seed")

    offenders = []
    for path in python_files(PACKAGE, ROOT / "experiments"):
        if path == allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.BinOp) and (
                is_seed(node.left) or is_seed(node.right)
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders
