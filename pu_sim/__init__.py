"""pu_sim: Monte Carlo simulation and balance analytics for Planet Unknown.

The public API is small: :func:`simulate` plays games and returns a Polars frame;
:func:`run` plays a study into a resumable run folder (:func:`scan_run`,
:func:`read_manifest` read it back); both, and :class:`Game` (one game step by
step, the slow path), take the same table description, :class:`TableSetup`
(or its fields as keywords); :mod:`pu_sim.bots` builds bot specifications and
:class:`RuleOptions` flips the rules' ambiguities; :class:`Variant` changes
the game's data (a designer's what-if) and :func:`compare` measures what it
changes against the published game on the same setups.  Pure-Python modules (data,
analysis) import without the compiled core; anything that plays games needs it
and explains how to build it when it is missing.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "simulate": "pu_sim.simulation.in_memory",
    "run": "pu_sim.simulation.runner",
    "scan_run": "pu_sim.simulation.runfolder",
    "read_manifest": "pu_sim.simulation.manifest",
    "TableSetup": "pu_sim.simulation.table",
    "Game": "pu_sim.game",
    "compare": "pu_sim.variants.compare",
    "Variant": "pu_sim.rules",
    "RuleOptions": "pu_sim.rules",
    "load_rules": "pu_sim.engine",
    "RULES_VERSION": "pu_sim.rules",
}

__all__ = [
    "RULES_VERSION",
    "Game",
    "RuleOptions",
    "TableSetup",
    "Variant",
    "__version__",
    "compare",
    "load_rules",
    "read_manifest",
    "run",
    "scan_run",
    "simulate",
]


def __getattr__(name: str) -> Any:
    """Import the public API on first use, so data-only users skip the core."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pu_sim' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
