"""Read ``pu_sim/data/*.toml`` into a validated, frozen :class:`GameData`.

The TOML files are the human-reviewable source of truth for every component.
Everything that a transcription slip could break is checked here, and every
failure is a :class:`DataError` naming the file and the entry, so a wrong square
on a board is reported as, e.g., ``planets.toml: planet 'lacuna': lifepod
(3, 9) is not a 'P' or 'Q' square`` instead of surfacing as a wrong score later.

Effects (card texts, techs, special rules) are ``{ op = ..., when = ...,
<params> }`` tables.  :data:`EFFECT_OPS` is the closed vocabulary: an unknown op,
an unknown or missing parameter, or a parameter of the wrong type is an error.
"""

from __future__ import annotations

import functools
import itertools
import pathlib
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import (
    PLANET_RESTRICTIONS,
    TERRAINS,
    TRACKS,
    CivCard,
    Corporation,
    DataError,
    Effect,
    EventCard,
    Family,
    GameData,
    Objective,
    ObjectiveSide,
    Planet,
    Shape,
    SoloOutcomeBand,
    Space,
    Station,
    Tech,
    Tile,
    Track,
)

__all__ = [
    "DATA_DIR",
    "EFFECT_OPS",
    "EFFECT_WHEN",
    "OBJECTIVE_CONDITIONS",
    "OBJECTIVE_MEASURES",
    "load_game_data",
    "parse_space",
]

DATA_DIR: Final = pathlib.Path(__file__).resolve().parents[1] / "data"
"""The package's own data folder (the default for :func:`load_game_data`)."""

Cell = tuple[int, int]

# --------------------------------------------------------------------------------
# Expected component counts (the physical game; reference README and rules.md 2)
# --------------------------------------------------------------------------------

N_FAMILIES: Final = 6
N_SHAPES: Final = 12
N_TILES: Final = 144
N_METEOR_TILES: Final = 72
N_PLANETS: Final = 13
N_CORPORATIONS: Final = 9
N_CIV_CARDS: Final = 36
N_CIV_PER_RANK: Final = 9
N_EVENTS: Final = 60
N_EVENTS_PER_COLOUR: Final = 20
N_OBJECTIVES: Final = 28
BOARD: Final = 12  # planet boards are 12 x 12
TRACK_LEN: Final = 16  # index 0 = start .. 15 = top
LIFEPODS_PER_PLANET: Final = 6

EVENT_ID_RANGES: Final[Mapping[str, range]] = MappingProxyType(
    {"green": range(65, 85), "orange": range(85, 105), "red": range(105, 125)}
)
"""BGA event ids by colour (cards.md 2.2)."""

# --------------------------------------------------------------------------------
# Reading TOML tables
# --------------------------------------------------------------------------------

_MISSING: Final = object()


def _describe(value: object) -> str:
    """Shorten a bad value's repr for error messages."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class _Node:
    """A TOML table being read: typed getters plus a check for unread keys.

    Unknown keys are errors (a misspelt optional key would otherwise be ignored
    silently), so every reader calls :meth:`done` after taking what it needs.
    """

    def __init__(self, file: str, entry: str, data: object) -> None:
        if not isinstance(data, dict):
            raise DataError(f"{file}: {entry}: expected a table, got {_describe(data)}")
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
            return _check_int(value, lo, hi)
        except ValueError as exc:
            raise self.error(f"'{key}': {exc}") from None

    def get_bool(self, key: str, *, default: bool | None = None) -> bool:
        """Read a boolean."""
        value = self.raw(key, _MISSING if default is None else default)
        if not isinstance(value, bool):
            raise self.error(f"'{key}': expected true/false, got {_describe(value)}")
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
                f"'{key}': expected a non-empty string, got {_describe(value)}"
            )
        if choices is not None:
            allowed = tuple(choices)
            if value not in allowed:
                raise self.error(
                    f"'{key}': {value!r} is not one of {', '.join(map(repr, allowed))}"
                )
        return value

    def get_list(
        self, key: str, *, default: list[object] | None = None
    ) -> list[object]:
        """Read a list."""
        value = self.raw(key, _MISSING if default is None else default)
        if not isinstance(value, list):
            raise self.error(f"'{key}': expected a list, got {_describe(value)}")
        return cast(list[object], value)

    def get_table(self, key: str) -> dict[str, object]:
        """Read a sub-table (raw; wrap it in a new :class:`_Node` to read it)."""
        value = self.raw(key)
        if not isinstance(value, dict):
            raise self.error(f"'{key}': expected a table, got {_describe(value)}")
        return cast(dict[str, object], value)

    def get_ints(
        self, key: str, *, length: int | None = None, lo: int | None = None
    ) -> tuple[int, ...]:
        """Read a list of integers, optionally of a fixed length."""
        values = self.get_list(key)
        if length is not None and len(values) != length:
            raise self.error(f"'{key}': expected {length} values, got {len(values)}")
        try:
            return tuple(_check_int(v, lo, None) for v in values)
        except ValueError as exc:
            raise self.error(f"'{key}': {exc}") from None

    def get_cell(self, key: str, value: object) -> Cell:
        """Check an ``[x, y]`` pair on the 12 x 12 board (``key`` labels errors)."""
        try:
            return _check_cell(value)
        except ValueError as exc:
            raise self.error(f"'{key}': {exc}") from None

    def get_cells(self, key: str) -> tuple[Cell, ...]:
        """Read a list of ``[x, y]`` pairs."""
        return tuple(self.get_cell(key, v) for v in self.get_list(key))

    def done(self) -> None:
        """Reject keys nobody read: they are typos or unsupported data."""
        unknown = sorted(set(self.data) - self.seen)
        if unknown:
            raise self.error(f"unknown key(s) {', '.join(map(repr, unknown))}")


def _check_int(value: object, lo: int | None, hi: int | None) -> int:
    """Validate an integer (bools excluded) against optional bounds."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, got {_describe(value)}")
    if lo is not None and value < lo:
        raise ValueError(f"{value} is below the minimum {lo}")
    if hi is not None and value > hi:
        raise ValueError(f"{value} is above the maximum {hi}")
    return value


def _check_cell(value: object) -> Cell:
    """Validate an ``[x, y]`` board square."""
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"expected [x, y], got {_describe(value)}")
    x, y = cast(list[int], value)
    if not (0 <= x < BOARD and 0 <= y < BOARD):
        raise ValueError(f"({x}, {y}) is off the 12 x 12 board")
    return (x, y)


def _entries(file: str, data: Mapping[str, object], key: str, what: str) -> list[_Node]:
    """Wrap each table of a file's ``[[key]]`` array as a node."""
    raw = data.get(key)
    if not isinstance(raw, list) or not raw:
        raise DataError(f"{file}: missing the [[{key}]] entries")
    return [_Node(file, f"{what} #{i + 1}", item) for i, item in enumerate(raw)]


def _check_ids(file: str, what: str, ids: Sequence[int], expected: range) -> None:
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


def _connected(cells: Iterable[Cell]) -> bool:
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


def _multiline(node: _Node, key: str) -> tuple[str, ...]:
    """Split a drawing (a TOML multi-line string) into its rows."""
    value = node.raw(key)
    if not isinstance(value, str):
        raise node.error(f"'{key}': expected a multi-line string")
    lines = value.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if any(line != line.strip() for line in lines):
        raise node.error(f"'{key}': rows must not have leading or trailing blanks")
    return tuple(lines)


# --------------------------------------------------------------------------------
# Effect vocabulary
# --------------------------------------------------------------------------------

_Check = Callable[[object], object]
"""Validates one parameter value and returns it normalised (lists -> tuples)."""

EffectContext = Literal["civ", "event", "round_rule", "corporation"]


def _int_param(lo: int = 1) -> _Check:
    """Accept an integer parameter of at least ``lo``."""

    def check(value: object) -> object:
        return _check_int(value, lo, None)

    return check


def _bool_param(value: object) -> object:
    """Accept a boolean parameter."""
    if not isinstance(value, bool):
        raise ValueError(f"expected true/false, got {_describe(value)}")
    return value


def _enum(*choices: str) -> _Check:
    """Accept a string parameter from a closed set."""

    def check(value: object) -> object:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(
                f"{_describe(value)} is not one of {', '.join(map(repr, choices))}"
            )
        return value

    return check


def _list_of(item: _Check, *, length: int | None = None, unique: bool = True) -> _Check:
    """Accept a non-empty list parameter (returned as a tuple)."""

    def check(value: object) -> object:
        if not isinstance(value, list) or not value:
            raise ValueError(f"expected a non-empty list, got {_describe(value)}")
        if length is not None and len(value) != length:
            raise ValueError(f"expected {length} values, got {len(value)}")
        out = tuple(item(v) for v in cast(list[object], value))
        if unique and len(set(out)) != len(out):
            raise ValueError(f"duplicate values in {_describe(value)}")
        return out

    return check


def _ints_param(length: int) -> _Check:
    """Accept a fixed-length list of integers (a lookup table)."""
    return _list_of(_int_param(0), length=length, unique=False)


_POS = _int_param(1)
_NONNEG = _int_param(0)
_TRACK = _enum(*TRACKS)
_TRACK_OR_FLUX = _enum(*TRACKS, "flux")
_TERRAIN = _enum(*TERRAINS)
_RESOURCE = _enum(*TERRAINS)
_RESOURCE_OR_FLUX = _enum(*TERRAINS, "flux")
_TRACKS = _list_of(_TRACK)
_ITEM = _enum("lifepod", "meteorite")
_BENEFIT = _enum("synergy", "biomass_patch", "rover", "move", "civ", "tech")
_MILESTONE = _enum("civ", "biomass", "rover", "tech")

_CONDITION_KEYS: Final[Mapping[str, _Check]] = MappingProxyType(
    {
        "tile_has_resource": _RESOURCE_OR_FLUX,
        "tile_covers_no_ice": _bool_param,
        "square_terrain": _TERRAIN,
        "tracker_at_top": _TRACK,
        "rover_column_trackers_at_least": _POS,
    }
)
"""Keys of an effect's ``condition`` table (all of them must hold)."""


def _condition(value: object) -> object:
    """Accept an effect condition: a non-empty table of known keys."""
    if not isinstance(value, dict) or not value:
        raise ValueError(f"expected a non-empty table, got {_describe(value)}")
    out: dict[str, object] = {}
    for key, raw in cast(dict[str, object], value).items():
        check = _CONDITION_KEYS.get(key)
        if check is None:
            raise ValueError(f"unknown condition {key!r}")
        out[key] = check(raw)
    return MappingProxyType(out)


def _options(value: object) -> object:
    """Accept the alternatives of ``choose_one``: effects without ``when``."""
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError("expected a list of at least two effects")
    return tuple(
        _parse_effect(v, "event", nested=True) for v in cast(list[object], value)
    )


@dataclass(frozen=True)
class _OpSpec:
    """Parameters of one op and the effect lists it may appear in."""

    contexts: frozenset[str]
    required: Mapping[str, _Check]
    optional: Mapping[str, _Check]


_CIV = frozenset({"civ"})
_EVENT = frozenset({"event"})
_ROUND = frozenset({"round_rule"})
_CORP = frozenset({"corporation"})
_CARDS = frozenset({"civ", "event"})
_ANY = frozenset({"civ", "event", "corporation"})


def _op(
    contexts: frozenset[str],
    optional: Mapping[str, _Check] | None = None,
    **required: _Check,
) -> _OpSpec:
    """Build an :class:`_OpSpec`: contexts, optional params, required params."""
    return _OpSpec(
        contexts, MappingProxyType(required), MappingProxyType(optional or {})
    )


_OPS: Final[Mapping[str, _OpSpec]] = MappingProxyType(
    {
        # --- tracker moves (cards.md 1.1; corporations.json ops) ------------------
        "advance": _op(_CORP, track=_TRACK_OR_FLUX, steps=_POS),
        "advance_one_tracker": _op(
            _CIV, steps=_POS, tracks=_TRACKS, claim_benefits=_bool_param
        ),
        "advance_distinct_trackers": _op(
            _CIV,
            count=_POS,
            steps_each=_POS,
            tracks=_TRACKS,
            claim_benefits=_bool_param,
        ),
        "advance_one_of": _op(
            _EVENT, tracks=_TRACKS, steps=_POS, claim_benefits=_bool_param
        ),
        "regress_one_of": _op(
            frozenset({"event", "corporation"}), tracks=_TRACKS, steps=_POS
        ),
        "raise_trackers_to_position": _op(
            _CIV, position=_POS, tracks=_TRACKS, skip_benefits=_list_of(_BENEFIT)
        ),
        "synergy_boost": _op(frozenset({"event", "corporation"}), count=_POS),
        "advance_to_next_milestone": _op(
            _CORP, track=_TRACK_OR_FLUX, claim_intermediate_benefits=_bool_param
        ),
        "reset_tracker": _op(_CORP, track=_TRACK, to=_NONNEG),
        "synergy_extra_advance": _op(_CORP, steps=_POS),
        "claim_row": _op(_CORP),
        # --- patches, rovers, tokens on the planet --------------------------------
        "gain_biomass_patches": _op(_ANY, count=_POS),
        "gain_rover_movement": _op(_CIV, amount=_POS),
        "gain_rover_movement_per_rover": _op(
            _CORP,
            per_rover=_POS,
            rovers=_enum(
                "on_flux_track_terrain", "on_water_terrain", "carrying_meteorite"
            ),
        ),
        "gain_rover_tracker_movement": _op(_CORP),
        "teleport_rover": _op(
            frozenset({"civ", "corporation"}),
            {
                "origin": _enum("any", "civ_resource_square"),
                "movement_cost": _NONNEG,
            },
            destination=_enum(
                "any_grid_square", "tile_square_same_terrain", "civ_resource_square"
            ),
        ),
        "collect_from_planet": _op(_CARDS, item=_ITEM, count=_POS),
        "collect_meteorite": _op(_CORP, count=_POS),
        "destroy_meteorites_in_line": _op(_CIV),
        "destroy_meteorites_on_planet": _op(_CIV, count=_POS),
        "destroy_lifepod_on_planet": _op(_EVENT, count=_POS),
        "destroy_collected": _op(_EVENT, item=_ITEM, count=_POS),
        "destroy_rover_on_planet": _op(_EVENT, count=_POS, min_rovers_on_planet=_POS),
        "place_meteorite_on_empty_meteor_symbol": _op(_EVENT, count=_POS),
        "gain_extra_rover": _op(_EVENT, count=_POS),
        "place_tile_from_own_depot": _op(
            _CIV, advance_trackers_for_resources=_bool_param
        ),
        # --- scoring ------------------------------------------------------------
        "score_medals": _op(_CIV, medals=_POS),
        "score_per_count": _op(
            _CIV,
            medals_each=_POS,
            count=_enum("biomass_patches_on_planet", "collected_lifepods_scoring"),
        ),
        "set_collection_meteorite_repo": _op(
            _CIV, medals_per_3_meteorites=_ints_param(5)
        ),
        "set_collection_commerce_agreement": _op(_CIV, total_medals=_ints_param(5)),
        # --- decks, station, objectives -----------------------------------------
        "choose_one": _op(_EVENT, options=_options),
        "peek_next_event": _op(_EVENT),
        "civ_piles_add_from_set_aside": _op(_EVENT, per_rank=_POS),
        "civ_piles_remove_random": _op(_EVENT, per_rank=_POS),
        "draw_private_objectives": _op(_EVENT, count=_POS),
        "destroy_private_objective": _op(_EVENT, count=_POS),
        "rotate_station_to_any_depot": _op(_EVENT),
        "remove_depot_stack": _op(_EVENT),
        "add_shared_objective": _op(_CORP, draw=_POS, keep=_POS),
        "add_next_rank_card_to_choice": _op(_CORP, count=_POS),
        "take_civ_cards": _op(_CORP, count=_POS, source=_enum("all_remaining_piles")),
        # --- round rules of events (cards.md 1.1) -------------------------------
        "rover_cannot_enter_terrain": _op(_ROUND, terrain=_TERRAIN),
        "tile_cannot_cover_edge": _op(_ROUND),
        "tile_cannot_cover_ice": _op(_ROUND),
        "tile_cannot_touch_same_terrain": _op(_ROUND),
        "tile_resources_ignore_one": _op(_ROUND),
        "no_milestone_benefits": _op(_ROUND, milestones=_list_of(_MILESTONE)),
        "no_synergy_boosts": _op(_ROUND),
        "place_extra_rover_on_tile_placed_this_round": _op(_ROUND),
        # --- corporation techs (corporations.json ops) --------------------------
        "ignore_placement_restriction": _op(
            _CORP,
            restriction=_enum("adjacency"),
            applies_to=_enum("all_tiles", "tiles_with_rover_terrain"),
        ),
        "store_biomass_patches": _op(_CORP),
        "rover_movement_bonus": _op(
            _CORP,
            amount=_POS,
            applies_to=_enum("rover_track_movement", "all_rover_movement"),
        ),
        "resource_advance_multiplier": _op(
            _CORP,
            resource=_TRACK,
            factor=_POS,
            applies_to=_enum("water_resource_of_placed_tile_covering_ice"),
        ),
        "no_meteorites": _op(_CORP),
        "rover_diagonal_movement": _op(_CORP),
        "reposition_lifepods": _op(_CORP, count=_POS),
        "rover_step_cost": _op(_CORP, terrain=_TERRAIN, cost=_NONNEG),
        "improve_flux_track": _op(
            _CORP,
            civ_rank_bonus=_POS,
            civ_rank_cap=_POS,
            rover_bonus_applies_to=_enum("rover_track_movement", "all_rover_movement"),
        ),
        "destroy_carried_meteorite": _op(_CORP),
        "replace_benefit": _OpSpec(
            _CORP,
            MappingProxyType({"from": _BENEFIT, "to": _BENEFIT, "to_count": _POS}),
            MappingProxyType({}),
        ),
        "treat_resource_as_energy": _op(_CORP, resource=_RESOURCE),
        "treat_columns_adjacent": _op(_CORP, columns=_list_of(_TRACK, length=2)),
        "lateral_shift_instead_of_advance": _op(_CORP),
        "score_as_highest_tracker_on_column": _op(_CORP),
        "skip_blocking_trackers": _op(_CORP),
        "biomass_patch_placement": _op(_CORP, allow_on=_enum("tiles", "meteorite")),
        # --- corporation special rules -----------------------------------------
        "lifepod_destination_choice": _op(
            _CORP,
            {"top_space_allowed": _bool_param},
            destinations=_list_of(_enum("scoring_area", "track_space", "tech_slot")),
        ),
        "trackers_skip_spaces_with": _op(_CORP, occupant=_enum("lifepod")),
        "covered_spaces_ignored": _op(_CORP),
        "lifepod_scoring": _op(_CORP, counts=_enum("scoring_area_only")),
        "flux_track_designation": _op(_CORP),
        "active_tech": _op(_CORP, which=_enum("highest_unlocked_only")),
        "meteorite_pickup_and_delivery": _op(
            _CORP, capacity_per_rover=_POS, deliver_on=_enum("rover_resource_icon")
        ),
        "tech_track_without_unlocks": _op(_CORP),
        "advance_directions": _op(
            _CORP, directions=_list_of(_enum("straight", "diagonal"))
        ),
        "benefit_by_space_not_tracker": _op(_CORP),
        "tracker_blocking": _op(
            _CORP, max_trackers_per_space=_POS, blocked_advance=_enum("lost")
        ),
        "tech_level_source": _op(_CORP, source=_enum("highest_tracker_on_tech_column")),
        "medal_scoring_by_column": _op(_CORP),
        "water_advance_count": _op(_CORP, per=_enum("water_square_on_ice")),
        "tracker_path": _op(_CORP, track=_TRACK),
        "advance_requires_area_expansion": _op(
            _CORP,
            track=_TRACK,
            energy_choice=_enum("only_if_tile_expanded", "never"),
        ),
        "branching_track": _op(_CORP, track=_TRACK),
    }
)

_COMMON_PARAMS: Final[Mapping[str, _Check]] = MappingProxyType(
    {"optional": _bool_param, "condition": _condition}
)
"""Parameters every op accepts: the player may decline; it applies only if."""

EFFECT_OPS: Final[Mapping[str, tuple[frozenset[str], frozenset[str]]]] = (
    MappingProxyType(
        {
            name: (
                frozenset(spec.required),
                frozenset(spec.optional) | frozenset(_COMMON_PARAMS),
            )
            for name, spec in _OPS.items()
        }
    )
)
"""The op vocabulary: op -> (required parameters, optional parameters)."""

EFFECT_WHEN: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {
        "civ": frozenset({"on_take", "end_of_game_step", "final_scoring"}),
        "event": frozenset({"on_reveal"}),
        "round_rule": frozenset({"this_round"}),
        "corporation": frozenset(
            {
                "passive",
                "activated",
                "round_start",
                "end_of_game",
                "movement_option",
                "tile_placed",
                "tile_selected",
                "gain_biomass_patch",
                "synergy_boost",
                "civ_milestone_claimed",
                "civ_milestone_card_choice",
                "meteorite_collected",
                "carrying_rover_enters_square",
                "lifepod_collected",
                "tech_level_unlocked",
            }
        ),
    }
)
"""Allowed ``when`` values per kind of effect list."""


def _parse_effect(raw: object, context: str, *, nested: bool = False) -> Effect:
    """Parse one effect table; raise ValueError (the caller adds file and entry)."""
    if not isinstance(raw, dict):
        raise ValueError(
            f"an effect must be a table {{ op = ... }}, got {_describe(raw)}"
        )
    table = cast(dict[str, object], raw)
    op = table.get("op")
    if not isinstance(op, str):
        raise ValueError("effect without an 'op'")
    spec = _OPS.get(op)
    if spec is None:
        raise ValueError(f"unknown op {op!r}")
    if context not in spec.contexts:
        raise ValueError(f"op {op!r} is not allowed in {context} effects")
    when = ""
    if nested:
        if "when" in table:
            raise ValueError(f"op {op!r}: an option of choose_one takes no 'when'")
    else:
        raw_when = table.get("when")
        if not isinstance(raw_when, str) or raw_when not in EFFECT_WHEN[context]:
            allowed = ", ".join(sorted(EFFECT_WHEN[context]))
            raise ValueError(
                f"op {op!r}: 'when' = {raw_when!r} is not one of {allowed}"
            )
        when = raw_when
    params: dict[str, object] = {}
    for key, value in table.items():
        if key in ("op", "when"):
            continue
        check = (
            spec.required.get(key) or spec.optional.get(key) or _COMMON_PARAMS.get(key)
        )
        if check is None:
            raise ValueError(f"op {op!r}: unknown parameter {key!r}")
        try:
            params[key] = check(value)
        except ValueError as exc:
            raise ValueError(f"op {op!r}: parameter {key!r}: {exc}") from None
    missing = sorted(set(spec.required) - set(params))
    if missing:
        raise ValueError(f"op {op!r}: missing parameter(s) {', '.join(missing)}")
    return Effect(op=op, params=MappingProxyType(params), when=when)


def _effects(
    node: _Node, key: str, context: str, *, allow_empty: bool = False
) -> tuple[Effect, ...]:
    """Read the list of effects under ``key``."""
    raw = node.get_list(key)
    if not raw and not allow_empty:
        raise node.error(f"'{key}' is empty")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(_parse_effect(item, context))
        except ValueError as exc:
            raise node.error(f"{key}[{i}]: {exc}") from None
    return tuple(out)


# --------------------------------------------------------------------------------
# Track spaces
# --------------------------------------------------------------------------------

_NUMBERED: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {"medal": (1, 20), "civ": (1, 4), "move": (1, 9), "tech": (1, 6)}
)
"""Numbered tokens and their allowed ranges."""


def parse_space(text: str) -> Space:
    """Parse a space written as tokens (``"move:2 medal:1"``); raise ValueError.

    Token vocabulary (corporations.md 0): ``medal:N civ:R synergy synergy:T
    biomass_patch rover move:N tech:L no_stop``.  ``synergy`` and
    ``biomass_patch`` may repeat (Flux's improved tracks give two).
    """
    numbers: dict[str, int] = {}
    flags: set[str] = set()
    synergy = patches = 0
    target = ""
    for token in text.split():
        name, sep, arg = token.partition(":")
        if name == "synergy":
            synergy += 1
            if sep:
                if arg not in TRACKS:
                    raise ValueError(f"unknown synergy target in {token!r}")
                if target:
                    raise ValueError(f"two targeted synergies in {text!r}")
                target = arg
        elif name == "biomass_patch" and not sep:
            patches += 1
        elif name in ("rover", "no_stop") and not sep:
            if name in flags:
                raise ValueError(f"token {name!r} twice in {text!r}")
            flags.add(name)
        elif name in _NUMBERED and sep:
            lo, hi = _NUMBERED[name]
            if not arg.isdigit() or not lo <= int(arg) <= hi:
                raise ValueError(f"bad value in {token!r} (expected {lo}..{hi})")
            if name in numbers:
                raise ValueError(f"token {name!r} twice in {text!r}")
            numbers[name] = int(arg)
        else:
            raise ValueError(f"unknown token {token!r}")
    if target and synergy != 1:
        raise ValueError(f"a targeted synergy cannot share its space: {text!r}")
    space = Space(
        medal=numbers.get("medal", 0),
        civ_rank=numbers.get("civ", 0),
        synergy=synergy,
        synergy_target=target,
        patches=patches,
        rover="rover" in flags,
        move=numbers.get("move", 0),
        tech_level=numbers.get("tech", 0),
        no_stop="no_stop" in flags,
    )
    if space.no_stop and _has_benefit(space):
        raise ValueError(f"a no_stop space carries a benefit: {text!r}")
    return space


def _has_benefit(space: Space) -> bool:
    """Tell whether entering the space claims anything (medals are not)."""
    return bool(
        space.civ_rank
        or space.synergy
        or space.patches
        or space.rover
        or space.move
        or space.tech_level
    )


_TRACK_ONLY_TOKENS: Final[Mapping[str, Callable[[Space], bool]]] = MappingProxyType(
    {
        "civ": lambda s: s.civ_rank > 0,
        "biomass": lambda s: s.patches > 0 or bool(s.synergy_target),
        "rover": lambda s: s.rover or s.move > 0,
        "tech": lambda s: s.tech_level > 0,
    }
)
"""Tokens printed only on one track (a token elsewhere is a transcription slip)."""


def _track(
    node: _Node, where: str, name: str, raw: object, beyond_top: object
) -> Track:
    """Read a 16-space track written as a list of token strings."""
    if not isinstance(raw, list) or len(raw) != TRACK_LEN:
        raise node.error(f"{where}.{name}: expected a list of {TRACK_LEN} spaces")
    spaces = []
    for i, text in enumerate(cast(list[object], raw)):
        if not isinstance(text, str):
            raise node.error(f"{where}.{name}[{i}]: expected a string of tokens")
        try:
            space = parse_space(text)
        except ValueError as exc:
            raise node.error(f"{where}.{name}[{i}]: {exc}") from None
        for owner, holds in _TRACK_ONLY_TOKENS.items():
            if owner != name and holds(space):
                raise node.error(
                    f"{where}.{name}[{i}]: {text!r} belongs on the {owner} track"
                )
        spaces.append(space)
    if spaces[0] != Space():
        raise node.error(f"{where}.{name}[0]: the start space must be blank")
    top: Space | None = None
    if beyond_top is not None:
        if not isinstance(beyond_top, str):
            raise node.error(f"{where}: rover_beyond_top must be a token string")
        try:
            top = parse_space(beyond_top)
        except ValueError as exc:
            raise node.error(f"{where}: rover_beyond_top: {exc}") from None
        if not top.move or top.medal or top.no_stop:
            raise node.error(f"{where}: rover_beyond_top must be movement only")
    return Track(spaces=tuple(spaces), beyond_top=top)


# --------------------------------------------------------------------------------
# tiles.toml
# --------------------------------------------------------------------------------

_SHAPE_CHARS: Final = frozenset(".AaBb")


def _load_tiles(
    data: Mapping[str, object],
) -> tuple[tuple[Family, ...], tuple[Shape, ...], tuple[Tile, ...], Station]:
    """Read families, shapes, the 144 tiles and the station."""
    file = "tiles.toml"
    top = _Node(file, "top level", dict(data))
    terrains = top.get_list("terrains")
    if tuple(terrains) != TERRAINS:
        raise top.error(f"'terrains' must be {list(TERRAINS)} (gamedata.TERRAINS)")

    families = []
    for node in _entries(file, data, "family", "family"):
        top.seen.add("family")
        index = node.get_int("index", lo=0)
        node.rename(f"family {index}")
        a = node.get_str("a", choices=TERRAINS)
        b = node.get_str("b", choices=TERRAINS)
        if a == b:
            raise node.error("a tile shows two different terrains")
        node.done()
        families.append(Family(index=index, a=a, b=b))
    if [f.index for f in families] != list(range(N_FAMILIES)):
        raise DataError(
            f"{file}: expected {N_FAMILIES} families with index 0..5 in order"
        )
    for terrain in TERRAINS:
        as_a = sum(f.a == terrain for f in families)
        as_b = sum(f.b == terrain for f in families)
        if (as_a, as_b) != (1, 1):
            raise DataError(
                f"{file}: terrain {terrain!r} is part A of {as_a} and part B of {as_b}"
                " families (each must be A once and B once)"
            )

    shapes = []
    for node in _entries(file, data, "shape", "shape"):
        top.seen.add("shape")
        shapes.append(_shape(node))
    if [s.index for s in shapes] != list(range(N_SHAPES)):
        raise DataError(f"{file}: expected {N_SHAPES} shapes with index 0..11 in order")
    by_name: dict[str, Shape] = {}
    for shape in shapes:
        if shape.name in by_name:
            raise DataError(f"{file}: shape {shape.name!r}: duplicate name")
        by_name[shape.name] = shape
    if len({s.bga_constant for s in shapes}) != N_SHAPES:
        raise DataError(f"{file}: duplicate bga_constant among the shapes")
    for ring in ("small", "large"):
        ring_shapes = [s for s in shapes if s.ring == ring]
        if len(ring_shapes) != N_SHAPES // 2:
            raise DataError(
                f"{file}: the {ring} ring needs 6 shapes, got {len(ring_shapes)}"
            )

    station = _station(_Node(file, "station", top.get_table("station")), by_name)
    tiles = _tile_rows(_Node(file, "tiles", top.get_table("tiles")), by_name, families)
    top.done()
    return tuple(families), tuple(shapes), tiles, station


def _shape(node: _Node) -> Shape:
    """Read one shape from its drawing."""
    index = node.get_int("index", lo=0)
    name = node.get_str("name")
    node.rename(f"shape {name!r}")
    bga_constant = node.get_str("bga_constant")
    if not re.fullmatch(r"TILE_\w+", bga_constant):
        raise node.error(f"bga_constant {bga_constant!r} is not a TILE_* constant")
    ring = cast(
        Literal["small", "large"], node.get_str("ring", choices=("small", "large"))
    )
    rows = _multiline(node, "drawing")
    if not rows or len({len(r) for r in rows}) != 1:
        raise node.error("drawing rows must all have the same length")
    cells: list[Cell] = []
    parts: list[str] = []
    icons: dict[str, list[Cell]] = {"a": [], "b": []}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch not in _SHAPE_CHARS:
                raise node.error(f"drawing: unknown character {ch!r} at ({x}, {y})")
            if ch == ".":
                continue
            cells.append((x, y))
            parts.append(ch.upper())
            if ch.islower():
                icons[ch].append((x, y))
    if not 2 <= len(cells) <= 5:
        raise node.error(f"a tile has 2 to 5 squares, the drawing has {len(cells)}")
    if (
        min(x for x, _ in cells)
        or min(y for _, y in cells)
        or len(rows[0]) - 1 != max(x for x, _ in cells)
    ):
        raise node.error("drawing has an empty border column (draw it tight)")
    if any(set(row) == {"."} for row in rows):
        raise node.error("drawing has an empty row (draw it tight)")
    for part in ("A", "B"):
        part_cells = [c for c, p in zip(cells, parts, strict=True) if p == part]
        if not part_cells:
            raise node.error(f"drawing has no part {part}")
        if not _connected(part_cells):
            raise node.error(f"part {part} is not one connected group")
        if len(icons[part.lower()]) != 1:
            raise node.error(
                f"part {part} needs exactly one icon square {part.lower()!r},"
                f" has {len(icons[part.lower()])}"
            )
    if not _connected(cells):
        raise node.error("the shape is not connected")
    meteor = node.get_cell("meteor", node.raw("meteor"))
    if meteor not in cells:
        raise node.error(f"meteor {meteor} is not a square of the shape")
    node.done()
    return Shape(
        index=index,
        name=name,
        bga_constant=bga_constant,
        ring=ring,
        cells=tuple(cells),
        parts=tuple(parts),
        icon_a=icons["a"][0],
        icon_b=icons["b"][0],
        meteor=meteor,
    )


def _station(node: _Node, by_name: Mapping[str, Shape]) -> Station:
    """Read stack size, slot order by ring (rules.md ST-4) and seats (ST-6)."""
    stack_size = node.get_int("stack_size", lo=1)
    if stack_size != N_TILES // N_SHAPES:
        raise node.error(
            f"stack_size must be {N_TILES // N_SHAPES} (all tiles of a shape)"
        )
    slots: dict[str, tuple[int, ...]] = {}
    for key, ring in (("interior_slots", "small"), ("exterior_slots", "large")):
        names = node.get_list(key)
        indices = []
        for name in names:
            shape = by_name.get(name) if isinstance(name, str) else None
            if shape is None:
                raise node.error(f"{key}: unknown shape name {_describe(name)}")
            if shape.ring != ring:
                raise node.error(
                    f"{key}: shape {name!r} belongs to the {shape.ring} ring"
                )
            indices.append(shape.index)
        expected = sorted(s.index for s in by_name.values() if s.ring == ring)
        if sorted(indices) != expected:
            raise node.error(f"{key}: must hold every {ring}-ring shape exactly once")
        slots[key] = tuple(indices)
    seats_raw = node.get_list("seats")
    if len(seats_raw) != 6:
        raise node.error("seats: expected one entry per player count 1..6")
    seats = []
    for n, entry in enumerate(seats_raw, start=1):
        if not isinstance(entry, list):
            raise node.error(f"seats[{n - 1}]: expected a list")
        try:
            row = tuple(_check_int(v, 0, 5) for v in cast(list[object], entry))
        except ValueError as exc:
            raise node.error(f"seats[{n - 1}]: {exc}") from None
        if len(row) != n or len(set(row)) != n:
            raise node.error(f"seats[{n - 1}]: {n} player(s) need {n} distinct slots")
        seats.append(row)
    node.done()
    return Station(
        stack_size=stack_size,
        interior_slots=slots["interior_slots"],
        exterior_slots=slots["exterior_slots"],
        seats=tuple(seats),
    )


def _tile_rows(
    node: _Node, by_name: Mapping[str, Shape], families: Sequence[Family]
) -> tuple[Tile, ...]:
    """Read the explicit tile table, checking each row against the id formula."""
    rows = node.get_list("rows")
    tiles = []
    for i, row in enumerate(rows):
        if (
            not isinstance(row, list)
            or len(row) != 4
            or not isinstance(row[0], int)
            or isinstance(row[0], bool)
            or not isinstance(row[1], str)
            or not isinstance(row[2], int)
            or isinstance(row[2], bool)
            or not isinstance(row[3], bool)
        ):
            raise node.error(f"rows[{i}]: expected [id, shape name, family, meteor]")
        tile_id, shape_name, family, meteor = cast(
            tuple[int, str, int, bool], tuple(row)
        )
        where = f"tile {tile_id}"
        shape = by_name.get(shape_name)
        if shape is None:
            raise node.error(f"{where}: unknown shape name {shape_name!r}")
        if not 0 <= family < len(families):
            raise node.error(f"{where}: unknown family {family}")
        k, shape_index = divmod(tile_id, N_SHAPES)
        expected = (shape_index, k // 2, k % 2 == 1)
        if (shape.index, family, meteor) != expected or not 0 <= tile_id < N_TILES:
            raise node.error(
                f"{where}: [{shape.name}, family {family}, meteor {meteor}] breaks"
                f" the id formula (expects shape index {expected[0]},"
                f" family {expected[1]}, meteor {expected[2]})"
            )
        tiles.append(Tile(id=tile_id, shape=shape.index, family=family, meteor=meteor))
    node.done()
    _check_ids("tiles.toml", "tile", [t.id for t in tiles], range(N_TILES))
    meteors = sum(t.meteor for t in tiles)
    if meteors != N_METEOR_TILES:
        raise DataError(f"tiles.toml: {meteors} tiles carry a meteor, expected 72")
    for counter, what, each in (
        (Counter(t.shape for t in tiles), "shape", N_TILES // N_SHAPES),
        (Counter(t.family for t in tiles), "family", N_TILES // N_FAMILIES),
    ):
        for key, count in sorted(counter.items()):
            if count != each:
                raise DataError(
                    f"tiles.toml: {what} {key} has {count} tiles, expected {each}"
                )
    return tuple(sorted(tiles, key=lambda t: t.id))


# --------------------------------------------------------------------------------
# planets.toml
# --------------------------------------------------------------------------------

_GRID_CHARS: Final = frozenset(".VHLIPRXCTEQ")
_NON_GRID: Final = frozenset(".VH")
_KEY_RE: Final = re.compile(r"[a-z][a-z0-9_]*")


def _region_map(
    node: _Node, key: str, grid: Sequence[str], allowed: str
) -> tuple[str, ...]:
    """Read a map drawn like the grid: ``allowed`` on grid squares, else '.'."""
    rows = _multiline(node, key)
    if len(rows) != BOARD or any(len(r) != BOARD for r in rows):
        raise node.error(f"'{key}' must be 12 rows of 12 characters")
    for y in range(BOARD):
        for x in range(BOARD):
            ch = rows[y][x]
            on_grid = grid[y][x] not in _NON_GRID
            if on_grid and ch not in allowed:
                raise node.error(
                    f"'{key}': grid square ({x}, {y}) has {ch!r},"
                    f" expected one of {allowed!r}"
                )
            if not on_grid and ch != ".":
                raise node.error(
                    f"'{key}': ({x}, {y}) is not a grid square but has {ch!r}"
                )
    return rows


def _regions(rows: Sequence[str]) -> dict[str, list[Cell]]:
    """Group the squares of a region map by label."""
    out: dict[str, list[Cell]] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch != ".":
                out.setdefault(ch, []).append((x, y))
    return out


def _planet(node: _Node) -> Planet:
    """Read one planet board with its special rules."""
    pid = node.get_int("id", lo=0)
    key = node.get_str("key")
    node.rename(f"planet {key!r}")
    if not _KEY_RE.fullmatch(key):
        raise node.error("key must be snake_case ascii")
    name = node.get_str("name")
    complexity = node.get_int("complexity", lo=1, hi=5)
    grid = _multiline(node, "grid")
    if len(grid) != BOARD or any(len(r) != BOARD for r in grid):
        raise node.error(
            f"grid must be 12 rows of 12 characters, got {[len(r) for r in grid]}"
        )
    for y, row in enumerate(grid):
        for x, ch in enumerate(row):
            if ch not in _GRID_CHARS:
                raise node.error(f"grid: unknown character {ch!r} at ({x}, {y})")
    for i in range(BOARD):
        if all(grid[i][x] in _NON_GRID for x in range(BOARD)):
            raise node.error(f"row {i} has no grid square")
        if all(grid[y][i] in _NON_GRID for y in range(BOARD)):
            raise node.error(f"column {i} has no grid square")
    row_medals = node.get_ints("row_medals", length=BOARD, lo=1)
    col_medals = node.get_ints("col_medals", length=BOARD, lo=1)

    lifepods = node.get_cells("lifepods")
    pod_squares = {
        (x, y) for y in range(BOARD) for x in range(BOARD) if grid[y][x] in "PQ"
    }
    for x, y in lifepods:
        if (x, y) not in pod_squares:
            raise node.error(f"lifepod ({x}, {y}) is not a 'P' or 'Q' square")
    if len(set(lifepods)) != len(lifepods):
        raise node.error("a lifepod is listed twice")
    unlisted = sorted(pod_squares - set(lifepods))
    if unlisted:
        raise node.error(f"'P'/'Q' square(s) {unlisted} missing from lifepods")
    if len(lifepods) != LIFEPODS_PER_PLANET:
        raise node.error(f"{len(lifepods)} lifepods, every planet has 6")

    def is_grid(cell: Cell) -> bool:
        return grid[cell[1]][cell[0]] not in _NON_GRID

    first_tile = cast(
        Literal["edge", "cells"], node.get_str("first_tile", choices=("edge", "cells"))
    )
    first_cells: tuple[Cell, ...] = ()
    if first_tile == "cells":
        first_cells = node.get_cells("first_tile_cells")
        if not first_cells or not all(is_grid(c) for c in first_cells):
            raise node.error("first_tile_cells must be grid squares")
    elif node.has("first_tile_cells"):
        raise node.error('first_tile_cells needs first_tile = "cells"')
    pits = {(x, y) for y in range(BOARD) for x in range(BOARD) if grid[y][x] == "X"}
    if pits and set(first_cells) != pits:
        raise node.error(
            "the first tile must start on the pit: first_tile_cells = the 'X' squares"
        )

    restrictions = tuple(node.get_list("restrictions", default=[]))
    for r in restrictions:
        if r not in PLANET_RESTRICTIONS:
            raise node.error(
                f"unknown restriction {_describe(r)} (see gamedata.PLANET_RESTRICTIONS)"
            )
    if len(set(restrictions)) != len(restrictions):
        raise node.error("a restriction is listed twice")
    chars = {ch for row in grid for ch in row}
    if ("ring_anchor" in restrictions) != ("R" in chars):
        raise node.error("ring_anchor goes with 'R' ring squares, and only with them")

    adjacency_waiver = node.get_bool("adjacency_waiver", default=False)
    city_medals = node.get_int("city_medals", default=0, lo=0)
    if (city_medals > 0) != ("C" in chars):
        raise node.error("city_medals goes with 'C' city squares, and only with them")
    currents = node.get_bool("currents_count_covered", default=False)
    if currents and not chars & {"E", "Q"}:
        raise node.error("currents_count_covered needs 'E'/'Q' current squares")

    subplanet_bonus = node.get_int("subplanet_bonus", default=0, lo=0)
    subplanet_map: tuple[str, ...] = ()
    if node.has("subplanet_map"):
        subplanet_map = _region_map(node, "subplanet_map", grid, "123456789")
        for label, cells in sorted(_regions(subplanet_map).items()):
            if not _connected(cells):
                raise node.error(f"sub-planet {label} is not connected")
    if bool(subplanet_map) != (subplanet_bonus > 0):
        raise node.error("subplanet_bonus and subplanet_map go together")
    boxes: list[tuple[int, int, int, int]] = []
    if node.has("bga_subplanet_boxes"):
        for box in node.get_list("bga_subplanet_boxes"):
            if (
                not isinstance(box, list)
                or len(box) != 4
                or not all(isinstance(v, int) and 0 <= v < 12 for v in box)
                or box[0] > box[1]
                or box[2] > box[3]
            ):
                raise node.error(
                    "bga_subplanet_boxes: expected [x_min, x_max, y_min, y_max] boxes"
                )
            boxes.append((box[0], box[1], box[2], box[3]))
        if len(boxes) != len(_regions(subplanet_map)):
            raise node.error("bga_subplanet_boxes needs one box per sub-planet")

    quadrant_map: tuple[str, ...] = ()
    banned: dict[int, str] = {}
    if node.has("quadrant_map"):
        quadrant_map = _region_map(node, "quadrant_map", grid, "1234")
        raw_banned = node.get_table("quadrant_banned_icon")
        for label, icon in raw_banned.items():
            if label not in "1234" or len(label) != 1:
                raise node.error(f"quadrant_banned_icon: unknown quadrant {label!r}")
            if icon not in TERRAINS:
                raise node.error(
                    f"quadrant_banned_icon: unknown resource {_describe(icon)}"
                )
            banned[int(label)] = icon
        if set(banned) != {int(q) for q in _regions(quadrant_map)}:
            raise node.error(
                "quadrant_banned_icon must name one icon per quadrant of the map"
            )
    if bool(quadrant_map) != ("quadrant_icon_ban" in restrictions):
        raise node.error("quadrant_icon_ban and quadrant_map go together")

    chasm_map: tuple[str, ...] = ()
    crossings: list[tuple[Cell, Cell]] = []
    if node.has("chasm_side_map"):
        chasm_map = _region_map(node, "chasm_side_map", grid, "AB")
        sides = _regions(chasm_map)
        if set(sides) != {"A", "B"} or not all(_connected(c) for c in sides.values()):
            raise node.error("chasm_side_map needs two connected sides 'A' and 'B'")
        for pair in node.get_list("chasm_diagonal_crossings"):
            if not isinstance(pair, list) or len(pair) != 2:
                raise node.error(
                    "chasm_diagonal_crossings: expected [[x, y], [x, y]] pairs"
                )
            a = node.get_cell("chasm_diagonal_crossings", pair[0])
            b = node.get_cell("chasm_diagonal_crossings", pair[1])
            if abs(a[0] - b[0]) != 1 or abs(a[1] - b[1]) != 1:
                raise node.error(f"crossing {a}-{b} is not a diagonal step")
            if (
                not (is_grid(a) and is_grid(b))
                or chasm_map[a[1]][a[0]] == chasm_map[b[1]][b[0]]
            ):
                raise node.error(f"crossing {a}-{b} does not join the two sides")
            crossings.append((a, b))
    if bool(chasm_map) != ("single_chasm_side" in restrictions):
        raise node.error("single_chasm_side and chasm_side_map go together")
    node.done()
    return Planet(
        id=pid,
        key=key,
        name=name,
        complexity=complexity,
        grid=grid,
        row_medals=row_medals,
        col_medals=col_medals,
        lifepods=lifepods,
        first_tile=first_tile,
        first_tile_cells=first_cells,
        restrictions=cast(tuple[str, ...], restrictions),
        adjacency_waiver=adjacency_waiver,
        city_medals=city_medals,
        subplanet_map=subplanet_map,
        subplanet_bonus=subplanet_bonus,
        bga_subplanet_boxes=tuple(boxes),
        quadrant_map=quadrant_map,
        quadrant_banned_icon=MappingProxyType(banned),
        chasm_side_map=chasm_map,
        chasm_diagonal_crossings=tuple(crossings),
        currents_count_covered=currents,
    )


def _load_planets(data: Mapping[str, object]) -> tuple[Planet, ...]:
    """Read all 13 planets, by id."""
    file = "planets.toml"
    extra = sorted(set(data) - {"planet"})
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {extra}")
    planets = [_planet(node) for node in _entries(file, data, "planet", "planet")]
    _check_ids(file, "planet", [p.id for p in planets], range(N_PLANETS))
    if len({p.key for p in planets}) != len(planets):
        raise DataError(f"{file}: duplicate planet key")
    return tuple(sorted(planets, key=lambda p: p.id))


# --------------------------------------------------------------------------------
# corporations.toml
# --------------------------------------------------------------------------------

_TECH_LIMITS: Final = (
    "passive",
    "once_per_round",
    "once_per_game",
    "round_start",
    "game_end",
)
_PATH_LEN: Final = 24  # Oasis water path steps 0..23 (corporations.md 3.7)


def _corporation(node: _Node) -> Corporation:
    """Read one corporation board, its techs, special rules and geometry."""
    cid = node.get_int("id", lo=0)
    key = node.get_str("key")
    node.rename(f"corporation {key!r}")
    if not _KEY_RE.fullmatch(key):
        raise node.error("key must be snake_case ascii")
    name = node.get_str("name")
    complexity = node.get_int("complexity", lo=1, hi=5)
    rovers = node.get_int("rovers", lo=1)
    tech_slots = node.get_int("tech_slots", default=0, lo=0)

    tracks_raw = node.get_table("tracks")
    if set(tracks_raw) != set(TRACKS):
        raise node.error(
            f"tracks must be exactly {', '.join(TRACKS)}; got {sorted(tracks_raw)}"
        )
    beyond = node.raw("rover_beyond_top")
    tracks = {
        t: _track(node, "tracks", t, tracks_raw[t], beyond if t == "rover" else None)
        for t in TRACKS
    }

    milestones = sum(s.rover for s in tracks["rover"].spaces)
    if milestones != rovers:
        raise node.error(
            f"rovers = {rovers} but the rover track has {milestones} rover milestones"
        )
    ranks = [s.civ_rank for s in tracks["civ"].spaces if s.civ_rank]
    if not ranks or ranks[0] != 1 or ranks != sorted(ranks) or ranks[-1] != 4:
        raise node.error(f"civ milestone ranks {ranks} must rise from 1 to 4")
    levels = [s.tech_level for s in tracks["tech"].spaces if s.tech_level]

    improved: dict[str, Track] = {}
    if node.has("improved_tracks"):
        sub = _Node(
            node.file,
            f"{node.entry}: improved_tracks",
            node.get_table("improved_tracks"),
        )
        for t in TRACKS:
            if sub.has(t):
                raw_beyond = sub.raw("rover_beyond_top") if t == "rover" else None
                improved[t] = _track(node, "improved_tracks", t, sub.raw(t), raw_beyond)
        sub.done()
        if not improved:
            raise node.error("improved_tracks is empty")

    techs = []
    for i, raw in enumerate(node.get_list("tech")):
        techs.append(_tech(_Node(node.file, f"{node.entry}: tech #{i + 1}", raw)))
    if [t.level for t in techs] != list(range(1, len(techs) + 1)):
        raise node.error(
            f"tech levels {[t.level for t in techs]} must be 1..n in order"
        )
    if tech_slots:
        if levels:
            raise node.error("a board with tech slots has no tech milestones")
        if len(techs) != tech_slots:
            raise node.error(f"{tech_slots} tech slots but {len(techs)} techs")
    elif levels != list(range(1, len(techs) + 1)):
        raise node.error(
            f"tech milestones {levels} must unlock levels 1..{len(techs)} in order"
        )

    special = (
        _effects(node, "special_rules", "corporation", allow_empty=True)
        if node.has("special_rules")
        else ()
    )

    water_path: tuple[tuple[str, int], ...] = ()
    water_medals: tuple[int, ...] = ()
    if node.has("water_path"):
        water_path, water_medals = _water_path(node, tracks)
    elif any(s.no_stop for s in tracks["water"].spaces):
        raise node.error("no_stop water spaces need a water_path")

    levels_out: tuple[tuple[Space, Space, int], ...] = ()
    if node.has("biomass_levels"):
        levels_out = _biomass_levels(node, tracks["biomass"])
    elif any(s.no_stop for s in tracks["biomass"].spaces):
        raise node.error("no_stop biomass spaces need biomass_levels")
    for t in ("civ", "rover", "tech"):
        if any(s.no_stop for s in tracks[t].spaces):
            raise node.error(f"the {t} track cannot have no_stop spaces")

    neighbours: list[tuple[str, str]] = []
    for pair in node.get_list("column_neighbours", default=[]):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(p in TRACKS for p in pair)
            or pair[0] == pair[1]
        ):
            raise node.error(f"column_neighbours: bad pair {_describe(pair)}")
        neighbours.append((cast(str, pair[0]), cast(str, pair[1])))
    if len({frozenset(p) for p in neighbours}) != len(neighbours):
        raise node.error("column_neighbours lists a pair twice")
    node.done()
    return Corporation(
        id=cid,
        key=key,
        name=name,
        complexity=complexity,
        rovers=rovers,
        tracks=MappingProxyType(tracks),
        techs=tuple(techs),
        special_rules=special,
        improved_tracks=MappingProxyType(improved),
        water_path=water_path,
        water_path_medals=water_medals,
        biomass_levels=levels_out,
        tech_slots=tech_slots,
        column_neighbours=tuple(neighbours),
    )


def _tech(node: _Node) -> Tech:
    """Read one tech level; its limit must agree with when its effects act."""
    level = node.get_int("level", lo=1, hi=6)
    node.rename(f"{node.entry.rsplit(': ', 1)[0]}: tech {level}")
    label = node.get_str("label", default="")
    text = node.get_str("text")
    limit = node.get_str("limit", choices=_TECH_LIMITS)
    effects = _effects(node, "effects", "corporation")
    whens = {e.when for e in effects}
    for limit_name, when in (
        ("round_start", "round_start"),
        ("game_end", "end_of_game"),
    ):
        if (limit == limit_name) != (when in whens):
            raise node.error(
                f"limit {limit!r} and effects 'when' {sorted(whens)} disagree"
            )
    node.done()
    return Tech(
        level=level,
        text=text,
        limit=cast(
            Literal[
                "passive", "once_per_round", "once_per_game", "round_start", "game_end"
            ],
            limit,
        ),
        effects=effects,
        label=label,
    )


def _water_path(
    node: _Node, tracks: Mapping[str, Track]
) -> tuple[tuple[tuple[str, int], ...], tuple[int, ...]]:
    """Read Oasis's 24-step water path; derive the water medal at each step."""
    steps: list[tuple[str, int]] = []
    for i, raw in enumerate(node.get_list("water_path")):
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or raw[0] not in TRACKS
            or not isinstance(raw[1], int)
            or isinstance(raw[1], bool)
            or not 0 <= raw[1] < TRACK_LEN
        ):
            raise node.error(
                f"water_path[{i}]: expected [track, row 0..15], got {_describe(raw)}"
            )
        steps.append((cast(str, raw[0]), raw[1]))
    if len(steps) != _PATH_LEN:
        raise node.error(f"water_path has {len(steps)} steps, expected {_PATH_LEN}")
    if steps[0] != ("water", 0) or steps[-1] != ("water", TRACK_LEN - 1):
        raise node.error("water_path must run from water row 0 to water row 15")
    if len(set(steps)) != len(steps):
        raise node.error("water_path visits a space twice")
    for i, ((t0, r0), (t1, r1)) in enumerate(itertools.pairwise(steps)):
        if abs(TRACKS.index(t0) - TRACKS.index(t1)) > 1 or abs(r0 - r1) != 1:
            raise node.error(
                f"water_path step {i} -> {i + 1} ({t0} {r0} -> {t1} {r1}) is not a move"
                " to a neighbouring row of the same or a neighbouring track"
            )
    water = tracks["water"].spaces
    on_path = {row for t, row in steps if t == "water"}
    stops = {row for row, s in enumerate(water) if not s.no_stop}
    if on_path != stops:
        raise node.error(
            f"water rows on the path {sorted(on_path)} must be exactly the rows"
            f" without no_stop {sorted(stops)}"
        )
    for t, row in steps:
        if tracks[t].spaces[row].no_stop:
            raise node.error(f"water_path steps onto the no_stop space {t} {row}")
    medals = tuple(water[row].medal if t == "water" else 0 for t, row in steps)
    return tuple(steps), medals


def _biomass_levels(node: _Node, track: Track) -> tuple[tuple[Space, Space, int], ...]:
    """Read Wormhole's levels 0..5 as (option A, option B, medal at the level)."""
    raw = node.get_list("biomass_levels")
    pairs: list[tuple[int, int]] = []
    for i, item in enumerate(raw):
        if not isinstance(item, list) or len(item) != 2:
            raise node.error(f"biomass_levels[{i}]: expected [index A, index B]")
        try:
            a, b = (_check_int(v, 0, TRACK_LEN - 1) for v in cast(list[object], item))
        except ValueError as exc:
            raise node.error(f"biomass_levels[{i}]: {exc}") from None
        pairs.append((a, b))
    if not pairs or pairs[0] != (0, 0):
        raise node.error("biomass_levels must start with the start space [0, 0]")
    used = {0}
    for i, (a, b) in enumerate(pairs[1:], start=1):
        if b != a + 1 or a in used or b in used:
            raise node.error(
                f"biomass_levels[{i}]: a level is two adjacent fresh spaces"
            )
        used |= {a, b}
    stops = {i for i, s in enumerate(track.spaces) if not s.no_stop}
    if used != stops:
        raise node.error(
            f"biomass_levels cover {sorted(used)}; the spaces without no_stop"
            f" are {sorted(stops)}"
        )
    sbp = track.score_by_position
    out = []
    for a, b in pairs:
        if sbp[a] != sbp[b]:
            raise node.error(f"the two halves {a}/{b} of a level score differently")
        if a and not (_has_benefit(track.spaces[a]) and _has_benefit(track.spaces[b])):
            raise node.error(f"level {a}/{b}: both halves must offer a benefit")
        out.append((track.spaces[a], track.spaces[b], sbp[a]))
    return tuple(out)


def _load_corporations(data: Mapping[str, object]) -> tuple[Corporation, ...]:
    """Read all 9 corporations, by id."""
    file = "corporations.toml"
    extra = sorted(set(data) - {"corporation"})
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {extra}")
    corps = [
        _corporation(node)
        for node in _entries(file, data, "corporation", "corporation")
    ]
    _check_ids(file, "corporation", [c.id for c in corps], range(N_CORPORATIONS))
    if len({c.key for c in corps}) != len(corps):
        raise DataError(f"{file}: duplicate corporation key")
    return tuple(sorted(corps, key=lambda c: c.id))


# --------------------------------------------------------------------------------
# civ_cards.toml, events.toml, objectives.toml
# --------------------------------------------------------------------------------

_CIV_WHEN: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {
        "immediate": frozenset({"on_take"}),
        "end_of_game": frozenset({"end_of_game_step", "final_scoring"}),
    }
)


def _load_civ_cards(data: Mapping[str, object]) -> tuple[CivCard, ...]:
    """Read the 36 civ cards, 9 per rank."""
    file = "civ_cards.toml"
    extra = sorted(set(data) - {"card"})
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {extra}")
    cards = []
    for node in _entries(file, data, "card", "civ card"):
        cid = node.get_int("id", lo=1)
        node.rename(f"civ card {cid}")
        name = node.get_str("name")
        rank = node.get_int("rank", lo=1, hi=4)
        timing = node.get_str("timing", choices=_CIV_WHEN)
        text = node.get_str("text")
        effects = _effects(node, "effects", "civ")
        for effect in effects:
            if effect.when not in _CIV_WHEN[timing]:
                raise node.error(f"a {timing} card cannot act {effect.when!r}")
        node.done()
        cards.append(
            CivCard(
                id=cid,
                name=name,
                rank=rank,
                timing=cast(Literal["immediate", "end_of_game"], timing),
                text=text,
                effects=effects,
            )
        )
    _check_ids(file, "civ card", [c.id for c in cards], range(1, N_CIV_CARDS + 1))
    for rank, count in sorted(Counter(c.rank for c in cards).items()):
        if count != N_CIV_PER_RANK:
            raise DataError(f"{file}: rank {rank} has {count} cards, expected 9")
    return tuple(sorted(cards, key=lambda c: c.id))


def _load_events(
    data: Mapping[str, object],
) -> tuple[
    tuple[EventCard, ...],
    int,
    tuple[tuple[int, int], ...],
    Mapping[str, tuple[int, ...]],
    tuple[SoloOutcomeBand, ...],
]:
    """Read the 60 events, the solo target table and the solo outcome bands."""
    file = "events.toml"
    extra = sorted(set(data) - {"event", "solo_target", "solo_outcome"})
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {extra}")
    events = []
    for node in _entries(file, data, "event", "event"):
        eid = node.get_int("id", lo=1)
        node.rename(f"event {eid}")
        name = node.get_str("name")
        colour = node.get_str("colour", choices=EVENT_ID_RANGES)
        if eid not in EVENT_ID_RANGES[colour]:
            raise node.error(f"id {eid} is not a {colour} id")
        solo_only = node.get_bool("solo_only")
        text = node.get_str("text")
        immediate = _effects(node, "immediate", "event", allow_empty=True)
        rule: Effect | None = None
        if node.has("round_rule"):
            try:
                rule = _parse_effect(node.raw("round_rule"), "round_rule")
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
    _check_ids(file, "event", [e.id for e in events], range(65, 65 + N_EVENTS))
    for colour, count in sorted(Counter(e.colour for e in events).items()):
        if count != N_EVENTS_PER_COLOUR:
            raise DataError(f"{file}: {count} {colour} events, expected 20")

    target = _Node(file, "solo_target", data.get("solo_target"))
    base = target.get_int("base", lo=0)
    bands_raw = target.get_list("bands")
    bands: list[tuple[int, int]] = []
    for i, band in enumerate(bands_raw):
        if not isinstance(band, list) or len(band) != 2:
            raise target.error(f"bands[{i}]: expected [min, max]")
        try:
            lo, hi = (
                _check_int(v, 0, N_EVENTS_PER_COLOUR) for v in cast(list[object], band)
            )
        except ValueError as exc:
            raise target.error(f"bands[{i}]: {exc}") from None
        expected_lo = bands[-1][1] + 1 if bands else 0
        if lo != expected_lo or hi < lo:
            raise target.error(f"bands[{i}] = [{lo}, {hi}] must start at {expected_lo}")
        bands.append((lo, hi))
    if not bands or bands[-1][1] != N_EVENTS_PER_COLOUR:
        raise target.error("the last band must end at 20 (the deck size)")
    adjustments = {
        colour: _signed_ints(target, colour, len(bands))
        for colour in ("red", "orange", "green")
    }
    target.done()

    outcomes = []
    previous_max: int | None = None
    raw_outcomes = data.get("solo_outcome")
    if not isinstance(raw_outcomes, list) or not raw_outcomes:
        raise DataError(f"{file}: missing the [[solo_outcome]] bands")
    for i, raw in enumerate(raw_outcomes):
        node = _Node(file, f"solo_outcome #{i + 1}", raw)
        row = node.get_str("row")
        node.rename(f"solo_outcome {row!r}")
        lo_raw = node.raw("min", None)
        hi_raw = node.raw("max", None)
        try:
            lo_val = None if lo_raw is None else _check_int(lo_raw, None, None)
            hi_val = None if hi_raw is None else _check_int(hi_raw, None, None)
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
    return (
        tuple(sorted(events, key=lambda e: e.id)),
        base,
        tuple(bands),
        MappingProxyType(adjustments),
        tuple(outcomes),
    )


def _signed_ints(node: _Node, key: str, length: int) -> tuple[int, ...]:
    """Read a fixed-length list of integers that may be negative."""
    values = node.get_list(key)
    if len(values) != length:
        raise node.error(f"'{key}': expected {length} values, got {len(values)}")
    try:
        return tuple(_check_int(v, None, None) for v in values)
    except ValueError as exc:
        raise node.error(f"'{key}': {exc}") from None


OBJECTIVE_MEASURES: Final[Mapping[str, Mapping[str, _Check]]] = MappingProxyType(
    {
        "count_resources_on_edge": {"resource": _RESOURCE},
        "largest_terrain_area_size": {"terrain": _TERRAIN},
        "terrain_area_count": {"terrain": _TERRAIN},
        "count_resources_on_planet": {"resource": _RESOURCE},
        "trackers_at_maximum_count": {"tracks": _TRACKS},
        "collected_count": {"item": _ITEM},
    }
)
"""Neighbour-side measures and their (all required) parameters (cards.md 7)."""

OBJECTIVE_CONDITIONS: Final[Mapping[str, Mapping[str, _Check]]] = MappingProxyType(
    {
        "has_solid_rectangle": {
            "terrain": _TERRAIN,
            "width": _POS,
            "height": _POS,
            "either_orientation": _bool_param,
        },
        "has_terrain_area_with_resources": {
            "terrain": _TERRAIN,
            "resource": _RESOURCE,
            "min_resources": _POS,
        },
        "tracker_at_maximum": {"track": _TRACK},
        "resource_count_at_most": {"resource": _RESOURCE, "max": _NONNEG},
        "collected_at_least": {"item": _ITEM, "min": _POS},
        "collected_greater_than": {"more": _ITEM, "less": _ITEM},
        "no_uncovered_ice": {},
        "no_uncovered_land": {},
    }
)
"""Private-side conditions and their (all required) parameters (cards.md 7)."""


def _objective_side(node: _Node, neighbour: bool) -> ObjectiveSide:
    """Read one side of an objective card."""
    name = node.get_str("name")
    text = node.get_str("text")
    kinds = OBJECTIVE_MEASURES if neighbour else OBJECTIVE_CONDITIONS
    kind = node.get_str("kind", choices=kinds)
    raw = node.get_table("params")
    spec = kinds[kind]
    params: dict[str, object] = {}
    for key, value in raw.items():
        check = spec.get(key)
        if check is None:
            raise node.error(f"{kind}: unknown parameter {key!r}")
        try:
            params[key] = check(value)
        except ValueError as exc:
            raise node.error(f"{kind}: parameter {key!r}: {exc}") from None
    missing = sorted(set(spec) - set(params))
    if missing:
        raise node.error(f"{kind}: missing parameter(s) {', '.join(missing)}")
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


def _load_objectives(data: Mapping[str, object]) -> tuple[Objective, ...]:
    """Read the 28 double-sided objectives."""
    file = "objectives.toml"
    extra = sorted(set(data) - {"objective"})
    if extra:
        raise DataError(f"{file}: unknown top-level key(s) {extra}")
    objectives = []
    for node in _entries(file, data, "objective", "objective"):
        oid = node.get_int("id", lo=1)
        node.rename(f"objective {oid}")
        neighbour = _objective_side(
            _Node(
                file, f"objective {oid}: neighbour side", node.get_table("neighbour")
            ),
            True,
        )
        private = _objective_side(
            _Node(file, f"objective {oid}: private side", node.get_table("private")),
            False,
        )
        node.done()
        objectives.append(Objective(id=oid, neighbour=neighbour, private=private))
    _check_ids(
        file, "objective", [o.id for o in objectives], range(37, 37 + N_OBJECTIVES)
    )
    return tuple(sorted(objectives, key=lambda o: o.id))


# --------------------------------------------------------------------------------
# Entry point
# --------------------------------------------------------------------------------

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


def _load(data_dir: pathlib.Path) -> GameData:
    """Read and validate every file of ``data_dir``."""
    raw = {name: _read(data_dir, name) for name in _FILES}
    families, shapes, tiles, station = _load_tiles(raw["tiles.toml"])
    events, base, bands, adjustments, outcomes = _load_events(raw["events.toml"])
    return GameData(
        families=families,
        shapes=shapes,
        tiles=tiles,
        station=station,
        planets=_load_planets(raw["planets.toml"]),
        corporations=_load_corporations(raw["corporations.toml"]),
        civ_cards=_load_civ_cards(raw["civ_cards.toml"]),
        events=events,
        objectives=_load_objectives(raw["objectives.toml"]),
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
