"""Find a run's game again: its table and root seed, read from the manifest.

A run folder records everything that decides its games (the table, the rule
options, the bots' parameters, the root key), so any game of any run, paired
or not, can be replayed move by move on the slow path with the same result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pu_sim.bots import BotSpec
from pu_sim.game import Game
from pu_sim.rules import RuleOptions, Variant
from pu_sim.simulation.runfolder import RunFolderError, StrPath, read_manifest
from pu_sim.simulation.seeds import RootSeed
from pu_sim.simulation.table import TableSetup

LIST_OPTIONS = ("event_deck_mix", "station_interior_slots", "station_exterior_slots")
"""Options JSON turns from tuples into lists."""


def run_table(manifest: dict[str, Any]) -> TableSetup:
    """The table a run's manifest records (the run's own, not today's defaults)."""
    config = manifest["config"]
    options = dict(config["options"])
    for name in LIST_OPTIONS:
        if isinstance(options.get(name), list):
            options[name] = tuple(options[name])
    return TableSetup(
        players=config["players"],
        corporations=config["corporations"],
        planets=config["planets"],
        bots=[_bot(b) for b in config["bots"]],
        options=RuleOptions(**options),
        unique_asymmetric=config["unique_asymmetric"],
        group_size=config["group_size"],
        variant=None
        if config.get("variant") is None
        else Variant.from_manifest(config["variant"]),
    )


def _bot(record: dict[str, Any]) -> BotSpec | str:
    """A seat's bot as a manifest records it; a Python bot by its class's name."""
    if record["kind"] == "python":
        return str(record["python"])
    return BotSpec(record["kind"], record["params"], record["label"])


def run_seed(manifest: dict[str, Any]) -> RootSeed:
    """The root seed a run played with."""
    seed = manifest["seed"]
    k0, k1 = seed["root_key"]
    spawn = tuple(seed.get("spawn_key") or ())
    return RootSeed(entropy=seed["entropy"], k0=k0, k1=k1, spawn_key=spawn)


def replay(run_dir: StrPath, game_id: int) -> Game:
    """Game ``game_id`` of a run folder, dealt and ready to play on the slow path."""
    manifest = read_manifest(run_dir)
    n_games = int(manifest["n_games"])
    if not 0 <= game_id < n_games:
        raise RunFolderError(
            f"{Path(run_dir)} has games 0..{n_games - 1}; no game {game_id}"
        )
    return Game(run_table(manifest), seed=run_seed(manifest), game_index=game_id)
