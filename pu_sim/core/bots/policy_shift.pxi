# The policy bot's guard against going round: Makeshift's sideways shifts
# (tech 3, corporations.md 3.6) do not climb, and a shift into a synergy space
# claims a synergy boost that pays for the next shift (a space's benefits are
# claimed every time a tracker enters it, 2.3).  Civ and water row 8 are both
# synergy spaces, so a tracker there can shift back and forth for ever at no
# cost, and a one-ply policy that values the position with a boost pending
# above the one with a step pending does exactly that until the engine's
# decision limit ends the game (9 of 2,000 solo Makeshift games before this
# guard).  The policy is stateless (it reads only the position), so the guard
# looks ahead instead of remembering: a shift is not played when the policy's
# own one-ply play from it would bring the position back.

cdef enum:
    # decisions followed: round the five columns and back, with an item order between
    SHIFT_HORIZON = 6 * N_TRACKS


cdef int pol_first_best(const Game_t* g, const Rules_t* R, const double* w,
                        const uint32_t* moves, int n, PolicyScratch* s) noexcept nogil:
    """The one-ply choice (the best afterstate, first on ties) at a step, a
    synergy boost or the order of pending items, in the guard's own buffers;
    as in play, rovers are not moved between items."""
    cdef int i, k, best = 0, p = g.decider
    cdef double v, best_v = -1e300
    for i in range(n):
        if g.decision == D_ORDER and moves[i] == MV_MOVE:
            continue
        memcpy(&s.after, g, sizeof(Game_t))
        apply_move(&s.after, R, moves[i])
        v = policy_value(&s.after, R, w, p, s.shift_idx, &k)
        if v > best_v:
            best_v = v
            best = i
    return best


cdef bint pol_shift_goes_round(const Game_t* g, const Rules_t* R, const double* w,
                               uint32_t move, PolicyScratch* s) noexcept nogil:
    """Is `move` a sideways shift after which the policy, playing on one-ply
    through the steps, synergy boosts and orders of pending items that follow,
    comes back to this very decision with its player exactly as now?  Then
    choosing it here would repeat for ever.  (The order decisions between
    shifts were missed until 2026-12-06: 8 games of the studies' third-opinion
    runs went round there.)"""
    cdef Game_t* a = &s.shift
    cdef int k, n, i, p = g.decider
    if g.decision != D_DIRECTION or not move & STEP_SIDEWAYS:
        return False
    memcpy(a, g, sizeof(Game_t))
    apply_move(a, R, move)
    advance(a, R)
    for k in range(SHIFT_HORIZON):
        if a.stage == ST_DONE or a.decider != p or (
                a.decision != D_SYNERGY and a.decision != D_DIRECTION
                and a.decision != D_ORDER):
            return False
        if (a.decision == g.decision and memcmp(&a.item, &g.item, sizeof(Item_t)) == 0
                and memcmp(&a.pl[p], &g.pl[p], sizeof(Player_t)) == 0):
            return True
        n = legal_moves(a, R, s.shift_moves)
        if n == 0:
            return False
        i = pol_first_best(a, R, w, s.shift_moves, n, s) if n > 1 else 0
        apply_move(a, R, s.shift_moves[i])
        advance(a, R)
    return False
