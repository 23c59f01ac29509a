# Rovers: milestone placement, movement, teleports and collecting (rules.md 8.7).
#
# Squares are encoded y * 12 + x in moves.  A rover step move is
# (rover << 8) | square; MV_DONE stops moving.

cdef inline int sq_of(int x, int y) noexcept nogil:
    return y * GRID + x


cdef inline void collect_lifepod(Game_t* g, const Rules_t* R, int p, int x, int y) noexcept nogil:
    """A lifepod leaves the planet for the player's collection (rover or card)."""
    grid_clear_sq(g.pl[p].lifepod, x, y)
    g.pl[p].lifepods_collected += 1
    corp_lifepod_collected(g, R, p)


cdef inline void collect_meteorite(Game_t* g, const Rules_t* R, int p, int x, int y) noexcept nogil:
    """A meteorite leaves the planet for the player's collection (rover or card)."""
    grid_clear_sq(g.pl[p].meteorite, x, y)
    g.pl[p].meteorites_collected += 1
    corp_meteorite_collected(g, R, p)


cdef inline void collect_at(Game_t* g, const Rules_t* R, int p, int x, int y) noexcept nogil:
    """RV-4: a rover entering a square takes its lifepod and meteorite."""
    cdef Player_t* pl = &g.pl[p]
    if grid_has(pl.lifepod, x, y):
        collect_lifepod(g, R, p, x, y)
    if grid_has(pl.meteorite, x, y):
        collect_meteorite(g, R, p, x, y)


cdef inline int supply_rover(const Player_t* pl) noexcept nogil:
    """Index of a rover still on the corporation board, or -1."""
    cdef int r
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] == RV_SUPPLY:
            return r
    return -1


cdef inline int rovers_on_planet(const Player_t* pl) noexcept nogil:
    cdef int r, n = 0
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] == RV_PLANET:
            n += 1
    return n


cdef inline void put_rover(Game_t* g, const Rules_t* R, int p, int r, int x, int y,
                           bint stepped) noexcept nogil:
    """Set rover r down on (x, y) (a step, a teleport or a new rover) and collect there."""
    cdef Player_t* pl = &g.pl[p]
    cdef int fx = -1, fy = -1
    cdef bint carried = False
    if pl.rover_status[r] == RV_PLANET:
        fx = pl.rover_x[r]
        fy = pl.rover_y[r]
        carried = grid_has(pl.meteorite, fx, fy)
        grid_clear_sq(pl.rover_at, fx, fy)
    pl.rover_status[r] = RV_PLANET
    pl.rover_x[r] = <int8_t>x
    pl.rover_y[r] = <int8_t>y
    grid_set(pl.rover_at, x, y)
    corp_rover_entered(g, R, p, fx, fy, x, y, carried, stepped)   # standard: collect_at


cdef inline void rover_place_squares(const Player_t* pl, uint16_t* out) noexcept nogil:
    """RV-1: squares of the last placed tile without one of the player's rovers."""
    cdef int y
    for y in range(GRID):
        out[y] = pl.last_tile[y] & ~pl.rover_at[y]


cdef inline bint step_allowed(const Game_t* g, const Rules_t* R, int p, int fx, int fy,
                              int x, int y) noexcept nogil:
    """RV-3: a rover on (fx, fy) may enter a grid square not holding another of
    its rovers, within the event's and the planet's limits."""
    cdef const Player_t* pl = &g.pl[p]
    if x < 0 or y < 0 or x >= GRID or y >= GRID:
        return False
    if not grid_has(R.pmask[pl.planet][PM_GRID], x, y):
        return False
    return (not grid_has(pl.rover_at, x, y) and rover_may_enter(g, pl, x, y)
            and rover_may_step(R, pl, fx, fy, x, y))


cdef int gen_rover_steps(const Game_t* g, const Rules_t* R, int p, uint32_t* out) noexcept nogil:
    """Every single-square move of every rover on the planet (orthogonal, RV-3; a
    corporation may add diagonals and jumps)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int r, d, nx, ny, n = 0
    cdef int n_dirs = 8 if corp_rover_diagonals(g, R, p) else 4
    cdef int dxs[8]
    cdef int dys[8]
    dxs[0] = 1
    dxs[1] = -1
    dxs[2] = 0
    dxs[3] = 0
    dys[0] = 0
    dys[1] = 0
    dys[2] = 1
    dys[3] = -1
    dxs[4] = 1
    dxs[5] = 1
    dxs[6] = -1
    dxs[7] = -1
    dys[4] = 1
    dys[5] = -1
    dys[6] = 1
    dys[7] = -1
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] != RV_PLANET:
            continue
        for d in range(n_dirs):
            nx = pl.rover_x[r] + dxs[d]
            ny = pl.rover_y[r] + dys[d]
            if step_allowed(g, R, p, pl.rover_x[r], pl.rover_y[r], nx, ny):
                out[n] = <uint32_t>((r << 8) | sq_of(nx, ny))
                n += 1
        n += corp_rover_jumps(g, R, p, r, out + n)
    return n


cdef inline bint rover_can_step(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Whether spending movement is possible at all."""
    cdef uint32_t buf[MAX_ROVER_MOVES]
    if movement_left(&g.pl[p]) <= 0:
        return False
    return gen_rover_steps(g, R, p, buf) > 0
