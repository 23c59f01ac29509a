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


cdef inline void add_item_incentive(Incentive* inc, int item, double v) noexcept nogil:
    if item == 0:
        inc.lifepod += v
    else:
        inc.meteorite += v


cdef void objective_incentives(const Game_t* g, const Rules_t* R, const double* w, int p,
                               Incentive* inc) noexcept nogil:
    """Incentives from player p's objective cards (private, then neighbour)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o
    cdef double W = w[G_OBJECTIVE] * OBJ_WIN, Wn
    cdef int i, k, card, kind, left, n, y, t
    incentive_zero(inc)
    if w[G_OBJECTIVE] == 0:
        return
    for i in range(pl.n_priv):
        card = pl.priv[i]
        o = R.obj_private[card]
        kind = o[0]
        # a met card stops pulling: tracks, collections and ice fade by themselves,
        # a rectangle is cheap to check; an icon-rich area keeps its small pull
        if kind == OC_RECT:
            if not objective_met(g, R, p, card):
                inc.cluster[o[1]] += 0.08 * W
        elif kind == OC_AREA_RES:
            inc.cluster[o[1]] += 0.06 * W
            inc.icon[o[2]] += 0.04 * W
        elif kind == OC_TRACKER_TOP:
            left = TOP - pl.track[o[1]]
            if left > 0:
                inc.track[o[1]] += 0.7 * W / left
        elif kind == OC_RES_AT_MOST:
            n = grid_count(pl.icon[o[1]])
            inc.icon[o[1]] -= W if n >= o[2] else 0.1 * W * (n + 1) / (o[2] + 1.0)
        elif kind == OC_COLLECTED_AT_LEAST:
            left = o[2] - collected_item(pl, o[1])
            if left > 0:
                add_item_incentive(inc, o[1], 0.5 * W / left)
        elif kind == OC_COLLECTED_GT:
            add_item_incentive(inc, o[1], 0.1 * W)
            add_item_incentive(inc, o[2], -0.1 * W)
        elif kind == OC_NO_ICE:
            left = 0
            for y in range(GRID):
                left += popcount16(R.pmask[pl.planet][PM_ICE][y] & ~pl.occ[y])
            if left > 0:
                inc.ice += 0.6 * W / left
    Wn = 0.6 * W
    for k in range(g.n_neighbour):
        if not (g.n_players == 2 or k == p or (k + 1) % g.n_players == p):
            continue
        o = R.obj_neighbour[g.neighbour[k]]
        kind = o[0]
        if kind == OM_RES_EDGE:
            inc.edge_icon[o[1]] += 0.3 * Wn
        elif kind == OM_LARGEST_AREA:
            inc.cluster[o[1]] += 0.05 * Wn
        elif kind == OM_AREA_COUNT:
            inc.spread[o[1]] += 0.25 * Wn
        elif kind == OM_RES_PLANET:
            inc.icon[o[1]] -= 0.15 * Wn                  # fewer wins
        elif kind == OM_TRACKERS_TOP:
            for t in range(N_TRACKS):
                left = TOP - pl.track[t]
                if (o[1] >> t) & 1 and 0 < left <= 4:
                    inc.track[t] += 0.3 * Wn / left
        elif kind == OM_COLLECTED:
            add_item_incentive(inc, o[1], (0.15 if o[5] else -0.15) * Wn)


cdef double track_incentive(const Game_t* g, const Rules_t* R, const double* w, int p,
                            int t, int steps) noexcept nogil:
    """What objective cards add to `steps` advances of track t."""
    cdef Incentive inc
    if w[G_OBJECTIVE] == 0 or (g.pl[p].n_priv == 0 and g.n_neighbour == 0):
        return 0.0
    objective_incentives(g, R, w, p, &inc)
    if g.pl[p].track[t] + steps > TOP:
        steps = TOP - g.pl[p].track[t]
    return inc.track[t] * steps if steps > 0 else 0.0


cdef double objective_prospect(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """Rough chance that player p meets a private card by the end (discard choice)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o = R.obj_private[card]
    cdef int kind = o[0], n
    if objective_met(g, R, p, card):
        return 0.9 if (kind == OC_RES_AT_MOST or kind == OC_COLLECTED_GT) else 1.0
    if kind == OC_RECT:
        return 0.25 if o[2] == o[3] else 0.2
    if kind == OC_AREA_RES:
        return 0.3
    if kind == OC_TRACKER_TOP:
        return 0.15 + 0.7 * pl.track[o[1]] / <double>TOP
    if kind == OC_RES_AT_MOST:
        return 0.0                                       # already exceeded
    if kind == OC_COLLECTED_AT_LEAST:
        n = collected_item(pl, o[1])
        return 0.05 + 0.6 * n / <double>o[2]
    if kind == OC_COLLECTED_GT:
        return 0.4
    if kind == OC_NO_ICE:
        return 0.45
    return 0.3                                           # OC_NO_LAND
