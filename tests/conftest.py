"""Shared fixtures; refuse to test a stale compiled core; no silent skips in CI.

``PU_SIM_CI=1`` (set by ``.ci/run``) says everything the tests need is there:
the reference material in ``../shared/reference`` and every test dependency.
Under it a skipped test is a failure, so a checkout without the reference (or
without dask) cannot pass CI by skipping what it cannot check.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, settings

from pu_sim.engine import core as engine_core

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=200, deadline=None)
# Mutation runs: a failing example is enough, so no shrinking (which can outlast
# a mutant's time limit) and fewer examples per property.
settings.register_profile(
    "mutants",
    derandomize=True,
    max_examples=30,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REFERENCE = Path(
    os.environ.get(
        "PU_SIM_REFERENCE", Path(__file__).resolve().parents[2] / "shared" / "reference"
    )
)
"""The rules reference the data tests compare against (beside the checkout)."""

STRICT = os.environ.get("PU_SIM_CI") == "1"
"""CI: every test must run; a skip (missing data or dependency) fails."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> pytest.TestReport:
    """Under ``PU_SIM_CI=1`` a skipped test is reported as failed, with its reason."""
    report: pytest.TestReport = yield
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        reason = (
            report.longrepr[2]
            if isinstance(report.longrepr, tuple)
            else str(report.longrepr)
        )
        report.outcome = "failed"
        report.longrepr = (
            f"skipped under PU_SIM_CI=1, where every test must run: {reason}"
        )
    return report


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
