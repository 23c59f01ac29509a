# Jump Drive (corporations.md 3.5): six techs A-F (levels 1-6), each unlocked for
# good by putting a collected lifepod on its slot; the tech track has no
# milestones and decreasing medals.
#
# A lifepod's slot is the byte POD_SLOT + level in D_POD_PLACE's moves.

cdef enum:
    POD_SLOT = 0x80
    JD_TECHS = 6


cdef inline bint jump_has_tech(const Player_t* pl, int level) noexcept nogil:
    """A tech is usable once its slot holds a lifepod, for good (no suppression)."""
    return (pl.jd_techs >> level) & 1


cdef inline int jump_tech_level(const Player_t* pl) noexcept nogil:
    """The number of techs its lifepods unlocked."""
    return popcount16(pl.jd_techs)


cdef inline void jump_lifepod_collected(Game_t* g, int p) noexcept nogil:
    """Special rule (J3): the new lifepod may unlock a tech; decided on collection."""
    push_item(g, p, IT_POD_PLACE, 0, 0, 0)


cdef int gen_slots(const Player_t* pl, uint32_t* out, int n) noexcept nogil:
    """Append the slots of techs not unlocked yet."""
    cdef int level
    for level in range(1, JD_TECHS + 1):
        if not jump_has_tech(pl, level):
            out[n] = POD_SLOT + level
            n += 1
    return n


cdef inline void slot_put(Player_t* pl, int level) noexcept nogil:
    pl.jd_techs |= <uint8_t>(1 << level)
    pl.pods_on_slots += 1


cdef void jump_begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    """Start IT_POD_PLACE, IT_KEEP_OBJECTIVE (tech F) or IT_CLAIM_ROW (tech E)."""
    cdef uint32_t buf[JD_TECHS]
    if it.kind == IT_POD_PLACE:
        if scoring_lifepods(&g.pl[p]) == 0 or gen_slots(&g.pl[p], buf, 0) == 0:
            return                                   # already placed, or all unlocked
        g.item = it
        set_decision(g, D_POD_PLACE, p)
    elif it.kind == IT_KEEP_OBJECTIVE:
        if g.n_drawn == 0:
            return
        g.item = it
        set_decision(g, D_KEEP_OBJECTIVE, p)
    elif it.kind == IT_CLAIM_ROW:
        begin_track_item(g, R, p, it)


cdef int jump_legal_moves(const Game_t* g, int p, int d, uint32_t* out) noexcept nogil:
    cdef int i, n
    if d == D_POD_PLACE:
        n = gen_slots(&g.pl[p], out, 0)              # a locked tech's slot, or the area
        out[n] = POD_AREA
        return n + 1
    if d == D_KEEP_OBJECTIVE:
        for i in range(g.n_drawn):
            out[i] = g.drawn[i]
        return g.n_drawn
    return 0


cdef void jump_apply_move(Game_t* g, int p, int d, uint32_t mv) noexcept nogil:
    if d == D_POD_PLACE:
        if mv != POD_AREA:
            slot_put(&g.pl[p], <int>(mv - POD_SLOT))   # the tech is unlocked for good
    elif d == D_KEEP_OBJECTIVE:
        g.pl[p].extra_obj = <uint8_t>mv              # the other drawn cards are discarded
        g.n_drawn = 0


# ---- tech A (1): a patch becomes a synergy ----------------------------------------------

cdef inline int jump_patch_option(const Game_t* g, const Rules_t* R, int p,
                                  const Item_t* it) noexcept nogil:
    """Once per round, a patch gain may become a synergy boost instead."""
    if (it.a == 0 and it.b == 0 and jump_has_tech(&g.pl[p], 1)
            and not (g.pl[p].used_round >> 1) & 1):
        return OPTION_JUMP_PATCH_SWAP
    return 0


cdef void jump_option_answer(Game_t* g, int p, Item_t it, bint yes) noexcept nogil:
    """Yes: a synergy boost instead of the patch; no: the patch (not asked again)."""
    if it.a != OPTION_JUMP_PATCH_SWAP:
        return
    if yes:
        g.pl[p].used_round |= 1 << 1
        push_item(g, p, IT_SYNERGY, 0, 0, 0)
    else:
        push_item(g, p, IT_PATCH, 0, 1, 0)


# ---- tech B (2): a jump between squares of one terrain ----------------------------------

cdef int jump_teleports(const Game_t* g, const Rules_t* R, int p, int r,
                        uint32_t* out) noexcept nogil:
    """Once per round, for 1 movement: to any tile square of the terrain the rover
    stands on (only the squares a step cannot reach; those are ordinary steps)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int t, y, n = 0, x0 = pl.rover_x[r], y0 = pl.rover_y[r]
    cdef uint16_t dest[GRID]
    cdef uint16_t bits
    if not jump_has_tech(pl, 2) or (pl.used_round >> 2) & 1:
        return 0
    for t in range(N_TERRAINS):
        if grid_has(pl.terr[t], x0, y0):
            break
    else:
        return 0                                     # not on a tile or patch
    for y in range(GRID):
        dest[y] = pl.terr[t][y] & ~pl.patch[y] & ~pl.rover_at[y]
        if g.round_rule == RR_ROVER_CANNOT_ENTER_TERRAIN:
            dest[y] &= ~pl.terr[g.rule_arg][y]
        if y == y0:
            dest[y] &= <uint16_t>~((1 << x0) | (1 << (x0 + 1)) | ((1 << x0) >> 1))
        elif y == y0 - 1 or y == y0 + 1:
            dest[y] &= <uint16_t>~(1 << x0)
        bits = dest[y]
        while bits:
            out[n] = <uint32_t>((r << 8) | sq_of(__builtin_ctz(bits), y))
            n += 1
            bits &= bits - 1
    return n


cdef inline void jump_rover_moved(Game_t* g, int p, int fx, int fy, int x, int y) noexcept nogil:
    """A move that was no orthogonal (or diagonal) step used tech B this round."""
    if abs(fx - x) + abs(fy - y) != 1:
        g.pl[p].used_round |= 1 << 2


# ---- tech C (3): a synergy twice ---------------------------------------------------------

cdef inline bint jump_synergy_twice(const Game_t* g, int p, const Item_t* it) noexcept nogil:
    """Once per round, any synergy boost, an event card's too (corp-J7).  BGA does
    not offer the double step for an event card's boost (the option's BGA value)."""
    if it.a == SYN_EVENT and g.options & OPT_JUMP_DRIVE_TECH_C_EVENT_BOOSTS_OFF:
        return False
    return jump_has_tech(&g.pl[p], 3) and not (g.pl[p].used_round >> 3) & 1


cdef inline void jump_synergy_doubled(Game_t* g, int p) noexcept nogil:
    """Once per round."""
    g.pl[p].used_round |= 1 << 3


# ---- tech D (4): tech as energy ------------------------------------------------------------

cdef int jump_tech_as_energy(const Game_t* g, const Rules_t* R, const Player_t* pl,
                             int tile, const uint16_t* tech_part,
                             const uint16_t* other_part) noexcept nogil:
    """J1 (designer FAQ A13): the tile's tech terrain acts as energy terrain; the
    choice is tech itself (the tech is optional), the tile's other resource, or any
    terrain touching the area.  BGA: mandatory, from the squares next to each tech
    square (the tile's own squares included)."""
    cdef uint16_t area[GRID]
    cdef uint16_t ring[GRID]
    cdef uint16_t energy[GRID]
    cdef int t, y, mask = 0
    cdef int other = R.tile_tb[tile] if R.tile_ta[tile] == TECH else R.tile_ta[tile]
    if g.options & OPT_JUMP_DRIVE_TECH_D_MANDATORY_PER_SQUARE:
        dilate(tech_part, ring)
        for t in range(N_TERRAINS):
            for y in range(GRID):
                if ring[y] & pl.terr[t][y]:
                    mask |= 1 << t
                    break
        return mask & ((1 << N_TRACKS) - 1)
    energy_terrain(R, pl, energy)
    for y in range(GRID):
        energy[y] |= tech_part[y]
    flood_fill(tech_part, energy, area)
    dilate(area, ring)
    for t in range(N_TRACKS):
        for y in range(GRID):
            if ring[y] & pl.terr[t][y] & ~tech_part[y]:
                mask |= 1 << t
                break
    if other < N_TRACKS:
        mask |= 1 << other
    return mask | (1 << TECH)


cdef inline void jump_tile_resource(const Game_t* g, const Rules_t* R, int p, int tile,
                                    int terrain, const uint16_t* part, const uint16_t* other,
                                    Item_t* res) noexcept nogil:
    """Tech D: the tile's tech resource may act as an energy resource."""
    if terrain == TECH and jump_has_tech(&g.pl[p], 4):
        res.kind = IT_ENERGY
        res.a = <uint8_t>jump_tech_as_energy(g, R, &g.pl[p], tile, part, other)
        res.b = res.c = 0


# ---- tech E (5) and F (6): once per game -----------------------------------------------------

cdef inline bint jump_power_available(const Game_t* g, const Rules_t* R, int p,
                                      int level) noexcept nogil:
    if level == 5:
        return True
    if level == 6:
        return g.obj_pos < g.obj_n and g.pl[p].extra_obj == NO_CARD
    return False


cdef void jump_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    cdef int i
    if level == 5:
        push_item(g, p, IT_CLAIM_ROW, 0, 0, 0)
    elif level == 6:
        # draw 3 objective cards (as many as are left) and keep one
        g.n_drawn = 0
        for i in range(3):
            if g.obj_pos < g.obj_n:
                g.drawn[g.n_drawn] = g.obj_deck[g.obj_pos]
                g.n_drawn += 1
                g.obj_pos += 1
        push_item(g, p, IT_KEEP_OBJECTIVE, 0, 0, 0)


cdef int claim_row_options(const Game_t* g, int p) noexcept nogil:
    """J2: trackers whose row may be claimed (one per distinct row)."""
    cdef int t, u, m = 0
    cdef bint seen
    for t in range(N_TRACKS):
        seen = False
        for u in range(t):
            if (m >> u) & 1 and g.pl[p].track[u] == g.pl[p].track[t]:
                seen = True
        if not seen:
            m |= 1 << t
    return m


cdef void claim_row(Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Tech E: every benefit (not medal) of that row, on all five tracks."""
    cdef int row = g.pl[p].track[t], u
    for u in range(N_TRACKS):
        claim_space(g, R, p, u, row, False)


cdef inline int jump_track_options(const Game_t* g, int p, const Item_t* it) noexcept nogil:
    if it.kind == IT_CLAIM_ROW:
        return claim_row_options(g, p)
    return 0


cdef inline void jump_track_choice(Game_t* g, const Rules_t* R, int p, Item_t it,
                                   int t) noexcept nogil:
    if it.kind == IT_CLAIM_ROW:
        claim_row(g, R, p, t)


cdef void jump_score_objectives(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech F: the kept card is contested by every player: 5 to the best alone,
    2 each to tied best (BGA competeAll)."""
    cdef int q, card = g.pl[p].extra_obj, best, n_best
    cdef int measure[MAX_PLAYERS]
    if card == NO_CARD:
        return
    for q in range(g.n_players):
        measure[q] = objective_measure(g, R, q, card)
        if not R.obj_neighbour[card][5]:
            measure[q] = -measure[q]                   # "fewer wins"
    best = measure[0]
    for q in range(g.n_players):
        if measure[q] > best:
            best = measure[q]
    n_best = 0
    for q in range(g.n_players):
        if measure[q] == best:
            n_best += 1
    for q in range(g.n_players):
        if measure[q] == best:
            g.pl[q].s_neighbour += OBJ_WIN if n_best == 1 else OBJ_TIE
