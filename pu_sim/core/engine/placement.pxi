# Tile placement: legality (rules.md section 7), enumeration and application.
#
# A placement move packs slot (bit 12), orientation (bits 8-10), row y of the
# orientation's bounding box (bits 4-7) and column x (bits 0-3).  Legality is
# computed bit-parallel: for one orientation and one anchor row, a few shifted
# ANDs of row masks give every legal column at once (DESIGN 4.4).

cdef inline uint32_t pack_place(int slot, int o, int x, int y) noexcept nogil:
    return <uint32_t>((slot << 12) | (o << 8) | (y << 4) | x)


cdef inline int place_slot(uint32_t mv) noexcept nogil:
    """The depot tile (0 or 1) a placement move places."""
    return (mv >> 12) & 1


cdef inline void unpack_place(uint32_t mv, int* slot, int* o, int* x, int* y) noexcept nogil:
    slot[0] = place_slot(mv)
    o[0] = (mv >> 8) & 7
    y[0] = (mv >> 4) & 15
    x[0] = mv & 15


# Fallback levels (rules.md DR-4, planets.md 2.8): the first level at which one
# of the player's tiles fits is the one in force.
cdef enum:
    LEVEL_ALL = 0               # every rule
    LEVEL_NO_EVENT = 1          # the round's event restriction dropped
    LEVEL_NO_PLANET = 2         # planet placement restrictions dropped too
    LEVEL_WAIVER = 3            # Lacuna/Oblivion one-time adjacency waiver
    N_LEVELS = 4
    LEVEL_NONE = 255            # nothing fits: the player cannot place (9.2)


# Checks a tile showing rover terrain may skip (a corporation's tech: Horizon tech 1)
cdef enum:
    ROVER_TILES_CHECKED = 0     # every rule applies
    ROVER_TILES_FREE = 1        # no adjacency needed
    ROVER_TILES_UNCHECKED = 2   # only the grid and overlap rules apply


cdef enum:
    CTX_ROWS = GRID + 4                  # a mask's rows, then 4 empty ones (rows4 reads past)


cdef struct PlaceCtx:
    uint16_t allow[N_TERRAINS][CTX_ROWS]  # squares a tile square of terrain t may cover
    uint16_t anchor[CTX_ROWS]            # squares one tile square must cover
    bint need_anchor
    bint rover_tiles_free                # rover tiles skip adjacency (ROVER_TILES_FREE)
    bint rover_tiles_unchecked           # ... and every other check (ROVER_TILES_UNCHECKED)
    uint16_t open_sq[CTX_ROWS]           # uncovered grid squares (unchecked rover tiles)
    # Planet placement restrictions in force (planets.md 3; 0 once dropped, 2.8):
    uint32_t prules                      # PF_* restriction flags
    int planet
    bint one_step                        # Pajitnov: BGA's one-square slide test
    uint16_t occ[GRID]                   # Pajitnov: covered squares, and per row
    int8_t lo[GRID]                      # the lowest / highest covered column
    int8_t hi[GRID]
    uint16_t above[GRID]                 # covered squares in any row above / below
    uint16_t below[GRID]


cdef inline void place_ctx(const Game_t* g, const Rules_t* R, int p, int level,
                           bint patch, PlaceCtx* c) noexcept nogil:
    """Build the masks that decide legality for player p at a fallback level."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef uint16_t base[GRID]
    cdef int y, t, rover_exempt = corp_rover_tiles_exempt(g, R, p)
    for y in range(GRID, CTX_ROWS):                  # below the board: nothing fits
        c.open_sq[y] = 0
        c.anchor[y] = 0
        for t in range(N_TERRAINS):
            c.allow[t][y] = 0
    for y in range(GRID):
        base[y] = grid[y] & ~pl.occ[y]               # PL-1, PL-2
        c.open_sq[y] = base[y]
    for t in range(N_TERRAINS):
        for y in range(GRID):
            c.allow[t][y] = base[y]
    c.need_anchor = True
    c.rover_tiles_free = False
    c.rover_tiles_unchecked = not patch and rover_exempt == ROVER_TILES_UNCHECKED
    if not grid_any(pl.occ):
        # PL-3: the first tile covers a perimeter square (planet may override)
        if R.planet_flags[pl.planet] & PF_FIRST_CELLS:
            grid_copy(c.anchor, R.pmask[pl.planet][PM_FIRST])
        else:
            grid_copy(c.anchor, R.pmask[pl.planet][PM_EDGE])
    else:
        # PL-4: touch an already covered square (patches anchor too unless disabled)
        if g.options & OPT_PATCHES_ANCHOR_ADJACENCY:
            dilate(pl.occ, c.anchor)
        else:
            for y in range(GRID):
                base[y] = pl.occ[y] & ~pl.patch[y]
            dilate(base, c.anchor)
        if corp_ignores_adjacency(g, R, p) or level >= LEVEL_WAIVER:
            c.need_anchor = False                       # PL-5
        c.rover_tiles_free = rover_exempt != ROVER_TILES_CHECKED
    if not patch and level == LEVEL_ALL and rule_restricts_tiles(g):
        apply_tile_rule(g, R, pl, c)                    # events: tiles only (14.26)
    c.planet = pl.planet
    c.prules = 0
    c.one_step = False
    if patch:
        if planet_has(R, pl.planet, PF_RING_ANCHOR):
            # Arashi: a one-square patch on the ring can never reach outside it (3.1)
            for y in range(GRID):
                c.allow[BIOMASS][y] &= ~R.pmask[pl.planet][PM_RING][y]
    elif level < LEVEL_NO_PLANET or g.options & OPT_PLANET_FALLBACK_BGA:
        c.prules = R.planet_flags[pl.planet] & PF_RESTRICTIONS
        if c.prules & PF_SLIDE_IN:
            c.one_step = (g.options & OPT_PAJITNOV_SLIDE_ONE_STEP) != 0
            slide_setup(pl, c)


cdef inline uint64_t rows4(const uint16_t* rows, int y) noexcept nogil:
    """Rows y..y+3 of a PlaceCtx mask packed into one word (pack_board's layout):
    one load, since the rows lie side by side (CTX_ROWS pads past the board)."""
    cdef uint64_t v
    memcpy(&v, rows + y, sizeof(uint64_t))
    return v


cdef inline uint64_t fit_rows4(const Rules_t* R, const Orient_t* o, int ta, int tb,
                               const PlaceCtx* c, int y0) noexcept nogil:
    """Columns x where orientation o fits with its box at (x, y), for the four
    anchor rows y = y0..y0+3 at once (row y - y0 in bits 16 (y - y0) on): a few
    shifted ANDs of packed row masks a cell.  Bits a cell's shift carries in
    from the row below fall on columns past 12 - o.w, which the first mask cuts."""
    cdef int i, j
    cdef uint64_t touch, row_fit
    cdef uint64_t fit = 0
    cdef const uint16_t* allow[2]                    # by the cell's part, no branch
    row_fit = (<uint64_t>1 << (GRID + 1 - o.w)) - 1
    for j in range(4):                               # anchor rows whose box fits the board
        if y0 + j <= GRID - o.h:
            fit |= row_fit << (16 * j)
    allow[0] = c.allow[ta]
    allow[1] = c.allow[tb]
    if c.rover_tiles_unchecked and (ta == ROVER or tb == ROVER):
        for i in range(o.ncells):                    # BGA: grid and overlap only
            fit &= rows4(c.open_sq, y0 + o.dy[i]) >> o.dx[i]
        return fit
    for i in range(o.ncells):
        fit &= rows4(allow[o.part[i]], y0 + o.dy[i]) >> o.dx[i]
        if not fit:                                  # most rows die in a cell or two
            return 0
    if c.need_anchor and not (c.rover_tiles_free and (ta == ROVER or tb == ROVER)):
        touch = 0
        for i in range(o.ncells):
            touch |= rows4(c.anchor, y0 + o.dy[i]) >> o.dx[i]
        fit &= touch
    if fit and c.prules:
        for j in range(4):
            row_fit = (fit >> (16 * j)) & 0xFFFF
            if row_fit:
                fit &= ~(<uint64_t>0xFFFF << (16 * j))
                fit |= <uint64_t>planet_row_filter(R, c, o, ta, tb, y0 + j,
                                                   <uint16_t>row_fit) << (16 * j)
    return fit


cdef inline int scan_orientation(const Rules_t* R, const Orient_t* o, int ta, int tb,
                                 const PlaceCtx* c, uint16_t* legal) noexcept nogil:
    """legal[y] = columns x where orientation o fits with its box at (x, y)."""
    cdef int y0, j, total = 0
    cdef uint64_t fit
    for y0 in range(0, GRID, 4):
        fit = fit_rows4(R, o, ta, tb, c, y0) if y0 <= GRID - o.h else 0
        for j in range(4):
            legal[y0 + j] = <uint16_t>(fit >> (16 * j))
        total += popcount64(fit)
    return total


cdef inline int tile_legal_rows(const Game_t* g, const Rules_t* R, int p, int tile,
                                const PlaceCtx* c, uint16_t legal[8][GRID]) noexcept nogil:
    """Legal anchors of every orientation of a tile; returns their number."""
    cdef int o, total = 0
    cdef int ta = R.tile_ta[tile]
    cdef int tb = R.tile_tb[tile]
    for o in range(R.tile_n_orient[tile]):
        total += scan_orientation(R, &R.orient[tile][o], ta, tb, c, legal[o])
    return total


cdef inline bint tile_fits_anywhere(const Game_t* g, const Rules_t* R, int p, int tile,
                                    const PlaceCtx* c) noexcept nogil:
    """Whether some orientation of the tile has a legal anchor (stops at the first)."""
    cdef int o, y
    cdef const Orient_t* ori
    cdef int ta = R.tile_ta[tile]
    cdef int tb = R.tile_tb[tile]
    for o in range(R.tile_n_orient[tile]):
        ori = &R.orient[tile][o]
        for y in range(0, GRID + 1 - ori.h, 4):
            if fit_rows4(R, ori, ta, tb, c, y):
                return True
    return False


cdef inline int count_tile_placements(const Game_t* g, const Rules_t* R, int p, int tile,
                                      int level) noexcept nogil:
    """Number of legal placements of a tile at a fallback level."""
    cdef PlaceCtx c
    cdef uint16_t legal[8][GRID]
    if tile == NO_TILE:
        return 0
    place_ctx(g, R, p, level, False, &c)
    return tile_legal_rows(g, R, p, tile, &c, legal)


cdef inline bint level_applies(const Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Whether a fallback level differs from the one before it (skip identical work)."""
    if level == LEVEL_ALL:
        return True
    if level == LEVEL_NO_EVENT:
        return rule_restricts_tiles(g)                  # DR-4: drop the event's rule
    cdef const Player_t* pl = &g.pl[p]
    if level == LEVEL_NO_PLANET:
        # 2.8 level 3: drop the planet's restrictions (never, for BGA parity)
        return (planet_has(R, pl.planet, PF_RESTRICTIONS)
                and not (g.options & OPT_PLANET_FALLBACK_BGA))
    # 2.8 level 4: Lacuna / Oblivion, multiplayer, once per game
    return (planet_has(R, pl.planet, PF_WAIVER) and g.n_players >= 2
            and not pl.waiver_used and not (g.options & OPT_LACUNA_OBLIVION_ADJACENCY_WAIVER_OFF)
            and grid_any(pl.occ))


cdef inline int find_place_level(const Game_t* g, const Rules_t* R, int p,
                                 int tile0, int tile1, int max_level) noexcept nogil:
    """DR-2/DR-4: the first fallback level up to max_level at which a tile fits."""
    cdef int level
    cdef PlaceCtx c
    for level in range(max_level + 1):
        if not level_applies(g, R, p, level):
            continue
        place_ctx(g, R, p, level, False, &c)
        if ((tile0 != NO_TILE and tile_fits_anywhere(g, R, p, tile0, &c))
                or (tile1 != NO_TILE and tile_fits_anywhere(g, R, p, tile1, &c))):
            return level
    return LEVEL_NONE


cdef inline int gen_placements(const Game_t* g, const Rules_t* R, int p, int tile0,
                               int tile1, int level, uint32_t* out) noexcept nogil:
    """Every legal placement of the player's depot tiles at a level, as moves."""
    cdef PlaceCtx c
    cdef int n = 0, slot, tile, o
    place_ctx(g, R, p, level, False, &c)
    for slot in range(2):
        tile = tile0 if slot == 0 else tile1
        if tile == NO_TILE:
            continue
        for o in range(R.tile_n_orient[tile]):
            n += orientation_moves(R, &R.orient[tile][o], R.tile_ta[tile], R.tile_tb[tile],
                                   &c, pack_place(slot, o, 0, 0), out + n)
    return n


cdef inline int orientation_moves(const Rules_t* R, const Orient_t* o, int ta, int tb,
                                  const PlaceCtx* c, uint32_t base,
                                  uint32_t* out) noexcept nogil:
    """The moves (base: slot and orientation packed) of orientation o's legal
    anchors, in row then column order, straight from fit_rows4's words: bit
    16 j + x of anchor rows y0.. is the move base + 16 (y0 + j) + x."""
    cdef int y0, n = 0
    cdef uint64_t fit
    for y0 in range(0, GRID + 1 - o.h, 4):
        fit = fit_rows4(R, o, ta, tb, c, y0)
        while fit:
            out[n] = base + <uint32_t>(16 * y0 + __builtin_ctzll(fit))
            n += 1
            fit &= fit - 1
    return n


# ==== footprints ==================================================================

cdef inline void footprint(const Orient_t* o, int x, int y, uint16_t* all_,
                           uint16_t* part_a, uint16_t* part_b) noexcept nogil:
    """Absolute squares of an oriented tile with its box at (x, y)."""
    cdef int i, yy
    grid_zero(all_)
    grid_zero(part_a)
    grid_zero(part_b)
    for i in range(o.h):
        yy = y + i
        all_[yy] = <uint16_t>((o.rows[i] << x) & ROW_BITS)
        part_a[yy] = <uint16_t>((o.rows_a[i] << x) & ROW_BITS)
        part_b[yy] = <uint16_t>((o.rows_b[i] << x) & ROW_BITS)


cdef inline void energy_candidates_after(const Rules_t* R, const Player_t* pl,
                                         const uint16_t* seed, int* mask) noexcept nogil:
    """EN-1/EN-2: terrains of covered squares touching the energy area of `seed`
    (the area runs through Petra's uncovered currents, planets.md 3.11)."""
    cdef uint16_t area[GRID]
    cdef uint16_t ring[GRID]
    cdef uint16_t energy[GRID]
    cdef int t, y
    energy_terrain(R, pl, energy)
    flood_fill(seed, energy, area)
    dilate(area, ring)
    mask[0] = 0
    for t in range(N_TRACKS):
        for y in range(GRID):
            if ring[y] & pl.terr[t][y]:
                mask[0] |= 1 << t
                break


cdef inline void destroy_rovers_on(Game_t* g, int p, const uint16_t* squares) noexcept nogil:
    """PL-6 / RV-5: rovers under a new tile or patch leave the game."""
    cdef Player_t* pl = &g.pl[p]
    cdef int r
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] == RV_PLANET and grid_has(squares, pl.rover_x[r], pl.rover_y[r]):
            pl.rover_status[r] = RV_DESTROYED
            grid_clear_sq(pl.rover_at, pl.rover_x[r], pl.rover_y[r])
            pl.rovers_lost += 1


cdef inline void destroy_lifepods_on(Player_t* pl, const uint16_t* squares) noexcept nogil:
    """PL-6: lifepods under a new tile or patch are destroyed, never scored."""
    cdef int y
    for y in range(GRID):
        pl.lifepods_lost += popcount16(pl.lifepod[y] & squares[y])
        pl.lifepod[y] &= ~squares[y]


cdef inline void push_resolutions(Game_t* g, int p, Item_t a, Item_t b) noexcept nogil:
    """Queue a tile's two resolutions; with events 104/108 the player keeps one."""
    cdef Player_t* pl = &g.pl[p]
    if g.round_rule == RR_TILE_RESOURCES_IGNORE_ONE:
        pl.keep[0] = a
        pl.keep[1] = b
        push_item(g, p, IT_KEEP_ONE, 0, 0, 0)
        return
    if a.kind:
        push_item(g, p, a.kind, a.a, a.b, a.c)
    if b.kind:
        push_item(g, p, b.kind, b.a, b.b, b.c)


cdef inline void tile_resource(const Game_t* g, const Rules_t* R, int p, int terrain,
                               const uint16_t* part, Item_t* res) noexcept nogil:
    """RS-1: the resolution one resource icon of the placed tile gives (kind 0: none)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* ice = R.pmask[pl.planet][PM_ICE]
    cdef int mask, y
    res.kind = 0
    res.a = res.b = res.c = 0
    if terrain == WATER:
        # WA-1: water advances only if a water square of the tile is on ice;
        # c = 1: tech L4 may double it when it resolves (WA-2, RS-2)
        for y in range(GRID):
            if part[y] & ice[y]:
                res.kind = IT_ADVANCE
                res.a = WATER
                res.b = 1
                res.c = 1
                break
    elif terrain == ENERGY:
        # EN-4: candidates fixed right after placement
        energy_candidates_after(R, pl, part, &mask)
        res.kind = IT_ENERGY
        res.a = <uint8_t>mask
    else:
        res.kind = IT_ADVANCE
        res.a = <uint8_t>terrain
        res.b = 1


cdef inline void push_tile_resources(Game_t* g, const Rules_t* R, int p, int tile,
                                     const uint16_t* part_a, const uint16_t* part_b) noexcept nogil:
    """RS-1: each of the placed tile's two resource icons gives one resolution."""
    cdef Item_t res[2]
    tile_resource(g, R, p, R.tile_ta[tile], part_a, &res[0])
    corp_tile_resource(g, R, p, tile, R.tile_ta[tile], part_a, part_b, &res[0])
    tile_resource(g, R, p, R.tile_tb[tile], part_b, &res[1])
    corp_tile_resource(g, R, p, tile, R.tile_tb[tile], part_b, part_a, &res[1])
    push_resolutions(g, p, res[0], res[1])


cdef inline void place_tile(Game_t* g, const Rules_t* R, int p, int tile, int o, int x,
                            int y, bint resources) noexcept nogil:
    """Put a tile on the planet and resolve its physical effects (rules.md 8.1)."""
    cdef Player_t* pl = &g.pl[p]
    cdef const Orient_t* ori = &R.orient[tile][o]
    cdef uint16_t foot[GRID]
    cdef uint16_t part_a[GRID]
    cdef uint16_t part_b[GRID]
    cdef int yy, ta = R.tile_ta[tile], tb = R.tile_tb[tile], mx, my
    footprint(ori, x, y, foot, part_a, part_b)
    for yy in range(GRID):
        pl.occ[yy] |= foot[yy]
        pl.terr[ta][yy] |= part_a[yy]
        pl.terr[tb][yy] |= part_b[yy]
    grid_set(pl.icon[ta], x + ori.dx[ori.icon_a], y + ori.dy[ori.icon_a])
    grid_set(pl.icon[tb], x + ori.dx[ori.icon_b], y + ori.dy[ori.icon_b])
    grid_copy(pl.last_tile, foot)
    pl.tiles_placed += 1
    pl.tile_squares += ori.ncells
    pl.placed_any = 1
    if R.tile_meteor[tile] and ori.meteor >= 0:
        mx = x + ori.dx[ori.meteor]
        my = y + ori.dy[ori.meteor]
        grid_set(pl.msym, mx, my)
        if not tech_no_meteorites(g, R, p) and not grid_has(pl.meteorite, mx, my):
            # ME-1 (a Horizon meteorite carried onto that square already sits there)
            grid_set(pl.meteorite, mx, my)
            pl.meteorites_placed += 1
    destroy_lifepods_on(pl, foot)
    destroy_rovers_on(g, p, foot)
    if resources:
        push_tile_resources(g, R, p, tile, part_a, part_b)
    corp_tile_placed(g, R, p, tile, foot)
    if g.round_rule == RR_PLACE_EXTRA_ROVER_ON_TILE_PLACED_THIS_ROUND and supply_rover(pl) >= 0:
        push_item(g, p, IT_ROVER, 0, 0, 0)              # event 65 (solo)


cdef inline void take_unplaced_tile(Game_t* g, const Rules_t* R, int p, int tile) noexcept nogil:
    """9.2: advance both resources of a tile that cannot be placed.

    Energy counts as the tile's other resource; water needs no ice and is not
    doubled; the meteor is ignored (rules.md 14.7).
    """
    cdef int ta = R.tile_ta[tile], tb = R.tile_tb[tile]
    cdef Item_t a, b
    a.kind = b.kind = IT_ADVANCE
    a.a = <uint8_t>(tb if ta == ENERGY else ta)
    b.a = <uint8_t>(ta if tb == ENERGY else tb)
    a.b = b.b = 1
    a.c = b.c = 0
    g.pl[p].tiles_unplaced += 1
    push_resolutions(g, p, a, b)
