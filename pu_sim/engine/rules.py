"""The rules as the core plays them: data, compiled tables and fitted bot tables.

:func:`load_rules` reads the game data (the published game or a variant),
compiles it (:mod:`pu_sim.engine.compile`), reads the greedy bot's fitted
tables (:mod:`pu_sim.bots.fitted`), checks them against the core's sizes and
hands both to the core: once per process, fitted-table folder and variant.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from pu_sim.bots.fitted import (
    FITTED_DIR,
    FittedTable,
    FittedTableError,
    FittedTables,
    load_fitted,
)
from pu_sim.engine import core
from pu_sim.engine.compile import compile_tables
from pu_sim.rules.gamedata import DataError, GameData
from pu_sim.rules.identity import RULES_VERSION, rules_digest
from pu_sim.rules.loading import load_game_data
from pu_sim.rules.variant import Variant, VariantChoice, as_variant

if TYPE_CHECKING:
    from pu_sim._core import CoreRules

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Rules:
    """The game data, its compiled tables and the core's view of them.

    ``fitted`` are the greedy bot's fitted tables the core was given;
    ``digest`` is the packaged data's (a variant's own is ``variant.digest``).
    """

    data: GameData
    tables: dict[str, npt.NDArray[Any]]
    core: CoreRules
    digest: str
    fitted: FittedTables
    version: int = RULES_VERSION
    variant: Variant | None = None
    """The variant the data was changed by (None: the published game)."""

    @property
    def fitted_digest(self) -> str:
        """The fitted tables' digest: which bot knowledge plays (manifests)."""
        return self.fitted.digest


def load_rules(
    fitted_dir: str | Path | None = None, variant: VariantChoice | None = None
) -> Rules:
    """Load, validate and compile the game data (once per process and variant).

    The greedy bot's fitted tables come from ``fitted_dir`` (default: the
    packaged ``pu_sim/data/fitted``), read at run time: a table written there
    plays without a rebuild.  ``variant`` changes the published data: a
    :class:`pu_sim.rules.Variant`, a variant file's path or paths applied in
    order, as every entry point takes it; its rules are built once per
    process too.
    """
    folder = FITTED_DIR if fitted_dir is None else Path(fitted_dir)
    return _load_rules(folder.resolve(), as_variant(variant))


@functools.lru_cache(maxsize=16)
def _load_rules(fitted_dir: Path, variant: Variant | None) -> Rules:
    """load_rules for one resolved folder of fitted tables and one variant."""
    data = load_game_data() if variant is None else variant.game_data()
    try:
        tables = compile_tables(data)
    except ValueError as exc:
        if variant is None:
            raise
        files = " + ".join(f.name for f in variant.files)
        raise DataError(f"{files}: {exc}") from None
    bot_tables = load_fitted(fitted_dir, core.constants())
    lowered = fitted_arrays(bot_tables, [c.key for c in data.corporations])
    return Rules(
        data=data, tables=tables, core=core.core_rules(tables, lowered),
        digest=rules_digest(), fitted=bot_tables, variant=variant,
    )  # fmt: skip


def policy_arrays(table: FittedTable) -> dict[str, Floats]:
    """The policy network in the core's layout, and its engine version.

    Its tables follow one another in one vector (at the core's offsets,
    checked); the engine version it was learned on is 0 when its metadata
    names none (the core then refuses to play it).
    """
    offsets = core.policy_offsets()
    if list(offsets) != list(table.arrays):
        raise FittedTableError(
            f"policy table: arrays {list(table.arrays)}, the core's are {list(offsets)}"
        )
    parts, at = [], 0
    for name, values in table.arrays.items():
        if offsets[name] != at:
            raise FittedTableError(
                f"policy table: {name!r} starts at {at}, the core reads it at "
                f"{offsets[name]}"
            )
        parts.append(np.asarray(values, np.float64).ravel())
        at += parts[-1].size
    version = table.meta.get("engine_version", 0)
    return {
        "policy": np.concatenate(parts),
        "policy_engine": np.asarray([float(version)], np.float64),
    }


def fitted_arrays(
    tables: Mapping[str, FittedTable], corporations: Sequence[str]
) -> dict[str, Floats]:
    """The fitted tables in the core's layout (``CoreRules(..., fitted=...)``).

    The track table gets one row per corporation of the rules, in their order:
    a corporation's own row from the file, zeros when the file has none (keys
    the rules do not know are left out), and zero rows up to the core's room
    for corporations.
    """
    track = tables["track_fit"]
    rows = track.rows()
    room = int(core.constants()["MAX_CORPS"])
    cell = np.zeros((room, *track["cell"].shape[1:]))
    context = np.zeros((room, *track["context"].shape[1:]))
    for i, key in enumerate(corporations):
        if key in rows:
            cell[i] = track["cell"][rows[key]]
            context[i] = track["context"][rows[key]]
    return {
        **policy_arrays(tables["policy"]),
        "track_cell": cell,
        "track_context": context,
        "place_fit": np.asarray(tables["place_fit"]["values"], np.float64),
        "line_chance": np.asarray(tables["line_chance"]["chance"], np.float64),
        "objective_chance": np.asarray(
            tables["objective_chance"]["chance"], np.float64
        ),
        "objective_rate": np.asarray(tables["objective_rate"]["rate"], np.float64),
        "ntuple_window": np.asarray(tables["ntuple"]["window"], np.float64),
        "ntuple_line": np.asarray(tables["ntuple"]["line"], np.float64),
        "rotation_round": np.asarray(tables["rotation_round"]["coef"], np.float64),
    }
