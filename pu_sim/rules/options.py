"""Rule options: the choices among the reference's ambiguities a user may flip.

Each option's entry, the reference section it resolves and the value that
reproduces Board Game Arena are in ``docs/rules-decisions.md``.

:class:`RuleOptions` is the one table of options: a field's type (or, where the
type cannot list them, its ``values`` metadata) gives its valid values
(:meth:`RuleOptions.choices`), and an option the core reads as a flag is named
by it: the flag for ``name=value`` is the core's ``RuleFlag`` member
``OPT_NAME_VALUE`` (``OPT_NAME`` for True, ``OPT_NAME_OFF`` for False).  A new
option is its field with its docstring entry, its ``RuleFlag`` member, the rule
code, its entry in ``docs/rules-decisions.md`` and its test.

Why long: the option table's docstring is the reference each option's entry
points to (one paragraph per option), and the free-form values' checks sit
beside the fields they check.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Final, Literal, Union

from pu_sim.rules.gamedata import COLOURS, GameData
from pu_sim.rules.validation import is_int

OptionValue = bool | int | str | tuple[str, ...] | tuple[int, ...] | None
"""A rule option's value."""

TABLE_OPTIONS: Final = frozenset(
    {
        "station_interior_slots",
        "station_exterior_slots",
        "interior_shift",
        "initial_rotation",
        "event_deck",
        "event_deck_mix",
        "neighbour_objectives",
        "private_objectives",
    }
)
"""Options the table spec carries as fields of its own (pu_sim.simulation.table);
the core reads every other option as a ``RuleFlag`` bit
(:func:`pu_sim.engine.flags.option_flags`)."""


@dataclass(frozen=True)
class OptionChoices:
    """The values one rule option takes: what a listing or a command line needs."""

    values: tuple[OptionValue, ...]
    """Every valid value; with ``form``, the named values beside the free-form ones."""
    default: OptionValue
    form: str = ""
    """The other valid values in words ("" when ``values`` holds them all)."""
    item: type = str
    """The type of a free-form value's comma-separated items."""


def _free(form: str, item: type = str, default: Any = None) -> Any:
    """A field with free-form values (checked against the game data later)."""
    return field(default=default, metadata={"form": form, "item": item})


def _listed(*values: OptionValue) -> Any:
    """A field whose type cannot list its valid values, with the values listed."""
    return field(default=values[0], metadata={"values": values})


def flag_name(option: str, value: OptionValue) -> str:
    """The core's ``RuleFlag`` member an option value sets, if the core has it.

    >>> flag_name("civ_pick_timing", "on_milestone")
    'OPT_CIV_PICK_TIMING_ON_MILESTONE'
    >>> flag_name("lacuna_oblivion_adjacency_waiver", False)
    'OPT_LACUNA_OBLIVION_ADJACENCY_WAIVER_OFF'
    """
    if value is True:
        return f"OPT_{option.upper()}"
    return f"OPT_{option}_{'off' if value is False else value}".upper()


@dataclass(frozen=True, kw_only=True)
class RuleOptions:
    """Choices among the reference's ambiguities that a user may flip.

    Defaults follow the reference's recommendations; ``docs/rules-decisions.md``
    gives each option's entry, the reference section it resolves and the value
    reproducing Board Game Arena (:meth:`bga`).

    Parameters
    ----------
    patches_anchor_adjacency
        Biomass patches count as covered squares for the adjacency of later
        tiles (rules.md 14.1; BGA).  False is the rulebook-literal reading.
    two_player_fixed_rotation
        Two players: the station turns one depot clockwise each round instead of
        the commander choosing (rules.md 14.28; BGA).
    store_patch_without_square
        With storage tech, a gained patch that has no legal square now is kept
        for the end of the game (rules.md 14.8).  False reproduces BGA (lost).
    civ_pick_timing
        ``"end_of_round"``: civ cards are picked in the round's civ step,
        commander first (designer FAQ Q1; BGA).  ``"on_milestone"``: picked
        when the milestone is reached, as the rulebook's track text says
        (rules.md 13.6).
    end_phase_pick_commander
        Who starts the end phase's civ picks: the final round's commander
        (rules.md 14.27) or ``"next_player"`` (BGA passes the token first).
    station_interior_slots, station_exterior_slots
        Station loading: the shape (short name, e.g. ``"straight-3"``) in each
        interior (small) or exterior (large) slot 0..5, clockwise; None keeps
        BGA's order (rules.md ST-4, 14.22).  Each ring must hold its six shapes.
    interior_shift
        Fixed interior-ring offset 0..5, or None for a uniform random one per
        game (rules.md ST-5, 14.22).
    initial_rotation
        Fixed station rotation before round 1, or None for random (ST-15).
    event_deck
        Use the event deck: None follows the rulebook (always in solo, off in
        multiplayer); True or False forces it (rules.md 13.5).
    event_deck_mix
        The deck's colours: ``(green, orange, red)`` summing to 20 (the
        rulebook's choice; at most 16/20/18 with 2+ players once the solo-only
        cards are out), ``"random"`` (every valid mix equally likely) or
        ``"bga_random"`` (BGA: green and orange uniform 0..13, red the rest,
        clipped to what exists; rules.md 13.4).
    event_round_rule_until
        A round rule ends with its round (``"round_end"``) or, as BGA, lasts
        until the next event, through the end phase (cards.md D6).
    event_tech_suppression
        A tech milestone reached in a no-milestone round stays locked
        ``"until_reentered"``, until ``"next_round"``, or unlocks as usual
        (``"none"``, BGA) (cards.md D2/A1).
    event_may_empty_depot
        Solo event 116 may remove the last stack of a depot (BGA); by default
        it is ignored then, since an event may not end the game (rules.md 14.20).
    neighbour_objectives
        Multiplayer neighbour objective cards (rules.md ST-12).
    private_objectives
        The multiplayer private-objective module: deal 2, keep 1 (ST-13).  Solo
        always draws 4 and keeps 3.
    planet_fallback
        ``"rulebook"``: a planet's placement restrictions are dropped when they
        alone would end the game (planets.md 2.8 level 3); ``"bga"`` never
        drops them.
    lacuna_oblivion_adjacency_waiver
        On Lacuna and Oblivion with 2+ players, each player may once ignore
        adjacency when nothing else fits (add-on FAQ; planets.md 2.8 level 4).
    cerberus_bonus_region
        ``"whole"``: the +2 needs every square of a sub-planet covered;
        ``"bga_boxes"`` checks only the squares BGA's code looks at (3.2).
    pajitnov_slide
        ``"straight"``: the tile slides in straight from off the planet
        (add-on rulebook); ``"one_step"``: BGA's one-square shift test (3.9).
    petra_currents_count_covered
        Uncovered currents count as covered for rows and columns and BGA's
        objective side effects apply (3.11).
    gaia_city_covered_by_patch
        A biomass patch on a Gaia city forfeits its 2 medals, as a tile does (3.4).
    synergy_target_must_move
        A synergy or energy must pick a tracker that can actually advance (not
        topped, not blocked on Oasis or Makeshift); False lets a blocked tracker
        be picked and the advance is lost, as BGA (Z1).
    once_per_round_reset
        Once-per-round powers come back only when a round starts
        (``"round_start"``), or also in the civ-card and end-game phases
        (``"bga_phases"``) (corporations.md G3).
    space_citizen_decree_counts
        Space Citizen Decree's +1 per lifepod counts lifepods that score
        (``"scoring_lifepods"``) or every collected one, including those on
        Cosmos tracks or Jump Drive slots (``"all_collected"``, BGA) (cards D5).
    wormhole_energy_biomass
        Wormhole energy may advance biomass ``"if_expanded"`` (the same tile grew a
        biomass area; no energy tile can), ``"never"`` (BGA) or ``"always"`` (W1).
    jump_drive_tech_c_event_boosts
        Jump Drive tech C may also double an event card's synergy boost (events
        81, 84, 117, 118), as the card text calls it a synergy boost; False
        offers the double step only for other boosts, as BGA (corp-J7).
    jump_drive_tech_d
        Jump Drive tech D: the tile's tech terrain optionally acts as energy
        terrain (``"optional_area"``, designer FAQ A13) or, as BGA, mandatorily
        from the squares next to each tech square (``"mandatory_per_square"``) (J1).
    flux_tech1_track
        Flux tech 1 reads the flux track when it is used (``"at_use"``), or
        grants its movement at round start as BGA (``"round_start"``) (F1).
    flux_tech2_benefits_on_way
        Flux tech 2 claims every space on the way to the milestone (designer
        FAQ A9); False claims only the milestone, as BGA (F5).
    flux_tech3_rover_scope
        Flux tech 3's +1 with rover as the flux track applies to all movement
        (``"all_movement"``, add-on rulebook) or only to rover-track spaces
        (``"track_only"``, BGA) (F4).
    oasis_row11_medal
        The Oasis water medal at row 11: 9 as on the board art, or 8 as BGA's
        code (O1).
    oasis_tech2_timing
        Oasis tech 2 counts rovers on water at round start (``"round_start"``)
        or when used, as BGA (``"on_use"``) (O2).
    makeshift_tech2_check
        Makeshift tech 2's +1 is a point spent only on a step taken with two
        trackers on the rover column (``"on_spend"``, add-on FAQ) or added when
        gained if the condition holds then (``"on_gain"``, BGA) (M1).
    makeshift_row15_diagonal_to_rover_top
        A Makeshift tracker on row 15 of a column next to rover may step onto the
        rover top, as BGA (M2); False: no row 16, no diagonal from row 15.
    republic_tech3_squares
        Republic tech 3 jumps between squares with a civ resource icon
        (``"icons"``, rulebook) or any civ terrain (``"terrain"``, BGA) (R1).
    horizon_tech1_scope
        Horizon tech 1: tiles with rover terrain skip only adjacency
        (``"adjacency_only"``, rulebook) or every check but grid and overlap
        (``"all_checks"``, BGA) (H4).
    """

    patches_anchor_adjacency: bool = True
    two_player_fixed_rotation: bool = True
    store_patch_without_square: bool = True
    civ_pick_timing: Literal["end_of_round", "on_milestone"] = "end_of_round"
    end_phase_pick_commander: Literal["final_round", "next_player"] = "final_round"
    station_interior_slots: tuple[str, ...] | None = _free(
        "the six interior shapes in slot order"
    )
    station_exterior_slots: tuple[str, ...] | None = _free(
        "the six exterior shapes in slot order"
    )
    interior_shift: int | None = _listed(None, 0, 1, 2, 3, 4, 5)
    initial_rotation: int | None = _listed(None, 0, 1, 2, 3, 4, 5)
    event_deck: bool | None = None
    event_deck_mix: tuple[int, int, int] | Literal["random", "bga_random"] = _free(
        "green, orange and red counts summing to 20", int, (7, 7, 6)
    )
    event_round_rule_until: Literal["round_end", "next_event"] = "round_end"
    event_tech_suppression: Literal["until_reentered", "next_round", "none"] = (
        "until_reentered"
    )
    event_may_empty_depot: bool = False
    neighbour_objectives: bool = True
    private_objectives: bool = False
    planet_fallback: Literal["rulebook", "bga"] = "rulebook"
    lacuna_oblivion_adjacency_waiver: bool = True
    cerberus_bonus_region: Literal["whole", "bga_boxes"] = "whole"
    pajitnov_slide: Literal["straight", "one_step"] = "straight"
    petra_currents_count_covered: bool = True
    gaia_city_covered_by_patch: bool = True
    synergy_target_must_move: bool = True
    once_per_round_reset: Literal["round_start", "bga_phases"] = "round_start"
    horizon_tech1_scope: Literal["adjacency_only", "all_checks"] = "adjacency_only"
    republic_tech3_squares: Literal["icons", "terrain"] = "icons"
    wormhole_energy_biomass: Literal["if_expanded", "never", "always"] = "if_expanded"
    jump_drive_tech_c_event_boosts: bool = True
    jump_drive_tech_d: Literal["optional_area", "mandatory_per_square"] = (
        "optional_area"
    )
    flux_tech1_track: Literal["at_use", "round_start"] = "at_use"
    makeshift_tech2_check: Literal["on_spend", "on_gain"] = "on_spend"
    makeshift_row15_diagonal_to_rover_top: bool = False
    oasis_row11_medal: Literal[9, 8] = 9
    oasis_tech2_timing: Literal["round_start", "on_use"] = "round_start"
    flux_tech2_benefits_on_way: bool = True
    flux_tech3_rover_scope: Literal["all_movement", "track_only"] = "all_movement"
    space_citizen_decree_counts: Literal["scoring_lifepods", "all_collected"] = (
        "scoring_lifepods"
    )

    def __post_init__(self) -> None:
        for name, choices in _choices().items():
            if choices.form:
                # the form now (a list becomes a tuple); the names against the
                # game data when a table is built
                object.__setattr__(self, name, _free_form(name, getattr(self, name)))
                continue
            value = getattr(self, name)
            if not any(value == v and type(value) is type(v) for v in choices.values):
                raise ValueError(
                    f"{name} must be one of {choices.values}, got {value!r}"
                )

    @classmethod
    def choices(cls) -> dict[str, OptionChoices]:
        """Every option with its valid values and default, in field order.

        >>> RuleOptions.choices()["civ_pick_timing"].values
        ('end_of_round', 'on_milestone')
        """
        return dict(_choices())

    @classmethod
    def describe(cls, name: str) -> str:
        """The first sentence of an option's documentation (for listings)."""
        doc = (cls.__doc__ or "").split("Parameters\n    ----------\n")[-1]
        lines = doc.splitlines()
        for i, line in enumerate(lines):
            if name in [n.strip() for n in line.strip().split(",")]:
                text = []
                for more in lines[i + 1 :]:
                    if not more.startswith("        "):
                        break
                    text.append(more.strip())
                first = re.split(r"(?<!e\.g)(?<!i\.e)\.\s", " ".join(text))[0]
                return first.rstrip(".") + "."
        return ""

    @classmethod
    def parse(cls, name: str, text: str) -> OptionValue:
        """The value of option ``name`` written as ``text`` (a command line's).

        Named values are written as listed by :meth:`choices` (``true``,
        ``false`` and ``none`` in any case); free-form ones as comma-separated
        items.  ValueError names the valid values.

        >>> RuleOptions.parse("event_deck_mix", "9,3,8")
        (9, 3, 8)
        """
        all_choices = _choices()
        if name not in all_choices:
            raise ValueError(
                f"unknown rule option {name!r}; options: {list(all_choices)}"
            )
        choices = all_choices[name]
        for value in choices.values:
            written = str(value)
            if text == written or (
                (value is None or isinstance(value, bool))
                and text.lower() == written.lower()
            ):
                return value
        if choices.form:
            try:
                items = tuple(choices.item(part.strip()) for part in text.split(","))
            except ValueError:
                pass
            else:
                return _free_form(name, items)
        valid = " | ".join(map(str, choices.values)) + (
            f" | {choices.form}" if choices.form else ""
        )
        raise ValueError(f"{name} takes {valid}; got {text!r}")

    def uses_events(self, players: int) -> bool:
        """Whether games at this player count use the event deck."""
        return players == 1 if self.event_deck is None else self.event_deck

    def deck_mix(
        self, data: GameData, players: int
    ) -> tuple[str, tuple[int, int, int]]:
        """The deck's mode and colour counts; clear errors for impossible mixes.

        The mode is ``"explicit"`` with the counts, or the name of a random
        mix (``"random"``, ``"bga_random"``) with zero counts; the engine
        turns the mode into its code (:mod:`pu_sim.engine.flags`).
        """
        mix = self.event_deck_mix
        if isinstance(mix, str):
            if mix not in _choices()["event_deck_mix"].values:
                raise ValueError(
                    f"event_deck_mix must be (green, orange, red), 'random' or "
                    f"'bga_random', got {mix!r}"
                )
            return mix, (0, 0, 0)
        counts = tuple(mix)
        if len(counts) != 3 or not all(isinstance(c, int) and c >= 0 for c in counts):
            raise ValueError(f"event_deck_mix needs three counts >= 0, got {mix!r}")
        if sum(counts) != 20:
            raise ValueError(
                f"the event deck holds 20 cards: {mix!r} sums to {sum(counts)}"
            )
        for colour, count in zip(COLOURS, counts, strict=True):
            available = sum(
                1
                for e in data.events
                if e.colour == colour and (players == 1 or not e.solo_only)
            )
            if count > available:
                raise ValueError(
                    f"impossible event deck {mix!r}: {count} {colour} cards, but only "
                    f"{available} exist with {players} player(s) (solo-only cards are "
                    "removed in multiplayer)"
                )
        return "explicit", (counts[0], counts[1], counts[2])

    def stack_shapes(self, data: GameData) -> list[int]:
        """Shape index of each stack: interior slots 0..5, then exterior slots 0..5."""
        by_name = {s.name: s for s in data.shapes}
        out: list[int] = []
        for ring, names, default in (
            ("small", self.station_interior_slots, data.station.interior_slots),
            ("large", self.station_exterior_slots, data.station.exterior_slots),
        ):
            if names is None:
                out.extend(default)
                continue
            ring_shapes = sorted(s.name for s in data.shapes if s.ring == ring)
            unknown = [n for n in names if n not in by_name]
            if unknown:
                raise ValueError(
                    f"unknown shape(s) {unknown}; valid {ring} shapes: {ring_shapes}"
                )
            if sorted(names) != ring_shapes:
                raise ValueError(
                    f"the {ring} ring's six slots must hold each of {ring_shapes} "
                    f"once, got {list(names)}"
                )
            out.extend(by_name[n].index for n in names)
        return out

    @classmethod
    def bga(cls) -> RuleOptions:
        """The profile reproducing Board Game Arena on each documented difference."""
        return cls(
            store_patch_without_square=False,
            end_phase_pick_commander="next_player",
            event_deck=False,
            event_deck_mix="bga_random",
            event_round_rule_until="next_event",
            event_tech_suppression="none",
            event_may_empty_depot=True,
            planet_fallback="bga",
            lacuna_oblivion_adjacency_waiver=False,
            cerberus_bonus_region="bga_boxes",
            pajitnov_slide="one_step",
            synergy_target_must_move=False,
            once_per_round_reset="bga_phases",
            horizon_tech1_scope="all_checks",
            republic_tech3_squares="terrain",
            space_citizen_decree_counts="all_collected",
            wormhole_energy_biomass="never",
            jump_drive_tech_c_event_boosts=False,
            jump_drive_tech_d="mandatory_per_square",
            flux_tech1_track="round_start",
            makeshift_tech2_check="on_gain",
            makeshift_row15_diagonal_to_rover_top=True,
            oasis_row11_medal=8,
            oasis_tech2_timing="on_use",
            flux_tech2_benefits_on_way=False,
            flux_tech3_rover_scope="track_only",
        )

    def as_dict(self) -> dict[str, Any]:
        """Plain values, for manifests."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


DECK_SIZE: Final = 20
"""Cards in the event deck (rules.md 13.4)."""

STATION_SLOTS: Final = 6
"""Slots of each station ring (rules.md ST-4)."""


def _free_form(name: str, value: Any) -> OptionValue:
    """A free-form option's value with its form checked (a list becomes a tuple).

    ``event_deck_mix``: three counts >= 0 summing to 20, or a named random mix;
    the station slots: None or six shape names.  Whether the counts exist and
    the names are shapes is checked against the game data later.
    """
    if name == "event_deck_mix":
        if isinstance(value, str) and value in ("random", "bga_random"):
            return value
        counts = tuple(value) if isinstance(value, list | tuple) else None
        if (
            counts is None
            or len(counts) != 3
            or not all(is_int(c) and c >= 0 for c in counts)
        ):
            raise ValueError(
                "event_deck_mix must be three counts >= 0 (green, orange, red) "
                f"summing to {DECK_SIZE}, 'random' or 'bga_random', got {value!r}"
            )
        if sum(counts) != DECK_SIZE:
            raise ValueError(
                f"event_deck_mix: the event deck holds {DECK_SIZE} cards, "
                f"{value!r} sums to {sum(counts)}"
            )
        return (int(counts[0]), int(counts[1]), int(counts[2]))
    if value is None:
        return None
    names = tuple(value) if isinstance(value, list | tuple) else None
    if (
        names is None
        or len(names) != STATION_SLOTS
        or not all(isinstance(n, str) for n in names)
    ):
        raise ValueError(
            f"{name} must be None or the {STATION_SLOTS} shape names of its ring in "
            f"slot order, got {value!r}"
        )
    return names


@functools.cache
def _choices() -> dict[str, OptionChoices]:
    """Each option's choices, from its field's type or its metadata."""
    hints = typing.get_type_hints(RuleOptions)
    out: dict[str, OptionChoices] = {}
    for f in fields(RuleOptions):
        listed = f.metadata.get("values")
        values, complete = (listed, True) if listed else _values_of(hints[f.name])
        form = f.metadata.get("form", "")
        if not complete and not form:
            raise TypeError(f"RuleOptions.{f.name}: its type does not list its values")
        if f.default is MISSING:
            raise TypeError(f"RuleOptions.{f.name} needs a default")
        out[f.name] = OptionChoices(
            tuple(values), f.default, form, f.metadata.get("item", str)
        )
    return out


def _values_of(hint: Any) -> tuple[tuple[OptionValue, ...], bool]:
    """The values a type allows, and whether that is all of them."""
    if hint is bool:
        return (False, True), True
    if hint is type(None):
        return (None,), True
    origin = typing.get_origin(hint)
    if origin is Literal:
        return typing.get_args(hint), True
    if origin in (Union, types.UnionType):
        parts = [_values_of(arg) for arg in typing.get_args(hint)]
        return (
            tuple(v for values, _ in parts for v in values),
            all(complete for _, complete in parts),
        )
    return (), False
