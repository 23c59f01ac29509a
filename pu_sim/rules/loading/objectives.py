"""``objectives.toml``: the 28 double-sided objective cards.

The neighbour side measures something two neighbours compare (``better`` says
which way wins); the private side is a condition met or not.  Both name a
``kind`` from a closed vocabulary whose parameters are all required.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from pu_sim.rules.gamedata import Objective, ObjectiveSide
from pu_sim.rules.loading.checks import (
    ITEM,
    NONNEG,
    POS,
    RESOURCE,
    TERRAIN,
    TRACK,
    TRACK_LIST,
    Check,
    Node,
    bool_param,
    check_ids,
    check_top_level,
    entries,
    read_params,
)

__all__ = [
    "N_OBJECTIVES",
    "OBJECTIVE_CONDITIONS",
    "OBJECTIVE_MEASURES",
    "load_objectives",
]

N_OBJECTIVES: Final = 28

OBJECTIVE_MEASURES: Final[Mapping[str, Mapping[str, Check]]] = MappingProxyType(
    {
        "count_resources_on_edge": {"resource": RESOURCE},
        "largest_terrain_area_size": {"terrain": TERRAIN},
        "terrain_area_count": {"terrain": TERRAIN},
        "count_resources_on_planet": {"resource": RESOURCE},
        "trackers_at_maximum_count": {"tracks": TRACK_LIST},
        "collected_count": {"item": ITEM},
    }
)
"""Neighbour-side measures and their (all required) parameters (cards.md 7)."""

OBJECTIVE_CONDITIONS: Final[Mapping[str, Mapping[str, Check]]] = MappingProxyType(
    {
        "has_solid_rectangle": {
            "terrain": TERRAIN,
            "width": POS,
            "height": POS,
            "either_orientation": bool_param,
        },
        "has_terrain_area_with_resources": {
            "terrain": TERRAIN,
            "resource": RESOURCE,
            "min_resources": POS,
        },
        "tracker_at_maximum": {"track": TRACK},
        "resource_count_at_most": {"resource": RESOURCE, "max": NONNEG},
        "collected_at_least": {"item": ITEM, "min": POS},
        "collected_greater_than": {"more": ITEM, "less": ITEM},
        "no_uncovered_ice": {},
        "no_uncovered_land": {},
    }
)
"""Private-side conditions and their (all required) parameters (cards.md 7)."""


def _objective_side(node: Node, neighbour: bool) -> ObjectiveSide:
    """Read one side of an objective card."""
    name = node.get_str("name")
    text = node.get_str("text")
    kinds = OBJECTIVE_MEASURES if neighbour else OBJECTIVE_CONDITIONS
    kind = node.get_str("kind", choices=kinds)
    raw = node.get_table("params")
    spec = kinds[kind]
    try:
        params = read_params(kind, raw, spec, spec)
    except ValueError as exc:
        raise node.error(str(exc)) from None
    better = node.get_str("better", choices=("higher", "lower")) if neighbour else ""
    win = node.get_int("win_medals", lo=1)
    tie = node.get_int("tie_medals", lo=0) if neighbour else 0
    node.done()
    return ObjectiveSide(
        name=name,
        text=text,
        kind=kind,
        params=MappingProxyType(params),
        better=better,
        win_medals=win,
        tie_medals=tie,
    )


def load_objectives(data: Mapping[str, object]) -> tuple[Objective, ...]:
    """Read the 28 double-sided objectives."""
    file = "objectives.toml"
    check_top_level(file, data, {"objective"})
    objectives = []
    for node in entries(file, data, "objective", "objective"):
        oid = node.get_int("id", lo=1)
        node.rename(f"objective {oid}")
        neighbour = _objective_side(
            node.child("neighbour side", node.get_table("neighbour")), True
        )
        private = _objective_side(
            node.child("private side", node.get_table("private")), False
        )
        node.done()
        objectives.append(Objective(id=oid, neighbour=neighbour, private=private))
    check_ids(
        file, "objective", [o.id for o in objectives], range(37, 37 + N_OBJECTIVES)
    )
    return tuple(sorted(objectives, key=lambda o: o.id))
