"""A run's git provenance: which commit played it, and whether its code was edited."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from pu_sim.simulation import provenance


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True, capture_output=True,
    )  # fmt: skip


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A git checkout with a pu_sim package and a committed report."""
    (tmp_path / "pu_sim").mkdir()
    (tmp_path / "pu_sim" / "__init__.py").write_text("x = 1\n")
    (tmp_path / "reports" / "study").mkdir(parents=True)
    (tmp_path / "reports" / "study" / "README.md").write_text("old\n")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "init")
    monkeypatch.setattr(provenance, "PACKAGE_DIR", (tmp_path / "pu_sim").resolve())
    return tmp_path


def test_a_rewritten_report_does_not_make_the_code_dirty(checkout):
    clean = provenance.git_revision()
    assert clean is not None and clean["dirty"] is False
    assert len(clean["revision"]) == 40
    (checkout / "reports" / "study" / "README.md").write_text("new numbers\n")
    (checkout / "notes.txt").write_text("untracked\n")
    assert provenance.git_revision() == clean


def test_an_edited_source_file_anywhere_is_dirty(checkout):
    (checkout / "pu_sim" / "__init__.py").write_text("x = 2\n")
    revision = provenance.git_revision()
    assert revision is not None and revision["dirty"] is True
    git(checkout, "checkout", "-q", "--", "pu_sim")
    (checkout / "setup.py").write_text("")
    git(checkout, "add", "setup.py")  # staged, outside the package folder
    revision = provenance.git_revision()
    assert revision is not None and revision["dirty"] is True


ROOT = Path(__file__).resolve().parents[1]


def test_an_installed_copy_reports_the_revision_its_build_recorded(tmp_path):
    # `pip install .` copies the package out of the checkout, where git cannot
    # answer; the build step records the checkout's revision in the package
    import sys

    built = tmp_path / "build"
    subprocess.run(
        [sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(built)],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    assert not (ROOT / "pu_sim" / "_build_info.json").exists()  # not in the source
    package = (built / "pu_sim").resolve()
    original = provenance.PACKAGE_DIR
    try:
        provenance.PACKAGE_DIR = package  # the installed copy, outside any checkout
        recorded = provenance.git_revision()
    finally:
        provenance.PACKAGE_DIR = original
    assert recorded is not None and recorded["revision"] == head
    assert recorded["recorded_at_build"] is True


def test_a_copy_built_without_git_says_none(tmp_path, monkeypatch):
    (tmp_path / "pu_sim").mkdir()
    monkeypatch.setattr(provenance, "PACKAGE_DIR", tmp_path / "pu_sim")
    assert provenance.git_revision() is None
    (tmp_path / "pu_sim" / "_build_info.json").write_text('{"git": null}\n')
    assert provenance.git_revision() is None
