# The event deck (rules.md 3.6, 4.2, 10.4; cards.md 2.2, 5).
#
# One card per round, revealed after the station turns.  Global effects (66,
# 112) happen once; every player then carries out the card's effect through
# their own pool, commander first; civ milestones reached there are picked
# right after (rules.md 14.9).  A round rule lasts until the round ends
# (cards.md D6; option: until the next event, as BGA).  The last card makes
# its round the last one (end trigger C).

# Deck modes (TableSpec.deck_random); rule: DECK_ + RuleOptions.event_deck_mix's mode
# ("random", "bga_random"; "explicit" for a (green, orange, red) mix)
cpdef enum DeckMode:
    DECK_EXPLICIT = 0           # spec.deck_mix gives (green, orange, red)
    DECK_RANDOM = 1            # uniform over every valid (green, orange, red)
    DECK_BGA_RANDOM = 2                # BGA: green, orange uniform 0..13, red = the rest


cdef inline bint rule_restricts_tiles(const Game_t* g) noexcept nogil:
    """The round's rule limits where tiles go (dropped first by the fallback, DR-4)."""
    return (g.round_rule == RR_TILE_CANNOT_COVER_EDGE or g.round_rule == RR_TILE_CANNOT_COVER_ICE
            or g.round_rule == RR_TILE_CANNOT_TOUCH_SAME_TERRAIN)


cdef inline void apply_tile_rule(const Game_t* g, const Rules_t* R, const Player_t* pl,
                                 PlaceCtx* c) noexcept nogil:
    """Events 103/124 (edge), 120/121 (ice), 119 (same terrain); tiles only."""
    cdef int t, y
    cdef uint16_t ring[GRID]
    if g.round_rule == RR_TILE_CANNOT_COVER_EDGE:
        for t in range(N_TERRAINS):
            for y in range(GRID):
                c.allow[t][y] &= ~R.pmask[pl.planet][PM_EDGE][y]
    elif g.round_rule == RR_TILE_CANNOT_COVER_ICE:
        for t in range(N_TERRAINS):
            for y in range(GRID):
                c.allow[t][y] &= ~R.pmask[pl.planet][PM_ICE][y]
    elif g.round_rule == RR_TILE_CANNOT_TOUCH_SAME_TERRAIN:
        for t in range(N_TERRAINS):
            dilate(pl.terr[t], ring)
            for y in range(GRID):
                c.allow[t][y] &= ~ring[y]


cdef inline bint rover_may_enter(const Game_t* g, const Player_t* pl, int x, int y) noexcept nogil:
    """Events 97-102: no rover may enter a square of the banned visible terrain."""
    return not (g.round_rule == RR_ROVER_CANNOT_ENTER_TERRAIN
                and grid_has(pl.terr[g.rule_arg], x, y))


cdef int colour_pool(const Game_t* g, const Rules_t* R, int colour, uint8_t* out) noexcept nogil:
    """Event cards of a colour available at this player count (solo-only removed)."""
    cdef int e, n = 0
    for e in range(N_EVENTS):
        if R.event_colour[e] == colour and (g.n_players == 1 or not R.event_solo[e]):
            out[n] = <uint8_t>e
            n += 1
    return n


cdef void deck_setup(Game_t* g, const Rules_t* R, const TableSpec* spec) noexcept nogil:
    """ST-14: X green + Y orange + Z red cards, shuffled (setup stream)."""
    cdef uint8_t pool[3][N_EVENTS]
    cdef int avail[3]
    cdef int want[3]
    cdef int c, i, n, k, x, y, z
    for c in range(3):
        avail[c] = colour_pool(g, R, c, pool[c])
    if spec.deck_random == DECK_EXPLICIT:
        for c in range(3):
            want[c] = spec.deck_mix[c]
    elif spec.deck_random == DECK_RANDOM:
        # every (x, y, z) with x + y + z = 20 within availability, equally likely
        n = 0
        for x in range(avail[0] + 1):
            for y in range(avail[1] + 1):
                z = DECK_SIZE - x - y
                if 0 <= z <= avail[2]:
                    n += 1
        k = <int>rng_below(&g.rng, <uint32_t>n)
        want[0] = want[1] = want[2] = 0
        for x in range(avail[0] + 1):
            for y in range(avail[1] + 1):
                z = DECK_SIZE - x - y
                if 0 <= z <= avail[2]:
                    if k == 0:
                        want[0] = x
                        want[1] = y
                        want[2] = z
                    k -= 1
    else:
        # BGA: X, Y uniform in 0..13, Z = 20 - X - Y, clipped to what exists
        want[0] = <int>rng_below(&g.rng, 14)
        want[1] = <int>rng_below(&g.rng, 14)
        want[2] = DECK_SIZE - want[0] - want[1]
        for c in range(3):
            if want[c] < 0:
                want[c] = 0
            if want[c] > avail[c]:
                want[c] = avail[c]
    g.deck_n = 0
    for c in range(3):
        shuffle_u8(&g.rng, pool[c], avail[c])
        g.deck_count[c] = <uint8_t>want[c]
        for i in range(want[c]):
            g.deck[g.deck_n] = pool[c][i]
            g.deck_n += 1
    shuffle_u8(&g.rng, g.deck, g.deck_n)
    g.deck_pos = 0
    g.event = 255
    g.events_on = 1


cdef inline void move_random_card(Game_t* g, uint8_t* src, uint8_t* src_n, uint8_t* dst,
                                  uint8_t* dst_n) noexcept nogil:
    """Move one random card from one civ pile to another (events 66, 112)."""
    cdef int i = <int>rng_below(&g.rng, src_n[0])
    dst[dst_n[0]] = src[i]
    dst_n[0] += 1
    src[i] = src[src_n[0] - 1]
    src_n[0] -= 1


cdef void reveal_event(Game_t* g, const Rules_t* R) noexcept nogil:
    """Step 2: the deck's top card; the last one makes this round the last (9.1 C)."""
    cdef int e = g.deck[g.deck_pos]
    g.deck_pos += 1
    if g.deck_pos >= g.deck_n:
        g.last_round = 1
        if g.end_trigger == END_NONE:
            g.end_trigger = END_EVENTS
    put_event_in_force(g, R, e)


cdef void put_event_in_force(Game_t* g, const Rules_t* R, int e) noexcept nogil:
    """The card's round rule starts; global effects happen once (66, 112)."""
    cdef int rank
    g.event = <uint8_t>e
    g.round_rule = R.event_rule[e]
    g.rule_arg = R.event_arg[e]
    if R.event_op[e] == EV_CIV_PILES_ADD_FROM_SET_ASIDE:
        for rank in range(4):                            # cards.md A9 (solo 66)
            if g.reserve_n[rank] > 0:
                move_random_card(g, g.reserve[rank], &g.reserve_n[rank], g.pile[rank],
                                 &g.pile_n[rank])
    elif R.event_op[e] == EV_CIV_PILES_REMOVE_RANDOM:
        for rank in range(4):                            # cards.md D9 (112)
            if g.pile_n[rank] > 0:
                move_random_card(g, g.pile[rank], &g.pile_n[rank], g.reserve[rank],
                                 &g.reserve_n[rank])


cdef bint push_event_effect(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Player p's share of the revealed event; True if their pool has work."""
    cdef Player_t* pl = &g.pl[p]
    cdef int e = g.event, op = R.event_op[e], a = R.event_a[e], i, r
    if op == EV_ADVANCE_ONE_OF:
        push_item(g, p, IT_CHOOSE_ADVANCE, a, R.event_b[e], R.event_c[e])
    elif op == EV_REGRESS_ONE_OF:
        push_item(g, p, IT_REGRESS, a, R.event_b[e], 0)
    elif op == EV_SYNERGY_BOOST:
        for i in range(a if a > 0 else 1):
            push_item(g, p, IT_SYNERGY, SYN_EVENT, 0, 0)     # marked for tech C (corp-J7)
    elif op == EV_CHOOSE_SYNERGY_OR_PEEK:
        push_item(g, p, IT_CHOOSE_ONE, 0, 0, 0)
    elif op == EV_GAIN_BIOMASS_PATCHES:
        for i in range(a):
            push_item(g, p, IT_PATCH, 0, 0, 0)
    elif op == EV_COLLECT_LIFEPOD:
        push_item(g, p, IT_LIFEPOD, a, 0, 0)
    elif op == EV_COLLECT_METEORITE:
        push_item(g, p, IT_COLLECT_METEORITE, a, 0, 0)
    elif op == EV_PLACE_METEORITE_ON_EMPTY_METEOR_SYMBOL:
        push_item(g, p, IT_PLACE_METEORITE, 0, 0, 0)
    elif op == EV_DESTROY_LIFEPOD_ON_PLANET:
        push_item(g, p, IT_DESTROY_LIFEPOD, 0, 0, 0)
    elif op == EV_DESTROY_COLLECTED_LIFEPOD:
        # 114: no choice among identical lifepods, unless the corporation's differ
        if not corp_collected_lifepod_lost(g, p) and scoring_lifepods(pl) > 0:
            pl.lifepods_collected -= 1
            pl.lifepods_lost += 1
    elif op == EV_DESTROY_COLLECTED_METEORITE:
        if pl.meteorites_collected > 0:                  # 115, cards.md D3
            pl.meteorites_collected -= 1
            pl.meteorites_destroyed += 1
    elif op == EV_DESTROY_ROVER_ON_PLANET:
        if rovers_on_planet(pl) >= R.event_b[e]:         # 111: only with 2+ on the planet
            push_item(g, p, IT_DESTROY_ROVER, 0, 0, 0)
    elif op == EV_GAIN_EXTRA_ROVER:
        for r in range(MAX_ROVERS):                      # 65: one more rover in supply
            if pl.rover_status[r] == RV_NONE:
                pl.rover_status[r] = RV_SUPPLY
                break
    elif op == EV_DRAW_PRIVATE_OBJECTIVES:
        if g.obj_pos < g.obj_n and pl.n_priv < 8:        # 67: no choice
            pl.priv[pl.n_priv] = g.obj_deck[g.obj_pos]
            pl.n_priv += 1
            g.obj_pos += 1
    elif op == EV_DESTROY_PRIVATE_OBJECTIVE:
        if pl.n_priv > 0:
            push_item(g, p, IT_DISCARD_OBJECTIVE, 0, 0, 0)
    elif op == EV_ROTATE_STATION_TO_ANY_DEPOT:
        push_item(g, p, IT_ROTATE_STATION, 0, 0, 0)
    elif op == EV_REMOVE_DEPOT_STACK:
        push_item(g, p, IT_REMOVE_STACK, 0, 0, 0)
    return pl.n_items > 0


cdef inline int regress_room(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """How many single steps tracker t can go down (2.4; a corporation's track may
    have fewer)."""
    return corp_regress_room(R, pl, t)


cdef inline int regress_amount(const Game_t* g, const Rules_t* R, int p, int mask,
                               int steps) noexcept nogil:
    """cards.md 5: the full amount if some listed tracker can go that far, else less."""
    cdef int t, best = 0, can
    for t in range(N_TRACKS):
        if (mask >> t) & 1:
            can = regress_room(R, &g.pl[p], t)
            if can > steps:
                can = steps
            if can > best:
                best = can
    return best


cdef inline int regress_options(const Game_t* g, const Rules_t* R, int p,
                                const Item_t* it) noexcept nogil:
    """Listed trackers able to regress the amount in force (cards.md 5)."""
    cdef int t, m = 0, amount = regress_amount(g, R, p, it.a, it.b)
    if amount == 0:
        return 0
    for t in range(N_TRACKS):
        if (it.a >> t) & 1 and regress_room(R, &g.pl[p], t) >= amount:
            m |= 1 << t
    return m


cdef inline void regress_tracker(Game_t* g, const Rules_t* R, int p, int t,
                                 int steps) noexcept nogil:
    """2.4: down `steps` spaces, claiming nothing (tech levels follow the position)."""
    cdef int s
    for s in range(steps):
        corp_regress_once(R, &g.pl[p], t)


cdef inline int empty_meteor_symbols(const Player_t* pl, uint16_t* out) noexcept nogil:
    """Glossary: symbols of placed tiles with no meteorite on them (events 95/107)."""
    cdef int y, n = 0
    for y in range(GRID):
        out[y] = pl.msym[y] & ~pl.meteorite[y]
        n += popcount16(out[y])
    return n


cdef inline int removable_stacks(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Event 116: slots (bit 0 small, 1 large) that may go; none if it would empty the
    depot, because an event may not end the game on its own (rules.md 14.20)."""
    cdef int m = 0, slot
    for slot in range(2):
        if depot_tile(g, R, p, slot) != NO_TILE:
            m |= 1 << slot
    if m != 3 and not (g.options & OPT_EVENT_MAY_EMPTY_DEPOT):
        return 0
    return m
