# Legal moves of the pending decision, and applying one.
#
# legal_moves() and apply_move() are the whole interface of a decision: the fast
# path, the slow path (GameState), golden traces and bots all go through them.

cdef enum:
    SYNERGY_TWICE = 0x10        # D_SYNERGY move track | SYNERGY_TWICE (corp_synergy_twice)


cdef inline int gen_squares(const uint16_t* g, uint32_t* out, int n) noexcept nogil:
    """Append every set square of g (as y * 12 + x) to out."""
    cdef int y
    cdef uint16_t bits
    for y in range(GRID):
        bits = g[y]
        while bits:
            out[n] = <uint32_t>sq_of(__builtin_ctz(bits), y)
            n += 1
            bits &= bits - 1
    return n


cdef inline int gen_track_moves(int mask, uint32_t* out) noexcept nogil:
    cdef int t, n = 0
    for t in range(N_TRACKS):
        if (mask >> t) & 1:
            out[n] = t
            n += 1
    return n


cdef int legal_moves(const Game_t* g, const Rules_t* R, uint32_t* out) noexcept nogil:
    """Write the legal moves of the pending decision; returns their number."""
    cdef int p = g.decider, n = 0, i, j, r, y
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t sq[GRID]
    cdef bint dup
    cdef int d = g.decision
    if d == D_ROTATION:
        for i in range(6):
            out[i] = i
        return 6
    if d == D_PLACE:
        return gen_placements(g, R, p,
                              depot_tile(g, R, p, 0) if not g.draft_barred & 1 else NO_TILE,
                              depot_tile(g, R, p, 1) if not g.draft_barred & 2 else NO_TILE,
                              g.place_level, out)
    if d == D_NO_PLACE:
        for i in range(2):
            if depot_tile(g, R, p, i) != NO_TILE:
                out[n] = i
                n += 1
        return n
    if d == D_ORDER:
        for i in range(pl.n_items):
            dup = False
            for j in range(i):
                if (pl.items[j].kind == pl.items[i].kind and pl.items[j].a == pl.items[i].a
                        and pl.items[j].b == pl.items[i].b and pl.items[j].c == pl.items[i].c):
                    dup = True
                    break
            if not dup:
                out[n] = i
                n += 1
        if rover_can_step(g, R, p):
            out[n] = MV_MOVE
            n += 1
        return n + gen_powers(g, R, p, out + n, MV_POWER)
    if d == D_POWER:
        n = gen_powers(g, R, p, out, 0)
        out[n] = MV_DONE
        return n + 1
    if d == D_YES_NO:
        out[0] = 0
        out[1] = 1
        return 2
    if d == D_ENERGY or d == D_SYNERGY or d == D_TRACK:
        n = gen_track_moves(track_options(g, R, p, &g.item), out)
        if d == D_SYNERGY and corp_synergy_twice(g, p, &g.item):
            for i in range(n):                         # each track once or twice
                out[n + i] = out[i] | SYNERGY_TWICE
            n *= 2
        return n
    if d == D_PATCH:
        patch_squares(g, R, p, sq)
        n = gen_squares(sq, out, 0)
        if patch_storable(g, R, p, &g.item):
            out[n] = MV_STORE
            n += 1
        return n
    if d == D_ROVER_PLACE:
        rover_place_squares(pl, sq)
        return gen_squares(sq, out, 0)
    if d == D_ROVER_STEP:
        n = gen_rover_steps(g, R, p, out)
        out[n] = MV_DONE
        return n + 1
    if d == D_CIV_PICK:
        return gen_pick_moves(g, out)
    if d == D_LIFEPOD:
        return gen_squares(pl.lifepod, out, 0)
    if d == D_TELEPORT:
        # Relocation Bonus: any grid square without another own rover (cards.md A4)
        for y in range(GRID):
            sq[y] = R.pmask[pl.planet][PM_GRID][y] & ~pl.rover_at[y]
            if g.round_rule == RR_ROVER_CANNOT_ENTER_TERRAIN:
                sq[y] &= ~pl.terr[g.rule_arg][y]       # events 97-102 bar teleports too
            if planet_has(R, pl.planet, PF_TOXIC):
                sq[y] &= ~(R.pmask[pl.planet][PM_TOXIC][y] & ~pl.occ[y])   # K'aax (3.6)
        for r in range(MAX_ROVERS):
            if pl.rover_status[r] == RV_PLANET:
                j = gen_squares(sq, out, n)
                for i in range(n, j):
                    out[i] |= <uint32_t>(r << 8)
                n = j
        out[n] = MV_DONE
        return n + 1
    if d == D_LINE:
        for y in range(GRID):
            if pl.meteorite[y]:
                out[n] = y
                n += 1
        for i in range(GRID):
            for y in range(GRID):
                if (pl.meteorite[y] >> i) & 1:
                    out[n] = GRID + i
                    n += 1
                    break
        return n
    if d == D_METEORITE:
        n = gen_squares(pl.meteorite, out, 0)
        out[n] = MV_DONE
        return n + 1
    if d == D_REGRESS:
        return gen_track_moves(regress_options(g, R, p, &g.item), out)
    if d == D_CHOOSE_ONE or d == D_KEEP_RESOURCE:
        out[0] = 0
        out[1] = 1
        return 2
    if d == D_METEOR_SYMBOL:
        empty_meteor_symbols(pl, sq)
        n = gen_squares(sq, out, 0)
        if tech_no_meteorites(g, R, p):
            out[n] = MV_DONE                           # tech L5: optional (BGA)
            n += 1
        return n
    if d == D_DESTROY_LIFEPOD:
        return gen_squares(pl.lifepod, out, 0)
    if d == D_DESTROY_ROVER:
        for r in range(MAX_ROVERS):
            if pl.rover_status[r] == RV_PLANET:
                out[n] = r
                n += 1
        return n
    if d == D_COLLECT_METEORITE:
        return gen_squares(pl.meteorite, out, 0)
    if d == D_REMOVE_STACK:
        return gen_track_moves(removable_stacks(g, R, p), out)
    if d == D_OBJECTIVE_DISCARD:
        if g.stage == ST_OBJECTIVES:
            for i in range(pl.n_dealt):
                out[i] = pl.dealt[i]
            return pl.n_dealt
        for i in range(pl.n_priv):
            out[i] = pl.priv[i]
        return pl.n_priv
    return corp_legal_moves(g, R, p, d, out)           # a corporation's own decision


cdef inline void discard_card(uint8_t* cards, uint8_t* n, int card) noexcept nogil:
    """Remove an objective card from a player's hand, keeping the order."""
    cdef int i, j
    for i in range(n[0]):
        if cards[i] == card:
            for j in range(i, n[0] - 1):
                cards[j] = cards[j + 1]
            n[0] -= 1
            return


cdef void apply_move(Game_t* g, const Rules_t* R, uint32_t mv) noexcept nogil:
    """Carry out move mv for the pending decision (assumed legal)."""
    cdef int d = g.decision, p = g.decider
    cdef Player_t* pl = &g.pl[p]
    cdef int slot = 0, o = 0, x = 0, y = 0, tile, r, i
    cdef Item_t it
    g.decision = D_NONE
    g.n_decisions += 1
    if g.n_decisions > MAX_DECISIONS:
        g.status = STATUS_DECISION_LIMIT
        return
    if d == D_ROTATION:
        g.rotation = <uint8_t>mv                       # SS-3 (event 79: any depot)
        if not g.in_pool:
            g.stage = ST_EVENT
    elif d == D_PLACE:
        unpack_place(mv, &slot, &o, &x, &y)
        tile = take_depot_tile(g, R, p, slot)
        corp_tile_taken(g, R, p, tile)                 # before placing (FAQ A12)
        g.preselected = 0
        g.draft_barred = 0
        if g.place_level == LEVEL_NO_PLANET:
            g.pl[p].placements_relaxed += 1
        if g.place_level == LEVEL_WAIVER:
            g.pl[p].waiver_used = 1                    # planets.md 2.8: once per game
        if g.place_from_depot == 0:
            place_tile(g, R, p, tile, o, x, y, True)   # the draft: resolve it fully
            g.ctx = CTX_DRAFT
            open_pool(g, p)
        else:
            place_tile(g, R, p, tile, o, x, y, g.place_from_depot == 2)
            g.place_from_depot = 0
    elif d == D_NO_PLACE:
        tile = take_depot_tile(g, R, p, <int>mv)
        take_unplaced_tile(g, R, p, tile)
        g.ctx = CTX_DRAFT
        open_pool(g, p)
    elif d == D_ORDER:
        if mv == MV_MOVE:
            g.moving = 1
        elif mv > MV_POWER:
            use_power(g, R, p, <int>(mv - MV_POWER))
        else:
            it = pl.items[mv]
            remove_item(pl, <int>mv)
            begin_item(g, R, p, it)
    elif d == D_ENERGY or d == D_SYNERGY or d == D_TRACK:
        if mv & SYNERGY_TWICE:
            corp_synergy_doubled(g, p)
            apply_track_choice(g, R, p, g.item, <int>(mv & 7))
        apply_track_choice(g, R, p, g.item, <int>(mv & 7))
    elif d == D_PATCH:
        if mv == MV_STORE:
            pl.stored_patches += 1
        else:
            place_patch(g, p, mv % GRID, mv // GRID)
    elif d == D_ROVER_PLACE:
        put_rover(g, R, p, supply_rover(pl), mv % GRID, mv // GRID, False)
    elif d == D_ROVER_STEP:
        if mv == MV_DONE:
            if pl.n_items == 0 and not (
                    (g.ctx == CTX_CIV or g.ctx == CTX_END_PICKS) and pl.n_owed > 0):
                pl.move_budget = 0                     # stop: the rest lapses (14.25)
                pl.cond_move = 0
                pl.stop_moving = 1                     # (round movement is kept)
            g.moving = 0
        else:
            r = mv >> 8
            x = (mv & 0xFF) % GRID
            y = (mv & 0xFF) // GRID
            if not corp_step_is_free(g, R, p, x, y):
                spend_movement(pl, 1)                  # RV-2: one movement a square
            corp_rover_moved(g, p, pl.rover_x[r], pl.rover_y[r], x, y)
            put_rover(g, R, p, r, x, y, True)
    elif d == D_CIV_PICK:
        take_card(g, R, p, <int>mv)
        open_pool(g, p)
    elif d == D_LIFEPOD:
        collect_lifepod(g, R, p, mv % GRID, mv // GRID)
        if g.item.a > 1:
            push_item(g, p, IT_LIFEPOD, g.item.a - 1, 0, 0)
    elif d == D_TELEPORT:
        if mv != MV_DONE:
            put_rover(g, R, p, mv >> 8, (mv & 0xFF) % GRID, (mv & 0xFF) // GRID, False)
    elif d == D_LINE:
        # Landing Zone Approved: every meteorite of the line leaves the game
        if mv < GRID:
            pl.meteorites_destroyed += popcount16(pl.meteorite[mv])
            pl.meteorite[mv] = 0
        else:
            i = mv - GRID
            for y in range(GRID):
                if (pl.meteorite[y] >> i) & 1:
                    pl.meteorite[y] &= <uint16_t>~(1 << i)
                    pl.meteorites_destroyed += 1
    elif d == D_METEORITE:
        if mv != MV_DONE:
            grid_clear_sq(pl.meteorite, mv % GRID, mv // GRID)
            pl.meteorites_destroyed += 1
            if g.item.a > 1:
                push_item(g, p, IT_METEORITE, g.item.a - 1, 0, 0)
    elif d == D_REGRESS:
        regress_tracker(g, R, p, <int>mv, regress_amount(g, R, p, g.item.a, g.item.b))
    elif d == D_POWER:
        if mv == MV_DONE:
            pl.power_declined = 1
        else:
            use_power(g, R, p, <int>mv)
    elif d == D_YES_NO:
        corp_option_answer(g, R, p, g.item, mv == 1)
    elif d == D_CHOOSE_ONE:
        if mv == 0:
            push_item(g, p, IT_SYNERGY, SYN_EVENT, 0, 0)   # events 117/118 (corp-J7)
        else:
            pl.peeks += 1                              # information only
    elif d == D_KEEP_RESOURCE:
        it = pl.keep[mv]
        push_item(g, p, it.kind, it.a, it.b, it.c)
    elif d == D_METEOR_SYMBOL:
        if mv != MV_DONE:
            drop_meteorite(g, p, mv % GRID, mv // GRID)
    elif d == D_DESTROY_LIFEPOD:
        grid_clear_sq(pl.lifepod, mv % GRID, mv // GRID)
        pl.lifepods_lost += 1
    elif d == D_DESTROY_ROVER:
        r = <int>mv
        pl.rover_status[r] = RV_DESTROYED
        grid_clear_sq(pl.rover_at, pl.rover_x[r], pl.rover_y[r])
        pl.rovers_lost += 1
    elif d == D_COLLECT_METEORITE:
        collect_meteorite(g, R, p, mv % GRID, mv // GRID)
        if g.item.a > 1:
            push_item(g, p, IT_COLLECT_METEORITE, g.item.a - 1, 0, 0)
    elif d == D_REMOVE_STACK:
        remove_stack(g, R, p, <int>mv)
    elif d == D_OBJECTIVE_DISCARD:
        if g.stage == ST_OBJECTIVES:
            discard_card(pl.dealt, &pl.n_dealt, <int>mv)
        else:
            discard_card(pl.priv, &pl.n_priv, <int>mv)
    else:
        corp_apply_move(g, R, p, d, mv)                # a corporation's own decision
