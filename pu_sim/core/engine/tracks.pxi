# Resource tracks: advancing, claiming benefits, tech levels, medals.
#
# Rules TR-1..TR-5 (rules.md 8.3) and corporations.md 2.3-2.9.  Benefits of a
# space join the player's pending pool (designer FAQ Q3); civ milestones wait
# for the civ step of the round (FAQ Q1); movement joins the turn's budget.

# ==== the pending pool ===========================================================

cdef inline void push_item(Game_t* g, int p, int kind, int a, int b, int c) noexcept nogil:
    """Add an item to player p's pending pool (anomaly status if it is full)."""
    cdef Player_t* pl = &g.pl[p]
    if pl.n_items >= MAX_ITEMS:
        g.status = STATUS_POOL_OVERFLOW
        return
    pl.items[pl.n_items].kind = <uint8_t>kind
    pl.items[pl.n_items].a = <uint8_t>a
    pl.items[pl.n_items].b = <uint8_t>b
    pl.items[pl.n_items].c = <uint8_t>c
    pl.n_items += 1


cdef inline void remove_item(Player_t* pl, int i) noexcept nogil:
    """Remove pool item i, keeping the order of the others."""
    cdef int j
    for j in range(i, pl.n_items - 1):
        pl.items[j] = pl.items[j + 1]
    pl.n_items -= 1


cdef inline void owe_civ_pick(Game_t* g, int p, int rank) noexcept nogil:
    """A civ milestone: a pick of this rank in the civ step (CV-1, CV-2)."""
    cdef Player_t* pl = &g.pl[p]
    if pl.n_owed >= MAX_OWED:
        g.status = STATUS_POOL_OVERFLOW
        return
    pl.owed[pl.n_owed] = <uint8_t>rank
    pl.n_owed += 1


# ==== tech ========================================================================

cdef inline int tech_level(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """TE-1: the tech level follows the tech tracker's current position (Jump Drive:
    the number of techs its lifepods unlocked)."""
    if g.pl[p].corp == CORP_JUMP:
        return popcount16(g.pl[p].jd_techs)
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_tech_level(&g.pl[p], R)
    return R.tech_level_at[g.pl[p].corp][g.pl[p].track[TECH]]


cdef inline bint has_tech(const Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Tech `level` is usable: its milestone reached, and not suppressed by a
    no-milestone event round (cards.md D2/A1); Cosmos: not under a lifepod (C2)."""
    cdef const Player_t* pl = &g.pl[p]
    if pl.corp == CORP_JUMP:
        return jump_has_tech(pl, level)                 # lifepod slots, for good
    if tech_level(g, R, p) < level or (pl.tech_suppressed >> level) & 1:
        return False
    if pl.corp == CORP_COSMOS:
        return not cosmos_milestone_covered(pl, R, level)
    if pl.corp == CORP_FLUX:
        return tech_level(g, R, p) == level             # only the newest tech is active
    return True


cdef inline bint tech_ignores_adjacency(const Game_t* g, const Rules_t* R,
                                        int p) noexcept nogil:
    """Universal Coalition L1: tiles need not touch earlier tiles (PL-5)."""
    return g.pl[p].corp == 0 and has_tech(g, R, p, 1)


cdef inline bint tech_stores_patches(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Universal Coalition L2 / Wormhole L4: patches may be kept for the end (BI-2)."""
    if g.pl[p].corp == CORP_UC:
        return has_tech(g, R, p, 2)
    return g.pl[p].corp == CORP_WORMHOLE and has_tech(g, R, p, 4)


cdef inline int tech_move_bonus(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Universal Coalition L3: +1 to each rover-track movement gain (RV-2)."""
    return 1 if (g.pl[p].corp == 0 and has_tech(g, R, p, 3)) else 0


cdef inline bint tech_doubles_water(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Universal Coalition L4: a placed tile's water on ice advances twice (WA-2)."""
    return g.pl[p].corp == 0 and has_tech(g, R, p, 4)


cdef inline bint tech_no_meteorites(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Universal Coalition L5: tiles never place meteorites (ME-4)."""
    return g.pl[p].corp == 0 and has_tech(g, R, p, 5)


# ==== advancing ===================================================================

cdef inline int track_top(const Player_t* pl, int t) noexcept nogil:
    """The last position of tracker t (Oasis water: the path's last step)."""
    if pl.corp == CORP_OASIS and t == WATER:
        return OASIS_TOP
    return TOP


cdef inline bint at_top(const Player_t* pl, int t) noexcept nogil:
    """The tracker is on its track's top (Wormhole's top level is the pair 14/15)."""
    if pl.corp == CORP_WORMHOLE and t == BIOMASS:
        return pl.track[t] >= TOP - 1
    return pl.track[t] >= track_top(pl, t)


cdef inline int board_row(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """The board row tracker t stands on (corp-G1's "5th position")."""
    if pl.corp == CORP_OASIS and t == WATER:
        return oasis_row(R, pl)
    return pl.track[t]


cdef inline bint can_advance(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """TR-2/TR-3: a tracker below its top can move; the rover tracker always can.
    Oasis: not onto another tracker (Z1; BGA option: blocked trackers may be chosen)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef uint32_t buf[2 * N_TRACKS + 1]
    if pl.corp == CORP_MAKESHIFT:
        if g.options & OPT_SYNERGY_TARGET_MUST_MOVE_OFF:
            return pl.track[t] < TOP or pl.col[t] == ROVER
        return ms_targets(g, R, p, t, buf, False) > 0  # Z1: a free target exists
    if t == ROVER and pl.track[t] >= TOP:
        return True
    if at_top(pl, t):
        return False
    if pl.corp == CORP_OASIS and not (g.options & OPT_SYNERGY_TARGET_MUST_MOVE_OFF):
        return oasis_target(g, R, p, t) >= 0
    return True


cdef inline bint can_climb(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Unionization's climb: an advance that goes up (Makeshift: no sideways shift)."""
    cdef uint32_t buf[2 * N_TRACKS + 1]
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_targets(g, R, p, t, buf, True) > 0
    return can_advance(g, R, p, t)


cdef inline int movable_tracks(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Bit mask of trackers that can advance (synergy and energy choices, TR-4)."""
    cdef int t, m = 0
    for t in range(N_TRACKS):
        if can_advance(g, R, p, t):
            m |= 1 << t
    return m


cdef inline void claim_space(Game_t* g, const Rules_t* R, int p, int t, int pos,
                             bint skip_synergy) noexcept nogil:
    """TR-1: gain every benefit printed on the space just entered."""
    cdef Player_t* pl = &g.pl[p]
    cdef const int8_t* sp = track_space(g, R, p, t, pos)     # Flux tech 3: improved
    cdef int i
    cdef bint milestones = g.round_rule != RR_NO_MILESTONE_BENEFITS     # events 109/123
    if sp[SP_TECH]:
        if not milestones and not (g.options & OPT_EVENT_TECH_SUPPRESSION_NONE):
            pl.tech_suppressed |= <uint8_t>(1 << sp[SP_TECH])  # cards.md D2
        elif milestones:
            pl.tech_suppressed &= <uint8_t>~(1 << sp[SP_TECH])  # re-entered: unlocked
        if milestones and pl.corp == CORP_FLUX:
            flux_tech_unlocked(g, p)                           # place the flux token
    if sp[SP_CIV] and milestones:
        if pl.corp == CORP_REPUBLIC:
            republic_civ_milestone(g, R, p)
        if g.options & OPT_CIV_PICK_TIMING_ON_MILESTONE:
            push_item(g, p, IT_CIV_PICK, sp[SP_CIV], 0, 0)   # rulebook track wording
        else:
            owe_civ_pick(g, p, sp[SP_CIV])                   # designer FAQ Q1
    if not skip_synergy and g.round_rule != RR_NO_SYNERGY_BOOSTS:   # event 122
        for i in range(sp[SP_SYNERGY]):
            push_item(g, p, IT_SYNERGY, 0, 0, 0)
        if sp[SP_SYN_TARGET]:
            push_item(g, p, IT_ADVANCE, sp[SP_SYN_TARGET] - 1, 1, 0)  # Wormhole synergy:T
    if milestones:
        for i in range(sp[SP_PATCH]):
            push_item(g, p, IT_PATCH, 0, 0, 0)
        if sp[SP_ROVER]:
            push_item(g, p, IT_ROVER, 0, 0, 0)
    if sp[SP_MOVE]:
        # RV-2: the tech bonus applies to rover-track movement only
        gain_track_movement(g, R, p, sp[SP_MOVE])
        if pl.corp == CORP_MAKESHIFT:
            ms_movement_gained(g, R, p)                  # tech 2's conditional +1


cdef inline int next_space(const Rules_t* R, const Player_t* pl, int t, int pos) noexcept nogil:
    """Where one advance from pos lands (Cosmos jumps lifepods, Wormhole levels)."""
    if pl.corp == CORP_COSMOS:
        return cosmos_next_space(pl, t, pos)
    if wormhole_biomass(pl, t):
        return wh_next_space(R, pl, pos)
    return pos + 1


cdef inline bint advance_once(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                              bint skip_synergy) noexcept nogil:
    """Advance tracker t one space; returns False if it could not move (TR-2)."""
    cdef Player_t* pl = &g.pl[p]
    cdef int target
    if wormhole_biomass(pl, t):
        return wormhole_advance(g, R, p, claim, skip_synergy)
    if pl.corp == CORP_MAKESHIFT:
        return makeshift_advance(g, R, p, t, claim, skip_synergy)
    if pl.corp == CORP_OASIS and not (t == ROVER and pl.track[t] >= TOP):
        target = oasis_target(g, R, p, t)             # blocked: lost (O3)
        if target < 0:
            return False
        pl.track[t] = <int8_t>target
        if claim:
            claim_space(g, R, p, t, target, skip_synergy)
        return True
    if pl.track[t] >= TOP:
        if t == ROVER:
            # TR-3: the topped rover tracker re-grants its top movement (BGA: any advance)
            if claim:
                claim_space(g, R, p, t, BEYOND_TOP, skip_synergy)
            return True
        return False
    pl.track[t] = <int8_t>next_space(R, pl, t, pl.track[t])
    if claim:
        claim_space(g, R, p, t, pl.track[t], skip_synergy)
    return True


cdef inline int track_medals(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """TR-5: the highest medal at or below the tracker (Cosmos: not under a lifepod)."""
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_medal(&g.pl[p], R, t)
    if oasis_water(&g.pl[p], t):
        return oasis_medal(g, &g.pl[p], R)
    if makeshift(&g.pl[p]):
        return ms_medal(g, R, p, t)
    return R.score_pos[g.pl[p].corp][t][g.pl[p].track[t]]
