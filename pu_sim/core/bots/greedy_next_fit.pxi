# The greedy bot's look at the next round's tiles: how well the two tiles on top
# of the depot the station brings next would fit on the planet a placement
# leaves, valued by greedy's own placement evaluation.
#
# Why: greedy values each placement on its own, so it happily leaves a planet
# the next tiles fit badly.  Rollouts of greedy_tuned's best 4 placements show
# that this one-depot lookahead ranks them better (+0.068 +- 0.031 medals a
# decision at weight 0.75 when it came, +1.1 solo points in paired games still,
# experiments/bots/next_fit_values.py); summaries of the
# afterstate alone (regions, lines, cards' progress) did not.  With
# next_fit_deep it also plays greedy's choice from that depot and values the
# depot after it (+0.70 +- 0.21 solo points at 0.5 on paired games).  The tiles
# are public (the top of each stack, SS-1), so no hidden information is read.
#
# The next tiles are valued without the fitted placement table (place_fit):
# fitted to rank greedy's own choices on the planet as it is, it only blurs
# how well a tile fits a planet one placement on, and without it the lookahead
# ranks better (+0.20 +- 0.11 solo points over 16,000 paired seeds) and runs
# faster (its evaluations prune by bound again).  G_LOOK_WIDTH caps the
# placements it starts from: each costs two full evaluations.
#
# The depot after next is valued for the DEEP_LOOK_WIDTH placements ranked best
# once the next depot's value is added; the others count the mean of theirs.
# It is the smaller term (next_fit_deep 0.5), and a placement ranked seventh
# after one depot rarely wins on the second: -0.04 solo points over 16,000
# paired seeds against valuing it for all twelve (8: -0.02, 4: -0.10), for
# a fifth fewer instructions a solo game.

cdef enum:
    NEXT_FIT_K = 12       # greedy-best placements looked ahead from (>= PLACE_FIT_K)
    DEEP_LOOK_WIDTH = 6   # ... of which the best this many value the depot after next


cdef struct NextFitScratch:
    # Memory for the lookahead: the game after a candidate placement, the
    # placement evaluator and the next tiles' moves.
    Game_t after
    PlaceEval e
    uint32_t moves[MAX_MOVES]
    double w[MAX_BOT_PARAMS]


cdef inline bint next_fit_on(const Game_t* g, const double* w) noexcept nogil:
    """Look ahead only where the next round's depot is known: the station turns
    one depot clockwise by itself (SS-5, SS-6: solo, the 2-player variant).  With
    3+ players the commander chooses the rotation (SS-3), so the bot plays as
    without next_fit.  Nor in the last round (a trigger fired, 9.1): no next
    depot is played, so its tiles are worth nothing."""
    return w[G_NEXT_FIT] != 0 and not rotation_is_chosen(g) and not g.last_round


cdef inline int future_rounds(const Game_t* g) noexcept nogil:
    """Rounds still to be played after this one: one per event card left in the
    deck (9.1 C; the deck's size is public), none once a trigger fired (9.1)."""
    if g.last_round:
        return 0
    return g.deck_n - g.deck_pos


cdef inline bint next_round_is_last(const Game_t* g) noexcept nogil:
    """The next round reveals the event deck's last card (9.1 C), so the depot
    after it is never played.  The deck's size is public; about nine solo games
    in ten end this way, at round 20."""
    return g.events_on and future_rounds(g) <= 1


cdef bint next_tiles_value(const Game_t* g, const Rules_t* R, int p, uint32_t move,
                           NextFitScratch* s, double* value, uint32_t* chosen,
                           uint32_t seed) noexcept nogil:
    """Greedy's best value for placing a tile of the next depot on the planet
    `move` leaves (s.w: greedy's weights without next_fit), and that placement
    (`chosen`; `seed`: the one chosen after another option, to prune from).
    False when there is no next tile to place (empty depot, or no legal
    placement)."""
    cdef Game_t* a = &s.after
    cdef int n, i
    memcpy(a, g, sizeof(Game_t))
    if not tiles_after(a, R, p, move, s, &n):
        return False
    i = greedy_eval(a, R, s.w, s.moves, n, NULL, &s.e, value, seed)
    chosen[0] = s.moves[i]
    return True


cdef double after_next_value(const Game_t* g, const Rules_t* R, int p, uint32_t move,
                             uint32_t chosen, NextFitScratch* s,
                             uint32_t* seed) noexcept nogil:
    """Greedy's best value for the depot after next, once `move` and greedy's
    choice from the next depot (`chosen`) are placed: its top tiles are public
    too, and in solo and the 2-player variant nobody else drafts from it
    first.  0 when no tile of it can be placed.  `seed`: the placement chosen
    there after another option, replaced by this one's."""
    cdef Game_t* a = &s.after
    cdef int n, i
    cdef double value = 0.0
    memcpy(a, g, sizeof(Game_t))
    if tiles_after(a, R, p, move, s, &n) and tiles_after(a, R, p, chosen, s, &n):
        i = greedy_eval(a, R, s.w, s.moves, n, NULL, &s.e, &value, seed[0])
        seed[0] = s.moves[i]
    return value


cdef bint tiles_after(Game_t* a, const Rules_t* R, int p, uint32_t move,
                      NextFitScratch* s, int* n) noexcept nogil:
    """Play `move` on a (its pool left unplayed), then next_placement."""
    apply_move(a, R, move)
    return next_placement(a, R, p, s, n)


cdef bint next_placement(Game_t* a, const Rules_t* R, int p, NextFitScratch* s,
                         int* n) noexcept nogil:
    """Turn the station and open p's next placement (open_placement)."""
    a.rotation = turned_clockwise(a.rotation)       # SS-6, as next round will
    return open_placement(a, R, p, s, n)


cdef bint open_placement(Game_t* a, const Rules_t* R, int p, NextFitScratch* s,
                         int* n) noexcept nogil:
    """Open p's placement from the depot in front of it: its legal moves in
    s.moves, their count in n.  False when there is none."""
    if depot_tile(a, R, p, 0) == NO_TILE and depot_tile(a, R, p, 1) == NO_TILE:
        return False
    start_player_draft(a, R, p)
    if a.decision != D_PLACE or a.decider != p:    # no legal placement: no_place
        return False
    n[0] = legal_moves(a, R, s.moves)
    return n[0] > 0


cdef void add_next_fit(const Game_t* g, const Rules_t* R, const double* w, int p,
                       const uint32_t* moves, const int* index, double* value,
                       int n) noexcept nogil:
    """Add w[G_NEXT_FIT] x (next-tile value - its mean over the options) to the
    values of the n kept options (index[i] into moves), in place; an option
    without a next tile to place keeps its value.  The depot after next counts
    (w[G_NEXT_FIT_DEEP]) unless the next round is known to be the last."""
    cdef double nf[NEXT_FIT_K]
    cdef bint ok[NEXT_FIT_K]
    cdef uint32_t chosen[NEXT_FIT_K]
    cdef uint32_t seed = NO_SEED
    cdef int i, n_ok = 0
    cdef double mean = 0.0
    cdef double deep = 0.0 if next_round_is_last(g) else w[G_NEXT_FIT_DEEP]
    cdef NextFitScratch* s
    if n < 2:
        return
    s = <NextFitScratch*>malloc(sizeof(NextFitScratch))
    if s == NULL:
        return
    place_eval_init(&s.e)
    memcpy(s.w, w, MAX_BOT_PARAMS * sizeof(double))
    s.w[G_NEXT_FIT] = 0.0                            # the inner moves look no further
    # nor chain: the copy has not counted the round off the event deck, so a
    # chain from it would reach one depot too far (the one drafted from now,
    # its tiles below the top hidden)
    s.w[G_END_CHAIN] = 0.0
    s.w[G_PLACE_FIT] = 0.0                           # see the top of this file
    s.w[G_NTUPLE] = 0.0                              # nor the learned planet value
    for i in range(n):
        ok[i] = next_tiles_value(g, R, p, moves[index[i]], s, &nf[i], &chosen[i], seed)
        if ok[i]:
            seed = chosen[i]                         # a good start for the next option's
    if deep != 0:
        add_after_next(g, R, w, p, moves, index, value, n, s, deep, nf, ok, chosen)
    free(s)
    for i in range(n):
        if ok[i]:
            mean += nf[i]
            n_ok += 1
    if n_ok < 2:
        return
    mean /= n_ok
    for i in range(n):
        if ok[i]:
            value[i] += w[G_NEXT_FIT] * (nf[i] - mean)


cdef void add_after_next(const Game_t* g, const Rules_t* R, const double* w, int p,
                         const uint32_t* moves, const int* index, const double* value,
                         int n, NextFitScratch* s, double deep, double* nf,
                         const bint* ok, const uint32_t* chosen) noexcept nogil:
    """Add deep x the depot after next's value to nf[i] of the DEEP_LOOK_WIDTH
    options best by value + w[G_NEXT_FIT] x nf (ties: the earlier option), and
    deep x their mean to the other options with a next tile."""
    cdef PlaceTopK best
    cdef double later[NEXT_FIT_K]
    cdef int i, k
    cdef double mean = 0.0
    cdef uint32_t seed = NO_SEED
    best.n = 0
    best.cap = DEEP_LOOK_WIDTH
    for i in range(n):
        if ok[i]:
            topk_offer(&best, i, value[i] + w[G_NEXT_FIT] * nf[i])
    if best.n == 0:
        return
    for k in range(best.n):
        i = best.index[k]
        later[i] = after_next_value(g, R, p, moves[index[i]], chosen[i], s, &seed)
        mean += later[i]
    mean /= best.n
    for i in range(n):
        if ok[i]:
            nf[i] += deep * (later[i] if topk_holds(&best, i) else mean)
