"""``events.toml``'s ``[[event]]`` cards: the 60 events, 20 of each colour.

An event acts when revealed (``immediate``), sets a rule for its round
(``round_rule``), or both.  The same file holds the solo target table, read by
:mod:`pu_sim.rules.loading.solo_target`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import DataError, Effect, EventCard
from pu_sim.rules.loading.checks import check_ids, check_top_level, entries
from pu_sim.rules.loading.effects import parse_effect, read_effects

__all__ = ["EVENT_ID_RANGES", "N_EVENTS", "N_EVENTS_PER_COLOUR", "load_events"]

FILE: Final = "events.toml"
N_EVENTS: Final = 60
N_EVENTS_PER_COLOUR: Final = 20

EVENT_ID_RANGES: Final[Mapping[str, range]] = MappingProxyType(
    {"green": range(65, 85), "orange": range(85, 105), "red": range(105, 125)}
)
"""BGA event ids by colour (cards.md 2.2)."""


def load_events(data: Mapping[str, object]) -> tuple[EventCard, ...]:
    """Read the 60 events, by id (the file's other tables are the solo target's)."""
    check_top_level(FILE, data, {"event", "solo_target", "solo_outcome"})
    events = []
    for node in entries(FILE, data, "event", "event"):
        eid = node.get_int("id", lo=1)
        node.rename(f"event {eid}")
        name = node.get_str("name")
        colour = node.get_str("colour", choices=EVENT_ID_RANGES)
        if eid not in EVENT_ID_RANGES[colour]:
            raise node.error(f"id {eid} is not a {colour} id")
        solo_only = node.get_bool("solo_only")
        text = node.get_str("text")
        immediate = read_effects(node, "immediate", "event", allow_empty=True)
        rule: Effect | None = None
        if node.has("round_rule"):
            try:
                rule = parse_effect(node.raw("round_rule"), "round_rule")
            except ValueError as exc:
                raise node.error(f"round_rule: {exc}") from None
        if not immediate and rule is None:
            raise node.error("an event needs immediate effects or a round_rule")
        node.done()
        events.append(
            EventCard(
                id=eid,
                name=name,
                colour=cast(Literal["green", "orange", "red"], colour),
                solo_only=solo_only,
                text=text,
                immediate=immediate,
                round_rule=rule,
            )
        )
    check_ids(FILE, "event", [e.id for e in events], range(65, 65 + N_EVENTS))
    for colour, count in sorted(Counter(e.colour for e in events).items()):
        if count != N_EVENTS_PER_COLOUR:
            raise DataError(f"{FILE}: {count} {colour} events, expected 20")
    return tuple(sorted(events, key=lambda e: e.id))
