"""Run folders as a report reads them: their facts and their games.

A report only *reads* run folders (``manifest.json`` + ``data/*.parquet``),
through :mod:`pu_sim.simulation.runfolder`, their only reader:
:func:`run_info` takes a manifest's key facts, :func:`load_runs` pools the
runs' games with the paired-design ``group`` column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.analysis.calibration import DECK_COLUMNS
from pu_sim.simulation import runfolder
from pu_sim.simulation.frames import SCORE_PARTS
from pu_sim.simulation.manifest import BotRecord, RunManifest, read_manifest

__all__ = [
    "COLUMNS",
    "PAIR_SHIFT",
    "RunInfo",
    "concat_enums",
    "load_round_scores",
    "load_runs",
    "run_info",
]

COLUMNS = (
    "game_id", "seat", "n_players", "corporation", "planet", "bot", "score", "rank",
    "won", *SCORE_PARTS, "rounds", "end_trigger", "status", *DECK_COLUMNS,
)  # fmt: skip
"""Columns a report reads (others stay on disk)."""

PAIR_SHIFT = 40
"""Group ids of different pairing sets are offset by ``index << PAIR_SHIFT``."""


@dataclass(frozen=True)
class RunInfo:
    """The key facts of one run folder's manifest."""

    path: Path
    name: str
    study: str
    n_games: int | None
    seed: Any
    root_key: tuple[int, int]
    players: Any
    bots: list[str]
    group_size: int
    pairing: str | None
    versions: dict[str, Any]
    wall_time_s: float | None
    games_per_s: float | None
    manifest: RunManifest = field(repr=False)
    status: str = "complete"
    completed_games: int | None = None
    role: str = ""
    ladder: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    variant: str = "published"  # the variant's name and short digest
    seat_corporations: tuple[Any, ...] = ()
    seat_planets: tuple[Any, ...] = ()
    bot_specs: tuple[BotRecord, ...] = ()

    @property
    def partial(self) -> bool:
        """Whether the run stopped before its last game (interrupted, running)."""
        done = self.completed_games
        return self.status != "complete" or (
            isinstance(done, int) and isinstance(self.n_games, int)
            and done < self.n_games
        )  # fmt: skip


def _bot_text(entry: BotRecord) -> str:
    """A bot of the manifest as the report names it (greedy: with its changes)."""
    from pu_sim.bots import PRESETS, SEARCH_PARAMS

    label = entry.label or entry.kind
    params = entry.params
    if entry.python is not None:
        return f"{label} (Python bot {entry.python.removeprefix('python:')})"
    if label in PRESETS and all(params.get(k) == v for k, v in PRESETS[label].items()):
        return label
    if entry.kind == "search":
        budget, width, minor = (
            params.get(k, default) for k, (_, default) in SEARCH_PARAMS.items()
        )
        over, differs = _closest_preset(params)
        return (
            f"{label} (search: {budget:g} rollouts per decision over the {width:g}"
            f" best moves by {over}'s weights"
            + (f" with {differs}" if differs else "")
            + (", placements and tracks only)" if minor == 0 else ")")
        )
    if entry.kind == "greedy" and params:
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


def _closest_preset(params: dict[str, Any]) -> tuple[str, str]:
    """The preset (or greedy) whose weights ``params`` change least, and the changes."""
    from pu_sim.bots import GREEDY_WEIGHTS, PRESETS

    def changes(base: dict[str, float]) -> list[str]:
        return [
            f"{k}={params[k]:g}"
            for k in GREEDY_WEIGHTS
            if k in params and params[k] != base.get(k, GREEDY_WEIGHTS[k])
        ]

    options = {
        "greedy": changes({}),
        **{n: changes(dict(w)) for n, w in PRESETS.items()},
    }
    best = min(options, key=lambda n: len(options[n]))
    return best, ", ".join(options[best])


def run_info(run_dir: Path) -> RunInfo:
    """The key facts of a run folder, read from its manifest."""
    run_dir = Path(run_dir)
    m = read_manifest(run_dir)
    versions = dict(m.versions)
    if m.git is not None:  # the runner keeps the checkout beside the versions
        versions.setdefault("git_revision", m.git.get("revision"))
        versions.setdefault("git_dirty", m.git.get("dirty"))
    variant = m.config.variant
    return RunInfo(
        path=run_dir,
        name=m.name or run_dir.name,
        study=m.study or run_dir.resolve().parent.name,
        n_games=m.n_games,
        seed=m.config.seed if m.config.seed is not None else m.seed.to_json(),
        root_key=(m.seed.root_key[0], m.seed.root_key[1]),
        players=m.config.players,
        bots=[_bot_text(b) for b in m.config.bots],
        group_size=max(int(m.config.group_size or 1), 1),
        pairing=m.pairing,
        versions=versions,
        wall_time_s=m.wall_time_s,
        games_per_s=m.games_per_s,
        manifest=m,
        status=m.status,
        completed_games=m.completed_games,
        role=m.role,
        ladder=m.ladder,
        options=dict(m.config.options),
        variant="published" if variant is None
        else f"variant {variant.get('name')} ({str(variant.get('digest'))[:12]})",
        seat_corporations=tuple(_seat_pools(m.config.corporations)),
        seat_planets=tuple(_seat_pools(m.config.planets)),
        bot_specs=tuple(m.config.bots),
    )  # fmt: skip


def _seat_pools(value: Any) -> list[Any]:
    """Each seat's pool as a hashable value (a name, "random", or a tuple)."""
    if not isinstance(value, list):
        return []
    return [tuple(v) if isinstance(v, list) else v for v in value]


def load_runs(
    run_dirs: Sequence[Path], *, allow_incomplete: bool = False
) -> pl.DataFrame:
    """All rows of the runs, with ``run`` (name) and paired-design ``group``.

    ``group`` is ``game_id // group_size`` within a run; runs that share a
    ``pairing`` name and seed share group ids (their games were dealt the same
    setups), every other run gets its own id range.  Each run is checked
    against its manifest (:func:`pu_sim.simulation.runfolder.check_run`): an
    incomplete one is refused unless ``allow_incomplete``, and only parts
    that read back as written are read.
    """
    infos = [run_info(d) for d in run_dirs]
    names = _unique_names([info.path for info in infos])
    sets: dict[tuple[str, str], int] = {}
    frames = []
    for info, name in zip(infos, names, strict=True):
        check = runfolder.check_run(info.path, info.manifest)
        check.require(allow_incomplete)
        files = list(check.parts)
        if not files:
            raise FileNotFoundError(
                f"run {info.path} has no data/*.parquet (reports need the run's data)"
            )
        key = (
            (f"pair:{info.pairing}", str(info.root_key))
            if info.pairing
            else ("run", str(info.path))
        )
        index = sets.setdefault(key, len(sets))
        lf = pl.scan_parquet([str(f) for f in files])
        columns = lf.collect_schema().names()
        frames.append(
            lf.select([c for c in COLUMNS if c in columns])
            .with_columns(
                pl.col("bot").cast(pl.String),
                run=pl.lit(name),
                role=pl.lit(info.role),
                group=(
                    pl.lit(index, pl.UInt64) * (1 << PAIR_SHIFT)
                    + pl.col("game_id").cast(pl.UInt64) // max(info.group_size, 1)
                ),
            )
            .collect()
        )
    return concat_enums(frames)


def _unique_names(paths: Sequence[Path]) -> list[str]:
    """Each run's name: its folder name, parents added until names differ.

    Two studies' runs (or two bots' runs of one study) may share a folder name.
    """
    depth = 1
    while True:
        names = ["/".join(p.resolve().parts[-depth:]) for p in paths]
        if len(set(names)) == len(names) or depth > 16:
            return names
        depth += 1


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


def load_round_scores(
    run_dirs: Sequence[Path], *, allow_incomplete: bool = False
) -> pl.DataFrame | None:
    """The round score tables of the runs that kept one, with ``run``; or None."""
    frames = []
    for d in run_dirs:
        table = runfolder.scan_round_scores(d, allow_incomplete=allow_incomplete)
        if table is not None:
            frames.append(table.with_columns(run=pl.lit(run_info(d).name)).collect())
    return pl.concat(frames) if frames else None
