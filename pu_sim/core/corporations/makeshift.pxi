# Makeshift (corporations.md 3.6): trackers change lanes.
#
# Each tracker (a resource colour t) stands on a board space: column
# Player_t.col[t] (a track) and row Player_t.track[t].  An advance goes straight
# up or diagonally up onto a neighbouring column (tech 3: or sideways), never
# onto another tracker (M3: no free target, the advance is lost), and claims what
# is printed on the space entered.  A step whose target is a choice is a pool
# item IT_STEP resolved before anything else (D_DIRECTION).
#
# A D_DIRECTION move is target column | STEP_SIDEWAYS (same row) or | STEP_BEYOND
# (the rover column's top repeat, from its top space).

cdef enum:
    STEP_SIDEWAYS = 0x10
    STEP_BEYOND = 0x20


cdef inline bint ms_taken(const Player_t* pl, int col, int row) noexcept nogil:
    """Does some tracker stand on board space (col, row)?"""
    cdef int t
    for t in range(N_TRACKS):
        if pl.col[t] == col and pl.track[t] == row:
            return True
    return False


cdef inline bint ms_neighbours(const Game_t* g, const Rules_t* R, int p, int a,
                               int b) noexcept nogil:
    """Columns a and b are side by side (tech 1: civ and tech too)."""
    if a - b == 1 or b - a == 1:
        return True
    return ((a == CIV and b == TECH) or (a == TECH and b == CIV)) and has_tech(g, R, p, 1)


cdef int ms_targets(const Game_t* g, const Rules_t* R, int p, int t, uint32_t* out,
                    bint climb) noexcept nogil:
    """Every free space one advance of tracker t may take, as D_DIRECTION moves
    (climb: Unionization's "climb one space" allows no sideways shift)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int col = pl.col[t], row = pl.track[t], c, n = 0
    cdef bint sideways = has_tech(g, R, p, 3) and not climb
    if row < TOP:
        for c in range(N_TRACKS):
            if (c == col or ms_neighbours(g, R, p, c, col)) and not ms_taken(pl, c, row + 1):
                out[n] = <uint32_t>c                       # straight or diagonal
                n += 1
    elif col == ROVER:
        out[n] = ROVER | STEP_BEYOND                       # the rover top repeat
        n += 1
    elif (g.options & OPT_MAKESHIFT_ROW15_DIAGONAL_TO_ROVER_TOP
          and ms_neighbours(g, R, p, col, ROVER) and not ms_taken(pl, ROVER, TOP)):
        out[n] = ROVER                                     # BGA onto the rover top (M2)
        n += 1
    if sideways:
        for c in range(N_TRACKS):
            if c != col and ms_neighbours(g, R, p, c, col) and not ms_taken(pl, c, row):
                out[n] = <uint32_t>(c | STEP_SIDEWAYS)
                n += 1
    return n


cdef inline bint ms_can_advance(const Game_t* g, const Rules_t* R, int p,
                                int t) noexcept nogil:
    """Z1: a free target exists (BGA option: a blocked tracker may be chosen)."""
    cdef uint32_t buf[2 * N_TRACKS + 1]
    cdef const Player_t* pl = &g.pl[p]
    if g.options & OPT_SYNERGY_TARGET_MUST_MOVE_OFF:
        return pl.track[t] < TOP or pl.col[t] == ROVER
    return ms_targets(g, R, p, t, buf, False) > 0


cdef inline bint ms_can_climb(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Unionization's climb allows no sideways shift."""
    cdef uint32_t buf[2 * N_TRACKS + 1]
    return ms_targets(g, R, p, t, buf, True) > 0


cdef inline const int8_t* ms_track_space(const Rules_t* R, const Player_t* pl, int t,
                                         int pos) noexcept nogil:
    """A tracker claims the space of the column it stands on."""
    return R.space[CORP_MAKESHIFT][pl.col[t]][pos]


cdef void ms_take_step(Game_t* g, const Rules_t* R, int p, int t, uint32_t mv, bint claim,
                       bint skip_synergy) noexcept nogil:
    """Move tracker t to the chosen target and claim what is printed there."""
    cdef Player_t* pl = &g.pl[p]
    cdef int col = mv & 7
    if mv & STEP_BEYOND:
        if claim:
            claim_space(g, R, p, t, BEYOND_TOP, skip_synergy)
        return
    pl.col[t] = <int8_t>col
    if not mv & STEP_SIDEWAYS:
        pl.track[t] = <int8_t>(TOP if pl.track[t] >= TOP else pl.track[t] + 1)
    if claim:
        claim_space(g, R, p, t, pl.track[t], skip_synergy)


cdef bint makeshift_advance(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                            bint skip_synergy) noexcept nogil:
    """One advance: where to is the player's choice, made right away (IT_STEP)."""
    cdef uint32_t buf[2 * N_TRACKS + 1]
    if ms_targets(g, R, p, t, buf, skip_synergy) == 0:
        return False                                  # M3: nowhere free, lost
    # skip_synergy marks Unionization's climb (its only user), which must go up
    push_item(g, p, IT_STEP, t, 1 if claim else 0, 1 if skip_synergy else 0)
    return True


cdef void ms_begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    """IT_STEP: the step's target, chosen if there is a choice (D_DIRECTION)."""
    cdef uint32_t buf[2 * N_TRACKS + 1]
    cdef int n
    if it.kind != IT_STEP:
        return
    n = ms_targets(g, R, p, it.a, buf, it.c != 0)
    if n == 0:
        return                                        # blocked meanwhile: lost
    if n == 1:
        ms_take_step(g, R, p, it.a, buf[0], it.b != 0, it.c != 0)
        return
    g.item = it
    set_decision(g, D_DIRECTION, p)


cdef inline int ms_legal_moves(const Game_t* g, const Rules_t* R, int p, int d,
                               uint32_t* out) noexcept nogil:
    if d == D_DIRECTION:
        return ms_targets(g, R, p, g.item.a, out, g.item.c != 0)
    return 0


cdef inline void ms_apply_move(Game_t* g, const Rules_t* R, int p, int d,
                               uint32_t mv) noexcept nogil:
    if d == D_DIRECTION:
        ms_take_step(g, R, p, g.item.a, mv, g.item.b != 0, g.item.c != 0)


cdef inline int ms_step_item(const Player_t* pl) noexcept nogil:
    """A pending IT_STEP (steps of one advance go before anything else), or -1."""
    cdef int i
    for i in range(pl.n_items):
        if pl.items[i].kind == IT_STEP:
            return i
    return -1


# ---- tech level, regress, scoring ------------------------------------------------------

cdef inline int ms_tech_level(const Player_t* pl, const Rules_t* R) noexcept nogil:
    """The highest tracker on the tech column sets the level (none there: 0)."""
    cdef int t, row = -1
    for t in range(N_TRACKS):
        if pl.col[t] == TECH and pl.track[t] > row:
            row = pl.track[t]
    return R.tech_level_at[CORP_MAKESHIFT][row] if row >= 0 else 0


cdef inline int ms_regress_room(const Player_t* pl, int t) noexcept nogil:
    """Straight down, never onto another tracker (BGA: the space below must be free)."""
    cdef int row = pl.track[t] - 1, n = 0
    while row >= 0 and not ms_taken(pl, pl.col[t], row):
        n += 1
        row -= 1
    return n


cdef inline int ms_medal(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """A tracker scores the column it stands on; tech 5 (if still unlocked at the
    end): as if it stood where the highest tracker of its column stands."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int col = pl.col[t], row = pl.track[t], u
    if has_tech(g, R, p, 5):
        for u in range(N_TRACKS):
            if pl.col[u] == col and pl.track[u] > row:
                row = pl.track[u]
    return R.score_pos[CORP_MAKESHIFT][col][row]


# ---- tech 2: +1 movement with two trackers on the rover column ----------------------------

cdef inline int ms_rover_column(const Player_t* pl) noexcept nogil:
    cdef int t, n = 0
    for t in range(N_TRACKS):
        if pl.col[t] == ROVER:
            n += 1
    return n


cdef inline int ms_conditional_movement(const Player_t* pl) noexcept nogil:
    """Tech 2's points (Player_t.cond_move) count while two trackers are on the rover
    column."""
    if pl.cond_move > 0 and ms_rover_column(pl) >= 2:
        return pl.cond_move
    return 0


cdef inline void ms_movement_gained(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Rover-column movement was claimed: tech 2's +1 is a conditional point spent
    only on a step taken with two trackers on the rover column (M1, add-on FAQ);
    BGA's option checks when it is gained."""
    cdef Player_t* pl = &g.pl[p]
    if not has_tech(g, R, p, 2):
        return
    if g.options & OPT_MAKESHIFT_TECH2_CHECK_ON_GAIN:
        if ms_rover_column(pl) >= 2:
            pl.move_budget += 1
    else:
        pl.cond_move += 1


cdef inline bint ms_power_available(const Game_t* g, const Rules_t* R, int p,
                                    int level) noexcept nogil:
    """Tech 4: some tracker can step straight down."""
    cdef int t
    if level != 4:
        return False
    for t in range(N_TRACKS):
        if ms_regress_room(&g.pl[p], t) > 0:
            return True
    return False


cdef inline void ms_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    push_item(g, p, IT_REGRESS, (1 << N_TRACKS) - 1, 1, 0)
