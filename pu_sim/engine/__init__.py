"""The engine facade: the one way into the compiled core.

* :mod:`pu_sim.engine.core`: the only module that imports ``pu_sim._core``;
  dealing, playing batches, the core's sizes, enums and record layout.
* :mod:`pu_sim.engine.compile`: the game data as the core's integer tables.
* :mod:`pu_sim.engine.rules`: :func:`load_rules`, the data, the compiled
  tables and the greedy bot's fitted tables, as the core plays them.
* :mod:`pu_sim.engine.flags`: rule options as the core's bit flags and deck mode.

Below it lie pure data (:mod:`pu_sim.rules`, :mod:`pu_sim.bots`); above it
everything that plays (:mod:`pu_sim.simulation`, :class:`pu_sim.Game`).
"""

from pu_sim.engine.rules import Rules, load_rules

__all__ = ["Rules", "load_rules"]
