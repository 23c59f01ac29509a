# The policy bot's value: an n-tuple network over generic features of one
# player's position, learned from game outcomes (core/bots/policy.pxi plays and
# trains it; pu_sim/data/fitted/policy.npz holds its weights).
#
# A player's value is the score the game would give them if it ended now
# (the engine's own final scoring: policy_score_now) plus the sum of one weight
# per active entry of the tables below.  Each table is a lookup on a small tuple
# of the position: the planet's rows and columns (free squares, meteorite,
# medal), its 3x3 windows of covered squares, each tracker's position with the
# advances pending for it, the tech level, the rovers' distances to lifepods
# and meteorites, the civ cards held and owed, each objective card's progress,
# the pending items, the corporation's own counters and the powers it has used
# (Cosmos: the lifepods each tracker will jump),
# with the corporation, the planet, the player count and the part of the game
# as context where they change what a tuple is worth.  Nothing here values a
# move: the tables only describe the position, and their weights come from
# temporal-difference learning on the bot's own games (pu_sim.lab.policy_td).
#
# Why these tuples: they are what the rules score (lines, trackers, lifepods,
# meteorites, civ cards, objective cards) and what decides the score still to
# come (free squares and their shape, pending advances, rovers' reach), each
# read directly off the state; systematic n-tuple networks on afterstates
# (Szubert and Jaskowski 2014) learn such tables fast and evaluate them in a
# few hundred lookups.  Redundant encoding (Jaskowski 2018): the lines have a
# coarse table shared by every planet and a fine one per planet and line, so
# the coarse one learns fast and the fine one corrects it.
#
# Why long: it is the network's whole layout (every table's size and offset,
# one enum) and the one function that reads every tuple off a position.

cdef enum:
    POL_STAGES = 8             # parts of the game (policy_stage)
    POL_NP = 3                 # player counts: solo, 2, 3 or more
    POL_MEDALS = 4             # a line's medals 0..3
    POL_FREE = 13              # a line's free squares 0..12
    POL_LINES = 2 * GRID       # rows 0..11, then columns 0..11
    POL_PATTERNS = 512         # a 3x3 window's covered-or-off squares
    POL_WINDOWS = (GRID - 2) * (GRID - 2)
    POL_POS = 24               # tracker positions (Oasis' water path has 24)
    POL_PEND = 4               # advances pending for a tracker 0..3
    POL_TECH = 8               # tech levels 0..7
    POL_SYN = 4                # pending synergy boosts 0..3
    POL_ENERGY = 4             # pending energy choices 0..3
    POL_OTHER = 3              # other pending track choices 0..2
    # a rover's targets: lifepod, meteorite; for Horizon a carrying rover's rover icon
    # and a free rover's meteorite no rover carries (pol_horizon_distances)
    POL_TARGETS = 4
    POL_DIST = 10              # a rover's walk to the nearest target: 0..8, 9 none
    POL_MOVE = 6               # movement left 0..5
    POL_ROVERS = 6             # rovers on the planet / in supply 0..5
    POL_PODS = 10              # lifepods left on the planet 0..9
    POL_MET_HELD = 12          # meteorites collected 0..11
    POL_MET_LEFT = 8           # meteorites on the planet 0..7
    POL_CARDS = N_CIV + 1      # civ card ids 1..36
    POL_OWED = 81              # owed civ picks: 0..2 of each rank 1..4 (base 3)
    POL_PROGRESS = 17          # an objective card's progress 0..16
    POL_DIFF = 9               # a neighbour card's measure against the other's -4..4
    POL_ITEM_KINDS = 34        # item kinds (IT_*)
    POL_ITEM_COUNT = 4         # items of one kind pending 1..3 (index 0 unused)
    POL_STORED = 4             # stored patches 0..3
    POL_EXTRA = 8              # the corporation's counter 0..7 (policy_corp_extra)
    POL_USED = 64              # powers used (bit = tech level 1..6)
    POL_ICE = 16               # open ice squares 0..15
    POL_COLS = 5               # Makeshift: the column a tracker stands on
    POL_STAKE = 7              # a meteorite's row and column: free squares 0..5, 6: more
    POL_AHEAD = 4              # Cosmos: lifepods on a track above its tracker 0..3
    POL_MAX_ACTIVE = 320       # entries one position reads at most

# Sizes and offsets of the tables in the one flat weight vector (FittedTables_t.policy)
cdef enum:
    PN_BIAS = POL_NP * POL_STAGES * MAX_CORPS * MAX_PLANETS
    PN_LINE = POL_STAGES * POL_MEDALS * 2 * POL_FREE
    PN_LINEP = MAX_PLANETS * POL_LINES * POL_STAGES * 2 * POL_FREE
    PN_WIN = POL_STAGES * POL_PATTERNS
    PN_TRACK = MAX_CORPS * N_TRACKS * POL_POS * POL_PEND * POL_STAGES
    PN_TECH = MAX_CORPS * POL_TECH * POL_STAGES
    PN_CHOICE = MAX_CORPS * POL_STAGES * POL_SYN * POL_ENERGY * POL_OTHER
    PN_ROVER = POL_STAGES * POL_TARGETS * POL_DIST * POL_MOVE
    PN_ROVERS = POL_STAGES * POL_ROVERS * POL_ROVERS * POL_PODS
    PN_METEOR = POL_STAGES * POL_MET_HELD * POL_MET_LEFT
    PN_CIV = POL_CARDS * POL_STAGES
    PN_OWED = POL_STAGES * POL_OWED
    PN_OBJ = N_OBJECTIVES * POL_PROGRESS * POL_STAGES
    PN_NEIGH = N_OBJECTIVES * POL_DIFF * POL_STAGES
    PN_ITEMS = POL_ITEM_KINDS * POL_ITEM_COUNT * POL_STAGES
    PN_CORPX = MAX_CORPS * POL_STAGES * POL_STORED * POL_EXTRA
    PN_USEDG = MAX_CORPS * POL_STAGES * POL_USED
    PN_USEDR = MAX_CORPS * POL_STAGES * POL_USED
    PN_ICE = MAX_PLANETS * POL_STAGES * POL_ICE
    PN_MAKE = N_TRACKS * POL_COLS * POL_POS * POL_STAGES
    PN_STAKE = POL_STAGES * POL_DIST * POL_MOVE * POL_STAKE
    PN_PODS = N_TRACKS * POL_POS * POL_AHEAD * POL_STAGES

cdef enum:
    PO_BIAS = 0
    PO_LINE = PO_BIAS + PN_BIAS
    PO_LINEP = PO_LINE + PN_LINE
    PO_WIN = PO_LINEP + PN_LINEP
    PO_TRACK = PO_WIN + PN_WIN
    PO_TECH = PO_TRACK + PN_TRACK
    PO_CHOICE = PO_TECH + PN_TECH
    PO_ROVER = PO_CHOICE + PN_CHOICE
    PO_ROVERS = PO_ROVER + PN_ROVER
    PO_METEOR = PO_ROVERS + PN_ROVERS
    PO_CIV = PO_METEOR + PN_METEOR
    PO_OWED = PO_CIV + PN_CIV
    PO_OBJ = PO_OWED + PN_OWED
    PO_NEIGH = PO_OBJ + PN_OBJ
    PO_ITEMS = PO_NEIGH + PN_NEIGH
    PO_CORPX = PO_ITEMS + PN_ITEMS
    PO_USEDG = PO_CORPX + PN_CORPX
    PO_USEDR = PO_USEDG + PN_USEDG
    PO_ICE = PO_USEDR + PN_USEDR
    PO_MAKE = PO_ICE + PN_ICE
    PO_STAKE = PO_MAKE + PN_MAKE
    PO_PODS = PO_STAKE + PN_STAKE
    POLICY_N = PO_PODS + PN_PODS
    POL_TABLES = 22            # the tables above


cdef inline int pol_table_of(int j) noexcept nogil:
    """Which table (0..POL_TABLES - 1, in their order) weight j belongs to."""
    cdef int k = 0
    cdef int* starts = [PO_LINE, PO_LINEP, PO_WIN, PO_TRACK, PO_TECH, PO_CHOICE, PO_ROVER,
                        PO_ROVERS, PO_METEOR, PO_CIV, PO_OWED, PO_OBJ, PO_NEIGH, PO_ITEMS,
                        PO_CORPX, PO_USEDG, PO_USEDR, PO_ICE, PO_MAKE, PO_STAKE, PO_PODS]
    while k < POL_TABLES - 1 and j >= starts[k]:
        k += 1
    return k


cdef inline int pol_clip(int v, int lo, int hi) noexcept nogil:
    return lo if v < lo else (hi if v > hi else v)


cdef inline int policy_stage(const Game_t* g) noexcept nogil:
    """The part of the game the round falls in (setup counts as the first): three
    rounds each up to round 15, then two, then the rounds from 20 on (a game
    ends about round 20; its last rounds differ most)."""
    cdef int r = g.round
    if r <= 15:
        return pol_clip((r - 1) // 3, 0, 4)
    if r <= 17:
        return 5
    return 6 if r <= 19 else 7


cdef inline int policy_np(const Game_t* g) noexcept nogil:
    return pol_clip(<int>g.n_players - 1, 0, POL_NP - 1)


# ==== the score if the game ended now ===========================================

cdef int policy_objective_points(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """Objective medals p would score now (9.4 E-F): 5 a met private card; each
    neighbour card beside p, 5 to the better and 2 each on a tie."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int i, k, card, a, b, ma, mb, n = g.n_players, pts = 0
    for i in range(pl.n_priv):
        if objective_met(g, R, p, pl.priv[i]):
            pts += OBJ_WIN
    for k in range(g.n_neighbour):
        if n == 2:
            a, b = 0, 1
        else:
            a, b = k, (k + 1) % n
        if a != p and b != p:
            continue
        card = g.neighbour[k]
        ma = objective_measure(g, R, a, card)
        mb = objective_measure(g, R, b, card)
        if not R.obj_neighbour[card][5]:
            ma, mb = -ma, -mb
        if ma == mb:
            pts += OBJ_TIE
        elif (ma > mb) == (a == p):
            pts += OBJ_WIN
    return pts


cdef int policy_score_now(const Game_t* g, const Rules_t* R, int p) noexcept nogil:
    """p's score if the game were scored now (score_game's terms, one player)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef int t, s = planet_medals(g, R, p)
    for t in range(N_TRACKS):
        s += track_medals(g, R, p, t)
    s += scoring_lifepods(pl) + pl.meteorites_collected // 3
    s += civ_card_medals(g, R, p)
    return s + policy_objective_points(g, R, p)


# ==== the tuples ==================================================================

cdef int pol_rect_progress(const Player_t* pl, const uint16_t* grid, const uint16_t* terrain,
                           int w, int h) noexcept nogil:
    """Squares the best w x h window still lacks for a solid block of the terrain
    (windows holding an off-grid square or another terrain cannot make it); 16
    when no window can."""
    cdef int x, y, k, miss, best = 16
    cdef uint16_t mask = <uint16_t>((1 << w) - 1)
    cdef uint16_t bad[GRID]
    cdef uint16_t have[GRID]
    for y in range(GRID):
        bad[y] = (~grid[y] | (pl.occ[y] & ~terrain[y])) & ROW_BITS
        have[y] = terrain[y] & grid[y]
    for y in range(GRID + 1 - h):
        for x in range(GRID + 1 - w):
            miss = 0
            for k in range(h):
                if (bad[y + k] >> x) & mask:
                    miss = 99
                    break
                miss += w - popcount16((have[y + k] >> x) & mask)
            if miss < best:
                best = miss
    return best


cdef int pol_objective_progress(const Game_t* g, const Rules_t* R, int p, int card) noexcept nogil:
    """How far a private card is from being met, 0..16 (16: out of reach), read
    off the position the way its condition reads (cards.md 7)."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint8_t* o = R.obj_private[card]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef const uint16_t* ice = R.pmask[pl.planet][PM_ICE]
    cdef int kind = o[0], y, v, v2
    cdef uint16_t terrain[GRID]
    cdef uint16_t best[GRID]
    if kind == OC_HAS_SOLID_RECTANGLE:
        if o[1] == ENERGY and currents_count_covered(g, R, pl.planet):
            energy_terrain(R, pl, terrain)
        else:
            grid_copy(terrain, pl.terr[o[1]])
        v = pol_rect_progress(pl, grid, terrain, o[2], o[3])
        if o[4]:
            v2 = pol_rect_progress(pl, grid, terrain, o[3], o[2])
            v = v2 if v2 < v else v
        return v
    if kind == OC_HAS_TERRAIN_AREA_WITH_RESOURCES:
        v = richest_area(pl.terr[o[1]], pl.icon[o[2]], best)
        return pol_clip(<int>o[3] - (v if v > 0 else 0), 0, 15)
    if kind == OC_TRACKER_AT_MAXIMUM:
        return pol_clip(track_top(pl, o[1]) - pl.track[o[1]], 0, 15)
    if kind == OC_RESOURCE_COUNT_AT_MOST:
        v = <int>o[2] - grid_count(pl.icon[o[1]])
        return 16 if v < 0 else pol_clip(v, 0, 15)
    if kind == OC_COLLECTED_AT_LEAST:
        return pol_clip(<int>o[2] - collected_item(pl, o[1]), 0, 15)
    if kind == OC_COLLECTED_GREATER_THAN:
        return pol_clip(collected_item(pl, o[1]) - collected_item(pl, o[2]) + 8, 0, 15)
    if kind == OC_NO_UNCOVERED_ICE:
        return pol_clip(open_ice(R, pl), 0, 15)
    if kind == OC_NO_UNCOVERED_LAND:
        v = 0
        for y in range(GRID):
            terrain[y] = grid[y] & ~ice[y] & ~pl.occ[y]
            if currents_count_covered(g, R, pl.planet):
                terrain[y] &= ~R.pmask[pl.planet][PM_CURRENT][y]
            v += popcount16(terrain[y])
        return pol_clip(v, 0, 15)
    return 0


cdef void pol_rover_distances(const Rules_t* R, const Player_t* pl, const uint16_t* targets,
                              int* dist) noexcept nogil:
    """dist[r]: rover r's walk (in steps) to the nearest target square, 0..8,
    POL_DIST - 1 when none lies within 8 (RoverWalk: the planet's limits)."""
    cdef RoverWalk walk
    cdef int r, d, left = 0
    for r in range(MAX_ROVERS):
        dist[r] = POL_DIST - 1
        if pl.rover_status[r] == RV_PLANET:
            left += 1
    if left == 0 or not walk_start(&walk, R, pl, targets):
        return
    for d in range(POL_DIST - 1):
        for r in range(MAX_ROVERS):
            if (pl.rover_status[r] == RV_PLANET and dist[r] == POL_DIST - 1
                    and walk_reached(&walk, pl.rover_x[r], pl.rover_y[r])):
                dist[r] = d
                left -= 1
        if left == 0 or not walk_step(&walk):
            return


cdef void pol_horizon_distances(const Rules_t* R, const Player_t* pl, int* dist) noexcept nogil:
    """Horizon Group (corporations.md 3.4): dist[r] for a rover carrying a
    meteorite, its walk to the nearest rover icon (where the meteorite is
    delivered); for any other rover, its walk to the nearest meteorite no rover
    carries (pol_rover_distances' units)."""
    cdef int r, y
    cdef int to_icon[MAX_ROVERS]
    cdef uint16_t loose[GRID]
    for y in range(GRID):
        loose[y] = pl.meteorite[y] & ~pl.rover_at[y]
    pol_rover_distances(R, pl, loose, dist)
    pol_rover_distances(R, pl, pl.icon[ROVER], to_icon)
    for r in range(MAX_ROVERS):
        if horizon_carries(pl, r):
            dist[r] = to_icon[r]


cdef int pol_meteorite_stakes(const Rules_t* R, const Player_t* pl, int st, int mv,
                              const uint16_t* open_, const int* col_free, int* idx,
                              int n) noexcept nogil:
    """Append one entry per meteorite on the planet (at most 16, the nearest
    first, then by row and column): the nearest rover's walk to it (0..8, 9:
    none within 8), the movement left and the free squares of the fuller of
    its row and column (0..5, 6: more).  Why a list: most rows hold no
    meteorite, and scanning every row at every distance was a quarter of the
    features' time."""
    cdef RoverWalk walk
    cdef uint8_t sq_x[GRID * GRID]
    cdef uint8_t sq_y[GRID * GRID]
    cdef uint16_t bits
    cdef int d, x, y, i, k = 0, m = 0, left, stake, free_r
    cdef bint walking
    for y in range(GRID):
        bits = pl.meteorite[y]
        while bits:
            sq_x[m] = <uint8_t>__builtin_ctz(bits)
            sq_y[m] = <uint8_t>y
            m += 1
            bits &= bits - 1
    if m == 0:
        return n
    left = m
    walking = grid_any(pl.rover_at) and walk_start(&walk, R, pl, pl.rover_at)
    for d in range(POL_DIST):
        if d < POL_DIST - 1 and not walking:
            continue                             # no walk left: the rest are beyond reach
        for i in range(m):
            if k >= 16:
                return n
            if sq_y[i] == 255:
                continue                         # entered at a shorter walk
            x = sq_x[i]
            y = sq_y[i]
            if d < POL_DIST - 1 and not walk_reached(&walk, x, y):
                continue
            sq_y[i] = 255
            left -= 1
            free_r = popcount16(open_[y])
            stake = free_r if free_r < col_free[x] else col_free[x]
            idx[n] = PO_STAKE + ((st * POL_DIST + d) * POL_MOVE + mv) * POL_STAKE \
                + pol_clip(stake, 0, POL_STAKE - 1)
            n += 1
            k += 1
        if left == 0:
            return n
        if walking and d < POL_DIST - 2:
            walking = walk_step(&walk)
    return n


cdef inline int policy_corp_extra(const Player_t* pl) noexcept nogil:
    """The corporation's own counter: Cosmos' lifepods on tracks, Jump Drive's on
    tech slots, Flux's token track (+1), Wormhole's patches on tiles."""
    if pl.corp == CORP_COSMOS:
        return pol_clip(pl.pods_on_tracks, 0, POL_EXTRA - 1)
    if pl.corp == CORP_JUMP:
        return pol_clip(pl.pods_on_slots, 0, POL_EXTRA - 1)
    if pl.corp == CORP_FLUX:
        return pol_clip(pl.flux_track + 1, 0, POL_EXTRA - 1)
    if pl.corp == CORP_WORMHOLE:
        return pol_clip(pl.patches_on_tiles, 0, POL_EXTRA - 1)
    return 0


cdef int policy_features(const Game_t* g, const Rules_t* R, int p, int* idx) noexcept nogil:
    """Write the weight index of every active entry of p's position; their count."""
    cdef const Player_t* pl = &g.pl[p]
    cdef const uint16_t* grid = R.pmask[pl.planet][PM_GRID]
    cdef int st = policy_stage(g), n = 0, y, x, t, i, k, a, b, card, ma, mb
    cdef int corp = pl.corp, planet = pl.planet, free_, met, medal, line
    cdef int pend[N_TRACKS]
    cdef int kinds[POL_ITEM_KINDS]
    cdef int owed[4]
    cdef int dl[MAX_ROVERS]
    cdef int dm[MAX_ROVERS]
    cdef int nsyn = 0, nen = 0, noth = 0, onp = 0, sup = 0, mv
    cdef uint16_t covered[GRID]
    cdef uint16_t block[GRID]
    cdef uint16_t open_[GRID]
    cdef uint16_t mrows = 0, mcols = 0, bits, cols = 0
    cdef int col_free[GRID]
    cdef uint32_t r0, r1, r2
    cdef uint64_t kinds_seen = 0, held
    cdef const Item_t* it
    # bias: the player count, the part of the game, the boards
    idx[n] = PO_BIAS + ((policy_np(g) * POL_STAGES + st) * MAX_CORPS + corp) * MAX_PLANETS \
        + planet
    n += 1
    # lines: free squares, meteorite, medals (shared), and per planet and line
    covered_for_lines(g, R, pl, covered)
    for x in range(GRID):
        col_free[x] = 0
    for y in range(GRID):
        open_[y] = grid[y] & ~covered[y] & ROW_BITS
        cols |= grid[y]
        bits = open_[y]
        while bits:
            col_free[__builtin_ctz(bits)] += 1
            bits &= bits - 1
        if pl.meteorite[y]:
            mrows |= <uint16_t>(1 << y)
            mcols |= pl.meteorite[y]
    for line in range(POL_LINES):
        if line < GRID:
            if not grid[line]:
                continue
            free_ = popcount16(open_[line])
            met = (mrows >> line) & 1
            medal = R.row_medal[planet][line]
        else:
            x = line - GRID
            if not (cols >> x) & 1:
                continue
            free_ = col_free[x]
            met = (mcols >> x) & 1
            medal = R.col_medal[planet][x]
        medal = pol_clip(medal, 0, POL_MEDALS - 1)
        idx[n] = PO_LINE + ((st * POL_MEDALS + medal) * 2 + met) * POL_FREE + free_
        n += 1
        idx[n] = PO_LINEP + (((planet * POL_LINES + line) * POL_STAGES + st) * 2
                             + met) * POL_FREE + free_
        n += 1
    # 3x3 windows of squares covered or off the grid
    for y in range(GRID):
        block[y] = (pl.occ[y] | ~grid[y]) & ROW_BITS
    for y in range(GRID - 2):
        r0 = block[y]
        r1 = block[y + 1]
        r2 = block[y + 2]
        for x in range(GRID - 2):
            idx[n] = PO_WIN + st * POL_PATTERNS + <int>(
                ((r0 >> x) & 7) | (((r1 >> x) & 7) << 3) | (((r2 >> x) & 7) << 6))
            n += 1
    # pending items: advances per tracker, track choices, the rest by kind
    for t in range(N_TRACKS):
        pend[t] = 0
    for i in range(pl.n_items):
        it = &pl.items[i]
        if it.kind == IT_ADVANCE and it.a < N_TRACKS:
            pend[it.a] += it.c if it.c > 1 else 1
        elif it.kind == IT_STEP and it.a < N_TRACKS:
            pend[it.a] += 1
        elif it.kind == IT_SYNERGY:
            nsyn += 1
        elif it.kind == IT_ENERGY:
            nen += 1
        elif is_track_item(it.kind):
            noth += 1
        elif it.kind < POL_ITEM_KINDS:
            if not (kinds_seen >> it.kind) & 1:
                kinds_seen |= (<uint64_t>1) << it.kind
                kinds[it.kind] = 0
            kinds[it.kind] += 1
    for t in range(N_TRACKS):
        k = pol_clip(pl.track[t], 0, POL_POS - 1)
        idx[n] = PO_TRACK + (((corp * N_TRACKS + t) * POL_POS + k) * POL_PEND
                             + pol_clip(pend[t], 0, POL_PEND - 1)) * POL_STAGES + st
        n += 1
        if corp == CORP_COSMOS and pl.pod_on[t] >> (k + 1):
            # the lifepods this tracker will jump (corporations.md 3.2): each
            # makes every later advance past it a space longer, which the
            # score now (a lifepod on a track scores nothing) cannot see
            idx[n] = PO_PODS + ((t * POL_POS + k) * POL_AHEAD + pol_clip(
                popcount16(<uint16_t>(pl.pod_on[t] >> (k + 1))), 0, POL_AHEAD - 1)) \
                * POL_STAGES + st
            n += 1
        if corp == CORP_MAKESHIFT:
            idx[n] = PO_MAKE + ((t * POL_COLS + pol_clip(pl.col[t], 0, POL_COLS - 1)) * POL_POS
                                + k) * POL_STAGES + st
            n += 1
    k = pol_clip(tech_level(g, R, p), 0, POL_TECH - 1)
    idx[n] = PO_TECH + (corp * POL_TECH + k) * POL_STAGES + st
    n += 1
    idx[n] = PO_CHOICE + (((corp * POL_STAGES + st) * POL_SYN + pol_clip(nsyn, 0, POL_SYN - 1))
                          * POL_ENERGY + pol_clip(nen, 0, POL_ENERGY - 1)) * POL_OTHER \
        + pol_clip(noth, 0, POL_OTHER - 1)
    n += 1
    kinds_seen &= ~(<uint64_t>1)                # kind 0 is no entry
    while kinds_seen:                           # the kinds pending, in their order
        k = __builtin_ctzll(kinds_seen)
        kinds_seen &= kinds_seen - 1
        idx[n] = PO_ITEMS + (k * POL_ITEM_COUNT + pol_clip(kinds[k], 0, POL_ITEM_COUNT - 1)) \
            * POL_STAGES + st
        n += 1
    # rovers: each one's walk to the nearest lifepod and meteorite, with the movement left;
    # Horizon's meteorite walks are targets of their own (the shared entries would
    # reward a Horizon rover for standing beside a meteorite, not delivering it)
    mv = pol_clip(movement_left(pl), 0, POL_MOVE - 1)
    pol_rover_distances(R, pl, pl.lifepod, dl)
    if corp == CORP_HORIZON:
        pol_horizon_distances(R, pl, dm)
    else:
        pol_rover_distances(R, pl, pl.meteorite, dm)
    for i in range(MAX_ROVERS):
        if pl.rover_status[i] == RV_PLANET:
            onp += 1
            k = 1 if corp != CORP_HORIZON else (2 if horizon_carries(pl, i) else 3)
            idx[n] = PO_ROVER + ((st * POL_TARGETS + 0) * POL_DIST + dl[i]) * POL_MOVE + mv
            idx[n + 1] = PO_ROVER + ((st * POL_TARGETS + k) * POL_DIST + dm[i]) * POL_MOVE + mv
            n += 2
        elif pl.rover_status[i] == RV_SUPPLY:
            sup += 1
    idx[n] = PO_ROVERS + ((st * POL_ROVERS + pol_clip(onp, 0, POL_ROVERS - 1)) * POL_ROVERS
                          + pol_clip(sup, 0, POL_ROVERS - 1)) * POL_PODS \
        + pol_clip(grid_count(pl.lifepod), 0, POL_PODS - 1)
    n += 1
    k = pol_clip(pl.meteorites_collected, 0, POL_MET_HELD - 1)
    idx[n] = PO_METEOR + (st * POL_MET_HELD + k) * POL_MET_LEFT \
        + pol_clip(grid_count(pl.meteorite), 0, POL_MET_LEFT - 1)
    n += 1
    # each meteorite on the planet: the nearest rover's walk to it, and what its
    # row and column (which it keeps from scoring, ME-2) still lack
    n = pol_meteorite_stakes(R, pl, st, mv, open_, col_free, idx, n)
    # civ cards held, civ picks owed
    held = pl.civ_cards
    card = next_card_held(&held)                # in the cards' order
    while card:
        idx[n] = PO_CIV + card * POL_STAGES + st
        n += 1
        card = next_card_held(&held)
    owed[0] = owed[1] = owed[2] = owed[3] = 0
    for i in range(pl.n_owed):
        if 1 <= pl.owed[i] <= 4:
            owed[pl.owed[i] - 1] += 1
    for i in range(pl.n_items):
        if pl.items[i].kind == IT_CIV_PICK and 1 <= pl.items[i].a <= 4:
            owed[pl.items[i].a - 1] += 1
    k = 0
    for i in range(3, -1, -1):
        k = k * 3 + pol_clip(owed[i], 0, 2)
    idx[n] = PO_OWED + st * POL_OWED + k
    n += 1
    # objective cards: each private card's progress; each neighbour card beside p
    for i in range(pl.n_priv):
        card = pl.priv[i]
        k = pol_objective_progress(g, R, p, card)
        idx[n] = PO_OBJ + (card * POL_PROGRESS + k) * POL_STAGES + st
        n += 1
    for k in range(g.n_neighbour):
        if g.n_players == 2:
            a, b = p, 1 - p
        else:
            a, b = k, (k + 1) % g.n_players
            if a != p and b != p:
                continue
            if b == p:
                a, b = p, a
        card = g.neighbour[k]
        ma = objective_measure(g, R, a, card)
        mb = objective_measure(g, R, b, card)
        if not R.obj_neighbour[card][5]:
            ma, mb = -ma, -mb
        idx[n] = PO_NEIGH + (card * POL_DIFF + pol_clip(ma - mb + 4, 0, POL_DIFF - 1)) \
            * POL_STAGES + st
        n += 1
    # the corporation's own state and its powers used
    k = pol_clip(pl.stored_patches, 0, POL_STORED - 1)
    idx[n] = PO_CORPX + ((corp * POL_STAGES + st) * POL_STORED + k) * POL_EXTRA \
        + policy_corp_extra(pl)
    n += 1
    idx[n] = PO_USEDG + (corp * POL_STAGES + st) * POL_USED + (pl.used_game & (POL_USED - 1))
    n += 1
    idx[n] = PO_USEDR + (corp * POL_STAGES + st) * POL_USED + (pl.used_round & (POL_USED - 1))
    n += 1
    idx[n] = PO_ICE + (planet * POL_STAGES + st) * POL_ICE \
        + pol_clip(open_ice(R, pl), 0, POL_ICE - 1)
    n += 1
    return n


cdef inline double policy_weights_sum(const double* w, const int* idx, int n) noexcept nogil:
    cdef int i
    cdef double v = 0.0
    for i in range(n):
        v += w[idx[i]]
    return v


cdef double policy_value(const Game_t* g, const Rules_t* R, const double* w, int p,
                         int* idx, int* n_active) noexcept nogil:
    """p's value: the score if the game ended now plus the network's estimate of
    what is still to come.  Writes the active entries to idx (POL_MAX_ACTIVE)."""
    cdef int n = policy_features(g, R, p, idx)
    n_active[0] = n
    return policy_score_now(g, R, p) + policy_weights_sum(w, idx, n)
