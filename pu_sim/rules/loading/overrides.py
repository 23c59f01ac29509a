"""Apply a variant's overrides to the parsed data files, by name, before they are read.

A variant (:mod:`pu_sim.rules.variant`) names what it changes the way the data
files are written: a top-level table of a data file (``corporation``,
``planet``, ``card``, ``event``, ``objective``, ``solo_target``,
``solo_outcome``, ``station``, ``shape``, ``family``, ``tiles``), then an
entry of it by its name (``corporation.cosmos_inc``, ``event.104``,
``corporation.cosmos_inc.tech.3``), then the keys to change::

    [corporation.cosmos_inc]
    rovers = 2
    [corporation.cosmos_inc.tracks]
    water = { 15 = "medal:12" }          # one space of a list, by index

A table merges key by key; any other value replaces the published one, except
a table given for a list, which changes the list's items by index (merging
into an item that is a table).  Entries and keys are checked here against the
published data (an unknown one names the valid ones), types against the value
replaced; every other check is the loader's own, run on the merged data, so a
variant is held to exactly the rules of the packaged files.  Entries cannot be
added or removed: the core is compiled for the published counts.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Final

from pu_sim.rules.gamedata import DataError
from pu_sim.rules.loading.checks import describe

__all__ = ["ENTRY_KEYS", "SECTIONS", "apply_overrides"]

SECTIONS: Final[Mapping[str, str]] = {
    "terrains": "tiles.toml",
    "family": "tiles.toml",
    "shape": "tiles.toml",
    "station": "tiles.toml",
    "tiles": "tiles.toml",
    "planet": "planets.toml",
    "corporation": "corporations.toml",
    "card": "civ_cards.toml",
    "event": "events.toml",
    "solo_target": "events.toml",
    "solo_outcome": "events.toml",
    "objective": "objectives.toml",
}
"""Every top-level table of the data files, and the file that holds it."""

ENTRY_KEYS: Final[Mapping[str, str]] = {
    "family": "index",
    "shape": "name",
    "planet": "key",
    "corporation": "key",
    "tech": "level",
    "card": "id",
    "event": "id",
    "solo_outcome": "row",
    "objective": "id",
}
"""The key that names an entry of each list of tables (``corporation.<key>``)."""

FROZEN_KEYS: Final = frozenset({"id", "key", "name", "index", "level", "row"})
"""Keys that name an entry or label results: a variant may not change them."""


class _Where:
    """Where in the variant a value sits, for one-line errors."""

    def __init__(self, source: str, path: tuple[str, ...] = ()) -> None:
        self.source = source
        self.path = path

    def __truediv__(self, part: object) -> _Where:
        return _Where(self.source, (*self.path, str(part)))

    def error(self, message: str) -> DataError:
        where = ".".join(self.path)
        return DataError(f"{self.source}: [{where}]: {message}")


def apply_overrides(
    raw: Mapping[str, dict[str, object]], overrides: Mapping[str, object], source: str
) -> dict[str, dict[str, object]]:
    """The parsed data files with ``overrides`` merged in (the input is not changed).

    ``raw`` maps a file name (``corporations.toml``) to its parsed TOML;
    ``source`` names the variant in errors (its file name).

    Raises
    ------
    DataError
        For an unknown section, entry or key (the valid ones listed), a value
        of the wrong type or a change to an entry's name; one line naming
        the variant, the entry and the key.
    """
    out = {name: copy.deepcopy(data) for name, data in raw.items()}
    root = _Where(source)
    for section, change in overrides.items():
        where = root / section
        file = SECTIONS.get(section)
        if file is None:
            raise where.error(
                f"unknown section {section!r}; valid: {', '.join(SECTIONS)}"
            )
        data = out[file]
        if section not in data:
            raise where.error(f"{file} has no {section!r}")
        data[section] = _merge(data[section], change, where, section)
    return out


def _merge(old: object, new: object, where: _Where, name: str) -> object:
    """``new`` merged into the published ``old`` (checked against it)."""
    if name in ENTRY_KEYS and _is_entry_list(old):
        return _merge_entries(old, new, where, name)  # type: ignore[arg-type]
    if isinstance(old, dict):
        if not isinstance(new, dict):
            raise where.error(f"expected a table, got {describe(new)}")
        return _merge_table(old, new, where, [old])
    if isinstance(old, list) and isinstance(new, dict):
        return _patch_list(old, new, where)
    _check_type(old, new, where)
    return new


def _is_entry_list(value: object) -> bool:
    """A non-empty list of tables (entries such as corporations or techs)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, dict) for v in value)
    )


def _merge_entries(
    entries: list[dict[str, object]], new: object, where: _Where, name: str
) -> list[dict[str, object]]:
    """A list of named tables (``corporation``, ``tech``): change entries by name."""
    if not isinstance(new, dict):
        raise where.error(
            f"expected a table of entries by {ENTRY_KEYS[name]} "
            f"([{'.'.join(where.path)}.<{ENTRY_KEYS[name]}>]), got {describe(new)}"
        )
    field = ENTRY_KEYS[name]
    by_name = {str(e.get(field)): i for i, e in enumerate(entries)}
    out = list(entries)
    for entry_name, change in new.items():
        i = by_name.get(entry_name)
        if i is None:
            valid = ", ".join(by_name)
            raise (where / entry_name).error(
                f"unknown {name} {entry_name!r}; valid {field}s: {valid}"
            )
        if not isinstance(change, dict):
            raise (where / entry_name).error(
                f"expected a table of changes, got {describe(change)}"
            )
        out[i] = _merge_table(entries[i], change, where / entry_name, entries)
    return out


def _merge_table(
    old: dict[str, object],
    new: dict[str, object],
    where: _Where,
    siblings: list[dict[str, object]],
) -> dict[str, object]:
    """A table merged key by key; keys are those the table or its siblings use."""
    known: dict[str, object] = {}
    for sibling in siblings:
        for key, value in sibling.items():
            known.setdefault(key, value)
    out = dict(old)
    for key, value in new.items():
        at = where / key
        if key not in known:
            valid = ", ".join(sorted(known))
            raise at.error(f"unknown key {key!r}; valid keys: {valid}")
        if key in FROZEN_KEYS and len(siblings) > 1:
            raise at.error(f"{key!r} names the entry and cannot change")
        if key in ENTRY_KEYS and key not in old:
            raise at.error(f"this entry has no {key!r} to change")
        if key not in old:  # an optional key another entry uses: taken whole
            _check_type(known[key], value, at)
            out[key] = value
            continue
        out[key] = _merge(old[key], value, at, key)
    return out


def _patch_list(
    old: list[object], new: dict[str, object], where: _Where
) -> list[object]:
    """Change a list's items by index: ``{ 15 = "medal:12" }``."""
    out = list(old)
    for index, value in new.items():
        at = where / index
        if not index.isdigit() or int(index) >= len(old):
            raise at.error(
                f"{index!r} is not an index of this list (0..{len(old) - 1}; give a "
                "whole list to change its length)"
            )
        i = int(index)
        out[i] = _merge(old[i], value, at, index)
    return out


def _check_type(old: object, new: object, where: _Where) -> None:
    """The value replacing a published one has its type (ints may become floats)."""
    kinds: tuple[type, ...] = (type(old),)
    if isinstance(old, bool):
        kinds = (bool,)
    elif isinstance(old, int):
        kinds = (int,)
    elif isinstance(old, float):
        kinds = (int, float)
    if isinstance(new, bool) and kinds != (bool,):
        raise where.error(f"expected {_kind(old)}, got {describe(new)}")
    if not isinstance(new, kinds):
        raise where.error(f"expected {_kind(old)}, got {describe(new)}")


def _kind(value: object) -> str:
    """A TOML type's name for error messages."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    return "a table"
