# Setting up games from a table spec and playing whole batches without the GIL.

cdef extern from "string.h" nogil:
    void* memset(void* s, int c, size_t n)

from libc.stdlib cimport malloc, free


cdef packed struct SeatRecord:
    uint64_t game_id
    uint8_t seat
    uint8_t n_players
    uint8_t corporation
    uint8_t planet
    uint8_t bot
    int16_t score
    uint8_t rank
    uint8_t won
    int16_t score_planet
    int16_t score_tracks
    int16_t score_lifepods
    int16_t score_meteorites
    int16_t score_civ
    int16_t score_objectives
    uint8_t rounds
    uint8_t status
    uint8_t end_trigger
    uint8_t track_civ
    uint8_t track_water
    uint8_t track_biomass
    uint8_t track_rover
    uint8_t track_tech
    uint8_t tech_level
    uint8_t tiles_placed
    uint8_t tiles_unplaced
    uint8_t tile_squares
    uint8_t uncovered
    uint8_t rows_complete
    uint8_t cols_complete
    uint8_t lifepods_collected
    uint8_t lifepods_lost
    uint8_t lifepods_left
    uint8_t meteorites_placed
    uint8_t meteorites_collected
    uint8_t meteorites_left
    uint8_t meteorites_destroyed
    uint8_t rovers_lost
    uint8_t patches_placed
    uint8_t patches_lost
    uint8_t civ_cards
    uint16_t decisions
    uint8_t deck_green
    uint8_t deck_orange
    uint8_t deck_red
    uint8_t events_revealed
    int16_t score_private
    int16_t score_neighbour
    uint32_t private_cards
    uint32_t private_met
    uint32_t neighbour_cards
    int16_t score_planet_bonus           # part of score_planet: cities, sub-planets
    uint8_t placements_relaxed           # draft placements with planet rules dropped
    uint8_t waiver_used                  # Lacuna/Oblivion adjacency waiver spent
    uint8_t lifepods_on_board            # collected but on Cosmos tracks / Jump Drive slots
    uint8_t patches_on_tiles             # Wormhole: patches laid over tile squares


cdef inline int draw_from_pool(Rng_t* rng, uint32_t pool) noexcept nogil:
    """Uniform member of a bit set, or -1 if it is empty."""
    cdef int n = popcount16(<uint16_t>pool), k, i
    if n == 0:
        return -1
    k = <int>rng_below(rng, <uint32_t>n)
    for i in range(16):
        if (pool >> i) & 1:
            if k == 0:
                return i
            k -= 1
    return -1


cdef void game_init(Game_t* g, const Rules_t* R, const TableSpec* spec, uint64_t k0,
                    uint64_t k1, uint64_t game_index) noexcept nogil:
    """Deal a game: seats, boards, station, civ piles (rules.md section 3).

    Everything random at setup comes from the setup stream of the game's group,
    so a paired design replays it with the boards rotated over the seats; bot
    choices come from the game's own play stream.
    """
    cdef int n = spec.n_players, p, c, k, shift_seats
    cdef uint32_t used_corps = 0, used_planets = 0, pool
    cdef uint8_t corps[MAX_PLAYERS]
    cdef uint8_t planets[MAX_PLAYERS]
    cdef Player_t* pl
    cdef uint64_t group = game_index // spec.group_size
    memset(g, 0, sizeof(Game_t))
    g.n_players = <uint8_t>n
    g.options = spec.options
    for p in range(N_STACKS):
        g.stack_shape[p] = spec.stack_shape[p]
    rng_seed(&g.rng, k0, k1, group, STREAM_SETUP)
    for p in range(n):
        pool = spec.corp_pool[p]
        if spec.unique_asymmetric:
            pool &= ~used_corps
        c = draw_from_pool(&g.rng, pool)
        pool = spec.planet_pool[p]
        if spec.unique_asymmetric:
            pool &= ~used_planets
        k = draw_from_pool(&g.rng, pool)
        if c < 0 or k < 0:
            g.status = STATUS_BAD_SETUP
            c = 0 if c < 0 else c
            k = 0 if k < 0 else k
        if c != 0:
            used_corps |= 1u << c                 # the symmetric side exists on every board
        if k != 0:
            used_planets |= 1u << k
        corps[p] = <uint8_t>c
        planets[p] = <uint8_t>k
    station_setup(g, R)
    g.shift = <uint8_t>(spec.shift if spec.shift >= 0 else rng_below(&g.rng, 6))
    g.rotation = <uint8_t>(spec.rotation if spec.rotation >= 0 else rng_below(&g.rng, 6))
    civ_setup(g, R)
    if spec.neighbour_objectives or spec.private_module or n == 1:
        objectives_setup(g, R, spec)
    if spec.events_on:
        deck_setup(g, R, spec)
    shift_seats = <int>(game_index % spec.group_size) % n
    for p in range(n):
        pl = &g.pl[p]
        pl.corp = corps[(p + shift_seats) % n]
        pl.planet = planets[(p + shift_seats) % n]
        pl.bot_kind = spec.bot_kind[p]
        pl.seat_pos = R.seat_pos[n - 1][p]
        pl.extra_obj = NO_CARD
        pl.flux_track = -1
        for c in range(N_TRACKS):
            pl.col[c] = <int8_t>c                      # every tracker on its own track
        grid_copy(pl.lifepod, R.pmask[pl.planet][PM_LIFEPOD])
        for c in range(R.corp_rovers[pl.corp]):
            pl.rover_status[c] = RV_SUPPLY
    g.commander = 0                                     # ST-10: the first player
    g.stage = ST_OBJECTIVES
    g.round_rule = RR_NONE
    rng_seed(&g.rng, k0, k1, game_index, STREAM_PLAY)


# The round score trace: each seat's score after every round, counted as if the
# game ended then (analysis/feel.py ROUND_SCORE_SCHEMA).  A round is over when the
# game reaches the next round's start; its scores are taken on a copy of the game,
# so play is untouched.  The last round's are the final scores.

cdef struct RoundTrace:
    Game_t copy                     # scored in place of the game
    int16_t* scores                 # MAX_ROUNDS x n_players, ROUND_UNPLAYED where unplayed
    int traced                      # rounds written so far


cdef enum:
    ROUND_UNPLAYED = -32768         # a round the game did not play


cdef void trace_start(RoundTrace* trace, int16_t* scores, int n_players) noexcept nogil:
    cdef int k
    trace.scores = scores
    trace.traced = 0
    for k in range(MAX_ROUNDS * n_players):
        scores[k] = ROUND_UNPLAYED


cdef inline void trace_round(const Game_t* g, const Rules_t* R,
                             RoundTrace* trace) noexcept nogil:
    """Round g.round is over: score a copy of the game as if it ended now."""
    cdef int p
    memcpy(&trace.copy, g, sizeof(Game_t))
    score_game(&trace.copy, R)
    for p in range(g.n_players):
        trace.scores[(g.round - 1) * g.n_players + p] = trace.copy.pl[p].score
    trace.traced = g.round


cdef void trace_final(const Game_t* g, RoundTrace* trace) noexcept nogil:
    """The game's last round: its final scores."""
    cdef int p
    if g.round < 1 or g.round > MAX_ROUNDS:
        return
    for p in range(g.n_players):
        trace.scores[(g.round - 1) * g.n_players + p] = g.pl[p].score
    trace.traced = g.round


cdef void advance_traced(Game_t* g, const Rules_t* R, RoundTrace* trace) noexcept nogil:
    """advance(), stopping at each round's end to trace it when `trace` is set."""
    if trace == NULL:
        advance(g, R)
        return
    while g.decision == D_NONE and g.stage != ST_DONE:
        if (g.stage == ST_ROUND_START and not g.in_pool and g.status == STATUS_OK
                and 1 <= g.round <= MAX_ROUNDS and trace.traced < g.round):
            trace_round(g, R, trace)
        if advance_step(g, R):
            return


cdef void write_records(const Game_t* g, const Rules_t* R, const TableSpec* spec,
                        uint64_t game_index, SeatRecord* out) noexcept nogil:
    """One output row per seat."""
    cdef int p, k
    cdef const Player_t* pl
    cdef SeatRecord* r
    for p in range(g.n_players):
        pl = &g.pl[p]
        r = &out[p]
        r.game_id = game_index
        r.seat = <uint8_t>p
        r.n_players = g.n_players
        r.corporation = pl.corp
        r.planet = pl.planet
        r.bot = spec.bot_label[p]
        r.score = pl.score
        r.rank = pl.rank
        r.won = pl.rank == 1
        r.score_planet = pl.s_planet
        r.score_tracks = pl.s_tracks
        r.score_lifepods = pl.s_lifepods
        r.score_meteorites = pl.s_meteorites
        r.score_civ = pl.s_civ
        r.score_objectives = pl.s_objectives
        r.rounds = g.round
        r.status = g.status
        r.end_trigger = g.end_trigger
        r.track_civ = pl.track[CIV]
        r.track_water = pl.track[WATER]
        r.track_biomass = pl.track[BIOMASS]
        r.track_rover = pl.track[ROVER]
        r.track_tech = pl.track[TECH]
        r.tech_level = <uint8_t>tech_level(g, R, p)
        r.tiles_placed = pl.tiles_placed
        r.tiles_unplaced = pl.tiles_unplaced
        r.tile_squares = pl.tile_squares
        r.uncovered = pl.uncovered
        r.rows_complete = pl.rows_done
        r.cols_complete = pl.cols_done
        r.lifepods_collected = pl.lifepods_collected
        r.lifepods_lost = pl.lifepods_lost
        r.lifepods_left = <uint8_t>grid_count(pl.lifepod)
        r.meteorites_placed = pl.meteorites_placed
        r.meteorites_collected = pl.meteorites_collected
        r.meteorites_left = pl.meteorites_left
        r.meteorites_destroyed = pl.meteorites_destroyed
        r.rovers_lost = pl.rovers_lost
        r.patches_placed = pl.patches_placed
        r.patches_lost = pl.patches_lost
        r.civ_cards = <uint8_t>popcount64(pl.civ_cards)
        r.decisions = <uint16_t>(g.n_decisions if g.n_decisions < 65535 else 65535)
        r.deck_green = g.deck_count[0]
        r.deck_orange = g.deck_count[1]
        r.deck_red = g.deck_count[2]
        r.events_revealed = g.deck_pos
        r.score_private = pl.s_private
        r.score_neighbour = pl.s_neighbour
        r.private_cards = 0
        r.private_met = 0
        for k in range(pl.n_priv):
            r.private_cards |= 1u << pl.priv[k]
            if (pl.priv_met >> k) & 1:
                r.private_met |= 1u << pl.priv[k]
        r.neighbour_cards = 0
        for k in range(g.n_neighbour):
            if g.n_players == 2 or k == p or (k + 1) % g.n_players == p:
                r.neighbour_cards |= 1u << g.neighbour[k]
        r.score_planet_bonus = pl.s_planet_bonus
        r.placements_relaxed = pl.placements_relaxed
        r.waiver_used = pl.waiver_used
        r.lifepods_on_board = pl.pods_on_tracks + pl.pods_on_slots
        r.patches_on_tiles = pl.patches_on_tiles


cdef void play_to_end(Game_t* g, const Rules_t* R, const TableSpec* spec,
                      uint32_t* moves, SearchScratch* scratch,
                      RoundTrace* trace) noexcept nogil:
    """Play a dealt game to the end with the seats' core bots (`scratch`: the
    search bot's buffers, NULL when no seat searches; `trace`: where the
    round scores go, NULL when they are not kept)."""
    cdef int n, i
    advance_traced(g, R, trace)
    while g.stage != ST_DONE:
        n = legal_moves(g, R, moves)
        if n == 0:
            g.status = STATUS_NO_LEGAL_MOVE
            finish_game(g, R)
            break
        if n == 1:
            i = 0
        else:
            i = bot_choose(g, R, spec, scratch, moves, n)
            if i < 0 or i >= n:
                g.status = STATUS_BAD_MOVE
                finish_game(g, R)
                break
        apply_move(g, R, moves[i])
        advance_traced(g, R, trace)
    if trace != NULL:
        trace_final(g, trace)


cdef int play_games(const Rules_t* R, const TableSpec* spec, uint64_t k0, uint64_t k1,
                    uint64_t first_game, uint64_t n_games, SeatRecord* out,
                    int16_t* round_scores) noexcept nogil:
    """Play n_games consecutive games; returns -1 if memory ran out.

    `round_scores` (NULL: not kept) receives MAX_ROUNDS x n_players scores per
    game, ROUND_UNPLAYED for rounds not played."""
    cdef Game_t* g = <Game_t*>malloc(sizeof(Game_t))
    cdef uint32_t* moves = <uint32_t*>malloc(MAX_MOVES * sizeof(uint32_t))
    cdef SearchScratch* scratch = NULL
    cdef RoundTrace* trace = NULL
    cdef uint64_t i
    cdef int per_game = MAX_ROUNDS * spec.n_players
    cdef bint scratch_ok = dispatch_scratch_new(spec, &scratch)   # one per batch
    if round_scores != NULL:
        trace = <RoundTrace*>malloc(sizeof(RoundTrace))
    if (g == NULL or moves == NULL or not scratch_ok
            or (round_scores != NULL and trace == NULL)):
        free(g)
        free(moves)
        free(scratch)
        free(trace)
        return -1
    for i in range(n_games):
        if trace != NULL:
            trace_start(trace, &round_scores[i * per_game], spec.n_players)
        game_init(g, R, spec, k0, k1, first_game + i)
        if g.status == STATUS_OK:
            play_to_end(g, R, spec, moves, scratch, trace)
        else:
            finish_game(g, R)
        write_records(g, R, spec, first_game + i, &out[i * spec.n_players])
    free(g)
    free(moves)
    free(scratch)
    free(trace)
    return 0
