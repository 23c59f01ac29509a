"""Import an experiment script (experiments/ is not a package) for its tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def load(name: str) -> ModuleType:
    """experiments/<name>.py (``bots/<name>``: a bot-development script) as a
    module, registered so dataclasses resolve."""
    spec = importlib.util.spec_from_file_location(
        "exp_" + name.replace("/", "_"), EXPERIMENTS / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through it
    spec.loader.exec_module(module)
    return module
