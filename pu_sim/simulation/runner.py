"""Run a study of many games to a run folder: fast, reproducible, resumable.

:func:`run` splits the games into batches, plays each batch in one GIL-free
core call on a joblib backend and writes each finished batch to its own
Parquet file as soon as it completes (:mod:`pu_sim.simulation.runfolder` owns the folder
layout), so memory does not grow with the number of games.  Interrupt it
(Ctrl-C, SIGTERM, a killed process or worker, a full disk) and the same call
resumes: finished batches are kept, the rest are played, and the result is
identical to an uninterrupted run.

Backends
--------
``"threads"`` (the default)
    The core releases the GIL for a whole batch, so threads run on every core
    with nothing pickled and the compiled rules tables shared.  Measured on
    the project's 2-core machine (greedy solo, 2 workers, 40,000 games):
    threads and processes reach the same games/s within noise, but processes
    pay about a second of start-up (worker processes import pu_sim and compile
    the rules each) and copy every batch's records back through a pipe, and
    each worker holds its own copy of the rules.  See
    ``reports/benchmark/README.md``.
``"processes"``
    joblib's ``loky`` process pool; ``"loky"`` is accepted too.  For
    isolation: a worker that crashes or is killed stops the run cleanly
    (finished batches kept, resumable) instead of taking this process down.
``"dask"``
    joblib's Dask backend: ``scheduler="tcp://host:8786"`` sends the batches to
    a ``dask.distributed`` cluster (every worker needs the same pu_sim
    installed; this is checked first), and without a scheduler a local
    ``LocalCluster`` of ``n_jobs`` single-threaded workers is started (for
    testing).  Results travel back to this process, which writes the folder,
    so workers need no shared disk.  Needs ``pip install 'pu_sim[dask]'``.
any other registered joblib backend
    e.g. Ray: ``from ray.util.joblib import register_ray; register_ray()``
    then ``backend="ray"`` (not tested here).

Reproducibility: a game depends only on the root seed, its index, the table
setup, ``RULES_VERSION`` and ``ENGINE_VERSION`` (see
:mod:`pu_sim.simulation.in_memory`), never on ``n_jobs``, ``batch_size``, the
backend or the order in which batches finish; a resumed run equals an uninterrupted one.

Why long: run() with its backends, resume checks and progress;
the run folder's own format is :mod:`pu_sim.simulation.runfolder`'s.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any, Unpack

import numpy as np
import polars as pl
from joblib import Parallel, delayed, effective_n_jobs, parallel_config

from pu_sim.bots.python import bot_path
from pu_sim.rules.validation import check_bool, check_optional_bool
from pu_sim.rules.variant import identity
from pu_sim.simulation import frames, provenance
from pu_sim.simulation.checks import check_counts, check_seed
from pu_sim.simulation.files import DATA, LOCK, RunFolderError, locked
from pu_sim.simulation.frames import schema_facts
from pu_sim.simulation.in_memory import play_range, play_range_traced
from pu_sim.simulation.manifest import (
    MANIFEST,
    BotRecord,
    PartRecord,
    RunConfig,
    RunManifest,
    SeedRecord,
    SessionRecord,
    plain,
    read_manifest,
    sha256_of,
    write_manifest,
)
from pu_sim.simulation.plan import UNSET, Plan, SeedArg, _Unset, plan_of
from pu_sim.simulation.runfolder import (
    ROUND_SCORES,
    RunFolderWarning,
    StrPath,
    check_run,
    encode_part,
    missing_ranges,
    parse_part_name,
    part_files,
    part_name,
    remove_temporaries,
    scan_run,
    write_part,
)
from pu_sim.simulation.seeds import DEFAULT_BATCH_SIZE, RootSeed
from pu_sim.simulation.table import TableArgs, TableSetup, table_of

__all__ = [
    "DEFAULT_BATCH_SIZE",
    "RunError",
    "RunFolderError",
    "RunResult",
    "read_manifest",
    "run",
    "scan_run",
]

BACKENDS = {"threads": "threading", "processes": "loky", "dask": "dask"}
"""Our backend names and the joblib backends they select."""

VERSION_KEYS = ("pu_sim", "rules", "engine", "rules_digest", "bots_fitted_digest")
"""Versions that decide the games: a folder resumes only with the same ones
(of the fitted tables, those the run's bots read)."""

MANIFEST_EVERY_S = 10.0
"""How often a running study refreshes its manifest (completed batches)."""


class RunError(RuntimeError):
    """A run stopped by a failure (a dead worker, a full disk); it can resume."""


@dataclass(frozen=True)
class RunResult:
    """What one :func:`run` call did.

    Attributes
    ----------
    path
        The run folder.
    n_games
        Games in the run.
    games_played
        Games this call played (the rest were on disk already).
    games_resumed
        Games found finished on disk when the call started.
    batches_played
        Batches this call played and wrote.
    wall_time_s, games_per_s
        This call's wall time and speed (start-up and writing included).
    manifest
        The final manifest (:class:`pu_sim.simulation.manifest.RunManifest`).
    repaired
        What this call found damaged or missing in the folder and played
        again, one sentence each (also in the manifest's session entry).
    """

    path: Path
    n_games: int
    games_played: int
    games_resumed: int
    batches_played: int
    wall_time_s: float
    games_per_s: float
    manifest: RunManifest
    repaired: tuple[str, ...] = ()

    def scan(self) -> pl.LazyFrame:
        """The run's games (:func:`scan_run`)."""
        return scan_run(self.path)


def run(
    n_games: int,
    table: TableSetup | Plan | None = None,
    *,
    out: StrPath,
    seed: SeedArg = UNSET,
    n_jobs: int = -1,
    batch_size: int = DEFAULT_BATCH_SIZE,
    backend: str | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    metadata: Mapping[str, Any] | None = None,
    round_scores: bool = False,
    **table_args: Unpack[TableArgs],
) -> RunResult:
    """Play ``n_games`` games into the run folder ``out``, or resume it.

    Why long: the whole life of one call (the plan, the folder's checks, the lock,
    the manifest, the dispatch, interrupts) in the order it happens.

    Parameters
    ----------
    n_games
        Games in the run.  Resuming with a larger number extends the run.
    out
        The run folder: created if missing; if it holds a run with the same
        configuration and versions, only its missing batches are played.
    table, **table_args
        The table, as for :func:`pu_sim.simulate`: a
        :class:`pu_sim.TableSetup` or its fields as keywords (``players``,
        ``corporations``, ``planets``, ``bots``, ``options``,
        ``unique_asymmetric``, ``group_size``, ``paired``, ``variant``), or a
        :class:`~pu_sim.simulation.plan.Plan` (a table and a seed).  A
        variant's full text and digest go into the manifest; the folder
        resumes only with the same variant.
    seed
        Root seed.  Not given: :data:`~pu_sim.simulation.seeds.DEFAULT_SEED`
        for a new folder, the recorded one when resuming; None draws fresh
        entropy for a new folder (recorded) and reuses the recorded one when
        resuming.
    n_jobs
        Parallel workers (-1, the default: every core).  Ignored with a dask
        scheduler, which uses every worker thread of the cluster.
    batch_size
        Games per core call and per Parquet file (1..999,999).
    backend
        ``"threads"`` (default), ``"processes"``, ``"dask"`` or a registered
        joblib backend name; ``"dask"`` when a scheduler is given.
    scheduler
        Address of a ``dask.distributed`` scheduler, e.g.
        ``"tcp://host:8786"``.
    progress
        Progress bar on stderr (games/s, time left): None shows it only when
        stderr is a terminal.
    metadata
        Free-form JSON facts for readers of the folder (a study name, what the
        run is paired with); recorded in the manifest as ``metadata``, never
        compared when resuming.
    round_scores
        Also keep each seat's score after every round in the folder's
        ``round_scores/`` table (:func:`pu_sim.simulation.runfolder.scan_round_scores`),
        for lead changes.  Off by default: it costs a scoring pass per round.
        The games are the same either way; a folder resumes only with the
        setting it was started with.

    Returns
    -------
    RunResult

    Raises
    ------
    ValueError
        Bad input, including :class:`RunFolderError` for a folder that cannot
        be created or holds a different run.
    KeyboardInterrupt
        Ctrl-C or SIGTERM: finished batches are kept, the manifest says
        ``"interrupted"``; call again to resume.
    RunError
        A failure during the run (a dead worker, a full disk); call again to
        resume once it is fixed.

    Examples
    --------
    >>> import tempfile
    >>> from pu_sim.simulation.runner import run
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     result = run(8, out=tmp, players=2, bots="random", seed=1, paired=True)
    ...     result.manifest.status, result.scan().collect().height
    ('complete', 16)
    """
    started_at = time.perf_counter()
    check_counts(n_games, batch_size, n_jobs)
    if not isinstance(seed, _Unset):
        check_seed(seed)
    round_scores = check_bool(round_scores, "round_scores")  # "false" is not False
    progress = check_optional_bool(progress, "progress")
    if metadata is not None and not isinstance(metadata, Mapping):
        raise ValueError(f"metadata must be a mapping (JSON facts), got {metadata!r}")
    path = Path(out)
    # refuse a foreign folder before creating anything; a resumed run without
    # a seed keeps its recorded one
    plan = _run_plan(table, seed, table_args, _previous_manifest(path))
    table = plan.table
    table.check_games(n_games)
    name = _backend_name(backend, scheduler)
    rules = plan.rules
    spec = plan.spec
    arguments = {
        "n_games": n_games, "out": out, **_table_fields(table),
        "seed": _seed_arg(seed, plan), "n_jobs": n_jobs, "batch_size": batch_size,
        "backend": backend, "scheduler": scheduler, "progress": progress,
        "metadata": metadata, "round_scores": bool(round_scores),
    }  # fmt: skip
    empty = frames.empty_frame(rules.data, plan.bot_labels)
    config = _config(arguments, table, table.groups, name)
    schema, enums = schema_facts(empty)
    versions = {**provenance.game_versions(), **provenance.library_versions(),
                "bots_fitted_digest": _bots_fitted_digest(plan)}  # fmt: skip
    table_json = plain(spec)

    with _parallel(name, n_jobs, scheduler) as (parallel, workers), locked(path):
        previous = _previous_manifest(path)
        root = plan.seed
        if previous is not None:
            _check_same_run(path, previous, config, table_json, root, versions, schema)
            _check_n_games(path, previous, n_games)
        remove_temporaries(path)
        done, repaired, records = _finished_parts(path, previous)
        todo = missing_ranges(n_games, done, batch_size)
        session = _session(name, n_jobs, workers, scheduler, batch_size)
        session.repaired = repaired
        manifest = RunManifest(
            status="running", n_games=n_games,
            completed_games=sum(n for _, n in done), completed_batches=len(done),
            batch_size=batch_size, config=config, table=table_json,
            seed=SeedRecord.of(root), versions=versions, git=session.git,
            machine=provenance.machine(), backend=name, n_jobs=n_jobs,
            workers=workers, scheduler=scheduler, schema=schema, enums=enums,
            created=previous.created if previous else session.started,
            updated=session.started,
            sessions=[*(previous.sessions if previous else []), session],
            metadata=dict(config.metadata), parts=records,
        )  # fmt: skip
        for note in repaired:  # said in Python too (the CLI prints them as notes)
            warnings.warn(f"{path}: {note}", RunFolderWarning, stacklevel=2)
        _refresh_totals(manifest, session, started_at)
        try:
            write_manifest(path, manifest)
        except OSError as exc:
            raise RunFolderError(f"cannot write to run folder {path}: {exc}") from None
        resumed = manifest.completed_games
        bar = _progress_bar(progress, n_games, resumed, (metadata or {}).get("name"))
        try:
            with _on_sigterm_interrupt():
                tasks = (delayed(_play_part)(plan, f, n, round_scores) for f, n in todo)
                _write_as_finished(path, parallel(tasks), manifest, session, bar,
                                   started_at)  # fmt: skip
        except KeyboardInterrupt:
            _stop(path, manifest, session, started_at, "interrupted")
            raise
        except BaseException as exc:
            message = _describe(exc)
            _stop(path, manifest, session, started_at, "interrupted", message)
            raise RunError(
                f"run stopped: {message}; {manifest.completed_games:,} of "
                f"{n_games:,} games are saved in {path}; run the same command "
                "again to resume"
            ) from exc
        finally:
            bar.close()
        _stop(path, manifest, session, started_at, "complete", None, strict=True)
    played = session.games_played
    wall = time.perf_counter() - started_at
    return RunResult(
        path=path, n_games=n_games, games_played=played, games_resumed=resumed,
        batches_played=session.batches_played, wall_time_s=wall,
        games_per_s=played / wall if wall > 0 else 0.0, manifest=manifest,
        repaired=tuple(repaired),
    )  # fmt: skip


# --------------------------------------------------------------------------------
# Work
# --------------------------------------------------------------------------------


def _play_part(
    plan: Plan, first: int, n: int, rounds: bool = False
) -> tuple[int, int, bytes, tuple[bytes, int] | None]:
    """One batch on a worker: its range and Parquet bytes, and its round scores'.

    The worker builds the frame and encodes it, so that work runs in parallel
    and the one process writing the folder only copies bytes to disk: it
    keeps up with any number of workers, and nothing waits in memory.
    Compressed bytes are also the cheapest thing to send back from a process
    or a cluster node.
    """
    trace = None
    if rounds:
        records, table = play_range_traced(plan, first, n)
        trace = (encode_part(table), table.height)
    else:
        records = play_range(plan, first, n)
    frame = frames.to_frame(records, plan.rules.data, plan.bot_labels)
    del records
    return first, n, encode_part(frame), trace


def _write_as_finished(
    path: Path,
    results: Iterable[tuple[int, int, bytes, tuple[bytes, int] | None]],
    manifest: RunManifest,
    session: SessionRecord,
    bar: Any,
    started_at: float,
) -> None:
    """Write each batch the moment it finishes; keep the manifest current.

    Each part's checksum goes into the manifest's part records, so every
    reader can tell the part is the one written.
    """
    last_manifest = time.perf_counter()
    players = int(manifest.table["n_players"])
    parts = manifest.parts if manifest.parts is not None else []
    manifest.parts = parts
    try:
        for first, size, data, rounds in results:
            name = part_name(first, size)
            if rounds is not None:  # first: a finished data part implies its trace
                _write(path / ROUND_SCORES, first, size, rounds[0])
                parts.append(PartRecord(f"{ROUND_SCORES}/{name}", first, size,
                                        rounds[1], sha256_of(rounds[0])))  # fmt: skip
            _write(path / DATA, first, size, data)
            parts.append(
                PartRecord(f"{DATA}/{name}", first, size, size * players,
                           sha256_of(data))
            )  # fmt: skip
            del data
            session.games_played += size
            session.batches_played += 1
            manifest.completed_games += size
            manifest.completed_batches += 1
            bar.update(size)
            if time.perf_counter() - last_manifest > MANIFEST_EVERY_S:
                _refresh_totals(manifest, session, started_at)
                write_manifest(path, manifest)
                last_manifest = time.perf_counter()
    finally:
        close = getattr(results, "close", None)
        if close is not None:  # stop joblib dispatching on any early exit
            with warnings.catch_warnings():
                # joblib notes the batches it cancels; the run says what it kept
                warnings.filterwarnings("ignore", "(?s).*tasks", UserWarning)
                close()


def _write(folder: Path, first: int, size: int, data: bytes) -> None:
    """Write a part; a failed write (full disk) names the file and the cause."""
    try:
        write_part(folder, first, size, data)
    except OSError as exc:
        raise OSError(
            exc.errno, f"cannot write part {first}+{size}: {exc.strerror or exc}"
        ) from exc


def _bots_fitted_digest(plan: Plan) -> str:
    """The digest of the fitted tables the plan's bots read (a Python bot: all)."""
    kinds = [bot.kind for bot in plan.table.seat_bots()]
    if plan.python_bots:
        kinds.append("python")  # its seat's stand-in is not what plays
    return provenance.bots_fitted_digest(kinds)


def _worker_versions() -> dict[str, Any]:
    """Run on each dask worker: the versions that decide its games."""
    return provenance.game_versions()


@contextlib.contextmanager
def _parallel(
    name: str, n_jobs: int, scheduler: str | None
) -> Iterator[tuple[Parallel, int]]:
    """A joblib Parallel yielding batch results as they finish, and its workers."""
    common: dict[str, Any] = {"return_as": "generator_unordered", "batch_size": 1}
    if name != "dask":
        joblib_name = BACKENDS.get(name, name)
        with parallel_config(backend=joblib_name):
            workers = effective_n_jobs(n_jobs)
        yield Parallel(n_jobs=n_jobs, backend=joblib_name, **common), workers
        return
    with _dask_client(n_jobs, scheduler) as client:
        mine = _worker_versions()
        try:
            theirs = client.run(_worker_versions)
        except Exception as exc:
            raise ValueError(
                f"dask workers cannot play pu_sim games: {_describe(exc)} "
                "(install the same pu_sim on every worker)"
            ) from None
        for worker, versions in theirs.items():
            if versions != mine:
                raise ValueError(
                    f"dask worker {worker} runs {versions}, this process {mine}: "
                    "install the same pu_sim everywhere"
                )
        workers = sum(client.nthreads().values())
        with parallel_config(backend="dask", client=client):
            yield Parallel(n_jobs=-1, **common), workers


@contextlib.contextmanager
def _dask_client(n_jobs: int, scheduler: str | None) -> Iterator[Any]:
    """A client of the given scheduler, or of a local test cluster."""
    try:
        import dask.distributed
    except ImportError:
        raise ImportError(
            "backend 'dask' needs dask.distributed: pip install 'pu_sim[dask]'"
        ) from None
    dist: Any = dask.distributed  # typed loosely: dask's own hints are partial
    if scheduler is None:
        workers = effective_n_jobs(n_jobs)
        with (
            dist.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=False,
                dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
            ) as cluster,
            dist.Client(cluster) as client,
        ):  # fmt: skip
            yield client
        return
    try:
        client = dist.Client(scheduler, timeout=30)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ValueError(
            f"cannot reach the dask scheduler at {scheduler}: {_describe(exc)}"
        ) from None
    with client:
        yield client


# --------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------


def _table_fields(table: TableSetup) -> dict[str, Any]:
    """The table's fields under the names a run manifest records them by."""
    return {
        "players": table.players, "corporations": table.corporations,
        "planets": table.planets, "bots": table.bots, "options": table.options,
        "unique_asymmetric": table.unique_asymmetric,
        "group_size": table.group_size, "paired": table.paired,
        "variant": table.variant,
    }  # fmt: skip


def _backend_name(backend: str | None, scheduler: str | None) -> str:
    """Our backend name; a scheduler implies dask."""
    if backend is None:
        return "dask" if scheduler is not None else "threads"
    if scheduler is not None and backend != "dask":
        raise ValueError(f"a dask scheduler needs backend 'dask', not {backend!r}")
    if backend == "loky":
        return "processes"
    if backend == "threading":
        return "threads"
    if backend in BACKENDS:
        return backend
    from joblib.parallel import BACKENDS as REGISTERED

    if backend not in REGISTERED:
        raise ValueError(
            f"unknown backend {backend!r}; valid: {', '.join(BACKENDS)} (or a "
            "joblib backend registered beforehand, e.g. 'ray' after "
            "ray.util.joblib.register_ray())"
        )
    return backend


def _config(
    arguments: dict[str, Any], table: TableSetup, group_size: int, backend: str
) -> RunConfig:
    """Every argument of run(), as plain JSON values (seats broadcast)."""
    python = table.python_seats()
    labels = table.seat_labels()
    bots = [
        BotRecord("python", labels[s], {}, bot_path(python[s]))
        if s in python
        else BotRecord(b.kind, b.label, dict(b.params))
        for s, b in enumerate(table.seat_bots())
    ]
    config = dict(arguments)
    config.update(
        out=os.fspath(arguments["out"]),
        corporations=table.per_seat(table.corporations, "corporations"),
        planets=table.per_seat(table.planets, "planets"),
        bots=[b.to_json() for b in bots],
        options=table.rule_options.as_dict(),
        variant=None if table.variant is None else table.variant.manifest(),
        group_size=group_size,
        backend=backend,
        metadata=dict(arguments["metadata"] or {}),
    )
    return RunConfig.from_json(plain(config))


def _seed_arg(seed: SeedArg, plan: Plan) -> object:
    """The seed argument in JSON: an int as given, else the entropy and spawn key.

    Not given: the default seed, or the recorded seed a resumed run keeps.
    """
    if isinstance(seed, _Unset):  # a plan's seed, a resumed run's or the default
        if not plan.seed.spawn_key:
            return plan.seed.entropy
        return {"entropy": plan.seed.entropy, "spawn_key": list(plan.seed.spawn_key)}
    if isinstance(seed, np.random.SeedSequence | RootSeed):
        root = RootSeed.from_seed(seed)
        return {"entropy": root.entropy, "spawn_key": list(root.spawn_key)}
    return seed


def _run_plan(
    table: TableSetup | Plan | None,
    seed: SeedArg,
    table_args: TableArgs,
    previous: RunManifest | None,
) -> Plan:
    """The run's plan; a resumed run given no seed (or None) keeps its own."""
    if isinstance(table, Plan) or previous is None or seed not in (UNSET, None):
        if seed is None and not isinstance(table, Plan):
            return Plan.of(table_of(table, table_args), seed=None)
        return plan_of(table, seed, table_args)
    return Plan.of(table_of(table, table_args), seed=previous.root_seed())


def _previous_manifest(path: Path) -> RunManifest | None:
    """The folder's manifest; None for a new or empty folder; refuse other folders."""
    if not path.exists():
        return None
    if not path.is_dir():
        raise RunFolderError(f"run folder {path} exists and is not a folder")
    if (path / MANIFEST).exists():
        return read_manifest(path)
    visible = [p for p in path.iterdir() if p.name not in (LOCK, DATA, ROUND_SCORES)]
    if visible or part_files(path):
        raise RunFolderError(
            f"{path} is not empty and holds no {MANIFEST}: not a run folder; "
            "choose a new or empty folder"
        )
    return None


def _check_same_run(
    path: Path,
    previous: RunManifest,
    config: RunConfig,
    table: dict[str, Any],
    root: RootSeed,
    versions: dict[str, Any],
    schema: list[list[str]],
) -> None:
    """Refuse to resume a folder whose games would differ from this call's."""
    problems = _config_differences(previous.config, config)
    if not problems and previous.table != table:
        problems.append("the table spec differs")
    # other bots read other fitted tables: their difference says it already
    same_bots = not problems
    if previous.seed.root_key != [root.k0, root.k1]:
        old_seed = previous.config.seed
        problems.append(
            f"its recorded root_key does not derive from its seed {old_seed!r} "
            "(the manifest was edited)"
            if old_seed == config.seed
            else f"seed {old_seed!r} here {config.seed!r}"
        )
    for key in VERSION_KEYS:
        old, new = previous.versions.get(key), versions[key]
        if old != new and (same_bots or key != "bots_fitted_digest"):
            problems.append(f"{key} version {old} here {new}")
    if not problems and previous.schema != schema:
        problems.append("the output schema differs")
    if problems:
        raise RunFolderError(
            f"{path} holds a different run ({'; '.join(problems)}): use a new "
            "folder, or the folder's own settings to resume it"
        )


def _config_differences(old: RunConfig, new: RunConfig) -> list[str]:
    """What differs between two runs' game-deciding arguments, briefly."""
    if old.players != new.players:
        return [f"players {old.players} here {new.players}"]
    out = []
    for key in RunConfig.IDENTITY:
        was: Any = getattr(old, key)
        now: Any = getattr(new, key)
        if key == "variant" and identity(was) == identity(now):
            continue  # the same text: a renamed file is the same variant
        if was == now:
            continue
        if key == "options":
            out += [
                f"option {k} {_short(was.get(k))} here {_short(now.get(k))}"
                for k in sorted(set(was) | set(now))
                if was.get(k) != now.get(k)
            ]
        elif key == "variant":
            out.append(f"variant {_variant_label(was)} here {_variant_label(now)}")
        elif key == "bots":
            labels = [[b.label for b in bots] for bots in (was, now)]
            if labels[0] != labels[1]:
                out.append(f"bots {','.join(labels[0])} here {','.join(labels[1])}")
            else:
                out.append("bot parameters differ")
        else:
            out.append(f"{key} {_short(was)} here {_short(now)}")
    if old.round_scores != new.round_scores:  # older manifests: untraced
        out.append(f"round_scores {old.round_scores} here {new.round_scores}")
    return out


def _variant_label(record: dict[str, Any] | None) -> str:
    """A recorded variant in a message: its name and short digest, or none."""
    if record is None:
        return "none (the published game)"
    return f"{record.get('name')!r} ({str(record.get('digest'))[:12]})"


def _check_n_games(path: Path, previous: RunManifest, n_games: int) -> None:
    """A run may be extended, never shortened (its games exist)."""
    if n_games < previous.n_games:
        raise RunFolderError(
            f"{path} holds a run of {previous.n_games:,} games; asked for "
            f"{n_games:,} (extend a run, never shorten it: filter "
            "scan_run(...) on game_id instead)"
        )


def _short(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _finished_parts(
    path: Path, previous: RunManifest | None
) -> tuple[list[tuple[int, int]], list[str], list[PartRecord]]:
    """Finished batches on disk, a note for each batch to replay, the good parts.

    The folder is checked against its manifest (:func:`check_run`: the parts'
    checksums, or a whole read of a part the manifest does not list).  A part
    that is not what was written (a disk fault, a hand edit, a truncation) is
    renamed ``*.bad``, out of every ``*.parquet`` glob, and played again; so
    are games whose part is gone, and a batch of a run keeping round scores
    whose round score part is gone or damaged.
    """
    if previous is None:
        return [], [], []
    check = check_run(path, previous)
    notes = []
    for file, why in check.damaged:
        file.replace(file.with_name(file.name + ".bad"))
        first, n = parse_part_name(file.name)  # type: ignore[misc]
        notes.append(
            f"{file.parent.name}/{file.name} was damaged ({why}): set aside as "
            f"{file.name}.bad; games {first}..{first + n - 1} are played again"
        )
    present = {r.file for r in check.records}
    damaged = {f"{f.parent.name}/{f.name}" for f, _ in check.damaged}
    gone = [r for r in previous.parts or () if r.file not in present | damaged]
    for record in gone:
        notes.append(
            f"{record.n_games:,} games recorded as finished have no part file "
            f"{record.file} (deleted?): games {record.first_game}.."
            f"{record.first_game + record.n_games - 1} are played again"
        )
    if previous.parts is None:  # older manifests: the count is all there is
        found = sum(r.n_games for r in check.records if r.file.startswith(DATA))
        found += sum(
            games[1]
            for f, _ in check.damaged
            if f.parent.name == DATA and (games := parse_part_name(f.name))
        )
        if previous.completed_games > found:
            notes.append(
                f"{previous.completed_games - found:,} games recorded as finished "
                "have no part file (deleted?): they are played again"
            )
    data = [r for r in check.records if r.file.startswith(f"{DATA}/")]
    rounds = {r.first_game: r for r in check.records
              if r.file.startswith(f"{ROUND_SCORES}/")}  # fmt: skip
    if previous.config.round_scores:  # a batch is finished with both its parts
        data = [r for r in data if r.first_game in rounds]
    records = data + [rounds[r.first_game] for r in data if r.first_game in rounds]
    return [(r.first_game, r.n_games) for r in data], notes, records


# --------------------------------------------------------------------------------
# Folder lock, manifest updates, progress, signals
# --------------------------------------------------------------------------------


def _session(
    backend: str, n_jobs: int, workers: int, scheduler: str | None, batch_size: int
) -> SessionRecord:
    """The manifest entry of this call (each resume adds one)."""
    return SessionRecord(
        started=_now(), backend=backend, n_jobs=n_jobs, workers=workers,
        scheduler=scheduler, batch_size=batch_size, git=provenance.git_revision(),
        hostname=provenance.machine()["hostname"],
    )  # fmt: skip


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _refresh_totals(
    manifest: RunManifest, session: SessionRecord, started_at: float
) -> None:
    """Update this session's and the run's wall time and speed.

    The run's totals count the sessions that played games: resuming a finished
    run (a report rebuilt from its runs) must not add its start-up to the time
    the games took, or each rebuild would lower the recorded speed.
    """
    session.wall_time_s = round(time.perf_counter() - started_at, 3)
    if session.wall_time_s > 0:
        session.games_per_s = round(session.games_played / session.wall_time_s, 1)
    playing = [s for s in manifest.sessions if s.games_played > 0]
    total_time = sum(s.wall_time_s for s in playing)
    total_games = sum(s.games_played for s in playing)
    manifest.wall_time_s = round(total_time, 3)
    manifest.games_per_s = round(total_games / total_time, 1) if total_time else None
    manifest.updated = _now()


def _stop(
    path: Path,
    manifest: RunManifest,
    session: SessionRecord,
    started_at: float,
    status: str,
    error: str | None = "interrupted",
    *,
    strict: bool = False,
) -> None:
    """Record how the session ended; best effort unless ``strict``."""
    manifest.status = session.status = status
    manifest.error = error
    session.ended = _now()
    _refresh_totals(manifest, session, started_at)
    try:
        write_manifest(path, manifest)
    except OSError:
        if strict:
            raise


def _describe(exc: BaseException) -> str:
    """One line naming an exception."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _progress_bar(
    enabled: bool | None, total: int, initial: int, name: str | None = None
) -> Any:
    """A tqdm bar on stderr; None shows it only when stderr is a terminal."""
    from tqdm.auto import tqdm

    if enabled is None:
        enabled = _isatty(sys.stderr)
    return tqdm(
        total=total, initial=initial, desc=name, unit=" games",
        unit_scale=total >= 10_000,
        disable=not enabled, file=sys.stderr, smoothing=0.05, dynamic_ncols=True,
        mininterval=0.5,
    )  # fmt: skip


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


@contextlib.contextmanager
def _on_sigterm_interrupt() -> Iterator[None]:
    """Treat SIGTERM (cluster schedulers, ``kill``) like Ctrl-C while running.

    Only the main thread may install signal handlers; elsewhere this does
    nothing and SIGTERM keeps its usual effect.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt("terminated (SIGTERM)")

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
