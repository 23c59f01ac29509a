# Biomass patches (rules.md 8.9): one square of biomass terrain, not a tile.
#
# A patch obeys PL-1, PL-2, PL-3 (first placement) and PL-4 (adjacency, lifted
# by Universal Coalition tech L1 as in BGA) and destroys what it covers; event
# tile restrictions never apply to patches (rules.md 14.26).

cdef inline int patch_squares(const Game_t* g, const Rules_t* R, int p,
                              uint16_t* out) noexcept nogil:
    """Legal squares for a biomass patch; returns their number."""
    cdef PlaceCtx c
    cdef int y, n = 0
    place_ctx(g, R, p, LEVEL_ALL, True, &c)
    for y in range(GRID):
        out[y] = c.allow[BIOMASS][y]
    corp_patch_squares(g, R, p, out)                    # e.g. onto tiles (Wormhole)
    for y in range(GRID):
        if c.need_anchor:
            out[y] &= c.anchor[y]
        n += popcount16(out[y])
    return n


cdef inline void place_patch(Game_t* g, int p, int x, int y) noexcept nogil:
    """Cover (x, y) with a biomass patch; lifepods and rovers there are destroyed.

    A patch may cover a tile square (Wormhole): the square then shows biomass only
    (its terrain and icon are hidden) and a meteorite there leaves the game.
    """
    cdef Player_t* pl = &g.pl[p]
    cdef uint16_t sq[GRID]
    cdef int t
    grid_zero(sq)
    grid_set(sq, x, y)
    if grid_has(pl.occ, x, y):
        pl.patches_on_tiles += 1
        for t in range(N_TERRAINS):
            grid_clear_sq(pl.terr[t], x, y)
            grid_clear_sq(pl.icon[t], x, y)
        if grid_has(pl.meteorite, x, y):
            grid_clear_sq(pl.meteorite, x, y)
            pl.meteorites_destroyed += 1
    grid_set(pl.occ, x, y)
    grid_set(pl.terr[BIOMASS], x, y)
    grid_set(pl.patch, x, y)
    pl.patches_placed += 1
    destroy_lifepods_on(pl, sq)
    destroy_rovers_on(g, p, sq)
