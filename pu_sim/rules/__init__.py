"""The game's rules: its components as data, the rule options, the core's tables.

* :mod:`pu_sim.rules.gamedata`: the components as frozen Python objects.
* :mod:`pu_sim.rules.loading`: ``pu_sim/data/*.toml`` read and validated.
* :mod:`pu_sim.rules.variant`: :class:`Variant`, a TOML file of changes to
  the published data (a designer's what-if).
* :mod:`pu_sim.rules.options`: :class:`RuleOptions`, the reference's ambiguities.
* :mod:`pu_sim.rules.compile`: the data as the integer tables the core reads;
  :func:`load_rules`, ``RULES_VERSION`` and the data digest.
"""

from pu_sim.rules.compile import RULES_VERSION, Rules, load_rules, rules_digest
from pu_sim.rules.gamedata import DataError, GameData
from pu_sim.rules.loading import load_game_data
from pu_sim.rules.options import RuleOptions
from pu_sim.rules.variant import Variant, as_variant

__all__ = [
    "RULES_VERSION",
    "DataError",
    "GameData",
    "RuleOptions",
    "Rules",
    "Variant",
    "as_variant",
    "load_game_data",
    "load_rules",
    "rules_digest",
]
