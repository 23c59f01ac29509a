# The greedy bot's learned planet value: an n-tuple network over the planet a
# placement leaves, read from the ntuple fitted table (run-time data:
# core/bots/fitted_tables.pxi).
#
# The value is the sum of 124 table entries: one per 3x3 window of the grid
# (its pattern of covered or off-grid squares, 512 patterns, the same entry for
# every window), and one per row and column (its free squares, and whether a
# meteorite keeps it from scoring, ME-2), per third of the game.  The table is
# fitted within decisions to rollouts of greedy's best placements
# (pu_sim/bots/fitting/ntuple_values.py), so it says which of greedy's
# candidates leave the planet the rollouts prefer, in greedy's units.
#
# Why a table of local patterns: the one-ply placement features judge each
# line and hole on its own; how the free squares are shaped (a corridor one
# square wide, a notch two deep, a jagged edge) decides which tiles still fit
# later, and 3x3 patterns see that shape at the cost of 124 lookups.

cdef enum:
    NTUPLE_WINDOWS = 100  # 3x3 windows of the 12x12 grid (10 x 10 positions)


cdef struct PlanetKeys:
    # What the table reads for one afterstate: each window's pattern and each
    # line's free squares and meteorite (rows 0..11, then columns 0..11).
    int phase
    uint16_t window[NTUPLE_WINDOWS]
    uint8_t line_free[2 * GRID]
    uint8_t line_met[2 * GRID]


cdef inline int ntuple_phase(int round_) noexcept nogil:
    """Third of the game a round falls in (the table's first index)."""
    cdef int phase = (round_ - 1) // NTUPLE_ROUND_SPAN
    return 0 if phase < 0 else min(phase, NTUPLE_PHASES - 1)


cdef inline bint ntuple_on(const Game_t* g, const double* w) noexcept nogil:
    """Does the learned planet value re-rank the placements?  w[G_NTUPLE] set,
    and at most w[G_NTUPLE_PLAYERS] players when that is set.  Why a cap: from
    3 players on it buys no share on random boards and keeps greedy's best 12
    placements valued in full, a third of greedy_learned's 4-player time
    (reports/bots/strength_cost; docs/bots.md, "What the learned bot's parts
    cost and buy")."""
    return w[G_NTUPLE] != 0 and (w[G_NTUPLE_PLAYERS] == 0
                                 or g.n_players <= w[G_NTUPLE_PLAYERS])


cdef void planet_keys(const Game_t* g, const Rules_t* R, int p, const PlaceEval* e,
                      uint32_t move, PlanetKeys* k) noexcept nogil:
    """The table's keys for the planet placement `move` leaves: the tile's
    squares covered, its meteorite (if it brings one, ME-1) blocking its row
    and column."""
    cdef int slot = 0, o = 0, x = 0, y = 0, i, wx, wy, tile
    cdef uint16_t bits
    cdef int col_filled[GRID]
    cdef uint16_t foot[GRID]
    cdef uint16_t part_a[GRID]
    cdef uint16_t part_b[GRID]
    cdef uint16_t board[GRID]
    cdef uint16_t met_rows = e.met_rows, met_cols = e.met_cols
    cdef uint32_t r0, r1, r2
    cdef const Orient_t* ori
    unpack_place(move, &slot, &o, &x, &y)
    tile = depot_tile(g, R, p, slot)
    ori = &R.orient[tile][o]
    footprint(ori, x, y, foot, part_a, part_b)
    if R.tile_meteor[tile] and not tech_no_meteorites(g, R, p) and ori.meteor >= 0:
        met_rows |= <uint16_t>(1 << (y + ori.dy[ori.meteor]))
        met_cols |= <uint16_t>(1 << (x + ori.dx[ori.meteor]))
    k.phase = ntuple_phase(g.round)
    for i in range(GRID):
        board[i] = e.blocked[i] | foot[i]
    for wy in range(GRID - 2):
        r0 = board[wy]
        r1 = board[wy + 1]
        r2 = board[wy + 2]
        for wx in range(GRID - 2):
            k.window[wy * (GRID - 2) + wx] = <uint16_t>(
                ((r0 >> wx) & 7) | (((r1 >> wx) & 7) << 3) | (((r2 >> wx) & 7) << 6))
    # the tile's squares that a line still counts as open: on Petra an open
    # current already counts as covered (e.row_rem leaves it out)
    for i in range(GRID):
        foot[i] &= ~e.pt.cur_open[i]
        col_filled[i] = 0
    for i in range(GRID):
        bits = foot[i]
        while bits:
            col_filled[__builtin_ctz(bits)] += 1
            bits &= bits - 1
    for i in range(GRID):
        k.line_free[i] = <uint8_t>(e.row_rem[i] - popcount16(foot[i]))
        k.line_met[i] = (met_rows >> i) & 1
        k.line_free[GRID + i] = <uint8_t>(e.col_rem[i] - col_filled[i])
        k.line_met[GRID + i] = (met_cols >> i) & 1


cdef double ntuple_value(const Game_t* g, const Rules_t* R, int p, const PlaceEval* e,
                         uint32_t move) noexcept nogil:
    """The learned value (greedy units) of the planet placement `move` leaves."""
    cdef PlanetKeys k
    cdef int i
    cdef double v = 0.0
    planet_keys(g, R, p, e, move, &k)
    for i in range(NTUPLE_WINDOWS):
        v += R.fitted.ntuple_window[k.phase][k.window[i]]
    for i in range(2 * GRID):
        v += R.fitted.ntuple_line[k.phase][k.line_met[i]][k.line_free[i]]
    return v


cdef void add_ntuple(const Game_t* g, const Rules_t* R, const double* w, int p,
                     const PlaceEval* e, const uint32_t* moves, PlaceTopK* top) noexcept nogil:
    """Add w[G_NTUPLE] x (learned value - greedy's best's) to the kept
    placements' values, as the placement values re-rank them."""
    cdef int i
    cdef double best = ntuple_value(g, R, p, e, moves[top.index[0]])
    for i in range(1, top.n):
        top.value[i] += w[G_NTUPLE] * (ntuple_value(g, R, p, e, moves[top.index[i]]) - best)
