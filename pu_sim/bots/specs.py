"""Bot specifications: a core bot is a kind plus a parameter vector.

Every decision of a game is answered by the seat's bot inside the compiled
core, so a bot is data: ``random()``, ``greedy(**weights)`` or
``search(budget=..., width=..., **weights)``.  Variants and strength sweeps are
just different parameter vectors, and the weight sets worth keeping ship as
named presets (:data:`PRESETS`, e.g. ``"greedy_tuned"``).

Why long: every bot kind's settings (greedy's weights, the search and policy
settings), the presets and their history (renamed and retired), and the
checks that give each bad setting its one-line error live together, so a
spec is read and checked in one place.

Examples
--------
>>> from pu_sim import bots
>>> bots.greedy().label
'greedy'
>>> bots.greedy(line_complete=2.0).params["line_complete"]
2.0
>>> bots.search(budget=16).params["width"]
2.0
>>> bots.parse("greedy_tuned").label
'greedy_tuned'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import numpy.typing as npt

MAX_BOT_PARAMS = 51
"""Length of the core's parameter vector per seat."""

GREEDY_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "line_complete": 1.0,  # per medal of a row/column completed
        "line_fill": 0.35,  # per medal x share of a line's remaining squares filled
        "track": 1.0,  # scale of track-advance values
        "progress": 0.5,  # share of the gap to the next medal per step
        "civ": 0.9,  # civ pick value per rank
        "synergy": 0.8,  # a synergy boost
        "patch": 0.6,  # a biomass patch
        "move": 0.25,  # one rover movement point
        "tech": 0.8,  # a tech level
        "rover": 1.2,  # placing a new rover
        "lifepod_lost": 1.0,  # penalty per own lifepod covered
        "rover_lost": 1.5,  # penalty per own rover covered
        "meteorite": 0.3,  # penalty per medal of lines a new meteorite blocks
        "contact": 0.08,  # per tile side touching covered squares or the rim
        "hole": 0.6,  # penalty per walled-in empty square
        "size": 0.15,  # per square covered
        "ice": 0.1,  # penalty per ice square covered by non-water terrain
        "reach": 1.0,  # rover-milestone tile near a lifepod
        "store": 0.2,  # store a patch if the best square is worth less
        "meteor_target": 0.5,  # rover target value of a meteorite (lifepod = 1)
        "noise": 0.0,  # uniform noise added to every option (0: ties only)
        "objective": 1.0,  # scale of objective-card incentives
        "planet": 1.0,  # scale of planet scoring terms (cities, sub-planets)
        "shape": 0.3,  # scale of rectangle/area card targets
        "pocket": 2.0,  # penalty per closed pocket of 2-3 free squares
        "track_fit": 0.0,  # scale of the fitted track-choice values (1: the fit's)
        "line_chance": 0.0,  # per medal of completion chance a placement adds
        "regress_reclaim": 0.0,  # benefits a regressed tracker claims again
        "regress_delay": 0.0,  # benefits ahead of a regressed tracker, now later
        "early": 0.0,  # track benefits worth 1 + w/2 in round 1, 1 - w/2 in the last
        "objective_chance": 0.0,  # per medal of objective-card chance a move adds
        "neighbour": 0.0,  # added to objective for the neighbour cards (multiplayer)
        "meteor_lines": 0.0,  # per medal of line chance collecting a meteorite frees
        "place_fit": 0.0,  # scale of fitted placement values (re-ranks greedy's best 6)
        "next_fit": 0.0,  # per unit of greedy's best value for the next depot's tiles
        "next_fit_deep": 0.0,  # the depot after next, relative to the next (0: one)
        "end_chain": 0.0,  # per medal of the score the game's remaining tiles leave
        "end_rounds": 0.0,  # the end chain runs when at most this many rounds remain
        "ntuple": 0.0,  # per unit of the learned planet value (re-ranks greedy's best)
        "look_width": 12.0,  # greedy-best placements the lookaheads start from (1-12)
        "rotation_fit": 0.0,  # commander: 1 values rotations by its depot's placements
        "rotation_deny": 0.0,  # ... minus this x the other players' mean depot value
        "rotation_round": 0.0,  # commander: x the learned value of the round dealt
        "end_redeals": 0.0,  # endgame rollouts per placement (0: the end chain)
        "end_other_rounds": 0.0,  # ... and per option of the other decisions, rounds
        "rotation_deny_players": 0.0,  # the deny counts with at most this many (0: any)
        "rotation_width": 4.0,  # rotations whose rounds rotation_round plays out (1-6)
        "ntuple_players": 0.0,  # the learned planet value counts with at most (0: any)
    }
)
"""Greedy feature weights in the core's order (pu_sim/core/bots/greedy.pxi G_*)."""

SEARCH_PARAMS: Mapping[str, tuple[int, float]] = MappingProxyType(
    {
        "budget": (48, 16.0),  # rollouts per decision, split over the kept moves
        "width": (49, 2.0),  # greedy-best moves kept (1: play greedy)
        "minor": (50, 1.0),  # share of the budget away from placements and tracks
    }
)
"""Search settings: (slot in the core's vector, default); core/bots/search.pxi S_*.
The search bot's greedy weights fill the first slots, as greedy's do."""

POLICY_PARAMS: Mapping[str, tuple[int, float]] = MappingProxyType(
    {
        # the commander values each station rotation by the best afterstate its
        # own depot's placements leave (the network reads no depot): 1 on, 0 off
        "rotation": (0, 1.0),
        # where next round's depot is known (solo, the 2-player variant), the
        # best `look` placements by their afterstate are judged by the best
        # afterstate the next depot's tiles then leave (0: none)
        "look": (1, 0.0),
        # solo, in the last `roll` rounds (the event deck counts them): a
        # decision's best `roll_width` moves by their afterstate are each judged
        # by the mean final score of `roll_redeals` games the policy plays on
        # from it, on redeals of what it cannot see (0: none)
        "roll": (2, 0.0),
        "roll_width": (3, 3.0),
        "roll_redeals": (4, 8.0),
        # ... each rollout plays on until `roll_horizon` more rounds have
        # begun, where the network judges it (0: to the game's end)
        "roll_horizon": (5, 0.0),
        # ... a placement's candidates: the best `roll_tile_width` of each of
        # the depot's two tiles (0: the best `roll_width`, as other decisions)
        "roll_tile_width": (6, 0.0),
        # ... then the best `roll_finalists` by those rollouts are each rolled
        # out `roll_more` times more, and the best mean of all wins (0: none)
        "roll_finalists": (7, 0.0),
        "roll_more": (8, 0.0),
    }
)
"""Policy bot settings: (slot in the core's vector, default); core/bots/policy.pxi
PP_*."""

MAX_POLICY_LOOK = 16
"""The policy bot's ``look`` and ``roll_width`` cap (core/bots/policy.pxi
POL_LOOK_MAX)."""

MAX_POLICY_ROLL = 20
"""The policy bot's ``roll``: a solo game has about 20 rounds (its event deck)."""

MAX_POLICY_REDEALS = 64
"""The policy bot's rollouts of each move at most."""

BOT_KINDS = ("random", "greedy", "search", "policy")
"""The core's bot kinds, in its order (pu_sim/core/engine/defs.pxi BOT_*); a preset is a
greedy bot with named weights, or a bot of the kind PRESET_KINDS names."""

# Found by experiments/bots/tune_greedy.py; report:
# reports/bots/tune_greedy/20000-games-seed-2026/README.md (weights rounded to 4
# digits).  greedy_tuned then went on by experiments/bots/fit_greedy.py (weights
# fitted to rollouts, seeds 6, 7 and 8: with the line-chance and regress features,
# then objective chances; those superseded reports are in the repository's
# history); the latest refit, reports/bots/fit_greedy/greedy_tuned-1000-games-
# seed-14, started from these weights and was not kept.
_TUNED: Mapping[str, float] = MappingProxyType(
    {
        "line_complete": 0.684,
        "line_fill": 0.3128,
        "track": 0.9129,
        "progress": 0.9743,
        "civ": 0.7966,
        "synergy": 0.9141,
        "patch": 0.8005,
        "move": 0.6942,
        "tech": 0.064,
        "rover": 1.1377,
        "lifepod_lost": 1.3076,
        "rover_lost": 3.5789,
        "meteorite": 0.0,
        "contact": 0.6346,
        "hole": 1.3465,
        "size": 0.0,
        "ice": 0.2654,
        "reach": 0.6852,
        "store": 5.5082,
        "meteor_target": 1.4506,
        "objective": 0.7078,
        "planet": 2.4378,
        "shape": 0.0402,
        "pocket": 2.2802,
        # the fitted track table (track_values.py, greedy's units) at
        # 0.75 of its own scale: best of 0.5-1.25 on paired solo games
        "track_fit": 0.75,
        "line_chance": 1.6033,
        "regress_reclaim": 0.4831,
        "regress_delay": 0.5161,
        "early": 0.0,
        "objective_chance": 2.248,
        # the neighbour cards keep the previous preset's scale (1.2706):
        # the solo fit lowered objective, which also scaled them
        "neighbour": 0.5628,
        # the fitted placement table at its own scale (placement_values.py)
        "place_fit": 1.0,
        # the next depot's tiles valued on each of the best 12 placements'
        # planets: best of 0.25-1.0 on paired solo games
        "next_fit": 0.75,
        # in solo and with 2 players the depot after next is known too:
        # best of 0.3-1.5 on paired solo games
        "next_fit_deep": 0.5,
        # in the last 6 rounds of solo games, the best 12
        # placements followed through every remaining depot's public
        # tiles and valued by the score they leave: best of 0.8-4.0
        # on paired solo games (1.7-2.5 alike)
        "end_chain": 2.0,
        "end_rounds": 5.0,
        # the lookaheads and the chain start from greedy's best 10, not 12:
        # -0.02 +- 0.06 solo points (16,000 paired seeds), 2-player share
        # 50.2% +- 1.0%, at 1.13x the solo speed (docs/bots.md, Speed)
        "look_width": 10.0,
        # the commander's rotation by the depots it deals (3+ players; solo:
        # event 79): one seat with it among seats without finished ahead of
        # 70.3% of its opponents at 3 players, 64.6% at 4, 59.5% at 6 (paired
        # base games, every seat order); deny 0.75-1.5 play alike
        "rotation_fit": 1.0,
        "rotation_deny": 1.0,
        # ... the deny with 3 players only: at 4-6 it is worth 0.1-0.9 points
        # of share (one seat without it among seats with it: 49.1/49.4/49.5%
        # at 4/5/6 players on base boards, 49.3/49.5/49.9% on random boards,
        # 4,000 setups each; at 3 players 47.3% and 48.7%) for about a third of the
        # 4-6 player time (docs/bots.md, "The commander's rotation at 4 players")
        "rotation_deny_players": 3.0,
    }
)
PRESETS: Mapping[str, Mapping[str, float]] = MappingProxyType(
    {
        # every corporation and planet: tuned on the base game (solo score and wins
        # against three default seats), then fitted to rollouts of solo games with
        # random corporations and planets
        "greedy_tuned": _TUNED,
        # the learned bot: greedy_tuned's play plus two values learned from
        # rollouts: the planet value at 0.5 (reports/bots/ntuple_values; beside
        # greedy_tuned's depot lookaheads +0.3 solo points, 0.5-1.0 alike) and
        # the commander's rotation value (reports/bots/rotation_round: one seat
        # with it finished ahead of 61.1% of greedy_tuned opponents at 3
        # players, 58.4% at 4).  In the last 6 solo rounds rollouts of the
        # game's end value its kept placements instead of greedy_tuned's chain:
        # 3 redeals each, 6 more for the best 3, at 4 per medal (+1.2 solo
        # points; 3-6 alike), and in the last 3 the options of every other
        # decision but the steps alike (+1.5 more; 6 and 3 rather than 5 and 4:
        # +0.13 +- 0.05 over 16,000 seeds; docs/bots.md, "Endgame rollouts")
        "greedy_learned": MappingProxyType(
            {
                **_TUNED,
                "ntuple": 0.5,
                "rotation_round": 1.0,
                "end_chain": 4.0,
                "end_rounds": 6.0,
                "end_redeals": 3.0,
                "end_other_rounds": 3.0,
                # the lookaheads and rollouts from all 12 kept placements
                # (10: -0.08 +- 0.12 solo points)
                "look_width": 12.0,
                # from 3 players on, neither the learned planet value nor the
                # deny above 3 players (greedy_tuned's): one such seat among
                # greedy_learned seats of before finished ahead of 51.0-51.5% of
                # them at 3-6 players on random boards, 49.1% at 3 and 4 on base
                # boards, at 1.4-1.7x the speed (reports/bots/strength_cost;
                # docs/bots.md, "What the learned bot's parts cost and buy")
                "ntuple_players": 2.0,
            }
        ),
        # the learned policy: every decision by the value a network learned by
        # self-play gives the position each move leaves (core/bots/policy.pxi,
        # its weights pu_sim/data/fitted/policy.npz, docs/bots.md "A policy
        # learned from outcomes"); shares no valuation with greedy.  Solo, at
        # each choice (a rover's or lifepod's steps aside) its best 5 moves (a
        # placement: each tile's best 3) are each judged by 4 games it plays
        # on until 8 more rounds have begun, where the network judges
        # them, and the best 2 by 8 more (docs/bots.md, "Rollouts cut short",
        # "Close choices rolled out further"; its multiplayer play is one-ply)
        "policy_td": MappingProxyType(
            {
                "rotation": 1.0,
                "roll": 20.0,
                "roll_width": 5.0,
                "roll_redeals": 4.0,
                # 8 rounds, not 3, with the best 2 rolled out 8 more
                # times: +2.77 +- 0.46 solo points on 1,000 paired random-board seeds
                # (docs/bots.md, "Close choices rolled out further")
                "roll_horizon": 8.0,
                # both tiles' best 3 placements rolled out, not the best 5
                # by value: +0.90 +- 0.39 solo points on 1,000 paired random-
                # board seeds (docs/bots.md, "Both tiles rolled out")
                "roll_tile_width": 3.0,
                "roll_finalists": 2.0,
                "roll_more": 8.0,
            }
        ),
    }
)
"""Named settings: ``parse(name)`` plays ``greedy(name, **weights)``, or, for
a name of PRESET_KINDS, a bot of that kind with those settings.

``greedy_tuned`` is tuned for the base game (solo score and 4-player wins) and
plays every corporation's seat (see RETIRED_PRESETS).  ``greedy_learned`` (the
learned bot) is greedy_tuned with two values learned from rollouts (the planet
value with 1 and 2 players, the commander's rotation value from 3) and, in the
last solo rounds, rollouts of its kept placements and other choices: stronger
than greedy_tuned in solo and with 3 or more players, and slower (the bot
ladder, benchmark and strength-cost reports measure both).
"""

PRESET_KINDS: Mapping[str, str] = MappingProxyType({"policy_td": "policy"})
"""The presets that are not greedy weight sets, and their bot kind."""

RETIRED_WEIGHTS = (
    "reports/bots/tune_greedy/20000-games-seed-2026/tables/tuned_weights.csv"
)
"""Where the retired presets' weights stay (relative to the repository)."""

RETIRED_PRESETS: Mapping[str, str] = MappingProxyType(
    {
        name: (
            f"preset {name!r} was retired: greedy_tuned now plays the {corp} seat "
            f"as well or better (the preset won {margin} of 4-player games less "
            "on that seat, 4,000 setups; README, Tuned greedy presets); use "
            f"'greedy_tuned'.  Its weights (with track_fit 4 on the track table of "
            f"then) are in {RETIRED_WEIGHTS}"
        )
        for name, corp, margin in (
            ("greedy_tuned_cosmos", "Cosmos Inc.", "1.2 +- 1.3 points"),
            ("greedy_tuned_wormhole", "Wormhole Corp.", "1.8 +- 1.3 points"),
        )
    }
)
"""Presets that no longer earn their place, with why and what to use instead."""

RENAMED_PRESETS: Mapping[str, str] = MappingProxyType(
    {
        "greedy_fast": (
            "preset 'greedy_fast' was renamed 'greedy_learned': with its endgame "
            "rollouts it is no longer faster than greedy_tuned; use 'greedy_learned'"
        ),
    }
)
"""Presets under an earlier name, with the name to use."""

BOT_NAMES: tuple[str, ...] = (*BOT_KINDS, *PRESETS)
"""Every name :func:`parse` accepts."""


@dataclass(frozen=True)
class BotSpec:
    """A core bot: its kind, its parameters and the label used in results."""

    kind: str
    params: Mapping[str, float] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if self.kind not in BOT_KINDS:
            raise ValueError(
                f"unknown bot kind {self.kind!r}; valid kinds: {BOT_KINDS}"
            )
        for name, value in self.params.items():
            _check_param(self.label or self.kind, name, value)
        if not self.label:
            object.__setattr__(self, "label", self.kind)

    def vector(self) -> npt.NDArray[np.float64]:
        """The parameter vector the core reads."""
        out = np.zeros(MAX_BOT_PARAMS, dtype=np.float64)
        if self.kind == "policy":
            for name, (slot, default) in POLICY_PARAMS.items():
                out[slot] = self.params.get(name, default)
        if self.kind in ("greedy", "search"):
            for i, name in enumerate(GREEDY_WEIGHTS):
                out[i] = self.params.get(name, GREEDY_WEIGHTS[name])
        if self.kind == "search":
            for name, (slot, default) in SEARCH_PARAMS.items():
                out[slot] = self.params.get(name, default)
        return out

    def rollout_vector(self) -> npt.NDArray[np.float64]:
        """Greedy weights a search bot's rollouts play this seat with.

        Its own for greedy and search seats, greedy's defaults for any other bot;
        without the endgame chain (``end_chain``): a rollout already plays the
        remaining rounds, and the chain would make its last rounds ~10x costlier
        (tried: search-8 no stronger, -0.1 +- 1.5 medals, at four times the time;
        search-32 with it -0.5 +- 0.9 against search-64 without, at twice its time).
        Without the learned rotation value (``rotation_round``) either: it plays
        four rounds out at each commander's rotation, which made a 3-player
        search-64 game with a greedy_learned seat several times as long; a rollout
        turns the station by the depot rule.
        """
        if self.kind in ("greedy", "search"):
            out = self.vector()
            out[len(GREEDY_WEIGHTS) :] = 0.0
            for costly in ("end_chain", "rotation_round"):
                out[list(GREEDY_WEIGHTS).index(costly)] = 0.0
            return out
        return greedy().vector()


MAX_WEIGHT = 1e6
"""Greedy weights must be finite and within +-MAX_WEIGHT (the tuned ones stay
within +-10): a NaN, an infinity or a weight near the float limit makes a
move's value NaN or inf, and the bot's choice meaningless."""

MAX_BUDGET = 100_000
"""Search rollouts per decision at most (budget 64 already takes ~35 s a game)."""

MAX_WIDTH = 64
"""Search: greedy-best moves kept at most."""

MAX_LOOK_WIDTH = 12
"""Greedy's lookaheads start from at most this many placements (core NEXT_FIT_K)."""

MAX_ROTATION_WIDTH = 6
"""The commander chooses among six rotations (SS-3; core STATION_ORIENTATIONS)."""


WHOLE_BOUNDS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {
        "look": (0, MAX_POLICY_LOOK),
        "roll": (0, MAX_POLICY_ROLL),
        "roll_width": (1, MAX_POLICY_LOOK),
        "roll_redeals": (1, MAX_POLICY_REDEALS),
        "roll_horizon": (0, MAX_POLICY_ROLL),
        "roll_tile_width": (0, MAX_POLICY_LOOK // 2),
        "roll_finalists": (0, MAX_POLICY_LOOK),
        "roll_more": (0, MAX_POLICY_REDEALS),
        "look_width": (1, MAX_LOOK_WIDTH),
        "rotation_width": (1, MAX_ROTATION_WIDTH),
    }
)
"""Settings that count something: their whole-number bounds."""


def _check_param(bot: str, name: str, value: object) -> None:
    """One clear line for a parameter outside its documented bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.number):
        raise ValueError(f"bot {bot!r}: {name} must be a number, got {value!r}")
    v = float(value)
    if not np.isfinite(v):
        raise ValueError(f"bot {bot!r}: {name} must be finite, got {value!r}")
    if name == "budget" and not 0 <= v <= MAX_BUDGET:
        raise ValueError(f"bot {bot!r}: budget must be 0..{MAX_BUDGET}, got {value!r}")
    if name == "width" and not 1 <= v <= MAX_WIDTH:
        raise ValueError(f"bot {bot!r}: width must be 1..{MAX_WIDTH}, got {value!r}")
    if name in ("minor", "rotation") and not 0 <= v <= 1:
        raise ValueError(f"bot {bot!r}: {name} must be 0..1, got {value!r}")
    if name in WHOLE_BOUNDS:
        lo, hi = WHOLE_BOUNDS[name]
        if not (lo <= v <= hi and v == int(v)):
            raise ValueError(
                f"bot {bot!r}: {name} must be a whole number {lo}..{hi}, got {value!r}"
            )
    if abs(v) > MAX_WEIGHT:
        raise ValueError(
            f"bot {bot!r}: weight {name} must be within +-{MAX_WEIGHT:g}, got {value!r}"
        )


def _check_settings(
    label: str, what: str, settings: Mapping[str, float], valid: list[str]
) -> None:
    """One clear line for an unknown setting (naming the valid ones) or a bad value."""
    unknown = sorted(set(settings) - set(valid))
    if unknown:
        raise ValueError(
            f"bot {label!r}: unknown {what} {unknown}; valid: {', '.join(valid)}"
        )
    for name, value in settings.items():
        _check_param(label, name, value)


def random(label: str = "random") -> BotSpec:
    """Uniform over the legal moves of every decision."""
    return BotSpec("random", {}, label)


def greedy(label: str = "greedy", **weights: float) -> BotSpec:
    """Weighted-feature greedy bot; unnamed weights take the defaults.

    Raises ValueError for a weight name that does not exist.
    """
    _check_settings(label, "greedy weight(s)", weights, sorted(GREEDY_WEIGHTS))
    params = {**GREEDY_WEIGHTS, **{k: float(v) for k, v in weights.items()}}
    return BotSpec("greedy", MappingProxyType(params), label)


def search(
    label: str = "search",
    budget: int = int(SEARCH_PARAMS["budget"][1]),
    width: int = int(SEARCH_PARAMS["width"][1]),
    minor: float = SEARCH_PARAMS["minor"][1],
    **weights: float,
) -> BotSpec:
    """Lookahead bot: greedy's best moves judged by greedy rollouts.

    At each decision greedy's `width` best moves get ``budget // width``
    rollouts each (on determinized copies: hidden tiles and cards reshuffled)
    and the move with the best mean final result is played.  Decisions other
    than placements and track choices get `minor` times the budget (0: greedy
    plays them), since search gains little there.

    Rollouts play greedy with `weights` for this seat; ``budget=0`` or
    ``width=1`` plays exactly as ``greedy(**weights)``.  Cost grows linearly
    with `budget`.  Raises ValueError for a negative budget, a width below 1
    or an unknown weight.
    """
    if budget < 0 or width < 1 or minor < 0:
        raise ValueError(
            f"bot {label!r}: search needs budget >= 0, width >= 1 and minor >= 0, "
            f"got {budget}, {width}, {minor}"
        )
    base = greedy(label, **weights)
    params = {**base.params, "budget": float(budget), "width": float(width),
              "minor": float(minor)}  # fmt: skip
    return BotSpec("search", MappingProxyType(params), label)


def policy(label: str = "policy", **settings: float) -> BotSpec:
    """The learned policy bot of these settings (:data:`POLICY_PARAMS`).

    Every decision by the value its network (learned by self-play,
    pu_sim/data/fitted/policy.npz) gives the position each move leaves.

    Raises ValueError for a setting that does not exist.
    """
    _check_settings(label, "policy setting(s)", settings, list(POLICY_PARAMS))
    params = {name: float(settings.get(name, default))
              for name, (_, default) in POLICY_PARAMS.items()}  # fmt: skip
    return BotSpec("policy", MappingProxyType(params), label)


def preset(name: str) -> BotSpec:
    """The bot of a named preset, labelled with its name.

    A greedy bot, or a bot of the kind PRESET_KINDS names.
    """
    if name in RETIRED_PRESETS:
        raise ValueError(RETIRED_PRESETS[name])
    if name in RENAMED_PRESETS:
        raise ValueError(RENAMED_PRESETS[name])
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r}; valid presets: {list(PRESETS)}")
    if PRESET_KINDS.get(name) == "policy":
        return policy(name, **PRESETS[name])
    return greedy(name, **PRESETS[name])


def parse(spec: str | BotSpec) -> BotSpec:
    """A bot from its name or a spec.

    A name is ``"random"``, ``"greedy"``, ``"search"`` or a preset
    (``"greedy_tuned"``), optionally followed by ``:name=value`` settings:
    ``"search:budget=64:width=2"``, ``"greedy_tuned:noise=0.1"``,
    ``"greedy:line_complete=2"``.  The bot's label is the string itself.

    Examples
    --------
    >>> parse("search:budget=64").params["budget"]
    64.0
    """
    if isinstance(spec, BotSpec):
        return spec
    if not isinstance(spec, str):
        raise TypeError(f"a bot is a name or a BotSpec, got {spec!r}")
    name, *settings = spec.strip().split(":")
    if name in RETIRED_PRESETS or name in RENAMED_PRESETS:
        return preset(name)
    if name not in BOT_NAMES:
        raise ValueError(
            f"unknown bot {spec!r}; valid bots: {', '.join(BOT_NAMES)} (settings "
            "as name:key=value, e.g. search:budget=64:width=2)"
        )
    values = dict(_setting(spec, s) for s in settings)
    if name == "random":
        if values:
            raise ValueError(f"bot {spec!r}: the random bot has no settings")
        return random()
    label = spec.strip() if settings else name
    if name == "policy" or PRESET_KINDS.get(name) == "policy":
        base = dict(PRESETS[name]) if name in PRESETS else {}
        return policy(label, **{**base, **values})
    if name == "search":
        budget = values.pop("budget", SEARCH_PARAMS["budget"][1])
        width = values.pop("width", SEARCH_PARAMS["width"][1])
        minor = values.pop("minor", SEARCH_PARAMS["minor"][1])
        for key, bound in (("budget", budget), ("width", width)):
            if bound != int(bound):
                raise ValueError(f"bot {spec!r}: {key} must be a whole number")
        return search(label, int(budget), int(width), minor, **values)
    base = dict(PRESETS[name]) if name in PRESETS else {}
    return greedy(label, **{**base, **values})


def _setting(spec: str, text: str) -> tuple[str, float]:
    """``key=value`` of a bot string, the value a number."""
    key, sep, value = text.partition("=")
    try:
        if not sep or not key:
            raise ValueError
        return key.strip(), float(value)
    except ValueError:
        raise ValueError(
            f"bot {spec!r}: settings are key=number, got {text!r}"
        ) from None
