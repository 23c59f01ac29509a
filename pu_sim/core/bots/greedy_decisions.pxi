# ==== one valuation per kind of decision ================================================
#
# greedy_eval dispatches on the decision; each function below values one kind
# (or a small family) and offers every legal move to the Argmax in move order,
# so the generator draws exactly as one body did.
#
# Why long: one valuation per kind of decision, each short; together so that a
# reader sees every decision greedy answers, and greedy_eval's dispatch, at once.

cdef inline double contact_bound(const Rules_t* R, const double* w, const TileEval* t,
                                 int o, double bound, int touch) noexcept nogil:
    """placement_rows' bound on the rest with the tile's `touch` touching sides
    counted exactly (contact_sides) instead of all of them (w[G_CONTACT] > 0)."""
    return bound + w[G_CONTACT] * (touch - R.orient[t.tile][o].perimeter)


cdef struct KeptBounds:
    # Kept mode: what each move's pass found before valuing it in full.
    double* part                         # rows, plus the columns unless owed
    double* upper                        # an upper bound of its full value
    double* rest_upper                   # the bound on its rest (exact contact)
    int* touches                         # its touching sides
    uint8_t* cols_owed                   # part lacks placement_cols (bounded instead)


cdef inline void offer_in_full(const Rules_t* R, const double* w, const Player_t* pl,
                               uint32_t move, int i, const TileEval* tiles,
                               const PlaceEval* e, KeptBounds* kb,
                               PlaceTopK* top) noexcept nogil:
    """Offer move i at its full value unless its bound cannot reach the floor
    (first the bound with its columns bounded, then with them valued)."""
    cdef int slot = 0, o = 0, x = 0, y = 0
    cdef double floor = topk_floor(top) - TIE_EPS, part
    if kb.upper[i] < floor:
        return
    unpack_place(move, &slot, &o, &x, &y)
    if kb.cols_owed[i]:
        kb.part[i] += placement_cols(R, w, pl, &tiles[slot], o, x, y, e)
        kb.cols_owed[i] = 0
        if kb.part[i] + kb.rest_upper[i] < floor:
            return
    part = kb.part[i]
    topk_offer(top, i, part + placement_rest(R, w, &tiles[slot], o, x, y, e,
                                             floor - part if w[G_POCKET] > 0 else -1e300,
                                             kb.touches[i]))


cdef void keep_best_placements(const Rules_t* R, const double* w, const Player_t* pl,
                               const uint32_t* moves, int n, const TileEval* tiles,
                               const PlaceEval* e, KeptBounds* kb, const PlaceTopK* seeds,
                               PlaceTopK* top) noexcept nogil:
    """Greedy's best top.cap placements by full value, given every move's bounds
    (kb).  The moves with the best bounds (seeds) are valued first, so the
    floor they set spares the rest of most others (in kept-mode solo games
    about half of the rests a pass in move order paid); the kept set is the
    one that pass keeps, since topk_offer breaks ties by move order."""
    cdef int k, i
    for k in range(seeds.n):
        i = seeds.index[k]
        offer_in_full(R, w, pl, moves[i], i, tiles, e, kb, top)
    for i in range(n):
        if not topk_holds(seeds, i):
            offer_in_full(R, w, pl, moves[i], i, tiles, e, kb, top)


cdef inline int look_width(const double* w) noexcept nogil:
    """Greedy-best placements the lookaheads start from (G_LOOK_WIDTH; below 1:
    all NEXT_FIT_K)."""
    return <int>w[G_LOOK_WIDTH] if w[G_LOOK_WIDTH] >= 1 else NEXT_FIT_K


cdef inline void seed_floor(const Rules_t* R, const double* w, const Player_t* pl,
                            const uint32_t* moves, int n, const TileEval* tiles,
                            const PlaceEval* e, uint32_t seed, Argmax* a) noexcept nogil:
    """Value `seed` in full, if it is among the moves, as the argmax's floor:
    the lookaheads seed each evaluation with the move chosen in the one before
    (a similar planet), so most placements are pruned by bound from the start."""
    cdef int i, slot = 0, o = 0, x = 0, y = 0
    cdef double bound
    for i in range(n):
        if moves[i] == seed:
            unpack_place(seed, &slot, &o, &x, &y)
            argmax_floor(a, placement_rows(R, w, &tiles[slot], o, y, e, &bound)
                         + placement_cols(R, w, pl, &tiles[slot], o, x, y, e)
                         + placement_rest(R, w, &tiles[slot], o, x, y, e, -1e300, -1))
            return


cdef inline void offer_placements(Game_t* g, const Rules_t* R, const double* w, int p,
                                  const uint32_t* moves, int n, double* scores,
                                  PlaceEval* e, Argmax* a, uint32_t seed) noexcept nogil:
    """D_PLACE: every placement by its rows, columns and rest (pruned against the
    best so far, from the start against `seed`'s value when it is legal);
    with the fitted or learned placement values or a lookahead, greedy's best
    few are kept (keep_best_placements: best bound first) and re-ranked first.
    When only the best value is read (Argmax.value_only: the commander's
    depots), the kept mode keeps one: the same value, 5-7% faster 3-6-player
    games than pruning in move order."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int i, touch, slot = 0, o = 0, x = 0, y = 0
    cdef TileEval tiles[2]
    cdef PlaceTopK top, seeds
    cdef KeptBounds kb                   # kept mode: each move's bounds
    cdef double v, bound = 0.0, best_fit, row_value = 0.0, row_upper = 0.0, upper_cols = 0.0
    cdef double rest_upper, col_gains, shape = 0.0
    cdef bint cheap, shape_known
    cdef uint32_t group
    cdef uint64_t group_contact = 0      # contact_sides of the group's columns
    # column_gains by x for the group's (slot, o): every row y of it shares
    # them, since a column's gain reads the tile's squares in it and its
    # meteorite, not y
    cdef double x_gains[GRID]
    cdef uint16_t x_known = 0            # bit x: x_gains[x] is valued
    cdef bint look_ahead = next_fit_on(g, w), chain = end_chain_on(g, w)
    cdef bint learned_planet = ntuple_on(g, w)
    cdef bint keep = (w[G_PLACE_FIT] != 0 or learned_planet or look_ahead or chain)
    # only the best value is read (Argmax.value_only): kept mode keeping one
    cdef bint best_only = a.value_only and scores == NULL and not keep
    prepare_depot_tiles(g, R, w, p, e, tiles)
    group = -1
    top.n = 0
    # the learned value was fitted on the best NEXT_FIT_K (ntuple_values.py)
    top.cap = NEXT_FIT_K if (look_ahead or chain or learned_planet) else PLACE_FIT_K
    if (look_ahead or chain) and w[G_PLACE_FIT] == 0 and not learned_planet:
        top.cap = min(top.cap, look_width(w))  # nothing re-ranks them: keep only those looked from
    seeds.n = 0
    seeds.cap = top.cap
    if best_only:
        keep = True
        top.cap = seeds.cap = 1
        if a.best > -1e300:                # the argmax's floor, as a kept value
            top.n = 1
            top.value[0] = a.best
            top.index[0] = -1
    kb.part = kb.upper = kb.rest_upper = NULL   # set only in kept mode (and read only there)
    kb.touches = NULL
    kb.cols_owed = NULL
    if scores == NULL and keep:
        kb.part = <double*>malloc(n * (3 * sizeof(double) + sizeof(int) + sizeof(uint8_t)))
        if kb.part == NULL:
            argmax_offer(a, g, 0, 0.0)
            return
        kb.upper = kb.part + n
        kb.rest_upper = kb.upper + n
        kb.touches = <int*>(kb.rest_upper + n)
        kb.cols_owed = <uint8_t*>(kb.touches + n)
    if seed != NO_SEED and not keep:
        seed_floor(R, w, pl, moves, n, tiles, e, seed, a)
    for i in range(n):
        unpack_place(moves[i], &slot, &o, &x, &y)
        if (moves[i] >> 4) != group:           # moves come grouped by slot, o, y
            if (moves[i] >> 8) != (group >> 4):  # a new (slot, o): no x_gains yet
                x_known = 0
            group = moves[i] >> 4
            row_value = placement_rows(R, w, &tiles[slot], o, y, e, &bound)
            group_contact = contact_by_column(e, &R.orient[tiles[slot].tile][o], y)
            if tiles[slot].cols_bound_on and scores == NULL:
                row_upper = row_value + cols_bound_in_rows(R, &tiles[slot], o, y, e)
        touch = <int>((group_contact >> (5 * x)) & 31)
        cheap = tiles[slot].cols_bound_on and scores == NULL  # placement_cols_bound prunes
        shape_known = False
        if cheap:
            if not (x_known >> x) & 1:
                x_gains[x] = column_gains(&R.orient[tiles[slot].tile][o], &tiles[slot], x, e)
                x_known |= 1 << x
            col_gains = x_gains[x]
            upper_cols = row_upper + col_gains
            if not keep:
                if argmax_hopeless(a, upper_cols + bound):
                    continue
                if w[G_CONTACT] > 0 and a.noise == 0:
                    rest_upper = contact_bound(R, w, &tiles[slot], o, bound, touch)
                    if argmax_hopeless(a, upper_cols + rest_upper):
                        continue
                    if e.st.n:                 # the loosest bounded term, valued first
                        shape = placement_shape(R, &tiles[slot], o, x, y, e)
                        if argmax_hopeless(a, row_value + rest_upper + placement_cols_bound_shaped(
                                &tiles[slot], shape, col_gains)):
                            continue
                        shape_known = True
        if keep and scores == NULL:            # valued in full below, best bound first
            rest_upper = (contact_bound(R, w, &tiles[slot], o, bound, touch)
                          if w[G_CONTACT] > 0 else bound)
            kb.rest_upper[i] = rest_upper
            kb.touches[i] = touch
            kb.cols_owed[i] = cheap
            kb.part[i] = row_value if cheap else (
                row_value + placement_cols(R, w, pl, &tiles[slot], o, x, y, e))
            kb.upper[i] = (upper_cols if cheap else kb.part[i]) + rest_upper
            topk_offer(&seeds, i, kb.upper[i])
            continue
        v = row_value + (placement_cols_after(R, w, pl, &tiles[slot], o, x, y, e, shape)
                         if shape_known else placement_cols(R, w, pl, &tiles[slot], o, x, y, e))
        if keep:                               # keep the best few, every one in full
            v += placement_rest(R, w, &tiles[slot], o, x, y, e, -1e300, touch)
            scores[i] = v
            topk_offer(&top, i, v)
            continue
        if argmax_hopeless(a, v + bound):
            continue
        if (w[G_CONTACT] > 0 and a.noise == 0 and argmax_hopeless(
                a, v + contact_bound(R, w, &tiles[slot], o, bound, touch))):
            continue                           # the exact contact: still hopeless
        v += placement_rest(R, w, &tiles[slot], o, x, y, e,
                            argmax_cutoff(a, v) if w[G_POCKET] > 0 else -1e300, touch)
        argmax_offer(a, g, i, v)
    if kb.part != NULL:
        keep_best_placements(R, w, pl, moves, n, tiles, e, &kb, &seeds, &top)
        free(kb.part)
    if best_only:
        if top.n and top.index[0] >= 0:    # else nothing reached the floor
            argmax_offer(a, g, top.index[0], top.value[0])
        return
    # relative to greedy's best, so scores stay comparable to the other moves'
    if top.n and w[G_PLACE_FIT] != 0:
        best_fit = place_fit_value(g, R, p, e, moves[top.index[0]])
        for i in range(1, top.n):
            top.value[i] += w[G_PLACE_FIT] * (
                place_fit_value(g, R, p, e, moves[top.index[i]]) - best_fit)
    if top.n and learned_planet:
        add_ntuple(g, R, w, p, e, moves, &top)
    if look_ahead or chain:                # the lookaheads start from the best few
        topk_cut(&top, look_width(w))
    if top.n and look_ahead:
        add_next_fit(g, R, w, p, moves, top.index, top.value, top.n)
    if top.n and chain:
        add_end_chain(g, R, w, p, moves, top.index, top.value, top.n)
    for i in range(top.n):
        argmax_offer(a, g, top.index[i], top.value[i])


cdef inline void offer_patches(Game_t* g, const Rules_t* R, const double* w, int p,
                               const uint32_t* moves, int n, const PlaceEval* e,
                               Argmax* a) noexcept nogil:
    """D_PATCH: each square by eval_patch_square; storing the patch by G_STORE."""
    cdef int i
    cdef double v
    for i in range(n):
        if moves[i] == MV_STORE:
            v = w[G_STORE]
        else:
            v = eval_patch_square(g, R, w, p, moves[i] % GRID, moves[i] // GRID, e)
        argmax_offer(a, g, i, v)


cdef inline int greedy_on_planet(Game_t* g, const Rules_t* R, const double* w, int p,
                                 const uint32_t* moves, int n, double* scores,
                                 PlaceEval* buf, double* best, Argmax* a,
                                 uint32_t seed) noexcept nogil:
    """D_PLACE and D_PATCH: both read the planet's per-decision evaluator
    (`buf`, or malloc'd for this call); `best` receives the chosen value."""
    cdef PlaceEval* e = buf if buf != NULL else <PlaceEval*>malloc(sizeof(PlaceEval))
    if e == NULL:
        return 0
    if buf == NULL:
        place_eval_init(e)
    prepare_place_eval(g, R, w, p, e)
    if g.decision == D_PLACE:
        offer_placements(g, R, w, p, moves, n, scores, e, a, seed)
    else:
        offer_patches(g, R, w, p, moves, n, e, a)
    if buf == NULL:
        free(e)
    if best != NULL:
        best[0] = a.best
    return a.index


cdef inline void offer_tracks(Game_t* g, const Rules_t* R, const double* w, int p,
                              const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_ENERGY, D_SYNERGY, D_TRACK: the tracker's steps (track_value, or the
    item's own rule), plus the fitted track values scaled by G_TRACK_FIT."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef double ctx[TRACK_FIT_CONTEXT]
    cdef int i, t
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    if w[G_TRACK_FIT] != 0:
        track_context(g, R, p, ctx)
    for i in range(n):
        t = <int>(moves[i] & 7)
        if moves[i] & SYNERGY_TWICE:
            # Jump Drive tech C: worth it when two steps beat one by a margin
            v = track_value(g, R, w, p, t, 2, &inc) - 0.3
        elif g.item.kind == IT_CHOOSE_ADVANCE:
            v = track_value(g, R, w, p, t, g.item.b, &inc)
        elif g.item.kind == IT_RAISE:
            v = track_value(g, R, w, p, t, max(1, g.item.a - board_row(R, pl, t)), &inc)
        elif g.item.kind == IT_CLAIM_ROW:
            v = claim_row_value(g, R, w, p, pl.track[t])
        else:
            v = track_value(g, R, w, p, t, 1, &inc)
        if w[G_TRACK_FIT] != 0:
            v += w[G_TRACK_FIT] * track_fit(g, R, ctx, p, t)
        argmax_offer(a, g, i, v)


cdef inline void offer_regress(Game_t* g, const Rules_t* R, const double* w, int p,
                               const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_REGRESS: lose as little as possible: medals and progress, tech levels,
    the objective cards' pull, and (G_REGRESS_*) the path's benefits."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef int i, t, q
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    q = regress_amount(g, R, p, g.item.a, g.item.b)
    for i in range(n):
        t = <int>moves[i]
        v = -(medal_potential(R, w, pl.corp, t, pl.track[t])
              - medal_potential(R, w, pl.corp, t, pl.track[t] - q)) * w[G_TRACK]
        v -= inc.track[t] * q
        if t == TECH:
            v -= w[G_TECH] * (tech_level(g, R, p) - R.tech_level_at[pl.corp][pl.track[TECH] - q])
        if w[G_REGRESS_RECLAIM] != 0 or w[G_REGRESS_DELAY] != 0:
            v += regress_path(g, R, w, p, t, q)
        argmax_offer(a, g, i, v)


cdef inline void offer_kept_resources(Game_t* g, const Rules_t* R, const double* w, int p,
                                      const uint32_t* moves, int n,
                                      Argmax* a) noexcept nogil:
    """D_KEEP_RESOURCE: an energy by its best track, other resources by their own."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef Item_t kept
    cdef int i, t
    cdef double v, step
    objective_incentives(g, R, w, p, &inc)
    for i in range(n):
        kept = pl.keep[moves[i]]
        if kept.kind == IT_ENERGY:
            v = 0.0
            for t in range(N_TRACKS):
                if (kept.a >> t) & 1 and can_advance(g, R, p, t):
                    step = track_value(g, R, w, p, t, 1, &inc)
                    if step > v:
                        v = step
        else:
            v = track_value(g, R, w, p, kept.a,
                            2 if kept.c == 1 and tech_doubles_water(g, R, p) else 1, &inc)
        argmax_offer(a, g, i, v)


cdef inline void offer_losses(Game_t* g, const Rules_t* R, const double* w, int p,
                              const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_DESTROY_LIFEPOD / D_DESTROY_ROVER: lose the lifepod no rover will reach,
    or the rover far from every lifepod."""
    cdef const Player_t* pl = &g.pl[p]
    cdef double val[GRID][GRID]
    cdef int i, q
    cdef double v
    target_distances(g, R, w, p, 1.0, 0.0, val)
    for i in range(n):
        q = moves[i]
        if g.decision == D_DESTROY_LIFEPOD:
            v = -rover_closeness(pl, q % GRID, q // GRID)
        else:
            v = -val[pl.rover_y[q]][pl.rover_x[q]]
        argmax_offer(a, g, i, v)


cdef inline void offer_rover_squares(Game_t* g, const Rules_t* R, const double* w, int p,
                                     const uint32_t* moves, int n,
                                     Argmax* a) noexcept nogil:
    """D_ROVER_PLACE / D_TELEPORT: the square's value as a rover stand (targets
    over distance); a teleport loses the value of the square it leaves."""
    cdef const Player_t* pl = &g.pl[p]
    cdef Incentive inc
    cdef double val[GRID][GRID]
    cdef int i, q, r
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    target_distances(g, R, w, p, 1.0 + inc.lifepod, w[G_METEOR_TARGET] + inc.meteorite, val)
    for i in range(n):
        if moves[i] == MV_DONE:
            v = 0.0
        else:
            q = moves[i] & 0xFF
            v = val[q // GRID][q % GRID]
            if g.decision == D_TELEPORT:
                r = moves[i] >> 8
                v -= val[pl.rover_y[r]][pl.rover_x[r]]
        argmax_offer(a, g, i, v)


cdef inline void offer_rotations(Game_t* g, const Rules_t* R, const double* w, int p,
                                 const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_ROTATION: each station rotation by the better tile it brings this player
    (with w[G_ROTATION_FIT], by its depots' placements: greedy_rotation.pxi)."""
    cdef int i
    if w[G_ROTATION_FIT] != 0 and offer_fitted_rotations(g, R, w, p, moves, n, a):
        return
    for i in range(n):
        argmax_offer(a, g, i, rotation_sketch(g, R, w, p, <uint8_t>moves[i]))


cdef inline double rotation_sketch(Game_t* g, const Rules_t* R, const double* w, int p,
                                   uint8_t rotation) noexcept nogil:
    """The better of the two tiles `rotation` brings p, by tile_quick_value (a
    placement-free sketch: resources and size); g.rotation is left as it was."""
    cdef uint8_t saved = g.rotation
    cdef double small, large
    g.rotation = rotation
    small = tile_quick_value(g, R, w, p, depot_tile(g, R, p, 0))
    large = tile_quick_value(g, R, w, p, depot_tile(g, R, p, 1))
    g.rotation = saved
    return small if small > large else large


cdef inline double line_meteorites_value(const Player_t* pl, const Rules_t* R,
                                         uint32_t line) noexcept nogil:
    """D_LINE: the meteorites in a row (line < GRID) or a column, each worth
    1 + the medals it keeps from its lines."""
    cdef int x, y
    cdef double v = 0.0
    for y in range(GRID):
        for x in range(GRID):
            if grid_has(pl.meteorite, x, y) and (
                    (line < GRID and y == <int>line)
                    or (line >= GRID and x == <int>line - GRID)):
                v += 1.0 + meteorite_line_value(pl, R, x, y)
    return v


cdef inline double no_place_value(Game_t* g, const Rules_t* R, const double* w, int p,
                                  int slot) noexcept nogil:
    """D_NO_PLACE: a tile given up for its resources (an energy doubles the other)."""
    cdef int tile = depot_tile(g, R, p, slot)
    cdef int ta = R.tile_ta[tile], tb = R.tile_tb[tile]
    if ta == ENERGY:
        ta = tb
    if tb == ENERGY:
        tb = ta
    return track_gain(g, R, w, p, ta, 1) + track_gain(g, R, w, p, tb, 1)


cdef inline double move_value(Game_t* g, const Rules_t* R, const double* w, int p, int d,
                              uint32_t move) noexcept nogil:
    """The decisions whose moves are valued one by one, without per-decision work."""
    cdef const Player_t* pl = &g.pl[p]
    cdef double v
    if d == D_KEEP_OBJECTIVE:
        return contest_lead(g, R, p, <int>move)
    if d == D_FLUX_TRACK:
        return flux_track_value(g, R, w, p, <int>move)
    if d == D_DIRECTION:
        return direction_value(g, R, w, p, g.item.a, move)
    if d == D_REMOVE_STACK:
        # lose the stack whose top tile is worth less to this player
        return -tile_quick_value(g, R, w, p, depot_tile(g, R, p, move))
    if d == D_OBJECTIVE_DISCARD:
        return -objective_prospect(g, R, p, <int>move)
    if d == D_ORDER:
        if move == MV_MOVE:
            return 0.0
        if move > MV_POWER:
            return power_priority(g, R, w, p, <int>(move - MV_POWER))
        return item_priority(&pl.items[move])
    if d == D_POWER:
        return 0.0 if move == MV_DONE else power_value(g, R, w, p, <int>move)
    if d == D_BRANCH:
        return branch_value(g, R, w, p, <int>move)
    if d == D_CIV_PICK:
        return card_value(g, R, w, p, <int>move)
    if d == D_METEOR_SYMBOL or d == D_COLLECT_METEORITE:
        # place where it blocks least; collect where it blocks most
        if move == MV_DONE:
            return 1e6                                 # tech L5: decline it
        v = meteorite_line_value(pl, R, move % GRID, move // GRID)
        return -v if d == D_METEOR_SYMBOL else v
    if d == D_METEORITE:
        if move == MV_DONE:
            return 0.0
        return 1.0 + meteorite_line_value(pl, R, move % GRID, move // GRID)
    if d == D_LINE:
        return 0.0 if move == MV_DONE else line_meteorites_value(pl, R, move)
    if d == D_NO_PLACE:
        return no_place_value(g, R, w, p, <int>move)
    return 0.0                  # D_LIFEPOD: every lifepod is worth the same; any of them


cdef int greedy_eval(Game_t* g, const Rules_t* R, const double* w,
                     const uint32_t* moves, int n, double* scores,
                     PlaceEval* buf, double* best, uint32_t seed=NO_SEED) noexcept nogil:
    """greedy_choose's body; with `scores` it fills scores[0..n) in scoring mode.
    `buf`: the placement evaluator's memory (NULL: malloc'd for this call).
    `best` (may be NULL): receives the chosen move's value (placements only),
    and ties keep the first move offered: the lookaheads' simulated choices
    then depend on the public state only, not on the game's generator.
    `seed`: a placement likely to be good, whose value prunes from the start
    (the same choice; with `best` only).

    One body for both, so the search bot orders moves exactly as greedy values
    them.  Decisions answered without valuing each move (D_CHOOSE_ONE,
    D_YES_NO) write the values their rule implies.
    """
    cdef int p = g.decider, d = g.decision, i
    cdef Argmax a
    cdef Incentive inc
    cdef double v
    argmax_init(&a, w[G_NOISE], scores, best != NULL)
    if scores != NULL:
        for i in range(n):
            scores[i] = 0.0
    if end_rollouts_choose(g, w, n):
        return end_rollout_choice(g, R, w, moves, n, scores)
    if d == D_PLACE or d == D_PATCH:
        return greedy_on_planet(g, R, w, p, moves, n, scores, buf, best, &a, seed)
    if d == D_ENERGY or d == D_SYNERGY or d == D_TRACK:
        offer_tracks(g, R, w, p, moves, n, &a)
    elif d == D_REGRESS:
        offer_regress(g, R, w, p, moves, n, &a)
    elif d == D_KEEP_RESOURCE:
        offer_kept_resources(g, R, w, p, moves, n, &a)
    elif d == D_DESTROY_LIFEPOD or d == D_DESTROY_ROVER:
        offer_losses(g, R, w, p, moves, n, &a)
    elif d == D_ROVER_PLACE or d == D_TELEPORT:
        offer_rover_squares(g, R, w, p, moves, n, &a)
    elif d == D_ROTATION:
        offer_rotations(g, R, w, p, moves, n, &a)
    elif d == D_ROVER_STEP:
        objective_incentives(g, R, w, p, &inc)
        return greedy_rover_step(g, R, w, p, moves, n, &inc, scores, best != NULL)
    elif d == D_POD_PLACE or d == D_POD_MOVE or d == D_POD_DESTROY:
        return greedy_pods(g, R, w, p, moves, n, &a)
    elif d == D_CHOOSE_ONE:
        if scores != NULL:
            scores[0] = 1.0
        return 0                                       # a synergy beats a peek
    elif d == D_YES_NO:
        v = option_value(g, R, w, p, &g.item)
        if scores != NULL and n > 1:
            scores[1] = v                              # move 1 is "use it", move 0 is 0
        return 1 if v > 0 else 0
    else:
        for i in range(n):
            argmax_offer(&a, g, i, move_value(g, R, w, p, d, moves[i]))
    return a.index
