# cython: language_level=3
"""The compiled engine of pu_sim.

One compilation unit: this file includes the engine's rooms (``core/*/*.pxi``), each
with one job, so every hot helper can be inlined across them (DESIGN 4.2).

* :class:`CoreRules` holds the compiled rule tables as one C struct.
* :func:`play_batch` plays a batch of games without the GIL and fills one
  record per (game, seat): the fast path.
* :class:`GameState` wraps one game for people and tests: legal moves, apply,
  copy, inspection and scenario setters, calling the very same ``cdef``
  functions as the fast path (never a second implementation).

Compatibility guarantee: the same root key, game index, table spec,
``RULES_VERSION`` and ``ENGINE_VERSION`` give an identical game.
"""

from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy

import numpy as np

include "core/engine/defs.pxi"
include "core/engine/rng.pxi"
include "core/engine/bitboard.pxi"
include "core/engine/station.pxi"
include "core/engine/tracks.pxi"
include "core/corporations/shared.pxi"
include "core/corporations/horizon_group.pxi"
include "core/corporations/republic.pxi"
include "core/corporations/cosmos_inc.pxi"
include "core/corporations/wormhole_corp.pxi"
include "core/corporations/jump_drive.pxi"
include "core/corporations/flux_industries.pxi"
include "core/corporations/oasis_ultd.pxi"
include "core/corporations/makeshift.pxi"
include "core/engine/placement.pxi"
include "core/engine/planets.pxi"
include "core/engine/rovers.pxi"
include "core/engine/biomass.pxi"
include "core/engine/civ.pxi"
include "core/engine/events.pxi"
include "core/engine/objectives.pxi"
include "core/engine/scoring.pxi"
include "core/engine/resolve.pxi"
include "core/engine/moves.pxi"
include "core/engine/round.pxi"
include "core/bots/fitted_tables.pxi"
include "core/bots/greedy_objectives.pxi"
include "core/bots/greedy_planets.pxi"
include "core/bots/greedy_corporations.pxi"
include "core/bots/greedy.pxi"
include "core/bots/greedy_next_fit.pxi"
include "core/bots/greedy_end_chain.pxi"
include "core/bots/greedy_place_fit.pxi"
include "core/bots/greedy_track_fit.pxi"
include "core/bots/search.pxi"
include "core/bots/dispatch.pxi"
include "core/api/batch.pxi"

ENGINE_VERSION = 5
"""Bumped when the engine's behaviour (not only its speed) changes."""

cdef SeatRecord _record_example
RECORD_DTYPE = np.asarray(<SeatRecord[:1]>(&_record_example)).dtype
"""Structured dtype of one output row, taken from the C struct itself."""

CONSTANTS = {
    "GRID": GRID, "MAX_PLAYERS": MAX_PLAYERS, "MAX_ROVERS": MAX_ROVERS,
    "MAX_BOT_PARAMS": MAX_BOT_PARAMS, "N_PMASK": N_PMASK, "N_SPACE_FIELDS": N_SPACE_FIELDS,
    "N_POS": N_POS, "TOP": TOP, "BEYOND_TOP": BEYOND_TOP, "MAX_ROUNDS": MAX_ROUNDS,
    "MV_STORE": MV_STORE, "MV_MOVE": MV_MOVE, "MV_DONE": MV_DONE, "MV_POWER": MV_POWER,
    "POD_AREA": POD_AREA, "POD_SLOT": POD_SLOT, "SYNERGY_TWICE": SYNERGY_TWICE,
    "STEP_SIDEWAYS": STEP_SIDEWAYS, "STEP_BEYOND": STEP_BEYOND,
    "N_GREEDY": N_GREEDY, "PLACE_FIT_K": PLACE_FIT_K, "NEXT_FIT_K": NEXT_FIT_K,
    "END_CHAIN_MAX_ROUNDS": END_CHAIN_MAX_ROUNDS,
    "PLACE_FIT_PHASES": PLACE_FIT_PHASES, "PLACE_FIT_ROUND_SPAN": PLACE_FIT_ROUND_SPAN,
    "N_PLACE_FEATURES": N_PLACE_FEATURES, "MAX_NBR": MAX_NBR, "MAX_TECH": MAX_TECH,
    "TRACK_FIT_POSITIONS": TRACK_FIT_POSITIONS, "TRACK_FIT_PHASES": TRACK_FIT_PHASES,
    "TRACK_FIT_ROUNDS": TRACK_FIT_ROUNDS, "TRACK_FIT_CONTEXT": TRACK_FIT_CONTEXT,
    "LEVEL_ALL": LEVEL_ALL, "LEVEL_NO_EVENT": LEVEL_NO_EVENT,
    "LEVEL_NO_PLANET": LEVEL_NO_PLANET, "LEVEL_WAIVER": LEVEL_WAIVER,
    "LEVEL_NONE": LEVEL_NONE, "S_BUDGET": S_BUDGET, "S_WIDTH": S_WIDTH, "S_MINOR": S_MINOR,
    "OBJ_CHANCE_GROUPS": OBJ_CHANCE_GROUPS, "OBJ_CHANCE_MISSING": OBJ_CHANCE_MISSING,
    "OBJ_CHANCE_ROUNDS": OBJ_CHANCE_ROUNDS, "LINE_CHANCE_SQUARES": LINE_CHANCE_SQUARES,
    "LINE_CHANCE_ROUNDS": LINE_CHANCE_ROUNDS, "N_CORPS": N_CORPS, "N_TRACKS": N_TRACKS,
    "N_OBJECTIVES": N_OBJECTIVES,
    "GAME_BYTES": sizeof(Game_t), "SEARCH_SCRATCH_BYTES": sizeof(SearchScratch),
}
PLANET_MASKS = {
    "grid": PM_GRID, "ice": PM_ICE, "edge": PM_EDGE, "lifepod": PM_LIFEPOD,
    "first": PM_FIRST, "ring": PM_RING, "city": PM_CITY, "toxic": PM_TOXIC,
    "current": PM_CURRENT, "side_a": PM_SIDE_A, "q1": PM_Q1, "sub1": PM_SUB1,
    "hole": PM_HOLE, "ban0": PM_BAN0, "subbga1": PM_SUBBGA1, "cross": PM_CROSS,
}
PLANET_FLAGS = {
    "ring_anchor": PF_RING_ANCHOR, "ice_or_land": PF_ICE_OR_LAND,
    "quadrant_icon_ban": PF_QUADRANT_BAN, "slide_in": PF_SLIDE_IN,
    "single_chasm_side": PF_CHASM, "adjacency_waiver": PF_WAIVER, "cities": PF_CITIES,
    "subplanets": PF_SUBPLANETS, "currents": PF_CURRENTS, "toxic": PF_TOXIC,
    "first_cells": PF_FIRST_CELLS,
}
SPACE_FIELDS = {
    "medal": SP_MEDAL, "civ": SP_CIV, "synergy": SP_SYNERGY, "patch": SP_PATCH,
    "rover": SP_ROVER, "move": SP_MOVE, "tech": SP_TECH, "no_stop": SP_NOSTOP,
    "synergy_target": SP_SYN_TARGET,
}
CARD_OPS = {
    "advance_distinct_trackers": OP_ADVANCE_DISTINCT, "advance_one_tracker": OP_ADVANCE_ONE,
    "gain_biomass_patches": OP_PATCHES, "gain_rover_movement": OP_MOVEMENT,
    "place_tile_from_own_depot": OP_PLACE_TILE, "teleport_rover": OP_TELEPORT,
    "collect_lifepods": OP_COLLECT_LIFEPODS, "destroy_meteorites_in_line": OP_DESTROY_LINE,
    "destroy_meteorites_on_planet": OP_DESTROY_METEORITES,
    "raise_trackers_to_position": OP_RAISE_TO, "score_medals": OP_SCORE,
    "score_patches": OP_SCORE_PATCHES, "score_lifepod_bonus": OP_LIFEPOD_BONUS,
    "set_collection_meteorite_repo": OP_METEORITE_REPO,
    "set_collection_commerce_agreement": OP_COMMERCE,
}
CARD_WHEN = {"on_take": WHEN_ON_TAKE, "end_of_game_step": WHEN_END_STEP,
             "final_scoring": WHEN_FINAL}
OPTIONS = {
    "patches_anchor_adjacency": OPT_PATCHES_ANCHOR,
    "two_player_fixed_rotation": OPT_TWO_PLAYER_FIXED,
    "store_patch_without_square": OPT_STORE_PATCH_NO_SQUARE,
    "civ_pick_timing=on_milestone": OPT_CIV_ON_MILESTONE,
    "end_phase_pick_commander=next_player": OPT_END_PICKS_NEXT,
    "event_round_rule_until=next_event": OPT_RULE_UNTIL_NEXT_EVENT,
    "event_tech_suppression=next_round": OPT_SUPPRESS_NEXT_ROUND,
    "event_tech_suppression=none": OPT_SUPPRESS_NONE,
    "event_may_empty_depot": OPT_EVENT_MAY_EMPTY_DEPOT,
    "planet_fallback=bga": OPT_PLANET_FALLBACK_BGA,
    "lacuna_oblivion_adjacency_waiver=off": OPT_NO_WAIVER,
    "cerberus_bonus_region=bga_boxes": OPT_CERBERUS_BGA_BOXES,
    "pajitnov_slide=one_step": OPT_PAJITNOV_ONE_STEP,
    "petra_currents_count_covered=off": OPT_PETRA_CURRENTS_OPEN,
    "gaia_city_covered_by_patch=off": OPT_GAIA_PATCH_KEEPS_CITY,
    "horizon_tech1_scope=all_checks": OPT_HORIZON_ALL_CHECKS,
    "once_per_round_reset=bga_phases": OPT_RESET_BGA_PHASES,
    "republic_tech3_squares=terrain": OPT_REPUBLIC_TERRAIN,
    "space_citizen_decree_counts=all_collected": OPT_DECREE_ALL_COLLECTED,
    "wormhole_energy_biomass=never": OPT_WH_ENERGY_NEVER,
    "wormhole_energy_biomass=always": OPT_WH_ENERGY_ALWAYS,
    "jump_drive_tech_d=mandatory_per_square": OPT_JUMP_D_BGA,
    "flux_tech1_track=round_start": OPT_FLUX_T1_ROUND_START,
    "flux_tech2_benefits_on_way=off": OPT_FLUX_T2_MILESTONE_ONLY,
    "flux_tech3_rover_scope=track_only": OPT_FLUX_ROVER_TRACK_ONLY,
    "synergy_target_must_move=off": OPT_BLOCKED_SELECTABLE,
    "oasis_row11_medal=8": OPT_OASIS_MEDAL_8,
    "oasis_tech2_timing=on_use": OPT_OASIS_T2_ON_USE,
    "makeshift_tech2_check=on_gain": OPT_MAKESHIFT_T2_ON_GAIN,
    "makeshift_row15_diagonal_to_rover_top": OPT_MAKESHIFT_ROW15_DIAGONAL,
}
EVENT_OPS = {
    "none": EV_NONE, "advance_one_of": EV_ADVANCE_ONE_OF,
    "regress_one_of": EV_REGRESS_ONE_OF, "synergy_boost": EV_SYNERGY,
    "choose_synergy_or_peek": EV_CHOOSE_SYNERGY_PEEK, "gain_biomass_patches": EV_PATCHES,
    "collect_lifepod": EV_COLLECT_LIFEPOD, "collect_meteorite": EV_COLLECT_METEORITE,
    "place_meteorite_on_empty_meteor_symbol": EV_PLACE_METEORITE,
    "destroy_lifepod_on_planet": EV_DESTROY_LIFEPOD,
    "destroy_collected_lifepod": EV_DESTROY_COLLECTED_LIFEPOD,
    "destroy_collected_meteorite": EV_DESTROY_COLLECTED_METEORITE,
    "destroy_rover_on_planet": EV_DESTROY_ROVER, "gain_extra_rover": EV_EXTRA_ROVER,
    "civ_piles_add_from_set_aside": EV_CIV_ADD_RESERVE,
    "civ_piles_remove_random": EV_CIV_REMOVE_RANDOM,
    "draw_private_objectives": EV_DRAW_OBJECTIVE,
    "destroy_private_objective": EV_DISCARD_OBJECTIVE,
    "rotate_station_to_any_depot": EV_ROTATE_STATION, "remove_depot_stack": EV_REMOVE_STACK,
}
ROUND_RULES = {
    "rover_cannot_enter_terrain": RR_ROVER_BAN, "tile_cannot_cover_edge": RR_NO_EDGE,
    "tile_cannot_cover_ice": RR_NO_ICE, "tile_cannot_touch_same_terrain": RR_NO_SAME_TERRAIN,
    "tile_resources_ignore_one": RR_IGNORE_ONE, "no_milestone_benefits": RR_NO_MILESTONES,
    "no_synergy_boosts": RR_NO_SYNERGY,
    "place_extra_rover_on_tile_placed_this_round": RR_EXTRA_ROVER,
}
OBJECTIVE_MEASURES = {
    "count_resources_on_edge": OM_RES_EDGE, "largest_terrain_area_size": OM_LARGEST_AREA,
    "terrain_area_count": OM_AREA_COUNT, "count_resources_on_planet": OM_RES_PLANET,
    "trackers_at_maximum_count": OM_TRACKERS_TOP, "collected_count": OM_COLLECTED,
}
OBJECTIVE_CONDITIONS = {
    "has_solid_rectangle": OC_RECT, "has_terrain_area_with_resources": OC_AREA_RES,
    "tracker_at_maximum": OC_TRACKER_TOP, "resource_count_at_most": OC_RES_AT_MOST,
    "collected_at_least": OC_COLLECTED_AT_LEAST, "collected_greater_than": OC_COLLECTED_GT,
    "no_uncovered_ice": OC_NO_ICE, "no_uncovered_land": OC_NO_LAND,
}
ROUND_RULE_NAMES = {v: k for k, v in ROUND_RULES.items()}
ROUND_RULE_NAMES[RR_NONE] = "none"
DECK_MODES = {"explicit": DECK_EXPLICIT, "random": DECK_UNIFORM, "bga_random": DECK_BGA}
BOT_KINDS = {"random": BOT_RANDOM, "greedy": BOT_GREEDY, "search": BOT_SEARCH}
DECISIONS = {
    D_ROTATION: "rotation", D_PLACE: "place", D_NO_PLACE: "no_place", D_ORDER: "order",
    D_ENERGY: "energy", D_SYNERGY: "synergy", D_TRACK: "track", D_PATCH: "patch",
    D_ROVER_PLACE: "rover_place", D_ROVER_STEP: "rover_step", D_CIV_PICK: "civ_pick",
    D_LIFEPOD: "lifepod", D_TELEPORT: "teleport", D_LINE: "line", D_METEORITE: "meteorite",
    D_REGRESS: "regress", D_CHOOSE_ONE: "choose_one", D_KEEP_RESOURCE: "keep_resource",
    D_METEOR_SYMBOL: "meteor_symbol", D_DESTROY_LIFEPOD: "destroy_lifepod",
    D_DESTROY_ROVER: "destroy_rover", D_COLLECT_METEORITE: "collect_meteorite",
    D_REMOVE_STACK: "remove_stack", D_OBJ_DISCARD: "objective_discard",
    D_POWER: "power", D_YES_NO: "yes_no", D_POD_PLACE: "pod_place",
    D_POD_MOVE: "pod_move", D_POD_DESTROY: "pod_destroy", D_BRANCH: "branch",
    D_KEEP_OBJECTIVE: "keep_objective", D_FLUX_TRACK: "flux_track",
    D_DIRECTION: "direction",
}
ITEMS = {
    IT_ADVANCE: "advance", IT_ENERGY: "energy", IT_SYNERGY: "synergy", IT_PATCH: "patch",
    IT_ROVER: "rover", IT_CHOOSE_ADVANCE: "choose_advance", IT_DISTINCT: "distinct",
    IT_RAISE: "raise", IT_LIFEPOD: "lifepod", IT_TELEPORT: "teleport", IT_LINE: "line",
    IT_METEORITE: "meteorite", IT_PLACE_TILE: "place_tile", IT_CIV_PICK: "civ_pick",
    IT_REGRESS: "regress", IT_CHOOSE_ONE: "choose_one", IT_KEEP_ONE: "keep_one",
    IT_PLACE_METEORITE: "place_meteorite", IT_DESTROY_LIFEPOD: "destroy_lifepod",
    IT_DESTROY_ROVER: "destroy_rover", IT_COLLECT_METEORITE: "collect_meteorite",
    IT_DISCARD_OBJECTIVE: "discard_objective", IT_ROTATE_STATION: "rotate_station",
    IT_REMOVE_STACK: "remove_stack", IT_OPTION: "option", IT_POD_PLACE: "pod_place",
    IT_POD_MOVE: "pod_move", IT_POD_DESTROY: "pod_destroy", IT_BRANCH: "branch",
    IT_CLAIM_ROW: "claim_row", IT_KEEP_OBJECTIVE: "keep_objective",
    IT_FLUX_TRACK: "flux_track", IT_STEP: "step",
}
TRIGGERED_OPTIONS = {
    OPTION_HORIZON_DESTROY: "Horizon tech 4: destroy the carried meteorite",
    OPTION_REPUBLIC_CIV_FIRST: "Republic tech 1: select the civ tile first",
    OPTION_WORMHOLE_DOUBLE: "Wormhole tech 3: two patches instead of one",
    OPTION_JUMP_PATCH_SWAP: "Jump Drive tech A: a synergy boost instead of the patch",
}
"""The optional triggered powers a yes/no decision asks about, by code."""

STAGES = {
    ST_SETUP: "setup", ST_ROUND_START: "round_start", ST_ROTATION: "rotation",
    ST_CHECK: "check", ST_DRAFT: "draft", ST_CIV: "civ", ST_END_ROUND: "end_round",
    ST_END_EFFECTS: "end_effects", ST_END_PICKS: "end_picks", ST_SCORE: "score",
    ST_DONE: "done", ST_PAUSED: "paused", ST_OBJECTIVES: "objectives", ST_EVENT: "event",
    ST_EVENT_PLAYERS: "event_players", ST_EVENT_CIV: "event_civ",
}
STATUSES = {
    STATUS_OK: "ok", STATUS_TURN_LIMIT: "turn_limit",
    STATUS_DECISION_LIMIT: "decision_limit", STATUS_POOL_OVERFLOW: "pool_overflow",
    STATUS_BAD_MOVE: "bad_move", STATUS_NO_MOVES: "no_legal_move",
    STATUS_BAD_SETUP: "bad_setup",
}
END_TRIGGERS = {
    END_NONE: "none", END_CANNOT_PLACE: "cannot_place", END_DEPOT_EMPTY: "depot_empty",
    END_EVENTS: "events",
}


# ==== compiled rules ==========================================================

cdef _fill(dict tables, str name, void* dst, object dtype, Py_ssize_t count):
    """Copy one table into the rules struct after checking its size."""
    arr = np.ascontiguousarray(tables[name], dtype=dtype)
    if arr.size != count:
        raise ValueError(f"rules table {name!r} has {arr.size} values, expected {count}")
    cdef const uint8_t[::1] raw = arr.reshape(-1).view(np.uint8)
    if count:
        memcpy(dst, &raw[0], raw.shape[0])


cdef class CoreRules:
    """The compiled rule tables as one C struct (built from pu_sim.rules tables),
    with the greedy bot's fitted tables (pu_sim.bots.fitted.core_arrays)."""

    cdef Rules_t* R
    cdef readonly dict tables

    def __cinit__(self):
        self.R = <Rules_t*>calloc(1, sizeof(Rules_t))
        if self.R == NULL:
            raise MemoryError()
        self.R.fitted = <FittedTables_t*>calloc(1, sizeof(FittedTables_t))
        if self.R.fitted == NULL:
            raise MemoryError()

    def __dealloc__(self):
        if self.R != NULL:
            free(self.R.fitted)
        free(self.R)

    def __init__(self, dict tables, dict fitted):
        cdef Rules_t* R = self.R
        cdef int t, o, i, k, a, b
        self.tables = tables
        fill_fitted(R.fitted, fitted)
        _fill(tables, "tile_shape", R.tile_shape, np.uint8, N_TILES)
        _fill(tables, "tile_ta", R.tile_ta, np.uint8, N_TILES)
        _fill(tables, "tile_tb", R.tile_tb, np.uint8, N_TILES)
        _fill(tables, "tile_meteor", R.tile_meteor, np.uint8, N_TILES)
        _fill(tables, "tile_size", R.tile_size, np.uint8, N_TILES)
        _fill(tables, "tile_n_orient", R.tile_n_orient, np.uint8, N_TILES)
        w = np.asarray(tables["orient_w"], dtype=np.uint8)
        h = np.asarray(tables["orient_h"], dtype=np.uint8)
        nc = np.asarray(tables["orient_ncells"], dtype=np.uint8)
        dx = np.asarray(tables["orient_dx"], dtype=np.uint8)
        dy = np.asarray(tables["orient_dy"], dtype=np.uint8)
        part = np.asarray(tables["orient_part"], dtype=np.uint8)
        rows = np.asarray(tables["orient_rows"], dtype=np.uint16)
        rows_a = np.asarray(tables["orient_rows_a"], dtype=np.uint16)
        rows_b = np.asarray(tables["orient_rows_b"], dtype=np.uint16)
        icon_a = np.asarray(tables["orient_icon_a"], dtype=np.int8)
        icon_b = np.asarray(tables["orient_icon_b"], dtype=np.int8)
        meteor = np.asarray(tables["orient_meteor"], dtype=np.int8)
        rowcnt = np.asarray(tables["orient_rowcnt"], dtype=np.uint8)
        colcnt = np.asarray(tables["orient_colcnt"], dtype=np.uint8)
        n_nbr = np.asarray(tables["orient_n_nbr"], dtype=np.uint8)
        nbr = np.asarray(tables["orient_nbr"], dtype=np.int8)           # (..., 12, 4)
        n_enbr = np.asarray(tables["orient_n_enbr"], dtype=np.uint8)
        enbr = np.asarray(tables["orient_enbr"], dtype=np.int8)         # (..., 2, 12, 2)
        for t in range(N_TILES):
            for o in range(8):
                R.orient[t][o].w = w[t, o]
                R.orient[t][o].h = h[t, o]
                R.orient[t][o].ncells = nc[t, o]
                R.orient[t][o].icon_a = icon_a[t, o]
                R.orient[t][o].icon_b = icon_b[t, o]
                R.orient[t][o].meteor = meteor[t, o]
                R.orient[t][o].n_nbr = n_nbr[t, o]
                R.orient[t][o].perimeter = int(nbr[t, o, :, 2].sum())
                for i in range(MAX_NBR):
                    R.orient[t][o].nbr_dx[i] = nbr[t, o, i, 0]
                    R.orient[t][o].nbr_dy[i] = nbr[t, o, i, 1]
                    R.orient[t][o].nbr_mult[i] = nbr[t, o, i, 2]
                    R.orient[t][o].nbr_inside[i] = nbr[t, o, i, 3]
                    for k in range(2):
                        R.orient[t][o].enbr_dx[k][i] = enbr[t, o, k, i, 0]
                        R.orient[t][o].enbr_dy[k][i] = enbr[t, o, k, i, 1]
                for k in range(2):
                    R.orient[t][o].n_enbr[k] = n_enbr[t, o, k]
                for i in range(5):
                    R.orient[t][o].row_minx[i] = 9
                    R.orient[t][o].row_maxx[i] = -1
                    R.orient[t][o].col_miny[i] = 9
                    R.orient[t][o].col_maxy[i] = -1
                for i in range(nc[t, o]):
                    a, b = dx[t, o, i], dy[t, o, i]
                    R.orient[t][o].row_minx[b] = min(R.orient[t][o].row_minx[b], a)
                    R.orient[t][o].row_maxx[b] = max(R.orient[t][o].row_maxx[b], a)
                    R.orient[t][o].col_miny[a] = min(R.orient[t][o].col_miny[a], b)
                    R.orient[t][o].col_maxy[a] = max(R.orient[t][o].col_maxy[a], b)
                for i in range(5):
                    R.orient[t][o].rowcnt[i] = rowcnt[t, o, i]
                    R.orient[t][o].colcnt[i] = colcnt[t, o, i]
                    R.orient[t][o].dx[i] = dx[t, o, i]
                    R.orient[t][o].dy[i] = dy[t, o, i]
                    R.orient[t][o].part[i] = part[t, o, i]
                    R.orient[t][o].rows[i] = rows[t, o, i]
                    R.orient[t][o].rows_a[i] = rows_a[t, o, i]
                    R.orient[t][o].rows_b[i] = rows_b[t, o, i]
        _fill(tables, "shape_tiles", R.shape_tiles, np.uint8, N_SHAPES * STACK_SIZE)
        _fill(tables, "seat_pos", R.seat_pos, np.uint8, MAX_PLAYERS * MAX_PLAYERS)
        _fill(tables, "pmask", R.pmask, np.uint16, N_PLANETS * N_PMASK * GRID)
        _fill(tables, "row_medal", R.row_medal, np.uint8, N_PLANETS * GRID)
        _fill(tables, "col_medal", R.col_medal, np.uint8, N_PLANETS * GRID)
        _fill(tables, "planet_flags", R.planet_flags, np.uint32, N_PLANETS)
        _fill(tables, "city_medals", R.city_medals, np.uint8, N_PLANETS)
        _fill(tables, "subplanet_bonus", R.subplanet_bonus, np.uint8, N_PLANETS)
        _fill(tables, "space", R.space, np.int8, N_CORPS * N_TRACKS * N_POS * N_SPACE_FIELDS)
        _fill(tables, "score_pos", R.score_pos, np.uint8, N_CORPS * N_TRACKS * 16)
        _fill(tables, "tech_level_at", R.tech_level_at, np.uint8, N_CORPS * 16)
        _fill(tables, "corp_rovers", R.corp_rovers, np.uint8, N_CORPS)
        _fill(tables, "tech_limit", R.tech_limit, np.uint8, N_CORPS * (MAX_TECH + 1))
        _fill(tables, "tech_activated", R.tech_activated, np.uint8,
              N_CORPS * (MAX_TECH + 1))
        _fill(tables, "corp_has_powers", R.corp_has_powers, np.uint8, N_CORPS)
        _fill(tables, "tech_pos", R.tech_pos, np.uint8, N_CORPS * (MAX_TECH + 1))
        _fill(tables, "flux_space", R.flux_space, np.int8,
              N_TRACKS * N_POS * N_SPACE_FIELDS)
        _fill(tables, "path_track", R.path_track, np.uint8, 24)
        _fill(tables, "path_row", R.path_row, np.uint8, 24)
        _fill(tables, "path_score", R.path_score, np.uint8, 24)
        _fill(tables, "wh_level_a", R.wh_level_a, np.uint8, 6)
        _fill(tables, "wh_level_of", R.wh_level_of, np.uint8, 16)
        _fill(tables, "card_rank", R.card_rank, np.uint8, N_CIV + 1)
        _fill(tables, "card_immediate", R.card_immediate, np.uint8, N_CIV + 1)
        _fill(tables, "card_op", R.card_op, np.uint8, (N_CIV + 1) * 2)
        _fill(tables, "card_arg", R.card_arg, np.uint8, (N_CIV + 1) * 2)
        _fill(tables, "card_when", R.card_when, np.uint8, (N_CIV + 1) * 2)
        _fill(tables, "rank_cards", R.rank_cards, np.uint8, 4 * CIV_PER_RANK)
        _fill(tables, "event_colour", R.event_colour, np.uint8, N_EVENTS)
        _fill(tables, "event_solo", R.event_solo, np.uint8, N_EVENTS)
        _fill(tables, "event_op", R.event_op, np.uint8, N_EVENTS)
        _fill(tables, "event_a", R.event_a, np.uint8, N_EVENTS)
        _fill(tables, "event_b", R.event_b, np.uint8, N_EVENTS)
        _fill(tables, "event_c", R.event_c, np.uint8, N_EVENTS)
        _fill(tables, "event_rule", R.event_rule, np.uint8, N_EVENTS)
        _fill(tables, "event_arg", R.event_arg, np.uint8, N_EVENTS)
        _fill(tables, "objective_neighbour", R.obj_neighbour, np.uint8, N_OBJECTIVES * 6)
        _fill(tables, "objective_private", R.obj_private, np.uint8, N_OBJECTIVES * 5)

    def fitted_arrays(self):
        """The fitted tables as the core holds them (copies), for checks."""
        return fitted_arrays(self.R.fitted)


# ==== table spec ================================================================

cdef TableSpec make_spec(dict spec) except *:
    """Lower the Python table description (pu_sim.simulation.table) to the C spec."""
    cdef TableSpec ts
    cdef int p, k
    memset(&ts, 0, sizeof(TableSpec))
    n = int(spec["n_players"])
    if not 1 <= n <= MAX_PLAYERS:
        raise ValueError(f"n_players must be 1..{MAX_PLAYERS}, got {n}")
    ts.n_players = n
    params = np.asarray(spec["bot_params"], dtype=np.float64)
    if params.shape != (n, MAX_BOT_PARAMS):
        raise ValueError(f"bot_params must have shape ({n}, {MAX_BOT_PARAMS})")
    # greedy weights of every seat for lookahead rollouts (pu_sim.bots.BotSpec)
    rollout = np.asarray(spec.get("rollout_params", params), dtype=np.float64)
    if rollout.shape != (n, MAX_BOT_PARAMS):
        raise ValueError(f"rollout_params must have shape ({n}, {MAX_BOT_PARAMS})")
    for p in range(n):
        ts.corp_pool[p] = int(spec["corp_pool"][p])
        ts.planet_pool[p] = int(spec["planet_pool"][p])
        ts.bot_kind[p] = int(spec["bot_kind"][p])
        ts.bot_label[p] = int(spec["bot_label"][p])
        for k in range(MAX_BOT_PARAMS):
            ts.bot_params[p][k] = params[p, k]
            ts.rollout_params[p][k] = rollout[p, k]
    if spec_searches(&ts) and "rollout_params" not in spec:
        raise ValueError("a table with a search bot needs rollout_params")
    ts.unique_asymmetric = int(spec["unique_asymmetric"])
    ts.options = int(spec["options"])
    ts.shift = int(spec["shift"])
    ts.rotation = int(spec["rotation"])
    ts.group_size = max(1, int(spec["group_size"]))
    ts.events_on = int(spec.get("events_on", 0))
    ts.deck_random = int(spec.get("deck_random", 0))
    mix = list(spec.get("deck_mix", (0, 0, 0)))
    for k in range(3):
        ts.deck_mix[k] = mix[k]
    ts.neighbour_objectives = int(spec.get("neighbour_objectives", 0))
    ts.private_module = int(spec.get("private_module", 0))
    shapes = list(spec["stack_shape"])
    if sorted(shapes) != list(range(N_SHAPES)):
        raise ValueError("stack_shape must name each of the 12 shapes once")
    for k in range(N_STACKS):
        ts.stack_shape[k] = shapes[k]
    return ts


def play_batch(CoreRules rules, dict spec, uint64_t k0, uint64_t k1, uint64_t first_game,
               out):
    """Play ``len(out) // n_players`` games from ``first_game`` on; fill ``out``.

    ``out`` is a structured array of :data:`RECORD_DTYPE` with one row per
    (game, seat).  The loop runs without the GIL; anomalies inside a game are
    reported in the ``status`` field, never raised.
    """
    cdef TableSpec ts = make_spec(spec)
    cdef SeatRecord[::1] rec = out
    cdef uint64_t n_games = rec.shape[0] // ts.n_players
    cdef int rc = 0
    if rec.shape[0] % ts.n_players:
        raise ValueError("output length must be a multiple of n_players")
    if n_games == 0:
        return
    with nogil:
        rc = play_games(rules.R, &ts, k0, k1, first_game, n_games, &rec[0])
    if rc != 0:
        raise MemoryError("play_batch could not allocate its game state")


include "core/api/game_state.pxi"
