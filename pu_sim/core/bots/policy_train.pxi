# The policy bot's self-play learning (core/bots/policy.pxi chooses, with the
# network of core/bots/policy_net.pxi): after the dispatch, since the other
# seats of a learning table play their own bots.

# ==== learning ======================================================================

cdef void policy_record(const Game_t* g, const Rules_t* R, const double* w,
                        PolicyScratch* s, uint32_t move, PolicyTrace* trace) noexcept nogil:
    """Record the afterstate of another bot's `move` for the deciding seat."""
    cdef int p = g.decider, k = 0
    cdef double v
    if not trace.learns[p] or trace.n_steps[p] >= POL_TRAJ:
        return
    memcpy(&s.after, g, sizeof(Game_t))
    apply_move(&s.after, R, move)
    v = policy_value(&s.after, R, w, p, s.idx_a, &k)
    trace_step(trace, w, p, v, s.idx_a, k)


cdef void policy_learn(PolicyTrace* trace, double* w, int* counts, int p, double final,
                       double alpha, double lam, double* stats,
                       double* coherence=NULL) noexcept nogil:
    """TD(lambda) on seat p's recorded afterstates, backwards from the final score:
    G = final, then for each step from the last, every distinct active entry
    moves by alpha (G - V) / n (n: the active entries, an entry active k times,
    as a window pattern shared by many windows, counted k times: V moves by
    alpha (G - V) exactly, and the other tables learn as fast whatever the
    repeats), and G = (1 - lam) V' + lam G, V' its value once updated.  V is
    valued afresh with the weights as the later steps left them, so a run of
    alike afterstates is not corrected once per step.  `counts`: POLICY_N
    zeros, left zero.  `coherence` (2 x POLICY_N, or NULL): temporal coherence
    learning (Beal and Smith 1999; Jaskowski 2018): each weight's step is
    scaled by |sum of its corrections| / sum of their sizes, so weights whose
    corrections keep one sign learn fast and noisy ones settle."""
    cdef int t, i, j, k, tables
    cdef int per_table[POL_TABLES]
    cdef int table_of[POL_MAX_ACTIVE]
    cdef double g_ret = final, delta, v, u, rate
    cdef PolicyStep* st
    for t in range(trace.n_steps[p] - 1, -1, -1):
        st = &trace.step[p][t]
        v = st.value + policy_weights_sum(w, st.idx, st.n)
        delta = g_ret - v
        stats[2] += delta * delta
        stats[3] += 1
        if st.n > 0:
            # each table active takes an equal share of the correction, spread
            # over its active entries (an entry active k times counted k times)
            for i in range(POL_TABLES):
                per_table[i] = 0
            tables = 0
            for i in range(st.n):
                k = pol_table_of(st.idx[i])
                table_of[i] = k
                if per_table[k] == 0:
                    tables += 1
                per_table[k] += 1
            for i in range(st.n):
                j = st.idx[i]
                if counts[j] == 0:
                    u = delta / (tables * per_table[table_of[i]])
                    rate = 1.0
                    if coherence != NULL:
                        if coherence[POLICY_N + j] > 0:
                            rate = fabs(coherence[j]) / coherence[POLICY_N + j]
                        coherence[j] += u
                        coherence[POLICY_N + j] += fabs(u)
                    w[j] += alpha * rate * u
                    counts[j] = 1
            for i in range(st.n):
                counts[st.idx[i]] = 0
        if coherence != NULL:
            v = st.value + policy_weights_sum(w, st.idx, st.n)
        else:
            v += alpha * delta
        g_ret = (1.0 - lam) * v + lam * g_ret


cdef int policy_train_games(const Rules_t* R, const TableSpec* spec, double* w, uint64_t k0,
                            uint64_t k1, uint64_t first_game, uint64_t n_games, double alpha,
                            double lam, double explore, double* stats,
                            bint watch=False, double* coherence=NULL) noexcept nogil:
    """Play n_games from first_game; every policy seat's decisions use and learn w
    (`watch`: every seat plays its own bot, a policy seat its committed
    network and search, and learns w from those games).

    stats: [sum of the learning seats' final scores, their number, sum of
    squared TD errors, their number].  `explore`: the softmax temperature of
    the learning seats' choices (0: the best move).  Returns -1 if memory ran
    out."""
    cdef Game_t* g = <Game_t*>malloc(sizeof(Game_t))
    cdef uint32_t* moves = <uint32_t*>malloc(MAX_MOVES * sizeof(uint32_t))
    cdef PolicyScratch* s = <PolicyScratch*>malloc(sizeof(PolicyScratch))
    cdef PolicyTrace* trace = <PolicyTrace*>malloc(sizeof(PolicyTrace))
    cdef int* counts = <int*>calloc(POLICY_N, sizeof(int))
    cdef SearchScratch* search = NULL
    cdef uint64_t gi
    cdef int p, n, i, kind
    # the dispatch's scratch, as the batch's games allocate it: a watched
    # policy seat plays its own bot through the dispatch
    cdef bint search_ok = dispatch_scratch_new(spec, &search)
    if (g == NULL or moves == NULL or s == NULL or trace == NULL or counts == NULL
            or not search_ok):
        free(counts)
        free(g)
        free(moves)
        free(s)
        free(trace)
        free(search)
        return -1
    for gi in range(first_game, first_game + n_games):
        game_init(g, R, spec, k0, k1, gi)
        rng_seed(&trace.explore, k0, k1, gi, STREAM_POLICY)
        trace.temperature = explore
        for p in range(MAX_PLAYERS):
            trace.n_steps[p] = 0
            trace.learns[p] = p < spec.n_players and (
                watch or spec.bot_kind[p] == BOT_POLICY)
        if g.status != STATUS_OK:
            finish_game(g, R)
            continue
        advance(g, R)
        while g.stage != ST_DONE:
            n = legal_moves(g, R, moves)
            if n == 0:
                g.status = STATUS_NO_LEGAL_MOVE
                finish_game(g, R)
                break
            i = 0
            if n > 1:
                kind = g.pl[g.decider].bot_kind
                if kind == BOT_POLICY and not watch:
                    i = policy_choose_w(g, R, w, spec.bot_params[g.decider], s, moves, n, trace)
                else:
                    i = bot_choose(g, R, spec, search, moves, n)
                    if watch:
                        policy_record(g, R, w, s, moves[i], trace)
            apply_move(g, R, moves[i])
            advance(g, R)
        for p in range(g.n_players):
            if trace.learns[p]:
                stats[0] += g.pl[p].score
                stats[1] += 1
                policy_learn(trace, w, counts, p, g.pl[p].score, alpha, lam, stats,
                             coherence)
    free(counts)
    free(g)
    free(moves)
    free(s)
    free(trace)
    free(search)
    return 0
