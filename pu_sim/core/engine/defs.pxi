# Constants, enums and the fixed-size C structs of the engine.
#
# Why long: it is the one place the state of a game is declared, so a
# reader sees every field of Game_t and Player_t and the codes they hold together.
#
# Everything a game needs lives in one Game_t (no malloc per game), so a state
# copies by assignment: the slow path's copy() and lookahead bots rely on it.
# Grids are 12 rows of uint16 bit masks: bit x of rows[y] is square (x, y).
#
# The enums Python reads are `cpdef enum`s: each is also an IntEnum class on
# pu_sim._core (Decision, Item, CardOp, ...) and stays a plain C enum in nogil code.
# Those that index arrays (planet masks, space fields, greedy weights, search slots)
# are anonymous, since Cython takes no named enum as an index: their members are
# plain ints on pu_sim._core.
# Naming rule: a member is one prefix word, an underscore and its label in upper
# case, so D_ROVER_STEP is the decision "rover_step" and OP_ADVANCE_DISTINCT_TRACKERS
# the card operation "advance_distinct_trackers".  Where the label is a string of a
# data file or of the results, the member spells it, and pu_sim._core.code() and
# label() convert by name: there is no table of names to keep in step.  Counts
# (N_*) stay outside these enums.

# ==== sizes ==================================================================

cdef enum:
    GRID = 12
    ROW_BITS = 0x0FFF           # the 12 real columns of a row
    N_TRACKS = 5
    N_TERRAINS = 6
    MAX_PLAYERS = 6
    MAX_ROVERS = 8              # Horizon's 4 plus event rovers, with room to spare
    MAX_ITEMS = 48              # pending pool of one player
    MAX_OWED = 16               # civ picks waiting for the civ step
    MAX_MOVES = 4800            # 2 tiles x 8 orientations x 144 anchors, plus slack
    N_TILES = 144
    N_SHAPES = 12
    N_STACKS = 12               # 6 interior (small) + 6 exterior (large) stacks
    STACK_SIZE = 12
    MAX_PLANETS = 16            # room for the data's planets (a pool is 16 bits)
    MAX_CORPS = 16              # room for the data's corporations (likewise)
    N_CIV = 36
    CIV_PER_RANK = 9
    N_EVENTS = 60
    N_OBJECTIVES = 28
    TOP = 15                    # top index of a standard track
    BEYOND_TOP = 16             # rover 'N-infinity' pseudo-space
    N_POS = 17                  # spaces 0..15 plus the beyond-top pseudo-space
    MAX_ROUNDS = 60             # safety net: a real game lasts about 20 rounds
    MAX_DECISIONS = 20000       # safety net per game
    MAX_BOT_PARAMS = 51
    MAX_NBR = 12                # outside neighbours of an oriented tile (10 at most)
    MAX_ROVER_MOVES = 8 * MAX_ROVERS + 2 * GRID * GRID  # steps, diagonals and jumps
    MAX_ROVER_QUERIES = MAX_ROVERS + MAX_ROVER_MOVES

# ==== tracks and terrains =====================================================
# Track index == terrain index for the five tracked resources.

cdef enum:
    CIV = 0
    WATER = 1
    BIOMASS = 2
    ROVER = 3
    TECH = 4
    ENERGY = 5

# ==== corporations (ids as BGA's) ===============================================

cdef enum:
    CORP_UC = 0                 # Universal Coalition (symmetric side)
    CORP_COSMOS = 1
    CORP_FLUX = 2
    CORP_HORIZON = 3
    CORP_JUMP = 4
    CORP_MAKESHIFT = 5
    CORP_OASIS = 6
    CORP_REPUBLIC = 7
    CORP_WORMHOLE = 8
    MAX_TECH = 6                # Jump Drive's techs A-F are levels 1-6

# Tech use limits (Rules_t.tech_limit); rule: LIMIT_ + a tech's limit in corporations.toml
cpdef enum TechLimit:
    LIMIT_PASSIVE = 0
    LIMIT_ONCE_PER_ROUND = 1
    LIMIT_ONCE_PER_GAME = 2
    LIMIT_ROUND_START = 3
    LIMIT_GAME_END = 4

# ==== planet masks (Rules_t.pmask[planet][kind]) ==============================

# The compiler (pu_sim.engine.compile) fills them by name: pu_sim._core.PM_GRID, ...
cpdef enum:
    PM_GRID = 0                 # grid squares
    PM_ICE = 1                  # printed planetary ice
    PM_EDGE = 2                 # perimeter squares (first tile, objectives, events)
    PM_LIFEPOD = 3              # lifepods at setup
    PM_FIRST = 4                # squares the first tile must cover
    PM_RING = 5                 # Arashi ring
    PM_CITY = 6                 # Gaia cities
    PM_TOXIC = 7                # K'aax toxic terrain
    PM_CURRENT = 8              # Petra electric currents
    PM_SIDE_A = 9               # Tartarus west side of the chasm
    PM_Q1 = 10                  # Persephone quadrants 1..4 (10..13)
    PM_SUB1 = 14                # Cerberus sub-planets 1..3 (14..16)
    PM_HOLE = 17                # Lacuna holes (non-grid)
    PM_BAN0 = 18                # Persephone: squares banning icon of terrain t (18..23)
    PM_SUBBGA1 = 24             # Cerberus, BGA parity: the squares BGA checks (24..26)
    PM_CROSS = 27               # Tartarus: ends of the two diagonal chasm crossings

cdef enum:
    N_PMASK = 28

# Planet rule flags (Rules_t.planet_flags); rule: PF_ + a placement restriction of
# planets.toml for the first five, the others set by the compiler from other fields
cpdef enum PlanetFlag:
    PF_RING_ANCHOR = 1 << 0
    PF_ICE_OR_LAND = 1 << 1
    PF_QUADRANT_ICON_BAN = 1 << 2
    PF_SLIDE_IN = 1 << 3
    PF_SINGLE_CHASM_SIDE = 1 << 4
    PF_WAIVER = 1 << 5
    PF_CITIES = 1 << 6
    PF_SUBPLANETS = 1 << 7
    PF_CURRENTS = 1 << 8
    PF_TOXIC = 1 << 9
    PF_FIRST_CELLS = 1 << 10

cdef enum:
    PF_RESTRICTIONS = (PF_RING_ANCHOR | PF_ICE_OR_LAND | PF_QUADRANT_ICON_BAN | PF_SLIDE_IN
                       | PF_SINGLE_CHASM_SIDE)

# ==== track space fields (Rules_t.space[corp][track][pos][field]) ============

# The compiler fills them by name: pu_sim._core.SP_MEDAL, ...
cpdef enum:
    SP_MEDAL = 0
    SP_CIV = 1                  # civ milestone rank
    SP_SYNERGY = 2              # number of synergy boosts
    SP_PATCH = 3                # biomass patches
    SP_ROVER = 4                # rover milestone
    SP_MOVE = 5                 # rover movement
    SP_TECH = 6                 # tech level unlocked
    SP_NOSTOP = 7
    SP_SYN_TARGET = 8           # targeted synergy (track + 1, 0 = none)

cdef enum:
    N_SPACE_FIELDS = 9

# ==== civ card operations (compiled from civ_cards.toml) ======================
# Rule: OP_ + the operation the compiler gives a card effect: its op in
# civ_cards.toml, or collect_lifepods, score_patches, score_lifepod_bonus for the
# effects it narrows by their parameters (pu_sim.engine.compile._card_op).
cpdef enum CardOp:
    OP_NONE = 0
    OP_ADVANCE_DISTINCT_TRACKERS = 1            # arg: number of distinct trackers
    OP_ADVANCE_ONE_TRACKER = 2                  # arg: steps of one chosen tracker
    OP_GAIN_BIOMASS_PATCHES = 3                 # arg: number of biomass patches
    OP_GAIN_ROVER_MOVEMENT = 4                  # arg: rover movement points
    OP_PLACE_TILE_FROM_OWN_DEPOT = 5            # arg: 1 = advance trackers for the tile's resources
    OP_TELEPORT_ROVER = 6                       # relocate one rover anywhere
    OP_COLLECT_LIFEPODS = 7                     # arg: how many
    OP_DESTROY_METEORITES_IN_LINE = 8           # every meteorite of one row or column
    OP_DESTROY_METEORITES_ON_PLANET = 9         # arg: up to how many
    OP_RAISE_TRACKERS_TO_POSITION = 10          # arg: position every lower tracker climbs to
    OP_SCORE_MEDALS = 11                        # arg: medals
    OP_SCORE_PATCHES = 12                       # 1 medal per biomass patch on the planet
    OP_SCORE_LIFEPOD_BONUS = 13                 # +1 medal per scoring lifepod
    OP_SET_COLLECTION_METEORITE_REPO = 14       # set card: meteorites score (1 + N) per 3
    OP_SET_COLLECTION_COMMERCE_AGREEMENT = 15   # set card: 1/3/6/10 medals for 1..4 cards

# Rule: WHEN_ + a card effect's `when` in civ_cards.toml
cpdef enum CardWhen:
    WHEN_ON_TAKE = 0
    WHEN_END_OF_GAME_STEP = 1
    WHEN_FINAL_SCORING = 2

# ==== decisions ===============================================================
# Every choice a player makes is one of these; the seat's bot answers it.
# Rule: D_ + the decision's label (GameState.decision, traces); D_NONE: none pending.

cpdef enum Decision:
    D_NONE = 0
    D_ROTATION = 1               # commander: station rotation 0..5
    D_PLACE = 2                  # tile slot + orientation + position
    D_NO_PLACE = 3               # no legal placement: which tile to take (slot)
    D_ORDER = 4                  # which pending item to resolve next (or move rovers)
    D_ENERGY = 5                 # energy: which track to advance
    D_SYNERGY = 6                # synergy boost: which track
    D_TRACK = 7                  # card effect: which track (see Game_t.item)
    D_PATCH = 8                  # biomass patch square, or store it
    D_ROVER_PLACE = 9            # rover milestone: square of the last tile
    D_ROVER_STEP = 10            # move one rover one square, or stop
    D_CIV_PICK = 11              # keep one card of the rank's pile
    D_LIFEPOD = 12               # collect which lifepod
    D_TELEPORT = 13              # relocate which rover where (or skip)
    D_LINE = 14                  # which row (0..11) or column (12..23)
    D_METEORITE = 15             # destroy which meteorite (or stop)
    D_REGRESS = 16               # event: which listed tracker goes down
    D_CHOOSE_ONE = 17            # event 117/118: 0 = synergy boost, 1 = peek at the next event
    D_KEEP_RESOURCE = 18         # event 104/108: which of the tile's two resources still counts
    D_METEOR_SYMBOL = 19         # event 95/107: which empty meteor symbol gets a meteorite
    D_DESTROY_LIFEPOD = 20       # event 113: which lifepod on the planet is lost
    D_DESTROY_ROVER = 21         # event 111: which rover is lost (move = rover index)
    D_COLLECT_METEORITE = 22     # event 83: which meteorite to collect
    D_REMOVE_STACK = 23          # event 116: which stack of the facing depot leaves (slot)
    D_OBJECTIVE_DISCARD = 24     # which objective card to give up (setup, event 110)
    D_POWER = 25                 # use an activated corporation power (tech level) or not
    D_YES_NO = 26                # an optional triggered power (Game_t.item says which): 1 = use
    D_POD_PLACE = 27             # Cosmos/Jump Drive: where a collected lifepod goes
    D_POD_MOVE = 28              # Cosmos: move a collected lifepod (from << 8 | to) or stop
    D_POD_DESTROY = 29           # Cosmos: which collected lifepod an event destroys
    D_BRANCH = 30                # Wormhole: the level's synergy (0) or its patch (1)
    D_KEEP_OBJECTIVE = 31        # Jump Drive tech F: which drawn objective card to keep
    D_FLUX_TRACK = 32            # Flux: the track the flux token goes to (0..4)
    D_DIRECTION = 33             # Makeshift: where a tracker's step goes

cdef enum:
    N_DECISIONS = 34

# Move values with a special meaning
cdef enum:
    MV_STORE = 255              # D_PATCH: keep the patch for the end of the game
    MV_MOVE = 254               # D_ORDER: spend rover movement now
    MV_DONE = 0xFFFF            # D_ROVER_STEP / D_TELEPORT / D_METEORITE: stop

# ==== pending items (a player's pool) =========================================
# Rule: IT_ + the item's label (player_fields()["items"], GameState.give_items).

cpdef enum Item:
    # IT_ADVANCE: a track, b 1 = claim benefits, c 1 = UC tech 4 may double it,
    # c 2+ = that many steps (Oasis water on ice)
    IT_ADVANCE = 1
    IT_ENERGY = 2               # a: candidate track mask
    IT_SYNERGY = 3              # a: SYN_EVENT = an event card's boost (Jump Drive tech C)
    IT_PATCH = 4                # a: 1 = may not be stored (end phase)
    IT_ROVER = 5                # rover milestone
    IT_CHOOSE_ADVANCE = 6       # a: track mask, b: steps, c: 1 = claim benefits
    IT_DISTINCT = 7             # a: trackers still to choose, b: mask already used
    IT_RAISE = 8                # a: target position (Unionization)
    IT_LIFEPOD = 9              # a: lifepods still to collect
    IT_TELEPORT = 10
    IT_LINE = 11
    IT_METEORITE = 12           # a: meteorites still to destroy
    IT_PLACE_TILE = 13          # a: 1 = advance trackers for the tile's resources
    IT_CIV_PICK = 14            # a: rank (option civ_pick_timing = "on_milestone")
    IT_REGRESS = 15             # a: track mask, b: steps
    IT_CHOOSE_ONE = 16          # synergy boost or peek
    IT_KEEP_ONE = 17            # keep one of Player_t.keep[0..1]
    IT_PLACE_METEORITE = 18
    IT_DESTROY_LIFEPOD = 19
    IT_DESTROY_ROVER = 20
    IT_COLLECT_METEORITE = 21   # a: how many
    IT_DISCARD_OBJECTIVE = 22
    IT_ROTATE_STATION = 23
    IT_REMOVE_STACK = 24
    IT_OPTION = 25              # an optional triggered power; a: OPTION_* (D_YES_NO)
    IT_POD_PLACE = 26           # place a newly collected lifepod (Cosmos, Jump Drive)
    IT_POD_MOVE = 27            # a: collected lifepods still to move (Cosmos)
    IT_POD_DESTROY = 28         # a collected lifepod is destroyed (event 114, Cosmos)
    IT_BRANCH = 29              # Wormhole level reached: a = 1 no synergy (Unionization)
    IT_CLAIM_ROW = 30           # Jump Drive tech E: claim the row of a chosen tracker
    IT_KEEP_OBJECTIVE = 31      # Jump Drive tech F: keep one of Game_t.drawn
    IT_FLUX_TRACK = 32          # Flux: a tech unlocked, place the flux token
    IT_STEP = 33                # Makeshift: one step of tracker a (b claim, c no synergy)

# IT_SYNERGY's a: where the boost comes from.  Only Jump Drive tech C tells them
# apart (option jump_drive_tech_c_event_boosts, corp-J7); the pool resolves both alike.
cdef enum:
    SYN_TRACK = 0               # a track's synergy space, or a corporation's power
    SYN_EVENT = 1               # an event card's "take one synergy boost" (81, 84, 117, 118)

# ==== round stages ============================================================
# Rule: ST_ + the stage's label (GameState.stage, GameState.start_stage).

cpdef enum Stage:
    ST_SETUP = 0
    ST_ROUND_START = 1
    ST_ROTATION = 2
    ST_CHECK = 3                # end trigger A: can every player place?
    ST_DRAFT = 4                # players in commander order take and place a tile
    ST_CIV = 5                  # civ picks in commander order
    ST_END_ROUND = 6
    ST_END_EFFECTS = 7          # end phase: stored patches, end-game cards
    ST_END_PICKS = 8            # end phase: civ picks those created
    ST_SCORE = 9
    ST_DONE = 10
    ST_PAUSED = 11              # scenario tests: stop once the pool is resolved
    ST_OBJECTIVES = 12          # setup: players give up dealt private objectives
    ST_EVENT = 13               # reveal the round's event card
    ST_EVENT_PLAYERS = 14       # every player carries it out, commander first
    ST_EVENT_CIV = 15           # civ picks of milestones reached in the event

# Where a player's pool resolution returns to
cdef enum:
    CTX_DRAFT = 0               # a player's draft turn
    CTX_CIV = 1                 # a player's civ-pick turn in the civ step
    CTX_END = 2                 # end phase: stored patches, end-game card effects
    CTX_END_PICKS = 3           # end phase: a player's civ-pick turn
    CTX_EVENT = 4               # a player's part of the event step

# ==== outcome =================================================================
# Rule: STATUS_ + the label of the results' status column; END_ + the label of
# their end_trigger column (pu_sim.simulation.frames).

cpdef enum Status:
    STATUS_OK = 0
    STATUS_TURN_LIMIT = 1        # MAX_ROUNDS reached
    STATUS_DECISION_LIMIT = 2    # MAX_DECISIONS reached
    STATUS_POOL_OVERFLOW = 3     # more pending items than MAX_ITEMS
    STATUS_BAD_MOVE = 4          # a bot returned an index outside the legal moves
    STATUS_NO_LEGAL_MOVE = 5     # a decision with no legal move (engine bug)
    STATUS_BAD_SETUP = 6         # a seat's corporation/planet pool was empty

cpdef enum EndTrigger:
    END_NONE = 0
    END_CANNOT_PLACE = 1         # trigger A
    END_DEPOT_EMPTY = 2          # trigger B
    END_EVENTS = 3               # trigger C

# Rule options (Game_t.options bit flags); see docs/rules-decisions.md.  Rule: OPT_
# + a RuleOptions field, then _ + the value that sets the flag unless it is True
# (False is OFF): civ_pick_timing="on_milestone" sets OPT_CIV_PICK_TIMING_ON_MILESTONE,
# lacuna_oblivion_adjacency_waiver=False OPT_LACUNA_OBLIVION_ADJACENCY_WAIVER_OFF.
# Each option's remaining value is the engine's baseline and has no flag.
cpdef enum RuleFlag:
    # biomass patches anchor adjacency (BGA)
    OPT_PATCHES_ANCHOR_ADJACENCY = 1 << 0
    # 2 players: station turns one step per round
    OPT_TWO_PLAYER_FIXED_ROTATION = 1 << 1
    # storage tech keeps an unplaceable patch
    OPT_STORE_PATCH_WITHOUT_SQUARE = 1 << 2
    # civ picks when the milestone is reached
    OPT_CIV_PICK_TIMING_ON_MILESTONE = 1 << 3
    # BGA: end-phase picks start after the commander
    OPT_END_PHASE_PICK_COMMANDER_NEXT_PLAYER = 1 << 4
    # BGA: a round rule lasts until the next event
    OPT_EVENT_ROUND_RULE_UNTIL_NEXT_EVENT = 1 << 5
    # a suppressed tech level returns next round
    OPT_EVENT_TECH_SUPPRESSION_NEXT_ROUND = 1 << 6
    # BGA: no-milestone rounds still unlock tech
    OPT_EVENT_TECH_SUPPRESSION_NONE = 1 << 7
    # BGA: event 116 may remove a depot's last stack
    OPT_EVENT_MAY_EMPTY_DEPOT = 1 << 8
    # BGA: planet restrictions are never dropped
    OPT_PLANET_FALLBACK_BGA = 1 << 9
    # no Lacuna/Oblivion adjacency waiver (BGA)
    OPT_LACUNA_OBLIVION_ADJACENCY_WAIVER_OFF = 1 << 10
    # BGA: sub-planet bonus checks BGA's boxes
    OPT_CERBERUS_BONUS_REGION_BGA_BOXES = 1 << 11
    # BGA / designer: the one-square slide test
    OPT_PAJITNOV_SLIDE_ONE_STEP = 1 << 12
    # uncovered currents are not "covered" for lines
    OPT_PETRA_CURRENTS_COUNT_COVERED_OFF = 1 << 13
    # a patch on a city does not forfeit its medals
    OPT_GAIA_CITY_COVERED_BY_PATCH_OFF = 1 << 14
    # BGA: Horizon tech 1 rover tiles skip every check
    OPT_HORIZON_TECH1_SCOPE_ALL_CHECKS = 1 << 15
    # BGA: once-per-round powers reset per phase
    OPT_ONCE_PER_ROUND_RESET_BGA_PHASES = 1 << 16
    # BGA: Republic tech 3 jumps between civ terrain
    OPT_REPUBLIC_TECH3_SQUARES_TERRAIN = 1 << 17
    # BGA: Space Citizen Decree counts every lifepod
    OPT_SPACE_CITIZEN_DECREE_COUNTS_ALL_COLLECTED = 1 << 18
    # BGA: Wormhole energy never picks biomass
    OPT_WORMHOLE_ENERGY_BIOMASS_NEVER = 1 << 19
    # Wormhole energy may always pick biomass
    OPT_WORMHOLE_ENERGY_BIOMASS_ALWAYS = 1 << 20
    # BGA: Jump Drive tech D mandatory, per square
    OPT_JUMP_DRIVE_TECH_D_MANDATORY_PER_SQUARE = 1 << 21
    # BGA: Flux tech 1 granted at round start
    OPT_FLUX_TECH1_TRACK_ROUND_START = 1 << 22
    # BGA: Flux tech 2 claims only the milestone
    OPT_FLUX_TECH2_BENEFITS_ON_WAY_OFF = 1 << 23
    # BGA: Flux tech 3's +1 only on rover-track spaces
    OPT_FLUX_TECH3_ROVER_SCOPE_TRACK_ONLY = 1 << 24
    # BGA: synergy/energy may pick a blocked tracker
    OPT_SYNERGY_TARGET_MUST_MOVE_OFF = 1 << 25
    # BGA: Oasis water medal 8 at row 11
    OPT_OASIS_ROW11_MEDAL_8 = 1 << 26
    # BGA: Oasis tech 2 counts rovers when used
    OPT_OASIS_TECH2_TIMING_ON_USE = 1 << 27
    # BGA: Makeshift tech 2 checked on gaining
    OPT_MAKESHIFT_TECH2_CHECK_ON_GAIN = 1 << 28
    # BGA: row 15 diagonally onto the rover top
    OPT_MAKESHIFT_ROW15_DIAGONAL_TO_ROVER_TOP = 1 << 29
    # BGA: Jump Drive tech C never doubles an event's boost
    OPT_JUMP_DRIVE_TECH_C_EVENT_BOOSTS_OFF = 1 << 30

# Event operations (compiled from events.toml) and round rules.  Rule: EV_ + the
# operation the compiler gives an event's immediate effect (its op in events.toml;
# collect_ or destroy_collected_ + the item; choose_synergy_or_peek; none).
cpdef enum EventOp:
    EV_NONE = 0
    EV_ADVANCE_ONE_OF = 1                       # a: track mask, b: steps, c: claim benefits
    EV_REGRESS_ONE_OF = 2                       # a: track mask, b: steps
    EV_SYNERGY_BOOST = 3
    EV_CHOOSE_SYNERGY_OR_PEEK = 4
    EV_GAIN_BIOMASS_PATCHES = 5                 # a: count
    EV_COLLECT_LIFEPOD = 6                      # a: count
    EV_COLLECT_METEORITE = 7                    # a: count
    EV_PLACE_METEORITE_ON_EMPTY_METEOR_SYMBOL = 8
    EV_DESTROY_LIFEPOD_ON_PLANET = 9
    EV_DESTROY_COLLECTED_LIFEPOD = 10
    EV_DESTROY_COLLECTED_METEORITE = 11
    EV_DESTROY_ROVER_ON_PLANET = 12             # b: minimum rovers on the planet
    EV_GAIN_EXTRA_ROVER = 13
    EV_CIV_PILES_ADD_FROM_SET_ASIDE = 14        # global: a reserve card into each pile
    EV_CIV_PILES_REMOVE_RANDOM = 15             # global: a pile card out of each pile
    EV_DRAW_PRIVATE_OBJECTIVES = 16
    EV_DESTROY_PRIVATE_OBJECTIVE = 17
    EV_ROTATE_STATION_TO_ANY_DEPOT = 18
    EV_REMOVE_DEPOT_STACK = 19

# Rule: RR_ + a round rule's op in events.toml; RR_NONE: no rule in force.
cpdef enum RoundRule:
    RR_NONE = 0
    RR_ROVER_CANNOT_ENTER_TERRAIN = 1           # arg: terrain rovers may not enter
    RR_TILE_CANNOT_COVER_EDGE = 2
    RR_TILE_CANNOT_COVER_ICE = 3
    RR_TILE_CANNOT_TOUCH_SAME_TERRAIN = 4
    RR_TILE_RESOURCES_IGNORE_ONE = 5
    RR_NO_MILESTONE_BENEFITS = 6
    RR_NO_SYNERGY_BOOSTS = 7
    RR_PLACE_EXTRA_ROVER_ON_TILE_PLACED_THIS_ROUND = 8

# Objective measures (neighbour side) and conditions (private side).  Rule: OM_ /
# OC_ + the side's kind in objectives.toml.
cpdef enum ObjectiveMeasure:
    OM_COUNT_RESOURCES_ON_EDGE = 1        # a: resource
    OM_LARGEST_TERRAIN_AREA_SIZE = 2      # a: terrain
    OM_TERRAIN_AREA_COUNT = 3             # a: terrain
    OM_COUNT_RESOURCES_ON_PLANET = 4      # a: resource
    OM_TRACKERS_AT_MAXIMUM_COUNT = 5      # a: track mask
    OM_COLLECTED_COUNT = 6                # a: 0 lifepods, 1 meteorites

cpdef enum ObjectiveCondition:
    OC_HAS_SOLID_RECTANGLE = 1            # a: terrain, b: width, c: height, d: either orientation
    OC_HAS_TERRAIN_AREA_WITH_RESOURCES = 2  # a: terrain, b: resource, c: minimum icons
    OC_TRACKER_AT_MAXIMUM = 3             # a: track
    OC_RESOURCE_COUNT_AT_MOST = 4         # a: resource, b: maximum
    OC_COLLECTED_AT_LEAST = 5             # a: item, b: minimum
    OC_COLLECTED_GREATER_THAN = 6         # a: more, b: less
    OC_NO_UNCOVERED_ICE = 7
    OC_NO_UNCOVERED_LAND = 8

cdef enum:
    DECK_SIZE = 20              # the rulebook's deck
    DECK_MAX = 26               # BGA's scheme: green and orange up to 13 each
    NO_CARD = 255               # no objective card
    OBJ_WIN = 5                 # medals for a won neighbour card / a met private card
    OBJ_TIE = 2

# Rover status
cdef enum:
    RV_NONE = 0                 # not owned
    RV_SUPPLY = 1               # on the corporation board
    RV_PLANET = 2
    RV_DESTROYED = 3

# Bot kinds; rule: BOT_ + the kind (pu_sim.bots.BOT_KINDS, checked against it)
cpdef enum BotKind:
    BOT_RANDOM = 0
    BOT_GREEDY = 1
    BOT_SEARCH = 2              # greedy-ordered flat Monte Carlo (core/bots/search.pxi)
    BOT_POLICY = 3              # learned afterstate values (core/bots/policy.pxi)

cdef enum:
    N_BOT_KINDS = 4

# ==== structs ===================================================================


cdef struct Grid:
    uint16_t r[GRID]


cdef struct Orient_t:
    # One distinct orientation of one tile (shape + terrain parts + icons + meteor).
    uint8_t w, h, ncells
    uint8_t dx[5]
    uint8_t dy[5]
    uint8_t part[5]             # 0 = part A, 1 = part B
    uint16_t rows[5]            # footprint, bounding-box relative (row dy, bit dx)
    uint16_t rows_a[5]          # part-A squares
    uint16_t rows_b[5]          # part-B squares
    int8_t icon_a               # cell index of the part-A resource icon
    int8_t icon_b
    int8_t meteor               # cell index of the meteor symbol, -1 if none
    # Precomputed for the greedy evaluator (one lookup per square, no flood fills):
    uint8_t rowcnt[5]           # squares in box row dy
    uint8_t colcnt[5]           # squares in box column dx
    uint8_t n_nbr               # squares outside the tile touching it
    uint8_t perimeter           # tile sides facing outside squares (sum of nbr_mult)
    int8_t nbr_dx[MAX_NBR]
    int8_t nbr_dy[MAX_NBR]
    uint8_t nbr_mult[MAX_NBR]   # tile sides touching that square
    uint8_t nbr_inside[MAX_NBR]  # which of its neighbours (L, R, U, D bits) are tile squares
    uint8_t n_enbr[2]           # squares outside part A / part B touching it
    int8_t enbr_dx[2][MAX_NBR]
    int8_t enbr_dy[2][MAX_NBR]
    # Extents for Pajitnov's slide-in test (computed when the rules load):
    int8_t row_minx[5]          # leftmost / rightmost box column used in box row dy
    int8_t row_maxx[5]
    int8_t col_miny[5]          # top / bottom box row used in box column dx
    int8_t col_maxy[5]


cdef struct Rules_t:
    # tiles
    uint8_t tile_shape[N_TILES]
    uint8_t tile_ta[N_TILES]    # terrain of part A
    uint8_t tile_tb[N_TILES]
    uint8_t tile_meteor[N_TILES]
    uint8_t tile_size[N_TILES]
    uint8_t tile_n_orient[N_TILES]
    Orient_t orient[N_TILES][8]
    # station
    uint8_t shape_tiles[N_SHAPES][STACK_SIZE]
    uint8_t seat_pos[MAX_PLAYERS][MAX_PLAYERS]
    # planets
    uint16_t pmask[MAX_PLANETS][N_PMASK][GRID]
    uint8_t row_medal[MAX_PLANETS][GRID]
    uint8_t col_medal[MAX_PLANETS][GRID]
    uint32_t planet_flags[MAX_PLANETS]
    uint8_t city_medals[MAX_PLANETS]
    uint8_t subplanet_bonus[MAX_PLANETS]
    # corporations
    int8_t space[MAX_CORPS][N_TRACKS][N_POS][N_SPACE_FIELDS]
    uint8_t score_pos[MAX_CORPS][N_TRACKS][16]
    uint8_t tech_level_at[MAX_CORPS][16]   # standard boards: tech level by tech position
    uint8_t corp_rovers[MAX_CORPS]
    uint8_t tech_limit[MAX_CORPS][MAX_TECH + 1]     # LIMIT_* per tech level
    uint8_t tech_activated[MAX_CORPS][MAX_TECH + 1]  # used by choice (a D_POWER option)
    uint8_t corp_has_powers[MAX_CORPS]
    uint8_t tech_pos[MAX_CORPS][MAX_TECH + 1]       # tech track index of each milestone
    int8_t flux_space[N_TRACKS][N_POS][N_SPACE_FIELDS]  # Flux tech 3: improved tracks
    uint8_t path_track[24]               # Oasis: the water path, step -> board space
    uint8_t path_row[24]
    uint8_t path_score[24]               # Oasis: water medal if the tracker ends there
    uint8_t wh_level_a[6]                # Wormhole: biomass index of each level's A space
    uint8_t wh_level_of[16]              # Wormhole: level of each biomass index
    # civ cards (index = id, 0 unused)
    uint8_t card_rank[N_CIV + 1]
    uint8_t card_immediate[N_CIV + 1]
    uint8_t card_op[N_CIV + 1][2]
    uint8_t card_arg[N_CIV + 1][2]
    uint8_t card_when[N_CIV + 1][2]
    uint8_t rank_cards[4][CIV_PER_RANK]
    # events (index = id - 65)
    uint8_t event_colour[N_EVENTS]
    uint8_t event_solo[N_EVENTS]
    uint8_t event_op[N_EVENTS]
    uint8_t event_a[N_EVENTS]
    uint8_t event_b[N_EVENTS]
    uint8_t event_c[N_EVENTS]
    uint8_t event_rule[N_EVENTS]
    uint8_t event_arg[N_EVENTS]
    # objectives (index = id - 37): neighbour (kind, a, b, c, d, higher) and private
    uint8_t obj_neighbour[N_OBJECTIVES][6]
    uint8_t obj_private[N_OBJECTIVES][5]
    # the greedy bot's fitted tables (core/bots/fitted_tables.pxi), run-time data
    FittedTables_t* fitted


cdef struct Rng_t:
    uint64_t s[4]


cdef struct Item_t:
    uint8_t kind, a, b, c


cdef struct Player_t:
    # -- planet ------------------------------------------------------------
    uint16_t occ[GRID]                   # covered by a tile or a biomass patch
    uint16_t terr[N_TERRAINS][GRID]      # placed terrain (patches are biomass)
    uint16_t icon[N_TERRAINS][GRID]      # resource icons of placed tiles
    uint16_t patch[GRID]                 # biomass patches
    uint16_t msym[GRID]                  # meteor symbols of placed tiles
    uint16_t meteorite[GRID]             # meteorites on the planet
    uint16_t lifepod[GRID]               # lifepods still on the planet
    uint16_t last_tile[GRID]             # squares of the last placed tile
    uint16_t rover_at[GRID]              # squares holding one of this player's rovers
    int8_t rover_x[MAX_ROVERS]
    int8_t rover_y[MAX_ROVERS]
    uint8_t rover_status[MAX_ROVERS]
    # -- board -------------------------------------------------------------
    int8_t track[N_TRACKS]               # row of each tracker (Oasis water: path step)
    int8_t col[N_TRACKS]                 # Makeshift: the column (track) it stands on
    uint8_t corp, planet, seat_pos
    uint8_t bot_kind
    # -- collections -------------------------------------------------------
    uint8_t lifepods_collected, meteorites_collected
    uint8_t lifepods_lost, rovers_lost, meteorites_destroyed
    uint16_t pod_on[N_TRACKS]            # Cosmos: track spaces holding a lifepod
    uint8_t pods_on_tracks               # Cosmos: collected lifepods on tracks
    uint8_t pods_on_slots                # Jump Drive: collected lifepods on tech slots
    uint8_t jd_techs                     # Jump Drive: techs unlocked (bit = level 1..6)
    uint8_t extra_obj                    # Jump Drive tech F: the contested card (NO_CARD)
    int8_t flux_track                    # Flux: the flux token's track (-1: not placed)
    uint8_t flux_counts[N_TERRAINS]      # Flux tech 1: rovers per terrain at round start
    uint8_t stored_patches, patches_placed, patches_lost
    uint8_t patches_on_tiles             # Wormhole tech 2: patches laid over tile squares
    uint64_t civ_cards                   # bit (id - 1)
    uint64_t end_effects_done            # end-game card effects already resolved
    # -- the player's turn -------------------------------------------------
    int16_t move_budget
    int16_t round_move                   # round-start movement, spendable all round
    int16_t cond_move                    # Makeshift tech 2: points for two-on-rover steps
    uint8_t used_round                   # once-per-round powers used (bit = tech level)
    uint8_t used_game                    # once-per-game powers used (bit = tech level)
    uint8_t power_declined               # powers declined in this pool resolution
    uint8_t stop_moving                  # movement declined at the end of this pool
    uint8_t n_items
    Item_t items[MAX_ITEMS]
    uint8_t n_owed
    uint8_t owed[MAX_OWED]               # civ ranks waiting for a pick
    uint8_t can_place                    # this round (trigger A check)
    uint8_t waiver_used                  # Lacuna/Oblivion adjacency waiver spent
    uint8_t placements_relaxed           # draft placements with planet rules dropped
    uint8_t place_level                  # fallback level in force this round
    uint8_t tiles_placed, tiles_unplaced
    uint8_t tile_squares                 # squares covered by placed tiles
    uint8_t meteorites_placed            # meteorites put on the planet by tiles
    uint8_t placed_any                   # a tile was ever placed (first-tile rule)
    # -- objectives, events -------------------------------------------------
    uint8_t priv[8]                      # kept private objectives (indices)
    uint8_t n_priv
    uint8_t dealt[4]                     # private objectives dealt, to choose from
    uint8_t n_dealt
    uint8_t keep_priv                    # how many of the dealt cards to keep
    uint8_t tech_suppressed              # levels a no-milestone round kept locked
    Item_t keep[2]                       # the two resolutions when one must be ignored
    uint8_t peeks
    uint32_t priv_met                    # bit k: kept private objective k is met
    # -- results -----------------------------------------------------------
    int16_t score, s_planet, s_tracks, s_lifepods, s_meteorites, s_civ, s_objectives
    int16_t s_private, s_neighbour
    int16_t s_planet_bonus               # part of s_planet: Gaia cities, Cerberus bonus
    uint8_t rank, rows_done, cols_done, uncovered, meteorites_left


cdef struct Game_t:
    Player_t pl[MAX_PLAYERS]
    Rng_t rng
    uint32_t options
    uint8_t n_players
    # station
    uint8_t stack_shape[N_STACKS]        # shape of each stack (ST-4 slot order)
    uint8_t stack[N_STACKS][STACK_SIZE]  # tile ids, index 0 = initial top
    uint8_t stack_pos[N_STACKS]          # tiles taken so far; top = stack[s][pos]
    uint16_t unseen_tops                 # bit s: drafted from; new top hidden (rules-13.13)
    uint8_t shift, rotation
    # round
    uint8_t round, commander, round_commander
    uint8_t stage
    uint8_t order_i                      # position in commander order
    uint8_t active                       # player resolving / deciding
    uint8_t ctx                          # pool context (CTX_*)
    uint8_t in_pool                      # the active player's pool is resolving
    uint8_t moving                       # the active player chose to move rovers now
    uint8_t last_round, end_trigger
    uint8_t status
    # civ card piles
    uint8_t pile[4][CIV_PER_RANK]
    uint8_t pile_n[4]
    uint8_t reserve[4][CIV_PER_RANK]
    uint8_t reserve_n[4]
    # event deck
    uint8_t events_on
    uint8_t deck[DECK_MAX]               # event indices, index 0 revealed first
    uint8_t deck_n, deck_pos
    uint8_t deck_count[3]                # green, orange, red
    uint8_t event                        # the round's event (255: none)
    uint8_t round_rule, rule_arg
    # objectives
    uint8_t obj_deck[N_OBJECTIVES]       # undealt objective cards (event 67 draws here)
    uint8_t obj_n, obj_pos
    uint8_t neighbour[MAX_PLAYERS]       # neighbour cards; card k sits after seat k
    uint8_t n_neighbour
    # the pending decision
    uint8_t decision, decider
    Item_t item                          # the pool item the decision belongs to
    uint8_t pick_rank                    # D_CIV_PICK (ALL_RANKS: every pile)
    uint8_t pick_extra                   # Republic tech 2: a card of the next rank
    uint8_t draft_barred                 # depot slots the draft may not take (bit per slot)
    uint8_t preselected                  # Republic tech 1: 1 moving first, 2 placing
    uint8_t drawn[3]                     # Jump Drive tech F: cards drawn to keep one
    uint8_t n_drawn
    uint8_t place_level                  # D_PLACE: fallback level in force
    uint8_t place_from_depot             # D_PLACE from a civ card (no draft)
    uint32_t n_decisions


cdef struct TableSpec:
    # What every game of a batch shares; per-game choices are drawn from pools.
    uint8_t n_players
    uint16_t corp_pool[MAX_PLAYERS]      # bit c: corporation c allowed in that seat
    uint16_t planet_pool[MAX_PLAYERS]    # bit k: planet k allowed in that seat
    uint8_t unique_asymmetric            # each asymmetric board at most once per game
    uint8_t bot_kind[MAX_PLAYERS]
    uint8_t bot_label[MAX_PLAYERS]
    double bot_params[MAX_PLAYERS][MAX_BOT_PARAMS]
    double rollout_params[MAX_PLAYERS][MAX_BOT_PARAMS]  # greedy weights lookahead uses
    uint32_t options
    int8_t shift                         # -1: random (rules.md ST-5)
    int8_t rotation                      # -1: random initial rotation (ST-15)
    uint8_t stack_shape[N_STACKS]        # station loading (ST-4): shape per slot
    uint8_t events_on                    # the event deck module
    uint8_t deck_random                  # DECK_EXPLICIT, DECK_RANDOM or DECK_BGA_RANDOM
    uint8_t deck_mix[3]                  # green, orange, red when explicit
    uint8_t neighbour_objectives         # multiplayer neighbour cards
    uint8_t private_module               # multiplayer private objectives (deal 2 keep 1)
    uint32_t group_size                  # paired design: games sharing one setup


cdef enum:
    STREAM_SETUP = 1
    STREAM_PLAY = 2
    STREAM_SEARCH = 3           # a search decision's rollouts (seeded from the play stream)
