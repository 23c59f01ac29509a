# Republic (corporations.md 3.8): seven civ milestones, each paid for with a
# step of another tracker; techs 1-5.

cdef void republic_civ_milestone(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A civ milestone was claimed: regress another tracker (R2: also at the end);
    tech 4 adds a synergy boost."""
    push_item(g, p, IT_REGRESS, (1 << WATER) | (1 << BIOMASS) | (1 << ROVER) | (1 << TECH),
              1, 0)
    if has_tech(g, R, p, 4):
        push_item(g, p, IT_SYNERGY, 0, 0, 0)


# ---- tech 1: selecting a civ tile ----------------------------------------------------

cdef inline int republic_tile_movement(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """The movement printed at the rover tracker's space (its top repeat beyond 15)."""
    return R.space[CORP_REPUBLIC][ROVER][g.pl[p].track[ROVER]][SP_MOVE]


cdef inline bint tile_has_resource(const Rules_t* R, int tile, int t) noexcept nogil:
    return tile != NO_TILE and (R.tile_ta[tile] == t or R.tile_tb[tile] == t)


cdef int republic_civ_slots(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Depot slots holding a civ tile that can be placed at this draft's level."""
    cdef int slot, tile, m = 0
    for slot in range(2):
        tile = depot_tile(g, R, p, slot)
        if (tile_has_resource(R, tile, CIV)
                and count_tile_placements(g, R, p, tile, g.place_level) > 0):
            m |= 1 << slot
    return m


cdef inline int republic_draft_option(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 1 (designer FAQ A12): select the civ tile first and move before placing."""
    if (has_tech(g, R, p, 1) and republic_tile_movement(g, R, p) > 0
            and republic_civ_slots(g, R, p) != 0):
        return OPTION_REPUBLIC_CIV_FIRST
    return 0


cdef void republic_option_answer(Game_t* g, const Rules_t* R, int p, Item_t it,
                                 bint yes) noexcept nogil:
    """Yes: gain the movement now, spend it, then place one of the civ tiles."""
    if it.a != OPTION_REPUBLIC_CIV_FIRST:
        return
    if not yes:
        set_decision(g, D_PLACE, p)
        return
    g.draft_barred = <uint8_t>(~republic_civ_slots(g, R, p) & 3)
    g.pl[p].move_budget += republic_tile_movement(g, R, p)
    g.preselected = 1
    open_pool(g, p)


cdef inline void republic_tile_taken(Game_t* g, const Rules_t* R, int p, int tile) noexcept nogil:
    """A civ tile taken without selecting it first still gives the movement (tech 1)."""
    if (g.place_from_depot == 0 and g.preselected != 2
            and tile_has_resource(R, tile, CIV) and has_tech(g, R, p, 1)):
        g.pl[p].move_budget += republic_tile_movement(g, R, p)


# ---- tech 2: a card of the next rank -------------------------------------------------

cdef inline void republic_pick_prepared(Game_t* g, const Rules_t* R, int p,
                                        int rank) noexcept nogil:
    """Add a random card of the next rank from its pile in play (designer FAQ A11)."""
    if rank < 4 and g.pile_n[rank] > 0 and has_tech(g, R, p, 2):
        g.pick_extra = g.pile[rank][rng_below(&g.rng, g.pile_n[rank])]


# ---- tech 3: jumps between civ icons -------------------------------------------------

cdef int republic_jumps(const Game_t* g, const Rules_t* R, int p, int r,
                        uint32_t* out) noexcept nogil:
    """Tech 3 (R1): a rover on a civ resource icon may jump to any other one for 1
    (BGA option: any civ terrain square)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t dest[GRID]
    cdef int y, n = 0
    cdef uint16_t bits
    cdef const uint16_t* civ = pl.icon[CIV]
    if not has_tech(g, R, p, 3):
        return 0
    if g.options & OPT_REPUBLIC_TECH3_SQUARES_TERRAIN:
        civ = pl.terr[CIV]
    if not grid_has(civ, pl.rover_x[r], pl.rover_y[r]):
        return 0
    for y in range(GRID):
        dest[y] = civ[y] & ~pl.rover_at[y]
        if g.round_rule == RR_ROVER_CANNOT_ENTER_TERRAIN:
            dest[y] &= ~pl.terr[g.rule_arg][y]       # events 97-102 bar jumps too
        bits = dest[y]
        while bits:
            out[n] = <uint32_t>((r << 8) | sq_of(__builtin_ctz(bits), y))
            n += 1
            bits &= bits - 1
    return n


# ---- tech 5: two cards from every pile ------------------------------------------------

cdef inline bint republic_end_cards_due(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    return has_tech(g, R, p, 5) and not (g.pl[p].used_game >> 5) & 1


cdef inline void republic_end_effects(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 5: at game end, choose 2 cards among every card still in the piles (the
    picks follow in the end phase)."""
    if not republic_end_cards_due(g, R, p):
        return
    g.pl[p].used_game |= 1 << 5
    owe_civ_pick(g, p, ALL_RANKS)
    owe_civ_pick(g, p, ALL_RANKS)
