# Core bots: a seat's bot is a kind plus a parameter vector (DESIGN 4.6).
#
# Bots see the game state and the legal moves of the pending decision and
# return an index into the moves.  Their randomness comes from the game's own
# generator, so a bot's play is reproducible from the game's seed.

cdef inline int random_choose(Game_t* g, const Rules_t* R, const uint32_t* moves,
                              int n) noexcept nogil:
    """Uniform over the legal moves."""
    return <int>rng_below(&g.rng, <uint32_t>n)


cdef int bot_choose(Game_t* g, const Rules_t* R, const TableSpec* spec,
                    SearchScratch* scratch, const uint32_t* moves, int n) noexcept nogil:
    """Ask the deciding player's bot for the index of a legal move.

    `scratch` holds the search and policy bots' buffers (NULL when no seat
    needs them: spec_needs_scratch).
    """
    cdef int kind = g.pl[g.decider].bot_kind
    cdef const double* params = spec.bot_params[g.decider]
    if kind == BOT_GREEDY:
        return greedy_choose(g, R, params, moves, n)
    if kind == BOT_SEARCH:
        return search_choose(g, R, spec, scratch, moves, n)
    if kind == BOT_POLICY and scratch != NULL:
        return policy_choose(g, R, params, &scratch.policy, moves, n)
    return random_choose(g, R, moves, n)
