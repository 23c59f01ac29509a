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
                             NextFitScratch* s) noexcept nogil:
    """Greedy's best placement value (s.w) for player q from the depot
    `rotation` puts in front of q; 0 when none of its tiles can be placed."""
    cdef Game_t* a = &s.after
    cdef int n
    cdef double value = 0.0
    memcpy(a, g, sizeof(Game_t))
    a.rotation = rotation
    if open_placement(a, R, q, s, &n):
        greedy_eval(a, R, s.w, s.moves, n, NULL, &s.e, &value)
    return value


cdef enum:
    STATION_ORIENTATIONS = N_STACKS // 2  # a rotation move per depot (SS-3: 0..5)
    ROTATION_DENY_WIDTH = 2  # rotations best for the commander that count the others'


cdef bint offer_fitted_rotations(Game_t* g, const Rules_t* R, const double* w, int p,
                                 const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_ROTATION by w[G_ROTATION_FIT] x (p's depot value - w[G_ROTATION_DENY]
    x the other players' mean), the others valued only for the
    ROTATION_DENY_WIDTH rotations best for p (ties: the first), the rest
    offered below them; False (nothing offered) without memory."""
    cdef NextFitScratch* s
    cdef int i, k, q, others = g.n_players - 1
    cdef double own[STATION_ORIENTATIONS]
    cdef double net[STATION_ORIENTATIONS]
    cdef bint kept[STATION_ORIENTATIONS]
    cdef double deny, floor = 1e300, top = -1e300
    cdef bint denies = w[G_ROTATION_DENY] != 0 and others > 0
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
        own[i] = w[G_ROTATION_FIT] * depot_best_value(g, R, p, <uint8_t>moves[i], s)
    for i in range(n):
        # kept: fewer than ROTATION_DENY_WIDTH options rank above i
        k = 0
        for q in range(n):
            if own[q] > own[i] or (own[q] == own[i] and q < i):
                k += 1
        kept[i] = k < ROTATION_DENY_WIDTH or not denies
        if kept[i] and denies:
            deny = 0.0
            for q in range(g.n_players):
                if q != p:
                    deny += depot_best_value(g, R, q, <uint8_t>moves[i], s)
            net[i] = own[i] - w[G_ROTATION_FIT] * w[G_ROTATION_DENY] * deny / others
        else:
            net[i] = own[i]
        if kept[i]:
            floor = min(floor, net[i])
            top = max(top, own[i])
    # the rotations not kept rank below every kept one, in their own order
    for i in range(n):
        argmax_offer(a, g, i, net[i] if kept[i] else floor - 1.0 - (top - own[i]))
    free(s)
    return True
