# Cosmos Inc. (corporations.md 3.2): collected lifepods may go onto track spaces,
# which trackers jump and whose benefits, medals and tech unlocks are ignored.
#
# A lifepod's place is one byte: track * 16 + index for a track space, POD_AREA
# for the scoring area.  Lifepods on tracks are Player_t.pod_on[track] bits.

cdef enum:
    POD_AREA = 0xFF


cdef inline bint pod_space_free(const Player_t* pl, int t, int pos) noexcept nogil:
    """C1: a space without a tracker or a lifepod, never a top space."""
    return pos < TOP and pl.track[t] != pos and not (pl.pod_on[t] >> pos) & 1


cdef int gen_pod_spaces(const Player_t* pl, uint32_t* out, int n) noexcept nogil:
    """Append every track space a lifepod may go to."""
    cdef int t, pos
    for t in range(N_TRACKS):
        for pos in range(TOP):
            if pod_space_free(pl, t, pos):
                out[n] = <uint32_t>(t * 16 + pos)
                n += 1
    return n


cdef inline void pod_put(Player_t* pl, int loc) noexcept nogil:
    if loc != POD_AREA:
        pl.pod_on[loc >> 4] |= <uint16_t>(1 << (loc & 15))
        pl.pods_on_tracks += 1


cdef inline void pod_take(Player_t* pl, int loc) noexcept nogil:
    if loc != POD_AREA:
        pl.pod_on[loc >> 4] &= <uint16_t>~(1 << (loc & 15))
        pl.pods_on_tracks -= 1


cdef int gen_pod_sources(const Player_t* pl, uint32_t* out, int n) noexcept nogil:
    """Append where the player's collected lifepods are (track spaces, the area)."""
    cdef int t, pos
    for t in range(N_TRACKS):
        for pos in range(TOP):
            if (pl.pod_on[t] >> pos) & 1:
                out[n] = <uint32_t>(t * 16 + pos)
                n += 1
    if scoring_lifepods(pl) > 0:
        out[n] = POD_AREA
        n += 1
    return n


cdef int gen_pod_moves(const Player_t* pl, uint32_t* out) noexcept nogil:
    """Every (from, to) move of one collected lifepod, as from << 8 | to."""
    cdef uint32_t src[N_TRACKS * 16 + 1]
    cdef uint32_t dst[N_TRACKS * 16 + 1]
    cdef int ns = gen_pod_sources(pl, src, 0)
    cdef int nd = gen_pod_spaces(pl, dst, 0)
    cdef int i, j, n = 0
    dst[nd] = POD_AREA
    nd += 1
    for i in range(ns):
        for j in range(nd):
            if src[i] != dst[j]:
                out[n] = (src[i] << 8) | dst[j]
                n += 1
    return n


# ---- trackers jump lifepods ------------------------------------------------------------

cdef inline int cosmos_next_space(const Player_t* pl, int t, int pos) noexcept nogil:
    """One advance from pos: the first space above without a lifepod (never past 15)."""
    pos += 1
    while pos < TOP and (pl.pod_on[t] >> pos) & 1:
        pos += 1
    return pos


cdef inline int cosmos_space_below(const Player_t* pl, int t, int pos) noexcept nogil:
    """One regress from pos: the first space below without a lifepod, or -1 (BGA)."""
    pos -= 1
    while pos >= 0 and (pl.pod_on[t] >> pos) & 1:
        pos -= 1
    return pos


cdef inline int cosmos_regress_room(const Player_t* pl, int t) noexcept nogil:
    """How many single steps tracker t can go down: lifepods are jumped."""
    cdef int n = 0, pos = cosmos_space_below(pl, t, pl.track[t])
    while pos >= 0:
        n += 1
        pos = cosmos_space_below(pl, t, pos)
    return n


cdef inline void cosmos_regress_once(Player_t* pl, int t) noexcept nogil:
    pl.track[t] = <int8_t>cosmos_space_below(pl, t, pl.track[t])


cdef inline bint cosmos_milestone_covered(const Player_t* pl, const Rules_t* R,
                                          int level) noexcept nogil:
    """C2: a lifepod on a tech milestone locks that level (higher ones stay usable)."""
    return (pl.pod_on[TECH] >> R.tech_pos[CORP_COSMOS][level]) & 1


cdef inline bint cosmos_has_tech(const Game_t* g, const Rules_t* R, int p,
                                 int level) noexcept nogil:
    """A reached tech not under a lifepod (C2)."""
    return board_has_tech(g, R, p, level) and not cosmos_milestone_covered(&g.pl[p], R, level)


cdef inline int cosmos_medal(const Player_t* pl, const Rules_t* R, int t) noexcept nogil:
    """The highest medal at or below the tracker that no lifepod covers."""
    cdef int pos
    for pos in range(pl.track[t], -1, -1):
        if R.space[CORP_COSMOS][t][pos][SP_MEDAL] and not (pl.pod_on[t] >> pos) & 1:
            return R.space[CORP_COSMOS][t][pos][SP_MEDAL]
    return 0


# ---- collecting and moving lifepods ------------------------------------------------------

cdef inline void cosmos_lifepod_collected(Game_t* g, int p) noexcept nogil:
    """Special rule: the new lifepod may go onto a free track space (a pool item)."""
    push_item(g, p, IT_POD_PLACE, 0, 0, 0)


cdef inline bint cosmos_collected_lifepod_lost(Game_t* g, int p) noexcept nogil:
    """Event 114: with lifepods on tracks, which one is lost matters (a decision)."""
    if g.pl[p].pods_on_tracks == 0:
        return False                                 # the standard rule: no choice
    push_item(g, p, IT_POD_DESTROY, 0, 0, 0)
    return True


cdef inline bint cosmos_power_available(const Game_t* g, const Rules_t* R, int p,
                                        int level) noexcept nogil:
    """Techs 2 and 5 move collected lifepods: there must be one to move."""
    cdef const Player_t* pl = &g.pl[p]
    return (level == 2 or level == 5) and pl.lifepods_collected > 0


cdef void cosmos_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Tech 2: move up to three collected lifepods; tech 5: one."""
    push_item(g, p, IT_POD_MOVE, 3 if level == 2 else 1, 0, 0)


cdef inline void cosmos_tile_placed(Game_t* g, const Rules_t* R, int p, int tile) noexcept nogil:
    """Tech 3: a tile with an energy resource lets the player move one lifepod."""
    if (g.pl[p].lifepods_collected > 0
            and (R.tile_ta[tile] == ENERGY or R.tile_tb[tile] == ENERGY)
            and has_tech(g, R, p, 3)):
        push_item(g, p, IT_POD_MOVE, 1, 0, 0)


cdef inline bint cosmos_step_free(const Game_t* g, const Rules_t* R, int p, int x,
                                  int y) noexcept nogil:
    """Tech 4: entering energy terrain costs no movement (Petra's currents too)."""
    cdef const Player_t* pl = &g.pl[p]
    if not has_tech(g, R, p, 4):
        return False
    if grid_has(pl.terr[ENERGY], x, y):
        return True
    return (grid_has(R.pmask[pl.planet][PM_CURRENT], x, y) and not grid_has(pl.occ, x, y))


cdef inline bint cosmos_diagonal(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 1: rovers may also move diagonally."""
    return has_tech(g, R, p, 1)


cdef inline bint cosmos_diagonal_reach(const Rules_t* R, const Player_t* pl) noexcept nogil:
    """Tech 1 on the board, for the bots' rover distances (no lock or suppression)."""
    return R.tech_level_at[CORP_COSMOS][pl.track[TECH]] >= 1


# ---- the pool items and their decisions -----------------------------------------------

cdef void cosmos_begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    """Start IT_POD_PLACE / IT_POD_MOVE / IT_POD_DESTROY (nothing to choose: no decision)."""
    cdef Player_t* pl = &g.pl[p]
    cdef uint32_t buf[N_TRACKS * 16 + 1]
    if it.kind == IT_POD_PLACE:
        if scoring_lifepods(pl) == 0 or gen_pod_spaces(pl, buf, 0) == 0:
            return                                   # already moved, or nowhere to go
        g.item = it
        set_decision(g, D_POD_PLACE, p)
    elif it.kind == IT_POD_MOVE:
        if pl.lifepods_collected == 0:
            return
        g.item = it
        set_decision(g, D_POD_MOVE, p)
    elif it.kind == IT_POD_DESTROY:
        if gen_pod_sources(pl, buf, 0) == 0:
            return
        g.item = it
        set_decision(g, D_POD_DESTROY, p)


cdef int cosmos_legal_moves(const Game_t* g, int p, int d, uint32_t* out) noexcept nogil:
    cdef const Player_t* pl = &g.pl[p]
    cdef int n
    if d == D_POD_PLACE:
        n = gen_pod_spaces(pl, out, 0)                # a free track space, or the area
        out[n] = POD_AREA
        return n + 1
    if d == D_POD_MOVE:
        n = gen_pod_moves(pl, out)
        out[n] = MV_DONE
        return n + 1
    if d == D_POD_DESTROY:
        return gen_pod_sources(pl, out, 0)
    return 0


cdef void cosmos_apply_move(Game_t* g, int p, int d, uint32_t mv) noexcept nogil:
    cdef Player_t* pl = &g.pl[p]
    if d == D_POD_PLACE:
        pod_put(pl, <int>mv)
    elif d == D_POD_MOVE:
        if mv == MV_DONE:
            return
        pod_take(pl, <int>(mv >> 8))
        pod_put(pl, <int>(mv & 0xFF))
        if g.item.a > 1:
            push_item(g, p, IT_POD_MOVE, g.item.a - 1, 0, 0)
    elif d == D_POD_DESTROY:                         # event 114
        pod_take(pl, <int>mv)
        pl.lifepods_collected -= 1
        pl.lifepods_lost += 1
