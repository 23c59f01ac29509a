# What the greedy bot knows about the asymmetric planets' scoring (planets.md 3).
#
# Restrictions need no bot knowledge (the engine offers legal moves only), but
# scoring does: Gaia's uncovered cities are worth medals, Cerberus pays for
# completed sub-planets, and on Petra uncovered currents already count as
# covered for rows and columns.  Values are on the same scale as lines
# (G_LINE_COMPLETE / G_LINE_FILL per medal), scaled by G_PLANET.

cdef struct PlanetTerms:
    bint on                              # the planet has terms to evaluate
    bint currents                        # Petra: open currents count as covered
    uint16_t cur_open[GRID]              # uncovered current squares
    uint16_t city_open[GRID]             # Gaia: uncovered cities
    double city_cost                     # value lost per city covered
    int n_sub                            # Cerberus: sub-planets still open
    uint16_t sub_open[3][GRID]           # their uncovered squares
    uint8_t sub_rem[3]
    double sub_complete[3]               # value of completing sub-planet s
    double sub_unit[3]                   # value per square filled in it


cdef void prepare_planet_terms(const Game_t* g, const Rules_t* R, const double* w, int p,
                               PlanetTerms* pt) noexcept nogil:
    """Per-decision planet scoring state of player p."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int planet = pl.planet, y, s, rem
    cdef double scale = w[G_PLANET]
    pt.currents = currents_count_covered(g, R, planet)
    pt.city_cost = 0.0
    pt.n_sub = 0
    for y in range(GRID):
        pt.cur_open[y] = (R.pmask[planet][PM_CURRENT][y] & ~pl.occ[y]) if pt.currents else 0
        pt.city_open[y] = 0
    if planet_has(R, planet, PF_CITIES):
        pt.city_cost = scale * R.city_medals[planet]
        for y in range(GRID):
            pt.city_open[y] = R.pmask[planet][PM_CITY][y] & ~pl.occ[y]
    if planet_has(R, planet, PF_SUBPLANETS):
        for s in range(3):
            rem = 0
            for y in range(GRID):
                pt.sub_open[s][y] = R.pmask[planet][PM_SUB1 + s][y] & ~pl.occ[y]
                rem += popcount16(pt.sub_open[s][y])
            pt.sub_rem[s] = <uint8_t>rem
            pt.sub_complete[s] = scale * w[G_LINE_COMPLETE] * R.subplanet_bonus[planet]
            pt.sub_unit[s] = (scale * w[G_LINE_FILL] * R.subplanet_bonus[planet] / rem
                              if rem > 0 else 0.0)
            if rem > 0:
                pt.n_sub = s + 1
    pt.on = pt.currents or pt.city_cost > 0 or pt.n_sub > 0


cdef double planet_cover_value(const PlanetTerms* pt, const uint16_t* foot, int y0,
                               int h) noexcept nogil:
    """Cities given up and sub-planet progress of covering foot[0..h) at rows y0..."""
    cdef int i, s, n
    cdef double v = 0.0
    for i in range(h):
        if pt.city_open[y0 + i] & foot[i]:
            v -= pt.city_cost * popcount16(pt.city_open[y0 + i] & foot[i])
    for s in range(pt.n_sub):
        if pt.sub_rem[s] == 0:
            continue
        n = 0
        for i in range(h):
            n += popcount16(pt.sub_open[s][y0 + i] & foot[i])
        if n >= pt.sub_rem[s]:
            v += pt.sub_complete[s]
        else:
            v += n * pt.sub_unit[s]
    return v


cdef inline double line_gain(int n, int rem, double complete, double unit,
                             bint meteor, const double* chance) noexcept nogil:
    """Value of filling n of a line's rem open squares (0 once it is complete),
    plus what it adds to the line's chance of scoring (chance[n])."""
    if rem == 0 or n <= 0:
        return 0.0
    if n >= rem:
        return chance[rem] + (0.0 if meteor else complete)
    return chance[n] + n * unit
