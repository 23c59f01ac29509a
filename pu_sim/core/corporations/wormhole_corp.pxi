# Wormhole Corp. (corporations.md 3.9): a branching biomass track and patches
# everywhere.
#
# The biomass tracker sits on board indices: level k is the double space
# (A = R.wh_level_a[k], B = A + 1); level 0 is the start.  An advance moves it to
# the next level's A space at once, so position checks see the new level, and
# the player then picks A (a synergy) or B (a patch) as an IT_BRANCH item.

cdef enum:
    WH_TOP_LEVEL = 5


cdef inline bint wormhole_biomass(const Player_t* pl, int t) noexcept nogil:
    return pl.corp == CORP_WORMHOLE and t == BIOMASS


cdef inline int wh_level(const Rules_t* R, const Player_t* pl) noexcept nogil:
    return R.wh_level_of[pl.track[BIOMASS]]


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


cdef inline int wh_next_space(const Rules_t* R, const Player_t* pl, int pos) noexcept nogil:
    """For the bots' track values: the next level's A space."""
    cdef int level = R.wh_level_of[pos]
    return R.wh_level_a[level + 1] if level < WH_TOP_LEVEL else pos + 1


cdef inline void wormhole_regress(Player_t* pl, const Rules_t* R) noexcept nogil:
    """BGA: back to the previous level (its A space), claiming nothing."""
    cdef int level = wh_level(R, pl)
    if level > 0:
        pl.track[BIOMASS] = <int8_t>R.wh_level_a[level - 1]


cdef void branch_choice(Game_t* g, const Rules_t* R, int p, Item_t it, int side) noexcept nogil:
    """Take side 0 (A: synergy) or 1 (B: patch) of the level just reached."""
    cdef Player_t* pl = &g.pl[p]
    pl.track[BIOMASS] = <int8_t>(R.wh_level_a[wh_level(R, pl)] + side)
    claim_space(g, R, p, BIOMASS, pl.track[BIOMASS], it.a != 0)


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
                                         const uint16_t* part_a,
                                         const uint16_t* part_b) noexcept nogil:
    """W1: may the tile's energy advance biomass?  Only if the same tile expanded a
    biomass area (no energy tile shows biomass, so it plays as BGA's never), or by
    option."""
    if g.options & OPT_WORMHOLE_ENERGY_BIOMASS_ALWAYS:
        return True
    if g.options & OPT_WORMHOLE_ENERGY_BIOMASS_NEVER:
        return False
    if R.tile_ta[tile] == BIOMASS:
        return wormhole_expands(pl, part_a)
    if R.tile_tb[tile] == BIOMASS:
        return wormhole_expands(pl, part_b)
    return False


# ---- patches ----------------------------------------------------------------------------

cdef inline bint wormhole_patch_on_tiles(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 2: a patch may go onto a tile square (never a patch, nor a meteorite)."""
    return g.pl[p].corp == CORP_WORMHOLE and has_tech(g, R, p, 2)


cdef inline bint wormhole_patch_on_meteorites(const Game_t* g, const Rules_t* R,
                                              int p) noexcept nogil:
    """Tech 5 (W3: at any patch placement): a patch onto a meteorite destroys it."""
    return g.pl[p].corp == CORP_WORMHOLE and has_tech(g, R, p, 5)


cdef inline bint wormhole_offers_double(const Game_t* g, const Rules_t* R, int p,
                                        const Item_t* it) noexcept nogil:
    """Tech 3: once per round a patch gain may give two (BGA: any source)."""
    return (g.pl[p].corp == CORP_WORMHOLE and it.a == 0 and it.b == 0
            and has_tech(g, R, p, 3) and not (g.pl[p].used_round >> 3) & 1)


cdef void wormhole_double_answer(Game_t* g, const Rules_t* R, int p, bint yes) noexcept nogil:
    """The patch item comes back marked as asked (b = 1); yes adds a second patch."""
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
