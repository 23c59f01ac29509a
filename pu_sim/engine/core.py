"""The one door to the compiled core: nothing else in pu_sim imports ``pu_sim._core``.

Everything that deals, plays or compiles reaches the engine through the
functions here, so the core's Python face is one short list and a missing or
stale build is explained in one place (sklearn's ``__check_build``).  The core
is imported on first use, never at import time: reading a saved run or
analysing a frame needs no C compiler.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from pu_sim._core import CoreRules, GameState

_HERE = Path(__file__).resolve().parents[1]
"""The package folder, where the compiled core and its sources lie."""

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


def _sources(package: Path) -> dict[str, bytes]:
    """The Cython sources of a package folder, by path (what a core is built from)."""
    files = [*package.glob("_core*.pyx"), *package.glob("*.pxd"),
             *package.glob("core/*/*.pxi")]  # fmt: skip
    return {p.relative_to(package).as_posix(): p.read_bytes() for p in files}


def installed_core(distribution: str = "pu_sim") -> ModuleType | None:
    """The compiled core of an installed copy of this package, when this one has none.

    Python run from a clone's root imports the clone's ``pu_sim/`` folder, not
    the copy ``pip install .`` put in site-packages: the folder shadows the
    install, and holds no compiled core (pip builds it in a temporary folder).
    The installed copy's core is loaded instead when it was built from the
    very Cython sources of this folder (pip installs them beside it); another
    build is refused with what differs.  None when no installed copy has one.
    """
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None
    folder = Path(str(dist.locate_file("pu_sim"))).resolve()
    if folder == _HERE or not folder.is_dir():
        return None  # an editable install: this folder is the installed one
    binaries = sorted([*folder.glob("_core.*.so"), *folder.glob("_core.*.pyd")])
    if not binaries:
        return None
    mine, theirs = _sources(_HERE), _sources(folder)
    differ = sorted(
        k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k)
    )
    if differ:
        raise ImportError(
            f"this checkout's pu_sim has no compiled core, and the one installed in "
            f"{folder} was built from other sources ({differ[0]} differs): run "
            "`pip install .` again from this checkout, or build it in place with "
            "`make build` (`pip install --no-build-isolation -e .`)"
        )
    spec = importlib.util.spec_from_file_location("pu_sim._core", binaries[0])
    if spec is None or spec.loader is None:  # pragma: no cover - a readable binary
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules["pu_sim._core"] = module
    spec.loader.exec_module(module)
    return module


_WARNED: set[tuple[Path, ...]] = set()


def import_core() -> ModuleType:
    """Return ``pu_sim._core``; raise ImportError with build advice if absent.

    In a source checkout whose Cython sources changed after the build, warn:
    setuptools does not rebuild an editable install by itself.
    """
    try:
        from pu_sim import _core
    except ImportError as exc:
        installed = installed_core()  # a checkout shadowing its own install
        if installed is None:
            raise ImportError(
                f"pu_sim's compiled core (pu_sim._core) is missing or broken: {exc}. "
                + _HOW
            ) from exc
        return installed  # built from this folder's very sources: never stale
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


# --------------------------------------------------------------------------------
# Facts of the build
# --------------------------------------------------------------------------------


def engine_version() -> int:
    """The hand-bumped engine version (a run's games depend on it)."""
    return int(import_core().ENGINE_VERSION)


def constants() -> Mapping[str, int]:
    """The core's sizes and slots by name (``MAX_TECH``, ``N_POS``, ...)."""
    return import_core().CONSTANTS  # type: ignore[no-any-return]


def policy_offsets() -> Mapping[str, int]:
    """Where each table of the policy bot's network starts in its weight vector."""
    return import_core().POLICY_OFFSETS  # type: ignore[no-any-return]


def record_dtype() -> np.dtype[np.void]:
    """The structured dtype of one seat's record (the core's C struct)."""
    return import_core().RECORD_DTYPE  # type: ignore[no-any-return]


def module_int(name: str) -> int:
    """An anonymous integer of the core's module (``PM_GRID``, ``SP_MEDAL``, ...)."""
    return int(getattr(import_core(), name))


# --------------------------------------------------------------------------------
# The core's enums, by their labels
# --------------------------------------------------------------------------------


def code(enum: str, label: str) -> int:
    """The code of the member of core enum ``enum`` spelled ``label``.

    ``code("CardOp", "advance_distinct_trackers")`` is
    ``CardOp.OP_ADVANCE_DISTINCT_TRACKERS``: a data string becomes the core's
    code by name, so no table in Python mirrors the core.
    """
    core = import_core()
    return int(core.code(getattr(core, enum), label))


def label(enum: str, value: int) -> str | None:
    """The label of code ``value`` of core enum ``enum``."""
    core = import_core()
    return core.label(getattr(core, enum)(value))  # type: ignore[no-any-return]


@functools.cache
def labels(enum: str) -> tuple[str, ...]:
    """Labels of core enum ``enum``'s codes 0, 1, ... (they must be dense)."""
    core = import_core()
    by_code = core.labels(getattr(core, enum))
    if list(by_code) != list(range(len(by_code))):
        raise ValueError(f"{enum} codes are not 0..{len(by_code) - 1}")
    return tuple(by_code.values())


def members(enum: str) -> Mapping[str, int]:
    """Every member of core enum ``enum`` by its C name (``OPT_...``)."""
    core = import_core()
    return {name: int(v) for name, v in getattr(core, enum).__members__.items()}


# --------------------------------------------------------------------------------
# Dealing and playing
# --------------------------------------------------------------------------------


def core_rules(
    tables: dict[str, npt.NDArray[Any]], fitted: dict[str, npt.NDArray[np.float64]]
) -> CoreRules:
    """The compiled tables and fitted bot tables as the core holds them."""
    return import_core().CoreRules(tables, fitted)  # type: ignore[no-any-return]


def empty_records(n_rows: int) -> npt.NDArray[np.void]:
    """A zeroed array of ``n_rows`` seat records for the core to fill."""
    return np.zeros(n_rows, dtype=record_dtype())


def play_batch(
    rules: CoreRules,
    spec: Mapping[str, Any],
    key: tuple[int, int],
    first_game: int,
    n_games: int,
) -> npt.NDArray[np.void]:
    """Games ``[first_game, first_game + n_games)`` in one GIL-free core call."""
    out = empty_records(n_games * int(spec["n_players"]))
    import_core().play_batch(rules, dict(spec), key[0], key[1], first_game, out)
    return out


def play_batch_traced(
    rules: CoreRules,
    spec: Mapping[str, Any],
    key: tuple[int, int],
    first_game: int,
    n_games: int,
) -> tuple[npt.NDArray[np.void], npt.NDArray[np.int16], int]:
    """:func:`play_batch` plus each seat's score after every round.

    Returns the records, the ``(games, rounds, seats)`` score array and the
    value that marks a round not played.
    """
    core = import_core()
    players = int(spec["n_players"])
    out = empty_records(n_games * players)
    trace = np.empty((n_games, core.TRACE_ROUNDS, players), dtype=np.int16)
    core.play_batch(rules, dict(spec), key[0], key[1], first_game, out, trace)
    return out, trace, int(core.TRACE_NONE)


def policy_train(
    rules: CoreRules,
    spec: Mapping[str, Any],
    weights: npt.NDArray[np.float64],
    key: tuple[int, int],
    first_game: int,
    n_games: int,
    step: tuple[float, float, float],
    watch: bool = False,
    coherence: npt.NDArray[np.float64] | None = None,
) -> tuple[float, int, float]:
    """Self-play games that learn the policy bot's network ``weights`` in place.

    ``step``: (alpha, lambda, exploration temperature); returns the learning
    seats' mean final score, their number and the mean squared TD error
    (core/bots/policy_train.pxi).  ``coherence`` (2 x POLICY_N zeros at the
    start, kept across calls): temporal coherence step sizes.
    """
    alpha, lam, explore = step
    return import_core().policy_train(  # type: ignore[no-any-return]
        rules, dict(spec), weights, key[0], key[1], first_game, n_games,
        alpha, lam, explore, watch, coherence,
    )  # fmt: skip


def deal(
    rules: CoreRules, spec: Mapping[str, Any], key: tuple[int, int], game_index: int
) -> GameState:
    """Game ``game_index`` of a root key, dealt and waiting at its first decision."""
    state = import_core().GameState.deal(rules, dict(spec), key[0], key[1], game_index)
    state.advance()
    return state  # type: ignore[no-any-return]
