"""Import the compiled core, or explain how to build it (sklearn's __check_build)."""

from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType

_HERE = Path(__file__).resolve().parent

_HOW = (
    "Build it from a source checkout with `make build` (or "
    "`pip install --no-build-isolation -e .`), or install the package with "
    "`pip install .`."
)


def sources_newer_than(binary: Path) -> list[Path]:
    """Cython sources of a source checkout modified after ``binary`` was built.

    An installed package (no ``setup.py`` beside it) was built from its sources
    by pip, which copies them after the build, so their times mean nothing.
    """
    if not (_HERE.parent / "setup.py").is_file():
        return []
    built = binary.stat().st_mtime
    sources = [*_HERE.glob("_core*.pyx"), *_HERE.glob("*.pxd"), *_HERE.rglob("*.pxi")]
    return [p for p in sources if p.stat().st_mtime > built]


_WARNED: set[tuple[Path, ...]] = set()


def import_core() -> ModuleType:
    """Return ``pu_sim._core``; raise ImportError with build advice if absent.

    In a source checkout whose Cython sources changed after the build, warn:
    setuptools does not rebuild an editable install by itself.
    """
    try:
        from pu_sim import _core
    except ImportError as exc:  # pragma: no cover - exercised only without a build
        raise ImportError(
            f"pu_sim's compiled core (pu_sim._core) is missing or broken: {exc}. "
            + _HOW
        ) from exc
    stale = sources_newer_than(Path(_core.__file__))
    if stale and tuple(stale) not in _WARNED:
        _WARNED.add(tuple(stale))  # once per process, not at every caller
        warnings.warn(
            "pu_sim's compiled core is older than "
            + ", ".join(p.name for p in stale)
            + ": results come from the old build. "
            + _HOW,
            RuntimeWarning,
            stacklevel=2,
        )
    return _core
