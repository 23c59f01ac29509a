# Flux Industries (corporations.md 3.3): only the newest tech is active, and a
# flux token names the track its techs act on.
#
# The token (Player_t.flux_track, -1 before the first tech) is placed again each
# time a tech milestone is entered (IT_FLUX_TRACK, decision D_FLUX_TRACK).  Tech 1's
# movement comes from the rovers' squares at the start of the tile phase
# (Player_t.flux_counts per terrain, F1).

cdef enum:
    FLUX_CHOICE_POWERS = 1 << 1  # F1: tech 1 is a round-start tech used by choice


cdef inline bint flux_has_tech(const Game_t* g, const Rules_t* R, int p,
                               int level) noexcept nogil:
    """Only the newest tech is active."""
    return board_has_tech(g, R, p, level) and tech_level(g, R, p) == level


cdef inline bint flux_improves(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Tech 3: the flux track (never tech) plays as its improved version."""
    return g.pl[p].flux_track == t and t != TECH and has_tech(g, R, p, 3)


cdef inline const int8_t* flux_track_space(const Game_t* g, const Rules_t* R, int p, int t,
                                           int pos) noexcept nogil:
    """The printed space a tracker claims (tech 3: the improved flux track)."""
    if flux_improves(g, R, p, t):
        return R.flux_space[t][pos]
    return R.space[CORP_FLUX][t][pos]


cdef inline int flux_movement_bonus(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 3 with rover as the flux track, F4 "all_movement": +1 to card and event
    movement too (the improved rover track already prints its own +1)."""
    if g.options & OPT_FLUX_TECH3_ROVER_SCOPE_TRACK_ONLY:
        return 0
    return 1 if flux_improves(g, R, p, ROVER) else 0


cdef inline void flux_tech_unlocked(Game_t* g, int p) noexcept nogil:
    """A tech milestone was entered: place the flux token again."""
    push_item(g, p, IT_FLUX_TRACK, 0, 0, 0)


cdef inline void flux_begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    if it.kind == IT_FLUX_TRACK:
        g.item = it
        set_decision(g, D_FLUX_TRACK, p)


cdef inline int flux_legal_moves(int d, uint32_t* out) noexcept nogil:
    """D_FLUX_TRACK: any of the five tracks."""
    if d == D_FLUX_TRACK:
        return gen_track_moves((1 << N_TRACKS) - 1, out)
    return 0


cdef inline void flux_apply_move(Game_t* g, int p, int d, uint32_t mv) noexcept nogil:
    if d == D_FLUX_TRACK:
        g.pl[p].flux_track = <int8_t>mv


# ---- tech 1: movement for rovers on flux terrain ---------------------------------------

cdef void flux_round_start(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Note where the rovers stand as the tile phase begins (F1); BGA's option grants
    tech 1 right here, with the flux track of this moment."""
    cdef Player_t* pl = &g.pl[p]
    cdef int r, t
    for t in range(N_TERRAINS):
        pl.flux_counts[t] = 0
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] != RV_PLANET:
            continue
        for t in range(N_TERRAINS):
            if grid_has(pl.terr[t], pl.rover_x[r], pl.rover_y[r]):
                pl.flux_counts[t] += 1
                break
    if g.options & OPT_FLUX_TECH1_TRACK_ROUND_START and has_tech(g, R, p, 1):
        pl.round_move += 2 * pl.flux_counts[pl.flux_track]
        pl.used_round |= 1 << 1


cdef inline int flux_t1_movement(const Player_t* pl) noexcept nogil:
    return 2 * pl.flux_counts[pl.flux_track] if pl.flux_track >= 0 else 0


# ---- tech 2: to the next milestone -------------------------------------------------------

cdef int flux_next_milestone(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """The next milestone above tracker t (civ, patch, rover or tech), or -1 (water: F3)."""
    cdef int pos, field
    if t == CIV:
        field = SP_CIV
    elif t == BIOMASS:
        field = SP_PATCH
    elif t == ROVER:
        field = SP_ROVER
    elif t == TECH:
        field = SP_TECH
    else:
        return -1
    for pos in range(g.pl[p].track[t] + 1, TOP + 1):
        if track_space(g, R, p, t, pos)[field]:
            return pos
    return -1


cdef void flux_to_milestone(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """F5: every space on the way is claimed (designer FAQ A9); BGA option: only
    the milestone itself."""
    cdef Player_t* pl = &g.pl[p]
    cdef int t = pl.flux_track
    cdef int target = flux_next_milestone(g, R, p, t)
    if target < 0:
        return
    if g.options & OPT_FLUX_TECH2_BENEFITS_ON_WAY_OFF:
        pl.track[t] = <int8_t>(target - 1)
    while pl.track[t] < target:
        advance_once(g, R, p, t, True, False)


# ---- activated powers ------------------------------------------------------------------------

cdef inline bint flux_power_available(const Game_t* g, const Rules_t* R, int p,
                                      int level) noexcept nogil:
    cdef const Player_t* pl = &g.pl[p]
    if pl.flux_track < 0:
        return False
    if level == 1:
        return not (pl.used_round >> 1) & 1 and flux_t1_movement(pl) > 0
    if level == 2:
        return flux_next_milestone(g, R, p, pl.flux_track) >= 0
    if level == 5:
        return can_advance(g, R, p, pl.flux_track)
    return False


cdef void flux_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    cdef Player_t* pl = &g.pl[p]
    if level == 1:
        pl.used_round |= 1 << 1
        pl.round_move += flux_t1_movement(pl)      # spendable all round (F1)
    elif level == 2:
        flux_to_milestone(g, R, p)
    elif level == 5:
        push_item(g, p, IT_ADVANCE, pl.flux_track, 1, 0)


# ---- tech 4: a meteorite for a tile showing the flux resource ----------------------------

cdef inline void flux_tile_placed(Game_t* g, const Rules_t* R, int p, int tile) noexcept nogil:
    cdef const Player_t* pl = &g.pl[p]
    if (pl.flux_track >= 0 and has_tech(g, R, p, 4)
            and (R.tile_ta[tile] == pl.flux_track or R.tile_tb[tile] == pl.flux_track)
            and grid_any(pl.meteorite)):
        push_item(g, p, IT_COLLECT_METEORITE, 1, 0, 0)
