# Objective cards: dealing, the predicates of cards.md section 7, scoring E and F.
#
# Neighbour side: a measure compared between the two players a card sits
# between (5 to the better, 2 each on a tie; 2 players compare all three cards).
# Private side: a yes/no condition worth 5 (rules.md 9.4 E-F, cards.md 6).

cdef void objectives_setup(Game_t* g, const Rules_t* R, const TableSpec* spec) noexcept nogil:
    """ST-12/ST-13: private cards first (rulebook), then the neighbour cards."""
    cdef int i, p, n = g.n_players
    for i in range(N_OBJECTIVES):
        g.obj_deck[i] = <uint8_t>i
    shuffle_u8(&g.rng, g.obj_deck, N_OBJECTIVES)
    g.obj_n = N_OBJECTIVES
    g.obj_pos = 0
    if n == 1 or spec.private_module:
        for p in range(n):
            g.pl[p].n_dealt = 4 if n == 1 else 2          # solo: draw 4 keep 3
            g.pl[p].keep_priv = 3 if n == 1 else 1        # module: deal 2 keep 1
            for i in range(g.pl[p].n_dealt):
                g.pl[p].dealt[i] = g.obj_deck[g.obj_pos]
                g.obj_pos += 1
    if n >= 2 and spec.neighbour_objectives:
        g.n_neighbour = 3 if n == 2 else n
        for i in range(g.n_neighbour):
            g.neighbour[i] = g.obj_deck[g.obj_pos]
            g.obj_pos += 1


cdef inline int collected_item(const Player_t* pl, int item) noexcept nogil:
    return pl.lifepods_collected if item == 0 else pl.meteorites_collected


cdef int objective_measure(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """A neighbour card's measure for player p (cards.md 7)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o = R.obj_neighbour[card]
    cdef int kind = o[0], a = o[1], y, t, n = 0, largest = 0
    if kind == OM_COUNT_RESOURCES_ON_EDGE:
        for y in range(GRID):
            n += popcount16(pl.icon[a][y] & R.pmask[pl.planet][PM_EDGE][y])
        return n
    if kind == OM_LARGEST_TERRAIN_AREA_SIZE:
        count_components(pl.terr[a], &largest)
        return largest
    if kind == OM_TERRAIN_AREA_COUNT:
        return count_components(pl.terr[a], &largest)
    if kind == OM_COUNT_RESOURCES_ON_PLANET:
        return grid_count(pl.icon[a])
    if kind == OM_TRACKERS_AT_MAXIMUM_COUNT:
        for t in range(N_TRACKS):
            if (a >> t) & 1 and at_top(pl, t):
                n += 1
        return n
    if kind == OM_COLLECTED_COUNT:
        return collected_item(pl, a)
    return 0


cdef bint has_rectangle(const uint16_t* terrain, const uint16_t* grid, int w, int h) noexcept nogil:
    """Some w x h block of grid squares all showing the terrain (cards.md 7)."""
    cdef uint16_t runs[GRID]
    cdef uint16_t col
    cdef int y, k
    for y in range(GRID):
        runs[y] = terrain[y] & grid[y]
        for k in range(1, w):
            runs[y] &= (terrain[y] & grid[y]) >> k
    for y in range(GRID + 1 - h):
        col = ROW_BITS
        for k in range(h):
            col &= runs[y + k]
        if col:
            return True
    return False


cdef int richest_area(const uint16_t* terrain, const uint16_t* icons,
                      uint16_t* best) noexcept nogil:
    """The terrain area holding most icons (first in row order on ties): its squares
    in `best`, its icon count returned (-1 and `best` empty: no terrain at all)."""
    cdef uint64_t rest[3]
    cdef uint64_t comp[3]
    cdef uint64_t icon[3]
    cdef int k, n, top = -1
    pack_board(terrain, rest)
    pack_board(icons, icon)
    grid_zero(best)
    while next_region(rest, comp):
        n = 0
        for k in range(3):
            n += popcount64(comp[k] & icon[k])
        if n > top:
            top = n
            unpack_board(comp, best)
    return top


cdef bint area_with_icons(const uint16_t* terrain, const uint16_t* icons, int k) noexcept nogil:
    """Some single terrain area holds at least k resource icons (cards.md 7)."""
    cdef uint16_t best[GRID]
    return richest_area(terrain, icons, best) >= k


cdef inline int open_ice(const Rules_t* R, const Player_t* pl) noexcept nogil:
    """Printed ice squares nothing covers yet (tiles and patches cover; cards.md A6)."""
    cdef int y, n = 0
    for y in range(GRID):
        n += popcount16(R.pmask[pl.planet][PM_ICE][y] & ~pl.occ[y])
    return n


cdef bint objective_met(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """A private card's condition for player p (cards.md 7)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o = R.obj_private[card]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef const uint16_t* ice = R.pmask[pl.planet][PM_ICE]
    cdef int kind = o[0], y
    cdef bint currents = currents_count_covered(g, R, pl.planet)
    cdef uint16_t terrain[GRID]
    cdef uint16_t land
    if kind == OC_HAS_SOLID_RECTANGLE:
        # Petra (BGA): uncovered currents are energy for the rectangles (cards A7)
        if o[1] == ENERGY and currents:
            energy_terrain(R, pl, terrain)
        else:
            grid_copy(terrain, pl.terr[o[1]])
        return (has_rectangle(terrain, grid, o[2], o[3])
                or (o[4] and has_rectangle(terrain, grid, o[3], o[2])))
    if kind == OC_HAS_TERRAIN_AREA_WITH_RESOURCES:
        return area_with_icons(pl.terr[o[1]], pl.icon[o[2]], o[3])
    if kind == OC_TRACKER_AT_MAXIMUM:
        return at_top(pl, o[1])
    if kind == OC_RESOURCE_COUNT_AT_MOST:
        return grid_count(pl.icon[o[1]]) <= o[2]
    if kind == OC_COLLECTED_AT_LEAST:
        return collected_item(pl, o[1]) >= o[2]
    if kind == OC_COLLECTED_GREATER_THAN:
        return collected_item(pl, o[1]) > collected_item(pl, o[2])
    if kind == OC_NO_UNCOVERED_ICE:
        return open_ice(R, pl) == 0
    if kind == OC_NO_UNCOVERED_LAND:
        for y in range(GRID):
            # Petra (BGA): uncovered currents are not land (cards A7)
            land = grid[y] & ~ice[y]
            if currents:
                land &= ~R.pmask[pl.planet][PM_CURRENT][y]
            if land & ~pl.occ[y]:
                return False
        return True
    return False


cdef void score_objectives(Game_t* g, const Rules_t* R) noexcept nogil:
    """E: 5 per met private card.  F: 5 to the better neighbour, 2 each on a tie."""
    cdef int p, k, i, card, a, b, ma, mb, n = g.n_players
    cdef Player_t* pl
    for p in range(n):
        pl = &g.pl[p]
        pl.s_private = 0
        pl.s_neighbour = 0
        pl.priv_met = 0
        for i in range(pl.n_priv):
            if objective_met(g, R, p, pl.priv[i]):
                pl.s_private += OBJ_WIN
                pl.priv_met |= 1u << i
    for k in range(g.n_neighbour):
        card = g.neighbour[k]
        if n == 2:
            a, b = 0, 1                                  # all three cards between them
        else:
            a, b = k, (k + 1) % n                        # card k sits after seat k
        ma = objective_measure(g, R, a, card)
        mb = objective_measure(g, R, b, card)
        if not R.obj_neighbour[card][5]:                 # "fewer wins"
            ma, mb = -ma, -mb
        if ma > mb:
            g.pl[a].s_neighbour += OBJ_WIN
        elif mb > ma:
            g.pl[b].s_neighbour += OBJ_WIN
        else:
            g.pl[a].s_neighbour += OBJ_TIE
            g.pl[b].s_neighbour += OBJ_TIE
    for p in range(n):
        corp_score_objectives(g, R, p)                   # e.g. Jump Drive's contested card
    for p in range(n):
        g.pl[p].s_objectives = g.pl[p].s_private + g.pl[p].s_neighbour
