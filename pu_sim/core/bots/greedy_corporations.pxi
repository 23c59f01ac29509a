# What the greedy bot knows about the corporations' own powers.
#
# Activated powers are valued in medals like every other option, so the bot
# uses one when it beats keeping it (D_POWER's "done" is worth 0), and ranks
# it among the pending items of its pool (D_ORDER).  Triggered options (D_YES_NO)
# are answered yes when their value is positive.

cdef double HORIZON_PICKUP = 0.6        # a meteorite still to deliver, vs one collected
cdef double POD_MOVE_DONE = 0.05       # a lifepod move's gain must beat stopping
cdef double COSMOS_TECH2_WAIT = 0.15    # Cosmos tech 2's keep value per round still to come


cdef enum:
    USUAL_LAST_ROUND = 20               # games without events end about then (9.1 A)


cdef inline int rounds_to_come(const Game_t* g) noexcept nogil:
    """Rounds still to be played after this one (0: this round is the last and
    the player knows it): with events one per card left (future_rounds, 9.1 C);
    without, none once a trigger fired, else about USUAL_LAST_ROUND - round, at
    least one (trigger A, a full planet, usually ends the game)."""
    if g.events_on:
        return max(0, future_rounds(g))
    if g.last_round:
        return 0
    return max(1, USUAL_LAST_ROUND - g.round)


cdef double power_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                        int level) noexcept nogil:
    """Medal value of using an activated power now (0: as good as keeping it)."""
    cdef Incentive inc
    cdef const Player_t* pl = &g.pl[p]
    cdef double gain
    if pl.corp == CORP_HORIZON and level == 5:
        objective_incentives(g, R, w, p, &inc)
        return track_value(g, R, w, p, ROVER, 1, &inc)
    if pl.corp == CORP_COSMOS and level == 5:
        return pod_moves_value(g, R, w, p, 1) - 0.2      # it comes back each round
    if pl.corp == CORP_COSMOS:
        # tech 2, once a game: three moves, kept for a big gain until the game's
        # last round, when every lifepod on a track is a medal lost (3.2)
        # (no move worth making: keep it, as a tie would use it)
        gain = pod_moves_value(g, R, w, p, 3)
        return gain - COSMOS_TECH2_WAIT * rounds_to_come(g) if gain > 0 else -1.0
    if pl.corp == CORP_JUMP and level == 5:
        # claim a row: when some row is rich, or before the game runs out
        return best_row_value(g, R, w, p) - (1.0 if g.round >= 14 else 3.0)
    if pl.corp == CORP_JUMP and level == 6:
        return 1.0                                       # a contested card: draw now
    if pl.corp == CORP_FLUX:
        objective_incentives(g, R, w, p, &inc)
        if level == 1:
            return w[G_MOVE] * flux_t1_movement(pl)
        if level == 2:
            # once a game, and lost when tech 3 comes: use it for a good jump
            return flux_jump_value(g, R, w, p, pl.flux_track, &inc) - 1.0
        if level == 5:
            return track_value(g, R, w, p, pl.flux_track, 1, &inc)
    if pl.corp == CORP_MAKESHIFT and level == 4:
        return -0.5                                      # a step back: only to unblock
    if pl.corp == CORP_WORMHOLE and level == 1:
        # tech 1, the biomass tracker from its top back to 0 (3.9): declined.
        # Valued as the climbs still expected (at the rate it climbed so far)
        # winning back patches and medals against the top's 5, using it
        # changed a 4-player game by -0.11 +- 0.10 points (paired,
        # greedy_tuned, 4,000 games), and by -0.08 +- 0.09 when only a full
        # climb back was expected: no gain (tile biomass advances need a
        # growing biomass area, 3.9, so the climbs do not come)
        return -1.0
    return 0.0


cdef double power_priority(const Game_t* g, const Rules_t* R, const double* w, int p,
                           int level) noexcept nogil:
    """D_ORDER rank of using a power now: before the pool's tracks if it is worth it
    (its benefits may chain into them), else never before the pool is done."""
    return 7.0 if power_value(g, R, w, p, level) > 0 else -1.0


cdef double horizon_delivery_value(const Game_t* g, const Rules_t* R, const double* w,
                                   int p, const Incentive* inc) noexcept nogil:
    """What delivering a carried meteorite brings: a third of a medal, tech 3's patch."""
    cdef double v = w[G_METEOR_TARGET] + inc.meteorite
    if has_tech(g, R, p, 3):
        v += w[G_PATCH]
    return v


cdef double option_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                         const Item_t* it) noexcept nogil:
    """Value of answering yes to an optional triggered power (no: 0)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef double keep
    cdef Incentive inc
    if it.a == OPTION_HORIZON_DESTROY:
        # destroying frees the meteorite's row and column for scoring; keeping it
        # is worth a delivery if any rover icon is on the planet
        objective_incentives(g, R, w, p, &inc)
        keep = horizon_delivery_value(g, R, w, p, &inc) if grid_any(pl.icon[ROVER]) else 0.0
        return w[G_METEORITE] * meteorite_line_value(pl, R, it.b, it.c) - keep
    if it.a == OPTION_REPUBLIC_CIV_FIRST:
        return republic_civ_first_value(g, R, w, p)
    if it.a == OPTION_WORMHOLE_DOUBLE:
        return w[G_PATCH]                                # a second patch, this round
    if it.a == OPTION_JUMP_PATCH_SWAP:
        return w[G_SYNERGY] - w[G_PATCH]
    return 0.0


cdef double republic_civ_first_value(const Game_t* g, const Rules_t* R, const double* w,
                                     int p) noexcept nogil:
    """Select the civ tile first when it is the tile the bot would take anyway."""
    cdef int slot, civ = republic_civ_slots(g, R, p)
    cdef double best_civ = -1e9, best_other = -1e9, v
    for slot in range(2):
        v = tile_quick_value(g, R, w, p, depot_tile(g, R, p, slot))
        if (civ >> slot) & 1:
            best_civ = v if v > best_civ else best_civ
        else:
            best_other = v if v > best_other else best_other
    return 1.0 if best_civ >= best_other else -1.0


# ---- Cosmos: lifepods on tracks --------------------------------------------------------

cdef double pod_value(const Game_t* g, const Rules_t* R, const double* w, int p, int loc,
                      const Incentive* inc) noexcept nogil:
    """Worth of a collected lifepod at loc, against the scoring area (0): ahead of a
    tracker it buys a free step (discounted by distance) but hides the space; behind
    it can only hide medals and tech; either way it no longer scores its medal.
    In the known last round a lifepod ahead buys nothing any more."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int t, pos, ahead, level, medal
    cdef double v = -1.0, step
    if loc == POD_AREA:
        return 0.0
    if pl.corp == CORP_JUMP:
        return jump_tech_value(g, loc - POD_SLOT) - 1.0
    t = loc >> 4
    pos = loc & 15
    ahead = pos - pl.track[t]
    if ahead > 0 and rounds_to_come(g) > 0:
        step = track_value(g, R, w, p, t, 1, inc)
        v += step * (0.8 ** (ahead - 1)) - w[G_TRACK] * space_benefit(g, R, w, p, t, pos)
        medal = R.space[CORP_COSMOS][t][pos][SP_MEDAL]
        v -= 0.3 * medal
    elif ahead <= 0:
        medal = R.space[CORP_COSMOS][t][pos][SP_MEDAL]
        if medal and medal == cosmos_medal(pl, R, t):
            v -= medal                                   # it is the medal scored now
        level = R.space[CORP_COSMOS][t][pos][SP_TECH]
        if t == TECH and level:
            v -= 2.0 * w[G_TECH]                        # locks a reached tech (C2)
    return v                                            # ahead in the last round: no step left


cdef int greedy_pods(const Game_t* g, const Rules_t* R, const double* w, int p,
                     const uint32_t* moves, int n, Argmax* a) noexcept nogil:
    """D_POD_PLACE / D_POD_MOVE / D_POD_DESTROY by pod_value."""
    cdef Incentive inc
    cdef int i
    cdef double v
    objective_incentives(g, R, w, p, &inc)
    for i in range(n):
        if g.decision == D_POD_PLACE:
            v = pod_value(g, R, w, p, <int>moves[i], &inc)
        elif g.decision == D_POD_MOVE:
            if moves[i] == MV_DONE:
                v = POD_MOVE_DONE                       # move only for a clear gain
            else:
                v = pod_move_gain(g, R, w, p, moves[i], &inc)
        else:
            v = -pod_value(g, R, w, p, <int>moves[i], &inc)
        argmax_offer(a, <Game_t*>g, i, v)
    return a.index


cdef inline double pod_move_gain(const Game_t* g, const Rules_t* R, const double* w,
                                 int p, uint32_t move, const Incentive* inc) noexcept nogil:
    """What moving a collected lifepod (move: source << 8 | destination) gains."""
    return (pod_value(g, R, w, p, <int>(move & 0xFF), inc)
            - pod_value(g, R, w, p, <int>(move >> 8), inc))


cdef double pod_moves_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                            int k) noexcept nogil:
    """The gain of up to k lifepod moves, each the best one then (as greedy_pods
    plays them: a move is made only for a gain above its "done" value).  In the
    game's last round a lifepod ahead of a tracker buys no step any more, so
    every lifepod on a track is valued as not scoring (3.2)."""
    cdef Game_t* a = <Game_t*>malloc(sizeof(Game_t))
    cdef uint32_t moves[(N_TRACKS * 16 + 1) * (N_TRACKS * 16 + 1)]
    cdef Incentive inc
    cdef int i, j, n, best_i
    cdef double v, best, total = 0.0
    if a == NULL:
        return 0.0
    memcpy(a, g, sizeof(Game_t))
    objective_incentives(g, R, w, p, &inc)
    for j in range(k):
        n = gen_pod_moves(&a.pl[p], moves)
        best = POD_MOVE_DONE
        best_i = -1
        for i in range(n):
            v = pod_move_gain(a, R, w, p, moves[i], &inc)
            if v > best:
                best = v
                best_i = i
        if best_i < 0:
            break
        total += best
        pod_take(&a.pl[p], <int>(moves[best_i] >> 8))
        pod_put(&a.pl[p], <int>(moves[best_i] & 0xFF))
    free(a)
    return total


# ---- Wormhole: the branching biomass track ------------------------------------------

cdef double branch_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                         int side) noexcept nogil:
    """The level's synergy half (side 0) or its patch half (side 1)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int pos = R.wh_level_a[wh_level(R, pl)] + side
    cdef const int8_t* sp = R.space[CORP_WORMHOLE][BIOMASS][pos]
    cdef Incentive inc
    if sp[SP_SYN_TARGET]:
        objective_incentives(g, R, w, p, &inc)
        return track_value(g, R, w, p, sp[SP_SYN_TARGET] - 1, 1, &inc)
    return space_benefit(g, R, w, p, BIOMASS, pos)


# ---- Jump Drive: techs bought with lifepods -----------------------------------------

cdef double jump_tech_value(const Game_t* g, int level) noexcept nogil:
    """Rough medal worth of unlocking tech A-F now; the every-round ones are worth
    more the more rounds are left."""
    cdef double left = (20.0 - g.round) / 20.0
    if left < 0:
        left = 0
    if level == 1:
        return 0.6 * (0.5 + left)
    if level == 2:
        return 0.8 * (0.5 + left)
    if level == 3:
        return 1.5 * (0.5 + left)
    if level == 4:
        return 1.2 * (0.5 + left)
    if level == 5:
        return 3.0
    return 2.5


cdef double claim_row_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                            int row) noexcept nogil:
    """Tech E: every benefit printed in one row."""
    cdef int t
    cdef double v = 0.0
    for t in range(N_TRACKS):
        v += space_benefit(g, R, w, p, t, row)
    return w[G_TRACK] * v


cdef double best_row_value(const Game_t* g, const Rules_t* R, const double* w,
                           int p) noexcept nogil:
    cdef int t
    cdef double v, best = 0.0
    for t in range(N_TRACKS):
        v = claim_row_value(g, R, w, p, g.pl[p].track[t])
        if v > best:
            best = v
    return best


cdef double contest_lead(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """Tech F: how far ahead the player is on a card everybody contests."""
    cdef int q, mine = objective_measure(g, R, p, card), best = -1000, m
    for q in range(g.n_players):
        if q != p:
            m = objective_measure(g, R, q, card)
            best = m if m > best else best
    if g.n_players == 1:
        return 1.0
    if not R.obj_neighbour[card][5]:
        return <double>(best - mine)                     # "fewer wins"
    return <double>(mine - best)


# ---- Flux: where the flux token goes ------------------------------------------------

cdef double flux_jump_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                            int t, const Incentive* inc) noexcept nogil:
    """Tech 2: the value of the steps up to track t's next milestone."""
    cdef int target = flux_next_milestone(g, R, p, t)
    if target < 0:
        return 0.0
    return track_value(g, R, w, p, t, target - g.pl[p].track[t], inc)


cdef double flux_track_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                             int t) noexcept nogil:
    """How much the newly active tech is worth with the token on track t."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int level = tech_level(g, R, p), r, pos, n = 0
    cdef Incentive inc
    objective_incentives(g, R, w, p, &inc)
    if level == 1:
        for r in range(MAX_ROVERS):
            if (pl.rover_status[r] == RV_PLANET
                    and grid_has(pl.terr[t], pl.rover_x[r], pl.rover_y[r])):
                n += 1
        return 2.0 * w[G_MOVE] * n + 0.01 * (t == ROVER)
    if level == 2:
        return flux_jump_value(g, R, w, p, t, &inc)
    if level == 3:
        if t == TECH:
            return -1.0                                  # the tech track has no upgrade
        for pos in range(pl.track[t] + 1, TOP + 1):      # improved spaces still ahead
            if (R.flux_space[t][pos][SP_CIV] or R.flux_space[t][pos][SP_SYNERGY] > 1
                    or R.flux_space[t][pos][SP_PATCH] > 1 or R.flux_space[t][pos][SP_MOVE]):
                n += 1
        return n + (2.0 if t == ROVER else 0.0)
    return track_value(g, R, w, p, t, 1, &inc)           # techs 4 and 5


# ---- Makeshift: where a step goes ---------------------------------------------------

cdef double direction_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                            int t, uint32_t mv) noexcept nogil:
    """Try the step on a copy of the board: the space's benefits, the medal the
    tracker would score there, and the tech level the tech column keeps."""
    cdef Player_t pl = g.pl[p]
    cdef int col = mv & 7, medal0, level0
    cdef double v
    cdef const int8_t* sp
    if mv & STEP_BEYOND:
        return w[G_TRACK] * space_benefit(g, R, w, p, ROVER, BEYOND_TOP)
    medal0 = R.score_pos[CORP_MAKESHIFT][pl.col[t]][pl.track[t]]
    level0 = ms_tech_level(&pl, R)
    pl.col[t] = <int8_t>col
    if not mv & STEP_SIDEWAYS:
        pl.track[t] += 1
    sp = R.space[CORP_MAKESHIFT][col][pl.track[t]]
    v = w[G_CIV] * sp[SP_CIV] + w[G_SYNERGY] * sp[SP_SYNERGY] + w[G_PATCH] * sp[SP_PATCH]
    if sp[SP_ROVER] and supply_rover(&pl) >= 0:
        v += w[G_ROVER]
    v += w[G_MOVE] * sp[SP_MOVE]
    v += R.score_pos[CORP_MAKESHIFT][col][pl.track[t]] - medal0
    v += w[G_TECH] * (ms_tech_level(&pl, R) - level0)
    return w[G_TRACK] * v
