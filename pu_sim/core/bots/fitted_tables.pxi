# The greedy bot's fitted tables in C memory: the measured and rollout-fitted
# numbers its features read (track values, placement values, line and objective
# chances, the objectives' base rates, the learned planet value), and the
# policy bot's network (core/bots/policy_net.pxi).
#
# They are run-time data (pu_sim/data/fitted/*.npz, read by pu_sim.bots.fitted);
# CoreRules copies them into the FittedTables_t its Rules_t points to when the
# rules load, so a refit needs no rebuild.  The sizes below are the layout the
# greedy code indexes by; pu_sim.bots.fitted checks every file against them
# (CONSTANTS) before the copy.
#
# Why reached from Rules_t: every greedy function already receives the rules, so
# the tables reach the bot, its lookaheads and the search's rollouts through the
# pointer they hold, without the GIL and without another argument; the rules
# object (CoreRules) owns the memory.

cdef enum:
    TRACK_FIT_POSITIONS = 16   # tracker positions (higher: the last)
    TRACK_FIT_PHASES = 3       # parts of a TRACK_FIT_ROUNDS-round game
    TRACK_FIT_ROUNDS = 20
    TRACK_FIT_CONTEXT = 15     # track_context entries
    PLACE_FIT_PHASES = 4       # parts of the game, PLACE_FIT_ROUND_SPAN rounds each
    PLACE_FIT_ROUND_SPAN = 4
    N_PLACE_FEATURES = 9       # placement_features entries
    LINE_CHANCE_SQUARES = 13   # open squares 0..12
    LINE_CHANCE_ROUNDS = 20    # later rounds count as the last
    OBJ_CHANCE_GROUPS = 10
    OBJ_CHANCE_MISSING = 17    # units missing 0..15, 16: dead
    OBJ_CHANCE_ROUNDS = 20     # later rounds count as the last
    NTUPLE_PHASES = 3          # parts of the game, NTUPLE_ROUND_SPAN rounds each
    NTUPLE_ROUND_SPAN = 7
    NTUPLE_PATTERNS = 512      # covered-or-off squares of a 3x3 window, bit 3*row+col
    NTUPLE_LINE_FREE = 13      # free squares of a row or column 0..12
    ROTATION_ROUND_BUCKETS = 6  # rounds 1-5, 6-10, 11-14, 15-17, 18-19, 20+
    ROTATION_ROUND_FEATURES = 3  # the depot rule's value, own score, the others' mean


cdef struct FittedTables_t:
    # [corporation][track][position][part of the game], greedy's units
    double track_cell[MAX_CORPS][N_TRACKS][TRACK_FIT_POSITIONS][TRACK_FIT_PHASES]
    # [corporation][track][context entry]: x the player's track_context
    double track_context[MAX_CORPS][N_TRACKS][TRACK_FIT_CONTEXT]
    # [part of the game][feature], greedy's units
    double place_fit[PLACE_FIT_PHASES][N_PLACE_FEATURES]
    # [meteorite][open squares][round - 1], the last round entry: the game's end
    double line_chance[2][LINE_CHANCE_SQUARES][LINE_CHANCE_ROUNDS + 1]
    # [group][units missing][round - 1], the last round entry: the game's end
    double objective_chance[OBJ_CHANCE_GROUPS][OBJ_CHANCE_MISSING][OBJ_CHANCE_ROUNDS + 1]
    # [card]: share of games a kept private card was met
    double objective_rate[N_OBJECTIVES]
    # [part of the game][3x3 pattern]: the learned planet value of each window
    double ntuple_window[NTUPLE_PHASES][NTUPLE_PATTERNS]
    # [part of the game][meteorite][free squares]: ... of each row and column
    double ntuple_line[NTUPLE_PHASES][2][NTUPLE_LINE_FREE]
    # [part of the game by round][feature]: the learned rotation value's coefficients
    double rotation_round[ROTATION_ROUND_BUCKETS][ROTATION_ROUND_FEATURES]
    # the policy bot's network, its tables one after another (policy_net.pxi PO_*)
    double policy[POLICY_N]
    # the engine version the policy network was learned on (0: none)
    double policy_engine


cdef void fill_fitted(FittedTables_t* f, dict arrays) except *:
    """Copy the tables (pu_sim.engine.rules.fitted_arrays) after checking each size."""
    _fill(arrays, "track_cell", f.track_cell, np.float64,
          MAX_CORPS * N_TRACKS * TRACK_FIT_POSITIONS * TRACK_FIT_PHASES)
    _fill(arrays, "track_context", f.track_context, np.float64,
          MAX_CORPS * N_TRACKS * TRACK_FIT_CONTEXT)
    _fill(arrays, "place_fit", f.place_fit, np.float64,
          PLACE_FIT_PHASES * N_PLACE_FEATURES)
    _fill(arrays, "line_chance", f.line_chance, np.float64,
          2 * LINE_CHANCE_SQUARES * (LINE_CHANCE_ROUNDS + 1))
    _fill(arrays, "objective_chance", f.objective_chance, np.float64,
          OBJ_CHANCE_GROUPS * OBJ_CHANCE_MISSING * (OBJ_CHANCE_ROUNDS + 1))
    _fill(arrays, "objective_rate", f.objective_rate, np.float64, N_OBJECTIVES)
    _fill(arrays, "ntuple_window", f.ntuple_window, np.float64,
          NTUPLE_PHASES * NTUPLE_PATTERNS)
    _fill(arrays, "ntuple_line", f.ntuple_line, np.float64,
          NTUPLE_PHASES * 2 * NTUPLE_LINE_FREE)
    _fill(arrays, "rotation_round", f.rotation_round, np.float64,
          ROTATION_ROUND_BUCKETS * ROTATION_ROUND_FEATURES)
    _fill(arrays, "policy", f.policy, np.float64, POLICY_N)
    _fill(arrays, "policy_engine", &f.policy_engine, np.float64, 1)


cdef object _copy_doubles(const void* src, tuple shape):
    """A new numpy array of `shape` holding the doubles at src."""
    out = np.empty(shape, dtype=np.float64)
    cdef double[::1] dst = out.reshape(-1)
    memcpy(&dst[0], src, dst.shape[0] * sizeof(double))
    return out


cdef dict fitted_arrays(const FittedTables_t* f):
    """The tables as the core holds them (copies), shaped like fitted_arrays'."""
    return {
        "track_cell": _copy_doubles(
            f.track_cell, (MAX_CORPS, N_TRACKS, TRACK_FIT_POSITIONS, TRACK_FIT_PHASES)),
        "track_context": _copy_doubles(
            f.track_context, (MAX_CORPS, N_TRACKS, TRACK_FIT_CONTEXT)),
        "place_fit": _copy_doubles(f.place_fit, (PLACE_FIT_PHASES, N_PLACE_FEATURES)),
        "line_chance": _copy_doubles(
            f.line_chance, (2, LINE_CHANCE_SQUARES, LINE_CHANCE_ROUNDS + 1)),
        "objective_chance": _copy_doubles(
            f.objective_chance, (OBJ_CHANCE_GROUPS, OBJ_CHANCE_MISSING, OBJ_CHANCE_ROUNDS + 1)),
        "objective_rate": _copy_doubles(f.objective_rate, (N_OBJECTIVES,)),
        "ntuple_window": _copy_doubles(f.ntuple_window, (NTUPLE_PHASES, NTUPLE_PATTERNS)),
        "ntuple_line": _copy_doubles(f.ntuple_line, (NTUPLE_PHASES, 2, NTUPLE_LINE_FREE)),
        "rotation_round": _copy_doubles(
            f.rotation_round, (ROTATION_ROUND_BUCKETS, ROTATION_ROUND_FEATURES)),
        "policy": _copy_doubles(f.policy, (POLICY_N,)),
        "policy_engine": _copy_doubles(&f.policy_engine, (1,)),
    }
