# The greedy bot's value of track advances: the medals they add, a share of the
# way to the next medal, and the benefits of the spaces they reach.

# ==== valuing track advances =====================================================

cdef inline double medal_potential(const Rules_t* R, const double* w, int corp, int t,
                                   int pos) noexcept nogil:
    """Medals at pos plus a share of the way to the next higher medal."""
    cdef const uint8_t* sc = R.score_pos[corp][t]
    cdef int top = TOP
    if corp == CORP_OASIS and t == WATER:
        sc = &R.path_score[0]                  # Oasis: water medals along the path
        top = OASIS_TOP
    if pos > top:
        pos = top
    cdef int cur = sc[pos], nxt = pos + 1, last = pos
    while last > 0 and sc[last - 1] == cur:
        last -= 1
    while nxt <= top and sc[nxt] == cur:
        nxt += 1
    if nxt > top:
        return cur
    return cur + w[G_PROGRESS] * (sc[nxt] - cur) * (pos - last + 1.0) / (nxt - last + 1.0)


cdef inline double space_benefit(const Game_t* g, const Rules_t* R, const double* w, int p,
                                 int t, int pos) noexcept nogil:
    """Value of the benefits printed on one space."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const int8_t* sp = track_space(g, R, p, t, pos)   # Flux tech 3: improved
    cdef double v = 0.0
    if sp[SP_CIV]:
        v += w[G_CIV] * sp[SP_CIV]
    v += w[G_SYNERGY] * sp[SP_SYNERGY]
    if sp[SP_SYN_TARGET]:
        v += w[G_SYNERGY]                       # Wormhole: a synergy for one named track
    v += w[G_PATCH] * sp[SP_PATCH]
    if sp[SP_ROVER] and supply_rover(pl) >= 0:
        v += w[G_ROVER]
    if sp[SP_MOVE] and (rovers_on_planet(pl) > 0 or supply_rover(pl) >= 0):
        v += w[G_MOVE] * (sp[SP_MOVE] + tech_move_bonus(g, R, p))
    if sp[SP_TECH]:
        v += w[G_TECH]
    if w[G_EARLY] != 0.0:                       # the fit leaves it at 0 (README)
        v *= 1.0 + w[G_EARLY] * (0.5 - min(1.0, (g.round - 1.0) / (TRACK_FIT_ROUNDS - 1.0)))
    return v


cdef double track_gain(const Game_t* g, const Rules_t* R, const double* w, int p, int t,
                       int steps) noexcept nogil:
    """Value of advancing tracker t by `steps`, claiming benefits."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int pos0 = pl.track[t], pos = pos0, s
    cdef double v = 0.0
    for s in range(steps):
        if pos >= TOP:
            if t == ROVER:
                v += space_benefit(g, R, w, p, t, BEYOND_TOP)
            continue
        pos = next_space(R, pl, t, pos)            # Cosmos jumps, Wormhole levels
        v += space_benefit(g, R, w, p, t, pos)
    v += (medal_potential(R, w, pl.corp, t, pos)
          - medal_potential(R, w, pl.corp, t, pos0))
    return w[G_TRACK] * v


cdef inline double track_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                               int t, int steps, const Incentive* inc) noexcept nogil:
    """track_gain plus what the player's objective cards add to those steps."""
    cdef int room = track_top(&g.pl[p], t) - g.pl[p].track[t]
    cdef double v = track_gain(g, R, w, p, t, steps)
    if steps < room:
        room = steps
    if room <= 0:
        return v
    v += inc.track[t] * room
    if inc.top_left[t] > 0:                # a tracker-at-the-top card: the chance added
        v += inc.chance_w * chance_added(R, OG_TOP + t, inc.top_left[t], room,
                                         inc.chance_round)
    return v


cdef double regress_path(const Game_t* g, const Rules_t* R, const double* w, int p,
                         int t, int q) noexcept nogil:
    """What regressing tracker t by q does to its path (corporations.md 2.3-2.4):
    the spaces it passes back over are claimed again when it re-enters them,
    and the q spaces ahead of it come q steps later."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int pos = pl.track[t], s, k
    cdef double again = 0.0, later = 0.0
    for s in range(max(1, pos - q + 1), pos + 1):
        again += space_benefit(g, R, w, p, t, s)
    s = pos
    for k in range(q):
        if s >= TOP:
            break
        s = next_space(R, pl, t, s)
        later += space_benefit(g, R, w, p, t, s)
    return w[G_TRACK] * (w[G_REGRESS_RECLAIM] * again - w[G_REGRESS_DELAY] * later)


cdef inline double best_track(const Game_t* g, const Rules_t* R, const double* w, int p,
                              int mask, int steps, int* best) noexcept nogil:
    """The most valuable track in mask (value returned, index in *best)."""
    cdef int t
    cdef double v, top = -1e300
    best[0] = -1
    for t in range(N_TRACKS):
        if (mask >> t) & 1:
            v = track_gain(g, R, w, p, t, steps)
            if v > top:
                top = v
                best[0] = t
    return top if best[0] >= 0 else 0.0
