# The greedy bot's value of a tile placement: lines completed and filled, holes,
# contact, pockets, what the tile covers. The costliest part of a greedy decision,
# so it scans rows with bit masks and bounds a placement before its full value.
#
# Why long: every term of a placement's value (lines, columns, shape, pockets,
# contact, currents) and the bounds that prune placements share PlaceEval and
# inline together.

# ==== valuing placements ===========================================================

cdef enum:
    MAX_ECOMP = 250                      # energy areas tracked by the evaluator
    MAX_LINE_FILL = 5                    # squares a tile (5 at most) fills in a line
    NB_GUARD = 0xFFFFE001                # a wide row's off-board bits: column -1 and 12 on


cdef struct PlaceEval:
    # Per-decision data shared by every candidate placement.
    double track_val[N_TRACKS]
    double water2_val                    # water advancing twice (tech L4)
    int movable
    double energy_best                   # best value an energy icon could take
    uint16_t blocked[GRID]               # covered or not a grid square
    uint32_t wide[GRID + 4]              # wide_blocked of rows -2 .. GRID + 1
    uint64_t sides[GRID]                 # row y's blocked sides of each square (bit 5x on)
    uint16_t tokens_in_row[GRID]         # lifepods or rovers in row y
    uint8_t row_rem[GRID]                # uncovered grid squares left in row y
    uint8_t col_rem[GRID]
    uint16_t met_rows                    # rows holding a meteorite (ME-2)
    uint16_t met_cols
    # line_gain of filling n squares of row y, [1]: with the tile's meteorite
    # in it; looked up per candidate instead of computed (the hottest sum)
    double row_gain[GRID][2][MAX_LINE_FILL + 1]
    double col_gain[GRID][2][MAX_LINE_FILL + 1]
    # what the gains above were computed for, so the next decision prepared in
    # this buffer recomputes only the lines whose open squares or meteorite
    # changed (the lookaheads prepare planets one placement apart)
    int gains_round                      # -1: none yet (place_eval_init)
    int gains_planet
    double gains_w[3]                    # G_LINE_COMPLETE, G_LINE_FILL, G_LINE_CHANCE
    # Read for the terrains the depot's tiles show only (prepared for those):
    int shown                            # bit t: a depot tile shows terrain t
    int n_ecomp                          # energy: existing energy areas ...
    uint8_t ecomp_adj[MAX_ECOMP]         # ... and the tracks of terrain touching each
    uint8_t comp_at[GRID][GRID]          # energy area of each square (255: none)
    uint8_t terr_at[GRID][GRID]          # placed terrain of each square (255: none)
    int rover_next                       # next rover-track space has a rover milestone
    uint8_t lifepod_dist[GRID][GRID]     # rover: BFS distance to the nearest lifepod
    Incentive inc                        # what the player's objective cards reward
    ShapeTargets st                      # where its rectangle and area cards are built
    uint16_t near_terr[N_TERRAINS][GRID]  # shown terrain t: squares touching placed t
    PlanetTerms pt                       # cities, sub-planets, Petra's currents


cdef void lifepod_distances(const Game_t* g, const Rules_t* R, int p,
                            uint8_t dist[GRID][GRID]) noexcept nogil:
    """Grid distance (rover steps over passable squares) to the nearest lifepod."""
    cdef RoverWalk r
    cdef int x, y, k, b, d = 0
    cdef bint more = walk_start(&r, R, &g.pl[p], g.pl[p].lifepod)
    cdef uint64_t bits
    for y in range(GRID):
        for x in range(GRID):
            dist[y][x] = 99
    while more:
        for k in range(3):
            bits = r.front[k]
            while bits:
                b = __builtin_ctzll(bits)
                bits &= bits - 1
                dist[4 * k + b // 16][b % 16] = <uint8_t>d
        more = walk_step(&r)
        d += 1


cdef inline int touching_tracks(const Player_t* pl, const uint16_t* area) noexcept nogil:
    """Tracks of the placed terrain orthogonally adjacent to an area (EN-2)."""
    cdef uint16_t ring[GRID]
    cdef int t, y, mask = 0
    dilate(area, ring)
    for t in range(N_TRACKS):
        for y in range(GRID):
            if ring[y] & pl.terr[t][y]:
                mask |= 1 << t
                break
    return mask


cdef inline double line_chance_at(const Rules_t* R, int rem, bint meteor,
                                  int round_) noexcept nogil:
    """Measured chance (the line_chance table) that a line with rem open squares
    at the start of round_ scores its medal at the end; round_ past the last:
    the game's end."""
    if rem > LINE_CHANCE_SQUARES - 1:
        rem = LINE_CHANCE_SQUARES - 1
    round_ = 1 if round_ < 1 else min(round_, LINE_CHANCE_ROUNDS + 1)
    return R.fitted.line_chance[1 if meteor else 0][rem][round_ - 1]


cdef void line_chances(const Game_t* g, const Rules_t* R, const double* w, int medal,
                       int rem, bint meteor, double* chance,
                       double* chance_met) noexcept nogil:
    """What filling n of a line's rem open squares this round adds to its chance
    of scoring its medal (line_chance_at), for n = 1..min(rem, MAX_LINE_FILL);
    chance_met: when the tile's own meteorite lands in the line."""
    cdef int n, r = g.round + 1                 # the chances after this round
    cdef double before
    for n in range(MAX_LINE_FILL + 1):
        chance[n] = 0.0
        chance_met[n] = 0.0
    if w[G_LINE_CHANCE] == 0.0 or rem == 0:
        return
    before = line_chance_at(R, rem, meteor, r)
    for n in range(1, min(rem, MAX_LINE_FILL) + 1):
        chance[n] = w[G_LINE_CHANCE] * medal * (
            line_chance_at(R, rem - n, meteor, r) - before)
        chance_met[n] = w[G_LINE_CHANCE] * medal * (
            line_chance_at(R, rem - n, True, r) - before)


cdef void line_gains(const Game_t* g, const Rules_t* R, const double* w, int medal,
                     int rem, bint meteor,
                     double gain[2][MAX_LINE_FILL + 1]) noexcept nogil:
    """line_gain of filling n = 0..MAX_LINE_FILL of a line's rem open squares,
    without ([0]) and with ([1]) the tile's meteorite landing in the line."""
    cdef double chance[2][MAX_LINE_FILL + 1]
    cdef int n, met
    cdef double complete = 0.0 if meteor else w[G_LINE_COMPLETE] * medal
    cdef double unit = w[G_LINE_FILL] * medal / rem if rem else 0.0
    line_chances(g, R, w, medal, rem, meteor, chance[0], chance[1])
    for met in range(2):
        for n in range(MAX_LINE_FILL + 1):
            gain[met][n] = line_gain(n, rem, complete, unit, met, chance[met])


cdef inline void place_eval_init(PlaceEval* e) noexcept nogil:
    """A new evaluator buffer: nothing to reuse from it yet."""
    e.gains_round = -1


cdef inline bint gains_reusable(const Game_t* g, const double* w, int planet,
                                const PlaceEval* e) noexcept nogil:
    """Whether e's line gains were computed with the same round, planet (its
    medals) and line weights: everything line_gains reads but the line."""
    return (e.gains_round == g.round and e.gains_planet == planet
            and e.gains_w[0] == w[G_LINE_COMPLETE] and e.gains_w[1] == w[G_LINE_FILL]
            and e.gains_w[2] == w[G_LINE_CHANCE])


cdef void prepare_line_gains(const Game_t* g, const Rules_t* R, const double* w,
                             const Player_t* pl, PlaceEval* e) noexcept nogil:
    """Open squares, meteorites and line gains of every row and column; a line
    whose open squares and meteorite are those of the last decision prepared
    in e keeps its gains (the same inputs give the same line_gains)."""
    cdef bint reuse = gains_reusable(g, w, pl.planet, e)
    cdef uint8_t row_was[GRID]
    cdef uint8_t col_was[GRID]
    cdef uint16_t mrows, mcols, rows_was = e.met_rows, cols_was = e.met_cols
    cdef int i
    if reuse:
        memcpy(row_was, e.row_rem, GRID)
        memcpy(col_was, e.col_rem, GRID)
    open_line_squares(g, R, pl, e.row_rem, e.col_rem)
    meteorite_lines(pl, &mrows, &mcols)
    e.met_rows = mrows
    e.met_cols = mcols
    for i in range(GRID):
        if not (reuse and e.row_rem[i] == row_was[i] and not ((mrows ^ rows_was) >> i) & 1):
            line_gains(g, R, w, R.row_medal[pl.planet][i], e.row_rem[i], (mrows >> i) & 1,
                       e.row_gain[i])
        if not (reuse and e.col_rem[i] == col_was[i] and not ((mcols ^ cols_was) >> i) & 1):
            line_gains(g, R, w, R.col_medal[pl.planet][i], e.col_rem[i], (mcols >> i) & 1,
                       e.col_gain[i])
    e.gains_round = g.round
    e.gains_planet = pl.planet
    e.gains_w[0] = w[G_LINE_COMPLETE]
    e.gains_w[1] = w[G_LINE_FILL]
    e.gains_w[2] = w[G_LINE_CHANCE]


cdef int shown_terrains(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Terrains the tiles of p's pending placement show (every terrain for any
    other decision): what the evaluator prepares for one terrain (areas that
    touch it, energy areas, lifepod distances for rover tiles) is read only
    when a tile of it is placed."""
    cdef int slot, tile, shown = 0
    if g.decision != D_PLACE:
        return (1 << N_TERRAINS) - 1
    for slot in range(2):
        tile = depot_tile(g, R, p, slot)
        if tile != NO_TILE:
            shown |= (1 << R.tile_ta[tile]) | (1 << R.tile_tb[tile])
    return shown


cdef void prepare_place_eval(const Game_t* g, const Rules_t* R, const double* w, int p,
                             PlaceEval* e) noexcept nogil:
    """Everything about the planet that does not depend on the candidate."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef int t, y, pos
    e.wide[0] = e.wide[1] = e.wide[GRID + 2] = e.wide[GRID + 3] = 0xFFFFFFFF  # off the board
    objective_incentives(g, R, w, p, &e.inc)
    shape_targets(g, R, w, p, &e.inc, &e.st)
    prepare_planet_terms(g, R, w, p, &e.pt)
    prepare_line_gains(g, R, w, pl, e)
    e.movable = movable_tracks(g, R, p)
    for t in range(N_TRACKS):
        e.track_val[t] = (track_value(g, R, w, p, t, 1, &e.inc)
                          if (e.movable >> t) & 1 else 0.0)
    e.water2_val = track_value(g, R, w, p, WATER, 2, &e.inc)
    e.shown = shown_terrains(g, R, p)
    for t in range(N_TERRAINS):
        if (e.shown >> t) & 1:
            dilate(pl.terr[t], e.near_terr[t])
    e.energy_best = best_of(e.track_val, e.movable)
    for y in range(GRID):
        e.blocked[y] = (pl.occ[y] | ~grid[y]) & ROW_BITS
        e.wide[y + 2] = (<uint32_t>e.blocked[y] << 1) | NB_GUARD
        e.tokens_in_row[y] = pl.lifepod[y] | pl.rover_at[y]
    for y in range(GRID):
        e.sides[y] = blocked_sides(e, y)
    pos = pl.track[ROVER]
    e.rover_next = (pos < TOP and R.space[pl.corp][ROVER][pos + 1][SP_ROVER] != 0
                    and supply_rover(pl) >= 0 and grid_any(pl.lifepod))
    if e.rover_next and (e.shown >> ROVER) & 1:
        lifepod_distances(g, R, p, e.lifepod_dist)
    e.n_ecomp = 0
    if (e.shown >> ENERGY) & 1:
        prepare_energy_areas(R, pl, e)


cdef void prepare_energy_areas(const Rules_t* R, const Player_t* pl,
                               PlaceEval* e) noexcept nogil:
    """Placed terrain per square, existing energy areas and what touches each
    (EN-1/EN-2 answered by lookups instead of a flood fill per candidate)."""
    cdef int t, x, y, yy
    cdef uint16_t bits
    cdef uint16_t rest[GRID]
    cdef uint16_t seed[GRID]
    cdef uint16_t comp[GRID]
    for y in range(GRID):
        for x in range(GRID):
            e.terr_at[y][x] = 255
            e.comp_at[y][x] = 255
    energy_terrain(R, pl, rest)                    # Petra: open currents are energy
    for t in range(N_TERRAINS):
        for y in range(GRID):
            bits = rest[y] if t == ENERGY else pl.terr[t][y]
            while bits:
                e.terr_at[y][__builtin_ctz(bits)] = <uint8_t>t
                bits &= bits - 1
    e.n_ecomp = 0
    while e.n_ecomp < MAX_ECOMP and lowest_square(rest, &x, &y):
        grid_zero(seed)
        seed[y] = <uint16_t>(1 << x)
        flood_fill(seed, rest, comp)
        e.ecomp_adj[e.n_ecomp] = <uint8_t>touching_tracks(pl, comp)
        for yy in range(GRID):
            rest[yy] &= ~comp[yy]
            bits = comp[yy]
            while bits:
                e.comp_at[yy][__builtin_ctz(bits)] = <uint8_t>e.n_ecomp
                bits &= bits - 1
        e.n_ecomp += 1


cdef struct TileEval:
    # Per-decision facts about one depot tile, hoisted out of the candidate loop.
    int tile, ta, tb
    bint meteor                          # its meteor symbol will place a meteorite
    int water_side                       # part (0 A, 1 B) with the water icon, or -1
    double fixed                         # resources not depending on the square, size
    double water_val                     # the water advance if a water square is on ice
    double rest_extra                    # bound on the rover-reach bonus
    bint energy                          # has an energy icon (exact value in the rest)
    bint rover_reach                     # a rover milestone comes with this tile
    int size_a, size_b                   # squares of each part
    # placement_cols_bound: valid unless a term it bounds can be positive in a
    # way it does not count (Petra's currents; a lost-token weight below 0)
    bint cols_bound_on
    double cols_other_ub                 # placement_cols beyond columns and shapes
    double shape_in_ub[MAX_SHAPE_TARGETS]  # shape target k, the tile meeting its rows


cdef void prepare_tile_eval(const Game_t* g, const Rules_t* R, const double* w, int p,
                            int tile, bint resources, const PlaceEval* e,
                            TileEval* t) noexcept nogil:
    cdef int side, terrain
    t.tile = tile
    t.ta = R.tile_ta[tile]
    t.tb = R.tile_tb[tile]
    t.meteor = R.tile_meteor[tile] and not tech_no_meteorites(g, R, p)
    t.size_a = 0
    for side in range(R.orient[tile][0].ncells):
        if R.orient[tile][0].part[side] == 0:
            t.size_a += 1
    t.size_b = R.tile_size[tile] - t.size_a
    t.water_side = -1
    t.fixed = w[G_SIZE] * R.tile_size[tile] + e.inc.icon[t.ta] + e.inc.icon[t.tb]
    t.water_val = 0.0
    t.energy = False
    t.rover_reach = e.rover_next and resources and (t.ta == ROVER or t.tb == ROVER)
    t.rest_extra = w[G_REACH] if (t.rover_reach and w[G_REACH] > 0) else 0.0
    for side in range(2):
        terrain = t.ta if side == 0 else t.tb
        if terrain == WATER:
            t.water_side = side                 # terrain fact: no ice penalty for water
            if resources:
                t.water_val = (e.water2_val if tech_doubles_water(g, R, p)
                               else e.track_val[WATER])
        elif not resources:
            continue
        elif terrain == ENERGY:
            t.energy = True
            t.fixed += e.energy_best            # the best it could be; exact in the rest
        else:
            t.fixed += e.track_val[terrain]
    if t.energy and e.energy_best < 0:
        # the rest trades energy_best for the touched tracks' best, or for 0
        # when none can move: a gain then, which the rest's bound must allow
        t.rest_extra -= e.energy_best
    prepare_cols_bound(R, w, e, t)


cdef void prepare_depot_tiles(const Game_t* g, const Rules_t* R, const double* w, int p,
                              const PlaceEval* e, TileEval* tiles) noexcept nogil:
    """prepare_tile_eval for each of p's depot tiles (tiles[slot]; a slot
    without a tile is left as it is)."""
    cdef int slot, tile
    cdef bint resources = g.place_from_depot != 1
    for slot in range(2):
        tile = depot_tile(g, R, p, slot)
        if tile != NO_TILE:
            prepare_tile_eval(g, R, w, p, tile, resources, e, &tiles[slot])


cdef void prepare_cols_bound(const Rules_t* R, const double* w, const PlaceEval* e,
                             TileEval* t) noexcept nogil:
    """The per-tile parts of placement_cols_bound: each term of placement_cols
    but the columns and the shape targets at its largest over every placement
    of the tile (at most size squares covering ice, cities or a sub-planet)."""
    cdef int size = t.size_a + t.size_b, k, n, own, c
    cdef double ub, best
    t.cols_bound_on = not (e.pt.currents or w[G_METEORITE] < 0 or w[G_LIFEPOD_LOST] < 0
                           or w[G_ROVER_LOST] < 0 or w[G_ICE] < 0)
    if not t.cols_bound_on:
        return
    ub = max(0.0, t.water_val)
    ub += max(e.inc.cluster[t.ta] * t.size_a, e.inc.spread[t.ta])
    ub += max(e.inc.cluster[t.tb] * t.size_b, e.inc.spread[t.tb])
    ub += max(0.0, e.inc.ice * size)
    if e.inc.ice_left:
        best = 0.0
        for c in range(1, size + 1):
            best = max(best, e.inc.chance_w * chance_added(R, OG_ICE, e.inc.ice_left, c,
                                                           e.inc.chance_round))
        ub += best
    ub += max(0.0, e.inc.edge_icon[t.ta]) + max(0.0, e.inc.edge_icon[t.tb])
    if e.pt.on:
        ub += max(0.0, -e.pt.city_cost * size)
        for k in range(e.pt.n_sub):
            if e.pt.sub_rem[k] > 0:
                best = max(0.0, min(size, e.pt.sub_rem[k] - 1) * e.pt.sub_unit[k])
                if size >= e.pt.sub_rem[k]:
                    best = max(best, e.pt.sub_complete[k])
                ub += best
    t.cols_other_ub = ub
    for k in range(e.st.n):
        if e.st.area[k]:
            t.shape_in_ub[k] = max(0.0, e.st.join[k])
            continue
        own = (t.size_a if e.st.terrain[k] == t.ta
               else (t.size_b if e.st.terrain[k] == t.tb else 0))
        best = e.st.gain[k][0]
        for n in range(1, min(own, MAX_GAIN) + 1):
            best = max(best, e.st.inside[k] * n + e.st.gain[k][n])
        t.shape_in_ub[k] = best + max(0.0, -e.st.spoil[k])


cdef inline double shape_bound(const ShapeTargets* st, const TileEval* t, int y,
                               int h) noexcept nogil:
    """Upper bound of shape_value for every placement of the tile on rows
    y..y+h-1: exact for the targets whose rows it misses."""
    cdef int k
    cdef double v = 0.0
    for k in range(st.n):
        if target_rows_missed(st, k, y, h):
            if not st.area[k]:
                v += st.gain[k][0]
        else:
            v += t.shape_in_ub[k]
    return v


cdef inline double cols_bound_in_rows(const Rules_t* R, const TileEval* t, int o, int y,
                                      const PlaceEval* e) noexcept nogil:
    """The part of placement_cols_bound shared by every column of one (tile,
    orientation, row) group: all but the columns' line gains."""
    return t.cols_other_ub + shape_bound(&e.st, t, y, R.orient[t.tile][o].h)


cdef inline double column_gains(const Orient_t* ori, const TileEval* t, int x,
                                const PlaceEval* e) noexcept nogil:
    """The columns' line gains of a placement at column x (no currents)."""
    cdef int i, k, mx = -1
    cdef double v = 0.0
    if t.meteor and ori.meteor >= 0:
        mx = x + ori.dx[ori.meteor]
    for i in range(ori.w):
        k = x + i
        v += e.col_gain[k][k == mx][ori.colcnt[i]]
    return v


cdef inline double placement_cols_bound(const Rules_t* R, const TileEval* t, int o,
                                        int x, int y, const PlaceEval* e) noexcept nogil:
    """An upper bound of placement_cols (when t.cols_bound_on) at a fraction of
    its cost: the columns' gains exactly, every other term at its largest for
    the tile.  In most lookahead evaluations it and the exact contact count
    prune a candidate before its columns are valued (-15% instructions in a
    greedy_tuned solo game, the same moves)."""
    return cols_bound_in_rows(R, t, o, y, e) + column_gains(&R.orient[t.tile][o], t, x, e)


cdef inline double placement_cols_bound_shaped(const TileEval* t, double shape,
                                               double col_gains) noexcept nogil:
    """placement_cols_bound with the shape targets valued (placement_shape)
    instead of bounded: the bound's loosest term, so a lookahead candidate
    that passes the cheaper bounds is tried on this one before the rest of
    its columns (-1% instructions a greedy_tuned solo game, the same moves)."""
    return t.cols_other_ub + shape + col_gains


cdef inline double placement_rows(const Rules_t* R, const double* w, const TileEval* t, int o,
                                  int y, const PlaceEval* e, double* rest_bound) noexcept nogil:
    """The part of a placement's score shared by every column x of one (tile,
    orientation, row) group: fixed resources and size, the rows it fills, and an
    upper bound of what placement_rest() can still add (branch and bound)."""
    cdef const Orient_t* ori = &R.orient[t.tile][o]
    cdef int i, yy, my = -1
    cdef double v = t.fixed, bound = t.rest_extra
    if t.meteor and ori.meteor >= 0:
        my = y + ori.dy[ori.meteor]
    for i in range(ori.h):
        yy = y + i
        v += e.row_gain[yy][yy == my][ori.rowcnt[i]]
    if w[G_CONTACT] > 0:
        bound += w[G_CONTACT] * ori.perimeter
    if w[G_HOLE] < 0:
        bound -= w[G_HOLE] * ori.n_nbr
    if w[G_POCKET] < 0:
        bound -= w[G_POCKET] * ori.n_nbr
    rest_bound[0] = bound
    return v


cdef double currents_correction(const Orient_t* ori, int x, int y, int my,
                                const uint16_t* feet, const PlaceEval* e,
                                int* on_currents) noexcept nogil:
    """Petra: tile squares on open currents fill no line (they already count as
    covered); fixes placement_rows' row values and counts them per column."""
    cdef int i, c, yy
    cdef uint16_t bits
    cdef double v = 0.0
    for i in range(ori.w):
        on_currents[i] = 0
    for i in range(ori.h):
        yy = y + i
        bits = feet[i] & e.pt.cur_open[yy]
        if not bits:
            continue
        c = popcount16(bits)
        v += (e.row_gain[yy][yy == my][ori.rowcnt[i] - c]
              - e.row_gain[yy][yy == my][ori.rowcnt[i]])
        while bits:
            on_currents[__builtin_ctz(bits) - x] += 1
            bits &= bits - 1
    return v


cdef inline double placement_shape(const Rules_t* R, const TileEval* t, int o, int x,
                                   int y, const PlaceEval* e) noexcept nogil:
    """placement_cols' shape targets term (shape_value; 0 without targets)."""
    cdef const Orient_t* ori = &R.orient[t.tile][o]
    cdef uint16_t feet_a[5]
    cdef uint16_t feet_b[5]
    cdef int i
    if not e.st.n:
        return 0.0
    for i in range(ori.h):
        feet_a[i] = <uint16_t>((ori.rows_a[i] << x) & ROW_BITS)
        feet_b[i] = <uint16_t>((ori.rows_b[i] << x) & ROW_BITS)
    return shape_value(&e.st, t.ta, t.tb, feet_a, feet_b, y, ori.h)


cdef inline double placement_cols(const Rules_t* R, const double* w, const Player_t* pl,
                                  const TileEval* t, int o, int x, int y,
                                  const PlaceEval* e) noexcept nogil:
    """The exactly known part of a placement's score that depends on its column:
    columns filled, the meteorite, what the tile covers, objective incentives."""
    return placement_cols_after(R, w, pl, t, o, x, y, e, placement_shape(R, t, o, x, y, e))


cdef double placement_cols_after(const Rules_t* R, const double* w, const Player_t* pl,
                                 const TileEval* t, int o, int x, int y,
                                 const PlaceEval* e, double shape) noexcept nogil:
    """placement_cols given its shape term (placement_shape), which the
    lookaheads value first to prune by (the same sum, in the same order)."""
    cdef const Orient_t* ori = &R.orient[t.tile][o]
    cdef const uint16_t* ice = R.pmask[pl.planet][PM_ICE]
    cdef int i, k, n, yy, lifepods = 0, rovers = 0, icy = 0, covered_ice = 0
    cdef int mx = -1, my = -1, cx, cy
    cdef uint16_t fa, fb, foot, wet, touch_a = 0, touch_b = 0
    cdef uint16_t feet[5]
    cdef int on_currents[5]
    cdef bint wet_on_ice = False
    cdef double v = shape
    if t.meteor and ori.meteor >= 0:
        mx = x + ori.dx[ori.meteor]
        my = y + ori.dy[ori.meteor]
    for i in range(ori.h):
        yy = y + i
        fa = <uint16_t>((ori.rows_a[i] << x) & ROW_BITS)
        fb = <uint16_t>((ori.rows_b[i] << x) & ROW_BITS)
        foot = fa | fb
        feet[i] = foot
        if e.tokens_in_row[yy]:
            lifepods += popcount16(foot & pl.lifepod[yy])
            rovers += popcount16(foot & pl.rover_at[yy])
        touch_a |= fa & e.near_terr[t.ta][yy]
        touch_b |= fb & e.near_terr[t.tb][yy]
        if ice[yy] & foot:
            wet = fa if t.water_side == 0 else (fb if t.water_side == 1 else 0)
            if wet & ice[yy]:
                wet_on_ice = True
            icy += popcount16(foot & ~wet & ice[yy])
            covered_ice += popcount16(foot & ice[yy])
    if e.pt.on:
        v += planet_cover_value(&e.pt, feet, y, ori.h)
        if e.pt.currents:
            v += currents_correction(ori, x, y, my, feet, e, on_currents)
    for i in range(ori.w):
        k = x + i
        n = ori.colcnt[i]
        if e.pt.currents:
            n -= on_currents[i]
        v += e.col_gain[k][k == mx][n]
    if mx >= 0:
        v -= w[G_METEORITE] * (R.row_medal[pl.planet][my] + R.col_medal[pl.planet][mx])
    if wet_on_ice:
        v += t.water_val
    v -= w[G_LIFEPOD_LOST] * lifepods + w[G_ROVER_LOST] * rovers + w[G_ICE] * icy
    # objective cards: grow or start terrain areas, icons on the edge, cover ice
    v += e.inc.cluster[t.ta] * t.size_a if touch_a else e.inc.spread[t.ta]
    v += e.inc.cluster[t.tb] * t.size_b if touch_b else e.inc.spread[t.tb]
    v += e.inc.ice * covered_ice
    if e.inc.ice_left and covered_ice:
        v += e.inc.chance_w * chance_added(R, OG_ICE, e.inc.ice_left, covered_ice,
                                           e.inc.chance_round)
    cx = x + ori.dx[ori.icon_a]
    cy = y + ori.dy[ori.icon_a]
    if (R.pmask[pl.planet][PM_EDGE][cy] >> cx) & 1:
        v += e.inc.edge_icon[t.ta]
    cx = x + ori.dx[ori.icon_b]
    cy = y + ori.dy[ori.icon_b]
    if (R.pmask[pl.planet][PM_EDGE][cy] >> cx) & 1:
        v += e.inc.edge_icon[t.tb]
    return v


cdef inline uint64_t packed_row_span(int lo, int hi, int k) noexcept nogil:
    """Rows lo..hi of packed word k (rows 4k..4k+3) set, the others clear."""
    cdef int a = max(lo, 4 * k) - 4 * k, b = min(hi, 4 * k + 3) - 4 * k
    if b < a:
        return 0
    return (<uint64_t>0xFFFFFFFFFFFFFFFF >> (16 * (3 - b))) & (
        <uint64_t>0xFFFFFFFFFFFFFFFF << (16 * a))


cdef int small_pockets(const PlaceEval* e, const Orient_t* ori, int x, int y,
                       const int* sx, const int* sy, int n) noexcept nogil:
    """Pockets of 2 or 3 free squares the placement closes off next to it, searched
    from the narrow free squares (sx, sy) beside it: only a domino, a tromino or
    patches can still fill them, so they tend to stay empty and cost their row
    and column (a closed single square is G_HOLE's).  The board is packed into
    three 64-bit words as in flood_fill."""
    cdef uint16_t rows[GRID]
    cdef uint64_t free[3]
    cdef uint64_t seen[3]
    cdef uint64_t near[3]
    cdef uint64_t comp[3]
    cdef uint64_t grown[3]
    cdef int i, k, yy, nx, ny, lo, hi, size = 0, step, pockets = 0
    cdef bint closed
    for yy in range(GRID):
        rows[yy] = ~e.blocked[yy] & ROW_BITS
    for i in range(ori.h):
        rows[y + i] &= <uint16_t>~(ori.rows[i] << x)
    pack_board(rows, free)
    for k in range(3):
        seen[k] = 0
    for i in range(n):
        nx = sx[i]
        ny = sy[i]
        if (seen[ny >> 2] >> (16 * (ny & 3) + nx)) & 1:
            continue
        # grow the free area from this square; a pocket of 3 or fewer stops growing
        # within 3 steps and lies within 3 rows of where it started
        lo = ny - 3 if ny >= 3 else 0
        hi = ny + 3 if ny + 3 < GRID else GRID - 1
        for k in range(3):
            near[k] = free[k] & packed_row_span(lo, hi, k)
            comp[k] = 0
        comp[ny >> 2] = <uint64_t>1 << (16 * (ny & 3) + nx)
        closed = False
        for step in range(4):
            closed = not grow_step(comp, near, grown)
            size = (popcount64(grown[0]) + popcount64(grown[1])
                    + popcount64(grown[2]))
            for k in range(3):
                comp[k] = grown[k]
            if closed or size > 3:
                break
        for k in range(3):
            seen[k] |= comp[k]
        if closed and size >= 2 and size <= 3:
            pockets += 1
    return pockets


cdef inline uint32_t wide_blocked(const PlaceEval* e, int y) noexcept nogil:
    """Row y's blocked squares one bit to the left (bit x + 1 is column x), with
    the off-board columns and rows blocked (y from -2 to GRID + 1: prepared
    once a decision, e.wide)."""
    return e.wide[y + 2]


cdef uint64_t FIELDS5[64]                # bit i of a 6-bit mask moved to bit 5i
for _m in range(64):
    FIELDS5[_m] = sum([1 << (5 * _i) for _i in range(6) if (_m >> _i) & 1])


cdef inline uint64_t in_fields(uint32_t cols) noexcept nogil:
    """A 12-column mask as one 5-bit field a column (column x at bit 5x)."""
    return FIELDS5[cols & 63] | (FIELDS5[(cols >> 6) & 63] << 30)


cdef inline uint64_t blocked_sides(const PlaceEval* e, int y) noexcept nogil:
    """How many of each square's four neighbours in row y are covered or off the
    board (0-4), one 5-bit field a column: the contact a tile square adds."""
    cdef uint32_t here = wide_blocked(e, y)
    return (in_fields(here) + in_fields(here >> 2)              # left, right
            + in_fields(wide_blocked(e, y - 1) >> 1) + in_fields(wide_blocked(e, y + 1) >> 1))


cdef inline uint64_t contact_by_column(const PlaceEval* e, const Orient_t* ori,
                                       int y) noexcept nogil:
    """contact_sides of orientation ori at row y for every column x at once (bit
    5x on): a tile's squares are free, so its touching sides are the sum of its
    squares' blocked sides.  No field overflows: five squares of at most 4."""
    cdef int i
    cdef uint64_t v = 0
    for i in range(ori.ncells):
        v += e.sides[y + ori.dy[i]] >> (5 * ori.dx[i])
    return v


cdef inline int contact_sides(const PlaceEval* e, const Orient_t* ori, int x,
                              int y) noexcept nogil:
    """Tile sides touching a covered or off-board square (the contact feature):
    cheap enough to bound a placement before its rest, which counts it here too.
    A legal placement covers free squares only, so no side between two of its
    own squares touches a blocked one."""
    return <int>((contact_by_column(e, ori, y) >> (5 * x)) & 31)


cdef int scan_neighbours(const PlaceEval* e, const Orient_t* ori, int x, int y,
                         int* holes, int* narrow_x, int* narrow_y) noexcept nogil:
    """The free squares around a placement, a row at a time (bit-parallel):
    those left with no free neighbour (holes), and those with one or two (the
    narrow squares where a small pocket may close, returned in reading order).
    The same counts as going through the oriented tile's neighbour list; the
    tile's touching sides are contact_sides'."""
    cdef uint32_t foot[9]                # rows y-2 .. y+h+1, wide (bit x + 1)
    cdef uint32_t free_[9]
    cdef uint32_t blk[9]
    cdef uint32_t ring, left, right, up, down, none, many, bits
    cdef int i, r, n = 0, top = y - 2, rows = ori.h + 4
    holes[0] = 0
    for i in range(rows):
        r = top + i
        blk[i] = wide_blocked(e, r)
        foot[i] = (<uint32_t>ori.rows[r - y] << (x + 1)) if y <= r < y + ori.h else 0
        free_[i] = ~(blk[i] | foot[i])
    for i in range(1, rows - 1):          # free squares beside the tile
        ring = ((foot[i] << 1) | (foot[i] >> 1) | foot[i - 1] | foot[i + 1]) & free_[i]
        if not ring:
            continue
        left = free_[i] << 1
        right = free_[i] >> 1
        up = free_[i - 1]
        down = free_[i + 1]
        none = ~(left | right | up | down)
        many = (left & right & (up | down)) | (up & down & (left | right))
        holes[0] += __builtin_popcount(ring & none)
        bits = ring & ~none & ~many
        while bits and n < MAX_NBR:
            narrow_x[n] = __builtin_ctz(bits) - 1
            narrow_y[n] = top + i
            n += 1
            bits &= bits - 1
    return n


cdef double placement_rest(const Rules_t* R, const double* w, const TileEval* t, int o,
                           int x, int y, const PlaceEval* e, double cutoff,
                           int touch) noexcept nogil:
    """The rest of a placement's score: exact energy, compactness, walled-in squares,
    small pockets, and landing a coming rover near a lifepod.  Pockets (the costly
    part, a penalty) are skipped once the rest is below `cutoff`: the placement
    cannot win then.  `touch`: the tile's touching sides if the caller counted
    them to prune (contact_sides), else -1."""
    cdef const Orient_t* ori = &R.orient[t.tile][o]
    cdef int i, k, nx, ny, cx, cy, side, mask, holes = 0
    cdef int n_narrow = 0
    cdef int narrow_x[MAX_NBR]
    cdef int narrow_y[MAX_NBR]
    cdef double v = 0.0, d
    if t.energy:
        # EN-1/EN-2: the other part always touches; then what touches the energy
        # part and the energy areas it joins
        side = 0 if t.ta == ENERGY else 1
        mask = 1 << (t.tb if side == 0 else t.ta)
        for i in range(ori.n_enbr[side]):
            nx = x + ori.enbr_dx[side][i]
            ny = y + ori.enbr_dy[side][i]
            if nx < 0 or ny < 0 or nx >= GRID or ny >= GRID:
                continue
            k = e.terr_at[ny][nx]
            if k < N_TRACKS:
                mask |= 1 << k
            elif k == ENERGY:
                mask |= e.ecomp_adj[e.comp_at[ny][nx]]
        v += best_of(e.track_val, mask & e.movable) - e.energy_best
    n_narrow = scan_neighbours(e, ori, x, y, &holes, narrow_x, narrow_y)
    if touch < 0:
        touch = contact_sides(e, ori, x, y)
    v += w[G_CONTACT] * touch - w[G_HOLE] * holes
    if t.rover_reach:
        d = 99
        for i in range(ori.ncells):
            cx = x + ori.dx[i]
            cy = y + ori.dy[i]
            if e.lifepod_dist[cy][cx] < d:
                d = e.lifepod_dist[cy][cx]
        v += w[G_REACH] / (1.0 + d)
    if n_narrow and w[G_POCKET] != 0.0 and v >= cutoff:
        v -= w[G_POCKET] * small_pockets(e, ori, x, y, narrow_x, narrow_y, n_narrow)
    return v
