# Oasis Ultd. (corporations.md 3.7): the water tracker walks a 24-step path
# across the other tracks, and no two trackers share a space.
#
# Player_t.track[WATER] is the path step (0..23); R.path_track / R.path_row say
# which board space a step is.  A blocked advance is lost (O3), unless tech 1
# lets the tracker skip to the next free space of its own track or path.

cdef enum:
    OASIS_TOP = 23              # the water path's last step
    OASIS_CHOICE_POWERS = 1 << 2  # BGA's option: tech 2 is used by choice (O2)


cdef inline int oasis_track_top(const Player_t* pl, int t) noexcept nogil:
    """Water's last position is the path's last step."""
    return OASIS_TOP if t == WATER else TOP


cdef inline int oasis_board_row(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """The water tracker's row is its path step's (civ card "5th position", corp-G1)."""
    return R.path_row[pl.track[WATER]] if t == WATER else pl.track[t]


cdef inline const int8_t* oasis_track_space(const Rules_t* R, const Player_t* pl, int t,
                                            int pos) noexcept nogil:
    """Water claims the path's spaces."""
    if t == WATER:
        return R.space[CORP_OASIS][R.path_track[pos]][R.path_row[pos]]
    return R.space[CORP_OASIS][t][pos]


cdef inline bint oasis_taken(const Rules_t* R, const Player_t* pl, int mover, int col,
                             int row) noexcept nogil:
    """Does a tracker other than `mover` stand on board space (col, row)?"""
    cdef int t, s
    for t in range(N_TRACKS):
        if t == mover:
            continue
        if t == WATER:
            s = pl.track[WATER]
            if R.path_track[s] == col and R.path_row[s] == row:
                return True
        elif t == col and pl.track[t] == row:
            return True
    return False


cdef inline bint oasis_free(const Rules_t* R, const Player_t* pl, int t, int pos) noexcept nogil:
    """Position pos of tracker t (a path step for water) holds no other tracker."""
    if t == WATER:
        return not oasis_taken(R, pl, WATER, R.path_track[pos], R.path_row[pos])
    return not oasis_taken(R, pl, t, t, pos)


cdef int oasis_target(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Where one advance of tracker t lands, or -1 if it is blocked (O3; tech 1 skips
    the blocking tracker to the next free space)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int top = OASIS_TOP if t == WATER else TOP
    cdef int pos = pl.track[t] + 1
    cdef bint skip = has_tech(g, R, p, 1)
    while pos <= top:
        if oasis_free(R, pl, t, pos):
            return pos
        if not skip:
            return -1
        pos += 1
    return -1


cdef inline bint oasis_can_advance(const Game_t* g, const Rules_t* R, int p,
                                   int t) noexcept nogil:
    """Z1: not onto another tracker (BGA option: blocked trackers may be chosen)."""
    if (t == ROVER and g.pl[p].track[t] >= TOP) or g.options & OPT_SYNERGY_TARGET_MUST_MOVE_OFF:
        return board_can_advance(g, R, p, t)
    return not at_top(&g.pl[p], t) and oasis_target(g, R, p, t) >= 0


cdef inline bint oasis_advance_once(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                                    bint skip_synergy) noexcept nogil:
    """Onto the next free space; a blocked advance is lost (O3)."""
    cdef int target
    if t == ROVER and g.pl[p].track[t] >= TOP:
        return board_advance_once(g, R, p, t, claim, skip_synergy)  # the top repeat
    target = oasis_target(g, R, p, t)
    if target < 0:
        return False
    g.pl[p].track[t] = <int8_t>target
    if claim:
        claim_space(g, R, p, t, target, skip_synergy)
    return True


cdef inline int oasis_regress_room(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """Straight down, never onto another tracker."""
    cdef int pos = pl.track[t] - 1, n = 0
    while pos >= 0 and oasis_free(R, pl, t, pos):
        n += 1
        pos -= 1
    return n


cdef inline int oasis_track_medals(const Game_t* g, const Rules_t* R, int p,
                                   int t) noexcept nogil:
    """Only water medals along the path count: the last one reached (O1: the row-11
    medal is 9 as on the board; BGA's code has 8)."""
    cdef int medal
    if t != WATER:
        return board_track_medals(g, R, p, t)
    medal = R.path_score[g.pl[p].track[WATER]]
    if medal == 9 and g.options & OPT_OASIS_ROW11_MEDAL_8:
        return 8
    return medal


cdef inline void oasis_tile_resource(const Game_t* g, const Rules_t* R, int p, int terrain,
                                     const uint16_t* part, Item_t* res) noexcept nogil:
    """Special rule: a water tile advances once per water square on planetary ice, as
    one resolution (c = the count)."""
    cdef int y, n = 0
    if terrain != WATER:
        return
    for y in range(GRID):
        n += popcount16(part[y] & R.pmask[g.pl[p].planet][PM_ICE][y])
    res.kind = IT_ADVANCE if n > 0 else 0
    res.a = WATER if n > 0 else 0
    res.b = 1 if n > 0 else 0
    res.c = <uint8_t>(n if n > 1 else 0)


cdef void oasis_tile_placed(Game_t* g, const Rules_t* R, int p, int tile,
                            const uint16_t* foot) noexcept nogil:
    """Tech 3: a tile covering no ice advances water; techs 4 and 5: a water tile
    also gives a patch / a synergy boost (ice or not)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int y
    cdef bint icy = False
    if has_tech(g, R, p, 3):
        for y in range(GRID):
            if foot[y] & R.pmask[pl.planet][PM_ICE][y]:
                icy = True
                break
        if not icy:
            push_item(g, p, IT_ADVANCE, WATER, 1, 0)
    if R.tile_ta[tile] == WATER or R.tile_tb[tile] == WATER:
        if has_tech(g, R, p, 4):
            push_item(g, p, IT_PATCH, 0, 0, 0)
        if has_tech(g, R, p, 5):
            push_item(g, p, IT_SYNERGY, 0, 0, 0)


cdef inline int rovers_on_water(const Player_t* pl) noexcept nogil:
    cdef int r, n = 0
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] == RV_PLANET and grid_has(pl.terr[WATER], pl.rover_x[r],
                                                        pl.rover_y[r]):
            n += 1
    return n


cdef void oasis_round_income(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 2 (O2: counted at round start): 1 movement per rover on water terrain.
    BGA's option counts them when the tech is used instead (a once-a-round power)."""
    if has_tech(g, R, p, 2) and not (g.options & OPT_OASIS_TECH2_TIMING_ON_USE):
        g.pl[p].round_move += rovers_on_water(&g.pl[p])


cdef inline bint oasis_power_available(const Game_t* g, const Rules_t* R, int p,
                                       int level) noexcept nogil:
    return (level == 2 and g.options & OPT_OASIS_TECH2_TIMING_ON_USE
            and not (g.pl[p].used_round >> 2) & 1 and rovers_on_water(&g.pl[p]) > 0)


cdef inline void oasis_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    g.pl[p].used_round |= 1 << 2
    g.pl[p].round_move += rovers_on_water(&g.pl[p])
