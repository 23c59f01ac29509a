# The greedy bot's learned track-choice correction: at a choice among trackers
# (synergy, energy, a card's advance), each option gets a value fitted to
# rollouts (the track_fit table, run-time data: core/bots/fitted_tables.pxi): one
# number per (track, tracker position, part of the game) and, per track, a
# linear term in the player's context below.  A corporation the fit left out
# has zeros there and plays greedy's own values.
#
# Why: greedy values a step by what the space prints and the medals it adds,
# the same in every position.  Rollouts show that a step's worth also depends
# on the rest of the board: a rover step is worth more with lifepods near the
# rovers, a tech step less once the levels that matter are taken, and a track
# less when the others are far behind.

cdef enum:
    TCX_PODS = 0          # lifepods still on the planet
    TCX_PODS_NEAR_2 = 1   # ... within 2 squares (Manhattan) of one of its rovers
    TCX_PODS_NEAR_4 = 2   # ... within 4 squares
    TCX_ROVERS_ON = 3     # rovers on the planet
    TCX_ROVERS_SUPPLY = 4  # rovers still on the corporation board
    TCX_COVERED = 5       # covered squares
    TCX_CIV = 6           # civ cards held
    TCX_TECH = 7          # tech level
    TCX_METEORITES = 8    # meteorites on the planet
    TCX_PODS_COLLECTED = 9
    TCX_TRACK = 10        # 10 + t: the position of tracker t (all five)


cdef void track_context(const Game_t* g, const Rules_t* R, int p, double* f) noexcept nogil:
    """f[0..TRACK_FIT_CONTEXT) for player p: what the track table's linear terms read."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int i, r, x, y, d, near
    for i in range(TRACK_FIT_CONTEXT):
        f[i] = 0.0
    for y in range(GRID):
        f[TCX_COVERED] += popcount16(pl.occ[y])
        f[TCX_METEORITES] += popcount16(pl.meteorite[y])
        for x in range(GRID):
            if not (pl.lifepod[y] >> x) & 1:
                continue
            f[TCX_PODS] += 1.0
            near = 99
            for r in range(MAX_ROVERS):
                if pl.rover_status[r] == RV_PLANET:
                    d = abs(pl.rover_x[r] - x) + abs(pl.rover_y[r] - y)
                    near = min(near, d)
            if near <= 2:
                f[TCX_PODS_NEAR_2] += 1.0
            if near <= 4:
                f[TCX_PODS_NEAR_4] += 1.0
    for r in range(MAX_ROVERS):
        if pl.rover_status[r] == RV_PLANET:
            f[TCX_ROVERS_ON] += 1.0
        elif pl.rover_status[r] == RV_SUPPLY:
            f[TCX_ROVERS_SUPPLY] += 1.0
    f[TCX_CIV] = popcount64(pl.civ_cards)
    f[TCX_TECH] = tech_level(g, R, p)
    f[TCX_PODS_COLLECTED] = pl.lifepods_collected
    for i in range(N_TRACKS):
        f[TCX_TRACK + i] = pl.track[i]


cdef inline int track_fit_phase(int round_) noexcept nogil:
    """Part of the game a round falls in (thirds of a TRACK_FIT_ROUNDS-round game)."""
    cdef int phase = (round_ - 1) * TRACK_FIT_PHASES // TRACK_FIT_ROUNDS
    return 0 if phase < 0 else min(phase, TRACK_FIT_PHASES - 1)


cdef double track_fit(const Game_t* g, const Rules_t* R, const double* ctx, int p,
                      int t) noexcept nogil:
    """Fitted value (greedy units, relative to the other trackers) of advancing
    tracker t now; ctx is track_context(p)."""
    cdef int corp = g.pl[p].corp, pos = min(g.pl[p].track[t], TRACK_FIT_POSITIONS - 1), k
    cdef const double* context = R.fitted.track_context[corp][t]
    cdef double v = R.fitted.track_cell[corp][t][pos][track_fit_phase(g.round)]
    for k in range(TRACK_FIT_CONTEXT):
        v += context[k] * ctx[k]
    return v
