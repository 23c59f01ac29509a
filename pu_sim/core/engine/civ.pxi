# Civ cards: piles, picks and card effects (rules.md 3.4, 8.6; cards.md 4).
#
# When a civ milestone's pick happens (civ card milestone timing, the option
# civ_pick_timing) is decided where milestones are claimed, in tracks.pxi; the
# round's civ step that serves the picks is in round.pxi.

cdef enum:
    ALL_RANKS = 5               # a pick from every pile at once (Republic tech 5)


cdef inline void civ_setup(Game_t* g, const Rules_t* R) noexcept nogil:
    """ST-11: per rank keep (players + 1) random cards; the rest is the reserve."""
    cdef uint8_t cards[CIV_PER_RANK]
    cdef int rank, i, keep = g.n_players + 1
    for rank in range(4):
        for i in range(CIV_PER_RANK):
            cards[i] = R.rank_cards[rank][i]
        shuffle_u8(&g.rng, cards, CIV_PER_RANK)
        g.pile_n[rank] = <uint8_t>keep
        g.reserve_n[rank] = <uint8_t>(CIV_PER_RANK - keep)
        for i in range(CIV_PER_RANK):
            if i < keep:
                g.pile[rank][i] = cards[i]
            else:
                g.reserve[rank][i - keep] = cards[i]


cdef inline bint holds_card(const Player_t* pl, int card) noexcept nogil:
    return (pl.civ_cards >> (card - 1)) & 1


cdef inline int next_card_held(uint64_t* held) noexcept nogil:
    """The lowest card id left in *held (bit id - 1), taken out of it; 0
    when none is left.  Why: the bots score positions often, and a player
    holds a few of the 36 cards."""
    cdef int card
    if held[0] == 0:
        return 0
    card = __builtin_ctzll(held[0]) + 1
    held[0] &= held[0] - 1
    return card if card <= N_CIV else 0


cdef inline int pick_pool_size(const Game_t* g, int rank) noexcept nogil:
    """Cards a pick of `rank` chooses among (CV-3: none, no pick)."""
    cdef int r, n = 0
    if rank == ALL_RANKS:
        for r in range(4):
            n += g.pile_n[r]
        return n
    return g.pile_n[rank - 1]


cdef void prepare_pick(Game_t* g, const Rules_t* R, int p, int rank) noexcept nogil:
    """Set up a civ pick of `rank` (CV-2; a corporation may add a card)."""
    g.pick_rank = <uint8_t>rank
    g.pick_extra = 0
    corp_pick_prepared(g, R, p, rank)


cdef int gen_pick_moves(const Game_t* g, uint32_t* out) noexcept nogil:
    """Cards the pending pick may keep."""
    cdef int rank, i, n = 0
    if g.pick_rank == ALL_RANKS:
        for rank in range(4):
            for i in range(g.pile_n[rank]):
                out[n] = g.pile[rank][i]
                n += 1
        return n
    for i in range(g.pile_n[g.pick_rank - 1]):
        out[n] = g.pile[g.pick_rank - 1][i]
        n += 1
    if g.pick_extra:
        out[n] = g.pick_extra
        n += 1
    return n


cdef inline void take_card(Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """CV-2: keep one card of the pile; immediate effects join the pool now."""
    cdef Player_t* pl = &g.pl[p]
    cdef int rank = R.card_rank[card] - 1
    cdef int i, k, found = -1, op, arg
    for i in range(g.pile_n[rank]):
        if g.pile[rank][i] == card:
            found = i
    if found < 0:
        g.status = STATUS_BAD_MOVE
        return
    for i in range(found, g.pile_n[rank] - 1):
        g.pile[rank][i] = g.pile[rank][i + 1]
    g.pile_n[rank] -= 1
    pl.civ_cards |= (<uint64_t>1) << (card - 1)
    for k in range(2):
        op = R.card_op[card][k]
        arg = R.card_arg[card][k]
        if op == OP_NONE or R.card_when[card][k] != WHEN_ON_TAKE:
            continue
        if op == OP_ADVANCE_DISTINCT_TRACKERS:
            push_item(g, p, IT_DISTINCT, arg, 0, 0)
        elif op == OP_ADVANCE_ONE_TRACKER:
            push_item(g, p, IT_CHOOSE_ADVANCE, (1 << N_TRACKS) - 1, arg, 1)
        elif op == OP_GAIN_BIOMASS_PATCHES:
            for i in range(arg):
                push_item(g, p, IT_PATCH, 0, 0, 0)
        elif op == OP_GAIN_ROVER_MOVEMENT:
            gain_card_movement(g, R, p, arg)   # cards.md A3: no tech bonus
        elif op == OP_PLACE_TILE_FROM_OWN_DEPOT:
            push_item(g, p, IT_PLACE_TILE, arg, 0, 0)
        elif op == OP_TELEPORT_ROVER:
            push_item(g, p, IT_TELEPORT, 0, 0, 0)
        elif op == OP_COLLECT_LIFEPODS:
            push_item(g, p, IT_LIFEPOD, arg, 0, 0)
        elif op == OP_DESTROY_METEORITES_IN_LINE:
            push_item(g, p, IT_LINE, 0, 0, 0)
        elif op == OP_DESTROY_METEORITES_ON_PLANET:
            push_item(g, p, IT_METEORITE, arg, 0, 0)
        elif op == OP_RAISE_TRACKERS_TO_POSITION:
            push_item(g, p, IT_RAISE, arg, 0, 0)


cdef inline bint push_end_effects(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """9.3: stored patches and end-game card advances of player p join the pool.

    Returns whether anything was added; each card's end step runs once.
    """
    cdef Player_t* pl = &g.pl[p]
    cdef int card, k
    cdef bint added = False
    corp_end_effects(g, R, p)                        # picks it owes follow in the end phase
    while pl.stored_patches > 0:
        pl.stored_patches -= 1
        push_item(g, p, IT_PATCH, 1, 0, 0)     # a = 1: cannot be stored again
        added = True
    for card in range(1, N_CIV + 1):
        if not holds_card(pl, card) or (pl.end_effects_done >> (card - 1)) & 1:
            continue
        for k in range(2):
            if (R.card_op[card][k] == OP_ADVANCE_ONE_TRACKER
                    and R.card_when[card][k] == WHEN_END_OF_GAME_STEP):
                push_item(g, p, IT_CHOOSE_ADVANCE, (1 << N_TRACKS) - 1, R.card_arg[card][k], 1)
                added = True
        pl.end_effects_done |= (<uint64_t>1) << (card - 1)
    return added


cdef inline bint has_end_work(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Stored patches or an end-game card whose end step has not run yet."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int card, k
    if pl.stored_patches > 0 or corp_end_work_due(g, R, p):
        return True
    for card in range(1, N_CIV + 1):
        if holds_card(pl, card) and not (pl.end_effects_done >> (card - 1)) & 1:
            for k in range(2):
                if (R.card_op[card][k] == OP_ADVANCE_ONE_TRACKER
                        and R.card_when[card][k] == WHEN_END_OF_GAME_STEP):
                    return True
    return False
