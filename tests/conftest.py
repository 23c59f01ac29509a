"""Shared fixtures; refuse to test a stale compiled core."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from pu_sim.engine import core as engine_core

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"


def pytest_sessionstart(session: pytest.Session) -> None:
    """Fail fast when a .pyx/.pxd/.pxi is newer than the built extension."""
    core = engine_core.import_core()
    stale = engine_core.sources_newer_than(Path(core.__file__))
    if stale:
        names = ", ".join(p.name for p in stale)
        raise pytest.UsageError(
            f"compiled core is stale ({names} changed): run `make build` "
            "(or `pip install --no-build-isolation -e .`)"
        )


@pytest.fixture(scope="session")
def rules():  # type: ignore[no-untyped-def]
    from pu_sim.engine import load_rules

    return load_rules()
