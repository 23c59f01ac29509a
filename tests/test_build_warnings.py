"""The core compiles without a C compiler warning (slow: a full build)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_core_builds_without_a_compiler_warning(tmp_path):
    copy = tmp_path / "src"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "reports", "runs", "*.so", "_core.c"))  # fmt: skip
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=copy, capture_output=True, text=True, check=True,
    )  # fmt: skip
    warnings = [
        line for line in (done.stdout + done.stderr).splitlines()
        if "warning:" in line
    ]  # fmt: skip
    assert warnings == []
