"""The package explains how to build the core when it is missing or stale."""

from __future__ import annotations

import os
import sys

import pytest

from pu_sim import _build_check


def test_missing_core_says_how_to_build(monkeypatch):
    import pu_sim

    monkeypatch.delattr(pu_sim, "_core", raising=False)
    monkeypatch.setitem(sys.modules, "pu_sim._core", None)  # import now fails
    with pytest.raises(ImportError, match=r"make build.*pip install"):
        _build_check.import_core()


def test_stale_sources_are_detected(tmp_path, monkeypatch):
    binary = tmp_path / "_core.so"
    binary.write_bytes(b"")
    source = tmp_path / "_round.pxi"
    source.write_text("")
    os.utime(binary, (1_000, 1_000))
    os.utime(source, (2_000, 2_000))
    monkeypatch.setattr(_build_check, "_HERE", tmp_path)
    assert _build_check.sources_newer_than(binary) == [source]
    os.utime(source, (500, 500))
    assert _build_check.sources_newer_than(binary) == []


def test_a_stale_core_warns(monkeypatch):
    monkeypatch.setattr(_build_check, "sources_newer_than", lambda binary: [binary])
    with pytest.warns(RuntimeWarning, match="older than"):
        _build_check.import_core()
