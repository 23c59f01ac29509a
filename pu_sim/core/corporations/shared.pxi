# What the corporation boards share (corporations.md 2.9, 2.10): activated powers,
# optional triggered powers, round-start resets and the movement budgets.
#
# A corporation's own rules live in its room (core/corporations/<key>.pxi), reached
# through the hooks (hooks.pxi).  Activated powers ("once per round", "once per
# game", usable at any time of the player's own turn) are offered as D_POWER
# whenever the player's pool runs empty, and among the D_ORDER choices while it
# is not.

cdef enum:
    MV_POWER = 0x200            # D_ORDER: MV_POWER + tech level uses that power

# Optional triggered powers (IT_OPTION.a, then Game_t.item.a of D_YES_NO); rule:
# OPTION_ + the label pu_sim.game describes the yes/no question by
cpdef enum TriggeredOption:
    OPTION_HORIZON_DESTROY = 1  # Horizon tech 4: destroy the carried meteorite (a, b: square)
    OPTION_REPUBLIC_CIV_FIRST = 2  # Republic tech 1: select a civ tile, move, then place
    OPTION_WORMHOLE_DOUBLE = 3     # Wormhole tech 3: this patch gain gives two
    OPTION_JUMP_PATCH_SWAP = 4     # Jump Drive tech A: this patch becomes a synergy


# ==== movement ======================================================================

cdef inline int movement_left(const Player_t* pl) noexcept nogil:
    """Rover movement the player may still spend now: this turn's and this round's
    (and the corporation's conditional points, Player_t.cond_move, when they apply)."""
    return pl.move_budget + pl.round_move + corp_conditional_movement(pl)


cdef inline void spend_movement(Player_t* pl, int n) noexcept nogil:
    """Spend the most restricted points first: the conditional ones, then the turn's
    budget (it lapses with the turn), then the round's."""
    cdef int k = corp_conditional_movement(pl)
    if k > 0:
        k = n if n <= k else k
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
    g.pl[p].move_budget += n + corp_card_movement_bonus(g, R, p)


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
    if not (R.tech_activated[pl.corp][level] or (corp_choice_powers(pl) >> level) & 1):
        return False
    if not has_tech(g, R, p, level):
        return False
    if not power_unused(pl, R, level):
        return False
    return corp_power_available(g, R, p, level)


cdef int gen_powers(const Game_t* g, const Rules_t* R, int p, uint32_t* out,
                    uint32_t base) noexcept nogil:
    """Append every available power as base + level; returns how many."""
    cdef int level, n = 0
    if not (R.corp_has_powers[g.pl[p].corp] or corp_choice_powers(&g.pl[p])):
        return 0
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
    corp_use_power(g, R, p, level)


# ==== triggered options ===================================================================

cdef inline void offer_option(Game_t* g, int p, int option) noexcept nogil:
    """Ask player p whether to use an optional triggered power (D_YES_NO)."""
    g.item.kind = IT_OPTION
    g.item.a = <uint8_t>option
    set_decision(g, D_YES_NO, p)


# ==== lifepods on the board ===============================================================

cdef inline int scoring_lifepods(const Player_t* pl) noexcept nogil:
    """Collected lifepods in the scoring area (not on Cosmos tracks or Jump Drive slots)."""
    return pl.lifepods_collected - pl.pods_on_tracks - pl.pods_on_slots


# ==== round flow ===========================================================================

cdef inline void open_pool(Game_t* g, int p) noexcept nogil:
    """Player p starts resolving their pool: their powers may be offered again."""
    g.in_pool = 1
    g.pl[p].power_declined = 0
    g.pl[p].stop_moving = 0


cdef inline void phase_powers_reset(Game_t* g) noexcept nogil:
    """BGA also gives once-per-round powers back in its civ and end-game phases."""
    cdef int p
    for p in range(g.n_players):
        g.pl[p].used_round = 0


cdef void round_start_reset(Game_t* g) noexcept nogil:
    """Once-per-round powers come back; last round's round movement is gone (G3)."""
    cdef int p
    for p in range(g.n_players):
        g.pl[p].used_round = 0
        g.pl[p].round_move = 0
