"""Shared plumbing of the experiment scripts: flags, run folders, manifests.

Every script in ``experiments/`` declares a frozen ``Config`` dataclass and a
``main(argv=None)`` that calls :func:`cli` for the shared flags
(``--games --seed --jobs --out --smoke``), plays its runs with
:func:`simulate_run`, and writes a report with
:func:`pu_sim.reporting.write_report`.

A *run folder* is what the issue-7 runner produces and what reports read::

    <run>/manifest.json               configuration, seed, versions, timing
    <run>/data/part-<first>-<n>.parquet   one row per (game, seat)

:func:`simulate_run` is a **stand-in for** ``pu_sim.runner`` (issue 7): it
plays the whole run with :func:`pu_sim.simulate` in memory and writes a
single part.  When the runner lands, replace its body with a call to the
runner; the folder layout is the contract and nothing else changes.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pu_sim.bots import BotSpec
from pu_sim.bots import parse as parse_bot
from pu_sim.rules import RuleOptions
from pu_sim.table import SeatChoice

REPO = Path(__file__).resolve().parents[1]

C = TypeVar("C")

SOURCE_PATHS = ("pu_sim", "experiments", "setup.py", "pyproject.toml")
"""What a run's results depend on (reports and docs do not count as dirty)."""


@dataclass(frozen=True, kw_only=True)
class Args:
    """The shared flags after parsing."""

    games: int | None
    seed: int | None
    jobs: int
    out: Path
    smoke: bool


def cli(argv: Sequence[str] | None, *, description: str) -> Args:
    """Parse the shared experiment flags; unknown flags are an error.

    ``--games`` and ``--seed`` default to None: the script's Config decides.
    ``--smoke`` asks for a run of seconds (CI runs every script that way).
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=None, help="games per cell")
    parser.add_argument("--seed", type=int, default=None, help="root seed")
    parser.add_argument("--jobs", type=int, default=2, help="parallel workers (2)")
    parser.add_argument(
        "--out", type=Path, default=Path("reports"), help="reports root (reports/)"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny run for CI")
    ns = parser.parse_args(argv)
    if ns.games is not None and ns.games < 1:
        parser.error(f"--games must be >= 1, got {ns.games}")
    return Args(games=ns.games, seed=ns.seed, jobs=ns.jobs, out=ns.out, smoke=ns.smoke)


def configure(config: C, args: Args, *, smoke: dict[str, Any]) -> C:
    """The Config after the flags.

    ``--smoke`` applies the ``smoke`` overrides, then ``--games`` and
    ``--seed`` replace ``n_games`` and ``seed`` when given.
    """
    changes: dict[str, Any] = dict(smoke) if args.smoke else {}
    if args.games is not None:
        changes["n_games"] = args.games
    if args.seed is not None:
        changes["seed"] = args.seed
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]


def run_name(config: Any, smoke: bool) -> str:
    """A stable folder name from the size and seed (re-running overwrites it)."""
    if smoke:
        return "smoke"
    return f"{config.n_games}-games-seed-{config.seed}"


def git_revision() -> tuple[str | None, bool | None]:
    """The checkout's commit and whether it has uncommitted changes."""
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
            check=True, timeout=10,
        ).stdout.strip()  # fmt: skip
        # Untracked source files count: they change what ran.
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", *SOURCE_PATHS], cwd=REPO,
            capture_output=True, text=True, check=True, timeout=10,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None, None
    return rev, bool(dirty)


def _bot_entry(bot: str | BotSpec) -> dict[str, Any]:
    spec = parse_bot(bot)
    return {"kind": spec.kind, "label": spec.label, "params": dict(spec.params)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    return value


def simulate_run(
    run_dir: Path,
    *,
    study: str,
    n_games: int,
    seed: int,
    n_jobs: int = 2,
    players: int = 1,
    corporations: SeatChoice | Sequence[SeatChoice] = "random",
    planets: SeatChoice | Sequence[SeatChoice] = "random",
    bots: str | BotSpec | Sequence[str | BotSpec] = "greedy",
    options: RuleOptions | None = None,
    group_size: int = 1,
    pairing: str | None = None,
    extra: dict[str, Any] | None = None,
) -> Path:
    """STAND-IN for ``pu_sim.runner`` (issue 7): play a run into ``run_dir``.

    Writes ``manifest.json`` and ``data/part-000000000000-<n>.parquet`` (the
    runner's layout).  ``pairing`` names a set of runs designed to be compared
    game by game: runs with the same pairing name and seed deal identical
    setups (the core seeds each game's setup from the seed and game index
    only), so reports pair them by ``game_id``.

    Returns
    -------
    pathlib.Path
        ``run_dir``.
    """
    from pu_sim import __version__
    from pu_sim._build_check import import_core
    from pu_sim.rules import RULES_VERSION, rules_digest
    from pu_sim.simulation import RootSeed, simulate

    options = options or RuleOptions()
    start = time.perf_counter()
    frame = simulate(
        n_games, players=players, corporations=corporations, planets=planets,
        bots=bots, seed=seed, n_jobs=n_jobs, options=options, group_size=group_size,
    )  # fmt: skip
    wall = time.perf_counter() - start
    data = run_dir / "data"
    data.mkdir(parents=True, exist_ok=True)
    for old in data.glob("part-*.parquet"):
        old.unlink()
    frame.write_parquet(data / f"part-{0:012d}-{n_games:06d}.parquet")
    rev, dirty = git_revision()
    bot_list: list[str | BotSpec] = (
        [bots] if isinstance(bots, (str, BotSpec)) else list(bots)
    )
    import joblib
    import numpy
    import polars

    manifest = {
        "study": study,
        "name": run_dir.name,
        "runner": "stand-in: pu_sim.experiment.simulate_run (issue 7 replaces it)",
        "config": {
            "players": players,
            "corporations": corporations,
            "planets": planets,
            "bots": [_bot_entry(b) for b in bot_list],
            "options": options.as_dict(),
            "group_size": group_size,
            "pairing": pairing,
            **(extra or {}),
        },
        "n_games": n_games,
        "seed": {"seed": seed, "entropy": RootSeed.from_seed(seed).entropy},
        "versions": {
            "pu_sim": __version__,
            "rules_version": RULES_VERSION,
            "engine_version": int(import_core().ENGINE_VERSION),
            "rules_digest": rules_digest(),
            "git_revision": rev,
            "git_dirty": dirty,
            "python": platform.python_version(),
            "numpy": numpy.__version__,
            "polars": polars.__version__,
            "joblib": joblib.__version__,
        },
        "machine": {"cores": os.cpu_count(), "platform": platform.platform()},
        "n_jobs": n_jobs,
        "wall_time_s": wall,
        "games_per_s": n_games / wall if wall > 0 else None,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    (run_dir / "manifest.json").write_text(
        json.dumps(_jsonable(manifest), indent=2) + "\n"
    )
    return run_dir
