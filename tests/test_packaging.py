"""The package's metadata is complete and its license is the one it declares."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_metadata_is_complete():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"  # an SPDX expression, not a table
    assert project["license-files"] == ["LICENSE"]
    assert project["authors"] and project["urls"] and project["keywords"]
    classifiers = project["classifiers"]
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")]  # SPDX instead
    assert "MIT License" in (ROOT / "LICENSE").read_text()


def test_the_build_requires_a_setuptools_that_reads_spdx_licenses():
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]
    assert "setuptools>=77" in build["requires"]
