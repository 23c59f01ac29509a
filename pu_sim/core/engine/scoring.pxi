# Final scoring A-D (rules.md 9.4) and ranking with the tie-breaks (9.5).

cdef inline void complete_lines(const Game_t* g, const Rules_t* R, const Player_t* pl,
                                uint16_t* rows_done, uint16_t* cols_done) noexcept nogil:
    """Bit masks of complete rows and columns (every grid square covered; on
    Petra uncovered currents count as covered by default, planets.md 3.11)."""
    cdef int y
    cdef uint16_t cols = ROW_BITS
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef uint16_t covered[GRID]
    covered_for_lines(g, R, pl, covered)
    rows_done[0] = 0
    for y in range(GRID):
        if grid[y] and (covered[y] & grid[y]) == grid[y]:
            rows_done[0] |= <uint16_t>(1 << y)
        cols &= <uint16_t>(covered[y] | ~grid[y])
    # a column with no grid square at all is not a line of the planet
    cdef uint16_t has_grid = 0
    for y in range(GRID):
        has_grid |= grid[y]
    cols_done[0] = cols & has_grid & ROW_BITS


cdef inline void meteorite_lines(const Player_t* pl, uint16_t* rows, uint16_t* cols) noexcept nogil:
    """ME-2: rows and columns holding a meteorite (they score nothing)."""
    cdef int y
    rows[0] = 0
    cols[0] = 0
    for y in range(GRID):
        if pl.meteorite[y]:
            rows[0] |= <uint16_t>(1 << y)
            cols[0] |= pl.meteorite[y]


cdef inline int planet_medals(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A: complete rows and columns without a meteorite score their medals, and
    the planet's own extras (Gaia's cities, Cerberus' sub-planets)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint16_t rows_done, cols_done, mrows, mcols
    cdef int i, medals = planet_extra_medals(g, R, p)
    complete_lines(g, R, pl, &rows_done, &cols_done)
    meteorite_lines(pl, &mrows, &mcols)
    for i in range(GRID):
        if (rows_done >> i) & 1 and not (mrows >> i) & 1:
            medals += R.row_medal[pl.planet][i]
        if (cols_done >> i) & 1 and not (mcols >> i) & 1:
            medals += R.col_medal[pl.planet][i]
    return medals


cdef inline int count_cards_with_op(const Player_t* pl, const Rules_t* R, int op) noexcept nogil:
    cdef int card, k, n = 0
    cdef uint64_t held = pl.civ_cards
    card = next_card_held(&held)
    while card:
        for k in range(2):
            if R.card_op[card][k] == op:
                n += 1
        card = next_card_held(&held)
    return n


cdef inline int civ_card_medals(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """D: end-game civ cards (cards.md 4: set ladders, per-count cards)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int card, k, op, medals = 0, n
    cdef int commerce[5]
    commerce[0] = 0
    commerce[1] = 1
    commerce[2] = 3
    commerce[3] = 6
    commerce[4] = 10
    cdef uint64_t held = pl.civ_cards
    card = next_card_held(&held)
    while card:
        for k in range(2):
            op = R.card_op[card][k]
            if op == OP_SCORE_MEDALS and R.card_when[card][k] == WHEN_FINAL_SCORING:
                medals += R.card_arg[card][k]
            elif op == OP_SCORE_PATCHES:
                medals += grid_count(pl.patch)
            elif op == OP_SCORE_LIFEPOD_BONUS:
                # Space Citizen Decree (cards D5): scoring lifepods, or BGA's all collected
                medals += (pl.lifepods_collected
                           if g.options & OPT_SPACE_CITIZEN_DECREE_COUNTS_ALL_COLLECTED
                           else scoring_lifepods(pl))
        card = next_card_held(&held)
    # Meteorite Repo: (1 + N) per 3 meteorites; the base 1 per 3 is category C
    n = count_cards_with_op(pl, R, OP_SET_COLLECTION_METEORITE_REPO)
    medals += (pl.meteorites_collected // 3) * n
    n = count_cards_with_op(pl, R, OP_SET_COLLECTION_COMMERCE_AGREEMENT)
    medals += commerce[n if n <= 4 else 4]
    return medals


cdef void score_game(Game_t* g, const Rules_t* R) noexcept nogil:
    """Compute every player's score breakdown, tie-break data and rank."""
    cdef int p, q, t, better
    cdef Player_t* pl
    cdef uint16_t rows_done, cols_done
    cdef const uint16_t* grid
    for p in range(g.n_players):
        pl = &g.pl[p]
        pl.s_planet = <int16_t>planet_medals(g, R, p)
        pl.s_planet_bonus = <int16_t>planet_extra_medals(g, R, p)
        pl.s_tracks = 0
        for t in range(N_TRACKS):
            pl.s_tracks += track_medals(g, R, p, t)
        pl.s_lifepods = scoring_lifepods(pl)        # Cosmos / Jump Drive: not on the board
        pl.s_meteorites = pl.meteorites_collected // 3
        pl.s_civ = <int16_t>civ_card_medals(g, R, p)
    score_objectives(g, R)                               # E and F
    for p in range(g.n_players):
        pl = &g.pl[p]
        grid = R.pmask[pl.planet][PM_GRID]
        pl.score = (pl.s_planet + pl.s_tracks + pl.s_lifepods + pl.s_meteorites
                    + pl.s_civ + pl.s_objectives)
        complete_lines(g, R, pl, &rows_done, &cols_done)
        pl.rows_done = <uint8_t>popcount16(rows_done)
        pl.cols_done = <uint8_t>popcount16(cols_done)
        pl.uncovered = <uint8_t>(grid_count(grid) - grid_count(pl.occ))
        pl.meteorites_left = <uint8_t>grid_count(pl.meteorite)
    for p in range(g.n_players):
        better = 0
        for q in range(g.n_players):
            if q != p and beats(&g.pl[q], &g.pl[p]):
                better += 1
        g.pl[p].rank = <uint8_t>(better + 1)     # 9.5 step 4: shared placing


cdef inline bint beats(const Player_t* a, const Player_t* b) noexcept nogil:
    """9.5: more medals, then fewer uncovered squares, then fewer meteorites left."""
    if a.score != b.score:
        return a.score > b.score
    if a.uncovered != b.uncovered:
        return a.uncovered < b.uncovered
    return a.meteorites_left < b.meteorites_left
