"""Find a run's game again: its table and root seed, read from the manifest.

A run folder records everything that decides its games (the table, the rule
options, the bots' parameters, the root key), so any game of any run, paired
or not, can be replayed move by move on the slow path with the same result.
"""

from __future__ import annotations

from pathlib import Path

from pu_sim.game import Game
from pu_sim.simulation.files import RunFolderError, StrPath
from pu_sim.simulation.manifest import read_manifest


def replay(run_dir: StrPath, game_id: int) -> Game:
    """Game ``game_id`` of a run folder, dealt and ready to play on the slow path."""
    manifest = read_manifest(run_dir)
    if not 0 <= game_id < manifest.n_games:
        raise RunFolderError(
            f"{Path(run_dir)} has games 0..{manifest.n_games - 1}; no game {game_id}"
        )
    return Game(manifest.plan(), game_index=game_id)
