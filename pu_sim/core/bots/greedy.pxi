# The greedy bot: every option scored by a weighted sum of immediate features.
#
# The weights are the bot's parameter vector (index names below; rule: G_ + the
# weight's name in pu_sim.bots.GREEDY_WEIGHTS, whose order a test checks against
# this enum), so bot variants and strength sweeps are data.
# Track advances are valued by the medals they add, a fraction of the way to the
# next medal, and the benefits they claim; placements add planet features
# (lines completed and filled, holes, compactness, what the tile destroys).
#
# This file holds the weights; the valuations follow in the order the core
# includes them: greedy_tracks, greedy_placement, greedy_choosing (argmax and
# the smaller decisions) and greedy_decisions (greedy_eval, one per kind).

cpdef enum:
    G_LINE_COMPLETE = 0     # per medal of a row/column the placement completes
    G_LINE_FILL = 1         # per medal x share of a line's remaining squares filled
    G_TRACK = 2             # scale of the value of track advances
    G_PROGRESS = 3          # share of the gap to the next medal credited per step
    G_CIV = 4               # value of a civ pick, per rank
    G_SYNERGY = 5           # value of a synergy boost
    G_PATCH = 6             # value of a biomass patch
    G_MOVE = 7              # value of one rover movement point
    G_TECH = 8              # value of a tech level
    G_ROVER = 9             # value of placing a new rover
    G_LIFEPOD_LOST = 10     # penalty per own lifepod covered
    G_ROVER_LOST = 11       # penalty per own rover covered
    G_METEORITE = 12        # penalty per medal of the lines a new meteorite blocks
    G_CONTACT = 13          # per tile side touching a covered square or the rim
    G_HOLE = 14             # penalty per empty square the placement walls in
    G_SIZE = 15             # per square covered
    G_ICE = 16              # penalty per ice square covered by non-water terrain
    G_REACH = 17            # rover-milestone tile close to a lifepod (1 / (1 + d))
    G_STORE = 18            # store a patch when the best square is worth less
    G_METEOR_TARGET = 19    # rover target value of a meteorite (a lifepod is 1)
    G_NOISE = 20            # random tie-break amplitude
    G_OBJECTIVE = 21        # scale of objective-card incentives (greedy_objectives.pxi)
    G_PLANET = 22           # scale of the planets' own scoring terms (core/bots/greedy_planets.pxi)
    G_SHAPE = 23            # scale of rectangle/area card targets (greedy_objectives.pxi)
    G_POCKET = 24           # penalty per pocket of 2-3 free squares the placement closes
    G_TRACK_FIT = 25        # scale of the rollout-fitted track values (greedy_track_fit.pxi)
    G_LINE_CHANCE = 26      # per medal of line-completion chance added (line_chance_at)
    G_REGRESS_RECLAIM = 27  # benefits a regressed tracker claims again on its way back up
    G_REGRESS_DELAY = 28    # benefits ahead of a regressed tracker that it reaches later
    G_EARLY = 29            # benefits count 1 + w/2 times in round 1, 1 - w/2 in the last
    G_OBJECTIVE_CHANCE = 30  # per medal of objective chance added (greedy_objectives.pxi)
    G_NEIGHBOUR = 31        # added to G_OBJECTIVE for the neighbour cards' incentives
    G_METEOR_LINES = 32     # per medal of line chance collecting a meteorite frees
    G_PLACE_FIT = 33        # scale of the fitted placement values (greedy_place_fit.pxi)
    G_NEXT_FIT = 34         # per unit of the next tiles' best value (greedy_next_fit.pxi)
    G_NEXT_FIT_DEEP = 35    # the depot after next's value, relative to the next one's
    G_END_CHAIN = 36        # per medal of the planet the remaining public tiles build
    G_END_ROUNDS = 37       # ... when at most this many rounds remain (greedy_end_chain.pxi)
    G_NTUPLE = 38           # per unit of the learned planet value (greedy_ntuple.pxi)
    G_LOOK_WIDTH = 39       # greedy-best placements the lookaheads start from (next_fit)
    G_ROTATION_FIT = 40     # a rotation by its depots' best placements (greedy_rotation.pxi)
    G_ROTATION_DENY = 41    # ... minus this x the other players' mean depot value
    G_ROTATION_ROUND = 42   # x the learned value of the round a rotation deals (rotation_round)
    G_END_REDEALS = 43      # the endgame's rollouts per placement (greedy_end_rollouts.pxi)
    G_END_OTHER_ROUNDS = 44  # ... and per option of the other decisions in this many rounds
    G_ROTATION_DENY_PLAYERS = 45  # the deny counts with at most this many players (0: any)
    G_ROTATION_WIDTH = 46   # rotations whose rounds rotation_round plays out (1-6)
    G_NTUPLE_PLAYERS = 47   # the learned planet value counts with at most this many (0: any)

cdef enum:
    N_GREEDY = 48
