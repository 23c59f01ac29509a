# The round (rules.md 4) and the end of the game (rules.md 9) as a state machine.
#
# advance() runs the game forward until a decision is pending (g.decision set)
# or the game is over (g.stage == ST_DONE).  It never asks anybody anything by
# itself: decisions are answered through legal_moves() / apply_move().

cdef inline int commander_order(const Game_t* g, int i) noexcept nogil:
    """The i-th player clockwise from this round's commander (rules.md 4.6)."""
    return (g.round_commander + i) % g.n_players


cdef void finish_game(Game_t* g, const Rules_t* R) noexcept nogil:
    """Score (also after an anomaly, so partial results stay inspectable)."""
    score_game(g, R)
    g.decision = D_NONE
    g.stage = ST_DONE


cdef inline void stage_round_start(Game_t* g, const Rules_t* R) noexcept nogil:
    cdef int p
    g.round += 1
    if g.round > MAX_ROUNDS:
        g.status = STATUS_TURN_LIMIT
        return
    g.round_commander = g.commander
    round_start_reset(g)
    if g.options & OPT_EVENT_TECH_SUPPRESSION_NEXT_ROUND:
        for p in range(g.n_players):
            g.pl[p].tech_suppressed = 0                 # cards.md A1, "next_round"
    if rotation_is_chosen(g):
        g.stage = ST_ROTATION
        set_decision(g, D_ROTATION, g.commander)       # SS-3, rules.md 14.19
    else:
        g.rotation = turned_clockwise(g.rotation)       # SS-6: one depot clockwise
        g.stage = ST_EVENT


cdef inline void stage_objectives(Game_t* g, const Rules_t* R) noexcept nogil:
    """ST-13: each player gives up dealt private objectives down to their share."""
    cdef Player_t* pl
    cdef int i
    while g.order_i < g.n_players:
        pl = &g.pl[g.order_i]
        if pl.n_dealt > pl.keep_priv:
            g.active = g.order_i
            set_decision(g, D_OBJECTIVE_DISCARD, g.order_i)
            return
        for i in range(pl.n_dealt):
            pl.priv[pl.n_priv] = pl.dealt[i]
            pl.n_priv += 1
        pl.n_dealt = 0
        g.order_i += 1
    g.stage = ST_ROUND_START
    g.order_i = 0


cdef inline void stage_event(Game_t* g, const Rules_t* R) noexcept nogil:
    """Step 2 (rules.md 4.2, 10.4): reveal the round's event card."""
    if not g.events_on or g.deck_pos >= g.deck_n:
        g.stage = ST_CHECK
        return
    reveal_event(g, R)
    g.stage = ST_EVENT_PLAYERS
    g.order_i = 0


cdef inline void stage_event_players(Game_t* g, const Rules_t* R) noexcept nogil:
    """Every player carries the event out as far as possible, commander first."""
    cdef int p
    while g.order_i < g.n_players:
        p = commander_order(g, g.order_i)
        g.order_i += 1
        if push_event_effect(g, R, p):
            g.active = <uint8_t>p
            g.ctx = CTX_EVENT
            open_pool(g, p)
            return
    g.stage = ST_EVENT_CIV
    g.order_i = 0


cdef inline void stage_check(Game_t* g, const Rules_t* R) noexcept nogil:
    """End trigger A (9.1 A, rules.md 14.12): can every player place a depot tile?"""
    cdef int p, level
    for p in range(g.n_players):
        corp_tile_phase_start(g, R, p)                  # round-start techs (G2)
    for p in range(g.n_players):
        level = find_place_level(g, R, p, depot_tile(g, R, p, 0), depot_tile(g, R, p, 1),
                                 N_LEVELS - 1)
        g.pl[p].place_level = <uint8_t>level
        g.pl[p].can_place = level != LEVEL_NONE
        if level == LEVEL_NONE:
            g.last_round = 1
            if g.end_trigger == END_NONE:
                g.end_trigger = END_CANNOT_PLACE
    g.stage = ST_DRAFT
    g.order_i = 0


cdef inline void stage_draft(Game_t* g, const Rules_t* R) noexcept nogil:
    """Step 4: each player takes a tile and resolves it completely (DR-1..DR-3)."""
    cdef int p, t0, t1, option
    if g.preselected == 1:
        g.preselected = 2                               # Republic: moved; now place
        set_decision(g, D_PLACE, g.active)
        return
    if g.order_i >= g.n_players:
        g.stage = ST_CIV
        g.order_i = 0
        g.unseen_tops = 0                               # every player has placed
        if g.options & OPT_ONCE_PER_ROUND_RESET_BGA_PHASES:
            phase_powers_reset(g)                       # BGA: the civ-card phase
        return
    p = commander_order(g, g.order_i)
    g.order_i += 1
    g.active = <uint8_t>p
    if g.pl[p].can_place:
        g.place_level = g.pl[p].place_level
        g.place_from_depot = 0
        g.draft_barred = 0
        option = corp_draft_option(g, R, p)             # e.g. a tile to select first
        if option:
            offer_option(g, p, option)
            return
        set_decision(g, D_PLACE, p)
        return
    # 9.2: take a tile without placing it
    t0 = depot_tile(g, R, p, 0)
    t1 = depot_tile(g, R, p, 1)
    if t0 != NO_TILE and t1 != NO_TILE:
        set_decision(g, D_NO_PLACE, p)
    elif t0 != NO_TILE or t1 != NO_TILE:
        take_unplaced_tile(g, R, p, take_depot_tile(g, R, p, 0 if t0 != NO_TILE else 1))
        g.ctx = CTX_DRAFT
        open_pool(g, p)


cdef inline bint start_pick(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Start player p's next owed civ pick; False when none is owed."""
    cdef Player_t* pl = &g.pl[p]
    cdef int rank, i
    while pl.n_owed > 0:
        rank = pl.owed[0]
        for i in range(pl.n_owed - 1):
            pl.owed[i] = pl.owed[i + 1]
        pl.n_owed -= 1
        if pick_pool_size(g, rank) == 0:
            continue                                    # CV-3: empty pile, nothing
        prepare_pick(g, R, p, rank)
        g.active = <uint8_t>p
        set_decision(g, D_CIV_PICK, p)
        return True
    return False


cdef inline void stage_picks(Game_t* g, const Rules_t* R, int next_stage, int ctx) noexcept nogil:
    """Civ picks in commander order; a player resolves all of theirs on their turn."""
    cdef int p
    while g.order_i < g.n_players:
        p = commander_order(g, g.order_i)
        g.ctx = <uint8_t>ctx
        if start_pick(g, R, p):
            return
        if g.pl[p].move_budget > 0:
            # RS-3: movement gained from picks may be spent until the turn ends
            g.active = <uint8_t>p
            open_pool(g, p)
            return
        g.order_i += 1
    g.stage = <uint8_t>next_stage
    g.order_i = 0


cdef inline void stage_end_round(Game_t* g, const Rules_t* R) noexcept nogil:
    """Steps 7-8: pass the commander token; end trigger B; next round or the end."""
    g.commander = (g.commander + 1) % g.n_players
    if not (g.options & OPT_EVENT_ROUND_RULE_UNTIL_NEXT_EVENT):
        g.round_rule = RR_NONE                          # cards.md D6: "this round"
    if any_depot_empty(g):
        g.last_round = 1
        if g.end_trigger == END_NONE:
            g.end_trigger = END_DEPOT_EMPTY
    if g.last_round:
        if g.options & OPT_END_PHASE_PICK_COMMANDER_NEXT_PLAYER:
            g.round_commander = g.commander            # BGA passes the token first
        g.stage = ST_END_EFFECTS                       # 14.27: final round's commander
        g.order_i = 0
        if g.options & OPT_ONCE_PER_ROUND_RESET_BGA_PHASES:
            phase_powers_reset(g)                       # BGA: the end-game phase
    else:
        g.stage = ST_ROUND_START


cdef inline void stage_end_effects(Game_t* g, const Rules_t* R) noexcept nogil:
    """9.3 step 3: stored patches and end-game card advances, player by player."""
    cdef int p
    while g.order_i < g.n_players:
        p = commander_order(g, g.order_i)
        if push_end_effects(g, R, p):
            g.active = <uint8_t>p
            g.ctx = CTX_END
            open_pool(g, p)
            return
        g.order_i += 1
    g.stage = ST_END_PICKS
    g.order_i = 0


cdef inline void stage_end_picks(Game_t* g, const Rules_t* R) noexcept nogil:
    """9.3 step 4: picks created at the end, repeated until nothing is pending."""
    cdef int p
    stage_picks(g, R, ST_SCORE, CTX_END_PICKS)
    if g.stage == ST_SCORE:
        for p in range(g.n_players):
            if has_end_work(g, R, p):
                g.stage = ST_END_EFFECTS
                g.order_i = 0
                return


cdef void start_player_draft(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Make player p's draft decision pending now, p drafting first (scenario
    tests; greedy's next-tile lookahead on its copy of the game)."""
    cdef int level = find_place_level(g, R, p, depot_tile(g, R, p, 0),
                                      depot_tile(g, R, p, 1), N_LEVELS - 1)
    g.pl[p].place_level = level
    g.pl[p].can_place = level != LEVEL_NONE
    g.stage = ST_DRAFT
    g.order_i = 0
    g.round_commander = p
    g.in_pool = 0
    g.decision = D_NONE
    advance(g, R)


cdef inline bint advance_step(Game_t* g, const Rules_t* R) noexcept nogil:
    """One step of advance(); 1 when advance must stop (an anomaly finished the
    game, a pool awaits a decision, a scenario pause).  Apart so that a caller
    can look at the game between stages (the round score trace, api/batch.pxi)."""
    if g.status != STATUS_OK:
        finish_game(g, R)
        return 1
    if g.in_pool:
        if resolve_pool(g, R):
            return 1
        g.in_pool = 0
        return 0
    if g.stage == ST_ROUND_START:
        stage_round_start(g, R)
    elif g.stage == ST_OBJECTIVES:
        stage_objectives(g, R)
    elif g.stage == ST_EVENT:
        stage_event(g, R)
    elif g.stage == ST_EVENT_PLAYERS:
        stage_event_players(g, R)
    elif g.stage == ST_EVENT_CIV:
        stage_picks(g, R, ST_CHECK, CTX_CIV)
    elif g.stage == ST_CHECK:
        stage_check(g, R)
    elif g.stage == ST_DRAFT:
        stage_draft(g, R)
    elif g.stage == ST_CIV:
        stage_picks(g, R, ST_END_ROUND, CTX_CIV)
    elif g.stage == ST_END_ROUND:
        stage_end_round(g, R)
    elif g.stage == ST_END_EFFECTS:
        stage_end_effects(g, R)
    elif g.stage == ST_END_PICKS:
        stage_end_picks(g, R)
    elif g.stage == ST_SCORE:
        finish_game(g, R)
    elif g.stage == ST_PAUSED:
        return 1
    else:
        g.status = STATUS_NO_LEGAL_MOVE                 # unreachable stage: engine bug
    return 0


cdef void advance(Game_t* g, const Rules_t* R) noexcept nogil:
    """Run the game until a decision is pending or the game is over."""
    while g.decision == D_NONE and g.stage != ST_DONE:
        if advance_step(g, R):
            return
