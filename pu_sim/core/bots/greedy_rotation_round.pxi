# The learned rotation value (weight rotation_round; greedy_learned): the
# commander's station rotation (SS-3, 3+ players) valued by the round it deals,
# played out, through a table fitted to rollouts.
#
# Why: the depot rule (greedy_rotation.pxi) reads each player's best placement
# from the depot a rotation deals, one ply deep, while rollouts of every
# rotation in 3-player games (experiments/bots/rotation_round.py) find better
# rotations in every part of the game, most in the last rounds.  What a
# rotation deals shows once the round is played: the tiles each player takes
# and places, the trackers, rovers and cards they bring.  So each rotation's
# round is played out by greedy (the commander's weights for every seat, as
# the rule values the others' depots) on one redeal of what the commander
# cannot see (the same redeal for every rotation: common random numbers), and
# scored as the game then stands.  The table (R.fitted.rotation_round, per part
# of the game) weighs the rule's value, the commander's score and the others'
# mean score, fitted within decisions to the rollouts' margins: a learned
# evaluation read at run time, without the GIL.


cdef inline int rotation_round_width(const double* w) noexcept nogil:
    """Rotations whose rounds are played out (w[G_ROTATION_WIDTH], 1-6)."""
    return min(STATION_ORIENTATIONS, max(1, <int>w[G_ROTATION_WIDTH]))


cdef inline int rotation_round_bucket(const Game_t* g) noexcept nogil:
    """The table's row: the round 1-5, 6-10, 11-14, 15-17, 18-19, 20+.  Why the
    round: a game ends when a planet fills (trigger A, about round 20 at any
    player count; solo: the event deck's 20 rounds), so the round is the
    public clock of how much game is left."""
    if g.round >= 20:
        return 5
    if g.round >= 18:
        return 4
    if g.round >= 15:
        return 3
    if g.round >= 11:
        return 2
    if g.round >= 6:
        return 1
    return 0


cdef inline void rotation_round_policy(double* dst, const double* w) noexcept nogil:
    """The weights every seat plays the round out with: the commander's,
    without the learned value (the round's own decisions hold no rotation)."""
    memcpy(dst, w, MAX_BOT_PARAMS * sizeof(double))
    dst[G_ROTATION_ROUND] = 0.0


cdef void round_outcome(const Game_t* g, const Rules_t* R, int p, uint32_t rotation,
                        uint64_t seed, NextFitScratch* s, double* own,
                        double* others) noexcept nogil:
    """p's score and the other players' mean score, scored as the game stands
    once this round is played out from `rotation` by greedy with weights s.w
    for every seat, on the redeal `seed` of what p cannot see."""
    cdef Game_t* a = &s.after
    cdef int n, i, q
    cdef uint8_t round_ = g.round
    memcpy(a, g, sizeof(Game_t))
    rng_seed(&a.rng, seed, 0, 0, STREAM_SEARCH)
    determinize(a, R, p)
    apply_move(a, R, rotation)
    advance(a, R)
    while a.stage != ST_DONE and a.round == round_:
        n = legal_moves(a, R, s.moves)
        if n == 0:
            break
        i = greedy_choose_in(a, R, s.w, s.moves, n, &s.e) if n > 1 else 0
        apply_move(a, R, s.moves[i])
        advance(a, R)
    score_game(a, R)
    own[0] = a.pl[p].score
    others[0] = 0.0
    for q in range(a.n_players):
        if q != p:
            others[0] += a.pl[q].score
    others[0] /= a.n_players - 1


cdef void rotation_round_values(Game_t* g, const Rules_t* R, const double* w, int p,
                                const uint32_t* moves, int n, const double* rule,
                                NextFitScratch* s, double* value) noexcept nogil:
    """value[i] = w[G_ROTATION_ROUND] x the table's weighing of rule[i] (the
    depot rule's value of rotation i), p's score and the others' mean score
    after the round rotation i deals, for the w[G_ROTATION_WIDTH] rotations
    the rule values most (ties: the first); the others below them, in the
    rule's order, without ties.  Why 4 (greedy_learned's width): playing out
    the rule's best 4 of 6 keeps about 90% of the gain (the fit's held-out
    games) for two thirds of the cost; the width's share and speed are in
    docs/bots.md ("What the learned bot's parts cost and buy")."""
    cdef int i, k, kept = min(n, rotation_round_width(w))
    cdef int order[STATION_ORIENTATIONS]
    cdef double own, others, floor = 1e300
    cdef uint64_t seed = redeal_seed(g)
    cdef const double* c = R.fitted.rotation_round[rotation_round_bucket(g)]
    rotation_round_policy(s.w, w)
    best_first(rule, n, order)
    for k in range(kept):
        i = order[k]
        round_outcome(g, R, p, moves[i], seed, s, &own, &others)
        value[i] = w[G_ROTATION_ROUND] * (c[0] * rule[i] + c[1] * own + c[2] * others)
        floor = min(floor, value[i])
    for k in range(kept, n):
        value[order[k]] = floor - (k - kept + 1)
