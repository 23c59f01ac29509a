"""Test support: scenario games, planets drawn as text, invariant checks.

* :class:`ScenarioGame`: a :class:`pu_sim.game.Game` whose position a test
  sets by hand (planet drawings, trackers, rovers, depot tiles, stages,
  events, cards), and the move encoders its decisions take.
* :mod:`pu_sim.testing.drawings`: empty and marked planet drawings; where a
  tile in an orientation lands.
* :func:`frame_violations`: the invariants every played game satisfies.
"""

from pu_sim.testing.drawings import (
    empty_drawing,
    find_placement,
    marked_drawing,
    placement_cells,
    placement_parts,
)
from pu_sim.testing.invariants import frame_violations
from pu_sim.testing.scenario import (
    ScenarioGame,
    place_move,
    square_move,
    step_move,
    tile_id,
)

__all__ = [
    "ScenarioGame",
    "empty_drawing",
    "find_placement",
    "frame_violations",
    "marked_drawing",
    "place_move",
    "placement_cells",
    "placement_parts",
    "square_move",
    "step_move",
    "tile_id",
]
