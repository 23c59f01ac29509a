# Wormhole Corp. (corporations.md 3.9): a branching biomass track and patches
# everywhere.
#
# The biomass tracker sits on board indices: level k is the double space
# (A = R.wh_level_a[k], B = A + 1); level 0 is the start.  An advance moves it to
# the next level's A space at once, so position checks see the new level, and
# the player then picks A (a synergy) or B (a patch) as an IT_BRANCH item.

cdef enum:
    WH_TOP_LEVEL = 5


cdef inline int wh_level(const Rules_t* R, const Player_t* pl) noexcept nogil:
    return R.wh_level_of[pl.track[BIOMASS]]


cdef inline bint wormhole_at_top(const Player_t* pl, int t) noexcept nogil:
    """The biomass track's top level is the pair 14/15."""
    return pl.track[t] >= (TOP - 1 if t == BIOMASS else TOP)


cdef bint wormhole_advance(Game_t* g, const Rules_t* R, int p, bint claim,
                           bint skip_synergy) noexcept nogil:
    """One biomass advance: up a level, then choose its synergy or its patch."""
    cdef Player_t* pl = &g.pl[p]
    cdef int level = wh_level(R, pl)
    if level >= WH_TOP_LEVEL:
        return False
    pl.track[BIOMASS] = <int8_t>R.wh_level_a[level + 1]
    if claim:
        push_item(g, p, IT_BRANCH, 1 if skip_synergy else 0, 0, 0)
    return True


cdef inline bint wormhole_advance_once(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                                       bint skip_synergy) noexcept nogil:
    if t == BIOMASS:
        return wormhole_advance(g, R, p, claim, skip_synergy)
    return board_advance_once(g, R, p, t, claim, skip_synergy)


cdef inline int wormhole_next_space(const Rules_t* R, const Player_t* pl, int t,
                                    int pos) noexcept nogil:
    """Biomass (for the bots' track values): the next level's A space."""
    cdef int level
    if t != BIOMASS:
        return pos + 1
    level = R.wh_level_of[pos]
    return R.wh_level_a[level + 1] if level < WH_TOP_LEVEL else pos + 1


cdef inline int wormhole_regress_room(const Rules_t* R, const Player_t* pl,
                                      int t) noexcept nogil:
    """Biomass goes down whole levels."""
    return wh_level(R, pl) if t == BIOMASS else pl.track[t]


cdef inline void wormhole_regress_once(const Rules_t* R, Player_t* pl, int t) noexcept nogil:
    """BGA: biomass goes back to the previous level (its A space), claiming nothing."""
    cdef int level
    if t != BIOMASS:
        pl.track[t] -= 1
        return
    level = wh_level(R, pl)
    if level > 0:
        pl.track[BIOMASS] = <int8_t>R.wh_level_a[level - 1]


cdef void branch_choice(Game_t* g, const Rules_t* R, int p, Item_t it, int side) noexcept nogil:
    """Take side 0 (A: synergy) or 1 (B: patch) of the level just reached."""
    cdef Player_t* pl = &g.pl[p]
    pl.track[BIOMASS] = <int8_t>(R.wh_level_a[wh_level(R, pl)] + side)
    claim_space(g, R, p, BIOMASS, pl.track[BIOMASS], it.a != 0)


cdef inline void wormhole_begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    if it.kind == IT_BRANCH:
        g.item = it
        set_decision(g, D_BRANCH, p)


cdef inline int wormhole_legal_moves(int d, uint32_t* out) noexcept nogil:
    if d == D_BRANCH:
        out[0] = 0
        out[1] = 1
        return 2
    return 0


cdef inline void wormhole_apply_move(Game_t* g, const Rules_t* R, int p, int d,
                                     uint32_t mv) noexcept nogil:
    if d == D_BRANCH:
        branch_choice(g, R, p, g.item, <int>mv)


# ---- biomass from tiles ----------------------------------------------------------------

cdef inline bint wormhole_expands(const Player_t* pl, const uint16_t* part) noexcept nogil:
    """W2: the tile's biomass squares touch biomass terrain placed before (tile or patch)."""
    cdef uint16_t ring[GRID]
    cdef int y
    dilate(part, ring)
    for y in range(GRID):
        if ring[y] & pl.terr[BIOMASS][y] & ~part[y]:
            return True
    return False


cdef inline bint wormhole_energy_biomass(const Game_t* g, const Rules_t* R,
                                         const Player_t* pl, int tile,
                                         const uint16_t* other) noexcept nogil:
    """W1: may the tile's energy advance biomass?  Only if the same tile expanded a
    biomass area (its other part; no energy tile shows biomass, so it plays as BGA's
    never), or by option."""
    if g.options & OPT_WORMHOLE_ENERGY_BIOMASS_ALWAYS:
        return True
    if g.options & OPT_WORMHOLE_ENERGY_BIOMASS_NEVER:
        return False
    if R.tile_ta[tile] == BIOMASS or R.tile_tb[tile] == BIOMASS:
        return wormhole_expands(pl, other)
    return False


cdef inline void wormhole_tile_resource(const Game_t* g, const Rules_t* R, int p, int tile,
                                        int terrain, const uint16_t* part,
                                        const uint16_t* other, Item_t* res) noexcept nogil:
    """W1: energy picks biomass only as above; W2: biomass advances only if the tile's
    biomass expands an area placed before."""
    if terrain == ENERGY and not wormhole_energy_biomass(g, R, &g.pl[p], tile, other):
        res.a &= ~(1 << BIOMASS)
    elif terrain == BIOMASS and not wormhole_expands(&g.pl[p], part):
        res.kind = 0                                  # no new area, no advance
        res.a = res.b = res.c = 0


# ---- patches ----------------------------------------------------------------------------

cdef inline void wormhole_patch_squares(const Game_t* g, const Rules_t* R, int p,
                                        uint16_t* out) noexcept nogil:
    """Tech 2: a patch may go onto a tile square, never a patch, nor a meteorite but
    with tech 5 (W3: at any patch placement), which destroys it."""
    cdef const Player_t* pl = &g.pl[p]
    cdef bint on_meteorites
    cdef int y
    if not has_tech(g, R, p, 2):
        return
    on_meteorites = has_tech(g, R, p, 5)
    for y in range(GRID):
        out[y] |= pl.occ[y] & ~pl.patch[y] & (ROW_BITS if on_meteorites else ~pl.meteorite[y])


cdef inline bint wormhole_stores_patches(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 4: patches may be kept for the end of the game (BI-2)."""
    return has_tech(g, R, p, 4)


cdef inline int wormhole_patch_option(const Game_t* g, const Rules_t* R, int p,
                                      const Item_t* it) noexcept nogil:
    """Tech 3: once per round a patch gain may give two (BGA: any source)."""
    if (it.a == 0 and it.b == 0 and has_tech(g, R, p, 3)
            and not (g.pl[p].used_round >> 3) & 1):
        return OPTION_WORMHOLE_DOUBLE
    return 0


cdef void wormhole_option_answer(Game_t* g, const Rules_t* R, int p, Item_t it,
                                 bint yes) noexcept nogil:
    """The patch item comes back marked as asked (b = 1); yes adds a second patch."""
    if it.a != OPTION_WORMHOLE_DOUBLE:
        return
    push_item(g, p, IT_PATCH, 0, 1, 0)
    if yes:
        g.pl[p].used_round |= 1 << 3
        push_item(g, p, IT_PATCH, 0, 1, 0)


# ---- tech 1 ---------------------------------------------------------------------------------

cdef inline bint wormhole_power_available(const Game_t* g, const Rules_t* R, int p,
                                          int level) noexcept nogil:
    """Tech 1: at the top, the biomass tracker may go back to 0."""
    return level == 1 and wh_level(R, &g.pl[p]) == WH_TOP_LEVEL


cdef inline void wormhole_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    g.pl[p].track[BIOMASS] = 0                        # no benefits; the medal goes too
