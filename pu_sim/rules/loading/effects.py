"""The effect vocabulary: what a card, event or corporation text may do.

Effects (card texts, techs, special rules) are ``{ op = ..., when = ...,
<params> }`` tables.  :data:`EFFECT_OPS` is the closed vocabulary: an unknown op,
an unknown or missing parameter, or a parameter of the wrong type is an error.
:data:`EFFECT_WHEN` says when each kind of effect list may act.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import Effect
from pu_sim.rules.loading.checks import (
    ITEM,
    NONNEG,
    POS,
    RESOURCE,
    RESOURCE_OR_FLUX,
    TERRAIN,
    TRACK,
    TRACK_LIST,
    TRACK_OR_FLUX,
    Check,
    Node,
    bool_param,
    describe,
    enum,
    ints_param,
    list_of,
    read_params,
)

__all__ = ["EFFECT_OPS", "EFFECT_WHEN", "EffectContext", "parse_effect", "read_effects"]

EffectContext = Literal["civ", "event", "round_rule", "corporation"]
"""The kinds of effect list: each allows its own ops and ``when`` values."""

_BENEFIT = enum("synergy", "biomass_patch", "rover", "move", "civ", "tech")
_MILESTONE = enum("civ", "biomass", "rover", "tech")

_CONDITION_KEYS: Final[Mapping[str, Check]] = MappingProxyType(
    {
        "tile_has_resource": RESOURCE_OR_FLUX,
        "tile_covers_no_ice": bool_param,
        "square_terrain": TERRAIN,
        "tracker_at_top": TRACK,
        "rover_column_trackers_at_least": POS,
    }
)
"""Keys of an effect's ``condition`` table (all of them must hold)."""


def _condition(value: object) -> object:
    """Accept an effect condition: a non-empty table of known keys."""
    if not isinstance(value, dict) or not value:
        raise ValueError(f"expected a non-empty table, got {describe(value)}")
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
        parse_effect(v, "event", nested=True) for v in cast(list[object], value)
    )


@dataclass(frozen=True)
class _OpSpec:
    """Parameters of one op and the effect lists it may appear in."""

    contexts: frozenset[str]
    required: Mapping[str, Check]
    optional: Mapping[str, Check]


_CIV = frozenset({"civ"})
_EVENT = frozenset({"event"})
_ROUND = frozenset({"round_rule"})
_CORP = frozenset({"corporation"})
_CARDS = frozenset({"civ", "event"})
_ANY = frozenset({"civ", "event", "corporation"})


def _op(
    contexts: frozenset[str],
    optional: Mapping[str, Check] | None = None,
    **required: Check,
) -> _OpSpec:
    """Build an :class:`_OpSpec`: contexts, optional params, required params."""
    return _OpSpec(
        contexts, MappingProxyType(required), MappingProxyType(optional or {})
    )


_OPS: Final[Mapping[str, _OpSpec]] = MappingProxyType(
    {
        # --- tracker moves (cards.md 1.1; corporations.json ops) ------------------
        "advance": _op(_CORP, track=TRACK_OR_FLUX, steps=POS),
        "advance_one_tracker": _op(
            _CIV, steps=POS, tracks=TRACK_LIST, claim_benefits=bool_param
        ),
        "advance_distinct_trackers": _op(
            _CIV,
            count=POS,
            steps_each=POS,
            tracks=TRACK_LIST,
            claim_benefits=bool_param,
        ),
        "advance_one_of": _op(
            _EVENT, tracks=TRACK_LIST, steps=POS, claim_benefits=bool_param
        ),
        "regress_one_of": _op(
            frozenset({"event", "corporation"}), tracks=TRACK_LIST, steps=POS
        ),
        "raise_trackers_to_position": _op(
            _CIV, position=POS, tracks=TRACK_LIST, skip_benefits=list_of(_BENEFIT)
        ),
        "synergy_boost": _op(frozenset({"event", "corporation"}), count=POS),
        "advance_to_next_milestone": _op(
            _CORP, track=TRACK_OR_FLUX, claim_intermediate_benefits=bool_param
        ),
        "reset_tracker": _op(_CORP, track=TRACK, to=NONNEG),
        "synergy_extra_advance": _op(_CORP, steps=POS),
        "claim_row": _op(_CORP),
        # --- patches, rovers, tokens on the planet --------------------------------
        "gain_biomass_patches": _op(_ANY, count=POS),
        "gain_rover_movement": _op(_CIV, amount=POS),
        "gain_rover_movement_per_rover": _op(
            _CORP,
            per_rover=POS,
            rovers=enum(
                "on_flux_track_terrain", "on_water_terrain", "carrying_meteorite"
            ),
        ),
        "gain_rover_tracker_movement": _op(_CORP),
        "teleport_rover": _op(
            frozenset({"civ", "corporation"}),
            {
                "origin": enum("any", "civ_resource_square"),
                "movement_cost": NONNEG,
            },
            destination=enum(
                "any_grid_square", "tile_square_same_terrain", "civ_resource_square"
            ),
        ),
        "collect_from_planet": _op(_CARDS, item=ITEM, count=POS),
        "collect_meteorite": _op(_CORP, count=POS),
        "destroy_meteorites_in_line": _op(_CIV),
        "destroy_meteorites_on_planet": _op(_CIV, count=POS),
        "destroy_lifepod_on_planet": _op(_EVENT, count=POS),
        "destroy_collected": _op(_EVENT, item=ITEM, count=POS),
        "destroy_rover_on_planet": _op(_EVENT, count=POS, min_rovers_on_planet=POS),
        "place_meteorite_on_empty_meteor_symbol": _op(_EVENT, count=POS),
        "gain_extra_rover": _op(_EVENT, count=POS),
        "place_tile_from_own_depot": _op(
            _CIV, advance_trackers_for_resources=bool_param
        ),
        # --- scoring ------------------------------------------------------------
        "score_medals": _op(_CIV, medals=POS),
        "score_per_count": _op(
            _CIV,
            medals_each=POS,
            count=enum("biomass_patches_on_planet", "collected_lifepods_scoring"),
        ),
        "set_collection_meteorite_repo": _op(
            _CIV, medals_per_3_meteorites=ints_param(5)
        ),
        "set_collection_commerce_agreement": _op(_CIV, total_medals=ints_param(5)),
        # --- decks, station, objectives -----------------------------------------
        "choose_one": _op(_EVENT, options=_options),
        "peek_next_event": _op(_EVENT),
        "civ_piles_add_from_set_aside": _op(_EVENT, per_rank=POS),
        "civ_piles_remove_random": _op(_EVENT, per_rank=POS),
        "draw_private_objectives": _op(_EVENT, count=POS),
        "destroy_private_objective": _op(_EVENT, count=POS),
        "rotate_station_to_any_depot": _op(_EVENT),
        "remove_depot_stack": _op(_EVENT),
        "add_shared_objective": _op(_CORP, draw=POS, keep=POS),
        "add_next_rank_card_to_choice": _op(_CORP, count=POS),
        "take_civ_cards": _op(_CORP, count=POS, source=enum("all_remaining_piles")),
        # --- round rules of events (cards.md 1.1) -------------------------------
        "rover_cannot_enter_terrain": _op(_ROUND, terrain=TERRAIN),
        "tile_cannot_cover_edge": _op(_ROUND),
        "tile_cannot_cover_ice": _op(_ROUND),
        "tile_cannot_touch_same_terrain": _op(_ROUND),
        "tile_resources_ignore_one": _op(_ROUND),
        "no_milestone_benefits": _op(_ROUND, milestones=list_of(_MILESTONE)),
        "no_synergy_boosts": _op(_ROUND),
        "place_extra_rover_on_tile_placed_this_round": _op(_ROUND),
        # --- corporation techs (corporations.json ops) --------------------------
        "ignore_placement_restriction": _op(
            _CORP,
            restriction=enum("adjacency"),
            applies_to=enum("all_tiles", "tiles_with_rover_terrain"),
        ),
        "store_biomass_patches": _op(_CORP),
        "rover_movement_bonus": _op(
            _CORP,
            amount=POS,
            applies_to=enum("rover_track_movement", "all_rover_movement"),
        ),
        "resource_advance_multiplier": _op(
            _CORP,
            resource=TRACK,
            factor=POS,
            applies_to=enum("water_resource_of_placed_tile_covering_ice"),
        ),
        "no_meteorites": _op(_CORP),
        "rover_diagonal_movement": _op(_CORP),
        "reposition_lifepods": _op(_CORP, count=POS),
        "rover_step_cost": _op(_CORP, terrain=TERRAIN, cost=NONNEG),
        "improve_flux_track": _op(
            _CORP,
            civ_rank_bonus=POS,
            civ_rank_cap=POS,
            rover_bonus_applies_to=enum("rover_track_movement", "all_rover_movement"),
        ),
        "destroy_carried_meteorite": _op(_CORP),
        "replace_benefit": _OpSpec(
            _CORP,
            MappingProxyType({"from": _BENEFIT, "to": _BENEFIT, "to_count": POS}),
            MappingProxyType({}),
        ),
        "treat_resource_as_energy": _op(_CORP, resource=RESOURCE),
        "treat_columns_adjacent": _op(_CORP, columns=list_of(TRACK, length=2)),
        "lateral_shift_instead_of_advance": _op(_CORP),
        "score_as_highest_tracker_on_column": _op(_CORP),
        "skip_blocking_trackers": _op(_CORP),
        "biomass_patch_placement": _op(_CORP, allow_on=enum("tiles", "meteorite")),
        # --- corporation special rules -----------------------------------------
        "lifepod_destination_choice": _op(
            _CORP,
            {"top_space_allowed": bool_param},
            destinations=list_of(enum("scoring_area", "track_space", "tech_slot")),
        ),
        "trackers_skip_spaces_with": _op(_CORP, occupant=enum("lifepod")),
        "covered_spaces_ignored": _op(_CORP),
        "lifepod_scoring": _op(_CORP, counts=enum("scoring_area_only")),
        "flux_track_designation": _op(_CORP),
        "active_tech": _op(_CORP, which=enum("highest_unlocked_only")),
        "meteorite_pickup_and_delivery": _op(
            _CORP, capacity_per_rover=POS, deliver_on=enum("rover_resource_icon")
        ),
        "tech_track_without_unlocks": _op(_CORP),
        "advance_directions": _op(
            _CORP, directions=list_of(enum("straight", "diagonal"))
        ),
        "benefit_by_space_not_tracker": _op(_CORP),
        "tracker_blocking": _op(
            _CORP, max_trackers_per_space=POS, blocked_advance=enum("lost")
        ),
        "tech_level_source": _op(_CORP, source=enum("highest_tracker_on_tech_column")),
        "medal_scoring_by_column": _op(_CORP),
        "water_advance_count": _op(_CORP, per=enum("water_square_on_ice")),
        "tracker_path": _op(_CORP, track=TRACK),
        "advance_requires_area_expansion": _op(
            _CORP,
            track=TRACK,
            energy_choice=enum("only_if_tile_expanded", "never"),
        ),
        "branching_track": _op(_CORP, track=TRACK),
    }
)

_COMMON_PARAMS: Final[Mapping[str, Check]] = MappingProxyType(
    {"optional": bool_param, "condition": _condition}
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


def parse_effect(raw: object, context: str, *, nested: bool = False) -> Effect:
    """Parse one effect table; raise ValueError (the caller adds file and entry)."""
    if not isinstance(raw, dict):
        raise ValueError(
            f"an effect must be a table {{ op = ... }}, got {describe(raw)}"
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
    params = read_params(
        f"op {op!r}",
        {k: v for k, v in table.items() if k not in ("op", "when")},
        {**_COMMON_PARAMS, **spec.optional, **spec.required},
        spec.required,
    )
    return Effect(op=op, params=MappingProxyType(params), when=when)


def read_effects(
    node: Node, key: str, context: str, *, allow_empty: bool = False
) -> tuple[Effect, ...]:
    """Read the list of effects under ``key``."""
    raw = node.get_list(key)
    if not raw and not allow_empty:
        raise node.error(f"'{key}' is empty")
    out = []
    for i, item in enumerate(raw):
        try:
            out.append(parse_effect(item, context))
        except ValueError as exc:
            raise node.error(f"{key}[{i}]: {exc}") from None
    return tuple(out)
