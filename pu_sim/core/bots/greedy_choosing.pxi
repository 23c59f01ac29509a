# The greedy bot's argmax (ties, noise, pruning) and the values of the smaller
# decisions: biomass squares, meteorites, rover targets, civ cards, items.

# ==== choosing ==========================================================================

cdef struct Argmax:
    # Best option so far; exact ties are broken uniformly (reservoir sampling).
    double best
    int index
    int ties
    double noise                         # optional uniform noise added to every option
    double* scores                       # scoring mode: every option's value lands here
    bint first                           # ties keep the first option (no draw)
    bint value_only                      # only `best` is read (no ties, no noise)


cdef enum:
    ARGMAX_NONE = -1

cdef double TIE_EPS = 1e-9
cdef uint32_t NO_SEED = 0xFFFFFFFF      # greedy_eval: no move known to be good


cdef inline void argmax_init(Argmax* a, double noise, double* scores,
                             bint first=False) noexcept nogil:
    """Start a choice; with `scores` (scoring mode) nothing is drawn from the game's
    generator and every option is valued in full (no pruning); with `first`
    nothing is drawn either and ties keep the first option offered."""
    a.best = -1e300
    a.index = ARGMAX_NONE
    a.ties = 0
    a.noise = noise if noise > 0 and scores == NULL and not first else 0.0
    a.scores = scores
    a.first = first
    a.value_only = False


cdef inline void argmax_offer(Argmax* a, Game_t* g, int i, double v) noexcept nogil:
    """Consider option i with value v (the game's generator breaks ties)."""
    if a.scores != NULL:
        a.scores[i] = v
        if v > a.best:
            a.best = v
            a.index = i
        return
    if a.noise > 0:
        v += a.noise * rng_unit(&g.rng)
    if v > a.best + TIE_EPS:
        a.best = v
        a.index = i
        a.ties = 1
    elif v >= a.best - TIE_EPS and not a.first:
        a.ties += 1
        if rng_below(&g.rng, <uint32_t>a.ties) == 0:
            a.index = i


cdef inline void argmax_floor(Argmax* a, double v) noexcept nogil:
    """Some option is known to be worth v: prune what cannot reach it.  Only
    where ties keep the first option and nothing is drawn, so the choice is
    the one made without the floor (an option within TIE_EPS of v is still
    offered and ranked in move order)."""
    if a.first and a.scores == NULL and a.noise == 0 and v - 2 * TIE_EPS > a.best:
        a.best = v - 2 * TIE_EPS


cdef inline bint argmax_hopeless(const Argmax* a, double upper) noexcept nogil:
    """An option whose value cannot exceed `upper` can neither win nor tie."""
    return a.scores == NULL and upper + a.noise < a.best - TIE_EPS


cdef inline double argmax_cutoff(const Argmax* a, double partial) noexcept nogil:
    """What the rest of an option valued `partial` so far must reach to win or tie
    (-inf in scoring mode, where every option is valued in full)."""
    if a.scores != NULL:
        return -1e300
    return a.best - TIE_EPS - a.noise - partial


cdef inline double best_of(const double* vals, int mask) noexcept nogil:
    """The largest of vals over the tracks in mask (0 if the mask is empty)."""
    cdef int t
    cdef double top = 0.0
    cdef bint any_ = False
    for t in range(N_TRACKS):
        if (mask >> t) & 1:
            if not any_ or vals[t] > top:
                top = vals[t]
                any_ = True
    return top


# ==== other decisions =================================================================

cdef double eval_patch_square(const Game_t* g, const Rules_t* R, const double* w, int p,
                              int x, int y, const PlaceEval* e) noexcept nogil:
    """A biomass patch on (x, y): lines, filling walled-in squares, losses."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int planet = pl.planet
    cdef double v = 0.0
    cdef uint16_t up, down, left, right
    cdef uint16_t foot[1]
    cdef uint16_t none[1]
    if grid_has(pl.occ, x, y):
        # Wormhole: over a tile square nothing new is covered; a meteorite there goes
        v = -0.1
        if grid_has(pl.meteorite, x, y):
            v += w[G_METEORITE] * meteorite_line_value(pl, R, x, y)
        if grid_has(pl.lifepod, x, y):
            v -= w[G_LIFEPOD_LOST]
        if grid_has(pl.rover_at, x, y):
            v -= w[G_ROVER_LOST]
        return v
    if not grid_has(e.pt.cur_open, x, y):           # Petra: a current is already covered
        v += e.row_gain[y][0][1]
        v += e.col_gain[x][0][1]
    foot[0] = <uint16_t>(1 << x)
    if e.st.n:
        none[0] = 0
        v += shape_value(&e.st, BIOMASS, -1, foot, none, y, 1)  # a patch is biomass
    if e.pt.on:
        v += planet_cover_value(&e.pt, foot, y, 1)
    up = e.blocked[y - 1] if y > 0 else ROW_BITS
    down = e.blocked[y + 1] if y < GRID - 1 else ROW_BITS
    left = <uint16_t>(((e.blocked[y] << 1) | 1) & ROW_BITS)
    right = <uint16_t>((e.blocked[y] >> 1) | (1 << (GRID - 1)))
    if (up & down & left & right) >> x & 1:
        v += w[G_HOLE]                             # fills a walled-in square
    if grid_has(pl.lifepod, x, y):
        v -= w[G_LIFEPOD_LOST]
    if grid_has(pl.rover_at, x, y):
        v -= w[G_ROVER_LOST]
    if grid_has(R.pmask[planet][PM_ICE], x, y):
        v -= w[G_ICE]
    return v


cdef inline double max0(double v) noexcept nogil:
    return v if v > 0.0 else 0.0


cdef double meteorite_unblock(const Game_t* g, const Rules_t* R, const Player_t* pl,
                              const uint8_t* row_open, const uint8_t* col_open,
                              int x, int y) noexcept nogil:
    """Medals of line chance (line_chance_at) collecting the meteorite on (x, y)
    frees: its row and its column, each when it is their only meteorite (ME-2).
    Never negative: in nearly empty lines the measured chances are equal within
    their noise."""
    cdef int yy, r = g.round + 1, in_col = 0
    cdef double v = 0.0, freed
    for yy in range(GRID):
        in_col += (pl.meteorite[yy] >> x) & 1
    if popcount16(pl.meteorite[y]) == 1:
        freed = (line_chance_at(R, row_open[y], False, r)
                 - line_chance_at(R, row_open[y], True, r))
        v += R.row_medal[pl.planet][y] * max0(freed)
    if in_col == 1:
        freed = (line_chance_at(R, col_open[x], False, r)
                 - line_chance_at(R, col_open[x], True, r))
        v += R.col_medal[pl.planet][x] * max0(freed)
    return v


cdef int meteorite_targets(const Game_t* g, const Rules_t* R, const double* w, int p,
                           double met_value, uint16_t masks[][GRID],
                           double* values) noexcept nogil:
    """The meteorites as rover targets, in groups of equal value (masks[i] worth
    values[i]): with G_METEOR_LINES 0 one group of them all, worth met_value;
    otherwise each alone, worth met_value plus G_METEOR_LINES x the line chance
    collecting it frees.  Returns the number of groups."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint8_t row_open[GRID]
    cdef uint8_t col_open[GRID]
    cdef uint16_t bits
    cdef int x, y, yy, n = 0
    if w[G_METEOR_LINES] == 0.0:
        memcpy(masks[0], pl.meteorite, sizeof(uint16_t) * GRID)
        values[0] = met_value
        return 1
    open_line_squares(g, R, pl, row_open, col_open)
    for y in range(GRID):
        bits = pl.meteorite[y]
        while bits:
            x = __builtin_ctz(bits)
            bits &= bits - 1
            for yy in range(GRID):
                masks[n][yy] = 0
            masks[n][y] = <uint16_t>(1 << x)
            values[n] = met_value + w[G_METEOR_LINES] * meteorite_unblock(
                g, R, pl, row_open, col_open, x, y)
            n += 1
    return n


cdef void spread_target(const Rules_t* R, const Player_t* pl, const uint16_t* targets,
                        double tv, double val[GRID][GRID]) noexcept nogil:
    """val = max(val, tv / (1 + rover distance to the nearest of targets))."""
    cdef RoverWalk r
    cdef int k, b, x, y, d = 0
    cdef double cand
    cdef bint more = walk_start(&r, R, pl, targets)
    cdef uint64_t bits
    while more:
        cand = tv / (1.0 + d)
        for k in range(3):
            bits = r.front[k]
            while bits:
                b = __builtin_ctzll(bits)
                bits &= bits - 1
                y = 4 * k + b // 16
                x = b % 16
                if cand > val[y][x]:
                    val[y][x] = cand
        more = walk_step(&r)
        d += 1


cdef void target_distances(const Game_t* g, const Rules_t* R, const double* w, int p,
                           double pod_value, double met_value,
                           double val[GRID][GRID]) noexcept nogil:
    """Value of standing on each square: best target value / (1 + distance)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t masks[GRID * GRID][GRID]
    cdef double values[GRID * GRID]
    cdef int x, y, i, n
    for y in range(GRID):
        for x in range(GRID):
            val[y][x] = 0.0
    spread_target(R, pl, pl.lifepod, pod_value, val)
    n = meteorite_targets(g, R, w, p, met_value, masks, values)
    for i in range(n):
        spread_target(R, pl, masks[i], values[i], val)


cdef void values_near(const Rules_t* R, const Player_t* pl, const uint16_t* targets,
                      double tv, const int* qx, const int* qy, int nq,
                      double* out) noexcept nogil:
    """out[i] = max(out[i], tv / (1 + rover distance from query i to a target));
    the walk stops once every query square is reached (a query at x < 0 asks
    nothing)."""
    cdef RoverWalk r
    cdef int d = 0, i, left = nq
    cdef double cand
    cdef bint more = walk_start(&r, R, pl, targets)
    cdef bint done[MAX_ROVER_QUERIES]
    cdef uint64_t asked[3]                 # the query squares, packed
    asked[0] = asked[1] = asked[2] = 0
    for i in range(nq):
        done[i] = qx[i] < 0
        if done[i]:
            left -= 1
        else:
            asked[qy[i] >> 2] |= <uint64_t>1 << (16 * (qy[i] & 3) + qx[i])
    while more and left > 0:
        if (r.front[0] & asked[0]) | (r.front[1] & asked[1]) | (r.front[2] & asked[2]):
            cand = tv / (1.0 + d)
            for i in range(nq):
                if not done[i] and walk_reached(&r, qx[i], qy[i]):
                    done[i] = True
                    left -= 1
                    if cand > out[i]:
                        out[i] = cand
        more = walk_step(&r)
        d += 1


cdef void target_values_at(const Game_t* g, const Rules_t* R, const double* w, int p,
                           double pod_value, double met_value, const int* qx,
                           const int* qy, int nq, double* out) noexcept nogil:
    """target_distances() at a few squares only."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t masks[GRID * GRID][GRID]
    cdef double values[GRID * GRID]
    cdef int i, n
    for i in range(nq):
        out[i] = 0.0
    values_near(R, pl, pl.lifepod, pod_value, qx, qy, nq, out)
    n = meteorite_targets(g, R, w, p, met_value, masks, values)
    for i in range(n):
        values_near(R, pl, masks[i], values[i], qx, qy, nq, out)


cdef int greedy_rover_step(Game_t* g, const Rules_t* R, const double* w, int p,
                           const uint32_t* moves, int n, const Incentive* inc,
                           double* scores, bint first) noexcept nogil:
    """Step a rover toward the closest lifepod or meteorite; stop when none gets
    closer.  `first`: ties keep the first step offered (argmax_init)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int qx[MAX_ROVER_QUERIES]
    cdef int qy[MAX_ROVER_QUERIES]
    cdef double val[MAX_ROVER_QUERIES]
    cdef int i, r, sq, nq = 0, m = 0
    cdef Argmax a
    cdef double deliver[MAX_ROVER_QUERIES]
    cdef bint horizon = pl.corp == CORP_HORIZON
    # queries: every rover's square (indices 0..MAX_ROVERS-1; none for a rover
    # off the planet, which has no step), then each destination
    for r in range(MAX_ROVERS):
        qx[r] = pl.rover_x[r] if pl.rover_status[r] == RV_PLANET else -1
        qy[r] = pl.rover_y[r] if pl.rover_status[r] == RV_PLANET else 0
    nq = MAX_ROVERS
    for i in range(n):
        if moves[i] != MV_DONE and nq < MAX_ROVER_QUERIES:
            sq = moves[i] & 0xFF
            qx[nq] = sq % GRID
            qy[nq] = sq // GRID
            nq += 1
    if horizon:
        # Horizon: meteorites are picked up, then delivered to rover icons
        target_values_at(g, R, w, p, 1.0 + inc.lifepod,
                         HORIZON_PICKUP * (w[G_METEOR_TARGET] + inc.meteorite), qx, qy, nq, val)
        for i in range(nq):
            deliver[i] = 0.0
        values_near(R, pl, pl.icon[ROVER], horizon_delivery_value(g, R, w, p, inc),
                    qx, qy, nq, deliver)
    else:
        target_values_at(g, R, w, p, 1.0 + inc.lifepod, w[G_METEOR_TARGET] + inc.meteorite,
                         qx, qy, nq, val)
    argmax_init(&a, 0.0, scores, first)
    for i in range(n):
        if moves[i] == MV_DONE:
            argmax_offer(&a, g, i, 1e-6)     # stop unless a step gets closer to a target
            continue
        r = moves[i] >> 8
        if horizon and horizon_carries(pl, r):
            argmax_offer(&a, g, i, deliver[MAX_ROVERS + m] - deliver[r])
        else:
            argmax_offer(&a, g, i, val[MAX_ROVERS + m] - val[r])
        m += 1
    return a.index


cdef double card_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                       int card) noexcept nogil:
    """Rough medal value of taking a civ card now."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int k, op, arg, t, best, n
    cdef double v = 0.0, top
    cdef double vals[N_TRACKS]
    cdef int commerce[6]
    commerce[0] = 0
    commerce[1] = 1
    commerce[2] = 3
    commerce[3] = 6
    commerce[4] = 10
    commerce[5] = 10
    for k in range(2):
        op = R.card_op[card][k]
        arg = R.card_arg[card][k]
        if op == OP_SCORE_MEDALS:
            v += arg
        elif op == OP_SCORE_PATCHES:
            v += grid_count(pl.patch) + 1.0
        elif op == OP_SCORE_LIFEPOD_BONUS:
            v += pl.lifepods_collected + 0.3 * grid_count(pl.lifepod)
        elif op == OP_SET_COLLECTION_METEORITE_REPO:
            v += (pl.meteorites_collected + 1.5) / 3.0
        elif op == OP_SET_COLLECTION_COMMERCE_AGREEMENT:
            n = count_cards_with_op(pl, R, OP_SET_COLLECTION_COMMERCE_AGREEMENT)
            v += commerce[n + 1] - commerce[n]
        elif op == OP_ADVANCE_DISTINCT_TRACKERS:
            for t in range(N_TRACKS):
                vals[t] = track_gain(g, R, w, p, t, 1) if can_advance(g, R, p, t) else -1e9
            for n in range(arg):
                top = -1e9
                best = -1
                for t in range(N_TRACKS):
                    if vals[t] > top:
                        top = vals[t]
                        best = t
                if best >= 0 and top > -1e8:
                    v += top
                    vals[best] = -1e9
        elif op == OP_ADVANCE_ONE_TRACKER:
            v += best_track(g, R, w, p, movable_tracks(g, R, p), arg, &best)
        elif op == OP_GAIN_BIOMASS_PATCHES:
            v += arg * w[G_PATCH]
        elif op == OP_GAIN_ROVER_MOVEMENT:
            if rovers_on_planet(pl) > 0:
                v += arg * w[G_MOVE]
        elif op == OP_PLACE_TILE_FROM_OWN_DEPOT:
            v += 2.0 + 3.0 * arg
        elif op == OP_TELEPORT_ROVER:
            if rovers_on_planet(pl) > 0 and grid_any(pl.lifepod):
                v += 1.0
        elif op == OP_COLLECT_LIFEPODS:
            n = grid_count(pl.lifepod)
            v += n if n < arg else arg
        elif op == OP_DESTROY_METEORITES_IN_LINE or op == OP_DESTROY_METEORITES_ON_PLANET:
            n = grid_count(pl.meteorite)
            v += 0.8 * (n if n < 3 else 3)
        elif op == OP_RAISE_TRACKERS_TO_POSITION:
            for t in range(N_TRACKS):
                if pl.track[t] < arg:
                    v += track_gain(g, R, w, p, t, arg - pl.track[t])
    return v


cdef double rover_closeness(const Player_t* pl, int x, int y) noexcept nogil:
    """1 / (1 + Manhattan distance) to the player's nearest rover on the planet."""
    cdef int r, d, best = 99
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] == RV_PLANET:
            d = abs(pl.rover_x[r] - x) + abs(pl.rover_y[r] - y)
            if d < best:
                best = d
    return 1.0 / (1.0 + best)


cdef double meteorite_line_value(const Player_t* pl, const Rules_t* R, int x, int y) noexcept nogil:
    """Medals a meteorite on (x, y) keeps from its row and column."""
    return R.row_medal[pl.planet][y] + R.col_medal[pl.planet][x]


cdef double item_priority(const Item_t* it) noexcept nogil:
    """D_ORDER: tech first (it can unlock L3/L4 for the rest), patches last."""
    if it.kind == IT_ADVANCE:
        return 10.0 if it.a == TECH else 8.0
    if it.kind == IT_ENERGY or it.kind == IT_SYNERGY:
        return 6.0
    if it.kind == IT_CHOOSE_ADVANCE or it.kind == IT_DISTINCT or it.kind == IT_RAISE:
        return 5.0
    if it.kind == IT_ROVER:
        return 4.0
    if it.kind == IT_PLACE_TILE:
        return 3.5
    if it.kind == IT_PATCH:
        return 1.0
    return 2.0


cdef double tile_quick_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                             int tile) noexcept nogil:
    """Placement-free value of a tile: its resources and its size."""
    cdef int ta, tb
    cdef double v
    if tile == NO_TILE:
        return -1e9
    ta = R.tile_ta[tile]
    tb = R.tile_tb[tile]
    v = w[G_SIZE] * R.tile_size[tile]
    if ta != ENERGY:
        v += track_gain(g, R, w, p, ta, 1)
    if tb != ENERGY:
        v += track_gain(g, R, w, p, tb, 1)
    return v


cdef inline int greedy_choose(Game_t* g, const Rules_t* R, const double* w,
                              const uint32_t* moves, int n) noexcept nogil:
    """Index of the highest-scoring legal move (ties broken at random)."""
    return greedy_eval(g, R, w, moves, n, NULL, NULL, NULL)


cdef inline int greedy_choose_in(Game_t* g, const Rules_t* R, const double* w,
                                 const uint32_t* moves, int n, PlaceEval* buf) noexcept nogil:
    """greedy_choose with a caller's placement buffer (rollouts: no malloc per move)."""
    return greedy_eval(g, R, w, moves, n, NULL, buf, NULL)


cdef inline void greedy_scores(Game_t* g, const Rules_t* R, const double* w,
                               const uint32_t* moves, int n, double* scores) noexcept nogil:
    """The greedy value of every legal move (for the search bot's move ordering);
    draws nothing from the game's generator and adds no noise."""
    greedy_eval(g, R, w, moves, n, scores, NULL, NULL)
