"""The layers of docs/architecture.md: analyses and reports never need the core."""

from __future__ import annotations

import subprocess
import sys

import pytest

PURE = ["pu_sim.analysis", "pu_sim.report.reporting", "pu_sim.rules.loading",
        "pu_sim.simulation.runfolder"]  # fmt: skip


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
