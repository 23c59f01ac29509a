"""The game's rules as data: its components, the rule options, variants.

Pure Python, no compiled core (the engine compiles the data,
:mod:`pu_sim.engine`):

* :mod:`pu_sim.rules.gamedata`: the components as frozen Python objects.
* :mod:`pu_sim.rules.loading`: ``pu_sim/data/*.toml`` read and validated.
* :mod:`pu_sim.rules.variant`: :class:`Variant`, a TOML file of changes to
  the published data (a designer's what-if).
* :mod:`pu_sim.rules.options`: :class:`RuleOptions`, the reference's ambiguities.
* :mod:`pu_sim.rules.identity`: ``RULES_VERSION`` and the data digest.
* :mod:`pu_sim.rules.planet_text`: planets drawn as text and read back.
"""

from pu_sim.rules.gamedata import DataError, GameData
from pu_sim.rules.identity import RULES_VERSION, rules_digest
from pu_sim.rules.loading import load_game_data
from pu_sim.rules.options import RuleOptions
from pu_sim.rules.variant import Variant, as_variant

__all__ = [
    "RULES_VERSION",
    "DataError",
    "GameData",
    "RuleOptions",
    "Variant",
    "as_variant",
    "load_game_data",
    "rules_digest",
]
