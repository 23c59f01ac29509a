# Universal Coalition (corporations.md 3.1, rules.md Appendix B): the symmetric
# side, a standard board whose five passive techs L1-L5 change the base rules.

cdef inline bint uc_ignores_adjacency(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """L1: tiles need not touch earlier tiles (PL-5)."""
    return has_tech(g, R, p, 1)


cdef inline bint uc_stores_patches(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """L2: patches may be kept for the end of the game (BI-2)."""
    return has_tech(g, R, p, 2)


cdef inline int uc_track_movement_bonus(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """L3: +1 to each rover-track movement gain (RV-2)."""
    return 1 if has_tech(g, R, p, 3) else 0


cdef inline bint uc_doubles_water(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """L4: a placed tile's water on ice advances twice (WA-2)."""
    return has_tech(g, R, p, 4)


cdef inline bint uc_no_meteorites(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """L5: tiles never place meteorites (ME-4)."""
    return has_tech(g, R, p, 5)
