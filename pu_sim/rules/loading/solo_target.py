"""``events.toml``'s solo tables: the target score and the outcome rows.

The solo target is a base plus an adjustment per event colour, chosen by how
many cards of that colour the deck holds (rules 10.2); the outcome rows grade
``score - target``.  Bands must tile their range without gaps or overlaps.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pu_sim.rules.gamedata import DataError, SoloOutcomeBand
from pu_sim.rules.loading.checks import Node, check_int
from pu_sim.rules.loading.events import FILE, N_EVENTS_PER_COLOUR

__all__ = ["SoloTarget", "load_solo_outcomes", "load_solo_target"]

SoloTarget = tuple[int, tuple[tuple[int, int], ...], Mapping[str, tuple[int, ...]]]
"""(base, count bands, adjustment per band by colour)."""

_COLOURS: Final = ("red", "orange", "green")


def load_solo_target(data: Mapping[str, object]) -> SoloTarget:
    """Read ``[solo_target]``: the base, the count bands, the adjustments."""
    target = Node(FILE, "solo_target", data.get("solo_target"))
    base = target.get_int("base", lo=0)
    bands: list[tuple[int, int]] = []
    for i, band in enumerate(target.get_list("bands")):
        lo, hi = target.item_ints(
            f"bands[{i}]",
            band,
            lo=0,
            hi=N_EVENTS_PER_COLOUR,
            expected="expected [min, max]",
            length=2,
        )
        expected_lo = bands[-1][1] + 1 if bands else 0
        if lo != expected_lo or hi < lo:
            raise target.error(f"bands[{i}] = [{lo}, {hi}] must start at {expected_lo}")
        bands.append((lo, hi))
    if not bands or bands[-1][1] != N_EVENTS_PER_COLOUR:
        raise target.error("the last band must end at 20 (the deck size)")
    adjustments = {
        colour: target.get_ints(colour, length=len(bands)) for colour in _COLOURS
    }
    target.done()
    return base, tuple(bands), MappingProxyType(adjustments)


def load_solo_outcomes(data: Mapping[str, object]) -> tuple[SoloOutcomeBand, ...]:
    """Read the ``[[solo_outcome]]`` rows, from the lowest margin up."""
    outcomes = []
    previous_max: int | None = None
    raw_outcomes = data.get("solo_outcome")
    if not isinstance(raw_outcomes, list) or not raw_outcomes:
        raise DataError(f"{FILE}: missing the [[solo_outcome]] bands")
    for i, raw in enumerate(raw_outcomes):
        node = Node(FILE, f"solo_outcome #{i + 1}", raw)
        row = node.get_str("row")
        node.rename(f"solo_outcome {row!r}")
        lo_raw = node.raw("min", None)
        hi_raw = node.raw("max", None)
        try:
            lo_val = None if lo_raw is None else check_int(lo_raw, None, None)
            hi_val = None if hi_raw is None else check_int(hi_raw, None, None)
        except ValueError as exc:
            raise node.error(str(exc)) from None
        meaning = node.get_str("meaning")
        node.done()
        first, last = i == 0, i == len(raw_outcomes) - 1
        if (lo_val is None) != first or (hi_val is None) != last:
            raise node.error(
                "only the first band is open below and only the last open above"
            )
        if (
            lo_val is not None
            and previous_max is not None
            and lo_val != previous_max + 1
        ):
            raise node.error(
                f"band must start at {previous_max + 1} (no gaps or overlaps)"
            )
        if lo_val is not None and hi_val is not None and hi_val < lo_val:
            raise node.error("min is above max")
        previous_max = hi_val
        outcomes.append(
            SoloOutcomeBand(row=row, min_diff=lo_val, max_diff=hi_val, meaning=meaning)
        )
    return tuple(outcomes)
