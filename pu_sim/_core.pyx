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
from libc.string cimport memcmp, memcpy

import numpy as np

include "core/engine/defs.pxi"
include "core/engine/rng.pxi"
include "core/engine/bitboard.pxi"
include "core/engine/station.pxi"
include "core/engine/tracks.pxi"
include "core/corporations/hooks.pxi"
include "core/corporations/shared.pxi"
include "core/corporations/universal_coalition.pxi"
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
include "core/bots/policy_net.pxi"
include "core/bots/fitted_tables.pxi"
include "core/bots/greedy_objectives.pxi"
include "core/bots/greedy_planets.pxi"
include "core/bots/greedy_corporations.pxi"
include "core/bots/greedy.pxi"
include "core/bots/greedy_tracks.pxi"
include "core/bots/greedy_placement.pxi"
include "core/bots/greedy_choosing.pxi"
include "core/bots/greedy_decisions.pxi"
include "core/bots/greedy_next_fit.pxi"
include "core/bots/greedy_end_chain.pxi"
include "core/bots/greedy_end_rollouts.pxi"
include "core/bots/greedy_rotation.pxi"
include "core/bots/greedy_rotation_round.pxi"
include "core/bots/greedy_place_fit.pxi"
include "core/bots/greedy_ntuple.pxi"
include "core/bots/greedy_track_fit.pxi"
include "core/bots/policy.pxi"
include "core/bots/policy_shift.pxi"
include "core/bots/search.pxi"
include "core/bots/dispatch.pxi"
include "core/bots/policy_train.pxi"
include "core/api/batch.pxi"

ENGINE_VERSION = 6
"""Bumped when the engine's behaviour (not only its speed) changes."""


# ==== names =====================================================================
# The enums Python reads are cpdef enums, IntEnum classes here (Decision, Item,
# CardOp, RuleFlag, ...).  Their naming rule (core/engine/defs.pxi): a member is one
# prefix word, an underscore and its label in upper case.  These functions are the
# one place the rule is applied, so no table of names mirrors an enum.

def label(member):
    """The label an enum member stands for: its name after the prefix, in lower case
    (``Decision.D_ROVER_STEP`` -> ``"rover_step"``); None for a code no member has."""
    name = member.name
    return None if name is None else name.partition("_")[2].lower()


def code(enum, str name):
    """The member of ``enum`` whose label is ``name``; ValueError naming the valid ones."""
    prefix = next(iter(enum.__members__)).partition("_")[0]
    member = enum.__members__.get(f"{prefix}_{name.upper()}")
    if member is None or label(member) != name:
        valid = ", ".join(repr(label(m)) for m in enum)
        raise ValueError(f"{enum.__name__} has no member labelled {name!r}; valid: {valid}")
    return member


def labels(enum):
    """Every member's label by its code, in code order."""
    return {int(m): label(m) for m in sorted(enum)}


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
    "END_CHAIN_MAX_ROUNDS": END_CHAIN_MAX_ROUNDS, "END_CHAIN_LOOK_WIDTH": END_CHAIN_LOOK_WIDTH,
    "END_ROLLOUT_FINALISTS": END_ROLLOUT_FINALISTS, "END_ROLLOUT_MORE": END_ROLLOUT_MORE,
    "DEEP_LOOK_WIDTH": DEEP_LOOK_WIDTH, "ROTATION_DENY_WIDTH": ROTATION_DENY_WIDTH,
    "STATION_ORIENTATIONS": STATION_ORIENTATIONS,
    "PLACE_FIT_PHASES": PLACE_FIT_PHASES, "PLACE_FIT_ROUND_SPAN": PLACE_FIT_ROUND_SPAN,
    "NTUPLE_PHASES": NTUPLE_PHASES, "NTUPLE_ROUND_SPAN": NTUPLE_ROUND_SPAN,
    "NTUPLE_PATTERNS": NTUPLE_PATTERNS, "NTUPLE_LINE_FREE": NTUPLE_LINE_FREE,
    "NTUPLE_WINDOWS": NTUPLE_WINDOWS,
    "ROTATION_ROUND_BUCKETS": ROTATION_ROUND_BUCKETS,
    "ROTATION_ROUND_FEATURES": ROTATION_ROUND_FEATURES,
    "N_PLACE_FEATURES": N_PLACE_FEATURES, "MAX_NBR": MAX_NBR, "MAX_TECH": MAX_TECH,
    "TRACK_FIT_POSITIONS": TRACK_FIT_POSITIONS, "TRACK_FIT_PHASES": TRACK_FIT_PHASES,
    "TRACK_FIT_ROUNDS": TRACK_FIT_ROUNDS, "TRACK_FIT_CONTEXT": TRACK_FIT_CONTEXT,
    "LEVEL_ALL": LEVEL_ALL, "LEVEL_NO_EVENT": LEVEL_NO_EVENT,
    "LEVEL_NO_PLANET": LEVEL_NO_PLANET, "LEVEL_WAIVER": LEVEL_WAIVER,
    "LEVEL_NONE": LEVEL_NONE,
    "OBJ_CHANCE_GROUPS": OBJ_CHANCE_GROUPS, "OBJ_CHANCE_MISSING": OBJ_CHANCE_MISSING,
    "OBJ_CHANCE_ROUNDS": OBJ_CHANCE_ROUNDS, "LINE_CHANCE_SQUARES": LINE_CHANCE_SQUARES,
    "LINE_CHANCE_ROUNDS": LINE_CHANCE_ROUNDS, "MAX_CORPS": MAX_CORPS,
    "MAX_PLANETS": MAX_PLANETS, "N_TRACKS": N_TRACKS,
    "N_OBJECTIVES": N_OBJECTIVES,
    "GAME_BYTES": sizeof(Game_t), "SEARCH_SCRATCH_BYTES": sizeof(SearchScratch),
    "POLICY_N": POLICY_N, "POL_STAGES": POL_STAGES, "POL_STAKE": POL_STAKE,
    "POL_NP": POL_NP, "POL_MEDALS": POL_MEDALS, "POL_FREE": POL_FREE, "POL_LINES": POL_LINES,
    "POL_PATTERNS": POL_PATTERNS, "POL_POS": POL_POS, "POL_PEND": POL_PEND,
    "POL_TECH": POL_TECH, "POL_SYN": POL_SYN, "POL_ENERGY": POL_ENERGY,
    "POL_OTHER": POL_OTHER, "POL_TARGETS": POL_TARGETS, "POL_DIST": POL_DIST,
    "POL_MOVE": POL_MOVE, "POL_ROVERS": POL_ROVERS, "POL_PODS": POL_PODS,
    "POL_MET_HELD": POL_MET_HELD,
    "POL_MET_LEFT": POL_MET_LEFT, "POL_CARDS": POL_CARDS, "POL_OWED": POL_OWED,
    "POL_PROGRESS": POL_PROGRESS, "POL_DIFF": POL_DIFF, "POL_ITEM_KINDS": POL_ITEM_KINDS,
    "POL_ITEM_COUNT": POL_ITEM_COUNT, "POL_STORED": POL_STORED, "POL_EXTRA": POL_EXTRA,
    "POL_USED": POL_USED, "POL_ICE": POL_ICE, "POL_COLS": POL_COLS,
    "POL_MAX_ACTIVE": POL_MAX_ACTIVE, "POL_TRAJ": POL_TRAJ, "POL_AHEAD": POL_AHEAD,
}
"""Sizes and special move values Python reads, each by its C name."""

POLICY_OFFSETS = {
    "bias": PO_BIAS, "line": PO_LINE, "line_planet": PO_LINEP, "window": PO_WIN,
    "track": PO_TRACK, "tech": PO_TECH, "choice": PO_CHOICE, "rover": PO_ROVER,
    "rovers": PO_ROVERS, "meteorites": PO_METEOR, "civ": PO_CIV, "owed": PO_OWED,
    "objective": PO_OBJ, "neighbour": PO_NEIGH, "items": PO_ITEMS, "corporation": PO_CORPX,
    "used_game": PO_USEDG, "used_round": PO_USEDR, "ice": PO_ICE, "makeshift": PO_MAKE,
    "stakes": PO_STAKE, "pods": PO_PODS,
}
"""Where each table of the policy bot's network starts in its flat weight vector
(core/bots/policy_net.pxi PO_*), in the order they follow one another."""


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
    """The compiled rule tables as one C struct (built by pu_sim.engine.compile),
    with the greedy bot's fitted tables (pu_sim.engine.rules.fitted_arrays)."""

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
        _fill(tables, "pmask", R.pmask, np.uint16, MAX_PLANETS * N_PMASK * GRID)
        _fill(tables, "row_medal", R.row_medal, np.uint8, MAX_PLANETS * GRID)
        _fill(tables, "col_medal", R.col_medal, np.uint8, MAX_PLANETS * GRID)
        _fill(tables, "planet_flags", R.planet_flags, np.uint32, MAX_PLANETS)
        _fill(tables, "city_medals", R.city_medals, np.uint8, MAX_PLANETS)
        _fill(tables, "subplanet_bonus", R.subplanet_bonus, np.uint8, MAX_PLANETS)
        _fill(tables, "space", R.space, np.int8, MAX_CORPS * N_TRACKS * N_POS * N_SPACE_FIELDS)
        _fill(tables, "score_pos", R.score_pos, np.uint8, MAX_CORPS * N_TRACKS * 16)
        _fill(tables, "tech_level_at", R.tech_level_at, np.uint8, MAX_CORPS * 16)
        _fill(tables, "corp_rovers", R.corp_rovers, np.uint8, MAX_CORPS)
        _fill(tables, "tech_limit", R.tech_limit, np.uint8, MAX_CORPS * (MAX_TECH + 1))
        _fill(tables, "tech_activated", R.tech_activated, np.uint8,
              MAX_CORPS * (MAX_TECH + 1))
        _fill(tables, "corp_has_powers", R.corp_has_powers, np.uint8, MAX_CORPS)
        _fill(tables, "tech_pos", R.tech_pos, np.uint8, MAX_CORPS * (MAX_TECH + 1))
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

    def check_policy(self, dict spec):
        """Refuse, in one line, a table with a policy seat when the policy
        network was learned on another engine version (or is missing)."""
        _check_policy(self, spec)


cdef _check_policy(CoreRules rules, dict spec):
    """ValueError when a seat of `spec` plays the policy bot and the rules'
    network was not learned on this engine version."""
    cdef int version = <int>rules.R.fitted.policy_engine
    if BOT_POLICY not in [int(k) for k in spec["bot_kind"]]:
        return
    if version != ENGINE_VERSION:
        raise ValueError(
            f"the policy bot's network was learned on engine version {version}, "
            f"this is engine {ENGINE_VERSION}: relearn it with "
            f"`python -m pu_sim.lab.policy_td --write`"
        )


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
               out, round_scores=None):
    """Play ``len(out) // n_players`` games from ``first_game`` on; fill ``out``.

    ``out`` is a structured array of :data:`RECORD_DTYPE` with one row per
    (game, seat).  ``round_scores``, when given, is an int16 array of shape
    ``(games, TRACE_ROUNDS, n_players)`` that receives each seat's score after
    every round (as if the game ended then; the last round's are the final
    scores), :data:`TRACE_NONE` for rounds a game did not play.  The loop runs
    without the GIL; anomalies inside a game are reported in the ``status``
    field, never raised.
    """
    cdef TableSpec ts = make_spec(spec)
    cdef SeatRecord[::1] rec = out
    _check_policy(rules, spec)
    cdef int16_t[:, :, ::1] trace
    cdef int16_t* trace_ptr = NULL
    cdef uint64_t n_games = rec.shape[0] // ts.n_players
    cdef int rc = 0
    if rec.shape[0] % ts.n_players:
        raise ValueError("output length must be a multiple of n_players")
    if round_scores is not None:
        trace = round_scores
        if (trace.shape[0] != <Py_ssize_t>n_games or trace.shape[1] != MAX_ROUNDS
                or trace.shape[2] != ts.n_players):
            raise ValueError(
                f"round_scores must have shape ({n_games}, {MAX_ROUNDS}, "
                f"{ts.n_players}), got {tuple(round_scores.shape)}"
            )
        if n_games:
            trace_ptr = &trace[0, 0, 0]
    if n_games == 0:
        return
    with nogil:
        rc = play_games(rules.R, &ts, k0, k1, first_game, n_games, &rec[0], trace_ptr)
    if rc != 0:
        raise MemoryError("play_batch could not allocate its game state")


def policy_train(CoreRules rules, dict spec, double[::1] weights, uint64_t k0, uint64_t k1,
                 uint64_t first_game, uint64_t n_games, double alpha, double lam,
                 double explore=0.0, bint watch=False, double[::1] coherence=None):
    """Self-play that learns the policy bot's network in place.

    Plays games ``[first_game, first_game + n_games)`` of ``spec``; every
    policy seat chooses by ``weights`` (``POLICY_N`` doubles) and, at each
    game's end, moves them toward its TD(lambda) returns (core/bots/
    policy_train.pxi), ``explore`` the temperature (medals) of a softmax
    over its moves' values by which it chooses while learning (0: the best).
    ``watch``: every seat plays its own bot instead (a policy seat the
    committed network, with its search) and learns ``weights`` from its games.
    ``coherence`` (2 x POLICY_N doubles, zeros at the start, kept between
    calls): temporal coherence, each weight's own rate times ``alpha``.
    Returns (mean final score of the learning seats, their number, mean squared
    TD error).  Runs without the GIL, one game after another, so the weights
    are a pure function of the arguments.
    """
    cdef TableSpec ts = make_spec(spec)
    cdef double stats[4]
    cdef int rc
    cdef double* tc = NULL
    if coherence is not None:
        if coherence.shape[0] != 2 * POLICY_N:
            raise ValueError(f"coherence must hold {2 * POLICY_N} values")
        tc = &coherence[0]
    if weights.shape[0] != POLICY_N:
        raise ValueError(f"weights must hold {POLICY_N} values, got {weights.shape[0]}")
    stats[0] = stats[1] = stats[2] = stats[3] = 0.0
    with nogil:
        rc = policy_train_games(rules.R, &ts, &weights[0], k0, k1, first_game, n_games,
                                alpha, lam, explore, stats, watch, tc)
    if rc != 0:
        raise MemoryError("policy_train could not allocate its buffers")
    return (stats[0] / max(stats[1], 1.0), int(stats[1]), stats[2] / max(stats[3], 1.0))


TRACE_ROUNDS = MAX_ROUNDS
"""Rounds a round score trace has room for (the engine's round limit)."""

TRACE_NONE = ROUND_UNPLAYED
"""The round score of a round the game did not play."""


include "core/api/game_state.pxi"
