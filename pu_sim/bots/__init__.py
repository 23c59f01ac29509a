"""Bots: who answers a seat's decisions.

A core bot is a kind plus a parameter vector (:mod:`pu_sim.bots.specs`): the
random bot, the greedy bot with named weights and its tuned presets, and the
search bot, and the policy bot (values learned by self-play).
:mod:`pu_sim.bots.fitted` reads and writes the bots' fitted
tables (run-time data the engine loads); :mod:`pu_sim.bots.python` is the
protocol of a bot written in Python.  Bot development (fitting, the ladder,
the search studies) is the lab, :mod:`pu_sim.lab`, above every other layer.

Examples
--------
>>> from pu_sim import bots
>>> bots.parse("greedy_tuned").kind
'greedy'
"""

from pu_sim.bots.specs import (
    BOT_KINDS,
    BOT_NAMES,
    GREEDY_WEIGHTS,
    MAX_BOT_PARAMS,
    POLICY_PARAMS,
    PRESET_KINDS,
    PRESETS,
    RENAMED_PRESETS,
    RETIRED_PRESETS,
    RETIRED_WEIGHTS,
    SEARCH_PARAMS,
    BotSpec,
    greedy,
    parse,
    policy,
    preset,
    random,
    search,
)

__all__ = [
    "BOT_KINDS",
    "BOT_NAMES",
    "GREEDY_WEIGHTS",
    "MAX_BOT_PARAMS",
    "POLICY_PARAMS",
    "PRESETS",
    "PRESET_KINDS",
    "RENAMED_PRESETS",
    "RETIRED_PRESETS",
    "RETIRED_WEIGHTS",
    "SEARCH_PARAMS",
    "BotSpec",
    "greedy",
    "parse",
    "policy",
    "preset",
    "random",
    "search",
]
