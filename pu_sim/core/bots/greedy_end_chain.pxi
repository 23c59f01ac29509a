# The greedy bot's endgame chain: in the game's last rounds, each of greedy's
# best placements is followed through every remaining round's public tiles,
# greedy choosing each placement, and valued by the score it ends with.
#
# Why: rollouts of greedy_tuned's two best placements gain +1.8 medals a solo
# game when they choose only in rounds 15-20, and +0.3 in rounds 1-14
# (paired games, README): late in the game greedy's proxies for
# the future (holes, pockets, line fill, line chances) misjudge which lines
# can still be finished.  There the future is nearly known: the station turns
# one depot a round by itself in solo (SS-5) and nobody else drafts, so the tiles
# on top of the coming depots are exactly the tiles the player will be
# offered.  The chain plays greedy's own choices (its depot lookahead
# included) through them, each placement's pool too (track advances, rovers,
# lifepods: all public), and reads the score they leave (9.4), scaled by
# w[G_END_CHAIN].  It reaches at most five depots ahead: the sixth is the
# depot the player drafts from now, where the tile under the one taken is
# still hidden (SS-1).
#
# The chain's own moves look ahead more cheaply than the bot's: from their
# best END_CHAIN_LOOK_WIDTH placements, the next depot only, and without the
# fitted placement table or the learned planet value (the learned bot when it
# used the chain: the same strength, -0.02 +- 0.08 solo points over 6,000
# paired seeds, for about 1.4 times the speed).  They simulate the bot, they
# do not have to be it: the chain then costs about a sixth as much and the
# bot plays as strongly (-0.02 +- 0.12 solo points over 16,000 paired seeds
# against the full chain, both with the lookahead valued without place_fit;
# greedy_next_fit.pxi).

cdef enum:
    END_CHAIN_MAX_ROUNDS = 5  # the other five depots (see above)
    END_CHAIN_LOOK_WIDTH = 2  # placements each of the chain's moves looks ahead from


cdef inline bint solo_endgame(const Game_t* g, const double* w) noexcept nogil:
    """The endgame's valuations (the chain, the rollouts) run only in solo, where
    the station turns by itself (SS-5) and nobody else drafts (in the 2-player
    variant the other seat drafts this round from the depot three ahead,
    SS-6), with the event deck counting the rounds left and end_chain set."""
    return w[G_END_CHAIN] != 0 and g.n_players == 1 and g.events_on


cdef inline bint end_chain_on(const Game_t* g, const double* w) noexcept nogil:
    """Chain in the solo endgame (solo_endgame) when the event deck says at most
    w[G_END_ROUNDS] rounds remain (and END_CHAIN_MAX_ROUNDS, unless rollouts
    value the placements: they redeal the tiles nobody has seen)."""
    cdef int future
    if not solo_endgame(g, w):
        return False
    future = future_rounds(g)
    return future <= w[G_END_ROUNDS] and (future <= END_CHAIN_MAX_ROUNDS
                                          or w[G_END_REDEALS] >= 1)


cdef void play_pool(Game_t* a, const Rules_t* R, int p, NextFitScratch* s) noexcept nogil:
    """Carry out what the placement just made gives p (its pool: track
    advances, rover moves, lifepods, patches) with greedy's choices (s.w).
    Nothing hidden is drawn there: civ cards owed wait for the civ-card
    step (CV-2), which the chain skips; greedy's ties keep the first option."""
    cdef int n, i, _
    cdef double ignored
    for _ in range(MAX_DECISIONS):
        if a.status != STATUS_OK:
            return
        if a.decision == D_NONE:
            if not a.in_pool or not resolve_pool(a, R):
                a.in_pool = 0
                return
            continue
        n = legal_moves(a, R, s.moves)
        if n == 0 or a.decider != p:
            return
        i = 0 if n == 1 else greedy_eval(a, R, s.w, s.moves, n, NULL, &s.e, &ignored)
        apply_move(a, R, s.moves[i])


cdef double end_value(Game_t* a, const Rules_t* R, int p) noexcept nogil:
    """p's score if the game ended now (9.4, every category): what the chain
    leaves once its last placement's pool is played."""
    score_game(a, R)
    return a.pl[p].score


cdef double end_chain_value(const Game_t* g, const Rules_t* R, int p, uint32_t move,
                            NextFitScratch* s, int future) noexcept nogil:
    """end_value once `move` and greedy's choices from the next `future` depots
    are placed, each with its pool played (s.w: the bot's weights without the
    chain).  Each simulated round reveals no event but counts one off the
    deck, so the lookahead inside the chain stops at the game's end as it does
    in a real round."""
    cdef Game_t* a = &s.after
    cdef int n, i, k
    cdef double ignored
    cdef uint32_t m = move
    memcpy(a, g, sizeof(Game_t))
    for k in range(future + 1):
        apply_move(a, R, m)
        play_pool(a, R, p, s)
        if k == future or not next_placement(a, R, p, s, &n):
            break
        a.round += 1
        a.deck_pos += 1
        if a.deck_pos >= a.deck_n:
            a.last_round = True
        i = greedy_eval(a, R, s.w, s.moves, n, NULL, &s.e, &ignored)
        m = s.moves[i]
    return end_value(a, R, p)


cdef void add_end_chain(const Game_t* g, const Rules_t* R, const double* w, int p,
                        const uint32_t* moves, const int* index, double* value,
                        int n) noexcept nogil:
    """Add w[G_END_CHAIN] x (the chain's end value - its mean over the options)
    to the values of the n kept options (index[i] into moves), in place; with
    w[G_END_REDEALS], their rollouts' mean instead (greedy_end_rollouts.pxi)."""
    cdef double ev[NEXT_FIT_K]
    cdef int i, future = future_rounds(g)
    cdef double mean = 0.0
    cdef NextFitScratch* s
    if w[G_END_REDEALS] >= 1:
        add_end_rollouts(g, R, w, p, moves, index, value, n)
        return
    if n < 2:
        return
    s = <NextFitScratch*>malloc(sizeof(NextFitScratch))
    if s == NULL:
        return
    place_eval_init(&s.e)
    memcpy(s.w, w, MAX_BOT_PARAMS * sizeof(double))
    s.w[G_END_CHAIN] = 0.0                           # the chain's own moves chain no further,
    s.w[G_NEXT_FIT_DEEP] = 0.0                       # look one depot ahead
    s.w[G_LOOK_WIDTH] = END_CHAIN_LOOK_WIDTH         # from their best two
    s.w[G_PLACE_FIT] = 0.0                           # ranked without the fitted table
    s.w[G_NTUPLE] = 0.0                              # nor the learned planet value
    for i in range(n):
        ev[i] = end_chain_value(g, R, p, moves[index[i]], s, future)
        mean += ev[i]
    free(s)
    mean /= n
    for i in range(n):
        value[i] += w[G_END_CHAIN] * (ev[i] - mean)
