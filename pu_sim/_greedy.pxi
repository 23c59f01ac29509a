# The greedy bot: every option scored by a weighted sum of immediate features.
#
# The weights are the bot's parameter vector (index names below, mirrored by
# pu_sim.bots.GREEDY_WEIGHTS), so bot variants and strength sweeps are data.
# Track advances are valued by the medals they add, a fraction of the way to the
# next medal, and the benefits they claim; placements add planet features
# (lines completed and filled, holes, compactness, what the tile destroys).

cdef enum:
    G_LINE_COMPLETE = 0     # per medal of a row/column the placement completes
    G_LINE_FILL = 1         # per medal x share of a line's remaining squares filled
    G_TRACK = 2             # scale of the value of track advances
    G_PROGRESS = 3          # share of the gap to the next medal credited per step
    G_CIV = 4               # value of a civ pick, per rank
    G_SYNERGY = 5           # value of a synergy boost
    G_PATCH = 6             # value of a biomass patch
    G_MOVE = 7              # value of one rover movement point
    G_TECH = 8              # value of a tech level
    G_ROVER = 9             # value of placing a new rover
    G_LIFEPOD_LOST = 10     # penalty per own lifepod covered
    G_ROVER_LOST = 11       # penalty per own rover covered
    G_METEORITE = 12        # penalty per medal of the lines a new meteorite blocks
    G_CONTACT = 13          # per tile side touching a covered square or the rim
    G_HOLE = 14             # penalty per empty square the placement walls in
    G_SIZE = 15             # per square covered
    G_ICE = 16              # penalty per ice square covered by non-water terrain
    G_REACH = 17            # rover-milestone tile close to a lifepod (1 / (1 + d))
    G_STORE = 18            # store a patch when the best square is worth less
    G_METEOR_TARGET = 19    # rover target value of a meteorite (a lifepod is 1)
    G_NOISE = 20            # random tie-break amplitude
    N_GREEDY = 21


# ==== valuing track advances =====================================================

cdef inline double medal_potential(const Rules_t* R, const double* w, int corp, int t,
                                   int pos) noexcept nogil:
    """Medals at pos plus a share of the way to the next higher medal."""
    cdef const uint8_t* sc = R.score_pos[corp][t]
    cdef int cur = sc[pos], nxt = pos + 1, last = pos
    while last > 0 and sc[last - 1] == cur:
        last -= 1
    while nxt <= TOP and sc[nxt] == cur:
        nxt += 1
    if nxt > TOP:
        return cur
    return cur + w[G_PROGRESS] * (sc[nxt] - cur) * (pos - last + 1.0) / (nxt - last + 1.0)


cdef inline double space_benefit(const Game_t* g, const Rules_t* R, const double* w, int p,
                                 int t, int pos) noexcept nogil:
    """Value of the benefits printed on one space."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const int8_t* sp = R.space[pl.corp][t][pos]
    cdef double v = 0.0
    if sp[SP_CIV]:
        v += w[G_CIV] * sp[SP_CIV]
    v += w[G_SYNERGY] * sp[SP_SYNERGY]
    v += w[G_PATCH] * sp[SP_PATCH]
    if sp[SP_ROVER] and supply_rover(pl) >= 0:
        v += w[G_ROVER]
    if sp[SP_MOVE] and (rovers_on_planet(pl) > 0 or supply_rover(pl) >= 0):
        v += w[G_MOVE] * (sp[SP_MOVE] + tech_move_bonus(g, R, p))
    if sp[SP_TECH]:
        v += w[G_TECH]
    return v


cdef double track_gain(const Game_t* g, const Rules_t* R, const double* w, int p, int t,
                       int steps) noexcept nogil:
    """Value of advancing tracker t by `steps`, claiming benefits."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int pos0 = pl.track[t], pos = pos0, s
    cdef double v = 0.0
    for s in range(steps):
        if pos >= TOP:
            if t == ROVER:
                v += space_benefit(g, R, w, p, t, BEYOND_TOP)
            continue
        pos += 1
        v += space_benefit(g, R, w, p, t, pos)
    v += (medal_potential(R, w, pl.corp, t, pos)
          - medal_potential(R, w, pl.corp, t, pos0))
    return w[G_TRACK] * v


cdef inline double best_track(const Game_t* g, const Rules_t* R, const double* w, int p,
                              int mask, int steps, int* best) noexcept nogil:
    """The most valuable track in mask (value returned, index in *best)."""
    cdef int t
    cdef double v, top = -1e300
    best[0] = -1
    for t in range(N_TRACKS):
        if (mask >> t) & 1:
            v = track_gain(g, R, w, p, t, steps)
            if v > top:
                top = v
                best[0] = t
    return top if best[0] >= 0 else 0.0


# ==== valuing placements ===========================================================

cdef struct PlaceEval:
    # Per-decision data shared by every candidate placement.
    double track_val[N_TRACKS]
    double water2_val                    # water advancing twice (tech L4)
    int movable
    uint16_t blocked[GRID]               # covered, not a grid square, or ...
    uint8_t row_total[GRID]
    uint8_t row_filled[GRID]
    uint8_t col_total[GRID]
    uint8_t col_filled[GRID]
    uint16_t met_rows
    uint16_t met_cols
    int rover_next                       # next rover-track space has a rover milestone
    uint16_t lifepod_dist[GRID][GRID]    # BFS distance to the nearest lifepod


cdef void lifepod_distances(const Game_t* g, const Rules_t* R, int p,
                            uint16_t dist[GRID][GRID]) noexcept nogil:
    """Grid distance (orthogonal steps over grid squares) to the nearest lifepod."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef uint16_t front[GRID]
    cdef uint16_t seen[GRID]
    cdef uint16_t nb[GRID]
    cdef int x, y, d = 0
    cdef bint more = True
    for y in range(GRID):
        for x in range(GRID):
            dist[y][x] = 99
        front[y] = pl.lifepod[y] & grid[y]
        seen[y] = front[y]
    while more:
        more = False
        for y in range(GRID):
            for x in range(GRID):
                if (front[y] >> x) & 1:
                    dist[y][x] = <uint16_t>d
        dilate(front, nb)
        for y in range(GRID):
            front[y] = nb[y] & grid[y] & ~seen[y]
            seen[y] |= front[y]
            if front[y]:
                more = True
        d += 1


cdef void prepare_place_eval(const Game_t* g, const Rules_t* R, const double* w, int p,
                             PlaceEval* e) noexcept nogil:
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef int t, y, x, pos
    e.movable = movable_tracks(g, p)
    for t in range(N_TRACKS):
        e.track_val[t] = track_gain(g, R, w, p, t, 1) if (e.movable >> t) & 1 else 0.0
    e.water2_val = track_gain(g, R, w, p, WATER, 2)
    for y in range(GRID):
        e.blocked[y] = (pl.occ[y] | ~grid[y]) & ROW_BITS
        e.row_total[y] = <uint8_t>popcount16(grid[y])
        e.row_filled[y] = <uint8_t>popcount16(grid[y] & pl.occ[y])
    for x in range(GRID):
        e.col_total[x] = 0
        e.col_filled[x] = 0
        for y in range(GRID):
            if (grid[y] >> x) & 1:
                e.col_total[x] += 1
                if (pl.occ[y] >> x) & 1:
                    e.col_filled[x] += 1
    meteorite_lines(pl, &e.met_rows, &e.met_cols)
    pos = pl.track[ROVER]
    e.rover_next = (pos < TOP and R.space[pl.corp][ROVER][pos + 1][SP_ROVER] != 0
                    and supply_rover(pl) >= 0 and grid_any(pl.lifepod))
    if e.rover_next:
        lifepod_distances(g, R, p, e.lifepod_dist)


cdef inline double line_value(const double* w, int medal, int total, int filled, int added,
                              bint blocked) noexcept nogil:
    """Completing or filling a row or column."""
    cdef int remaining = total - filled
    if added <= 0 or remaining <= 0:
        return 0.0
    if added >= remaining:
        return 0.0 if blocked else w[G_LINE_COMPLETE] * medal
    return w[G_LINE_FILL] * medal * added / <double>remaining


cdef double eval_placement(const Game_t* g, const Rules_t* R, const double* w, int p,
                           int tile, int o, int x, int y, bint resources,
                           const PlaceEval* e) noexcept nogil:
    """Score one placement of one tile."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const Orient_t* ori = &R.orient[tile][o]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef const uint16_t* ice = R.pmask[pl.planet][PM_ICE]
    cdef int planet = pl.planet
    cdef uint16_t foot[GRID]
    cdef uint16_t part_a[GRID]
    cdef uint16_t part_b[GRID]
    cdef uint16_t seed[GRID]
    cdef int i, yy, xx, c, n, ta = R.tile_ta[tile], tb = R.tile_tb[tile]
    cdef int mx = -1, my = -1, side, terrain, mask, best
    cdef int col_add[GRID]
    cdef double v = 0.0, d
    cdef bint on_ice
    cdef uint16_t up, down, left, right, newb, cand, iso, other
    footprint(ori, x, y, foot, part_a, part_b)
    if R.tile_meteor[tile] and ori.meteor >= 0 and not tech_no_meteorites(g, R, p):
        mx = x + ori.dx[ori.meteor]
        my = y + ori.dy[ori.meteor]
    # -- resources --------------------------------------------------------------
    if resources:
        for side in range(2):
            terrain = ta if side == 0 else tb
            if terrain == WATER:
                on_ice = False
                for yy in range(y, y + ori.h):
                    if side == 0:
                        if part_a[yy] & ice[yy]:
                            on_ice = True
                    elif part_b[yy] & ice[yy]:
                        on_ice = True
                if on_ice:
                    v += e.water2_val if tech_doubles_water(g, R, p) else e.track_val[WATER]
            elif terrain == ENERGY:
                if side == 0:
                    grid_copy(seed, part_a)
                else:
                    grid_copy(seed, part_b)
                mask = energy_mask_with(pl, foot, part_a, part_b, ta, tb, seed)
                v += best_of(e.track_val, mask & e.movable)
            else:
                v += e.track_val[terrain]
    # -- lines ---------------------------------------------------------------------
    for c in range(GRID):
        col_add[c] = 0
    for i in range(ori.ncells):
        col_add[x + ori.dx[i]] += 1
    for yy in range(y, y + ori.h):
        n = popcount16(foot[yy])
        v += line_value(w, R.row_medal[planet][yy], e.row_total[yy], e.row_filled[yy], n,
                        ((e.met_rows >> yy) & 1) or yy == my)
    for xx in range(x, x + ori.w):
        v += line_value(w, R.col_medal[planet][xx], e.col_total[xx], e.col_filled[xx],
                        col_add[xx], ((e.met_cols >> xx) & 1) or xx == mx)
    if mx >= 0:
        v -= w[G_METEORITE] * (R.row_medal[planet][my] + R.col_medal[planet][mx])
    # -- destruction, ice ------------------------------------------------------------
    n = 0
    c = 0
    i = 0
    for yy in range(y, y + ori.h):
        n += popcount16(foot[yy] & pl.lifepod[yy])
        c += popcount16(foot[yy] & pl.rover_at[yy])
        other = part_b[yy] if ta == WATER else (part_a[yy] if tb == WATER else foot[yy])
        i += popcount16(other & ice[yy])
    v -= w[G_LIFEPOD_LOST] * n + w[G_ROVER_LOST] * c + w[G_ICE] * i
    v += w[G_SIZE] * ori.ncells
    # -- compactness and walled-in squares ---------------------------------------------
    c = 0
    iso = 0
    for yy in range(y, y + ori.h):
        up = e.blocked[yy - 1] if yy > 0 else ROW_BITS
        down = e.blocked[yy + 1] if yy < GRID - 1 else ROW_BITS
        left = <uint16_t>(((e.blocked[yy] << 1) | 1) & ROW_BITS)
        right = <uint16_t>((e.blocked[yy] >> 1) | (1 << (GRID - 1)))
        c += (popcount16(foot[yy] & up) + popcount16(foot[yy] & down)
              + popcount16(foot[yy] & left) + popcount16(foot[yy] & right))
    v += w[G_CONTACT] * c
    n = 0
    for yy in range(y - 1 if y > 0 else 0, y + ori.h + 1 if y + ori.h < GRID else GRID):
        newb = e.blocked[yy] | foot[yy]
        cand = ~newb & ROW_BITS
        if not cand:
            continue
        up = (e.blocked[yy - 1] | foot[yy - 1]) if yy > 0 else ROW_BITS
        down = (e.blocked[yy + 1] | foot[yy + 1]) if yy < GRID - 1 else ROW_BITS
        left = <uint16_t>(((newb << 1) | 1) & ROW_BITS)
        right = <uint16_t>((newb >> 1) | (1 << (GRID - 1)))
        iso = cand & up & down & left & right
        # count only squares the tile walled in (a neighbour of the footprint)
        n += popcount16(iso & ((foot[yy] << 1) | (foot[yy] >> 1)
                               | (foot[yy - 1] if yy > 0 else 0)
                               | (foot[yy + 1] if yy < GRID - 1 else 0)))
    v -= w[G_HOLE] * n
    # -- rover milestone next: land it near a lifepod -------------------------------------
    if e.rover_next and resources and (ta == ROVER or tb == ROVER):
        d = 99
        for i in range(ori.ncells):
            xx = x + ori.dx[i]
            yy = y + ori.dy[i]
            if e.lifepod_dist[yy][xx] < d:
                d = e.lifepod_dist[yy][xx]
        v += w[G_REACH] / (1.0 + d)
    return v


cdef inline double best_of(const double* vals, int mask) noexcept nogil:
    cdef int t
    cdef double top = 0.0
    cdef bint any_ = False
    for t in range(N_TRACKS):
        if (mask >> t) & 1:
            if not any_ or vals[t] > top:
                top = vals[t]
                any_ = True
    return top


cdef inline int energy_mask_with(const Player_t* pl, const uint16_t* foot,
                                 const uint16_t* part_a, const uint16_t* part_b, int ta,
                                 int tb, const uint16_t* seed) noexcept nogil:
    """Energy candidates if the tile were placed (EN-1/EN-2), without placing it."""
    cdef uint16_t energy[GRID]
    cdef uint16_t area[GRID]
    cdef uint16_t ring[GRID]
    cdef int y, t, mask = 0
    cdef uint16_t terr
    for y in range(GRID):
        energy[y] = pl.terr[ENERGY][y] | seed[y]
    flood_fill(seed, energy, area)
    dilate(area, ring)
    for t in range(N_TRACKS):
        for y in range(GRID):
            terr = pl.terr[t][y]
            if t == ta:
                terr |= part_a[y]
            if t == tb:
                terr |= part_b[y]
            if ring[y] & terr:
                mask |= 1 << t
                break
    return mask


# ==== other decisions =================================================================

cdef double eval_patch_square(const Game_t* g, const Rules_t* R, const double* w, int p,
                              int x, int y, const PlaceEval* e) noexcept nogil:
    """A biomass patch on (x, y): lines, filling walled-in squares, losses."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int planet = pl.planet
    cdef double v = 0.0
    cdef uint16_t up, down, left, right
    v += line_value(w, R.row_medal[planet][y], e.row_total[y], e.row_filled[y], 1,
                    (e.met_rows >> y) & 1)
    v += line_value(w, R.col_medal[planet][x], e.col_total[x], e.col_filled[x], 1,
                    (e.met_cols >> x) & 1)
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


cdef void target_distances(const Game_t* g, const Rules_t* R, const double* w, int p,
                           double val[GRID][GRID]) noexcept nogil:
    """Value of standing on each square: best target value / (1 + distance)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef uint16_t front[GRID]
    cdef uint16_t seen[GRID]
    cdef uint16_t nb[GRID]
    cdef int x, y, d, kind
    cdef double tv, cand
    cdef bint more
    for y in range(GRID):
        for x in range(GRID):
            val[y][x] = 0.0
    for kind in range(2):
        tv = 1.0 if kind == 0 else w[G_METEOR_TARGET]
        for y in range(GRID):
            front[y] = (pl.lifepod[y] if kind == 0 else pl.meteorite[y]) & grid[y]
            seen[y] = front[y]
        d = 0
        more = True
        while more:
            more = False
            for y in range(GRID):
                if front[y]:
                    for x in range(GRID):
                        if (front[y] >> x) & 1:
                            cand = tv / (1.0 + d)
                            if cand > val[y][x]:
                                val[y][x] = cand
            dilate(front, nb)
            for y in range(GRID):
                front[y] = nb[y] & grid[y] & ~seen[y]
                seen[y] |= front[y]
                if front[y]:
                    more = True
            d += 1


cdef int greedy_rover_step(Game_t* g, const Rules_t* R, const double* w, int p,
                           const uint32_t* moves, int n) noexcept nogil:
    """Step a rover toward the closest lifepod or meteorite; stop when none gets closer."""
    cdef const Player_t* pl = &g.pl[p]
    cdef double val[GRID][GRID]
    cdef int i, r, sq, best = n - 1
    cdef double gain, top = 1e-9
    target_distances(g, R, w, p, val)
    for i in range(n):
        if moves[i] == MV_DONE:
            continue
        r = moves[i] >> 8
        sq = moves[i] & 0xFF
        gain = val[sq // GRID][sq % GRID] - val[pl.rover_y[r]][pl.rover_x[r]]
        if gain > top:
            top = gain
            best = i
    return best


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
        if op == OP_SCORE:
            v += arg
        elif op == OP_SCORE_PATCHES:
            v += grid_count(pl.patch) + 1.0
        elif op == OP_LIFEPOD_BONUS:
            v += pl.lifepods_collected + 0.3 * grid_count(pl.lifepod)
        elif op == OP_METEORITE_REPO:
            v += (pl.meteorites_collected + 1.5) / 3.0
        elif op == OP_COMMERCE:
            n = count_cards_with_op(pl, R, OP_COMMERCE)
            v += commerce[n + 1] - commerce[n]
        elif op == OP_ADVANCE_DISTINCT:
            for t in range(N_TRACKS):
                vals[t] = track_gain(g, R, w, p, t, 1) if can_advance(g, p, t) else -1e9
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
        elif op == OP_ADVANCE_ONE:
            v += best_track(g, R, w, p, movable_tracks(g, p), arg, &best)
        elif op == OP_PATCHES:
            v += arg * w[G_PATCH]
        elif op == OP_MOVEMENT:
            if rovers_on_planet(pl) > 0:
                v += arg * w[G_MOVE]
        elif op == OP_PLACE_TILE:
            v += 2.0 + 3.0 * arg
        elif op == OP_TELEPORT:
            if rovers_on_planet(pl) > 0 and grid_any(pl.lifepod):
                v += 1.0
        elif op == OP_COLLECT_LIFEPODS:
            n = grid_count(pl.lifepod)
            v += n if n < arg else arg
        elif op == OP_DESTROY_LINE or op == OP_DESTROY_METEORITES:
            n = grid_count(pl.meteorite)
            v += 0.8 * (n if n < 3 else 3)
        elif op == OP_RAISE_TO:
            for t in range(N_TRACKS):
                if pl.track[t] < arg:
                    v += track_gain(g, R, w, p, t, arg - pl.track[t])
    return v


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


cdef int greedy_choose(Game_t* g, const Rules_t* R, const double* w,
                       const uint32_t* moves, int n) noexcept nogil:
    """Index of the highest-scoring legal move (noise breaks ties)."""
    cdef int p = g.decider, d = g.decision, i, best = 0, slot = 0, o = 0, x = 0, y = 0
    cdef int tile, t0, t1, q, saved_rot, ta, tb, bt
    cdef const Player_t* pl = &g.pl[p]
    cdef PlaceEval* e
    cdef double v, top = -1e300, noise = w[G_NOISE]
    cdef double val[GRID][GRID]
    if d == D_PLACE:
        e = <PlaceEval*>malloc(sizeof(PlaceEval))
        if e == NULL:
            return 0
        prepare_place_eval(g, R, w, p, e)
        t0 = depot_tile(g, R, p, 0)
        t1 = depot_tile(g, R, p, 1)
        for i in range(n):
            unpack_place(moves[i], &slot, &o, &x, &y)
            tile = t0 if slot == 0 else t1
            v = eval_placement(g, R, w, p, tile, o, x, y, g.place_from_depot != 1, e)
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        free(e)
        return best
    if d == D_PATCH:
        e = <PlaceEval*>malloc(sizeof(PlaceEval))
        if e == NULL:
            return 0
        prepare_place_eval(g, R, w, p, e)
        for i in range(n):
            if moves[i] == MV_STORE:
                v = w[G_STORE]
            else:
                v = eval_patch_square(g, R, w, p, moves[i] % GRID, moves[i] // GRID, e)
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        free(e)
        return best
    if d == D_ENERGY or d == D_SYNERGY or d == D_TRACK:
        for i in range(n):
            t0 = <int>moves[i]
            if g.item.kind == IT_CHOOSE_ADVANCE:
                v = track_gain(g, R, w, p, t0, g.item.b)
            elif g.item.kind == IT_RAISE:
                v = track_gain(g, R, w, p, t0, g.item.a - pl.track[t0])
            else:
                v = track_gain(g, R, w, p, t0, 1)
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        return best
    if d == D_ORDER:
        for i in range(n):
            if moves[i] == MV_MOVE:
                v = 0.0
            else:
                v = item_priority(&pl.items[moves[i]])
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        return best
    if d == D_ROVER_STEP:
        return greedy_rover_step(g, R, w, p, moves, n)
    if d == D_ROVER_PLACE or d == D_TELEPORT:
        target_distances(g, R, w, p, val)
        for i in range(n):
            if moves[i] == MV_DONE:
                v = 0.0
            else:
                q = moves[i] & 0xFF
                v = val[q // GRID][q % GRID]
                if d == D_TELEPORT:
                    bt = moves[i] >> 8
                    v -= val[pl.rover_y[bt]][pl.rover_x[bt]]
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        return best
    if d == D_CIV_PICK:
        for i in range(n):
            v = card_value(g, R, w, p, <int>moves[i]) + noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        return best
    if d == D_METEORITE or d == D_LINE:
        for i in range(n):
            if moves[i] == MV_DONE:
                v = 0.0
            elif d == D_METEORITE:
                v = 1.0 + meteorite_line_value(pl, R, moves[i] % GRID, moves[i] // GRID)
            else:
                v = 0.0
                for y in range(GRID):
                    for x in range(GRID):
                        if grid_has(pl.meteorite, x, y) and (
                                (moves[i] < GRID and y == <int>moves[i])
                                or (moves[i] >= GRID and x == <int>moves[i] - GRID)):
                            v += 1.0 + meteorite_line_value(pl, R, x, y)
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        return best
    if d == D_NO_PLACE:
        for i in range(n):
            tile = depot_tile(g, R, p, <int>moves[i])
            ta = R.tile_ta[tile]
            tb = R.tile_tb[tile]
            if ta == ENERGY:
                ta = tb
            if tb == ENERGY:
                tb = ta
            v = track_gain(g, R, w, p, ta, 1) + track_gain(g, R, w, p, tb, 1)
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        return best
    if d == D_ROTATION:
        saved_rot = g.rotation
        for i in range(n):
            g.rotation = <uint8_t>moves[i]
            v = tile_quick_value(g, R, w, p, depot_tile(g, R, p, 0))
            t1 = <int>(tile_quick_value(g, R, w, p, depot_tile(g, R, p, 1)) > v)
            if t1:
                v = tile_quick_value(g, R, w, p, depot_tile(g, R, p, 1))
            v += noise * rng_unit(&g.rng)
            if v > top:
                top = v
                best = i
        g.rotation = <uint8_t>saved_rot
        return best
    # D_LIFEPOD and anything else: the first option (all are equivalent in value)
    return <int>rng_below(&g.rng, <uint32_t>n) if noise > 0 else 0
