"""Read the six data files and assemble a validated, frozen :class:`GameData`.

Each file's reader lives in its own module of :mod:`pu_sim.rules.loading`;
this one parses the TOML (a syntax error names the file), calls the readers in
a fixed order (so the first error reported does not depend on chance) and
caches the package's own data.
"""

from __future__ import annotations

import functools
import pathlib
import tomllib
from collections.abc import Mapping
from typing import Final

from pu_sim.rules.gamedata import DataError, GameData
from pu_sim.rules.loading.civ_cards import load_civ_cards
from pu_sim.rules.loading.corporations import load_corporations
from pu_sim.rules.loading.events import load_events
from pu_sim.rules.loading.objectives import load_objectives
from pu_sim.rules.loading.planets import load_planets
from pu_sim.rules.loading.solo_target import load_solo_outcomes, load_solo_target
from pu_sim.rules.loading.tiles import load_tiles

__all__ = ["DATA_DIR", "assemble", "load_game_data", "read_raw"]

DATA_DIR: Final = pathlib.Path(__file__).resolve().parents[2] / "data"
"""The package's own data folder (the default for :func:`load_game_data`)."""

_FILES: Final = (
    "tiles.toml",
    "planets.toml",
    "corporations.toml",
    "civ_cards.toml",
    "events.toml",
    "objectives.toml",
)


def _read(data_dir: pathlib.Path, name: str) -> dict[str, object]:
    """Parse one TOML file; syntax errors become a DataError naming the file."""
    path = data_dir / name
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(f"{name}: file not found in {data_dir}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name}: invalid TOML: {exc}") from None


def read_raw(data_dir: pathlib.Path | None = None) -> dict[str, dict[str, object]]:
    """The data files of ``data_dir`` (default: the package's) as parsed TOML."""
    folder = DATA_DIR if data_dir is None else pathlib.Path(data_dir)
    return {name: _read(folder, name) for name in _FILES}


def _load(data_dir: pathlib.Path) -> GameData:
    """Read and validate every file of ``data_dir``."""
    return assemble(read_raw(data_dir))


def assemble(raw: Mapping[str, dict[str, object]]) -> GameData:
    """Validate parsed data files (one per name of ``_FILES``) into GameData.

    Variants (:mod:`pu_sim.rules.variant`) come through here with their
    overrides merged in, so they meet every check the packaged files meet.
    """
    families, shapes, tiles, station = load_tiles(raw["tiles.toml"])
    events = load_events(raw["events.toml"])
    base, bands, adjustments = load_solo_target(raw["events.toml"])
    outcomes = load_solo_outcomes(raw["events.toml"])
    return GameData(
        families=families,
        shapes=shapes,
        tiles=tiles,
        station=station,
        planets=load_planets(raw["planets.toml"]),
        corporations=load_corporations(raw["corporations.toml"]),
        civ_cards=load_civ_cards(raw["civ_cards.toml"]),
        events=events,
        objectives=load_objectives(raw["objectives.toml"]),
        solo_target_base=base,
        solo_target_bands=bands,
        solo_target_adjustments=adjustments,
        solo_outcome_bands=outcomes,
    )


@functools.cache
def _load_default() -> GameData:
    """Parse the package's own data once per process."""
    return _load(DATA_DIR)


def load_game_data(data_dir: pathlib.Path | None = None) -> GameData:
    """Load and validate the game's components.

    Parameters
    ----------
    data_dir
        Folder holding the six TOML files; ``None`` means the package's own
        ``data/`` folder, which is parsed once and cached (the result is frozen).

    Raises
    ------
    DataError
        If any file is missing, malformed or inconsistent; the message names
        the file and the entry.
    """
    if data_dir is None:
        return _load_default()
    return _load(pathlib.Path(data_dir))
