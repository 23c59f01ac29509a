# Horizon Group (corporations.md 3.4): four rovers that pick meteorites up and
# deliver them to rover resource icons.
#
# A rover carries the meteorite on its own square (BGA's model): moving on, it
# takes the meteorite along, unless the destination holds one, which it takes
# instead and leaves the old one behind (H2).  Entering a square showing a rover
# resource icon delivers (collects) what it carries, also when the rover is set
# down there (H3).  The carried meteorite stays on the planet until then: it
# blocks the row and column it is in, and is not collected at game end.

cdef inline bint horizon_carries(const Player_t* pl, int r) noexcept nogil:
    """Rover r stands on a meteorite, i.e. carries it."""
    return (pl.rover_status[r] == RV_PLANET
            and grid_has(pl.meteorite, pl.rover_x[r], pl.rover_y[r]))


cdef inline int horizon_carrying_rovers(const Player_t* pl) noexcept nogil:
    cdef int r, n = 0
    for r in range(MAX_ROVERS):
        if horizon_carries(pl, r):
            n += 1
    return n


cdef void horizon_enter(Game_t* g, const Rules_t* R, int p, int fx, int fy, int x, int y,
                        bint carried, bint stepped) noexcept nogil:
    """A Horizon rover reached (x, y) from (fx, fy), carrying a meteorite or not."""
    cdef Player_t* pl = &g.pl[p]
    cdef bint brought = False
    cdef Item_t it
    if grid_has(pl.lifepod, x, y):
        collect_lifepod(g, R, p, x, y)
    if carried and not grid_has(pl.meteorite, x, y):
        grid_clear_sq(pl.meteorite, fx, fy)          # the meteorite travels along
        grid_set(pl.meteorite, x, y)
        brought = True
    if not grid_has(pl.meteorite, x, y):
        return
    if grid_has(pl.icon[ROVER], x, y):
        collect_meteorite(g, R, p, x, y)             # delivered (H3 when set down)
    elif (brought and stepped and has_tech(g, R, p, 4)
          and grid_has(pl.terr[WATER], x, y) and g.decision == D_NONE):
        # tech 4: a carried meteorite brought onto water may be destroyed
        it.kind = IT_OPTION
        it.a = OPTION_HORIZON_DESTROY
        it.b = <uint8_t>x
        it.c = <uint8_t>y
        g.item = it
        set_decision(g, D_YES_NO, p)


cdef void horizon_option_answer(Game_t* g, const Rules_t* R, int p, Item_t it,
                                bint yes) noexcept nogil:
    """Tech 4's choice: the meteorite leaves the game, neither collected nor scored."""
    cdef Player_t* pl = &g.pl[p]
    if it.a != OPTION_HORIZON_DESTROY:
        return
    if yes and grid_has(pl.meteorite, it.b, it.c):
        grid_clear_sq(pl.meteorite, it.b, it.c)
        pl.meteorites_destroyed += 1


cdef inline void horizon_meteorite_collected(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 3: a collected meteorite also gives a patch."""
    if has_tech(g, R, p, 3):
        push_item(g, p, IT_PATCH, 0, 0, 0)


cdef inline int horizon_rover_tiles_exempt(const Game_t* g, const Rules_t* R,
                                           int p) noexcept nogil:
    """Tech 1: a tile with rover terrain need not touch earlier tiles (H4: only that;
    BGA's option: it skips every check but grid and overlap)."""
    if not has_tech(g, R, p, 1):
        return ROVER_TILES_CHECKED
    if g.options & OPT_HORIZON_TECH1_SCOPE_ALL_CHECKS:
        return ROVER_TILES_UNCHECKED
    return ROVER_TILES_FREE


cdef void horizon_round_income(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech 2: 1 movement for each rover carrying a meteorite, for this round."""
    if has_tech(g, R, p, 2):
        g.pl[p].round_move += horizon_carrying_rovers(&g.pl[p])


cdef inline bint horizon_power_available(const Game_t* g, const Rules_t* R, int p,
                                         int level) noexcept nogil:
    """Tech 5: the rover tracker can always advance (the top repeats its movement)."""
    return level == 5


cdef void horizon_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Tech 5: advance the rover tracker by one, claiming the space."""
    push_item(g, p, IT_ADVANCE, ROVER, 1, 0)
