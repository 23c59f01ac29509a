"""The checks every component's reader shares: typed TOML tables and values.

A :class:`Node` is one TOML table being read: its getters check types and
ranges, and :meth:`Node.done` rejects keys nobody read (a misspelt optional key
would otherwise be ignored silently).  Every failure is a :class:`DataError`
naming the file and the entry.

The parameter checks (:data:`Check` and the ones built from :func:`enum`,
:func:`list_of`, ...) validate the parameters of effects and objectives;
:func:`read_params` applies a table of them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final, cast

from pu_sim.rules.gamedata import TERRAINS, TRACKS, Cell, DataError

BOARD: Final = 12
"""Planet boards are 12 x 12 squares."""

KEY_RE: Final = re.compile(r"[a-z][a-z0-9_]*")
"""What a component's ``key`` looks like (snake_case ascii)."""

_MISSING: Final = object()


def describe(value: object) -> str:
    """Shorten a bad value's repr for error messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


BYTE: Final = 255
"""The largest integer the data may hold anywhere: the compiled core keeps every
number of the data in one byte (``uint8``), so no value may wrap around there."""


def check_int(value: object, lo: int | None, hi: int | None) -> int:
    """Validate an integer (bools excluded) against bounds.

    Without ``hi`` the bound is :data:`BYTE`: a variant is untrusted data, and
    no number of the data may be larger than the core's table holding it.
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, got {describe(value)}")
    if lo is not None and value < lo:
        raise ValueError(f"{value} is below the minimum {lo}")
    if hi is None and value > BYTE:
        raise ValueError(
            f"{value} is above the maximum {BYTE} (the core keeps it in one byte)"
        )
    if hi is not None and value > hi:
        raise ValueError(f"{value} is above the maximum {hi}")
    return value


def check_cell(value: object) -> Cell:
    """Validate an ``[x, y]`` board square."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"expected [x, y], got {describe(value)}")
    x, y = cast(list[int], value)
    if not (0 <= x < BOARD and 0 <= y < BOARD):
        raise ValueError(f"({x}, {y}) is off the 12 x 12 board")
    return (x, y)


class Node:
    """A TOML table being read: typed getters plus a check for unread keys.

    Unknown keys are errors (a misspelt optional key would otherwise be ignored
    silently), so every reader calls :meth:`done` after taking what it needs.
    """

    def __init__(self, file: str, entry: str, data: object) -> None:
        if not isinstance(data, dict):
            raise DataError(f"{file}: {entry}: expected a table, got {describe(data)}")
        self.file = file
        self.entry = entry
        self.data: dict[str, object] = data
        self.seen: set[str] = set()

    def error(self, message: str) -> DataError:
        """Build a DataError naming this file and entry."""
        return DataError(f"{self.file}: {self.entry}: {message}")

    def rename(self, entry: str) -> None:
        """Use a better label once the entry's id or key is known."""
        self.entry = entry

    def child(self, label: str, data: object) -> Node:
        """A table inside this entry, labelled ``<this entry>: <label>``."""
        return Node(self.file, f"{self.entry}: {label}", data)

    def has(self, key: str) -> bool:
        """Tell whether ``key`` is present."""
        return key in self.data

    def raw(self, key: str, default: object = _MISSING) -> object:
        """Return ``key``'s value, else ``default``; missing without one is an error."""
        self.seen.add(key)
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise self.error(f"missing key '{key}'")
        return default

    def get_int(
        self,
        key: str,
        *,
        default: int | None = None,
        lo: int | None = None,
        hi: int | None = None,
    ) -> int:
        """Read an integer (never a bool), optionally range-checked."""
        value = self.raw(key, _MISSING if default is None else default)
        try:
            return check_int(value, lo, hi)
        except ValueError as exc:
            raise self.error(f"'{key}': {exc}") from None

    def get_bool(self, key: str, *, default: bool | None = None) -> bool:
        """Read a boolean."""
        value = self.raw(key, _MISSING if default is None else default)
        if not isinstance(value, bool):
            raise self.error(f"'{key}': expected true/false, got {describe(value)}")
        return value

    def get_str(
        self,
        key: str,
        *,
        choices: Iterable[str] | None = None,
        default: str | None = None,
    ) -> str:
        """Read a non-empty string, optionally one of ``choices``."""
        value = self.raw(key, _MISSING if default is None else default)
        if not isinstance(value, str) or (not value and default is None):
            raise self.error(
                f"'{key}': expected a non-empty string, got {describe(value)}"
            )
        if choices is not None:
            allowed = tuple(choices)
            if value not in allowed:
                raise self.error(
                    f"'{key}': {value!r} is not one of {', '.join(map(repr, allowed))}"
                )
        return value

    def get_key(self, what: str) -> str:
        """Read the entry's snake_case ``key`` and label the entry by it."""
        key = self.get_str("key")
        self.rename(f"{what} {key!r}")
        if not KEY_RE.fullmatch(key):
            raise self.error("key must be snake_case ascii")
        return key

    def get_list(
        self, key: str, *, default: list[object] | None = None
    ) -> list[object]:
        """Read a list."""
        value = self.raw(key, _MISSING if default is None else default)
        if not isinstance(value, list):
            raise self.error(f"'{key}': expected a list, got {describe(value)}")
        return cast(list[object], value)

    def get_table(self, key: str) -> dict[str, object]:
        """Read a sub-table (raw; wrap it in a new :class:`Node` to read it)."""
        value = self.raw(key)
        if not isinstance(value, dict):
            raise self.error(f"'{key}': expected a table, got {describe(value)}")
        return cast(dict[str, object], value)

    def get_ints(
        self, key: str, *, length: int | None = None, lo: int | None = None
    ) -> tuple[int, ...]:
        """Read a list of integers, optionally of a fixed length."""
        values = self.get_list(key)
        if length is not None and len(values) != length:
            raise self.error(f"'{key}': expected {length} values, got {len(values)}")
        try:
            return tuple(check_int(v, lo, None) for v in values)
        except ValueError as exc:
            raise self.error(f"'{key}': {exc}") from None

    def item_ints(
        self,
        label: str,
        item: object,
        *,
        lo: int | None,
        hi: int | None,
        expected: str,
        length: int | None = None,
    ) -> tuple[int, ...]:
        """Check one entry of a list of integer lists (``label``: ``"bands[2]"``).

        ``expected`` says what the entry should look like when it is not a
        list (of ``length`` values, when given).
        """
        if not isinstance(item, list) or (length is not None and len(item) != length):
            raise self.error(f"{label}: {expected}")
        try:
            return tuple(check_int(v, lo, hi) for v in cast(list[object], item))
        except ValueError as exc:
            raise self.error(f"{label}: {exc}") from None

    def get_cell(self, key: str, value: object) -> Cell:
        """Check an ``[x, y]`` pair on the 12 x 12 board (``key`` labels errors)."""
        try:
            return check_cell(value)
        except ValueError as exc:
            raise self.error(f"'{key}': {exc}") from None

    def get_cells(self, key: str) -> tuple[Cell, ...]:
        """Read a list of ``[x, y]`` pairs."""
        return tuple(self.get_cell(key, v) for v in self.get_list(key))

    def get_rows(self, key: str) -> tuple[str, ...]:
        """Split a drawing (a TOML multi-line string) into its rows."""
        value = self.raw(key)
        if not isinstance(value, str):
            raise self.error(f"'{key}': expected a multi-line string")
        lines = value.split("\n")
        while lines and not lines[-1].strip():
            lines.pop()
        while lines and not lines[0].strip():
            lines.pop(0)
        if any(line != line.strip() for line in lines):
            raise self.error(f"'{key}': rows must not have leading or trailing blanks")
        return tuple(lines)

    def done(self) -> None:
        """Reject keys nobody read: they are typos or unsupported data."""
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise self.error(f"unknown key(s) {', '.join(map(repr, unknown))}")


# --------------------------------------------------------------------------------
# Whole files
# --------------------------------------------------------------------------------


def check_top_level(file: str, data: Mapping[str, object], allowed: set[str]) -> None:
    """A file holds only the ``allowed`` top-level keys."""
    extra = sorted(set(data) - allowed)
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {extra}")


def entries(file: str, data: Mapping[str, object], key: str, what: str) -> list[Node]:
    """Wrap each table of a file's ``[[key]]`` array as a node."""
    raw = data.get(key)
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{file}: missing the [[{key}]] entries")
    return [Node(file, f"{what} #{i + 1}", item) for i, item in enumerate(raw)]


def check_ids(file: str, what: str, ids: Sequence[int], expected: range) -> None:
    """Ids must be exactly ``expected``, each once (catches missing entries)."""
    counts = Counter(ids)
    duplicates = sorted(i for i, n in counts.items() if n > 1)
    if duplicates:
        raise DataError(f"{file}: duplicate {what} id(s) {duplicates}")
    missing = sorted(set(expected) - set(ids))
    extra = sorted(set(ids) - set(expected))
    if missing or extra:
        raise DataError(
            f"{file}: expected {what} ids {expected.start}..{expected.stop - 1}"
            f" ({len(expected)} entries); missing {missing}, unexpected {extra}"
        )


def check_unique_keys(file: str, what: str, keys: Sequence[str]) -> None:
    """Every entry's ``key`` differs from the others'."""
    if len(set(keys)) != len(keys):
        raise DataError(f"{file}: duplicate {what} key")


def connected(cells: Iterable[Cell]) -> bool:
    """Tell whether the cells form one orthogonally connected group."""
    todo = set(cells)
    if not todo:
        return False
    stack = [todo.pop()]
    while stack:
        x, y = stack.pop()
        for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if n in todo:
                todo.remove(n)
                stack.append(n)
    return not todo


# --------------------------------------------------------------------------------
# Parameters of effects and objectives
# --------------------------------------------------------------------------------

Check = Callable[[object], object]
"""Validates one parameter value and returns it normalised (lists -> tuples)."""


def int_param(lo: int = 1) -> Check:
    """Accept an integer parameter of at least ``lo``."""

    def check(value: object) -> object:
        return check_int(value, lo, None)

    return check


def bool_param(value: object) -> object:
    """Accept a boolean parameter."""
    if not isinstance(value, bool):
        raise ValueError(f"expected true/false, got {describe(value)}")
    return value


def enum(*choices: str) -> Check:
    """Accept a string parameter from a closed set."""

    def check(value: object) -> object:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(
                f"{describe(value)} is not one of {', '.join(map(repr, choices))}"
            )
        return value

    return check


def list_of(item: Check, *, length: int | None = None, unique: bool = True) -> Check:
    """Accept a non-empty list parameter (returned as a tuple)."""

    def check(value: object) -> object:
        if not isinstance(value, list) or not value:
            raise ValueError(f"expected a non-empty list, got {describe(value)}")
        if length is not None and len(value) != length:
            raise ValueError(f"expected {length} values, got {len(value)}")
        out = tuple(item(v) for v in cast(list[object], value))
        if unique and len(set(out)) != len(out):
            raise ValueError(f"duplicate values in {describe(value)}")
        return out

    return check


def ints_param(length: int) -> Check:
    """Accept a fixed-length list of integers (a lookup table)."""
    return list_of(int_param(0), length=length, unique=False)


POS: Final = int_param(1)
NONNEG: Final = int_param(0)
TRACK: Final = enum(*TRACKS)
TRACK_OR_FLUX: Final = enum(*TRACKS, "flux")
TERRAIN: Final = enum(*TERRAINS)
RESOURCE: Final = TERRAIN  # a resource icon names its terrain
RESOURCE_OR_FLUX: Final = enum(*TERRAINS, "flux")
TRACK_LIST: Final = list_of(TRACK)
ITEM: Final = enum("lifepod", "meteorite")


def read_params(
    label: str,
    table: Mapping[str, object],
    checks: Mapping[str, Check],
    required: Iterable[str],
) -> dict[str, object]:
    """Check each parameter of ``table``; raise ValueError prefixed by ``label``.

    Every key needs a check in ``checks``, every ``required`` key must be
    present; the values come back normalised.
    """
    params: dict[str, object] = {}
    for key, value in table.items():
        check = checks.get(key)
        if check is None:
            raise ValueError(f"{label}: unknown parameter {key!r}")
        try:
            params[key] = check(value)
        except ValueError as exc:
            raise ValueError(f"{label}: parameter {key!r}: {exc}") from None
    missing = sorted(set(required) - set(params))
    if missing:
        raise ValueError(f"{label}: missing parameter(s) {', '.join(missing)}")
    return params
