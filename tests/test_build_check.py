"""The package explains how to build the core when it is missing or stale."""

from __future__ import annotations

import os
import sys
import warnings

import pytest

from pu_sim.engine import core as engine_core


def test_missing_core_says_how_to_build(monkeypatch):
    import pu_sim

    monkeypatch.delattr(pu_sim, "_core", raising=False)
    monkeypatch.setitem(sys.modules, "pu_sim._core", None)  # import now fails
    with pytest.raises(ImportError, match=r"make build.*pip install"):
        engine_core.import_core()


def package_with_newer_source(root):
    """A pu_sim folder whose core/engine/round.pxi is newer than its built core."""
    package = root / "pu_sim"
    package.mkdir()
    binary = package / "_core.so"
    binary.write_bytes(b"")
    source = package / "core/engine/round.pxi"
    source.parent.mkdir(parents=True)
    source.write_text("")
    os.utime(binary, (1_000, 1_000))
    os.utime(source, (2_000, 2_000))
    return package, binary, source


def test_stale_sources_are_detected(tmp_path, monkeypatch):
    package, binary, source = package_with_newer_source(tmp_path)
    (tmp_path / "setup.py").write_text("")  # a source checkout
    monkeypatch.setattr(engine_core, "_HERE", package)
    assert engine_core.sources_newer_than(binary) == [source]
    os.utime(source, (500, 500))
    assert engine_core.sources_newer_than(binary) == []


def test_an_installed_package_is_never_stale(tmp_path, monkeypatch):
    # pip copies the .pyx/.pxi after building, so their times say nothing there
    package, binary, _ = package_with_newer_source(tmp_path)
    monkeypatch.setattr(engine_core, "_HERE", package)
    assert engine_core.sources_newer_than(binary) == []


def test_a_stale_core_warns_once(monkeypatch):
    monkeypatch.setattr(engine_core, "sources_newer_than", lambda binary: [binary])
    monkeypatch.setattr(engine_core, "_WARNED", set())
    with pytest.warns(RuntimeWarning, match="older than"):
        engine_core.import_core()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        engine_core.import_core()  # the same stale files: said once already
