# Resource tracks: advancing, claiming benefits, tech levels, medals.
#
# Rules TR-1..TR-5 (rules.md 8.3) and corporations.md 2.3-2.9.  Benefits of a
# space join the player's pending pool (designer FAQ Q3); civ milestones wait
# for the civ step of the round (FAQ Q1); movement joins the turn's budget.
#
# The standard boards' rules are the board_* functions; where a corporation's
# board plays otherwise, the rule asks its hook (core/corporations/hooks.pxi).

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

cdef inline int board_tech_level(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """TE-1: tech milestones at or below the tech tracker (the standard boards)."""
    return R.tech_level_at[g.pl[p].corp][g.pl[p].track[TECH]]


cdef inline int tech_level(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """The tech level in force (TE-1; a corporation may count otherwise)."""
    return corp_tech_level(g, R, p)


cdef inline bint board_has_tech(const Game_t* g, const Rules_t* R, int p,
                                int level) noexcept nogil:
    """Tech `level` is usable: its milestone reached, and not suppressed by a
    no-milestone event round (cards.md D2/A1)."""
    return tech_level(g, R, p) >= level and not (g.pl[p].tech_suppressed >> level) & 1


cdef inline bint has_tech(const Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Tech `level` is usable now (a corporation may rule otherwise)."""
    return corp_has_tech(g, R, p, level)


cdef inline int tech_move_bonus(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Movement added to each rover-track movement gain (RV-2)."""
    return corp_track_movement_bonus(g, R, p)


cdef inline bint tech_doubles_water(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A placed tile's water on ice advances twice (WA-2)."""
    return corp_doubles_water(g, R, p)


cdef inline bint tech_no_meteorites(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tiles place no meteorites (ME-4)."""
    return corp_no_meteorites(g, R, p)


# ==== advancing ===================================================================

cdef inline int track_top(const Player_t* pl, int t) noexcept nogil:
    """The last position of tracker t (TR-2; a corporation's track may be longer)."""
    return corp_track_top(pl, t)


cdef inline bint at_top(const Player_t* pl, int t) noexcept nogil:
    """The tracker is on its track's top."""
    return corp_at_top(pl, t)


cdef inline int board_row(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """The board row tracker t stands on (corp-G1's "5th position")."""
    return corp_board_row(R, pl, t)


cdef inline bint board_can_advance(const Game_t* g, const Rules_t* R, int p,
                                   int t) noexcept nogil:
    """TR-2/TR-3: a tracker below its top can move; the rover tracker always can."""
    cdef const Player_t* pl = &g.pl[p]
    if t == ROVER and pl.track[t] >= TOP:
        return True
    return not at_top(pl, t)


cdef inline bint can_advance(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Tracker t can advance now (a corporation's trackers may be blocked)."""
    return corp_can_advance(g, R, p, t)


cdef inline bint can_climb(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Unionization's climb: an advance that goes up (cards.md A10)."""
    return corp_can_climb(g, R, p, t)


cdef inline int movable_tracks(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Bit mask of trackers that can advance (synergy and energy choices, TR-4)."""
    cdef int t, m = 0
    for t in range(N_TRACKS):
        if can_advance(g, R, p, t):
            m |= 1 << t
    return m


cdef inline const int8_t* track_space(const Game_t* g, const Rules_t* R, int p, int t,
                                      int pos) noexcept nogil:
    """The printed space tracker t claims at pos (its corporation board's)."""
    return corp_track_space(g, R, p, t, pos)


cdef inline void claim_space(Game_t* g, const Rules_t* R, int p, int t, int pos,
                             bint skip_synergy) noexcept nogil:
    """TR-1: gain every benefit printed on the space just entered."""
    cdef Player_t* pl = &g.pl[p]
    cdef const int8_t* sp = track_space(g, R, p, t, pos)
    cdef int i
    cdef bint milestones = g.round_rule != RR_NO_MILESTONE_BENEFITS     # events 109/123
    if sp[SP_TECH]:
        if not milestones and not (g.options & OPT_EVENT_TECH_SUPPRESSION_NONE):
            pl.tech_suppressed |= <uint8_t>(1 << sp[SP_TECH])  # cards.md D2
        elif milestones:
            pl.tech_suppressed &= <uint8_t>~(1 << sp[SP_TECH])  # re-entered: unlocked
        if milestones:
            corp_tech_milestone(g, R, p)
    if sp[SP_CIV] and milestones:
        corp_civ_milestone(g, R, p)
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
        corp_track_movement_gained(g, R, p)


cdef inline int next_space(const Rules_t* R, const Player_t* pl, int t, int pos) noexcept nogil:
    """Where one advance from pos lands (TR-2: the next space up)."""
    return corp_next_space(R, pl, t, pos)


cdef inline bint board_advance_once(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                                    bint skip_synergy) noexcept nogil:
    """TR-2/TR-3: one space up, claiming it; False if the tracker could not move."""
    cdef Player_t* pl = &g.pl[p]
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


cdef inline bint advance_once(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                              bint skip_synergy) noexcept nogil:
    """Advance tracker t one space; returns False if it could not move (TR-2)."""
    return corp_advance_once(g, R, p, t, claim, skip_synergy)


cdef inline int board_track_medals(const Game_t* g, const Rules_t* R, int p,
                                   int t) noexcept nogil:
    """TR-5: the highest medal at or below the tracker."""
    return R.score_pos[g.pl[p].corp][t][g.pl[p].track[t]]


cdef inline int track_medals(const Game_t* g, const Rules_t* R, int p, int t) noexcept nogil:
    """Medals tracker t scores at the end (TR-5)."""
    return corp_track_medals(g, R, p, t)
