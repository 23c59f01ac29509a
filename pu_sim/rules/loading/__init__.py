"""Read ``pu_sim/data/*.toml`` into a validated, frozen :class:`GameData`.

The TOML files are the human-reviewable source of truth for every component.
Everything that a transcription slip could break is checked here, and every
failure is a :class:`~pu_sim.rules.gamedata.DataError` naming the file and the
entry, so a wrong square on a board is reported as, e.g., ``planets.toml:
planet 'lacuna': lifepod (3, 9) is not a 'P' or 'Q' square`` instead of
surfacing as a wrong score later.

One module per component, plus what they share:

* :mod:`~pu_sim.rules.loading.load`: :func:`load_game_data`, the six files
  read and assembled.
* :mod:`~pu_sim.rules.loading.tiles`: families, shapes, tiles, the station.
* :mod:`~pu_sim.rules.loading.planets`: the planet boards.
* :mod:`~pu_sim.rules.loading.corporations`: corporation boards and techs,
  with :mod:`~pu_sim.rules.loading.tracks` for their tracks.
* :mod:`~pu_sim.rules.loading.civ_cards`, :mod:`~pu_sim.rules.loading.events`,
  :mod:`~pu_sim.rules.loading.objectives`: the cards.
* :mod:`~pu_sim.rules.loading.solo_target`: the solo target table and outcome
  rows (in ``events.toml``).
* :mod:`~pu_sim.rules.loading.effects`: the effect vocabulary cards, events
  and corporations share.
* :mod:`~pu_sim.rules.loading.overrides`: a variant's overrides merged into
  the parsed files, by name, before they are read.
* :mod:`~pu_sim.rules.loading.checks`: typed TOML tables and the value checks
  every reader shares.
"""

from pu_sim.rules.loading.effects import EFFECT_OPS, EFFECT_WHEN
from pu_sim.rules.loading.load import DATA_DIR, assemble, load_game_data, read_raw
from pu_sim.rules.loading.objectives import OBJECTIVE_CONDITIONS, OBJECTIVE_MEASURES
from pu_sim.rules.loading.tracks import parse_space

__all__ = [
    "DATA_DIR",
    "EFFECT_OPS",
    "EFFECT_WHEN",
    "OBJECTIVE_CONDITIONS",
    "OBJECTIVE_MEASURES",
    "assemble",
    "load_game_data",
    "parse_space",
    "read_raw",
]
