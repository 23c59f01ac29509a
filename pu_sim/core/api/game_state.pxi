# The slow path: one game as a Python object over the engine's own functions.
#
# Why long: it is the whole Python face of one cdef class (Cython
# cannot spread a class's methods over include files); the decision wording
# lives in pu_sim/game.py and the scenario setters' helpers in pu_sim/testing.
#
# For people, tests and Python bots.  Every method calls the same cdef rule
# functions the batch loop uses; the setters exist so that tests can draw a
# scenario (a planet as text, trackers, depot tiles) and play on from it.

_PLAYER_GRIDS = ("occ", "patch", "msym", "meteorite", "lifepod", "last_tile", "rover_at")


cdef int _read_weights(params, double* w) except -1:
    """Copy a seat's weight vector (BotSpec.vector()) into w, or say its length
    is wrong."""
    cdef int i
    if len(params) != MAX_BOT_PARAMS:
        raise ValueError(f"need {MAX_BOT_PARAMS} parameters, got {len(params)}")
    for i in range(MAX_BOT_PARAMS):
        w[i] = params[i]
    return 0


cdef uint16_t* _player_grid(Player_t* pl, str name) except NULL:
    if name == "occ":
        return pl.occ
    if name == "patch":
        return pl.patch
    if name == "msym":
        return pl.msym
    if name == "meteorite":
        return pl.meteorite
    if name == "lifepod":
        return pl.lifepod
    if name == "last_tile":
        return pl.last_tile
    if name == "rover_at":
        return pl.rover_at
    if name.startswith("terr:"):
        return pl.terr[int(name[5:])]
    if name.startswith("icon:"):
        return pl.icon[int(name[5:])]
    raise KeyError(f"unknown grid {name!r}")


cdef class GameState:
    """One game on the slow path (see pu_sim.game.Game for the friendly API)."""

    cdef Game_t g
    cdef TableSpec spec
    cdef CoreRules rules
    cdef uint32_t* buf
    cdef SearchScratch* scratch          # the search bot's buffers, made on first use

    def __cinit__(self):
        self.buf = <uint32_t*>malloc(MAX_MOVES * sizeof(uint32_t))
        self.scratch = NULL
        if self.buf == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.buf)
        free(self.scratch)

    @staticmethod
    def deal(CoreRules rules, dict spec, uint64_t k0, uint64_t k1, uint64_t game_index):
        """Deal game ``game_index`` exactly as play_batch would, before round 1."""
        cdef GameState s = GameState.__new__(GameState)
        _check_policy(rules, spec)
        s.rules = rules
        s.spec = make_spec(spec)
        game_init(&s.g, rules.R, &s.spec, k0, k1, game_index)
        return s

    def copy(self):
        """An independent copy (the state is one C struct)."""
        cdef GameState s = GameState.__new__(GameState)
        s.rules = self.rules
        s.spec = self.spec
        s.g = self.g
        return s

    # -- playing -------------------------------------------------------------

    def advance(self):
        """Run until a decision is pending or the game is over."""
        advance(&self.g, self.rules.R)

    def legal_moves(self):
        """Legal moves of the pending decision (empty when none is pending)."""
        if self.g.decision == D_NONE or self.g.stage == ST_DONE:
            return []
        cdef int n = legal_moves(&self.g, self.rules.R, self.buf)
        return [self.buf[i] for i in range(n)]

    def apply(self, uint32_t move):
        """Apply a legal move of the pending decision, then advance.

        Raises ValueError for a move that is not legal now.
        """
        self.apply_only(move)
        advance(&self.g, self.rules.R)

    def apply_only(self, uint32_t move):
        """Apply a legal move without advancing: the position greedy's next-tile
        lookahead values (its pending resources unresolved, nothing drawn).

        Raises ValueError for a move that is not legal now.
        """
        if move not in self.legal_moves():
            raise ValueError(
                f"move {move} is not legal for decision "
                f"{self.decision or self.g.decision!r}")
        apply_move(&self.g, self.rules.R, move)

    cdef int _scratch_ready(self) except -1:
        """Allocate the search and policy bots' buffers once, when a seat of
        the table needs them (spec_needs_scratch)."""
        if self.scratch == NULL and spec_needs_scratch(&self.spec):
            self.scratch = <SearchScratch*>malloc(sizeof(SearchScratch))
            if self.scratch == NULL:
                raise MemoryError()
            place_eval_init(&self.scratch.place)
        return 0

    def play_out(self):
        """Play to the end with the seats' core bots: the moves bot_move() and
        apply() would make, without a return to Python between them (rollouts)."""
        self._scratch_ready()
        with nogil:
            play_to_end(&self.g, self.rules.R, &self.spec, self.buf, self.scratch, NULL)

    def play_until_seats(self, uint32_t seats):
        """Play as play_batch does until a seat of ``seats`` (one bit per seat)
        has a choice of two moves or more: True then, False once the game is
        over.  The other seats' core bots decide, forced moves are applied and
        a game without a legal move ends as on the fast path (play_to_end), so
        a table with Python bots plays the core seats exactly as play_batch."""
        cdef int n, i
        self._scratch_ready()
        while self.g.stage != ST_DONE:
            n = legal_moves(&self.g, self.rules.R, self.buf)
            if n == 0:
                self.g.status = STATUS_NO_LEGAL_MOVE
                finish_game(&self.g, self.rules.R)
                return False
            if n > 1 and (seats >> self.g.decider) & 1:
                return True
            i = 0 if n == 1 else bot_choose(&self.g, self.rules.R, &self.spec,
                                            self.scratch, self.buf, n)
            if i < 0 or i >= n:
                self.g.status = STATUS_BAD_MOVE
                finish_game(&self.g, self.rules.R)
                return False
            apply_move(&self.g, self.rules.R, self.buf[i])
            advance(&self.g, self.rules.R)
        return False

    def records_into(self, out, uint64_t game_index):
        """Write the finished game's seat records into ``out`` (RECORD_DTYPE, one
        row per seat) exactly as play_batch writes them for game ``game_index``."""
        cdef SeatRecord[::1] rec = out
        if self.g.stage != ST_DONE:
            raise ValueError("the game is not over")
        if rec.shape[0] != self.g.n_players:
            raise ValueError(f"records_into needs {self.g.n_players} rows")
        write_records(&self.g, self.rules.R, &self.spec, game_index, &rec[0])

    def resolve_pool(self):
        """Drive the active player's pool until a decision is needed (True) or
        the pool is done (False), without advancing past it (scenario tests,
        the endgame chain's mirror)."""
        if self.g.decision != D_NONE:
            raise ValueError("a decision is pending")
        if not self.g.in_pool:
            return False
        if resolve_pool(&self.g, self.rules.R):
            return True
        self.g.in_pool = 0
        return False

    def bot_move(self):
        """The move the deciding seat's core bot would choose now (uses the game rng)."""
        cdef int n = legal_moves(&self.g, self.rules.R, self.buf)
        if n == 0:
            raise ValueError("no decision is pending")
        if n == 1:
            return self.buf[0]
        self._scratch_ready()
        cdef int i = bot_choose(&self.g, self.rules.R, &self.spec, self.scratch, self.buf, n)
        return self.buf[i]

    def greedy_values(self, params):
        """The greedy value of each legal move, in legal_moves() order, for the
        weight vector `params` (BotSpec.vector()); draws nothing, adds no noise."""
        cdef double w[MAX_BOT_PARAMS]
        cdef int i, n
        _read_weights(params, w)
        n = legal_moves(&self.g, self.rules.R, self.buf)
        if n == 0:
            raise ValueError("no decision is pending")
        cdef double* scores = <double*>malloc(n * sizeof(double))
        if scores == NULL:
            raise MemoryError()
        try:
            greedy_scores(&self.g, self.rules.R, w, self.buf, n, scores)
            return [scores[i] for i in range(n)]
        finally:
            free(scores)

    def policy_features(self, int p):
        """What the policy bot's network reads of player p's position now
        (core/bots/policy_net.pxi): (p's score if the game ended now, the
        index of every active weight in the network's vector)."""
        cdef int idx[POL_MAX_ACTIVE]
        cdef int i, n
        self._check_player(p)
        n = policy_features(&self.g, self.rules.R, p, idx)
        return policy_score_now(&self.g, self.rules.R, p), [idx[i] for i in range(n)]

    def policy_values(self):
        """The policy bot's value of each legal move's afterstate, in
        legal_moves() order, by the rules' network (what the bot maximises;
        the commander's rotation aside, which it judges one step further)."""
        cdef int i, n, k
        cdef int idx[POL_MAX_ACTIVE]
        cdef Game_t* after = <Game_t*>malloc(sizeof(Game_t))
        if after == NULL:
            raise MemoryError()
        try:
            n = legal_moves(&self.g, self.rules.R, self.buf)
            if n == 0:
                raise ValueError("no decision is pending")
            out = []
            for i in range(n):
                memcpy(after, &self.g, sizeof(Game_t))
                apply_move(after, self.rules.R, self.buf[i])
                out.append(policy_value(after, self.rules.R, &self.rules.R.fitted.policy[0],
                                        self.g.decider, idx, &k))
            return out
        finally:
            free(after)

    def policy_roll_candidates(self, params):
        """The legal moves (indices in legal_moves() order, best afterstate
        first) the policy bot of settings `params` (BotSpec.vector()) would
        roll out at the pending decision, whether or not it rolls this one
        out (core/bots/policy.pxi pol_roll_candidates)."""
        cdef int i, n, width
        cdef int top[POL_LOOK_MAX]
        cdef double w[MAX_BOT_PARAMS]
        _read_weights(params, w)
        cdef PolicyScratch* s = <PolicyScratch*>malloc(sizeof(PolicyScratch))
        if s == NULL:
            raise MemoryError()
        try:
            n = legal_moves(&self.g, self.rules.R, self.buf)
            if n == 0:
                raise ValueError("no decision is pending")
            width = pol_roll_candidates(&self.g, self.rules.R, &self.rules.R.fitted.policy[0],
                                        w, s, self.buf, n, top)
            return [top[i] for i in range(width)]
        finally:
            free(s)

    def policy_roll_totals(self, params):
        """What the policy bot of settings `params` weighs at the pending
        decision if it rolls it out (else []): for each move pol_roll_totals
        keeps (legal_moves() index), the sum of its rollouts and their number
        (core/bots/policy.pxi; finalists first when halving)."""
        cdef int i, n, width, finalists
        cdef int top[POL_LOOK_MAX]
        cdef double total[POL_LOOK_MAX]
        cdef double w[MAX_BOT_PARAMS]
        _read_weights(params, w)
        cdef PolicyScratch* s = <PolicyScratch*>malloc(sizeof(PolicyScratch))
        if s == NULL:
            raise MemoryError()
        try:
            n = legal_moves(&self.g, self.rules.R, self.buf)
            if n == 0:
                raise ValueError("no decision is pending")
            if not policy_rolls(&self.g, w, n):
                return []
            width = pol_roll_totals(&self.g, self.rules.R, &self.rules.R.fitted.policy[0],
                                    w, s, self.buf, n, top, total, &finalists)
            if width < 2:
                return []
            redeals = int(w[PP_ROLL_REDEALS])
            more = int(w[PP_ROLL_MORE]) if finalists < width else 0
            return [(top[i], total[i], redeals + (more if i < finalists else 0))
                    for i in range(width)]
        finally:
            free(s)

    def rotation_round_outcomes(self, params):
        """The learned rotation value's reading of the pending commander's
        rotation (core/bots/greedy_rotation_round.pxi): its table row
        ("bucket") and, for each legal rotation, the commander's score and the
        other players' mean score once the round it deals is played out
        ("outcomes": greedy with weights `params` for every seat, on the redeal
        the bot uses: determinized(decider, "seed")); draws nothing from the
        game's generator."""
        cdef int i, n
        cdef double own = 0.0, others = 0.0
        cdef double w[MAX_BOT_PARAMS]
        _read_weights(params, w)
        if self.g.decision != D_ROTATION or self.g.n_players < 3:
            raise ValueError("no commander's rotation (3+ players) is pending")
        n = legal_moves(&self.g, self.rules.R, self.buf)
        cdef uint64_t seed = redeal_seed(&self.g)
        cdef NextFitScratch* s = <NextFitScratch*>malloc(sizeof(NextFitScratch))
        if s == NULL:
            raise MemoryError()
        try:
            place_eval_init(&s.e)
            rotation_round_policy(s.w, w)
            out = []
            for i in range(n):
                round_outcome(&self.g, self.rules.R, self.g.decider, self.buf[i], seed,
                              s, &own, &others)
                out.append((own, others))
            return {"bucket": rotation_round_bucket(&self.g), "seed": seed,
                    "outcomes": out}
        finally:
            free(s)

    def end_rollout_scores(self, params, int redeals):
        """The endgame rollouts' reading of the pending decision
        (core/bots/greedy_end_rollouts.pxi): for each legal move, the decider's
        final score on each of redeals 0..redeals-1 ("scores"; the game played
        to its end by the one-ply policy of weights `params`, on the bot's
        redeal: determinized(decider, "seed", redeal)); draws nothing from the
        game's generator."""
        cdef int i, r, n
        cdef double w[MAX_BOT_PARAMS]
        _read_weights(params, w)
        if self.g.decision == D_NONE or self.g.stage == ST_DONE:
            raise ValueError("no decision is pending")
        n = legal_moves(&self.g, self.rules.R, self.buf)
        cdef uint64_t seed = redeal_seed(&self.g)
        cdef NextFitScratch* s = <NextFitScratch*>malloc(sizeof(NextFitScratch))
        if s == NULL:
            raise MemoryError()
        try:
            place_eval_init(&s.e)
            end_rollout_policy(s.w, w)
            scores = [[end_rollout_value(&self.g, self.rules.R, self.g.decider, self.buf[i],
                                         s, seed, r) for r in range(redeals)]
                      for i in range(n)]
            return {"seed": seed, "scores": scores}
        finally:
            free(s)

    def placement_column_bounds(self, params):
        """For each legal placement (legal_moves() order), greedy's column part
        of its value under weights `params` (placement_cols), the cheap upper
        bound the bot prunes with before valuing it (placement_cols_bound) and
        the same bound with the shape targets valued (placement_cols_bound_shaped;
        both None where the bounds do not apply)."""
        cdef double w[MAX_BOT_PARAMS]
        cdef TileEval tiles[2]
        cdef double value
        cdef int i, n, p = self.g.decider, slot = 0, o = 0, x = 0, y = 0
        if self.g.decision != D_PLACE:
            raise ValueError("no placement decision is pending")
        _read_weights(params, w)
        n = legal_moves(&self.g, self.rules.R, self.buf)
        cdef PlaceEval* e = <PlaceEval*>malloc(sizeof(PlaceEval))
        if e == NULL:
            raise MemoryError()
        place_eval_init(e)
        out = []
        try:
            prepare_place_eval(&self.g, self.rules.R, w, p, e)
            prepare_depot_tiles(&self.g, self.rules.R, w, p, e, tiles)
            for i in range(n):
                unpack_place(self.buf[i], &slot, &o, &x, &y)
                value = placement_cols(self.rules.R, w, &self.g.pl[p], &tiles[slot], o, x, y, e)
                if not tiles[slot].cols_bound_on:
                    out.append((value, None, None))
                    continue
                out.append((
                    value,
                    placement_cols_bound(self.rules.R, &tiles[slot], o, x, y, e),
                    placement_cols_bound_shaped(
                        &tiles[slot], placement_shape(self.rules.R, &tiles[slot], o, x, y, e),
                        column_gains(&self.rules.R.orient[tiles[slot].tile][o], &tiles[slot],
                                     x, e))))
        finally:
            free(e)
        return out

    cdef PlaceEval* _placement_eval(self, uint32_t move) except NULL:
        """The planet evaluator (weights 0) of the pending placement decision,
        malloc'd (the caller frees it); ValueError unless `move` is legal there."""
        if self.g.decision != D_PLACE or move not in self.legal_moves():
            raise ValueError(f"move {move} is not a legal placement now")
        cdef double w[MAX_BOT_PARAMS]
        cdef int i
        cdef PlaceEval* e = <PlaceEval*>malloc(sizeof(PlaceEval))
        if e == NULL:
            raise MemoryError()
        place_eval_init(e)
        for i in range(MAX_BOT_PARAMS):
            w[i] = 0.0
        prepare_place_eval(&self.g, self.rules.R, w, self.g.decider, e)
        return e

    def placement_features(self, uint32_t move):
        """The afterstate features the greedy's fitted placement values read
        (core/bots/greedy_place_fit.pxi) for placement `move` of the pending decision."""
        cdef double f[N_PLACE_FEATURES]
        cdef int i, slot = 0, o = 0, x = 0, y = 0, p = self.g.decider
        cdef PlaceEval* e = self._placement_eval(move)
        try:
            unpack_place(move, &slot, &o, &x, &y)
            placement_features(self.rules.R, &self.g.pl[p], e,
                               &self.rules.R.orient[depot_tile(&self.g, self.rules.R, p, slot)][o],
                               x, y, f)
            return [f[i] for i in range(N_PLACE_FEATURES)]
        finally:
            free(e)

    def placement_contact(self, uint32_t move):
        """The sides of placement `move`'s tile that touch a covered or
        off-grid square (greedy's contact feature, contact_sides)."""
        cdef int slot = 0, o = 0, x = 0, y = 0, p = self.g.decider, n
        cdef PlaceEval* e = self._placement_eval(move)
        try:
            unpack_place(move, &slot, &o, &x, &y)
            n = contact_sides(
                e, &self.rules.R.orient[depot_tile(&self.g, self.rules.R, p, slot)][o], x, y)
        finally:
            free(e)
        return n

    def planet_keys(self, uint32_t move):
        """What the learned planet value reads (core/bots/greedy_ntuple.pxi) for the
        planet placement `move` of the pending decision leaves: its part of the
        game, each 3x3 window's pattern (row-major windows, bit 3 * row + column
        set where covered or off-grid), each row's then column's free squares and
        meteorite flag; with the table's value of them."""
        cdef PlanetKeys k
        cdef double v
        cdef int i, p = self.g.decider
        cdef PlaceEval* e = self._placement_eval(move)
        try:
            planet_keys(&self.g, self.rules.R, p, e, move, &k)
            v = ntuple_value(&self.g, self.rules.R, p, e, move)
        finally:
            free(e)
        return {
            "phase": k.phase,
            "window": [k.window[i] for i in range(NTUPLE_WINDOWS)],
            "line_free": [k.line_free[i] for i in range(2 * GRID)],
            "line_met": [k.line_met[i] for i in range(2 * GRID)],
            "value": v,
        }

    def lifepod_distances(self, int p):
        """The rover steps from each square to player p's nearest lifepod, as the
        greedy bot counts them (rows of 12; 99: none reachable)."""
        self._check_player(p)
        cdef uint8_t dist[GRID][GRID]
        lifepod_distances(&self.g, self.rules.R, p, dist)
        return [[dist[y][x] for x in range(GRID)] for y in range(GRID)]

    def track_context(self, int p):
        """Player p's context that the greedy's fitted track values read
        (core/bots/greedy_track_fit.pxi): lifepods, rovers, tech, tracker positions."""
        self._check_player(p)
        cdef double f[TRACK_FIT_CONTEXT]
        track_context(&self.g, self.rules.R, p, f)
        return [f[i] for i in range(TRACK_FIT_CONTEXT)]

    def determinized(self, int seat, uint64_t seed, uint64_t redeal=0):
        """A copy with everything `seat` cannot know resampled (the search bot's
        view of the game before a rollout), drawn from a generator seeded by
        `seed` (and `redeal`: the endgame rollouts' redeal of one seed)."""
        self._check_player(seat)
        cdef GameState s = self.copy()
        rng_seed(&s.g.rng, seed, redeal, 0, STREAM_SEARCH)
        determinize(&s.g, self.rules.R, seat)
        return s

    def hidden_state(self):
        """Full stack contents (index 0 = first top), the stacks whose top is
        hidden and the events revealed so far; game_fields() and player_fields()
        show the rest (piles, reserve, decks, private objectives)."""
        g = &self.g
        return {
            "stacks": [[g.stack[s][i] for i in range(STACK_SIZE)] for s in range(N_STACKS)],
            "unseen_tops": g.unseen_tops,
            "revealed_events": [65 + g.deck[i] for i in range(g.deck_pos)],
        }

    def finish(self):
        """End the game now: score it as it stands (for scenario tests)."""
        finish_game(&self.g, self.rules.R)

    def score_now(self):
        """Score the current position without ending the game."""
        score_game(&self.g, self.rules.R)

    # -- inspection -------------------------------------------------------------

    @property
    def decision(self):
        return label(Decision(self.g.decision)) if self.g.decision != D_NONE else None

    @property
    def decider(self):
        return self.g.decider

    @property
    def stage(self):
        return label(Stage(self.g.stage))

    @property
    def status(self):
        return label(Status(self.g.status))

    @property
    def is_terminal(self):
        return self.g.stage == ST_DONE

    def game_fields(self):
        """Round-level fields as a dict."""
        g = &self.g
        return {
            "n_players": g.n_players, "round": g.round, "commander": g.commander,
            "round_commander": g.round_commander, "rotation": g.rotation, "shift": g.shift,
            "stage": self.stage, "status": self.status,
            "end_trigger": label(EndTrigger(g.end_trigger)), "last_round": g.last_round,
            "decision": self.decision, "decider": g.decider, "active": g.active,
            "in_pool": g.in_pool, "moving": g.moving, "place_level": g.place_level,
            "place_from_depot": g.place_from_depot, "pick_rank": g.pick_rank,
            "item": (label(Item(g.item.kind)), g.item.a, g.item.b, g.item.c),
            "n_decisions": g.n_decisions, "options": g.options,
            "piles": [[g.pile[r][i] for i in range(g.pile_n[r])] for r in range(4)],
            "reserve": [[g.reserve[r][i] for i in range(g.reserve_n[r])] for r in range(4)],
            "stacks": [[g.stack[s][i] for i in range(g.stack_pos[s], STACK_SIZE)]
                       for s in range(N_STACKS)],
            "events_on": g.events_on,
            "deck": [65 + g.deck[i] for i in range(g.deck_pos, g.deck_n)],
            "deck_counts": [g.deck_count[c] for c in range(3)],
            "event": None if g.event == 255 or not g.events_on else 65 + g.event,
            "round_rule": label(RoundRule(g.round_rule)) or "none",
            "round_rule_arg": g.rule_arg,
            "neighbour_objectives": [37 + g.neighbour[k] for k in range(g.n_neighbour)],
            "objective_deck": [37 + g.obj_deck[k] for k in range(g.obj_pos, g.obj_n)],
        }

    def player_fields(self, int p):
        """Everything about player p as plain Python values."""
        self._check_player(p)
        cdef Player_t* pl = &self.g.pl[p]
        out = {
            "corp": pl.corp, "planet": pl.planet, "seat_pos": pl.seat_pos,
            "bot_kind": pl.bot_kind,
            "track": [pl.track[t] for t in range(N_TRACKS)],
            "tech_level": tech_level(&self.g, self.rules.R, p),
            "rovers": [(pl.rover_status[r], pl.rover_x[r], pl.rover_y[r])
                       for r in range(MAX_ROVERS)],
            "lifepods_collected": pl.lifepods_collected,
            "meteorites_collected": pl.meteorites_collected,
            "lifepods_lost": pl.lifepods_lost, "rovers_lost": pl.rovers_lost,
            "meteorites_destroyed": pl.meteorites_destroyed,
            "stored_patches": pl.stored_patches, "patches_placed": pl.patches_placed,
            "patches_lost": pl.patches_lost,
            "civ_cards": [c for c in range(1, N_CIV + 1) if (pl.civ_cards >> (c - 1)) & 1],
            "move_budget": pl.move_budget, "round_move": pl.round_move,
            "used_round": pl.used_round, "used_game": pl.used_game,
            "pod_on": [pl.pod_on[t] for t in range(N_TRACKS)],
            "pods_on_tracks": pl.pods_on_tracks, "pods_on_slots": pl.pods_on_slots,
            "patches_on_tiles": pl.patches_on_tiles, "jd_techs": pl.jd_techs,
            "flux_track": pl.flux_track, "col": [pl.col[t] for t in range(N_TRACKS)],
            "cond_move": pl.cond_move,
            "extra_objective": None if pl.extra_obj == NO_CARD else 37 + pl.extra_obj,
            "items": [(label(Item(pl.items[i].kind)), pl.items[i].a, pl.items[i].b,
                       pl.items[i].c) for i in range(pl.n_items)],
            "owed": [pl.owed[i] for i in range(pl.n_owed)],
            "can_place": pl.can_place, "place_level": pl.place_level,
            "tiles_placed": pl.tiles_placed, "tiles_unplaced": pl.tiles_unplaced,
            "tile_squares": pl.tile_squares, "meteorites_placed": pl.meteorites_placed,
            "score": pl.score, "score_planet": pl.s_planet, "score_tracks": pl.s_tracks,
            "score_lifepods": pl.s_lifepods, "score_meteorites": pl.s_meteorites,
            "score_civ": pl.s_civ, "score_objectives": pl.s_objectives,
            "rank": pl.rank, "rows_complete": pl.rows_done, "cols_complete": pl.cols_done,
            "uncovered": pl.uncovered, "meteorites_left": pl.meteorites_left,
            "private_objectives": [37 + pl.priv[i] for i in range(pl.n_priv)],
            "dealt_objectives": [37 + pl.dealt[i] for i in range(pl.n_dealt)],
            "private_met": [37 + pl.priv[i] for i in range(pl.n_priv) if (pl.priv_met >> i) & 1],
            "score_private": pl.s_private, "score_neighbour": pl.s_neighbour,
            "score_planet_bonus": pl.s_planet_bonus, "waiver_used": pl.waiver_used,
            "placements_relaxed": pl.placements_relaxed,
            "tech_suppressed": [lv for lv in range(8) if (pl.tech_suppressed >> lv) & 1],
            "peeks": pl.peeks,
            "keep": [(label(Item(pl.keep[i].kind)), pl.keep[i].a, pl.keep[i].b, pl.keep[i].c)
                     for i in range(2)],
        }
        for name in _PLAYER_GRIDS:
            out[name] = self.get_grid(p, name)
        out["terr"] = [self.get_grid(p, f"terr:{t}") for t in range(N_TERRAINS)]
        out["icon"] = [self.get_grid(p, f"icon:{t}") for t in range(N_TERRAINS)]
        return out

    def get_grid(self, int p, str name):
        """One of player p's grids as 12 row masks."""
        self._check_player(p)
        cdef uint16_t* rows = _player_grid(&self.g.pl[p], name)
        return [rows[y] for y in range(GRID)]

    def line_states(self, int p):
        """Player p's rows, then columns, as (open squares, holds a meteorite,
        medal) triples: the lines the greedy's completion chances are about
        (a column without grid squares is not a line)."""
        self._check_player(p)
        cdef const Player_t* pl = &self.g.pl[p]
        cdef const uint16_t* grid = self.rules.R.pmask[pl.planet][PM_GRID]
        cdef uint8_t row_open[GRID]
        cdef uint8_t col_open[GRID]
        cdef uint16_t mrows, mcols, columns = 0
        cdef int x, y
        open_line_squares(&self.g, self.rules.R, pl, row_open, col_open)
        meteorite_lines(pl, &mrows, &mcols)
        out = []
        for y in range(GRID):
            columns |= grid[y]
            if grid[y]:
                out.append((row_open[y], bool((mrows >> y) & 1),
                            self.rules.R.row_medal[pl.planet][y]))
        for x in range(GRID):
            if (columns >> x) & 1:
                out.append((col_open[x], bool((mcols >> x) & 1),
                            self.rules.R.col_medal[pl.planet][x]))
        return out

    def objective_states(self, int p):
        """Player p's private cards as (card id, chance group or -1, units still
        missing, met) quadruples: what the greedy's objective chances read
        (pu_sim.lab.objective_chances)."""
        self._check_player(p)
        cdef const Player_t* pl = &self.g.pl[p]
        cdef int i, card, missing
        out = []
        for i in range(pl.n_priv):
            card = pl.priv[i]
            missing = objective_missing(&self.g, self.rules.R, p, card)  # 0: met
            out.append((37 + card, objective_chance_group(self.rules.R, card), missing,
                        missing == 0))
        return out

    def depot_tiles(self, int p):
        """(small, large) top tiles of the depot facing player p (None if empty)."""
        self._check_player(p)
        out = []
        for slot in range(2):
            t = depot_tile(&self.g, self.rules.R, p, slot)
            out.append(None if t == NO_TILE else t)
        return tuple(out)

    def facing_depot(self, int p):
        self._check_player(p)
        return facing_depot(&self.g, self.rules.R, p)

    def placement_count(self, int p, int tile, int level=0):
        """Number of legal placements of a tile for player p (perft counts)."""
        self._check_player(p)
        return count_tile_placements(&self.g, self.rules.R, p, tile, level)

    def placements(self, int p, int tile, int level=0):
        """Legal placements of a tile as (orientation, x, y) triples."""
        self._check_player(p)
        cdef int n = gen_placements(&self.g, self.rules.R, p, tile, NO_TILE, level, self.buf)
        out = []
        for i in range(n):
            mv = self.buf[i]
            out.append(((mv >> 8) & 7, mv & 15, (mv >> 4) & 15))
        return out

    def patch_squares(self, int p):
        """Legal biomass patch squares of player p as (x, y) pairs."""
        self._check_player(p)
        cdef uint16_t sq[GRID]
        patch_squares(&self.g, self.rules.R, p, sq)
        return [(x, y) for y in range(GRID) for x in range(GRID) if (sq[y] >> x) & 1]

    def has_tech(self, int p, int level):
        """Whether player p may use tech `level` now (corporation rules included)."""
        self._check_player(p)
        return bool(has_tech(&self.g, self.rules.R, p, level))

    def energy_candidates(self, int p, int tile, int o, int x, int y):
        """Tracks an energy icon could advance if the tile were placed so (EN-1..EN-5)."""
        self._check_player(p)
        cdef GameState s = self.copy()
        cdef Player_t* pl = &s.g.pl[p]
        cdef uint16_t foot[GRID]
        cdef uint16_t pa[GRID]
        cdef uint16_t pb[GRID]
        cdef int mask = 0
        cdef const Orient_t* ori = &self.rules.R.orient[tile][o]
        if self.rules.R.tile_ta[tile] != ENERGY and self.rules.R.tile_tb[tile] != ENERGY:
            return []
        place_tile(&s.g, s.rules.R, p, tile, o, x, y, False)
        footprint(ori, x, y, foot, pa, pb)
        if self.rules.R.tile_ta[tile] == ENERGY:
            energy_candidates_after(self.rules.R, pl, pa, &mask)
        else:
            energy_candidates_after(self.rules.R, pl, pb, &mask)
        mask &= movable_tracks(&s.g, s.rules.R, p)
        return [t for t in range(N_TRACKS) if (mask >> t) & 1]

    # -- scenario setters (tests and examples) -------------------------------------

    def _check_player(self, int p):
        if not 0 <= p < self.g.n_players:
            raise IndexError(f"player {p} does not exist (n_players={self.g.n_players})")

    def set_grid(self, int p, str name, rows):
        """Overwrite one of player p's grids with 12 row masks."""
        self._check_player(p)
        cdef uint16_t* dst = _player_grid(&self.g.pl[p], name)
        rows = list(rows)
        if len(rows) != GRID:
            raise ValueError("a grid has 12 rows")
        for y in range(GRID):
            dst[y] = rows[y] & ROW_BITS
        if name == "occ":
            self.g.pl[p].placed_any = any(rows)

    def set_column(self, int p, int t, int col):
        """Makeshift: put tracker t on column (track) col, keeping its row."""
        self._check_player(p)
        if not 0 <= t < N_TRACKS or not 0 <= col < N_TRACKS:
            raise ValueError("tracker and column are 0..4")
        self.g.pl[p].col[t] = col

    def set_track(self, int p, int t, int pos):
        self._check_player(p)
        if not 0 <= t < N_TRACKS or not 0 <= pos <= track_top(&self.g.pl[p], t):
            raise ValueError("track 0..4, position 0..15 (Oasis water: 0..23)")
        self.g.pl[p].track[t] = pos

    def set_rover(self, int p, int r, int status, int x=0, int y=0):
        """Set rover r's status (0 none, 1 supply, 2 planet, 3 destroyed) and square."""
        self._check_player(p)
        cdef Player_t* pl = &self.g.pl[p]
        if pl.rover_status[r] == RV_PLANET:
            grid_clear_sq(pl.rover_at, pl.rover_x[r], pl.rover_y[r])
        pl.rover_status[r] = status
        pl.rover_x[r] = x
        pl.rover_y[r] = y
        if status == RV_PLANET:
            grid_set(pl.rover_at, x, y)

    def set_player_int(self, int p, str field, value):
        """Set a counter of player p (collections, budget, stored patches, cards)."""
        self._check_player(p)
        cdef Player_t* pl = &self.g.pl[p]
        if field == "lifepods_collected":
            pl.lifepods_collected = value
        elif field == "meteorites_collected":
            pl.meteorites_collected = value
        elif field == "move_budget":
            pl.move_budget = value
        elif field == "stored_patches":
            pl.stored_patches = value
        elif field == "civ_cards":
            pl.civ_cards = value
        elif field == "waiver_used":
            pl.waiver_used = value
        elif field == "used_round":
            pl.used_round = value
        elif field == "used_game":
            pl.used_game = value
        elif field == "round_move":
            pl.round_move = value
        elif field == "flux_track":
            pl.flux_track = value
        elif field == "cond_move":
            pl.cond_move = value
        elif field == "pods_on_tracks":
            pl.pods_on_tracks = value
        elif field == "pods_on_slots":
            pl.pods_on_slots = value
        else:
            raise KeyError(field)

    def set_stack_top(self, int stack, int tile):
        """Put a tile on top of a stack (scenario tests).

        The tile is swapped in from wherever it waits in the station (at or
        below some stack's top), so the station still holds each tile once;
        only here may a stack end up mixing shapes.
        """
        cdef int s, i, pos = self.g.stack_pos[stack]
        if pos >= STACK_SIZE:
            raise ValueError(f"stack {stack} is empty")
        for s in range(N_STACKS):
            for i in range(self.g.stack_pos[s], STACK_SIZE):
                if self.g.stack[s][i] == tile:
                    self.g.stack[s][i] = self.g.stack[stack][pos]
                    self.g.stack[stack][pos] = tile
                    return
        raise ValueError(f"tile {tile} is no longer in the station")

    def set_stack_pos(self, int stack, int pos):
        """Pretend `pos` tiles of a stack were taken already (12 = empty)."""
        if not 0 <= pos <= STACK_SIZE:
            raise ValueError("0..12")
        self.g.stack_pos[stack] = pos

    def depot_stack(self, int depot, int slot):
        return depot_stack(&self.g, depot, slot)

    def set_game_int(self, str field, int value):
        """Set a round-level field (rotation, shift, commander, round, options,
        last_round, deck_pos: the event cards revealed, as a round counts one off)."""
        if field == "rotation":
            self.g.rotation = value
        elif field == "shift":
            self.g.shift = value
        elif field == "commander":
            self.g.commander = value
        elif field == "round":
            self.g.round = value
        elif field == "options":
            self.g.options = value
        elif field == "last_round":
            self.g.last_round = value
        elif field == "deck_pos":
            if not 0 <= value <= self.g.deck_n:
                raise ValueError(f"deck_pos must be 0..{self.g.deck_n}, got {value}")
            self.g.deck_pos = value
        else:
            raise KeyError(field)

    def give_items(self, int p, items):
        """Start player p resolving a pool of (kind name, a, b, c) items now."""
        self._check_player(p)
        for name, a, b, c in items:
            push_item(&self.g, p, code(Item, name), a, b, c)
        self.g.active = p
        open_pool(&self.g, p)
        self.g.ctx = CTX_DRAFT
        self.g.stage = ST_PAUSED
        self.g.decision = D_NONE
        advance(&self.g, self.rules.R)

    def owe_pick(self, int p, int rank):
        self._check_player(p)
        owe_civ_pick(&self.g, p, rank)

    def set_event(self, int event_id):
        """Reveal this event card now as the round's event (scenario tests).

        The card is carried out for every player at once, then play continues
        with the round's civ picks and draft.
        """
        if not 65 <= event_id <= 124:
            raise ValueError("event ids are 65..124")
        put_event_in_force(&self.g, self.rules.R, event_id - 65)
        self.g.stage = ST_EVENT_PLAYERS
        self.g.order_i = 0
        self.g.round_commander = self.g.commander
        self.g.in_pool = 0
        self.g.decision = D_NONE
        advance(&self.g, self.rules.R)

    def set_round_rule(self, str name, int arg=0):
        """Put a round rule in force without an event card (scenario tests)."""
        self.g.round_rule = code(RoundRule, name)
        self.g.rule_arg = arg

    def set_objectives(self, int p, private=(), neighbour=None):
        """Give player p these private objective ids; optionally set the table's
        neighbour cards (ids, card k sits after seat k)."""
        self._check_player(p)
        cdef Player_t* pl = &self.g.pl[p]
        private = list(private)
        pl.n_priv = len(private)
        for i, card in enumerate(private):
            pl.priv[i] = card - 37
        pl.n_dealt = 0
        if neighbour is not None:
            neighbour = list(neighbour)
            self.g.n_neighbour = len(neighbour)
            for i, card in enumerate(neighbour):
                self.g.neighbour[i] = card - 37

    def objective_value(self, int p, int card, str side):
        """The measure (neighbour side) or met flag (private side) of a card for p."""
        self._check_player(p)
        if side == "neighbour":
            return objective_measure(&self.g, self.rules.R, p, card - 37)
        return bool(objective_met(&self.g, self.rules.R, p, card - 37))

    def set_pile(self, int rank, cards):
        """Set the civ pile of a rank (1..4) to the given card ids."""
        cards = list(cards)
        self.g.pile_n[rank - 1] = len(cards)
        for i, c in enumerate(cards):
            self.g.pile[rank - 1][i] = c

    def start_stage(self, str name):
        """Jump to a stage of the round (scenario tests): "civ", "end_effects", ...

        Per-player loops restart from this round's commander.
        """
        self.g.stage = code(Stage, name)
        self.g.order_i = 0
        self.g.round_commander = self.g.commander
        self.g.in_pool = 0
        self.g.decision = D_NONE
        advance(&self.g, self.rules.R)

    def start_round(self):
        """Begin a new round from the current position (scenario tests)."""
        self.g.stage = ST_ROUND_START
        self.g.decision = D_NONE
        self.g.in_pool = 0
        advance(&self.g, self.rules.R)

    def start_draft(self, int p):
        """Make player p's draft decision pending now (scenario tests)."""
        self._check_player(p)
        start_player_draft(&self.g, self.rules.R, p)
