# The greedy bot's learned placement correction: afterstate features of a
# candidate placement (open regions the tile leaves, lines it brings close to
# complete, its size), valued by a table fitted to rollouts (the place_fit
# table, run-time data: core/bots/fitted_tables.pxi).
#
# Why: the hand-made placement features value each square and line on its own.
# Rollouts show that, at equal greedy value, a placement that splits the free
# land into more, smaller regions loses medals later, and that tile size is
# worth more early than late.  Counting regions needs a flood fill per
# candidate, so only greedy's best PLACE_FIT_K placements are re-ranked (NEXT_FIT_K
# when the next-tile lookahead is on: core/bots/greedy_next_fit.pxi).

cdef enum:
    PLACE_FIT_K = 6       # greedy-best placements the fitted values re-rank


cdef enum:
    PLF_SIZE = 0          # squares the tile covers
    PLF_REGIONS = 1       # connected regions of free grid squares after it
    PLF_FREE_1 = 2        # free squares in regions of 1 square
    PLF_FREE_2_3 = 3      # ... of 2-3 squares
    PLF_FREE_4_7 = 4      # ... of 4-7 squares
    PLF_FREE_8 = 5        # ... of 8 squares or more
    PLF_LINE_1 = 6        # medals of meteorite-free lines missing 1 square
    PLF_LINE_2 = 7        # ... missing 2 squares
    PLF_LINE_3_4 = 8      # ... missing 3-4 squares


cdef struct PlaceTopK:
    # Greedy's best `cap` placements, best first (ties: the earlier move); cap is
    # PLACE_FIT_K, or NEXT_FIT_K when the next-tile lookahead re-ranks them too.
    int n
    int cap
    double value[NEXT_FIT_K]
    int index[NEXT_FIT_K]


cdef inline double topk_floor(const PlaceTopK* t) noexcept nogil:
    """What a placement must beat to enter (-inf while there is room)."""
    return t.value[t.cap - 1] if t.n == t.cap else -1e300


cdef inline bint topk_beats(double v, int i, double v2, int i2) noexcept nogil:
    """Option (v, i) ranks above (v2, i2): higher value, or the earlier move on
    an exact tie, so the kept set does not depend on the order of the offers."""
    return v > v2 or (v == v2 and i < i2)


cdef inline void topk_offer(PlaceTopK* t, int i, double v) noexcept nogil:
    """Keep option i if it beats the floor; best first, ties by move order."""
    cdef int j
    if t.n == t.cap and not topk_beats(v, i, t.value[t.cap - 1], t.index[t.cap - 1]):
        return
    j = t.n if t.n < t.cap else t.cap - 1
    while j > 0 and topk_beats(v, i, t.value[j - 1], t.index[j - 1]):
        t.value[j] = t.value[j - 1]
        t.index[j] = t.index[j - 1]
        j -= 1
    t.value[j] = v
    t.index[j] = i
    if t.n < t.cap:
        t.n += 1


cdef void topk_cut(PlaceTopK* t, int k) noexcept nogil:
    """Keep the k best of t by their current values (re-ranked since they were
    offered, so no longer in order): offered again to a top-k of cap k, best
    first, ties by move order."""
    cdef PlaceTopK best
    cdef int i
    if k >= t.n:
        return
    best.n = 0
    best.cap = k
    for i in range(t.n):
        topk_offer(&best, t.index[i], t.value[i])
    for i in range(best.n):
        t.value[i] = best.value[i]
        t.index[i] = best.index[i]
    t.n = best.n


cdef inline bint topk_holds(const PlaceTopK* t, int i) noexcept nogil:
    """Option i is among those kept."""
    cdef int k
    for k in range(t.n):
        if t.index[k] == i:
            return True
    return False


cdef inline int place_fit_phase(int round_) noexcept nogil:
    """Part of the game a round falls in (the table's first index)."""
    cdef int phase = (round_ - 1) // PLACE_FIT_ROUND_SPAN
    return 0 if phase < 0 else min(phase, PLACE_FIT_PHASES - 1)


cdef void placement_features(const Rules_t* R, const Player_t* pl, const PlaceEval* e,
                             const Orient_t* ori, int x, int y, double* f) noexcept nogil:
    """f[0..N_PLACE_FEATURES) of the planet with the tile's box at (x, y)."""
    cdef uint16_t foot[GRID]
    cdef uint16_t part_a[GRID]
    cdef uint16_t part_b[GRID]
    cdef uint16_t free[GRID]
    cdef uint64_t rest[3]
    cdef uint64_t comp[3]
    cdef int i, yy, size, covered
    for i in range(N_PLACE_FEATURES):
        f[i] = 0.0
    f[PLF_SIZE] = ori.ncells
    footprint(ori, x, y, foot, part_a, part_b)
    for yy in range(GRID):
        free[yy] = ~(e.blocked[yy] | foot[yy]) & ROW_BITS
    pack_board(free, rest)
    size = next_region(rest, comp)
    while size:
        f[PLF_REGIONS] += 1.0
        if size == 1:
            f[PLF_FREE_1] += 1.0
        elif size <= 3:
            f[PLF_FREE_2_3] += size
        elif size <= 7:
            f[PLF_FREE_4_7] += size
        else:
            f[PLF_FREE_8] += size
        size = next_region(rest, comp)
    for i in range(GRID):                          # the tile's squares per line
        if not (e.met_rows >> i) & 1:
            covered = ori.rowcnt[i - y] if y <= i < y + ori.h else 0
            line_feature(f, e.row_rem[i] - covered, R.row_medal[pl.planet][i])
        if not (e.met_cols >> i) & 1:
            covered = ori.colcnt[i - x] if x <= i < x + ori.w else 0
            line_feature(f, e.col_rem[i] - covered, R.col_medal[pl.planet][i])


cdef inline void line_feature(double* f, int missing, int medal) noexcept nogil:
    """Count a line's medal under the number of squares it still misses."""
    if missing == 1:
        f[PLF_LINE_1] += medal
    elif missing == 2:
        f[PLF_LINE_2] += medal
    elif missing == 3 or missing == 4:
        f[PLF_LINE_3_4] += medal


cdef double place_fit_value(const Game_t* g, const Rules_t* R, int p, const PlaceEval* e,
                            uint32_t move) noexcept nogil:
    """The fitted table's value of placement `move` (greedy units)."""
    cdef int slot = 0, o = 0, x = 0, y = 0, k
    cdef double f[N_PLACE_FEATURES]
    cdef double v = 0.0
    cdef const double* table
    unpack_place(move, &slot, &o, &x, &y)
    placement_features(R, &g.pl[p], e, &R.orient[depot_tile(g, R, p, slot)][o], x, y, f)
    table = R.fitted.place_fit[place_fit_phase(g.round)]
    for k in range(N_PLACE_FEATURES):
        v += table[k] * f[k]
    return v
