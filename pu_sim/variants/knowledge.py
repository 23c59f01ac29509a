"""What a variant changes, and which of the bots' knowledge is of the published game.

The bots play any variant: the engine and the bots read the variant's compiled
tables (greedy values a track space by the medals the variant prints there, the
search bot's rollouts play the variant's rules).  But the greedy bot's fitted
tables (:mod:`pu_sim.bots.fitted`) were measured or fitted on games of the
published game, and a variant does not refit them.  Rather than guess how a
fit would move, a comparison says plainly which fitted tables were made on
data the variant changes (:func:`published_knowledge`), so a reader can judge
whether the bot's play on the variant is sensible or refit first
(``experiments/bots``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields

from pu_sim.rules import GameData, load_game_data
from pu_sim.rules.variant import Variant

__all__ = ["Change", "changes", "published_knowledge"]


@dataclass(frozen=True)
class Change:
    """One component the variant changes: its kind, its name and the fields."""

    kind: str
    name: str
    fields: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.kind} {self.name}: {', '.join(self.fields)}"


def _field_changes(old: object, new: object) -> tuple[str, ...]:
    """The dataclass fields that differ between two versions of a component."""
    return tuple(
        f.name
        for f in fields(old)  # type: ignore[arg-type]
        if getattr(old, f.name) != getattr(new, f.name)
    )


def _named(
    kind: str, old: Sequence[object], new: Sequence[object], name: str
) -> list[Change]:
    out = []
    for a, b in zip(old, new, strict=True):
        if a != b:
            out.append(Change(kind, str(getattr(a, name)), _field_changes(a, b)))
    return out


def changes(variant: Variant, published: GameData | None = None) -> list[Change]:
    """Every component the variant's data differs in from the published data."""
    old = published if published is not None else load_game_data()
    new = variant.game_data()
    out = [
        *_named("corporation", old.corporations, new.corporations, "key"),
        *_named("planet", old.planets, new.planets, "key"),
        *_named("civ card", old.civ_cards, new.civ_cards, "id"),
        *_named("event", old.events, new.events, "id"),
        *_named("objective", old.objectives, new.objectives, "id"),
        *_named("tile", old.tiles, new.tiles, "id"),
        *_named("shape", old.shapes, new.shapes, "name"),
        *_named("family", old.families, new.families, "index"),
    ]
    if old.station != new.station:
        out.append(Change("station", "", _field_changes(old.station, new.station)))
    solo = ("solo_target_base", "solo_target_bands", "solo_target_adjustments",
            "solo_outcome_bands")  # fmt: skip
    moved = tuple(f for f in solo if getattr(old, f) != getattr(new, f))
    if moved:
        out.append(Change("solo target", "", moved))
    if variant.options:
        out.append(Change("rule options", "", tuple(sorted(variant.options))))
    return out


def published_knowledge(variant: Variant) -> list[str]:
    """Sentences naming the bots' knowledge of the published game the variant touches.

    Empty when the variant changes nothing a fitted table was made on (the
    fitted tables still come from games of the published game; every
    comparison report says so once).
    """
    found = changes(variant)
    kinds = {c.kind for c in found}
    lines = []
    corps = sorted(c.name for c in found if c.kind == "corporation")
    if corps:
        lines.append(
            "track_fit: the greedy bot's fitted track values for "
            + ", ".join(corps)
            + " were fitted on the published boards; on this variant greedy "
            "reads the changed medals and benefits but keeps the published fit"
        )
    if "objective" in kinds:
        lines.append(
            "objective_chance, objective_rate: measured on the published "
            "objective cards; the variant changes objective(s) "
            + ", ".join(c.name for c in found if c.kind == "objective")
        )
    if "planet" in kinds:
        lines.append(
            "line_chance, place_fit: measured on the published planets; the "
            "variant changes planet(s) "
            + ", ".join(c.name for c in found if c.kind == "planet")
        )
    if kinds & {"tile", "shape", "family", "station"}:
        lines.append(
            "place_fit, line_chance: measured with the published tiles and "
            "station; the variant changes them"
        )
    if kinds & {"event", "civ card", "solo target", "rule options"}:
        lines.append(
            "every fitted table was measured with the published cards and rule "
            "options; the variant changes "
            + ", ".join(
                sorted(kinds & {"event", "civ card", "solo target", "rule options"})
            )
        )
    return lines
