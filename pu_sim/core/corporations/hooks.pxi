# The named hooks: where a corporation's board plays otherwise than the rulebook's.
#
# The engine rooms (core/engine/) never test a corporation: at each moment of the
# game (or each question of the rules) a corporation may change, they call one
# hook.  The hook dispatches on the player's corporation to the function in that
# corporation's room (core/corporations/<key>.pxi), one registration per
# corporation implementing it, and otherwise applies the standard board's rule
# (a board_* function of the engine room, or nothing).
#
# The hooks are inline switches, so the hot ones (tech, trackers, movement) cost
# what the tests they replaced cost.  A new corporation adds its room and one
# registration line in each hook it implements (docs/architecture.md).

# ==== tech ============================================================================

cdef inline int corp_tech_level(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """The tech level in force (standard: milestones at or below the tech tracker)."""
    if g.pl[p].corp == CORP_JUMP:
        return jump_tech_level(&g.pl[p])
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_tech_level(&g.pl[p], R)
    return board_tech_level(g, R, p)


cdef inline bint corp_has_tech(const Game_t* g, const Rules_t* R, int p,
                               int level) noexcept nogil:
    """Whether tech `level` is usable now (standard: reached and not suppressed)."""
    if g.pl[p].corp == CORP_JUMP:
        return jump_has_tech(&g.pl[p], level)
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_has_tech(g, R, p, level)
    if g.pl[p].corp == CORP_FLUX:
        return flux_has_tech(g, R, p, level)
    return board_has_tech(g, R, p, level)


# ==== trackers ========================================================================

cdef inline int corp_track_top(const Player_t* pl, int t) noexcept nogil:
    """The last position of tracker t (standard: 15)."""
    if pl.corp == CORP_OASIS:
        return oasis_track_top(pl, t)
    return TOP


cdef inline bint corp_at_top(const Player_t* pl, int t) noexcept nogil:
    """Whether tracker t stands on its track's top (standard: at its last position)."""
    if pl.corp == CORP_WORMHOLE:
        return wormhole_at_top(pl, t)
    return pl.track[t] >= track_top(pl, t)


cdef inline int corp_board_row(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """The board row tracker t stands on (standard: its position)."""
    if pl.corp == CORP_OASIS:
        return oasis_board_row(R, pl, t)
    return pl.track[t]


cdef inline bint corp_can_advance(const Game_t* g, const Rules_t* R, int p,
                                  int t) noexcept nogil:
    """Whether tracker t can advance (standard: below its top, or the rover tracker)."""
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_can_advance(g, R, p, t)
    if g.pl[p].corp == CORP_OASIS:
        return oasis_can_advance(g, R, p, t)
    return board_can_advance(g, R, p, t)


cdef inline bint corp_can_climb(const Game_t* g, const Rules_t* R, int p,
                                int t) noexcept nogil:
    """Whether tracker t can go up for Unionization (standard: it can advance)."""
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_can_climb(g, R, p, t)
    return can_advance(g, R, p, t)


cdef inline const int8_t* corp_track_space(const Game_t* g, const Rules_t* R, int p, int t,
                                           int pos) noexcept nogil:
    """The printed space tracker t claims at pos (standard: its board's track t)."""
    if g.pl[p].corp == CORP_FLUX:
        return flux_track_space(g, R, p, t, pos)
    if g.pl[p].corp == CORP_OASIS:
        return oasis_track_space(R, &g.pl[p], t, pos)
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_track_space(R, &g.pl[p], t, pos)
    return R.space[g.pl[p].corp][t][pos]


cdef inline int corp_next_space(const Rules_t* R, const Player_t* pl, int t,
                                int pos) noexcept nogil:
    """Where one advance from pos lands (standard: the space above)."""
    if pl.corp == CORP_COSMOS:
        return cosmos_next_space(pl, t, pos)
    if pl.corp == CORP_WORMHOLE:
        return wormhole_next_space(R, pl, t, pos)
    return pos + 1


cdef inline bint corp_advance_once(Game_t* g, const Rules_t* R, int p, int t, bint claim,
                                   bint skip_synergy) noexcept nogil:
    """Advance tracker t once; False if it could not move (standard: one space up)."""
    if g.pl[p].corp == CORP_WORMHOLE:
        return wormhole_advance_once(g, R, p, t, claim, skip_synergy)
    if g.pl[p].corp == CORP_MAKESHIFT:
        return makeshift_advance(g, R, p, t, claim, skip_synergy)
    if g.pl[p].corp == CORP_OASIS:
        return oasis_advance_once(g, R, p, t, claim, skip_synergy)
    return board_advance_once(g, R, p, t, claim, skip_synergy)


cdef inline void corp_tech_milestone(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A tech milestone was claimed (standard: nothing more)."""
    if g.pl[p].corp == CORP_FLUX:
        flux_tech_unlocked(g, p)


cdef inline void corp_civ_milestone(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A civ milestone was claimed, before its pick is owed (standard: nothing more)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        republic_civ_milestone(g, R, p)


cdef inline void corp_track_movement_gained(Game_t* g, const Rules_t* R,
                                            int p) noexcept nogil:
    """Movement printed on a track was gained (standard: nothing more)."""
    if g.pl[p].corp == CORP_MAKESHIFT:
        ms_movement_gained(g, R, p)


cdef inline int corp_regress_room(const Rules_t* R, const Player_t* pl, int t) noexcept nogil:
    """How many single steps tracker t can go down (standard: its position)."""
    if pl.corp == CORP_WORMHOLE:
        return wormhole_regress_room(R, pl, t)
    if pl.corp == CORP_MAKESHIFT:
        return ms_regress_room(pl, t)
    if pl.corp == CORP_OASIS:
        return oasis_regress_room(R, pl, t)
    if pl.corp == CORP_COSMOS:
        return cosmos_regress_room(pl, t)
    return pl.track[t]


cdef inline void corp_regress_once(const Rules_t* R, Player_t* pl, int t) noexcept nogil:
    """Tracker t goes down one step, claiming nothing (standard: one space)."""
    if pl.corp == CORP_WORMHOLE:
        wormhole_regress_once(R, pl, t)
    elif pl.corp == CORP_COSMOS:
        cosmos_regress_once(pl, t)
    else:
        pl.track[t] -= 1


cdef inline int corp_track_medals(const Game_t* g, const Rules_t* R, int p,
                                  int t) noexcept nogil:
    """Medals tracker t scores (standard: the highest at or below it)."""
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_medal(&g.pl[p], R, t)
    if g.pl[p].corp == CORP_OASIS:
        return oasis_track_medals(g, R, p, t)
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_medal(g, R, p, t)
    return board_track_medals(g, R, p, t)


# ==== track choices ===================================================================

cdef inline int corp_track_options(const Game_t* g, const Rules_t* R, int p,
                                   const Item_t* it) noexcept nogil:
    """Tracks a corporation's own track-choosing item may take (standard: none)."""
    if g.pl[p].corp == CORP_JUMP:
        return jump_track_options(g, p, it)
    return 0


cdef inline void corp_track_choice(Game_t* g, const Rules_t* R, int p, Item_t it,
                                   int t) noexcept nogil:
    """Carry out a corporation's own track-choosing item on track t."""
    if g.pl[p].corp == CORP_JUMP:
        jump_track_choice(g, R, p, it, t)


cdef inline bint corp_synergy_twice(const Game_t* g, int p, const Item_t* it) noexcept nogil:
    """Whether the synergy boost `it` may be taken twice now (standard: never)."""
    if g.pl[p].corp == CORP_JUMP:
        return jump_synergy_twice(g, p, it)
    return False


cdef inline void corp_synergy_doubled(Game_t* g, int p) noexcept nogil:
    """A synergy boost is being taken twice."""
    if g.pl[p].corp == CORP_JUMP:
        jump_synergy_doubled(g, p)


# ==== movement ========================================================================

cdef inline int corp_track_movement_bonus(const Game_t* g, const Rules_t* R,
                                          int p) noexcept nogil:
    """Movement added to each rover-track movement gain (standard: none)."""
    if g.pl[p].corp == CORP_UC:
        return uc_track_movement_bonus(g, R, p)
    return 0


cdef inline int corp_card_movement_bonus(const Game_t* g, const Rules_t* R,
                                         int p) noexcept nogil:
    """Movement added to each civ card or event movement gain (standard: none)."""
    if g.pl[p].corp == CORP_FLUX:
        return flux_movement_bonus(g, R, p)
    return 0


cdef inline int corp_conditional_movement(const Player_t* pl) noexcept nogil:
    """Conditional movement spendable now, spent first (standard: none)."""
    if pl.corp == CORP_MAKESHIFT:
        return ms_conditional_movement(pl)
    return 0


# ==== tiles ===========================================================================

cdef inline bint corp_ignores_adjacency(const Game_t* g, const Rules_t* R,
                                        int p) noexcept nogil:
    """Whether tiles need not touch earlier tiles (standard: they must, PL-4)."""
    if g.pl[p].corp == CORP_UC:
        return uc_ignores_adjacency(g, R, p)
    return False


cdef inline int corp_rover_tiles_exempt(const Game_t* g, const Rules_t* R,
                                        int p) noexcept nogil:
    """Which checks tiles with rover terrain skip (ROVER_TILES_*; standard: none)."""
    if g.pl[p].corp == CORP_HORIZON:
        return horizon_rover_tiles_exempt(g, R, p)
    return ROVER_TILES_CHECKED


cdef inline int corp_draft_option(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """An optional power offered before a draft placement (OPTION_*; standard: 0)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        return republic_draft_option(g, R, p)
    return 0


cdef inline void corp_tile_taken(Game_t* g, const Rules_t* R, int p, int tile) noexcept nogil:
    """A tile was taken from the depot, before it is placed (standard: nothing)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        republic_tile_taken(g, R, p, tile)


cdef inline bint corp_no_meteorites(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Whether tiles place no meteorites (standard: they do, ME-1)."""
    if g.pl[p].corp == CORP_UC:
        return uc_no_meteorites(g, R, p)
    return False


cdef inline bint corp_doubles_water(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Whether a tile's water on ice advances twice (standard: once, WA-1)."""
    if g.pl[p].corp == CORP_UC:
        return uc_doubles_water(g, R, p)
    return False


cdef inline void corp_tile_resource(const Game_t* g, const Rules_t* R, int p, int tile,
                                    int terrain, const uint16_t* part, const uint16_t* other,
                                    Item_t* res) noexcept nogil:
    """Change the resolution (RS-1) of the placed tile's `terrain` part, if need be."""
    if g.pl[p].corp == CORP_OASIS:
        oasis_tile_resource(g, R, p, terrain, part, res)
    elif g.pl[p].corp == CORP_WORMHOLE:
        wormhole_tile_resource(g, R, p, tile, terrain, part, other, res)
    elif g.pl[p].corp == CORP_JUMP:
        jump_tile_resource(g, R, p, tile, terrain, part, other, res)


cdef inline void corp_tile_placed(Game_t* g, const Rules_t* R, int p, int tile,
                                  const uint16_t* foot) noexcept nogil:
    """A tile was placed and its resources queued (standard: nothing more)."""
    if g.pl[p].corp == CORP_COSMOS:
        cosmos_tile_placed(g, R, p, tile)
    elif g.pl[p].corp == CORP_FLUX:
        flux_tile_placed(g, R, p, tile)
    elif g.pl[p].corp == CORP_OASIS:
        oasis_tile_placed(g, R, p, tile, foot)


# ==== biomass patches =================================================================

cdef inline void corp_patch_squares(const Game_t* g, const Rules_t* R, int p,
                                    uint16_t* out) noexcept nogil:
    """Add squares a patch may cover besides free grid squares (standard: none)."""
    if g.pl[p].corp == CORP_WORMHOLE:
        wormhole_patch_squares(g, R, p, out)


cdef inline int corp_patch_option(const Game_t* g, const Rules_t* R, int p,
                                  const Item_t* it) noexcept nogil:
    """An optional power offered as a patch is gained (OPTION_*; standard: 0)."""
    if g.pl[p].corp == CORP_JUMP:
        return jump_patch_option(g, R, p, it)
    if g.pl[p].corp == CORP_WORMHOLE:
        return wormhole_patch_option(g, R, p, it)
    return 0


cdef inline bint corp_stores_patches(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Whether a patch may be kept for the end of the game (standard: no, BI-2)."""
    if g.pl[p].corp == CORP_UC:
        return uc_stores_patches(g, R, p)
    if g.pl[p].corp == CORP_WORMHOLE:
        return wormhole_stores_patches(g, R, p)
    return False


# ==== rovers and collections ==========================================================

cdef inline void corp_rover_entered(Game_t* g, const Rules_t* R, int p, int fx, int fy,
                                    int x, int y, bint carried, bint stepped) noexcept nogil:
    """A rover entered (x, y) from (fx, fy) (standard: it collects there, RV-4)."""
    if g.pl[p].corp == CORP_HORIZON:
        horizon_enter(g, R, p, fx, fy, x, y, carried, stepped)
    else:
        collect_at(g, R, p, x, y)


cdef inline bint corp_rover_diagonals(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Whether rovers may also step diagonally now (standard: no, RV-3)."""
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_diagonal(g, R, p)
    return False


cdef inline bint corp_diagonal_reach(const Rules_t* R, const Player_t* pl) noexcept nogil:
    """Whether the bots' rover distances count diagonal steps (standard: no)."""
    if pl.corp == CORP_COSMOS:
        return cosmos_diagonal_reach(R, pl)
    return False


cdef inline int corp_rover_jumps(const Game_t* g, const Rules_t* R, int p, int r,
                                 uint32_t* out) noexcept nogil:
    """Write rover r's moves other than steps; returns how many (standard: none)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        return republic_jumps(g, R, p, r, out)
    if g.pl[p].corp == CORP_JUMP:
        return jump_teleports(g, R, p, r, out)
    return 0


cdef inline bint corp_step_is_free(const Game_t* g, const Rules_t* R, int p, int x,
                                   int y) noexcept nogil:
    """Whether entering (x, y) costs no movement (standard: it costs 1)."""
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_step_free(g, R, p, x, y)
    return False


cdef inline void corp_rover_moved(Game_t* g, int p, int fx, int fy, int x, int y) noexcept nogil:
    """A rover is moving from (fx, fy) to (x, y) with movement (standard: nothing)."""
    if g.pl[p].corp == CORP_JUMP:
        jump_rover_moved(g, p, fx, fy, x, y)


cdef inline void corp_lifepod_collected(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A lifepod joined the collection (standard: it scores, nothing more)."""
    if g.pl[p].corp == CORP_COSMOS:
        cosmos_lifepod_collected(g, p)
    elif g.pl[p].corp == CORP_JUMP:
        jump_lifepod_collected(g, p)


cdef inline void corp_meteorite_collected(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """A meteorite joined the collection (standard: nothing more)."""
    if g.pl[p].corp == CORP_HORIZON:
        horizon_meteorite_collected(g, R, p)


cdef inline bint corp_collected_lifepod_lost(Game_t* g, int p) noexcept nogil:
    """Event 114 takes a collected lifepod: True if the corporation handles it."""
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_collected_lifepod_lost(g, p)
    return False


# ==== the pool and the corporations' own decisions ====================================

cdef inline int corp_urgent_item(const Player_t* pl) noexcept nogil:
    """A pool item that resolves before the player chooses, or -1 (standard: none)."""
    if pl.corp == CORP_MAKESHIFT:
        return ms_step_item(pl)
    return -1


cdef inline void corp_begin_item(Game_t* g, const Rules_t* R, int p, Item_t it) noexcept nogil:
    """Start a pool item of the corporation's own kind (IT_*)."""
    if g.pl[p].corp == CORP_COSMOS:
        cosmos_begin_item(g, R, p, it)
    elif g.pl[p].corp == CORP_JUMP:
        jump_begin_item(g, R, p, it)
    elif g.pl[p].corp == CORP_WORMHOLE:
        wormhole_begin_item(g, R, p, it)
    elif g.pl[p].corp == CORP_FLUX:
        flux_begin_item(g, R, p, it)
    elif g.pl[p].corp == CORP_MAKESHIFT:
        ms_begin_item(g, R, p, it)


cdef inline int corp_legal_moves(const Game_t* g, const Rules_t* R, int p, int d,
                                 uint32_t* out) noexcept nogil:
    """Write the legal moves of the corporation's own decision d; returns how many."""
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_legal_moves(g, p, d, out)
    if g.pl[p].corp == CORP_JUMP:
        return jump_legal_moves(g, p, d, out)
    if g.pl[p].corp == CORP_WORMHOLE:
        return wormhole_legal_moves(d, out)
    if g.pl[p].corp == CORP_FLUX:
        return flux_legal_moves(d, out)
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_legal_moves(g, R, p, d, out)
    return 0


cdef inline void corp_apply_move(Game_t* g, const Rules_t* R, int p, int d,
                                 uint32_t mv) noexcept nogil:
    """Carry out move mv of the corporation's own decision d."""
    if g.pl[p].corp == CORP_COSMOS:
        cosmos_apply_move(g, p, d, mv)
    elif g.pl[p].corp == CORP_JUMP:
        jump_apply_move(g, p, d, mv)
    elif g.pl[p].corp == CORP_WORMHOLE:
        wormhole_apply_move(g, R, p, d, mv)
    elif g.pl[p].corp == CORP_FLUX:
        flux_apply_move(g, p, d, mv)
    elif g.pl[p].corp == CORP_MAKESHIFT:
        ms_apply_move(g, R, p, d, mv)


cdef inline void corp_option_answer(Game_t* g, const Rules_t* R, int p, Item_t it,
                                    bint yes) noexcept nogil:
    """The player's answer to an optional triggered power (D_YES_NO)."""
    if g.pl[p].corp == CORP_HORIZON:
        horizon_option_answer(g, R, p, it, yes)
    elif g.pl[p].corp == CORP_REPUBLIC:
        republic_option_answer(g, R, p, it, yes)
    elif g.pl[p].corp == CORP_WORMHOLE:
        wormhole_option_answer(g, R, p, it, yes)
    elif g.pl[p].corp == CORP_JUMP:
        jump_option_answer(g, p, it, yes)


# ==== activated powers ================================================================

cdef inline int corp_choice_powers(const Player_t* pl) noexcept nogil:
    """Round-start techs also offered as powers (bit = level; standard: none)."""
    if pl.corp == CORP_FLUX:
        return FLUX_CHOICE_POWERS
    if pl.corp == CORP_OASIS:
        return OASIS_CHOICE_POWERS
    return 0


cdef inline bint corp_power_available(const Game_t* g, const Rules_t* R, int p,
                                      int level) noexcept nogil:
    """Whether an unlocked, unused power would do something now (standard: no)."""
    if g.pl[p].corp == CORP_HORIZON:
        return horizon_power_available(g, R, p, level)
    if g.pl[p].corp == CORP_COSMOS:
        return cosmos_power_available(g, R, p, level)
    if g.pl[p].corp == CORP_WORMHOLE:
        return wormhole_power_available(g, R, p, level)
    if g.pl[p].corp == CORP_JUMP:
        return jump_power_available(g, R, p, level)
    if g.pl[p].corp == CORP_FLUX:
        return flux_power_available(g, R, p, level)
    if g.pl[p].corp == CORP_OASIS:
        return oasis_power_available(g, R, p, level)
    if g.pl[p].corp == CORP_MAKESHIFT:
        return ms_power_available(g, R, p, level)
    return False


cdef inline void corp_use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Carry out an activated power: its effects join the pool."""
    if g.pl[p].corp == CORP_HORIZON:
        horizon_use_power(g, R, p, level)
    elif g.pl[p].corp == CORP_COSMOS:
        cosmos_use_power(g, R, p, level)
    elif g.pl[p].corp == CORP_WORMHOLE:
        wormhole_use_power(g, R, p, level)
    elif g.pl[p].corp == CORP_JUMP:
        jump_use_power(g, R, p, level)
    elif g.pl[p].corp == CORP_FLUX:
        flux_use_power(g, R, p, level)
    elif g.pl[p].corp == CORP_OASIS:
        oasis_use_power(g, R, p, level)
    elif g.pl[p].corp == CORP_MAKESHIFT:
        ms_use_power(g, R, p, level)


# ==== round, civ picks, end of the game ===============================================

cdef inline void corp_tile_phase_start(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """The tile phase starts, after the round's event: round-start techs (G2)."""
    if g.pl[p].corp == CORP_HORIZON:
        horizon_round_income(g, R, p)
    elif g.pl[p].corp == CORP_FLUX:
        flux_round_start(g, R, p)
    elif g.pl[p].corp == CORP_OASIS:
        oasis_round_income(g, R, p)


cdef inline void corp_pick_prepared(Game_t* g, const Rules_t* R, int p, int rank) noexcept nogil:
    """A civ pick of `rank` is being offered (standard: its pile only)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        republic_pick_prepared(g, R, p, rank)


cdef inline bint corp_end_work_due(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Whether the corporation still has end-phase work (9.3; standard: none)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        return republic_end_cards_due(g, R, p)
    return False


cdef inline void corp_end_effects(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """The end phase's effects of player p start (9.3; standard: none)."""
    if g.pl[p].corp == CORP_REPUBLIC:
        republic_end_effects(g, R, p)


cdef inline void corp_score_objectives(Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Objective cards are scored (9.4 E/F): the corporation's own (standard: none)."""
    if g.pl[p].corp == CORP_JUMP:
        jump_score_objectives(g, R, p)
