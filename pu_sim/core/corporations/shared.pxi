# What the corporation boards share (corporations.md 2.9, 2.10): tech levels,
# activated powers, round-start income and the two movement budgets.
#
# A corporation's own rules live in its room (_corp_<name>.pxi); this room
# dispatches to them.  Activated powers ("once per round", "once per game",
# usable at any time of the player's own turn) are offered as D_POWER whenever
# the player's pool runs empty, and among the D_ORDER choices while it is not.

cdef enum:
    MV_POWER = 0x200            # D_ORDER: MV_POWER + tech level uses that power

# Optional triggered powers (IT_OPTION.a, then Game_t.item.a of D_YES_NO); rule:
# OPTION_ + the label pu_sim.game describes the yes/no question by
cpdef enum TriggeredOption:
    OPTION_HORIZON_DESTROY = 1  # Horizon tech 4: destroy the carried meteorite (a, b: square)
    OPTION_REPUBLIC_CIV_FIRST = 2  # Republic tech 1: select a civ tile, move, then place
    OPTION_WORMHOLE_DOUBLE = 3     # Wormhole tech 3: this patch gain gives two
    OPTION_JUMP_PATCH_SWAP = 4     # Jump Drive tech A: this patch becomes a synergy


# ==== tech levels ==================================================================

cdef inline int board_tech_level(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Tech milestones at or below the tech tracker (standard boards, TE-1)."""
    return R.tech_level_at[g.pl[p].corp][g.pl[p].track[TECH]]


# ==== movement ======================================================================

cdef inline int movement_left(const Player_t* pl) noexcept nogil:
    """Rover movement the player may still spend now: this turn's and this round's
    (and Makeshift's conditional points while two trackers are on the rover column)."""
    cdef int n = pl.move_budget + pl.round_move
    if pl.cond_move > 0 and ms_rover_column(pl) >= 2:
        n += pl.cond_move
    return n


cdef inline void spend_movement(Player_t* pl, int n) noexcept nogil:
    """Spend the most restricted points first: Makeshift's conditional ones, then the
    turn's budget (it lapses with the turn), then the round's."""
    cdef int k
    if pl.cond_move > 0 and ms_rover_column(pl) >= 2:
        k = n if n <= pl.cond_move else pl.cond_move
        pl.cond_move -= k
        n -= k
    k = n if n <= pl.move_budget else pl.move_budget
    if k > 0:
        pl.move_budget -= k
        n -= k
    pl.round_move -= n


cdef inline void gain_track_movement(Game_t* g, const Rules_t* R, int p, int n) noexcept nogil:
    """Movement printed on the rover track (RV-2): the tech bonuses apply."""
    g.pl[p].move_budget += n + tech_move_bonus(g, R, p)


cdef inline void gain_card_movement(Game_t* g, const Rules_t* R, int p, int n) noexcept nogil:
    """Movement from civ cards and events: no rover-track bonus (cards.md A3)."""
    g.pl[p].move_budget += n + flux_movement_bonus(g, R, p)


# ==== activated powers ==================================================================

cdef inline bint power_unused(const Player_t* pl, const Rules_t* R, int level) noexcept nogil:
    """Its use limit allows another use (once per round / once per game)."""
    if R.tech_limit[pl.corp][level] == LIMIT_ONCE_PER_ROUND:
        return not (pl.used_round >> level) & 1
    if R.tech_limit[pl.corp][level] == LIMIT_ONCE_PER_GAME:
        return not (pl.used_game >> level) & 1
    return True


cdef inline void mark_power_used(Player_t* pl, const Rules_t* R, int level) noexcept nogil:
    if R.tech_limit[pl.corp][level] == LIMIT_ONCE_PER_ROUND:
        pl.used_round |= <uint8_t>(1 << level)
    elif R.tech_limit[pl.corp][level] == LIMIT_ONCE_PER_GAME:
        pl.used_game |= <uint8_t>(1 << level)


cdef bint power_available(const Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """An activated power the player may use now, and which would do something."""
    cdef const Player_t* pl = &g.pl[p]
    # Flux tech 1 (F1) and, as BGA, Oasis tech 2 are round-start techs used by choice
    if not (R.tech_activated[pl.corp][level] or (pl.corp == CORP_FLUX and level == 1)
            or (pl.corp == CORP_OASIS and level == 2)):
        return False
    if not has_tech(g, R, p, level):
        return False
    if not power_unused(pl, R, level):
        return False
    if pl.corp == CORP_HORIZON:
        return horizon_power_available(g, R, p, level)
    if pl.corp == CORP_COSMOS:
        return cosmos_power_available(g, R, p, level)
    if pl.corp == CORP_WORMHOLE:
        return wormhole_power_available(g, R, p, level)
    if pl.corp == CORP_JUMP:
        return jump_power_available(g, R, p, level)
    if pl.corp == CORP_FLUX:
        return flux_power_available(g, R, p, level)
    if pl.corp == CORP_OASIS:
        return oasis_power_available(g, R, p, level)
    if pl.corp == CORP_MAKESHIFT:
        return ms_power_available(g, R, p, level)
    return False


cdef int gen_powers(const Game_t* g, const Rules_t* R, int p, uint32_t* out,
                    uint32_t base) noexcept nogil:
    """Append every available power as base + level; returns how many."""
    cdef int level, n = 0
    if not (R.corp_has_powers[g.pl[p].corp] or g.pl[p].corp == CORP_OASIS):
        return 0                                     # (Oasis: tech 2 as BGA, above)
    for level in range(1, MAX_TECH + 1):
        if power_available(g, R, p, level):
            out[n] = base + <uint32_t>level
            n += 1
    return n


cdef inline bint any_power(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    cdef uint32_t buf[MAX_TECH]
    return gen_powers(g, R, p, buf, 0) > 0


cdef void use_power(Game_t* g, const Rules_t* R, int p, int level) noexcept nogil:
    """Carry out an activated power: its effects join the pool."""
    mark_power_used(&g.pl[p], R, level)
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


# ==== triggered options ===================================================================

cdef void apply_option(Game_t* g, const Rules_t* R, int p, Item_t it, bint yes) noexcept nogil:
    """The answer to an optional triggered power (D_YES_NO)."""
    if it.a == OPTION_HORIZON_DESTROY:
        horizon_destroy_answer(g, R, p, it, yes)
    elif it.a == OPTION_REPUBLIC_CIV_FIRST:
        republic_civ_first_answer(g, R, p, yes)
    elif it.a == OPTION_WORMHOLE_DOUBLE:
        wormhole_double_answer(g, R, p, yes)
    elif it.a == OPTION_JUMP_PATCH_SWAP:
        jump_patch_swap_answer(g, p, yes)


# ==== round flow ===========================================================================

cdef inline void open_pool(Game_t* g, int p) noexcept nogil:
    """Player p starts resolving their pool: their powers may be offered again."""
    g.in_pool = 1
    g.pl[p].power_declined = 0
    g.pl[p].stop_moving = 0


cdef inline void corp_phase_reset(Game_t* g) noexcept nogil:
    """BGA also gives once-per-round powers back in its civ and end-game phases."""
    cdef int p
    for p in range(g.n_players):
        g.pl[p].used_round = 0


cdef void corp_round_start(Game_t* g, const Rules_t* R) noexcept nogil:
    """Once-per-round powers come back; last round's round movement is gone (G3)."""
    cdef int p
    for p in range(g.n_players):
        g.pl[p].used_round = 0
        g.pl[p].round_move = 0


cdef void corp_tile_phase_start(Game_t* g, const Rules_t* R) noexcept nogil:
    """'At the start of each round' techs, after the round's event (G2)."""
    cdef int p
    for p in range(g.n_players):
        if g.pl[p].corp == CORP_HORIZON:
            horizon_round_income(g, R, p)
        elif g.pl[p].corp == CORP_FLUX:
            flux_round_start(g, R, p)
        elif g.pl[p].corp == CORP_OASIS:
            oasis_round_income(g, R, p)
