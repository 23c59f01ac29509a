"""Where a result came from: package versions, the git revision, the machine.

Run manifests record these facts so a number in a report can be traced to the
code and the environment that produced it.  Nothing here affects a game.
"""

from __future__ import annotations

import json
import os
import platform
import socket
import subprocess
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parents[1]
SOURCE_PATHSPEC = (":(top)", ":(top,exclude)reports")  # what "dirty" looks at

LIBRARIES = ("numpy", "polars", "joblib", "tqdm", "dask", "distributed")
"""Libraries whose versions a manifest records (None when not installed)."""


def library_versions() -> dict[str, str | None]:
    """Python and library versions; a missing optional library is None."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def game_versions() -> dict[str, Any]:
    """The versions that decide a game: pu_sim, rules, engine and the digests.

    The data's digest and that of the greedy bot's fitted tables (which bot
    knowledge played).
    """
    import pu_sim
    from pu_sim.engine import load_rules
    from pu_sim.engine.core import engine_version
    from pu_sim.rules import RULES_VERSION

    return {
        "pu_sim": pu_sim.__version__,
        "rules": RULES_VERSION,
        "engine": engine_version(),
        "rules_digest": load_rules().digest,
        "fitted_digest": load_rules().fitted_digest,
    }


def bots_fitted_digest(kinds: Iterable[str]) -> str:
    """The digest of the fitted tables bots of these kinds read.

    A run's games depend on those tables alone, so a run folder checks this
    digest, not the whole folder's: a new policy network leaves runs of greedy
    bots valid (``FittedTables.read_by`` says which bot reads what).
    """
    from pu_sim.engine import load_rules

    fitted = load_rules().fitted
    return fitted.digest_of(fitted.read_by(kinds))


def _git(*args: str) -> str | None:
    """Output of a git command run in the package's folder, or None."""
    try:
        res = subprocess.run(
            ["git", "-C", str(PACKAGE_DIR), *args],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return res.stdout.strip() if res.returncode == 0 else None


def git_revision() -> dict[str, Any] | None:
    """The commit and dirty flag of the checkout pu_sim runs from, else None.

    An installed copy (``pip install .``) is outside the checkout: it reports
    the revision its build recorded (:func:`recorded_at_build`), or None when
    it was built without git.  "Dirty" means tracked files outside
    ``reports/`` differ from the commit: a study rewrites its own committed
    report there before this is asked, and that says nothing about the code
    that played the games.  Untracked files (run folders, notes) do not count.
    """
    top = _git("rev-parse", "--show-toplevel")
    if (
        top is None
        or not (Path(top) / "pu_sim" / "__init__.py").exists()
        or (Path(top) / "pu_sim").resolve() != PACKAGE_DIR  # an unrelated repo
    ):
        return recorded_at_build()
    revision = _git("rev-parse", "HEAD")
    status = _git(
        "status", "--porcelain", "--untracked-files=no", "--", *SOURCE_PATHSPEC
    )
    if revision is None or status is None:
        return None
    return {"revision": revision, "dirty": bool(status)}


def recorded_at_build() -> dict[str, Any] | None:
    """The git revision ``setup.py`` recorded when it built this copy, or None."""
    try:
        info = json.loads((PACKAGE_DIR / "_build_info.json").read_text())
    except (OSError, ValueError):
        return None
    git = info.get("git") if isinstance(info, dict) else None
    return {**git, "recorded_at_build": True} if isinstance(git, dict) else None


def machine() -> dict[str, Any]:
    """Host facts that explain speed figures."""
    return {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }
