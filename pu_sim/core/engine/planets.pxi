# The asymmetric planets' own rules (planets.md section 3).
#
# Grid shapes (holes, the void, Cerberus' gaps), edges and first-tile squares
# live in the planet masks; this room holds what needs code: placement
# restrictions (Arashi ring, K-273 ice-or-land, Persephone quadrant icons,
# Pajitnov slide-in, Tartarus chasm), rover limits (K'aax toxic squares,
# Tartarus chasm), Petra's currents, and the scoring extras (Gaia cities,
# Cerberus sub-planets).  Restrictions are computed bit-parallel like the rest
# of placement: one mask of legal columns per orientation and anchor row.

cdef inline bint planet_has(const Rules_t* R, int planet, uint32_t flag) noexcept nogil:
    return (R.planet_flags[planet] & flag) != 0


cdef void slide_setup(const Player_t* pl, PlaceCtx* c) noexcept nogil:
    """Per-row extremes and per-column coverage above/below, for the slide test."""
    cdef int y
    cdef uint16_t acc = 0
    for y in range(GRID):
        c.occ[y] = pl.occ[y]
        if pl.occ[y]:
            c.lo[y] = <int8_t>__builtin_ctz(pl.occ[y])
            c.hi[y] = <int8_t>(31 - __builtin_clz(pl.occ[y]))
        else:
            c.lo[y] = GRID
            c.hi[y] = -1
        c.above[y] = acc                     # covered squares in rows above y
        acc |= pl.occ[y]
    acc = 0
    for y in range(GRID - 1, -1, -1):
        c.below[y] = acc                     # covered squares in rows below y
        acc |= pl.occ[y]


cdef inline uint16_t slide_straight(const PlaceCtx* c, const Orient_t* o, int y) noexcept nogil:
    """Pajitnov, add-on rulebook: pushed in a straight line from outside (planets.md 3.9).

    Along the way only covered squares block; from the left, every covered square
    of a tile row left of that row's rightmost square is in the way (gaps too).
    """
    cdef uint16_t left = 0xFFFF, right = 0xFFFF, up = 0xFFFF, down = 0xFFFF
    cdef int i, k, r
    for i in range(o.h):
        r = y + i
        k = c.lo[r] - o.row_maxx[i]          # x + maxx <= lowest covered column
        left &= <uint16_t>(((1 << (k + 1)) - 1) if k >= 0 else 0)
        k = c.hi[r] - o.row_minx[i]          # x + minx >= highest covered column
        if k > 0:
            right &= <uint16_t>~((1 << k) - 1)
    for i in range(o.w):
        up &= <uint16_t>~(c.above[y + o.col_maxy[i]] >> i)
        down &= <uint16_t>~(c.below[y + o.col_miny[i]] >> i)
    return left | right | up | down


cdef inline uint16_t slide_one_step(const PlaceCtx* c, const Orient_t* o, int y) noexcept nogil:
    """Pajitnov, BGA and designer FAQ Q7: shifted one square some way, it is free."""
    cdef uint16_t left = 0xFFFF, right = 0xFFFF, up = 0xFFFF, down = 0xFFFF
    cdef int i, r
    for i in range(o.ncells):
        r = y + o.dy[i]
        left &= <uint16_t>~(<uint16_t>(c.occ[r] << 1) >> o.dx[i])
        right &= <uint16_t>~(c.occ[r] >> (o.dx[i] + 1))
        if r > 0:
            up &= <uint16_t>~(c.occ[r - 1] >> o.dx[i])
        if r < GRID - 1:
            down &= <uint16_t>~(c.occ[r + 1] >> o.dx[i])
    return left | right | up | down


cdef uint16_t planet_row_filter(const Rules_t* R, const PlaceCtx* c, const Orient_t* o,
                                int ta, int tb, int y, uint16_t fit) noexcept nogil:
    """Columns of anchor row y that satisfy the planet's placement restrictions."""
    cdef const uint16_t* pm
    cdef uint16_t all_a = 0xFFFF, all_b, mask_a, mask_b
    cdef int i, r
    cdef uint32_t f = c.prules
    if f & PF_RING_ANCHOR:
        # Arashi: a tile on the ring must also reach outside rows 5-6 (3.1)
        pm = R.pmask[c.planet][PM_RING]
        for i in range(o.ncells):
            all_a &= pm[y + o.dy[i]] >> o.dx[i]
        fit &= ~all_a
    if f & PF_ICE_OR_LAND:
        # K-273: all squares on printed ice, or none (3.5)
        pm = R.pmask[c.planet][PM_ICE]
        all_a = 0xFFFF
        all_b = 0xFFFF
        for i in range(o.ncells):
            r = y + o.dy[i]
            all_a &= pm[r] >> o.dx[i]
            all_b &= ~pm[r] >> o.dx[i]
        fit &= all_a | all_b
    if f & PF_QUADRANT_ICON_BAN:
        # Persephone: no icon in the quadrant that bans its resource (3.10)
        mask_a = R.pmask[c.planet][PM_BAN0 + ta][y + o.dy[o.icon_a]] >> o.dx[o.icon_a]
        mask_b = R.pmask[c.planet][PM_BAN0 + tb][y + o.dy[o.icon_b]] >> o.dx[o.icon_b]
        fit &= ~(mask_a | mask_b)
    if f & PF_SINGLE_CHASM_SIDE:
        # Tartarus: every square on one side of the chasm (3.12)
        pm = R.pmask[c.planet][PM_SIDE_A]
        all_a = 0xFFFF
        all_b = 0xFFFF
        for i in range(o.ncells):
            r = y + o.dy[i]
            all_a &= pm[r] >> o.dx[i]
            all_b &= ~pm[r] >> o.dx[i]
        fit &= all_a | all_b
    if f & PF_SLIDE_IN and fit:
        fit &= slide_one_step(c, o, y) if c.one_step else slide_straight(c, o, y)
    return fit


cdef inline bint toxic_open(const Rules_t* R, const Player_t* pl, int x, int y) noexcept nogil:
    """K'aax: an uncovered toxic square, which no rover may enter (3.6)."""
    return (planet_has(R, pl.planet, PF_TOXIC) and grid_has(R.pmask[pl.planet][PM_TOXIC], x, y)
            and not grid_has(pl.occ, x, y))


cdef inline bint rover_may_step(const Rules_t* R, const Player_t* pl, int fx, int fy,
                                int x, int y) noexcept nogil:
    """Planet limits on a rover step from (fx, fy) to (x, y) (planets.md 2.7, 3.6, 3.12)."""
    cdef const uint16_t* cross
    if toxic_open(R, pl, x, y):
        return False
    if planet_has(R, pl.planet, PF_SINGLE_CHASM_SIDE) and (
            grid_has(R.pmask[pl.planet][PM_SIDE_A], fx, fy)
            != grid_has(R.pmask[pl.planet][PM_SIDE_A], x, y)):
        # Tartarus: never across the chasm, except diagonally at its two faded corners
        cross = R.pmask[pl.planet][PM_CROSS]
        return fx != x and fy != y and grid_has(cross, fx, fy) and grid_has(cross, x, y)
    return True


cdef inline void rover_passable(const Rules_t* R, const Player_t* pl, uint16_t* out) noexcept nogil:
    """Squares a rover may stand on or pass: grid squares, minus K'aax's open toxic ones."""
    cdef int y
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef bint toxic = planet_has(R, pl.planet, PF_TOXIC)
    for y in range(GRID):
        out[y] = grid[y]
        if toxic:
            out[y] &= ~(R.pmask[pl.planet][PM_TOXIC][y] & ~pl.occ[y])


cdef struct RoverWalk:
    # The bots' breadth-first walk of rover steps from a set of squares, one
    # step (distance) at a time, on packed boards (bitboard.pxi: a step is a
    # few word operations instead of a pass over 12 rows).
    uint64_t passable[3]
    uint64_t side_a[3]                   # Tartarus: steps never cross the chasm
    bint chasm
    bint diagonal                        # Cosmos: diagonal steps count
    uint64_t seen[3]
    uint64_t front[3]                    # the squares first reached at this distance


cdef inline bint walk_start(RoverWalk* r, const Rules_t* R, const Player_t* pl,
                            const uint16_t* targets) noexcept nogil:
    """Start at the passable squares of targets (distance 0); False if none.
    Never across Tartarus' chasm, so its faded corners do not count; Cosmos'
    diagonals do (except on Tartarus)."""
    cdef uint16_t rows[GRID]
    cdef int k
    rover_passable(R, pl, rows)
    pack_board(rows, r.passable)
    r.chasm = planet_has(R, pl.planet, PF_SINGLE_CHASM_SIDE)
    r.diagonal = corp_diagonal_reach(R, pl) and not r.chasm
    if r.chasm:
        pack_board(R.pmask[pl.planet][PM_SIDE_A], r.side_a)
    pack_board(targets, r.front)
    for k in range(3):
        r.front[k] &= r.passable[k]
        r.seen[k] = r.front[k]
    return (r.front[0] | r.front[1] | r.front[2]) != 0


cdef inline void walk_near(const uint64_t* f, bint diagonal, uint64_t* out) noexcept nogil:
    """Squares one orthogonal (and with `diagonal`, diagonal) step from f."""
    out[0] = spread_rows(f[0], 0, f[1])
    out[1] = spread_rows(f[1], f[0], f[2])
    out[2] = spread_rows(f[2], f[1], 0)
    if diagonal:
        out[0] |= diagonal_rows(f[0], 0, f[1])
        out[1] |= diagonal_rows(f[1], f[0], f[2])
        out[2] |= diagonal_rows(f[2], f[1], 0)


cdef inline bint walk_step(RoverWalk* r) noexcept nogil:
    """Advance the front one step (to the next distance); False when it is empty."""
    cdef uint64_t near[3]
    cdef uint64_t part[3]
    cdef uint64_t other[3]
    cdef int k
    if r.chasm:                          # each side reaches only itself
        for k in range(3):
            part[k] = r.front[k] & r.side_a[k]
        walk_near(part, False, near)
        for k in range(3):
            part[k] = r.front[k] & ~r.side_a[k]
        walk_near(part, False, other)
        for k in range(3):
            near[k] = (near[k] & r.side_a[k]) | (other[k] & ~r.side_a[k])
    else:
        walk_near(r.front, r.diagonal, near)
    for k in range(3):
        r.front[k] = near[k] & r.passable[k] & ~r.seen[k]
        r.seen[k] |= r.front[k]
    return (r.front[0] | r.front[1] | r.front[2]) != 0


cdef inline bint walk_reached(const RoverWalk* r, int x, int y) noexcept nogil:
    """Whether square (x, y) is on the current front."""
    return (r.front[y >> 2] >> (16 * (y & 3) + x)) & 1


cdef inline bint currents_count_covered(const Game_t* g, const Rules_t* R,
                                        int planet) noexcept nogil:
    """Petra (BGA, default): uncovered currents count as covered for lines (3.11)."""
    return (planet_has(R, planet, PF_CURRENTS)
            and not (g.options & OPT_PETRA_CURRENTS_COUNT_COVERED_OFF))


cdef inline void covered_for_lines(const Game_t* g, const Rules_t* R, const Player_t* pl,
                                   uint16_t* out) noexcept nogil:
    """Squares that count as covered when rows and columns are checked."""
    cdef int y
    cdef bint currents = currents_count_covered(g, R, pl.planet)
    for y in range(GRID):
        out[y] = pl.occ[y]
        if currents:
            out[y] |= R.pmask[pl.planet][PM_CURRENT][y]


cdef inline void open_line_squares(const Game_t* g, const Rules_t* R, const Player_t* pl,
                                   uint8_t* row_open, uint8_t* col_open) noexcept nogil:
    """Grid squares each row and column still has to cover (covered_for_lines)."""
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef uint16_t covered[GRID]
    cdef uint16_t bits
    cdef int x, y
    covered_for_lines(g, R, pl, covered)
    for x in range(GRID):
        col_open[x] = 0
    for y in range(GRID):
        bits = grid[y] & ~covered[y] & ROW_BITS
        row_open[y] = <uint8_t>popcount16(bits)
        while bits:
            col_open[__builtin_ctz(bits)] += 1
            bits &= bits - 1


cdef inline void energy_terrain(const Rules_t* R, const Player_t* pl, uint16_t* out) noexcept nogil:
    """Energy terrain for the energy-area flood: tiles, and Petra's uncovered currents."""
    cdef int y
    for y in range(GRID):
        out[y] = pl.terr[ENERGY][y] | (R.pmask[pl.planet][PM_CURRENT][y] & ~pl.occ[y])


cdef int planet_extra_medals(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Gaia's uncovered cities (3.4) and Cerberus' complete sub-planets (3.2)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int planet = pl.planet, s, y, medals = 0
    cdef uint16_t cover
    cdef const uint16_t* region
    cdef bint complete
    if planet_has(R, planet, PF_CITIES):
        for y in range(GRID):
            cover = pl.occ[y]
            if g.options & OPT_GAIA_CITY_COVERED_BY_PATCH_OFF:
                cover &= ~pl.patch[y]
            medals += R.city_medals[planet] * popcount16(R.pmask[planet][PM_CITY][y] & ~cover)
    if planet_has(R, planet, PF_SUBPLANETS):
        for s in range(3):
            region = R.pmask[planet][(PM_SUBBGA1 if g.options & OPT_CERBERUS_BONUS_REGION_BGA_BOXES
                                      else PM_SUB1) + s]
            complete = True
            for y in range(GRID):
                if region[y] & ~pl.occ[y]:
                    complete = False
                    break
            if complete and grid_any(R.pmask[planet][PM_SUB1 + s]):
                medals += R.subplanet_bonus[planet]
    return medals
