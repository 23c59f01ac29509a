# The policy bot: every decision by the learned value of the position each move
# leaves (core/bots/policy_net.pxi), and the self-play that learns it.
#
# At a decision the bot applies each legal move to a copy of the game (the
# engine's own apply_move: nothing is drawn) and plays the move whose
# afterstate its player values most; exact ties go to the first move.  It
# moves rovers once its pool is done, never between items: "move rovers now"
# leaves the position as it was, so valued by its afterstate it and an
# immediate stop would repeat without end (the movement is spendable at the
# pool's end all the same, RS-3).  No
# hand-written valuation is involved: the value is the engine's score if the
# game ended now plus the network's learned estimate of the score still to
# come.  The commander's station rotation, whose afterstate the network cannot
# tell apart (it reads no depot), is judged one step further: each rotation by
# the best afterstate of the placements its own depot then offers (PP_ROTATION).
# Where next round's depot is known (the station turns by itself: solo, the
# 2-player variant; not in the last round), a placement looks one tile further
# (PP_LOOK): the best PP_LOOK placements by their afterstate are each judged by
# the best afterstate the next depot's tiles then leave (the tiles on top of
# the stacks are public, SS-1), which the network cannot see.
#
# Learning (policy_train_games): self-play in the core, without the GIL.  Every
# decision of a learning seat records the chosen afterstate's active entries
# and value; at the game's end each seat's trajectory is updated backwards
# toward its lambda-returns (TD(lambda) on afterstates, the final score the
# last target: Szubert and Jaskowski 2014; the delayed update of Jaskowski
# 2018), each active entry by alpha x error / (entries active).  One thread,
# one game at a time: the learned weights are a pure function of the seed.

# Rule: PP_ + the setting's name in pu_sim.bots.POLICY_PARAMS (slots checked by a test)
cpdef enum:
    PP_ROTATION = 0            # 1: the commander values rotations by its depot's placements
    PP_LOOK = 1                # placements judged by the next depot's best (0: none)
    PP_ROLL = 2                # solo: rounds left from which decisions are rolled out
    PP_ROLL_WIDTH = 3          # ... the moves with the best afterstates rolled out
    PP_ROLL_REDEALS = 4        # ... rollouts of each
    PP_ROLL_HORIZON = 5        # ... until this many more rounds begin, then the network (0: end)
    PP_ROLL_TILE_WIDTH = 6     # ... a placement's: the best this many of each tile (0: roll_width)
    PP_ROLL_FINALISTS = 7      # ... then the best this many by their rollouts (0: none) ...
    PP_ROLL_MORE = 8           # ... each rolled out this many more times

from libc.math cimport exp, fabs

cdef enum:
    POL_TRAJ = 600             # decisions of one seat in one game that learn
    POL_LOOK_MAX = 16          # PP_LOOK's and PP_ROLL_WIDTH's cap
    STREAM_POLICY = 4          # the explorer's generator (learning only)


cdef struct PolicyScratch:
    # Buffers of one game's policy seats, in the batch's scratch (no malloc per decision).
    Game_t after                         # a move's afterstate
    Game_t placed                        # a placement after a rotation (PP_ROTATION)
    uint32_t moves[MAX_MOVES]            # the placements a rotation offers
    double value[MAX_MOVES]              # each move's afterstate value (exploration)
    int idx_a[POL_MAX_ACTIVE]            # active entries: the candidate's, the best's
    int idx_b[POL_MAX_ACTIVE]
    Game_t roll                          # a rollout's game (PP_ROLL)
    uint32_t roll_moves[MAX_MOVES]       # its legal moves
    Game_t shift                         # a sideways shift played on (policy_shift.pxi)
    uint32_t shift_moves[MAX_MOVES]      # its legal moves
    int shift_idx[POL_MAX_ACTIVE]        # its afterstates' active entries


cdef struct PolicyStep:
    double value                         # the afterstate's score if the game ended now
    int n
    int idx[POL_MAX_ACTIVE]


cdef struct PolicyTrace:
    # What a learning game records: each seat's chosen afterstates.
    Rng_t explore                        # exploration draws (never the game's stream)
    double temperature                   # softmax exploration over the values (0: none)
    int learns[MAX_PLAYERS]              # 1: this seat's decisions are recorded
    int n_steps[MAX_PLAYERS]
    PolicyStep step[MAX_PLAYERS][POL_TRAJ]


# ==== choosing ======================================================================

cdef double pol_depot_best(const Game_t* g, const Rules_t* R, const double* w, int p,
                           PolicyScratch* s) noexcept nogil:
    """p's best afterstate value over the placements of the depot it faces in g
    (the draft's turn set up on a copy); its value now when nothing fits."""
    cdef int t0 = depot_tile(g, R, p, 0), t1 = depot_tile(g, R, p, 1), level, n, i, k
    cdef double v, best = -1e300
    level = find_place_level(g, R, p, t0, t1, N_LEVELS - 1)
    if level == LEVEL_NONE:
        return policy_value(g, R, w, p, s.idx_a, &k)
    n = gen_placements(g, R, p, t0, t1, level, s.moves)
    for i in range(n):
        memcpy(&s.placed, g, sizeof(Game_t))
        s.placed.decision = D_PLACE
        s.placed.decider = <uint8_t>p
        s.placed.place_level = <uint8_t>level
        s.placed.place_from_depot = 0
        s.placed.draft_barred = 0
        apply_move(&s.placed, R, s.moves[i])
        v = policy_value(&s.placed, R, w, p, s.idx_a, &k)
        if v > best:
            best = v
    return best


cdef int policy_rotation(Game_t* g, const Rules_t* R, const double* w, const uint32_t* moves,
                         int n, PolicyScratch* s) noexcept nogil:
    """The rotation whose own depot offers the best afterstate (first on ties)."""
    cdef int i, p = g.decider, best = 0
    cdef double v, best_v = -1e300
    for i in range(n):
        memcpy(&s.after, g, sizeof(Game_t))
        apply_move(&s.after, R, moves[i])
        v = pol_depot_best(&s.after, R, w, p, s)
        if v > best_v:
            best_v = v
            best = i
    return best


cdef inline bint pol_free_step(const Game_t* g, const Game_t* after, int p,
                               uint32_t move) noexcept nogil:
    """A rover step that spent no movement."""
    return (g.decision == D_ROVER_STEP and move != MV_DONE
            and movement_left(&after.pl[p]) == movement_left(&g.pl[p]))


cdef double pol_values(const Game_t* g, const Rules_t* R, const double* w,
                       const uint32_t* moves, int n, double floor,
                       PolicyScratch* s) noexcept nogil:
    """s.value[i]: the afterstate value of moves[i] for the decider; -1e300 for
    a move not to be played ("move rovers now" between items: they move once
    the pool is done) and for a free rover step to a position worth no more
    than `floor`.  Returns the best value."""
    cdef int i, k, p = g.decider
    cdef double best = -1e300
    for i in range(n):
        s.value[i] = -1e300
        if g.decision == D_ORDER and moves[i] == MV_MOVE:
            continue
        memcpy(&s.after, g, sizeof(Game_t))
        apply_move(&s.after, R, moves[i])
        s.value[i] = policy_value(&s.after, R, w, p, s.idx_a, &k)
        if s.value[i] <= floor and pol_free_step(g, &s.after, p, moves[i]):
            s.value[i] = -1e300
        if s.value[i] > best:
            best = s.value[i]
    return best


cdef int pol_best_few_of(const double* value, const uint32_t* moves, int tile, int n,
                         int width, int* top) noexcept nogil:
    """The indices of the `width` best values (at most POL_LOOK_MAX; none of
    the -1e300 that mark skipped moves) into top, best first, the first of
    equals first; their count.  With tile 0 or 1, only the placements of that
    depot tile (place_slot of moves); with -1, every move (moves unread)."""
    cdef int i, j, k
    width = width if width < n else n
    width = width if width < POL_LOOK_MAX else POL_LOOK_MAX
    for k in range(width):
        top[k] = -1
        for i in range(n):
            if tile >= 0 and place_slot(moves[i]) != tile:
                continue
            for j in range(k):
                if top[j] == i:
                    break
            else:
                if value[i] > -1e299 and (top[k] < 0 or value[i] > value[top[k]]):
                    top[k] = i
        if top[k] < 0:
            return k
    return width


cdef inline int pol_best_few(const double* value, int n, int width, int* top) noexcept nogil:
    """pol_best_few_of over every move."""
    return pol_best_few_of(value, NULL, -1, n, width, top)


cdef int pol_best_of_each_tile(const double* value, const uint32_t* moves, int n, int width,
                               int* top) noexcept nogil:
    """Placements (D_PLACE): the `width` best of tile 0's, then of tile 1's,
    into top (pol_best_few_of); their count (at most POL_LOOK_MAX).  Why: the
    network's values lean to one tile (smaller tiles, docs/bots.md "Both tiles
    rolled out"), so the best few by value are often one tile's placements
    alone, and the rollouts never weigh the other."""
    cdef int got
    width = width if 2 * width <= POL_LOOK_MAX else POL_LOOK_MAX // 2
    got = pol_best_few_of(value, moves, 0, n, width, top)
    return got + pol_best_few_of(value, moves, 1, n, width, top + got)


cdef int policy_look(Game_t* g, const Rules_t* R, const double* w, const uint32_t* moves,
                     int n, int width, PolicyScratch* s) noexcept nogil:
    """Of the `width` placements with the best afterstates (s.value, filled by
    the caller), the one whose afterstate leaves the best placement of the
    depot the station turns to next round (first on ties)."""
    cdef int i, k, p = g.decider, best = 0
    cdef int top[POL_LOOK_MAX]
    cdef double v, best_v = -1e300
    width = pol_best_few(s.value, n, width, top)
    for k in range(width):
        i = top[k]
        memcpy(&s.after, g, sizeof(Game_t))
        apply_move(&s.after, R, moves[i])
        s.after.rotation = turned_clockwise(s.after.rotation)   # SS-5, SS-6
        v = pol_depot_best(&s.after, R, w, p, s)
        if v > best_v:
            best_v = v
            best = i
    return best


cdef double policy_play_out(Game_t* a, const Rules_t* R, const double* w,
                            const double* params, PolicyScratch* s, int p,
                            int horizon) noexcept nogil:
    """Play `a` on with the policy of settings `params` for every seat: to its
    end (p's final score), or with `horizon` > 0 until that many more rounds
    have begun, then p's value by the network."""
    cdef int n, i, last = a.round + horizon
    advance(a, R)
    while a.stage != ST_DONE:
        if horizon > 0 and a.round >= last:
            return policy_value(a, R, w, p, s.idx_a, &n)
        n = legal_moves(a, R, s.roll_moves)
        if n == 0:
            a.status = STATUS_NO_LEGAL_MOVE
            finish_game(a, R)
            break
        i = 0
        if n > 1:
            i = policy_choose_w(a, R, w, params, s, s.roll_moves, n, NULL)
        apply_move(a, R, s.roll_moves[i])
        advance(a, R)
    return a.pl[p].score


cdef int pol_roll_candidates(Game_t* g, const Rules_t* R, const double* w,
                             const double* params, PolicyScratch* s, const uint32_t* moves,
                             int n, int* top) noexcept nogil:
    """The moves a decision's rollouts weigh, indices into moves, best
    afterstate first (top, at most POL_LOOK_MAX): the PP_ROLL_WIDTH best, or a
    placement's PP_ROLL_TILE_WIDTH best of each tile when set; never a
    sideways shift that goes round (policy_shift.pxi).  Their count."""
    cdef int k
    pol_values(g, R, w, moves, n, -1e300, s)
    for k in range(n if g.decision == D_DIRECTION else 0):
        if pol_shift_goes_round(g, R, w, moves[k], s):
            s.value[k] = -1e300                  # never a candidate
    if g.decision == D_PLACE and params[PP_ROLL_TILE_WIDTH] >= 1:
        return pol_best_of_each_tile(s.value, moves, n, <int>params[PP_ROLL_TILE_WIDTH], top)
    return pol_best_few(s.value, n, <int>params[PP_ROLL_WIDTH], top)


cdef double pol_rollouts(Game_t* g, const Rules_t* R, const double* w, const double* plain,
                         PolicyScratch* s, uint32_t move, int first, int last,
                         int horizon) noexcept nogil:
    """The sum of move's rollouts on redeals first..last-1 (policy_play_out
    from the afterstate of each redeal); redeal r is the same for every move
    (common random numbers)."""
    cdef int r, p = g.decider
    cdef double total = 0.0
    cdef uint64_t seed = redeal_seed(g)
    for r in range(first, last):
        memcpy(&s.roll, g, sizeof(Game_t))
        rng_seed(&s.roll.rng, seed, <uint64_t>r, 0, STREAM_SEARCH)
        determinize(&s.roll, R, p)
        apply_move(&s.roll, R, move)
        total += policy_play_out(&s.roll, R, w, plain, s, p, horizon)
    return total


cdef int pol_roll_totals(Game_t* g, const Rules_t* R, const double* w, const double* params,
                         PolicyScratch* s, const uint32_t* moves, int n, int* top,
                         double* total, int* finalists) noexcept nogil:
    """The rollouts' sum for each move pol_roll_candidates keeps (top, total:
    their count is returned) over PP_ROLL_REDEALS redeals of what the player
    cannot see.  With PP_ROLL_FINALISTS and PP_ROLL_MORE set, top is then
    ordered by those sums (best first, stable) and its first PP_ROLL_FINALISTS
    are rolled out PP_ROLL_MORE times more (successive halving: more rollouts
    where the choice is close); *finalists: the moves that compete for the
    choice (all when not halving).  No rollouts with fewer than 2 moves."""
    cdef int k, j, width
    cdef int redeals = <int>params[PP_ROLL_REDEALS]
    cdef int more = <int>params[PP_ROLL_MORE]
    cdef int horizon = <int>params[PP_ROLL_HORIZON]
    cdef double plain[MAX_BOT_PARAMS]
    width = pol_roll_candidates(g, R, w, params, s, moves, n, top)
    finalists[0] = width
    if width < 2 or redeals < 1:
        return width
    memcpy(plain, params, MAX_BOT_PARAMS * sizeof(double))
    plain[PP_ROLL] = 0.0                         # the rollouts play one-ply
    for k in range(width):
        total[k] = pol_rollouts(g, R, w, plain, s, moves[top[k]], 0, redeals, horizon)
    if more < 1 or not 2 <= <int>params[PP_ROLL_FINALISTS] < width:
        return width
    for k in range(1, width):                    # insertion sort, best sum first
        j = k
        while j > 0 and total[j] > total[j - 1]:
            total[j], total[j - 1] = total[j - 1], total[j]
            top[j], top[j - 1] = top[j - 1], top[j]
            j -= 1
    finalists[0] = <int>params[PP_ROLL_FINALISTS]
    for k in range(finalists[0]):
        total[k] += pol_rollouts(g, R, w, plain, s, moves[top[k]], redeals, redeals + more,
                                 horizon)
    return width


cdef int policy_rollout_choice(Game_t* g, const Rules_t* R, const double* w,
                               const double* params, PolicyScratch* s, const uint32_t* moves,
                               int n) noexcept nogil:
    """Of the moves pol_roll_totals weighs, the finalist whose games played on
    by the policy (one-ply) end with the best mean score (or, PP_ROLL_HORIZON
    rounds on, the best mean value by the network); first on ties.  Draws
    nothing from the game's generator."""
    cdef int k, finalists, best = 0
    cdef int top[POL_LOOK_MAX]
    cdef double total[POL_LOOK_MAX]
    cdef double best_total = -1e300
    if pol_roll_totals(g, R, w, params, s, moves, n, top, total, &finalists) < 2 or (
            params[PP_ROLL_REDEALS] < 1):
        return top[0] if finalists else 0
    for k in range(finalists):
        if total[k] > best_total:
            best_total = total[k]
            best = top[k]
    return best


cdef inline bint policy_rolls(const Game_t* g, const double* params, int n) noexcept nogil:
    """Roll this decision out: solo with the event deck (it counts the rounds
    left), in one of the last PP_ROLL rounds (fewer than PP_ROLL to come after
    it), a choice, and not a step of a rover or lifepod (one square at a time)."""
    cdef int d = g.decision
    if n < 2 or params[PP_ROLL] < 1 or g.n_players != 1 or not g.events_on:
        return False
    if d == D_ROVER_STEP or d == D_POD_MOVE or d == D_LIFEPOD:
        return False
    return future_rounds(g) < params[PP_ROLL]


cdef inline bint policy_looks(const Game_t* g, const double* params) noexcept nogil:
    """Look a tile further: a placement, next round's depot known (the station
    turns by itself) and a next round to come."""
    return (params[PP_LOOK] >= 1 and g.decision == D_PLACE and not rotation_is_chosen(g)
            and not g.last_round)


cdef int policy_choose_w(Game_t* g, const Rules_t* R, const double* w, const double* params,
                         PolicyScratch* s, const uint32_t* moves, int n,
                         PolicyTrace* trace) noexcept nogil:
    """Index of the move whose afterstate the deciding player values most; with
    `trace` (learning), the chosen afterstate is recorded for its seat."""
    cdef int p = g.decider, i, k, best = 0, best_n = 0
    cdef int* cand = s.idx_a
    cdef int* kept = s.idx_b
    cdef int* tmp
    cdef double v, best_v = -1e300, floor = -1e300
    cdef double total, u
    cdef uint32_t going_round = 0               # bit i: moves[i] is a shift that goes round
    if g.decision == D_ROVER_STEP:
        # a free step (Cosmos Inc.) goes only to a position worth more than
        # this one: two squares could otherwise each look better than
        # stopping, and the rover go back and forth for ever
        floor = policy_value(g, R, w, p, cand, &k)
    if trace != NULL and trace.temperature > 0 and g.decision != D_ROTATION:
        # learning: a move drawn with odds exp(value / temperature)
        best_v = pol_values(g, R, w, moves, n, floor, s)
        total = 0.0
        for i in range(n):
            if s.value[i] > -1e299:
                s.value[i] = exp((s.value[i] - best_v) / trace.temperature)
            else:
                s.value[i] = 0.0
            total += s.value[i]
        u = rng_unit(&trace.explore) * total
        best = 0
        for i in range(n):
            if s.value[i] > 0:
                best = i
                u -= s.value[i]
                if u <= 0:
                    break
        memcpy(&s.after, g, sizeof(Game_t))
        apply_move(&s.after, R, moves[best])
        best_v = policy_value(&s.after, R, w, p, kept, &best_n)
    elif trace == NULL and policy_rolls(g, params, n):
        best = policy_rollout_choice(g, R, w, params, s, moves, n)
    elif g.decision == D_ROTATION and params[PP_ROTATION] > 0:
        best = policy_rotation(g, R, w, moves, n, s)
        if trace != NULL:
            memcpy(&s.after, g, sizeof(Game_t))
            apply_move(&s.after, R, moves[best])
            best_v = policy_value(&s.after, R, w, p, kept, &best_n)
    elif n > 1 and policy_looks(g, params):
        pol_values(g, R, w, moves, n, floor, s)
        best = policy_look(g, R, w, moves, n, <int>params[PP_LOOK], s)
        if trace != NULL:
            memcpy(&s.after, g, sizeof(Game_t))
            apply_move(&s.after, R, moves[best])
            best_v = policy_value(&s.after, R, w, p, kept, &best_n)
    else:
        while True:
            for i in range(n):
                if g.decision == D_ORDER and moves[i] == MV_MOVE:
                    continue                         # rovers move once the pool is done
                if going_round and i < 32 and (going_round >> i) & 1:
                    continue
                memcpy(&s.after, g, sizeof(Game_t))
                apply_move(&s.after, R, moves[i])
                v = policy_value(&s.after, R, w, p, cand, &k)
                if v <= floor and pol_free_step(g, &s.after, p, moves[i]):
                    continue
                if v > best_v:
                    best_v = v
                    best = i
                    best_n = k
                    tmp = kept
                    kept = cand
                    cand = tmp
            # a sideways shift its own play would bring back here: the next best
            if best_v <= -1e300 or not pol_shift_goes_round(g, R, w, moves[best], s):
                break
            going_round |= 1 << best
            best_v = -1e300
            best = 0
            best_n = 0
        if best_v <= -1e300 and going_round:
            # every move goes round (no climb is free): the first of them, and
            # the engine's decision limit stays the backstop
            best = __builtin_ctz(going_round)
            if trace != NULL:
                memcpy(&s.after, g, sizeof(Game_t))
                apply_move(&s.after, R, moves[best])
                best_v = policy_value(&s.after, R, w, p, kept, &best_n)
    if trace != NULL:
        trace_step(trace, w, p, best_v, kept, best_n)
    return best


cdef inline void trace_step(PolicyTrace* trace, const double* w, int p, double value,
                            const int* idx, int n) noexcept nogil:
    """Record seat p's chosen afterstate (its value and active entries) when
    the seat learns and its trajectory has room."""
    cdef PolicyStep* step
    if not trace.learns[p] or trace.n_steps[p] >= POL_TRAJ:
        return
    step = &trace.step[p][trace.n_steps[p]]
    step.value = value - policy_weights_sum(w, idx, n)
    step.n = n
    memcpy(step.idx, idx, n * sizeof(int))
    trace.n_steps[p] += 1


cdef inline int policy_choose(Game_t* g, const Rules_t* R, const double* params,
                              PolicyScratch* s, const uint32_t* moves, int n) noexcept nogil:
    """The bot at play: the fitted table's weights, nothing recorded."""
    return policy_choose_w(g, R, &R.fitted.policy[0], params, s, moves, n, NULL)
