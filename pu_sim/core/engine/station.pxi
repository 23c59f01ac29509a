# The space station: 12 stacks in 6 depots, rotation, and what each player faces.
#
# Stack s = interior (small) slot s for s < 6, exterior (large) slot s - 6 for
# s >= 6.  Rules ST-4/ST-5: depot d = exterior slot d + interior slot
# (d + shift) mod 6.  ST-7: the player at indicator position p faces depot
# (p + rotation) mod 6.  A depot's tile slot 0 is its small stack, slot 1 its large.

cdef enum:
    NO_TILE = 255


cdef inline void station_setup(Game_t* g, const Rules_t* R) noexcept nogil:
    """ST-1/ST-2: every stack holds all 12 tiles of its shape, shuffled."""
    cdef int s, i
    for s in range(N_STACKS):
        for i in range(STACK_SIZE):
            g.stack[s][i] = R.shape_tiles[g.stack_shape[s]][i]
        shuffle_u8(&g.rng, g.stack[s], STACK_SIZE)
        g.stack_pos[s] = 0


cdef inline int depot_stack(const Game_t* g, int depot, int slot) noexcept nogil:
    """Stack index of a depot's small (slot 0) or large (slot 1) stack."""
    if slot == 0:
        return (depot + g.shift) % 6
    return 6 + depot


cdef inline int facing_depot(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """The depot in front of player p under the current rotation (ST-7)."""
    return (R.seat_pos[g.n_players - 1][p] + g.rotation) % 6


cdef inline int stack_top(const Game_t* g, int s) noexcept nogil:
    """Tile id on top of stack s, or NO_TILE when it is empty."""
    if g.stack_pos[s] >= STACK_SIZE:
        return NO_TILE
    return g.stack[s][g.stack_pos[s]]


cdef inline int depot_tile(const Game_t* g, const Rules_t* R, int p, int slot) noexcept nogil:
    """Top tile of player p's facing depot in the given slot (NO_TILE if empty)."""
    return stack_top(g, depot_stack(g, facing_depot(g, R, p), slot))


cdef inline int take_depot_tile(Game_t* g, const Rules_t* R, int p, int slot) noexcept nogil:
    """Remove and return the top tile of player p's depot slot (SS-8)."""
    cdef int s = depot_stack(g, facing_depot(g, R, p), slot)
    cdef int t = stack_top(g, s)
    if t != NO_TILE:
        g.stack_pos[s] += 1
        if g.stage == ST_DRAFT:
            g.unseen_tops |= <uint16_t>(1 << s)    # for lookahead bots' information
    return t


cdef inline bint any_depot_empty(const Game_t* g) noexcept nogil:
    """End trigger B: some depot has both of its stacks empty (all six count)."""
    cdef int d
    for d in range(6):
        if (stack_top(g, depot_stack(g, d, 0)) == NO_TILE
                and stack_top(g, depot_stack(g, d, 1)) == NO_TILE):
            return True
    return False


cdef inline uint8_t turned_clockwise(int rotation) noexcept nogil:
    """The station's rotation one depot clockwise (SS-6: r <- r - 1 mod 6)."""
    return <uint8_t>((rotation + 5) % 6)


cdef inline bint rotation_is_chosen(const Game_t* g) noexcept nogil:
    """SS-3/SS-4/SS-5: does the commander choose the rotation this round?"""
    if g.n_players >= 3:
        return True
    if g.n_players == 2:
        return not (g.options & OPT_TWO_PLAYER_FIXED_ROTATION)
    return False
