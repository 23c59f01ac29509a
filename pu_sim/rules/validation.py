"""The one validation layer: every entry point checks its inputs the same way.

The command line, the Python API (:func:`pu_sim.simulate`, :func:`pu_sim.run`,
:class:`pu_sim.TableSetup`, :class:`pu_sim.RuleOptions`, :class:`pu_sim.Game`),
the study scripts, variant files and balance search files all check their
inputs with these functions, so a bad value gets the same one line wherever it
enters:

* **types** are checked, never coerced by truthiness: ``paired="no"`` is
  refused, not taken as true (:func:`check_bool`), and ``1.5`` or ``True`` is
  not a count (:func:`check_int`);
* **ranges** are checked with the valid range in the message;
* **contradictions** (two inputs that cannot both hold, such as
  ``--no-events`` beside ``--option event_deck=true``) are refused with one
  line naming both (:class:`Contradiction`), never settled silently by
  whichever came last.

It sits in the lowest layer (pure Python and numpy, no core), so every
layer can use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = [
    "Contradiction",
    "check_bool",
    "check_int",
    "check_optional_bool",
    "first_conflict",
    "is_int",
]


class Contradiction(ValueError):
    """Two inputs that cannot both hold; the message names both (bad input)."""

    def __init__(self, first: str, second: str, why: str = "") -> None:
        self.inputs = (first, second)
        text = f"{first} contradicts {second}"
        super().__init__(f"{text}: {why}" if why else text)


def is_int(value: object) -> bool:
    """An integer, numpy's included, but not a bool (``simulate(True)`` is a bug)."""
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def check_bool(value: object, name: str) -> bool:
    """``value`` as a bool; a string, number or None is refused (no truthiness).

    >>> check_bool(True, "paired")
    True
    >>> check_bool("no", "paired")
    Traceback (most recent call last):
    ...
    ValueError: paired must be True or False, got 'no' (a str)
    """
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(
        f"{name} must be True or False, got {value!r} (a {type(value).__name__})"
    )


def check_optional_bool(value: object, name: str) -> bool | None:
    """``value`` as a bool, or None (None usually means "decide for me")."""
    if value is None:
        return None
    return check_bool(value, name)


def check_int(
    value: object, name: str, lo: int | None = None, hi: int | None = None
) -> int:
    """``value`` as an int in ``[lo, hi]``; the message gives the valid range.

    >>> check_int(3, "players", 1, 6)
    3
    >>> check_int(7, "players", 1, 6)
    Traceback (most recent call last):
    ...
    ValueError: players must be an integer 1..6, got 7
    """
    if is_int(value):
        number: int = int(value)  # type: ignore[call-overload]
        if (lo is None or number >= lo) and (hi is None or number <= hi):
            return number
    raise ValueError(f"{name} must be {_range_words(lo, hi)}, got {value!r}")


def _range_words(lo: int | None, hi: int | None) -> str:
    """``an integer 1..6``, ``a non-negative integer``, ``an integer >= 2``."""
    if lo is not None and hi is not None:
        return f"an integer {lo}..{hi}"
    if lo == 0:
        return "a non-negative integer"
    if lo == 1:
        return "a positive integer"
    if lo is not None:
        return f"an integer >= {lo}"
    if hi is not None:
        return f"an integer <= {hi}"
    return "an integer"


def first_conflict(
    settings: Iterable[tuple[str, str, Any]],
) -> Contradiction | None:
    """The first pair of settings giving one name two different values, or None.

    ``settings`` are ``(source, name, value)``: where a value came from (a
    flag as the user wrote it, a file), what it sets and to what.  Two
    sources setting the same name to the same value agree.
    """
    seen: dict[str, tuple[str, Any]] = {}
    for source, name, value in settings:
        if name in seen and seen[name][1] != value:
            return Contradiction(
                seen[name][0], source, f"both set {name}, to different values"
            )
        seen.setdefault(name, (source, value))
    return None
