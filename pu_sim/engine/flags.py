"""Rule options as the core reads them: bit flags and the event deck's mode.

An option value sets the core's ``RuleFlag`` member spelled by
:func:`pu_sim.rules.options.flag_name` (``civ_pick_timing="on_milestone"``
is ``OPT_CIV_PICK_TIMING_ON_MILESTONE``); a value without a member is the
engine's baseline.  Options the table spec carries as fields of their own
(:data:`pu_sim.rules.options.TABLE_OPTIONS`) set no flag.
"""

from __future__ import annotations

from pu_sim.engine import core
from pu_sim.rules.gamedata import GameData
from pu_sim.rules.options import TABLE_OPTIONS, RuleOptions, flag_name


def option_flags(options: RuleOptions) -> int:
    """The options as the core's ``RuleFlag`` bits."""
    members = core.members("RuleFlag")
    bits = 0
    for name in RuleOptions.choices():
        if name not in TABLE_OPTIONS:
            bits |= members.get(flag_name(name, getattr(options, name)), 0)
    return bits


def deck_spec(
    options: RuleOptions, data: GameData, players: int
) -> tuple[int, tuple[int, int, int]]:
    """The core's deck mode code and colour counts (:meth:`RuleOptions.deck_mix`)."""
    mode, counts = options.deck_mix(data, players)
    return core.code("DeckMode", mode), counts
