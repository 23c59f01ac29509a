# The greedy bot: every option scored by a weighted sum of immediate features.
#
# The weights are the bot's parameter vector (index names below; rule: G_ + the
# weight's name in pu_sim.bots.GREEDY_WEIGHTS, whose order a test checks against
# this enum), so bot variants and strength sweeps are data.
# Track advances are valued by the medals they add, a fraction of the way to the
# next medal, and the benefits they claim; placements add planet features
# (lines completed and filled, holes, compactness, what the tile destroys).

cpdef enum:
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
    G_OBJECTIVE = 21        # scale of objective-card incentives (greedy_objectives.pxi)
    G_PLANET = 22           # scale of the planets' own scoring terms (core/bots/greedy_planets.pxi)
    G_SHAPE = 23            # scale of rectangle/area card targets (greedy_objectives.pxi)
    G_POCKET = 24           # penalty per pocket of 2-3 free squares the placement closes
    G_TRACK_FIT = 25        # scale of the rollout-fitted track values (greedy_track_fit.pxi)
    G_LINE_CHANCE = 26      # per medal of line-completion chance added (line_chance_at)
    G_REGRESS_RECLAIM = 27  # benefits a regressed tracker claims again on its way back up
    G_REGRESS_DELAY = 28    # benefits ahead of a regressed tracker that it reaches later
    G_EARLY = 29            # benefits count 1 + w/2 times in round 1, 1 - w/2 in the last
    G_OBJECTIVE_CHANCE = 30  # per medal of objective chance added (greedy_objectives.pxi)
    G_NEIGHBOUR = 31        # added to G_OBJECTIVE for the neighbour cards' incentives
    G_METEOR_LINES = 32     # per medal of line chance collecting a meteorite frees
    G_PLACE_FIT = 33        # scale of the fitted placement values (greedy_place_fit.pxi)
    G_NEXT_FIT = 34         # per unit of the next tiles' best value (greedy_next_fit.pxi)
    G_NEXT_FIT_DEEP = 35    # the depot after next's value, relative to the next one's
    G_END_CHAIN = 36        # per medal of the planet the remaining public tiles build
    G_END_ROUNDS = 37       # ... when at most this many rounds remain (greedy_end_chain.pxi)

cdef enum:
    N_GREEDY = 38


# ==== valuing track advances =====================================================

cdef inline double medal_potential(const Rules_t* R, const double* w, int corp, int t,
                                   int pos) noexcept nogil:
    """Medals at pos plus a share of the way to the next higher medal."""
    cdef const uint8_t* sc = R.score_pos[corp][t]
    cdef int top = TOP
    if corp == CORP_OASIS and t == WATER:
        sc = &R.path_score[0]                  # Oasis: water medals along the path
        top = OASIS_TOP
    if pos > top:
        pos = top
    cdef int cur = sc[pos], nxt = pos + 1, last = pos
    while last > 0 and sc[last - 1] == cur:
        last -= 1
    while nxt <= top and sc[nxt] == cur:
        nxt += 1
    if nxt > top:
        return cur
    return cur + w[G_PROGRESS] * (sc[nxt] - cur) * (pos - last + 1.0) / (nxt - last + 1.0)


cdef inline double space_benefit(const Game_t* g, const Rules_t* R, const double* w, int p,
                                 int t, int pos) noexcept nogil:
    """Value of the benefits printed on one space."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const int8_t* sp = track_space(g, R, p, t, pos)   # Flux tech 3: improved
    cdef double v = 0.0
    if sp[SP_CIV]:
        v += w[G_CIV] * sp[SP_CIV]
    v += w[G_SYNERGY] * sp[SP_SYNERGY]
    if sp[SP_SYN_TARGET]:
        v += w[G_SYNERGY]                       # Wormhole: a synergy for one named track
    v += w[G_PATCH] * sp[SP_PATCH]
    if sp[SP_ROVER] and supply_rover(pl) >= 0:
        v += w[G_ROVER]
    if sp[SP_MOVE] and (rovers_on_planet(pl) > 0 or supply_rover(pl) >= 0):
        v += w[G_MOVE] * (sp[SP_MOVE] + tech_move_bonus(g, R, p))
    if sp[SP_TECH]:
        v += w[G_TECH]
    if w[G_EARLY] != 0.0:                       # the fit leaves it at 0 (README)
        v *= 1.0 + w[G_EARLY] * (0.5 - min(1.0, (g.round - 1.0) / (TRACK_FIT_ROUNDS - 1.0)))
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
        pos = next_space(R, pl, t, pos)            # Cosmos jumps, Wormhole levels
        v += space_benefit(g, R, w, p, t, pos)
    v += (medal_potential(R, w, pl.corp, t, pos)
          - medal_potential(R, w, pl.corp, t, pos0))
    return w[G_TRACK] * v


cdef inline double track_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                               int t, int steps, const Incentive* inc) noexcept nogil:
    """track_gain plus what the player's objective cards add to those steps."""
    cdef int room = track_top(&g.pl[p], t) - g.pl[p].track[t]
    cdef double v = track_gain(g, R, w, p, t, steps)
    if steps < room:
        room = steps
    if room <= 0:
        return v
    v += inc.track[t] * room
    if inc.top_left[t] > 0:                # a tracker-at-the-top card: the chance added
        v += inc.chance_w * chance_added(R, OG_TOP + t, inc.top_left[t], room,
                                         inc.chance_round)
    return v


cdef double regress_path(const Game_t* g, const Rules_t* R, const double* w, int p,
                         int t, int q) noexcept nogil:
    """What regressing tracker t by q does to its path (corporations.md 2.3-2.4):
    the spaces it passes back over are claimed again when it re-enters them,
    and the q spaces ahead of it come q steps later."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int pos = pl.track[t], s, k
    cdef double again = 0.0, later = 0.0
    for s in range(max(1, pos - q + 1), pos + 1):
        again += space_benefit(g, R, w, p, t, s)
    s = pos
    for k in range(q):
        if s >= TOP:
            break
        s = next_space(R, pl, t, s)
        later += space_benefit(g, R, w, p, t, s)
    return w[G_TRACK] * (w[G_REGRESS_RECLAIM] * again - w[G_REGRESS_DELAY] * later)


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

cdef enum:
    MAX_ECOMP = 250                      # energy areas tracked by the evaluator


cdef struct PlaceEval:
    # Per-decision data shared by every candidate placement.
    double track_val[N_TRACKS]
    double water2_val                    # water advancing twice (tech L4)
    int movable
    double energy_best                   # best value an energy icon could take
    uint16_t blocked[GRID]               # covered or not a grid square
    uint16_t tokens_in_row[GRID]         # lifepods or rovers in row y
    double row_complete[GRID]            # value of completing row y (0 if a meteorite)
    double col_complete[GRID]
    double row_unit[GRID]                # value per square filled in row y
    double col_unit[GRID]
    uint8_t row_rem[GRID]                # uncovered grid squares left in row y
    uint8_t col_rem[GRID]
    uint16_t met_rows                    # rows holding a meteorite (ME-2)
    uint16_t met_cols
    double row_chance[GRID][GRID + 1]    # chance value of filling n squares of row y
    double col_chance[GRID][GRID + 1]
    double row_chance_met[GRID][GRID + 1]  # ... when the tile's meteorite lands in it
    double col_chance_met[GRID][GRID + 1]
    int n_ecomp                          # existing energy areas ...
    uint8_t ecomp_adj[MAX_ECOMP]         # ... and the tracks of terrain touching each
    uint8_t comp_at[GRID][GRID]          # energy area of each square (255: none)
    uint8_t terr_at[GRID][GRID]          # placed terrain of each square (255: none)
    int rover_next                       # next rover-track space has a rover milestone
    uint8_t lifepod_dist[GRID][GRID]     # BFS distance to the nearest lifepod
    Incentive inc                        # what the player's objective cards reward
    ShapeTargets st                      # where its rectangle and area cards are built
    uint16_t near_terr[N_TERRAINS][GRID]  # squares touching placed terrain t
    PlanetTerms pt                       # cities, sub-planets, Petra's currents


cdef void lifepod_distances(const Game_t* g, const Rules_t* R, int p,
                            uint8_t dist[GRID][GRID]) noexcept nogil:
    """Grid distance (orthogonal steps over passable squares) to the nearest lifepod."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t passable[GRID]
    cdef uint16_t front[GRID]
    cdef uint16_t seen[GRID]
    cdef uint16_t nb[GRID]
    cdef int x, y, d = 0
    cdef bint more = True
    cdef uint16_t bits
    rover_passable(R, pl, passable)
    for y in range(GRID):
        for x in range(GRID):
            dist[y][x] = 99
        front[y] = pl.lifepod[y] & passable[y]
        seen[y] = front[y]
    while more:
        more = False
        for y in range(GRID):
            bits = front[y]
            while bits:
                dist[y][__builtin_ctz(bits)] = <uint8_t>d
                bits &= bits - 1
        rover_neighbours(R, pl, front, passable, nb)
        for y in range(GRID):
            front[y] = nb[y] & ~seen[y]
            seen[y] |= front[y]
            if front[y]:
                more = True
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
    of scoring its medal (line_chance_at), for n = 1..rem; chance_met: when the
    tile's own meteorite lands in the line."""
    cdef int n, r = g.round + 1                 # the chances after this round
    cdef double before
    for n in range(GRID + 1):
        chance[n] = 0.0
        chance_met[n] = 0.0
    if w[G_LINE_CHANCE] == 0.0 or rem == 0:
        return
    before = line_chance_at(R, rem, meteor, r)
    for n in range(1, rem + 1):
        chance[n] = w[G_LINE_CHANCE] * medal * (
            line_chance_at(R, rem - n, meteor, r) - before)
        chance_met[n] = w[G_LINE_CHANCE] * medal * (
            line_chance_at(R, rem - n, True, r) - before)


cdef void prepare_place_eval(const Game_t* g, const Rules_t* R, const double* w, int p,
                             PlaceEval* e) noexcept nogil:
    """Everything about the planet that does not depend on the candidate."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef int t, y, x, pos, medal, yy
    cdef uint16_t mrows, mcols, bits
    cdef uint16_t rest[GRID]
    cdef uint16_t seed[GRID]
    cdef uint16_t comp[GRID]
    objective_incentives(g, R, w, p, &e.inc)
    shape_targets(g, R, w, p, &e.st)
    prepare_planet_terms(g, R, w, p, &e.pt)
    open_line_squares(g, R, pl, e.row_rem, e.col_rem)
    e.movable = movable_tracks(g, R, p)
    for t in range(N_TRACKS):
        e.track_val[t] = (track_value(g, R, w, p, t, 1, &e.inc)
                          if (e.movable >> t) & 1 else 0.0)
    e.water2_val = track_value(g, R, w, p, WATER, 2, &e.inc)
    for t in range(N_TERRAINS):
        dilate(pl.terr[t], e.near_terr[t])
    e.energy_best = best_of(e.track_val, e.movable)
    meteorite_lines(pl, &mrows, &mcols)
    e.met_rows = mrows
    e.met_cols = mcols
    for y in range(GRID):
        e.blocked[y] = (pl.occ[y] | ~grid[y]) & ROW_BITS
        e.tokens_in_row[y] = pl.lifepod[y] | pl.rover_at[y]
        medal = R.row_medal[pl.planet][y]
        e.row_complete[y] = 0.0 if (mrows >> y) & 1 else w[G_LINE_COMPLETE] * medal
        e.row_unit[y] = w[G_LINE_FILL] * medal / e.row_rem[y] if e.row_rem[y] else 0.0
        line_chances(g, R, w, medal, e.row_rem[y], (mrows >> y) & 1, e.row_chance[y],
                     e.row_chance_met[y])
    for x in range(GRID):
        medal = R.col_medal[pl.planet][x]
        e.col_complete[x] = 0.0 if (mcols >> x) & 1 else w[G_LINE_COMPLETE] * medal
        e.col_unit[x] = w[G_LINE_FILL] * medal / e.col_rem[x] if e.col_rem[x] else 0.0
        line_chances(g, R, w, medal, e.col_rem[x], (mcols >> x) & 1, e.col_chance[x],
                     e.col_chance_met[x])
    # placed terrain per square, existing energy areas and what touches each
    # (EN-1/EN-2 answered by lookups instead of a flood fill per candidate)
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
    pos = pl.track[ROVER]
    e.rover_next = (pos < TOP and R.space[pl.corp][ROVER][pos + 1][SP_ROVER] != 0
                    and supply_rover(pl) >= 0 and grid_any(pl.lifepod))
    if e.rover_next:
        lifepod_distances(g, R, p, e.lifepod_dist)


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


cdef inline const double* row_chances(const PlaceEval* e, int y, bint met) noexcept nogil:
    """Row y's line-chance values (line_chances), with the tile's meteorite in it
    or not."""
    if met:
        return &e.row_chance_met[y][0]
    return &e.row_chance[y][0]


cdef inline const double* col_chances(const PlaceEval* e, int x, bint met) noexcept nogil:
    """Column x's line-chance values, as row_chances."""
    if met:
        return &e.col_chance_met[x][0]
    return &e.col_chance[x][0]


cdef double placement_rows(const Rules_t* R, const double* w, const TileEval* t, int o,
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
        v += line_gain(ori.rowcnt[i], e.row_rem[yy], e.row_complete[yy], e.row_unit[yy],
                       yy == my, row_chances(e, yy, yy == my))
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
        v += (line_gain(ori.rowcnt[i] - c, e.row_rem[yy], e.row_complete[yy],
                        e.row_unit[yy], yy == my, row_chances(e, yy, yy == my))
              - line_gain(ori.rowcnt[i], e.row_rem[yy], e.row_complete[yy],
                          e.row_unit[yy], yy == my, row_chances(e, yy, yy == my)))
        while bits:
            on_currents[__builtin_ctz(bits) - x] += 1
            bits &= bits - 1
    return v


cdef double placement_cols(const Rules_t* R, const double* w, const Player_t* pl,
                           const TileEval* t, int o, int x, int y,
                           const PlaceEval* e) noexcept nogil:
    """The exactly known part of a placement's score that depends on its column:
    columns filled, the meteorite, what the tile covers, objective incentives."""
    cdef const Orient_t* ori = &R.orient[t.tile][o]
    cdef const uint16_t* ice = R.pmask[pl.planet][PM_ICE]
    cdef int i, k, n, yy, lifepods = 0, rovers = 0, icy = 0, covered_ice = 0
    cdef int mx = -1, my = -1, cx, cy
    cdef uint16_t fa, fb, foot, wet, touch_a = 0, touch_b = 0
    cdef uint16_t feet[5]
    cdef uint16_t feet_a[5]
    cdef uint16_t feet_b[5]
    cdef int on_currents[5]
    cdef bint wet_on_ice = False
    cdef double v = 0.0
    if t.meteor and ori.meteor >= 0:
        mx = x + ori.dx[ori.meteor]
        my = y + ori.dy[ori.meteor]
    for i in range(ori.h):
        yy = y + i
        fa = <uint16_t>((ori.rows_a[i] << x) & ROW_BITS)
        fb = <uint16_t>((ori.rows_b[i] << x) & ROW_BITS)
        foot = fa | fb
        feet[i] = foot
        feet_a[i] = fa
        feet_b[i] = fb
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
    if e.st.n:
        v += shape_value(&e.st, t.ta, t.tb, feet_a, feet_b, y, ori.h)
    if e.pt.on:
        v += planet_cover_value(&e.pt, feet, y, ori.h)
        if e.pt.currents:
            v += currents_correction(ori, x, y, my, feet, e, on_currents)
    for i in range(ori.w):
        k = x + i
        n = ori.colcnt[i]
        if e.pt.currents:
            n -= on_currents[i]
        v += line_gain(n, e.col_rem[k], e.col_complete[k], e.col_unit[k], k == mx,
                       col_chances(e, k, k == mx))
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


cdef int small_pockets(const PlaceEval* e, const Orient_t* ori, int x, int y,
                       const int* sx, const int* sy, int n) noexcept nogil:
    """Pockets of 2 or 3 free squares the placement closes off next to it, searched
    from the narrow free squares (sx, sy) beside it: only a domino, a tromino or
    patches can still fill them, so they tend to stay empty and cost their row
    and column (a closed single square is G_HOLE's)."""
    cdef uint16_t free[GRID]
    cdef uint16_t comp[GRID]
    cdef uint16_t grown[GRID]
    cdef uint16_t seen[GRID]
    cdef uint16_t ring
    cdef int i, yy, nx, ny, lo, hi, size = 0, step, pockets = 0
    cdef bint closed
    for yy in range(GRID):
        free[yy] = ~e.blocked[yy] & ROW_BITS
        seen[yy] = 0
    for i in range(ori.h):
        free[y + i] &= <uint16_t>~(ori.rows[i] << x)
    for i in range(n):
        nx = sx[i]
        ny = sy[i]
        if (seen[ny] >> nx) & 1:
            continue
        # grow the free area from this square; a pocket of 3 or fewer stops growing
        # within 3 steps and lies within 3 rows of where it started
        lo = ny - 3 if ny >= 3 else 0
        hi = ny + 3 if ny + 3 < GRID else GRID - 1
        for yy in range(lo, hi + 1):
            comp[yy] = 0
        comp[ny] = <uint16_t>(1 << nx)
        closed = False
        for step in range(4):
            size = 0
            closed = True
            for yy in range(lo, hi + 1):
                ring = <uint16_t>(comp[yy] | (comp[yy] << 1) | (comp[yy] >> 1))
                if yy > lo:
                    ring |= comp[yy - 1]
                if yy < hi:
                    ring |= comp[yy + 1]
                grown[yy] = ring & free[yy]
                if grown[yy] != comp[yy]:
                    closed = False
                size += popcount16(grown[yy])
            for yy in range(lo, hi + 1):
                comp[yy] = grown[yy]
            if closed or size > 3:
                break
        for yy in range(lo, hi + 1):
            seen[yy] |= comp[yy]
        if closed and size >= 2 and size <= 3:
            pockets += 1
    return pockets


cdef enum:
    NB_GUARD = 0xFFFFE001            # a wide row's off-board bits: column -1 and 12 on


cdef inline uint32_t wide_blocked(const PlaceEval* e, int y) noexcept nogil:
    """Row y's blocked squares one bit to the left (bit x + 1 is column x), with
    the off-board columns and rows blocked."""
    if y < 0 or y >= GRID:
        return 0xFFFFFFFF
    return (<uint32_t>e.blocked[y] << 1) | NB_GUARD


cdef int scan_neighbours(const PlaceEval* e, const Orient_t* ori, int x, int y,
                         int* touch, int* holes, int* narrow_x,
                         int* narrow_y) noexcept nogil:
    """The squares around a placement, a row at a time (bit-parallel): tile
    sides touching a covered or off-board square (touch), free neighbours left
    with no free neighbour (holes), and those with one or two (the narrow
    squares where a small pocket may close, returned in reading order).  The
    same counts as going through the oriented tile's neighbour list."""
    cdef uint32_t foot[9]                # rows y-2 .. y+h+1, wide (bit x + 1)
    cdef uint32_t free_[9]
    cdef uint32_t blk[9]
    cdef uint32_t ring, left, right, up, down, none, many, bits
    cdef int i, r, n = 0, top = y - 2, rows = ori.h + 4
    touch[0] = 0
    holes[0] = 0
    for i in range(rows):
        r = top + i
        blk[i] = wide_blocked(e, r)
        foot[i] = (<uint32_t>ori.rows[r - y] << (x + 1)) if y <= r < y + ori.h else 0
        free_[i] = ~(blk[i] | foot[i])
    for i in range(2, rows - 2):          # tile sides: right, left, up, down
        touch[0] += (__builtin_popcount((foot[i] << 1) & blk[i])
                     + __builtin_popcount((foot[i] >> 1) & blk[i])
                     + __builtin_popcount(foot[i] & blk[i - 1] & ~foot[i - 1])
                     + __builtin_popcount(foot[i] & blk[i + 1] & ~foot[i + 1]))
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
                           int x, int y, const PlaceEval* e, double cutoff) noexcept nogil:
    """The rest of a placement's score: exact energy, compactness, walled-in squares,
    small pockets, and landing a coming rover near a lifepod.  Pockets (the costly
    part, a penalty) are skipped once the rest is below `cutoff`: the placement
    cannot win then."""
    cdef const Orient_t* ori = &R.orient[t.tile][o]
    cdef int i, k, nx, ny, cx, cy, side, mask, holes = 0, touch = 0
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
    n_narrow = scan_neighbours(e, ori, x, y, &touch, &holes, narrow_x, narrow_y)
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


# ==== choosing ==========================================================================

cdef struct Argmax:
    # Best option so far; exact ties are broken uniformly (reservoir sampling).
    double best
    int index
    int ties
    double noise                         # optional uniform noise added to every option
    double* scores                       # scoring mode: every option's value lands here
    bint first                           # ties keep the first option (no draw)


cdef enum:
    ARGMAX_NONE = -1

cdef double TIE_EPS = 1e-9


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
        v += line_gain(1, e.row_rem[y], e.row_complete[y], e.row_unit[y], False,
                       e.row_chance[y])
        v += line_gain(1, e.col_rem[x], e.col_complete[x], e.col_unit[x], False,
                       e.col_chance[x])
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


cdef void spread_target(const Rules_t* R, const Player_t* pl, const uint16_t* passable,
                        const uint16_t* targets, double tv,
                        double val[GRID][GRID]) noexcept nogil:
    """val = max(val, tv / (1 + rover distance to the nearest of targets))."""
    cdef uint16_t front[GRID]
    cdef uint16_t seen[GRID]
    cdef uint16_t nb[GRID]
    cdef int x, y, d = 0
    cdef double cand
    cdef bint more = True
    cdef uint16_t bits
    for y in range(GRID):
        front[y] = targets[y] & passable[y]
        seen[y] = front[y]
    while more:
        more = False
        cand = tv / (1.0 + d)
        for y in range(GRID):
            bits = front[y]
            while bits:
                x = __builtin_ctz(bits)
                bits &= bits - 1
                if cand > val[y][x]:
                    val[y][x] = cand
        rover_neighbours(R, pl, front, passable, nb)
        for y in range(GRID):
            front[y] = nb[y] & ~seen[y]
            seen[y] |= front[y]
            if front[y]:
                more = True
        d += 1


cdef void target_distances(const Game_t* g, const Rules_t* R, const double* w, int p,
                           double pod_value, double met_value,
                           double val[GRID][GRID]) noexcept nogil:
    """Value of standing on each square: best target value / (1 + distance)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t passable[GRID]
    cdef uint16_t masks[GRID * GRID][GRID]
    cdef double values[GRID * GRID]
    cdef int x, y, i, n
    rover_passable(R, pl, passable)
    for y in range(GRID):
        for x in range(GRID):
            val[y][x] = 0.0
    spread_target(R, pl, passable, pl.lifepod, pod_value, val)
    n = meteorite_targets(g, R, w, p, met_value, masks, values)
    for i in range(n):
        spread_target(R, pl, passable, masks[i], values[i], val)


cdef void values_near(const Rules_t* R, const Player_t* pl, const uint16_t* targets,
                      double tv, const int* qx, const int* qy, int nq,
                      double* out) noexcept nogil:
    """out[i] = max(out[i], tv / (1 + rover distance from query i to a target));
    the BFS stops once every query square is reached."""
    cdef uint16_t passable[GRID]
    cdef uint16_t front[GRID]
    cdef uint16_t seen[GRID]
    cdef uint16_t nb[GRID]
    cdef int y, d = 0, i, left = nq
    cdef double cand
    cdef bint more
    cdef bint done[MAX_ROVER_QUERIES]
    rover_passable(R, pl, passable)
    for y in range(GRID):
        front[y] = targets[y] & passable[y]
        seen[y] = front[y]
    for i in range(nq):
        done[i] = False
    more = grid_any(front)
    while more and left > 0:
        cand = tv / (1.0 + d)
        for i in range(nq):
            if not done[i] and (front[qy[i]] >> qx[i]) & 1:
                done[i] = True
                left -= 1
                if cand > out[i]:
                    out[i] = cand
        rover_neighbours(R, pl, front, passable, nb)
        more = False
        for y in range(GRID):
            front[y] = nb[y] & ~seen[y]
            seen[y] |= front[y]
            if front[y]:
                more = True
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
    # queries: every rover's square (indices 0..MAX_ROVERS-1), then each destination
    for r in range(MAX_ROVERS):
        qx[r] = pl.rover_x[r] if pl.rover_status[r] == RV_PLANET else 0
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


# ==== one valuation per kind of decision ================================================
#
# greedy_eval dispatches on the decision; each function below values one kind
# (or a small family) and offers every legal move to the Argmax in move order,
# so the generator draws exactly as one body did.

cdef inline void offer_placements(Game_t* g, const Rules_t* R, const double* w, int p,
                                  const uint32_t* moves, int n, double* scores,
                                  PlaceEval* e, Argmax* a) noexcept nogil:
    """D_PLACE: every placement by its rows, columns and rest (pruned against the
    best so far); with the fitted placement values or a lookahead, greedy's best
    few are kept and re-ranked first."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int i, tile, slot = 0, o = 0, x = 0, y = 0
    cdef TileEval tiles[2]
    cdef PlaceTopK top
    cdef double v, bound = 0.0, best_fit, row_value = 0.0
    cdef uint32_t group
    cdef bint resources = g.place_from_depot != 1
    cdef bint look_ahead = next_fit_on(g, w), chain = end_chain_on(g, w)
    for slot in range(2):
        tile = depot_tile(g, R, p, slot)
        if tile != NO_TILE:
            prepare_tile_eval(g, R, w, p, tile, resources, e, &tiles[slot])
    group = -1
    top.n = 0
    top.cap = NEXT_FIT_K if (look_ahead or chain) else PLACE_FIT_K
    for i in range(n):
        unpack_place(moves[i], &slot, &o, &x, &y)
        if (moves[i] >> 4) != group:           # moves come grouped by slot, o, y
            group = moves[i] >> 4
            row_value = placement_rows(R, w, &tiles[slot], o, y, e, &bound)
        v = row_value + placement_cols(R, w, pl, &tiles[slot], o, x, y, e)
        if w[G_PLACE_FIT] != 0 or look_ahead or chain:  # keep the best few
            if scores == NULL and v + bound < topk_floor(&top) - TIE_EPS:
                continue
            v += placement_rest(R, w, &tiles[slot], o, x, y, e,
                                topk_floor(&top) - TIE_EPS - v
                                if w[G_POCKET] > 0 and scores == NULL else -1e300)
            if scores != NULL:
                scores[i] = v
            topk_offer(&top, i, v)
            continue
        if argmax_hopeless(a, v + bound):
            continue
        v += placement_rest(R, w, &tiles[slot], o, x, y, e,
                            argmax_cutoff(a, v) if w[G_POCKET] > 0 else -1e300)
        argmax_offer(a, g, i, v)
    # relative to greedy's best, so scores stay comparable to the other moves'
    if top.n and w[G_PLACE_FIT] != 0:
        best_fit = place_fit_value(g, R, p, e, moves[top.index[0]])
        for i in range(1, top.n):
            top.value[i] += w[G_PLACE_FIT] * (
                place_fit_value(g, R, p, e, moves[top.index[i]]) - best_fit)
    if top.n and look_ahead:
        add_next_fit(g, R, w, p, moves, top.index, top.value, top.n)
    if top.n and chain:
        add_end_chain(g, R, w, p, moves, top.index, top.value, top.n)
    for i in range(top.n):
        argmax_offer(a, g, top.index[i], top.value[i])


cdef inline void offer_patches(Game_t* g, const Rules_t* R, const double* w, int p,
                               const uint32_t* moves, int n, const PlaceEval* e,
                               Argmax* a) noexcept nogil:
    """D_PATCH: each square by eval_patch_square; storing the patch by G_STORE."""
    cdef int i
    cdef double v
    for i in range(n):
        if moves[i] == MV_STORE:
            v = w[G_STORE]
        else:
            v = eval_patch_square(g, R, w, p, moves[i] % GRID, moves[i] // GRID, e)
        argmax_offer(a, g, i, v)


cdef inline int greedy_on_planet(Game_t* g, const Rules_t* R, const double* w, int p,
                                 const uint32_t* moves, int n, double* scores,
                                 PlaceEval* buf, double* best, Argmax* a) noexcept nogil:
    """D_PLACE and D_PATCH: both read the planet's per-decision evaluator
    (`buf`, or malloc'd for this call); `best` receives the chosen value."""
    cdef PlaceEval* e = buf if buf != NULL else <PlaceEval*>malloc(sizeof(PlaceEval))
    if e == NULL:
        return 0
    prepare_place_eval(g, R, w, p, e)
    if g.decision == D_PLACE:
        offer_placements(g, R, w, p, moves, n, scores, e, a)
    else:
        offer_patches(g, R, w, p, moves, n, e, a)
    if buf == NULL:
        free(e)
    if best != NULL:
        best[0] = a.best
    return a.index


cdef inline void offer_tracks(Game_t* g, const Rules_t* R, const double* w, int p,
                              const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_ENERGY, D_SYNERGY, D_TRACK: the tracker's steps (track_value, or the
    item's own rule), plus the fitted track values scaled by G_TRACK_FIT."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef double ctx[TRACK_FIT_CONTEXT]
    cdef int i, t
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    if w[G_TRACK_FIT] != 0:
        track_context(g, R, p, ctx)
    for i in range(n):
        t = <int>(moves[i] & 7)
        if moves[i] & SYNERGY_TWICE:
            # Jump Drive tech C: worth it when two steps beat one by a margin
            v = track_value(g, R, w, p, t, 2, &inc) - 0.3
        elif g.item.kind == IT_CHOOSE_ADVANCE:
            v = track_value(g, R, w, p, t, g.item.b, &inc)
        elif g.item.kind == IT_RAISE:
            v = track_value(g, R, w, p, t, max(1, g.item.a - board_row(R, pl, t)), &inc)
        elif g.item.kind == IT_CLAIM_ROW:
            v = claim_row_value(g, R, w, p, pl.track[t])
        else:
            v = track_value(g, R, w, p, t, 1, &inc)
        if w[G_TRACK_FIT] != 0:
            v += w[G_TRACK_FIT] * track_fit(g, R, ctx, p, t)
        argmax_offer(a, g, i, v)


cdef inline void offer_regress(Game_t* g, const Rules_t* R, const double* w, int p,
                               const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_REGRESS: lose as little as possible: medals and progress, tech levels,
    the objective cards' pull, and (G_REGRESS_*) the path's benefits."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef int i, t, q
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    q = regress_amount(g, R, p, g.item.a, g.item.b)
    for i in range(n):
        t = <int>moves[i]
        v = -(medal_potential(R, w, pl.corp, t, pl.track[t])
              - medal_potential(R, w, pl.corp, t, pl.track[t] - q)) * w[G_TRACK]
        v -= inc.track[t] * q
        if t == TECH:
            v -= w[G_TECH] * (tech_level(g, R, p) - R.tech_level_at[pl.corp][pl.track[TECH] - q])
        if w[G_REGRESS_RECLAIM] != 0 or w[G_REGRESS_DELAY] != 0:
            v += regress_path(g, R, w, p, t, q)
        argmax_offer(a, g, i, v)


cdef inline void offer_kept_resources(Game_t* g, const Rules_t* R, const double* w, int p,
                                      const uint32_t* moves, int n,
                                      Argmax* a) noexcept nogil:
    """D_KEEP_RESOURCE: an energy by its best track, other resources by their own."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef Item_t kept
    cdef int i, t
    cdef double v, step
    objective_incentives(g, R, w, p, &inc)
    for i in range(n):
        kept = pl.keep[moves[i]]
        if kept.kind == IT_ENERGY:
            v = 0.0
            for t in range(N_TRACKS):
                if (kept.a >> t) & 1 and can_advance(g, R, p, t):
                    step = track_value(g, R, w, p, t, 1, &inc)
                    if step > v:
                        v = step
        else:
            v = track_value(g, R, w, p, kept.a,
                            2 if kept.c == 1 and tech_doubles_water(g, R, p) else 1, &inc)
        argmax_offer(a, g, i, v)


cdef inline void offer_losses(Game_t* g, const Rules_t* R, const double* w, int p,
                              const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_DESTROY_LIFEPOD / D_DESTROY_ROVER: lose the lifepod no rover will reach,
    or the rover far from every lifepod."""
    cdef const Player_t* pl = &g.pl[p]
    cdef double val[GRID][GRID]
    cdef int i, q
    cdef double v
    target_distances(g, R, w, p, 1.0, 0.0, val)
    for i in range(n):
        q = moves[i]
        if g.decision == D_DESTROY_LIFEPOD:
            v = -rover_closeness(pl, q % GRID, q // GRID)
        else:
            v = -val[pl.rover_y[q]][pl.rover_x[q]]
        argmax_offer(a, g, i, v)


cdef inline void offer_rover_squares(Game_t* g, const Rules_t* R, const double* w, int p,
                                     const uint32_t* moves, int n,
                                     Argmax* a) noexcept nogil:
    """D_ROVER_PLACE / D_TELEPORT: the square's value as a rover stand (targets
    over distance); a teleport loses the value of the square it leaves."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef double val[GRID][GRID]
    cdef int i, q, r
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    target_distances(g, R, w, p, 1.0 + inc.lifepod, w[G_METEOR_TARGET] + inc.meteorite, val)
    for i in range(n):
        if moves[i] == MV_DONE:
            v = 0.0
        else:
            q = moves[i] & 0xFF
            v = val[q // GRID][q % GRID]
            if g.decision == D_TELEPORT:
                r = moves[i] >> 8
                v -= val[pl.rover_y[r]][pl.rover_x[r]]
        argmax_offer(a, g, i, v)


cdef inline void offer_rotations(Game_t* g, const Rules_t* R, const double* w, int p,
                                 const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_ROTATION: each station rotation by the better tile it brings this player."""
    cdef int i, saved = g.rotation
    cdef double small, large
    for i in range(n):
        g.rotation = <uint8_t>moves[i]
        small = tile_quick_value(g, R, w, p, depot_tile(g, R, p, 0))
        large = tile_quick_value(g, R, w, p, depot_tile(g, R, p, 1))
        argmax_offer(a, g, i, small if small > large else large)
    g.rotation = <uint8_t>saved


cdef inline double line_meteorites_value(const Player_t* pl, const Rules_t* R,
                                         uint32_t line) noexcept nogil:
    """D_LINE: the meteorites in a row (line < GRID) or a column, each worth
    1 + the medals it keeps from its lines."""
    cdef int x, y
    cdef double v = 0.0
    for y in range(GRID):
        for x in range(GRID):
            if grid_has(pl.meteorite, x, y) and (
                    (line < GRID and y == <int>line)
                    or (line >= GRID and x == <int>line - GRID)):
                v += 1.0 + meteorite_line_value(pl, R, x, y)
    return v


cdef inline double no_place_value(Game_t* g, const Rules_t* R, const double* w, int p,
                                  int slot) noexcept nogil:
    """D_NO_PLACE: a tile given up for its resources (an energy doubles the other)."""
    cdef int tile = depot_tile(g, R, p, slot)
    cdef int ta = R.tile_ta[tile], tb = R.tile_tb[tile]
    if ta == ENERGY:
        ta = tb
    if tb == ENERGY:
        tb = ta
    return track_gain(g, R, w, p, ta, 1) + track_gain(g, R, w, p, tb, 1)


cdef inline double move_value(Game_t* g, const Rules_t* R, const double* w, int p, int d,
                              uint32_t move) noexcept nogil:
    """The decisions whose moves are valued one by one, without per-decision work."""
    cdef const Player_t* pl = &g.pl[p]
    cdef double v
    if d == D_KEEP_OBJECTIVE:
        return contest_lead(g, R, p, <int>move)
    if d == D_FLUX_TRACK:
        return flux_track_value(g, R, w, p, <int>move)
    if d == D_DIRECTION:
        return direction_value(g, R, w, p, g.item.a, move)
    if d == D_REMOVE_STACK:
        # lose the stack whose top tile is worth less to this player
        return -tile_quick_value(g, R, w, p, depot_tile(g, R, p, move))
    if d == D_OBJECTIVE_DISCARD:
        return -objective_prospect(g, R, p, <int>move)
    if d == D_ORDER:
        if move == MV_MOVE:
            return 0.0
        if move > MV_POWER:
            return power_priority(g, R, w, p, <int>(move - MV_POWER))
        return item_priority(&pl.items[move])
    if d == D_POWER:
        return 0.0 if move == MV_DONE else power_value(g, R, w, p, <int>move)
    if d == D_BRANCH:
        return branch_value(g, R, w, p, <int>move)
    if d == D_CIV_PICK:
        return card_value(g, R, w, p, <int>move)
    if d == D_METEOR_SYMBOL or d == D_COLLECT_METEORITE:
        # place where it blocks least; collect where it blocks most
        if move == MV_DONE:
            return 1e6                                 # tech L5: decline it
        v = meteorite_line_value(pl, R, move % GRID, move // GRID)
        return -v if d == D_METEOR_SYMBOL else v
    if d == D_METEORITE:
        if move == MV_DONE:
            return 0.0
        return 1.0 + meteorite_line_value(pl, R, move % GRID, move // GRID)
    if d == D_LINE:
        return 0.0 if move == MV_DONE else line_meteorites_value(pl, R, move)
    if d == D_NO_PLACE:
        return no_place_value(g, R, w, p, <int>move)
    return 0.0                  # D_LIFEPOD: every lifepod is worth the same; any of them


cdef int greedy_eval(Game_t* g, const Rules_t* R, const double* w,
                     const uint32_t* moves, int n, double* scores,
                     PlaceEval* buf, double* best) noexcept nogil:
    """greedy_choose's body; with `scores` it fills scores[0..n) in scoring mode.
    `buf`: the placement evaluator's memory (NULL: malloc'd for this call).
    `best` (may be NULL): receives the chosen move's value (placements only),
    and ties keep the first move offered: the lookaheads' simulated choices
    then depend on the public state only, not on the game's generator.

    One body for both, so the search bot orders moves exactly as greedy values
    them.  Decisions answered without valuing each move (D_CHOOSE_ONE,
    D_YES_NO) write the values their rule implies.
    """
    cdef int p = g.decider, d = g.decision, i
    cdef Argmax a
    cdef Incentive inc
    cdef double v
    argmax_init(&a, w[G_NOISE], scores, best != NULL)
    if scores != NULL:
        for i in range(n):
            scores[i] = 0.0
    if d == D_PLACE or d == D_PATCH:
        return greedy_on_planet(g, R, w, p, moves, n, scores, buf, best, &a)
    if d == D_ENERGY or d == D_SYNERGY or d == D_TRACK:
        offer_tracks(g, R, w, p, moves, n, &a)
    elif d == D_REGRESS:
        offer_regress(g, R, w, p, moves, n, &a)
    elif d == D_KEEP_RESOURCE:
        offer_kept_resources(g, R, w, p, moves, n, &a)
    elif d == D_DESTROY_LIFEPOD or d == D_DESTROY_ROVER:
        offer_losses(g, R, w, p, moves, n, &a)
    elif d == D_ROVER_PLACE or d == D_TELEPORT:
        offer_rover_squares(g, R, w, p, moves, n, &a)
    elif d == D_ROTATION:
        offer_rotations(g, R, w, p, moves, n, &a)
    elif d == D_ROVER_STEP:
        objective_incentives(g, R, w, p, &inc)
        return greedy_rover_step(g, R, w, p, moves, n, &inc, scores, best != NULL)
    elif d == D_POD_PLACE or d == D_POD_MOVE or d == D_POD_DESTROY:
        return greedy_pods(g, R, w, p, moves, n, &a)
    elif d == D_CHOOSE_ONE:
        if scores != NULL:
            scores[0] = 1.0
        return 0                                       # a synergy beats a peek
    elif d == D_YES_NO:
        v = option_value(g, R, w, p, &g.item)
        if scores != NULL and n > 1:
            scores[1] = v                              # move 1 is "use it", move 0 is 0
        return 1 if v > 0 else 0
    else:
        for i in range(n):
            argmax_offer(&a, g, i, move_value(g, R, w, p, d, moves[i]))
    return a.index
