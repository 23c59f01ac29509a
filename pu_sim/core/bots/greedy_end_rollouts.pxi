# The endgame's rollouts (weights end_redeals and end_other_rounds;
# greedy_learned): in the game's last rounds the bot's kept placements, and
# the options of its other decisions, are valued by the mean score of games
# played to the end from them, each on a redeal of what the player cannot see.
#
# Why: the endgame chain (greedy_end_chain.pxi) follows one line through the
# public depots and reads the score it leaves, but it plays no event and no
# civ card, and its one line is only greedy's.  Rollouts of greedy_tuned's
# best two placements still gained +0.09 to +0.20 medals a decision in rounds
# 15-20 beside the chain (reports/bots/solo_judgement).  A rollout plays every
# rule: the event cards left (redealt from their colours' unseen cards), the
# civ cards drawn, the tiles below the stacks' tops (SS-1).  Each rollout plays
# greedy's one-ply choices (the bot's weights without lookaheads, the fitted
# table or the learned value): 6 such redeals take the time of 4 played by
# the chain's own moves and gain as much (docs/bots.md, "Endgame rollouts").
# Redeal r of every placement is the same (common random numbers), so the
# placements are compared on the same futures.  Solo only, in the chain's
# rounds (end_chain_on).
#
# The other decisions (which track, which tracker regresses, which civ card,
# where a patch goes, which item resolves first, yes or no to a power...) are
# valued the same way in the last end_other_rounds rounds: greedy's best 12
# options each rolled out, the best few more.  Measured paired: +1.5 solo
# points beside the placements' rollouts, three quarters of it the track
# choices.  Not the steps (a rover's or a Cosmos lifepod's, one square at a
# time: -0.1 at 2.4x the time) nor the lifepod to collect (all alike).
#
# Successive halving: every kept option gets end_redeals rollouts, then the
# END_ROLLOUT_FINALISTS best by the value so far get END_ROLLOUT_MORE times as
# many again; the others are offered below them.  The extra rollouts go where
# the choice is made: the noise of the finalists' means falls by about 40%.

cdef enum:
    END_ROLLOUT_FINALISTS = 3  # options valued by the second round of rollouts
    END_ROLLOUT_MORE = 2       # ... with this many times end_redeals more each


cdef double end_rollout_value(const Game_t* g, const Rules_t* R, int p, uint32_t move,
                              NextFitScratch* s, uint64_t seed, int redeal) noexcept nogil:
    """p's final score once `move` is played and the game played to its end by
    greedy with weights s.w for every decision, on redeal `redeal` of `seed`
    (determinize: what p cannot see)."""
    cdef Game_t* a = &s.after
    memcpy(a, g, sizeof(Game_t))
    rng_seed(&a.rng, seed, <uint64_t>redeal, 0, STREAM_SEARCH)
    determinize(a, R, p)
    apply_move(a, R, move)
    greedy_play_out(a, R, s.w, 0, s.moves, &s.e)
    return a.pl[p].score


cdef inline void end_rollout_policy(double* dst, const double* w) noexcept nogil:
    """The weights a rollout plays every decision with: the bot's, one-ply (no
    chain or rollouts of its own, no depot lookahead), without the fitted
    table or the learned value."""
    memcpy(dst, w, MAX_BOT_PARAMS * sizeof(double))
    dst[G_END_CHAIN] = 0.0
    dst[G_END_REDEALS] = 0.0
    dst[G_END_OTHER_ROUNDS] = 0.0
    dst[G_NEXT_FIT] = 0.0
    dst[G_PLACE_FIT] = 0.0
    dst[G_NTUPLE] = 0.0


cdef void rollout_sums(const Game_t* g, const Rules_t* R, int p, const uint32_t* moves,
                       const int* index, const int* order, int k, int first, int last,
                       NextFitScratch* s, uint64_t seed, double* total) noexcept nogil:
    """Add the rollouts of redeals first..last-1 to total[i] of the options
    order[0..k) (index[i] into moves)."""
    cdef int j, i, r
    for j in range(k):
        i = order[j]
        for r in range(first, last):
            total[i] += end_rollout_value(g, R, p, moves[index[i]], s, seed, r)


cdef void add_end_rollouts(const Game_t* g, const Rules_t* R, const double* w, int p,
                           const uint32_t* moves, const int* index, double* value,
                           int n) noexcept nogil:
    """Add w[G_END_CHAIN] x (each option's mean rollout score - the mean over
    the options valued alike) to the n kept options' values (index[i] into
    moves), in place; the finalists' means take the second round's rollouts
    too, and the other options are offered below the worst finalist, in their
    order."""
    cdef double total[NEXT_FIT_K]
    cdef int order[NEXT_FIT_K]
    cdef int i, j, finalists = min(n, END_ROLLOUT_FINALISTS)
    cdef int first = <int>w[G_END_REDEALS], more = END_ROLLOUT_MORE * first
    cdef double mean = 0.0, floor = 1e300
    cdef uint64_t seed = redeal_seed(g)
    cdef NextFitScratch* s
    if n < 2 or first < 1:
        return
    s = <NextFitScratch*>malloc(sizeof(NextFitScratch))
    if s == NULL:
        return
    place_eval_init(&s.e)
    end_rollout_policy(s.w, w)
    for i in range(n):
        order[i] = i
        total[i] = 0.0
    rollout_sums(g, R, p, moves, index, order, n, 0, first, s, seed, total)
    for i in range(n):
        mean += total[i] / first
    mean /= n
    for i in range(n):
        value[i] += w[G_END_CHAIN] * (total[i] / first - mean)
    best_first(value, n, order)                      # the finalists: best so far
    if finalists < n:
        for j in range(finalists):                   # their first means come off
            i = order[j]
            value[i] -= w[G_END_CHAIN] * total[i] / first
        rollout_sums(g, R, p, moves, index, order, finalists, first, first + more,
                     s, seed, total)
        for j in range(finalists):                   # the means of every rollout go on
            i = order[j]
            value[i] += w[G_END_CHAIN] * total[i] / (first + more)
            floor = min(floor, value[i])
        for j in range(finalists, n):
            value[order[j]] = floor - (j - finalists + 1)
    free(s)


cdef inline bint end_rollouts_choose(const Game_t* g, const double* w, int n) noexcept nogil:
    """Do the endgame's rollouts value this (non-placement) decision's options?
    The solo endgame (solo_endgame) with end_redeals set, at most
    end_other_rounds rounds before the end, and not a step or a lifepod pick."""
    cdef int d = g.decision
    if n < 2 or w[G_END_REDEALS] < 1 or w[G_END_OTHER_ROUNDS] < 1 or not solo_endgame(g, w):
        return False
    if d == D_PLACE or d == D_ROVER_STEP or d == D_POD_MOVE or d == D_LIFEPOD:
        return False
    return future_rounds(g) <= w[G_END_OTHER_ROUNDS]


cdef int end_rollout_choice(Game_t* g, const Rules_t* R, const double* w,
                            const uint32_t* moves, int n, double* scores) noexcept nogil:
    """greedy_eval where end_rollouts_choose: greedy's value of every option
    (w without these rollouts), its best NEXT_FIT_K kept as the placements'
    are (PlaceTopK) and valued by add_end_rollouts; the best value wins, the
    first on a tie (nothing is drawn from the game's generator).  Fills
    scores[0..n) unless NULL."""
    cdef double plain[MAX_BOT_PARAMS]
    cdef PlaceTopK top
    cdef int i, best = 0
    cdef double* own = <double*>malloc(n * sizeof(double))
    if own == NULL:
        return 0
    memcpy(plain, w, MAX_BOT_PARAMS * sizeof(double))
    plain[G_END_OTHER_ROUNDS] = 0.0
    greedy_eval(g, R, plain, moves, n, own, NULL, NULL)
    top.n = 0
    top.cap = NEXT_FIT_K
    for i in range(n):
        topk_offer(&top, i, own[i])
    add_end_rollouts(g, R, w, g.decider, moves, top.index, top.value, top.n)
    for i in range(top.n):
        own[top.index[i]] = top.value[i]
    for i in range(n):
        if own[i] > own[best]:
            best = i
        if scores != NULL:
            scores[i] = own[i]
    free(own)
    return best
