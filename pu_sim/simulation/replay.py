"""Find a run's game again: its table and root seed, read from the manifest.

A run folder records everything that decides its games (the table, the rule
options, the bots' parameters, the root key), so any game of any run, paired
or not, can be replayed move by move on the slow path with the same result.
"""

from __future__ import annotations

import warnings
from pathlib import Path

from pu_sim.game import Game
from pu_sim.simulation.checks import check_game_index
from pu_sim.simulation.files import RunFolderError, StrPath
from pu_sim.simulation.manifest import read_manifest
from pu_sim.simulation.runfolder import RunFolderWarning, check_run


def replay(run_dir: StrPath, game_id: int) -> Game:
    """Game ``game_id`` of a run folder, dealt and ready to play on the slow path.

    A manifest edited by hand is refused (its games are not the ones
    recorded).  A run with games missing or damaged still replays any game
    from its seed, with a :class:`RunFolderWarning` saying which games its
    folder lacks and how to repair them.
    """
    manifest = read_manifest(run_dir)
    check_game_index(game_id, "game_id")
    if not 0 <= game_id < manifest.n_games:
        raise RunFolderError(
            f"{Path(run_dir)} has games 0..{manifest.n_games - 1}; no game {game_id}"
        )
    check = check_run(run_dir, manifest)
    if not check.complete:
        warnings.warn(
            f"{check.problem()}; game {game_id} is replayed from the run's seed all "
            "the same",
            RunFolderWarning,
            stacklevel=2,
        )
    return Game(manifest.plan(), game_index=game_id)
