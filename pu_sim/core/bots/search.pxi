# The search bot: greedy-ordered flat Monte Carlo over the pending decision.
#
# At a decision with n > 1 legal moves the bot keeps the `width` moves greedy
# values most and gives each budget // width rollouts.  A rollout copies the
# game, determinizes it (everything the searching player cannot know is
# reshuffled), applies the move and plays to the end with greedy for every
# seat.  Rollout j of every kept move uses the same determinization and the
# same rollout generator (common random numbers), so the moves are compared on
# identical futures and the noise of the comparison is much smaller than that
# of each mean.  The move with the best mean value wins; ties go to the move
# greedy prefers.  Value: the final score in solo, the score minus the best
# opponent's score otherwise.
#
# Randomness: one 64-bit draw from the game's generator per search decision
# seeds every rollout of that decision, so a game stays a pure function of its
# seed whatever the batch size or number of workers.

# Rule: S_ + the setting's name in pu_sim.bots.SEARCH_PARAMS (slots checked by a test)
cpdef enum:
    S_BUDGET = 48               # params slot: rollouts per decision (0: play greedy)
    S_WIDTH = 49                # params slot: greedy-best moves kept (1: play greedy)
    S_MINOR = 50                # params slot: share of the budget at minor decisions


cdef struct SearchScratch:
    # Buffers of one searching game, malloc'd once per batch (Game_t is large).
    Game_t sim                           # the rollout's copy of the game
    uint32_t moves[MAX_MOVES]            # the rollout's legal moves
    double score[MAX_MOVES]              # greedy values of the decision's moves
    int order[MAX_MOVES]                 # kept moves, best greedy value first
    double total[MAX_MOVES]              # summed rollout values of the kept moves
    PlaceEval place                      # greedy's placement evaluator in rollouts
    PolicyScratch policy                 # the policy bot's buffers (core/bots/policy.pxi)


cdef inline bint major_decision(int decision) noexcept nogil:
    """Placements and track choices: where search gains most over greedy.

    reports/bots/search_by_decision: searching only these gained +2.8 and +1.2 medals
    over greedy_tuned; every other kind of decision +0.5 or less, though they
    are three in five of the decisions searched (rover steps, resolution order).
    """
    return decision in (D_PLACE, D_NO_PLACE, D_METEOR_SYMBOL, D_ENERGY, D_SYNERGY,
                        D_TRACK, D_DIRECTION, D_FLUX_TRACK, D_BRANCH)


cdef inline bint spec_searches(const TableSpec* spec) noexcept nogil:
    """Does any seat of the table use the search bot?"""
    cdef int p
    for p in range(spec.n_players):
        if spec.bot_kind[p] == BOT_SEARCH:
            return True
    return False


cdef inline bint spec_needs_scratch(const TableSpec* spec) noexcept nogil:
    """Does any seat need the batch's scratch (the search and policy bots)?"""
    cdef int p
    for p in range(spec.n_players):
        if spec.bot_kind[p] == BOT_SEARCH or spec.bot_kind[p] == BOT_POLICY:
            return True
    return False


cdef inline bint dispatch_scratch_new(const TableSpec* spec,
                                      SearchScratch** scratch) noexcept nogil:
    """The dispatch's scratch for a run of games of spec: *scratch is a new
    one when a seat needs it (spec_needs_scratch), else NULL (free() takes
    either).  False when it was needed and memory ran out."""
    scratch[0] = NULL
    if not spec_needs_scratch(spec):
        return True
    scratch[0] = <SearchScratch*>malloc(sizeof(SearchScratch))
    if scratch[0] == NULL:
        return False
    place_eval_init(&scratch[0].place)
    return True


# ==== determinization ============================================================

cdef void determinize_stacks(Game_t* g, const Rules_t* R, int seat) noexcept nogil:
    """Reshuffle each stack's tiles below its visible top.

    A stack drafted from in the draft under way has a hidden top too
    (rules-13.13), except in the depot the player faces (they are looking at it).
    """
    cdef int s, start, own = facing_depot(g, R, seat)
    for s in range(N_STACKS):
        if g.stack_pos[s] >= STACK_SIZE:
            continue
        start = g.stack_pos[s] + 1
        if ((g.unseen_tops >> s) & 1 and s != depot_stack(g, own, 0)
                and s != depot_stack(g, own, 1)):
            start = g.stack_pos[s]
        shuffle_u8(&g.rng, &g.stack[s][start], STACK_SIZE - start)


cdef void determinize_civ(Game_t* g) noexcept nogil:
    """Redeal each rank's face-down cards (pile and set-aside reserve) at random.

    The piles a pending civ pick is looking at stay as they are.  Cards seen in
    earlier picks are forgotten: less information, never more.
    """
    cdef uint8_t cards[2 * CIV_PER_RANK]
    cdef int rank, i, n, keep = 0
    if g.decision == D_CIV_PICK:
        if g.pick_rank == ALL_RANKS:
            keep = 0xF
        else:
            keep = 1 << (g.pick_rank - 1)
            if g.pick_extra:
                keep |= 1 << g.pick_rank               # the extra card's pile
    for rank in range(4):
        if (keep >> rank) & 1:
            continue
        n = 0
        for i in range(g.pile_n[rank]):
            cards[n] = g.pile[rank][i]
            n += 1
        for i in range(g.reserve_n[rank]):
            cards[n] = g.reserve[rank][i]
            n += 1
        shuffle_u8(&g.rng, cards, n)
        for i in range(g.pile_n[rank]):
            g.pile[rank][i] = cards[i]
        for i in range(g.reserve_n[rank]):
            g.reserve[rank][i] = cards[g.pile_n[rank] + i]


cdef void determinize_events(Game_t* g, const Rules_t* R) noexcept nogil:
    """Redraw the unrevealed event cards from their colours' unseen cards, shuffled.

    Which cards of a colour made the deck is hidden, so each unrevealed card is
    replaced by a random card of its colour that has not been revealed; the
    number left per colour is kept (public with an explicit mix).
    """
    cdef uint8_t pool[N_EVENTS]
    cdef uint8_t seen[N_EVENTS]
    cdef int left[3]
    cdef int c, i, n, k, e
    if not g.events_on or g.deck_pos >= g.deck_n:
        return
    for e in range(N_EVENTS):
        seen[e] = 0
    for i in range(g.deck_pos):
        seen[g.deck[i]] = 1
    left[0] = left[1] = left[2] = 0
    for i in range(g.deck_pos, g.deck_n):
        left[R.event_colour[g.deck[i]]] += 1
    k = g.deck_pos
    for c in range(3):
        if left[c] == 0:
            continue
        n = 0
        for e in range(N_EVENTS):
            if (R.event_colour[e] == c and not seen[e]
                    and (g.n_players == 1 or not R.event_solo[e])):
                pool[n] = <uint8_t>e
                n += 1
        shuffle_u8(&g.rng, pool, n)
        for i in range(left[c]):
            g.deck[k] = pool[i]
            k += 1
    shuffle_u8(&g.rng, &g.deck[g.deck_pos], g.deck_n - g.deck_pos)


cdef void determinize_objectives(Game_t* g, int seat) noexcept nogil:
    """Redeal the objective cards the player has not seen.

    Unseen: the undrawn deck, the other players' private cards (kept or still
    to choose from) and every discarded card.  Seen: the player's own cards,
    the neighbour cards, Jump Drive's contested cards and cards drawn for a
    pending choice.
    """
    cdef uint8_t known[N_OBJECTIVES]
    cdef uint8_t pool[N_OBJECTIVES]
    cdef int p, i, n = 0, k = 0
    cdef Player_t* pl
    if g.obj_n == 0:
        return
    for i in range(N_OBJECTIVES):
        known[i] = 0
    pl = &g.pl[seat]
    for i in range(pl.n_priv):
        known[pl.priv[i]] = 1
    for i in range(pl.n_dealt):
        known[pl.dealt[i]] = 1
    for i in range(g.n_neighbour):
        known[g.neighbour[i]] = 1
    for i in range(g.n_drawn):
        known[g.drawn[i]] = 1
    for p in range(g.n_players):
        if g.pl[p].extra_obj != NO_CARD:
            known[g.pl[p].extra_obj] = 1
    for i in range(N_OBJECTIVES):
        if not known[i]:
            pool[n] = <uint8_t>i
            n += 1
    shuffle_u8(&g.rng, pool, n)
    for p in range(g.n_players):
        if p == seat:
            continue
        pl = &g.pl[p]
        for i in range(pl.n_priv):
            if k < n:
                pl.priv[i] = pool[k]
                k += 1
        for i in range(pl.n_dealt):
            if k < n:
                pl.dealt[i] = pool[k]
                k += 1
    for i in range(g.obj_pos, g.obj_n):
        if k < n:
            g.obj_deck[i] = pool[k]
            k += 1


cdef inline uint64_t redeal_seed(const Game_t* g) noexcept nogil:
    """The seed of a bot's redeals outside the search bot (the learned rotation
    value, the endgame's rollouts): the next draw of a copy of the game's
    generator, so the game's own stream is untouched (a probe's values draw
    nothing) and the game stays a pure function of its seed."""
    cdef Rng_t copy = g.rng
    return rng_next(&copy)


cdef void determinize(Game_t* g, const Rules_t* R, int seat) noexcept nogil:
    """Resample, with g's own generator, everything `seat` cannot know.

    Public state (boards, trackers, visible tiles, revealed cards, counts) is
    left exactly as it is; g.rng must already be the rollout's own stream.
    """
    determinize_stacks(g, R, seat)
    determinize_civ(g)
    determinize_events(g, R)
    determinize_objectives(g, seat)


# ==== rollouts ===================================================================

cdef double seat_value(const Game_t* g, int seat) noexcept nogil:
    """Solo: the score; otherwise the score minus the best opponent's."""
    cdef int p, best = -32768
    if g.n_players == 1:
        return g.pl[seat].score
    for p in range(g.n_players):
        if p != seat and g.pl[p].score > best:
            best = g.pl[p].score
    return g.pl[seat].score - best


cdef void greedy_play_out(Game_t* g, const Rules_t* R, const double* params, int stride,
                          uint32_t* moves, PlaceEval* place) noexcept nogil:
    """Play on to the game's end with greedy for every seat, seat q's weights at
    params + q x stride (stride 0: one set for every seat).  `moves` and
    `place` are the caller's buffers: a play-out allocates nothing."""
    cdef int n, i
    advance(g, R)
    while g.stage != ST_DONE:
        n = legal_moves(g, R, moves)
        if n == 0:
            g.status = STATUS_NO_LEGAL_MOVE
            finish_game(g, R)
            break
        i = 0
        if n > 1:
            i = greedy_choose_in(g, R, params + g.decider * stride, moves, n, place)
        apply_move(g, R, moves[i])
        advance(g, R)


cdef double rollout(Game_t* g, const Rules_t* R, const TableSpec* spec, uint32_t* moves,
                    PlaceEval* place, int seat) noexcept nogil:
    """Play on to the end with greedy for every seat (its rollout weights); the
    value for `seat`."""
    greedy_play_out(g, R, &spec.rollout_params[0][0], MAX_BOT_PARAMS, moves, place)
    return seat_value(g, seat)


cdef int search_choose(Game_t* g, const Rules_t* R, const TableSpec* spec,
                       SearchScratch* s, const uint32_t* moves, int n) noexcept nogil:
    """Index of the move with the best mean rollout value among greedy's top few."""
    cdef int seat = g.decider, k, per, i, j, m, best
    cdef const double* w = spec.bot_params[seat]
    cdef double budget = w[S_BUDGET], width = w[S_WIDTH]
    cdef uint64_t base
    if not major_decision(g.decision):
        budget *= w[S_MINOR]
    if budget > MAX_MOVES * 64:
        budget = MAX_MOVES * 64
    if width > MAX_MOVES:
        width = MAX_MOVES
    k = <int>width
    if k > n:
        k = n
    if k > <int>budget:
        k = <int>budget
    if s == NULL or k < 2:
        return greedy_choose(g, R, w, moves, n)
    per = <int>budget // k
    # keep the k moves greedy values most (ties: the earlier move)
    greedy_scores(g, R, w, moves, n, s.score)
    for m in range(k):
        best = -1
        for i in range(n):
            if s.score[i] > -1e300 and (best < 0 or s.score[i] > s.score[best]):
                best = i
        s.order[m] = best
        s.total[m] = 0.0
        s.score[best] = -1e301                         # taken
    base = rng_next(&g.rng)
    for j in range(per):
        for m in range(k):
            memcpy(&s.sim, g, sizeof(Game_t))
            rng_seed(&s.sim.rng, base, 0, <uint64_t>j, STREAM_SEARCH)
            determinize(&s.sim, R, seat)
            apply_move(&s.sim, R, moves[s.order[m]])
            s.total[m] += rollout(&s.sim, R, spec, s.moves, &s.place, seat)
    best = 0
    for m in range(1, k):
        if s.total[m] > s.total[best]:
            best = m
    return s.order[best]
