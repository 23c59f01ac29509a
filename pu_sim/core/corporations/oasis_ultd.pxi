# Oasis Ultd. (corporations.md 3.7): the water tracker walks a 24-step path
# across the other tracks, and no two trackers share a space.
#
# Player_t.track[WATER] is the path step (0..23); R.path_track / R.path_row say
# which board space a step is.  A blocked advance is lost (O3), unless tech 1
# lets the tracker skip to the next free space of its own track or path.

cdef enum:
    OASIS_TOP = 23              # the water path's last step


cdef inline bint oasis_water(const Player_t* pl, int t) noexcept nogil:
    return pl.corp == CORP_OASIS and t == WATER


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


cdef inline int oasis_medal(const Game_t* g, const Player_t* pl, const Rules_t* R) noexcept nogil:
    """Only water medals along the path count: the last one reached (O1: the row-11
    medal is 9 as on the board; BGA's code has 8)."""
    cdef int medal = R.path_score[pl.track[WATER]]
    if medal == 9 and g.options & OPT_OASIS_ROW11_MEDAL_8:
        return 8
    return medal


cdef inline int oasis_row(const Rules_t* R, const Player_t* pl) noexcept nogil:
    """The board row the water tracker is on (civ card "5th position", corp-G1)."""
    return R.path_row[pl.track[WATER]]


cdef inline int oasis_water_squares(const Rules_t* R, const Player_t* pl,
                                    const uint16_t* part) noexcept nogil:
    """Special rule: a water tile advances once per water square on planetary ice."""
    cdef int y, n = 0
    for y in range(GRID):
        n += popcount16(part[y] & R.pmask[pl.planet][PM_ICE][y])
    return n


cdef void oasis_tile_placed(Game_t* g, const Rules_t* R, int p, int tile,
                            const uint16_t* foot) noexcept nogil:
    """Tech 3: a tile covering no ice advances water; techs 4 and 5: a water tile
    also gives a patch / a synergy boost (ice or not)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int y
    cdef bint icy = False
    if pl.corp != CORP_OASIS:
        return
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
