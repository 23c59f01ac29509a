# The greedy bot's view of objectives: each card the player holds (private) or
# sits at (neighbour) becomes small incentives on the features the bot already
# scores, so placements and track choices lean toward what the cards reward.
#
# Weights scale with G_OBJECTIVE; the fixed shares below say how strongly one
# unit of a feature moves a card (rough, but every one points the right way).

cdef struct Incentive:
    double track[N_TRACKS]       # per step of a track toward its top
    double cluster[N_TERRAINS]   # per tile square of terrain t joining an area of t
    double spread[N_TERRAINS]    # per tile part of terrain t starting a new area of t
    double icon[N_TERRAINS]      # per resource icon of type r placed
    double edge_icon[N_TERRAINS]  # per icon of type r on an edge square
    double ice                   # per ice square covered
    double lifepod               # added value of collecting a lifepod
    double meteorite             # added value of collecting a meteorite
    int top_left[N_TRACKS]       # steps a tracker-at-the-top card still needs (0: none)
    int ice_left                 # open ice squares a no-uncovered-ice card still has
    double chance_w              # medals per unit of objective chance (G_OBJECTIVE_CHANCE)
    int chance_round             # the round the chances are read at (after this one)
    int rects_checked            # bit i: private card i is a rectangle checked here ...
    int rects_met                # ... and met (shape_targets reads them)


cdef inline void incentive_zero(Incentive* inc) noexcept nogil:
    cdef int t
    for t in range(N_TRACKS):
        inc.track[t] = 0.0
    for t in range(N_TERRAINS):
        inc.cluster[t] = 0.0
        inc.spread[t] = 0.0
        inc.icon[t] = 0.0
        inc.edge_icon[t] = 0.0
    inc.ice = 0.0
    inc.lifepod = 0.0
    inc.meteorite = 0.0
    for t in range(N_TRACKS):
        inc.top_left[t] = 0
    inc.ice_left = 0
    inc.chance_w = 0.0
    inc.chance_round = 1
    inc.rects_checked = 0
    inc.rects_met = 0


cdef inline void add_item_incentive(Incentive* inc, int item, double v) noexcept nogil:
    if item == 0:
        inc.lifepod += v
    else:
        inc.meteorite += v


# ==== measured chances: what a move adds to a card's chance of being met ===========
#
# The objective_chance table (pu_sim/data/fitted, measured by the objective
# chances experiment) holds, per card group, units a kept card still misses
# (objective_missing) and round start, the share of such cards met at the end.
# A move that brings a card n units closer is worth 5 medals x (chance at
# missing - n - chance at missing).

cdef enum:
    OG_RECT_SQUARE = 0          # the chance groups (the objective_chance table's)
    OG_RECT_LONG = 1
    OG_AREA = 2
    OG_TOP = 3                  # 3..7: a tracker at the top, by track
    OG_COLLECT = 8
    OG_ICE = 9
    OBJ_DEAD = OBJ_CHANCE_MISSING - 1  # a rectangle with no free window left


cdef inline double objective_chance_at(const Rules_t* R, int group, int missing,
                                       int round_) noexcept nogil:
    """Measured chance that a card of the group, `missing` units from done at the
    start of round_, is met at the end (round_ past the last: the game's end)."""
    if missing < 0:
        missing = 0
    elif missing > OBJ_DEAD:
        missing = OBJ_DEAD
    round_ = 1 if round_ < 1 else min(round_, OBJ_CHANCE_ROUNDS + 1)
    return R.fitted.objective_chance[group][missing][round_ - 1]


cdef inline double chance_added(const Rules_t* R, int group, int missing, int n,
                                int round_) noexcept nogil:
    """What coming n units closer adds to a card's measured chance."""
    return (objective_chance_at(R, group, missing - n, round_)
            - objective_chance_at(R, group, missing, round_))


cdef int objective_chance_group(const Rules_t* R, int card) noexcept nogil:
    """The chance table a private card reads (-1: none is measured for its kind)."""
    cdef const uint8_t* o = R.obj_private[card]
    if o[0] == OC_HAS_SOLID_RECTANGLE:
        return OG_RECT_SQUARE if o[2] == o[3] else OG_RECT_LONG
    if o[0] == OC_HAS_TERRAIN_AREA_WITH_RESOURCES:
        return OG_AREA
    if o[0] == OC_TRACKER_AT_MAXIMUM:
        return OG_TOP + o[1]
    if o[0] == OC_COLLECTED_AT_LEAST and o[1] == 1:
        return OG_COLLECT
    if o[0] == OC_NO_UNCOVERED_ICE:
        return OG_ICE
    return -1


cdef int rect_progress(const Player_t* pl, const Rules_t* R, const uint8_t* o,
                       uint16_t* win) noexcept nogil:
    """Squares of the card's terrain in its best free window (either orientation
    where the card allows), the window in win; -1: no window is free of other
    terrain and meteorites."""
    cdef uint16_t bad[GRID]
    cdef uint16_t alt[GRID]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef int y, have, have2, t = o[1]
    for y in range(GRID):
        bad[y] = (pl.occ[y] & ~pl.terr[t][y]) | pl.meteorite[y]
    have = best_window(pl.terr[t], bad, grid, o[2], o[3], win)
    if o[4] and o[2] != o[3]:
        have2 = best_window(pl.terr[t], bad, grid, o[3], o[2], alt)
        if have2 > have:
            have = have2
            grid_copy(win, alt)
    return have


cdef int objective_missing(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """Units player p's private card still misses (0: met; OBJ_DEAD: a rectangle
    with no room): squares of the best window, icons of the richest area, steps to
    the top, meteorites to collect, ice squares to cover.  Other kinds: 0 when
    met, else 1."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o = R.obj_private[card]
    cdef uint16_t buf[GRID]
    cdef int n
    if objective_met(g, R, p, card):
        return 0
    if o[0] == OC_HAS_SOLID_RECTANGLE:
        n = rect_progress(pl, R, o, buf)
        n = OBJ_DEAD if n < 0 else o[2] * o[3] - n
    elif o[0] == OC_HAS_TERRAIN_AREA_WITH_RESOURCES:
        n = o[3] - max(0, richest_area(pl.terr[o[1]], pl.icon[o[2]], buf))
    elif o[0] == OC_TRACKER_AT_MAXIMUM:
        n = (TOP - 1 if pl.corp == CORP_WORMHOLE and o[1] == BIOMASS
             else track_top(pl, o[1])) - pl.track[o[1]]
    elif o[0] == OC_COLLECTED_AT_LEAST:
        n = o[2] - collected_item(pl, o[1])
    elif o[0] == OC_NO_UNCOVERED_ICE:
        n = open_ice(R, pl)
    else:
        n = 1
    return max(1, min(n, OBJ_DEAD if o[0] == OC_HAS_SOLID_RECTANGLE else OBJ_DEAD - 1))


cdef void objective_chance_incentives(const Game_t* g, const Rules_t* R, const double* w,
                                      int p, Incentive* inc) noexcept nogil:
    """objective_chance for tracker-at-the-top, meteorite and ice cards (rectangles
    and areas: shape_targets): steps and ice squares still needed, and what one
    more meteorite adds."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int i, card, group, missing
    inc.chance_w = w[G_OBJECTIVE_CHANCE] * OBJ_WIN
    inc.chance_round = g.round + 1
    if inc.chance_w == 0.0:
        return
    for i in range(pl.n_priv):
        card = pl.priv[i]
        group = objective_chance_group(R, card)
        if group < OG_TOP:
            continue
        missing = objective_missing(g, R, p, card)
        if missing == 0:
            continue
        if group == OG_ICE:
            inc.ice_left = missing
        elif group == OG_COLLECT:
            add_item_incentive(inc, 1, inc.chance_w * chance_added(R, group, missing, 1,
                                                                   inc.chance_round))
        else:
            inc.top_left[group - OG_TOP] = missing


cdef void objective_incentives(const Game_t* g, const Rules_t* R, const double* w, int p,
                               Incentive* inc) noexcept nogil:
    """Incentives from player p's objective cards (private, then neighbour)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o
    cdef double W = w[G_OBJECTIVE] * OBJ_WIN, Wn
    cdef int i, k, card, kind, left, n, y, t
    incentive_zero(inc)
    objective_chance_incentives(g, R, w, p, inc)
    if w[G_OBJECTIVE] == 0 and w[G_NEIGHBOUR] == 0:
        return
    for i in range(pl.n_priv):
        card = pl.priv[i]
        o = R.obj_private[card]
        kind = o[0]
        # a met card stops pulling: tracks, collections and ice fade by themselves,
        # a rectangle is cheap to check; an icon-rich area keeps its small pull
        if kind == OC_HAS_SOLID_RECTANGLE:
            inc.rects_checked |= 1 << i
            if objective_met(g, R, p, card):
                inc.rects_met |= 1 << i
            else:
                inc.cluster[o[1]] += 0.08 * W
        elif kind == OC_HAS_TERRAIN_AREA_WITH_RESOURCES:
            inc.cluster[o[1]] += 0.06 * W
            inc.icon[o[2]] += 0.04 * W
        elif kind == OC_TRACKER_AT_MAXIMUM:
            left = TOP - pl.track[o[1]]
            if left > 0:
                inc.track[o[1]] += 0.7 * W / left
        elif kind == OC_RESOURCE_COUNT_AT_MOST:
            n = grid_count(pl.icon[o[1]])
            inc.icon[o[1]] -= W if n >= o[2] else 0.1 * W * (n + 1) / (o[2] + 1.0)
        elif kind == OC_COLLECTED_AT_LEAST:
            left = o[2] - collected_item(pl, o[1])
            if left > 0:
                add_item_incentive(inc, o[1], 0.5 * W / left)
        elif kind == OC_COLLECTED_GREATER_THAN:
            add_item_incentive(inc, o[1], 0.1 * W)
            add_item_incentive(inc, o[2], -0.1 * W)
        elif kind == OC_NO_UNCOVERED_ICE:
            left = open_ice(R, pl)
            if left > 0:
                inc.ice += 0.6 * W / left
    Wn = 0.6 * (w[G_OBJECTIVE] + w[G_NEIGHBOUR]) * OBJ_WIN
    for k in range(g.n_neighbour):
        if not (g.n_players == 2 or k == p or (k + 1) % g.n_players == p):
            continue
        o = R.obj_neighbour[g.neighbour[k]]
        kind = o[0]
        if kind == OM_COUNT_RESOURCES_ON_EDGE:
            inc.edge_icon[o[1]] += 0.3 * Wn
        elif kind == OM_LARGEST_TERRAIN_AREA_SIZE:
            inc.cluster[o[1]] += 0.05 * Wn
        elif kind == OM_TERRAIN_AREA_COUNT:
            inc.spread[o[1]] += 0.25 * Wn
        elif kind == OM_COUNT_RESOURCES_ON_PLANET:
            inc.icon[o[1]] -= 0.15 * Wn                  # fewer wins
        elif kind == OM_TRACKERS_AT_MAXIMUM_COUNT:
            for t in range(N_TRACKS):
                left = TOP - pl.track[t]
                if (o[1] >> t) & 1 and 0 < left <= 4:
                    inc.track[t] += 0.3 * Wn / left
        elif kind == OM_COLLECTED_COUNT:
            add_item_incentive(inc, o[1], (0.15 if o[5] else -0.15) * Wn)


cdef double objective_prospect(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """Rough chance that player p meets a private card by the end (discard choice):
    the measured base rate before the first tile (the objective_rate table: how
    often greedy_tuned met each card it kept; the setup discard gives up the card
    least likely to pay, which no rule of thumb got right), its progress after."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o = R.obj_private[card]
    cdef int kind = o[0], n
    if not pl.placed_any:
        return R.fitted.objective_rate[card]
    if objective_met(g, R, p, card):
        return 0.9 if (kind == OC_RESOURCE_COUNT_AT_MOST
                       or kind == OC_COLLECTED_GREATER_THAN) else 1.0
    if kind == OC_HAS_SOLID_RECTANGLE:
        return 0.25 if o[2] == o[3] else 0.2
    if kind == OC_HAS_TERRAIN_AREA_WITH_RESOURCES:
        return 0.3
    if kind == OC_TRACKER_AT_MAXIMUM:
        return 0.15 + 0.7 * pl.track[o[1]] / <double>TOP
    if kind == OC_RESOURCE_COUNT_AT_MOST:
        return 0.0                                       # already exceeded
    if kind == OC_COLLECTED_AT_LEAST:
        n = collected_item(pl, o[1])
        return 0.05 + 0.6 * n / <double>o[2]
    if kind == OC_COLLECTED_GREATER_THAN:
        return 0.4
    if kind == OC_NO_UNCOVERED_ICE:
        return 0.45
    return 0.3                                           # OC_NO_UNCOVERED_LAND


# ==== shape targets: where a rectangle or an icon-rich area is being built ==========
#
# A rectangle card (OC_HAS_SOLID_RECTANGLE) pays only for one solid block, and an
# area card (OC_HAS_TERRAIN_AREA_WITH_RESOURCES) only for one area, so a pull toward
# "any square of the terrain" scatters the terrain and almost never meets them.
# Each decision the bot picks one target per unmet card instead: the free window
# with most of the terrain already in it, or the squares next to the area with most
# icons; a placement is valued by the terrain it puts in the target and the other
# terrain that spoils it.

cdef enum:
    MAX_SHAPE_TARGETS = 8
    MAX_GAIN = 10                         # squares one placement can add to a window


cdef struct ShapeTargets:
    int n
    int terrain[MAX_SHAPE_TARGETS]
    bint area[MAX_SHAPE_TARGETS]          # an area card: joining counts once per part
    double inside[MAX_SHAPE_TARGETS]      # rect: per square of the terrain in the target
    double join[MAX_SHAPE_TARGETS]        # area: a part of the terrain touching the area
    double spoil[MAX_SHAPE_TARGETS]       # rect: other terrain in the window
    double gain[MAX_SHAPE_TARGETS][MAX_GAIN + 1]  # rect: chance added by n squares in
    uint16_t win[MAX_SHAPE_TARGETS][GRID]  # rect: the window's free squares; area: the ring
    int lo[MAX_SHAPE_TARGETS]             # first and last row with a square of win
    int hi[MAX_SHAPE_TARGETS]             # (lo > hi: none)


cdef int best_window(const uint16_t* terrain, const uint16_t* bad, const uint16_t* grid,
                     int w, int h, uint16_t* win) noexcept nogil:
    """The w x h window of grid squares free of `bad` holding most terrain squares
    (first in row order on ties); its squares in win, the count returned (-1: none).
    Only windows whose every row is open are counted: a row's open starts are
    found for all x at once (bit x: columns x..x+w-1 are grid and not bad)."""
    cdef int x, y, i, have, best = -1
    cdef uint16_t m, starts, usable
    cdef uint16_t open_at[GRID]
    for y in range(GRID):
        usable = grid[y] & ~bad[y]
        open_at[y] = <uint16_t>((1 << (GRID - w + 1)) - 1)
        for i in range(w):
            open_at[y] &= <uint16_t>(usable >> i)
    for y in range(GRID - h + 1):
        starts = open_at[y]
        for i in range(1, h):
            starts &= open_at[y + i]
        while starts:
            x = __builtin_ctz(starts)
            starts &= starts - 1
            m = <uint16_t>(((1 << w) - 1) << x)
            have = 0
            for i in range(h):
                have += popcount16(terrain[y + i] & m)
            if have > best:
                best = have
                grid_zero(win)
                for i in range(h):
                    win[y + i] = m
    return best


cdef inline bint private_met(const Game_t* g, const Rules_t* R, int p, int i,
                             const Incentive* inc) noexcept nogil:
    """Whether player p meets private card i, read from inc where
    objective_incentives checked it (a rectangle's check is the costly one)."""
    if (inc.rects_checked >> i) & 1:
        return (inc.rects_met >> i) & 1
    return objective_met(g, R, p, g.pl[p].priv[i])


cdef void shape_targets(const Game_t* g, const Rules_t* R, const double* w, int p,
                        const Incentive* inc, ShapeTargets* st) noexcept nogil:
    """One target per unmet rectangle or area card of player p (G_SHAPE scales;
    inc: objective_incentives' for this decision)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef const uint8_t* o
    cdef uint16_t best_comp[GRID]
    cdef int i, k, n, t, y, have, area, top, group, r = g.round + 1
    cdef double W = w[G_SHAPE] * OBJ_WIN, Wc = w[G_OBJECTIVE_CHANCE] * OBJ_WIN
    st.n = 0
    if W == 0 and Wc == 0:
        return
    for i in range(pl.n_priv):
        if st.n >= MAX_SHAPE_TARGETS:
            break
        o = R.obj_private[pl.priv[i]]
        if ((o[0] != OC_HAS_SOLID_RECTANGLE and o[0] != OC_HAS_TERRAIN_AREA_WITH_RESOURCES)
                or private_met(g, R, p, i, inc)):
            continue
        t = o[1]
        k = st.n
        st.terrain[k] = t
        st.inside[k] = 0.0
        st.join[k] = 0.0
        st.spoil[k] = 0.0
        if o[0] == OC_HAS_SOLID_RECTANGLE:
            st.area[k] = False
            have = rect_progress(pl, R, o, st.win[k])
            if have < 0:
                continue                                   # no room left for it
            area = o[2] * o[3]
            for y in range(GRID):
                st.win[k][y] &= ~pl.occ[y]
            st.inside[k] = W / (area - have)
            st.spoil[k] = W * (have + 1.0) / area
            # measured chances: n more squares in the window, or starting again
            group = objective_chance_group(R, pl.priv[i])
            for n in range(MAX_GAIN + 1):
                st.gain[k][n] = Wc * chance_added(R, group, area - have, n, r)
            st.spoil[k] += Wc * chance_added(R, group, area, have, r)
        else:
            st.area[k] = True
            # the area of the terrain holding most of the card's icons
            top = richest_area(pl.terr[t], pl.icon[o[2]], best_comp)
            if top < 0:
                continue                                   # no area yet: any start will do
            dilate(best_comp, st.win[k])
            for y in range(GRID):
                st.win[k][y] &= grid[y] & ~pl.occ[y]
            st.join[k] = W / (o[3] - top if o[3] > top else 1)
            st.join[k] += Wc * chance_added(R, OG_AREA, o[3] - top, 1, r)
        st.lo[k] = GRID
        st.hi[k] = -1
        for y in range(GRID):
            if st.win[k][y]:
                st.lo[k] = min(st.lo[k], y)
                st.hi[k] = y
        st.n += 1


cdef inline bint target_rows_missed(const ShapeTargets* st, int k, int y,
                                    int h) noexcept nogil:
    """Rows y..y+h-1 hold no square of target k's window."""
    return y > st.hi[k] or y + h <= st.lo[k]


cdef double shape_value(const ShapeTargets* st, int ta, int tb, const uint16_t* fa,
                        const uint16_t* fb, int y, int h) noexcept nogil:
    """What a placement (part footprints fa, fb on rows y..y+h-1) adds to the targets."""
    cdef int k, i, n_in, n_bad
    cdef bint joins
    cdef const uint16_t* own
    cdef const uint16_t* other
    cdef double v = 0.0
    for k in range(st.n):
        if target_rows_missed(st, k, y, h):     # no square of the target: n_in = n_bad = 0
            if not st.area[k]:
                v += st.gain[k][0]
            continue
        if st.terrain[k] == ta:
            own = fa
            other = fb
        elif st.terrain[k] == tb:
            own = fb
            other = fa
        else:
            own = NULL
            other = NULL
        n_in = 0
        n_bad = 0
        joins = False
        for i in range(h):
            if own != NULL:
                n_in += popcount16(own[i] & st.win[k][y + i])
                n_bad += popcount16(other[i] & st.win[k][y + i])
            else:
                n_bad += popcount16((fa[i] | fb[i]) & st.win[k][y + i])
        if st.area[k]:
            if n_in > 0:
                v += st.join[k]
        else:
            v += st.inside[k] * n_in + st.gain[k][n_in if n_in < MAX_GAIN else MAX_GAIN]
            if n_bad > 0:
                v -= st.spoil[k]
    return v
