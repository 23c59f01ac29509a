"""Run folders as a report reads them: their facts and their games.

A report only *reads* run folders (``manifest.json`` + ``data/*.parquet``):
:func:`find_runs` finds them, :func:`run_info` normalises a manifest's facts,
:func:`load_runs` pools their games with the paired-design ``group`` column.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.analysis.calibration import DECK_COLUMNS
from pu_sim.simulation.frames import SCORE_PARTS

__all__ = [
    "COLUMNS",
    "PAIR_SHIFT",
    "RunInfo",
    "concat_enums",
    "find_runs",
    "get",
    "load_runs",
    "read_manifest",
    "run_info",
]

COLUMNS = (
    "game_id", "seat", "n_players", "corporation", "planet", "bot", "score", "rank",
    "won", *SCORE_PARTS, "status", *DECK_COLUMNS,
)  # fmt: skip
"""Columns a report reads (others stay on disk)."""

PAIR_SHIFT = 40
"""Group ids of different pairing sets are offset by ``index << PAIR_SHIFT``."""


def get(d: dict[str, Any], *paths: str, default: Any = None) -> Any:
    """First value found among dotted paths.

    Run folders written before the runner (the committed reports' older
    manifests) name some facts differently; reading several candidate paths
    keeps reports readable for both.
    """
    for path in paths:
        cur: Any = d
        for part in path.split("."):
            if isinstance(cur, dict) and part in cur:
                cur = cur[part]
            else:
                cur = None
                break
        if cur is not None:
            return cur
    return default


@dataclass(frozen=True)
class RunInfo:
    """The key facts of one run folder's manifest."""

    path: Path
    name: str
    study: str
    n_games: int | None
    seed: Any
    entropy: Any
    players: Any
    bots: list[str]
    group_size: int
    pairing: str | None
    versions: dict[str, Any]
    wall_time_s: float | None
    games_per_s: float | None
    manifest: dict[str, Any] = field(repr=False)


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """The run's ``manifest.json`` as a dict."""
    path = Path(run_dir) / "manifest.json"
    if not path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a run folder: no manifest.json")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _bot_text(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        label = str(entry.get("label") or entry.get("kind") or "?")
        params = entry.get("params") or {}
        if entry.get("kind") == "greedy" and params:
            from pu_sim.bots import GREEDY_WEIGHTS

            changed = {
                k: v
                for k, v in params.items()
                if k in GREEDY_WEIGHTS and v != GREEDY_WEIGHTS[k]
            }
            if changed:
                inner = ", ".join(f"{k}={v:g}" for k, v in changed.items())
                return f"{label} (greedy, {inner})"
        return label
    return str(entry)


def run_info(run_dir: Path) -> RunInfo:
    """Normalised facts of a run folder (tolerant of manifest key names)."""
    run_dir = Path(run_dir)
    m = read_manifest(run_dir)
    bots = get(m, "config.bots", "bots", default=[])
    if not isinstance(bots, list):
        bots = [bots]
    versions = dict(get(m, "versions", default={}) or {})
    git = get(m, "git", default=None)
    if isinstance(git, dict):  # the runner keeps the checkout beside the versions
        versions.setdefault("git_revision", git.get("revision"))
        versions.setdefault("git_dirty", git.get("dirty"))
    return RunInfo(
        path=run_dir,
        name=str(get(m, "metadata.name", "name", "run", default=run_dir.name)),
        study=str(get(m, "metadata.study", "study", default=run_dir.parent.name)),
        n_games=get(m, "n_games", "config.n_games", "games"),
        seed=get(m, "seed.seed", "config.seed", "seed"),
        entropy=get(m, "seed.entropy", "seed_entropy", "entropy", "seed"),
        players=get(m, "config.players", "players"),
        bots=[_bot_text(b) for b in bots],
        group_size=int(get(m, "config.group_size", "group_size", default=1)),
        pairing=get(m, "metadata.pairing", "config.pairing", "pairing"),
        versions=versions if isinstance(versions, dict) else {},
        wall_time_s=get(m, "wall_time_s", "wall_time", "timing.wall_time_s"),
        games_per_s=get(m, "games_per_s", "timing.games_per_s"),
        manifest=m,
    )


def find_runs(path: Path) -> list[Path]:
    """Run folders at or below ``path`` (a run, or a study of runs), sorted."""
    path = Path(path)
    if (path / "manifest.json").is_file():
        return [path]
    return sorted(p.parent for p in path.rglob("manifest.json") if p.parent != path)


def load_runs(run_dirs: Sequence[Path]) -> pl.DataFrame:
    """All rows of the runs, with ``run`` (name) and paired-design ``group``.

    ``group`` is ``game_id // group_size`` within a run; runs that share a
    ``pairing`` name and seed share group ids (their games were dealt the same
    setups), every other run gets its own id range.
    """
    infos = [run_info(d) for d in run_dirs]
    sets: dict[tuple[str, str], int] = {}
    frames = []
    for info in infos:
        files = sorted((info.path / "data").glob("*.parquet"))
        if not files:
            raise FileNotFoundError(
                f"run {info.path} has no data/*.parquet (reports need the run's data)"
            )
        key = (
            (f"pair:{info.pairing}", str(info.entropy))
            if info.pairing
            else ("run", str(info.path))
        )
        index = sets.setdefault(key, len(sets))
        lf = pl.scan_parquet([str(f) for f in files])
        names = lf.collect_schema().names()
        frames.append(
            lf.select([c for c in COLUMNS if c in names])
            .with_columns(
                pl.col("bot").cast(pl.String),
                run=pl.lit(info.name),
                group=(
                    pl.lit(index, pl.UInt64) * (1 << PAIR_SHIFT)
                    + pl.col("game_id").cast(pl.UInt64) // max(info.group_size, 1)
                ),
            )
            .collect()
        )
    return concat_enums(frames)


def concat_enums(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Concatenate frames whose Enum columns may hold different categories.

    Runs label their bots (and, from other versions, corporations) with their
    own Enum; the union keeps each category's first-seen order.
    """
    cats: dict[str, list[str]] = {}
    for f in frames:
        for name, dtype in f.schema.items():
            if isinstance(dtype, pl.Enum):
                known = cats.setdefault(name, [])
                known += [c for c in dtype.categories.to_list() if c not in known]
            elif name == "bot":
                known = cats.setdefault(name, [])
                known += [
                    c for c in f[name].unique(maintain_order=True) if c not in known
                ]
    unified = [
        f.with_columns(
            pl.col(c).cast(pl.String).cast(pl.Enum(v))
            for c, v in cats.items()
            if c in f.columns
        )
        for f in frames
    ]
    return pl.concat(unified, how="diagonal_relaxed")
