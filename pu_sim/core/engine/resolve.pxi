# Resolving a player's pending pool (rules.md 8.2, designer FAQ Q3/Q3'/Q3'').
#
# The tile's two resources and every benefit they chain into sit in one pool;
# the player picks which item to resolve next (D_ORDER), may spend rover
# movement between items, and unspent movement lapses when the pool is done.
# An item whose only possible outcome is forced resolves without a decision.

cdef inline void set_decision(Game_t* g, int kind, int p) noexcept nogil:
    g.decision = <uint8_t>kind
    g.decider = <uint8_t>p


cdef inline bint single_bit(int m) noexcept nogil:
    return m != 0 and (m & (m - 1)) == 0


cdef inline int track_options(const Game_t* g, const Rules_t* R, int p,
                              const Item_t* it) noexcept nogil:
    """Tracks a track-choosing item may advance, as a bit mask."""
    cdef int t, m = 0
    if it.kind == IT_ENERGY:
        return it.a & movable_tracks(g, R, p)           # EN-5: dead candidates dropped
    if it.kind == IT_SYNERGY:
        return movable_tracks(g, R, p)                  # TR-4, rules.md 14.17
    if it.kind == IT_CHOOSE_ADVANCE:
        return it.a & movable_tracks(g, R, p)
    if it.kind == IT_DISTINCT:
        return movable_tracks(g, R, p) & ~it.b          # cards.md 4: distinct trackers
    if it.kind == IT_RAISE:
        for t in range(N_TRACKS):
            if board_row(R, &g.pl[p], t) < it.a and can_climb(g, R, p, t):
                m |= 1 << t
        return m
    return corp_track_options(g, R, p, it)            # a corporation's own item


cdef inline int track_decision_kind(int kind) noexcept nogil:
    if kind == IT_ENERGY:
        return D_ENERGY
    if kind == IT_SYNERGY:
        return D_SYNERGY
    return D_TRACK


cdef void apply_track_choice(Game_t* g, const Rules_t* R, int p, Item_t it, int t) noexcept nogil:
    """Advance track t for a track-choosing item."""
    cdef int s
    if it.kind == IT_ENERGY or it.kind == IT_SYNERGY:
        advance_once(g, R, p, t, True, False)
    elif it.kind == IT_CHOOSE_ADVANCE:
        for s in range(it.b):
            advance_once(g, R, p, t, it.c != 0, False)   # cards.md A8: a lost 2nd step
    elif it.kind == IT_DISTINCT:
        advance_once(g, R, p, t, True, False)
        if it.a > 1:
            push_item(g, p, IT_DISTINCT, it.a - 1, it.b | (1 << t), 0)
    elif it.kind == IT_RAISE:
        # Unionization: one step at a time, benefits except synergy (cards.md A10)
        advance_once(g, R, p, t, True, True)
        push_item(g, p, IT_RAISE, it.a, 0, 0)
    else:
        corp_track_choice(g, R, p, it, t)               # a corporation's own item


cdef inline bint is_track_item(int kind) noexcept nogil:
    return (kind == IT_ENERGY or kind == IT_SYNERGY or kind == IT_CHOOSE_ADVANCE
            or kind == IT_DISTINCT or kind == IT_RAISE)


cdef void begin_track_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    """A track-choosing item: resolved at once if only one track can take it."""
    cdef int m = track_options(g, R, p, &it)
    if m == 0:
        return                                        # RS-4: an impossible item is skipped
    if single_bit(m) and not (it.kind == IT_SYNERGY and corp_synergy_twice(g, p, &it)):
        apply_track_choice(g, R, p, it, __builtin_ctz(m))
        return
    g.item = it
    set_decision(g, track_decision_kind(it.kind), p)


cdef inline bint patch_storable(const Game_t* g, const Rules_t* R, int p,
                                const Item_t* it) noexcept nogil:
    """BI-2: storage tech may keep a patch for the end (not in the end phase)."""
    return it.a == 0 and corp_stores_patches(g, R, p)


cdef inline void drop_meteorite(Game_t* g, int p, int x, int y) noexcept nogil:
    """Events 95/107: a meteorite on an empty meteor symbol; a rover there is lost."""
    cdef Player_t* pl = &g.pl[p]
    cdef uint16_t sq[GRID]
    grid_zero(sq)
    grid_set(sq, x, y)
    grid_set(pl.meteorite, x, y)
    pl.meteorites_placed += 1
    destroy_rovers_on(g, p, sq)                       # RV-5


cdef inline void remove_stack(Game_t* g, const Rules_t* R, int p, int slot) noexcept nogil:
    """Event 116: every tile of one stack of the facing depot leaves the game."""
    g.stack_pos[depot_stack(g, facing_depot(g, R, p), slot)] = STACK_SIZE


cdef void begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    """Resolve a pool item now, or set the decision it needs (RS-4)."""
    cdef Player_t* pl = &g.pl[p]
    cdef int m, n, t0, t1, level, option, x = 0, y = 0
    cdef uint16_t sq[GRID]
    if it.kind == IT_ADVANCE:
        n = 1
        if it.c == 1 and tech_doubles_water(g, R, p):
            n = 2                                     # WA-2, decided at resolution (RS-2)
        elif it.c > 1:
            n = it.c                                  # Oasis: one step per square on ice
        while n > 0:
            advance_once(g, R, p, it.a, it.b != 0, False)
            n -= 1
    elif is_track_item(it.kind):
        begin_track_item(g, R, p, it)
    elif it.kind == IT_PATCH:
        option = corp_patch_option(g, R, p, &it)
        if option:
            offer_option(g, p, option)               # the answer pushes the patch back
            return
        n = patch_squares(g, R, p, sq)
        if n == 0:
            # BI-3 / rules.md 14.8: lost, or kept with storage tech (option)
            if patch_storable(g, R, p, &it) and (g.options & OPT_STORE_PATCH_WITHOUT_SQUARE):
                pl.stored_patches += 1
            else:
                pl.patches_lost += 1
            return
        if n == 1 and not patch_storable(g, R, p, &it):
            lowest_square(sq, &x, &y)
            place_patch(g, p, x, y)
            return
        g.item = it
        set_decision(g, D_PATCH, p)
    elif it.kind == IT_ROVER:
        # RV-1, rules.md 14.16: no rover left or no square means nothing happens
        if supply_rover(pl) < 0:
            return
        rover_place_squares(pl, sq)
        n = grid_count(sq)
        if n == 0:
            return
        if n == 1:
            lowest_square(sq, &x, &y)
            put_rover(g, R, p, supply_rover(pl), x, y, False)
            return
        g.item = it
        set_decision(g, D_ROVER_PLACE, p)
    elif it.kind == IT_LIFEPOD:
        n = grid_count(pl.lifepod)
        if n == 0:
            return
        g.item = it
        if n == 1:
            lowest_square(pl.lifepod, &x, &y)
            collect_lifepod(g, R, p, x, y)
            return
        set_decision(g, D_LIFEPOD, p)
    elif it.kind == IT_TELEPORT:
        if rovers_on_planet(pl) == 0:
            return
        g.item = it
        set_decision(g, D_TELEPORT, p)
    elif it.kind == IT_LINE or it.kind == IT_METEORITE:
        if not grid_any(pl.meteorite):
            return
        g.item = it
        set_decision(g, D_LINE if it.kind == IT_LINE else D_METEORITE, p)
    elif it.kind == IT_REGRESS:
        m = regress_options(g, R, p, &it)
        if m == 0:
            return                                    # nothing can go down
        if single_bit(m):
            regress_tracker(g, R, p, __builtin_ctz(m), regress_amount(g, R, p, it.a, it.b))
            return
        g.item = it
        set_decision(g, D_REGRESS, p)
    elif it.kind == IT_CHOOSE_ONE:
        g.item = it
        set_decision(g, D_CHOOSE_ONE, p)
    elif it.kind == IT_KEEP_ONE:
        if not pl.keep[0].kind or not pl.keep[1].kind:
            # only one resolution would happen anyway: nothing to choose
            it = pl.keep[0] if pl.keep[0].kind else pl.keep[1]
            if it.kind:
                push_item(g, p, it.kind, it.a, it.b, it.c)
            return
        g.item = pl.keep[0]
        set_decision(g, D_KEEP_RESOURCE, p)
    elif it.kind == IT_PLACE_METEORITE:
        n = empty_meteor_symbols(pl, sq)
        if n == 0:
            return
        g.item = it
        if n == 1 and not tech_no_meteorites(g, R, p):
            lowest_square(sq, &x, &y)
            drop_meteorite(g, p, x, y)
            return
        set_decision(g, D_METEOR_SYMBOL, p)           # tech L5: optional (BGA)
    elif it.kind == IT_DESTROY_LIFEPOD:
        n = grid_count(pl.lifepod)
        if n == 0:
            return
        if n == 1:
            lowest_square(pl.lifepod, &x, &y)
            grid_clear_sq(pl.lifepod, x, y)
            pl.lifepods_lost += 1
            return
        g.item = it
        set_decision(g, D_DESTROY_LIFEPOD, p)
    elif it.kind == IT_DESTROY_ROVER:
        if rovers_on_planet(pl) == 0:
            return
        g.item = it
        set_decision(g, D_DESTROY_ROVER, p)
    elif it.kind == IT_COLLECT_METEORITE:
        n = grid_count(pl.meteorite)
        if n == 0:
            return
        g.item = it
        if n == 1:
            lowest_square(pl.meteorite, &x, &y)
            collect_meteorite(g, R, p, x, y)
            return
        set_decision(g, D_COLLECT_METEORITE, p)
    elif it.kind == IT_DISCARD_OBJECTIVE:
        if pl.n_priv == 0:
            return
        g.item = it
        set_decision(g, D_OBJECTIVE_DISCARD, p)
    elif it.kind == IT_ROTATE_STATION:
        g.item = it
        set_decision(g, D_ROTATION, p)
    elif it.kind == IT_REMOVE_STACK:
        m = removable_stacks(g, R, p)
        if m == 0:
            return                                    # would empty the depot: ignored
        g.item = it
        if single_bit(m):
            remove_stack(g, R, p, __builtin_ctz(m))
            return
        set_decision(g, D_REMOVE_STACK, p)
    elif it.kind == IT_CIV_PICK:
        if pick_pool_size(g, it.a) == 0:
            return                                    # CV-3: empty pile, nothing
        g.item = it
        prepare_pick(g, R, p, it.a)
        set_decision(g, D_CIV_PICK, p)
    elif it.kind == IT_PLACE_TILE:
        t0 = depot_tile(g, R, p, 0)
        t1 = depot_tile(g, R, p, 1)
        level = find_place_level(g, R, p, t0, t1, LEVEL_NO_EVENT)  # 2.8.search
        if level == LEVEL_NONE:
            return                                    # cards: skip if nothing fits
        g.item = it
        g.place_level = <uint8_t>level
        g.place_from_depot = <uint8_t>(1 + it.a)
        set_decision(g, D_PLACE, p)
    else:
        corp_begin_item(g, R, p, it)                  # a corporation's own item


cdef inline bint items_all_same(const Player_t* pl) noexcept nogil:
    cdef int i
    for i in range(1, pl.n_items):
        if (pl.items[i].kind != pl.items[0].kind or pl.items[i].a != pl.items[0].a
                or pl.items[i].b != pl.items[0].b or pl.items[i].c != pl.items[0].c):
            return False
    return True


cdef bint resolve_pool(Game_t* g, const Rules_t* R) noexcept nogil:
    """Drive the active player's pool until a decision is needed (True) or it is done."""
    cdef int p = g.active
    cdef Player_t* pl = &g.pl[p]
    cdef bint can_move
    cdef int i
    cdef Item_t it
    while g.decision == D_NONE:
        if g.status != STATUS_OK:
            return False
        can_move = rover_can_step(g, R, p)
        if g.moving:
            if can_move:
                set_decision(g, D_ROVER_STEP, p)
                return True
            g.moving = 0
        if pl.n_items == 0:
            if (g.ctx == CTX_CIV or g.ctx == CTX_END_PICKS) and pl.n_owed > 0:
                return False                          # the turn goes on: keep the budget
            if not pl.power_declined and any_power(g, R, p):
                set_decision(g, D_POWER, p)           # activated powers: any time
                return True
            if can_move and not pl.stop_moving:
                set_decision(g, D_ROVER_STEP, p)
                return True
            pl.move_budget = 0                        # RS-3: unspent movement lapses
            pl.cond_move = 0
            return False
        i = corp_urgent_item(pl)
        if i >= 0:
            it = pl.items[i]                          # e.g. a Makeshift step comes first
            remove_item(pl, i)
            begin_item(g, R, p, it)
        elif not can_move and items_all_same(pl):
            it = pl.items[0]
            remove_item(pl, 0)
            begin_item(g, R, p, it)
        else:
            set_decision(g, D_ORDER, p)
            return True
    return True
