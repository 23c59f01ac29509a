# The commander's station rotation (SS-3, 3+ players) valued by the depots it
# deals: each player's best placement from the depot the rotation puts in front
# of them, as greedy values that placement.
#
# Why: greedy's own rotation value reads only a placement-free sketch of the
# commander's two tiles (their resources and size, tile_quick_value), while a
# search restricted to the commander's rotations gains more than any other kind
# of decision in 3-player games (experiments/bots/search_by_decision.py
# --players 3: +4.1 points of margin over the best opponent, 62% of opponents
# beaten against 49%).  Valuing each rotation by the best placement of the
# commander's depot (w[G_ROTATION_FIT]) and taking off w[G_ROTATION_DENY] x
# the mean of what the other players' depots give them is cheap: six rotations
# once a round, each a few placement evaluations.  All 12 top tiles are public
# (SS-1, SS-3), so nothing hidden is read.  In solo the same valuation picks
# the depot of the event that lets the player turn the station (SS-7).

cdef double depot_best_value(const Game_t* g, const Rules_t* R, int q, uint8_t rotation,
                             NextFitScratch* s, double floor=-1e300) noexcept nogil:
    """Greedy's best placement value (s.w) for player q from the depot
    `rotation` puts in front of q; 0 when none of its tiles can be placed.
    Placements that cannot reach `floor` are pruned: when none does, the value
    returned is below the floor (not the best one's)."""
    cdef Game_t* a = &s.after
    cdef int n
    cdef double value = 0.0
    cdef Argmax am
    memcpy(a, g, sizeof(Game_t))
    a.rotation = rotation
    if open_placement(a, R, q, s, &n):
        argmax_init(&am, 0.0, NULL, True)          # greedy_eval's mode with `best`
        am.value_only = True                       # best bound first: the same value
        argmax_floor(&am, floor)
        greedy_on_planet(a, R, s.w, q, s.moves, n, NULL, &s.e, &value, &am, NO_SEED)
    return value


cdef enum:
    STATION_ORIENTATIONS = N_STACKS // 2  # a rotation move per depot (SS-3: 0..5)
    ROTATION_DENY_WIDTH = 2  # rotations best for the commander that count the others'


cdef bint offer_fitted_rotations(Game_t* g, const Rules_t* R, const double* w, int p,
                                 const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_ROTATION by w[G_ROTATION_FIT] x (p's depot value - w[G_ROTATION_DENY]
    x the other players' mean), the others valued only for the
    ROTATION_DENY_WIDTH rotations best for p (ties: the first), the rest
    offered below them in their order, without ties; False (nothing offered)
    without memory.  The deny counts only with at most
    w[G_ROTATION_DENY_PLAYERS] players when that is set (greedy_tuned: 3).

    Why it is cheaper than valuing every depot: when choosing, p's depots are
    valued best sketch first (rotation_sketch), each pruned
    against the worst rotation kept so far (without the deny, the best), so
    a depot that cannot be kept stops at its bounds.  The kept ones are
    valued exactly, so the choice is the one valuing every depot in full;
    scoring mode (the search bot's ordering) values every depot exactly."""
    cdef NextFitScratch* s
    cdef int i, j, k, q, others = g.n_players - 1
    cdef double own[STATION_ORIENTATIONS]
    cdef double net[STATION_ORIENTATIONS]
    cdef double sketch[STATION_ORIENTATIONS]
    cdef int order[STATION_ORIENTATIONS]
    cdef int rank[STATION_ORIENTATIONS]
    cdef double deny, floor = 1e300
    cdef bint denies = w[G_ROTATION_DENY] != 0 and others > 0 and (
        w[G_ROTATION_DENY_PLAYERS] == 0 or g.n_players <= w[G_ROTATION_DENY_PLAYERS])
    # the learned value (greedy_rotation_round.pxi) reads every depot's exact value
    cdef bint learned = w[G_ROTATION_ROUND] != 0 and g.n_players >= 3
    cdef bint prunes = a.scores == NULL and w[G_ROTATION_FIT] > 0 and not learned
    cdef int width = ROTATION_DENY_WIDTH if denies else (1 if prunes else n)
    s = <NextFitScratch*>malloc(sizeof(NextFitScratch))
    if s == NULL or n > STATION_ORIENTATIONS:
        free(s)
        return False
    place_eval_init(&s.e)
    memcpy(s.w, w, MAX_BOT_PARAMS * sizeof(double))
    s.w[G_ROTATION_FIT] = 0.0
    s.w[G_PLACE_FIT] = 0.0          # nothing kept and re-ranked: the bound prunes
    s.w[G_NTUPLE] = 0.0
    s.w[G_NEXT_FIT] = 0.0           # one-ply, as at 3+ players (solo: event 79's turn)
    s.w[G_END_CHAIN] = 0.0
    for i in range(n):
        sketch[i] = rotation_sketch(g, R, w, p, <uint8_t>moves[i])
    best_first(sketch, n, order)    # best sketch first, so the floor rises early
    for j in range(n):
        i = order[j]
        own[i] = w[G_ROTATION_FIT] * depot_best_value(
            g, R, p, <uint8_t>moves[i], s,
            kth_largest(own, order, j, width) / w[G_ROTATION_FIT] if prunes else -1e300)
    for i in range(n):
        # kept: fewer than `width` options rank above i (a pruned value is
        # below every kept one, so it is never counted above one)
        k = 0
        for q in range(n):
            if own[q] > own[i] or (own[q] == own[i] and q < i):
                k += 1
        rank[i] = k
        net[i] = own[i]
        if k < width and denies:
            deny = 0.0
            for q in range(g.n_players):
                if q != p:
                    deny += depot_best_value(g, R, q, <uint8_t>moves[i], s)
            net[i] -= w[G_ROTATION_FIT] * w[G_ROTATION_DENY] * deny / others
        if k < width:
            floor = min(floor, net[i])
    for i in range(n):
        if rank[i] >= width:
            net[i] = floor - rank[i]
    if learned:
        rotation_round_values(g, R, w, p, moves, n, net, s, own)
        memcpy(net, own, n * sizeof(double))
    for i in range(n):
        argmax_offer(a, g, i, net[i])
    free(s)
    return True


cdef inline void best_first(const double* v, int n, int* order) noexcept nogil:
    """order[0..n) = the indices of v, highest value first (stable: ties keep
    the earlier index)."""
    cdef int i, j
    for i in range(n):
        j = i
        while j > 0 and v[order[j - 1]] < v[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i


cdef inline double kth_largest(const double* v, const int* index, int m,
                               int k) noexcept nogil:
    """The k-th largest of v[index[0..m)]; -1e300 when m < k (nothing to prune by)."""
    cdef int i, q, above
    if m < k:
        return -1e300
    for i in range(m):
        above = 0
        for q in range(m):
            if v[index[q]] > v[index[i]] or (v[index[q]] == v[index[i]] and q < i):
                above += 1
        if above == k - 1:
            return v[index[i]]
    return -1e300
