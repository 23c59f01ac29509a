"""Manifests, typed: the one reader and writer of every ``manifest.json``.

Two kinds of folder carry one:

* a **run folder** (:func:`pu_sim.run`): :class:`RunManifest`, every
  argument of the run, its seed, versions, sessions and progress
  (``format`` ``pu_sim-run/1``);
* a **report folder** (every study, ``pu-sim report``, ``pu-sim compare``,
  ``pu-sim balance``): :class:`ReportManifest`, the command that made it,
  the configuration, the run folders it read and the study's own numbers
  under ``results`` (``format`` ``pu_sim.report/1``).

Readers get typed objects (``read_manifest(path).status``,
``.config.players``, ``.root_seed()``, ``.table_setup()``): no other module
reads a manifest's keys, so a key renamed here is renamed everywhere, and a
hand-edited manifest that lost a key is refused with one line naming the
file and the key.  The JSON layout is the same as before this module
existed, so older run folders read.

Why long: two kinds of manifest and their nested records, each with its JSON
form and its checks; in one module so that no other module reads a key.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pu_sim.simulation import provenance
from pu_sim.simulation.files import RunFolderError, atomic_open, writer_alive
from pu_sim.simulation.seeds import RootSeed

MANIFEST = "manifest.json"
RUN_FORMAT = "pu_sim-run/1"
"""A run manifest's format tag; bumped if the folder layout ever changes."""
REPORT_FORMAT = "pu_sim.report/1"
"""A report manifest's format tag; bumped when its keys change."""

StrPath = str | os.PathLike[str]


class ManifestError(RunFolderError):
    """A manifest is missing, unreadable, of another kind or damaged (bad input)."""


class ReportManifestError(ManifestError):
    """A report folder's manifest is missing, unreadable or of another shape."""


def jsonable(value: Any) -> Any:
    """Plain JSON values: sequences become lists, mappings and dataclasses dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)
        }
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return jsonable(value.tolist())
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


def plain(value: object) -> Any:
    """What JSON would give back: compare new values with a loaded manifest."""
    return json.loads(json.dumps(jsonable(value)))


# --------------------------------------------------------------------------------
# Run manifests
# --------------------------------------------------------------------------------


@dataclass
class BotRecord:
    """One seat's bot: a core bot's kind, label and weights, or a Python bot."""

    kind: str
    label: str
    params: dict[str, Any]
    python: str | None = None
    """A Python bot's ``python:module:Class`` (None for a core bot)."""

    def to_json(self) -> dict[str, Any]:
        """The record as JSON (a core bot's without the ``python`` key)."""
        out = {"kind": self.kind, "label": self.label, "params": dict(self.params)}
        return out if self.python is None else {**out, "python": self.python}


@dataclass
class RunConfig:
    """Every argument of :func:`pu_sim.run`, as given (seats broadcast)."""

    n_games: int
    out: str
    players: int
    corporations: list[Any]
    planets: list[Any]
    bots: list[BotRecord]
    options: dict[str, Any]
    unique_asymmetric: bool
    group_size: int
    paired: bool
    variant: dict[str, Any] | None
    seed: Any
    """The seed argument: an int, None, or a derived seed's entropy and key."""
    n_jobs: int
    batch_size: int
    backend: str
    scheduler: str | None
    progress: bool | None
    metadata: dict[str, Any]
    round_scores: bool

    IDENTITY = ("players", "corporations", "planets", "bots", "options",
                "unique_asymmetric", "group_size", "variant")  # fmt: skip
    """The arguments that decide the games: a folder resumes only with the same."""

    def to_json(self) -> dict[str, Any]:
        """The config as JSON."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["bots"] = [b.to_json() for b in self.bots]
        return plain(out)  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunConfig:
        """A recorded config (older manifests lack the newer keys: defaults)."""
        fields = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {k: data.get(k) for k in fields}
        values["bots"] = [BotRecord(**b) for b in data["bots"]]
        values["metadata"] = dict(data.get("metadata") or {})
        values["round_scores"] = bool(data.get("round_scores"))  # older: untraced
        values["paired"] = bool(data.get("paired"))
        return cls(**values)

    @property
    def bot_labels(self) -> list[str]:
        """Each seat's bot label."""
        return [b.label for b in self.bots]

    def table_setup(self) -> Any:
        """The :class:`~pu_sim.simulation.table.TableSetup` the run recorded."""
        from pu_sim.bots import BotSpec
        from pu_sim.rules import RuleOptions, Variant
        from pu_sim.simulation.table import TableSetup

        options = {
            k: tuple(v) if isinstance(v, list) else v for k, v in self.options.items()
        }  # JSON turns tuples into lists
        bots: list[Any] = [
            b.python if b.python is not None else BotSpec(b.kind, b.params, b.label)
            for b in self.bots
        ]
        return TableSetup(
            players=self.players, corporations=self.corporations, planets=self.planets,
            bots=bots, options=RuleOptions(**options),  # type: ignore[arg-type]
            unique_asymmetric=self.unique_asymmetric, group_size=self.group_size,
            variant=None if self.variant is None
            else Variant.from_manifest(self.variant),
        )  # fmt: skip


@dataclass
class SeedRecord:
    """The root seed a run played: SeedSequence entropy, spawn key, core key."""

    entropy: int
    root_key: list[int]
    spawn_key: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, seed: RootSeed) -> SeedRecord:
        """The record of a root seed."""
        return cls(seed.entropy, [seed.k0, seed.k1], list(seed.spawn_key))

    def root_seed(self) -> RootSeed:
        """The recorded root seed."""
        k0, k1 = self.root_key
        return RootSeed(self.entropy, k0, k1, tuple(self.spawn_key))

    def to_json(self) -> dict[str, Any]:
        """The record as JSON."""
        return {"entropy": self.entropy, "spawn_key": list(self.spawn_key),
                "root_key": list(self.root_key)}  # fmt: skip


@dataclass
class SessionRecord:
    """One call of :func:`pu_sim.run` on the folder (each resume adds one)."""

    started: str
    backend: str
    n_jobs: int
    workers: int
    scheduler: str | None
    batch_size: int
    ended: str | None = None
    status: str = "running"
    games_played: int = 0
    batches_played: int = 0
    wall_time_s: float = 0.0
    games_per_s: float | None = None
    git: dict[str, Any] | None = None
    hostname: str | None = None
    repaired: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The session as JSON."""
        return plain(self)  # type: ignore[no-any-return]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionRecord:
        """A recorded session (keys of other versions passed over)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass(frozen=True)
class PartRecord:
    """One finished part file: where it is, the games it holds and its checksum.

    ``file`` is relative to the run folder (``data/part-...parquet``, or
    ``round_scores/part-...parquet`` for a batch's round scores); ``sha256``
    is the file's checksum, so a part damaged on disk, truncated or swapped
    is found by every reader without decoding it.
    """

    file: str
    first_game: int
    n_games: int
    rows: int
    sha256: str

    def to_json(self) -> dict[str, Any]:
        """The record as JSON."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PartRecord:
        """A recorded part (checked: one clear line if a key is missing)."""
        return cls(
            file=str(data["file"]), first_game=int(data["first_game"]),
            n_games=int(data["n_games"]), rows=int(data["rows"]),
            sha256=str(data["sha256"]),
        )  # fmt: skip


def sha256_of(data: bytes) -> str:
    """The checksum recorded for a part file's bytes."""
    return hashlib.sha256(data).hexdigest()


RECORD_KEYS = ("n_games", "table", "seed", "schema", "enums")
"""Top-level keys whose values decide (or describe) the games: a hand edit of
any of them, or of the config's game-deciding arguments, is refused."""


@dataclass
class RunManifest:
    """A run folder's ``manifest.json``: what was played, how far, with what.

    Attributes are the JSON's keys: ``status`` (``"running"``,
    ``"complete"`` or ``"interrupted"``), ``n_games``, ``completed_games``,
    ``completed_batches``, ``batch_size``, ``config`` (:class:`RunConfig`),
    ``table`` (the core's table spec), ``seed`` (:class:`SeedRecord`),
    ``versions`` (pu_sim, rules, engine, the digests, Python and libraries),
    ``git``, ``machine``, ``backend``, ``n_jobs``, ``workers``,
    ``scheduler``, ``schema``, ``enums``, ``created``, ``updated``,
    ``wall_time_s``, ``games_per_s``, ``sessions``, ``error`` and
    ``metadata`` (the caller's free-form facts).
    """

    status: str
    n_games: int
    completed_games: int
    batch_size: int
    config: RunConfig
    table: dict[str, Any]
    seed: SeedRecord
    versions: dict[str, Any]
    schema: list[list[str]]
    enums: dict[str, list[str]]
    completed_batches: int = 0
    git: dict[str, Any] | None = None
    machine: dict[str, Any] = field(default_factory=dict)
    backend: str = "threads"
    n_jobs: int = -1
    workers: int = 1
    scheduler: str | None = None
    created: str = ""
    updated: str = ""
    wall_time_s: float = 0.0
    games_per_s: float | None = None
    sessions: list[SessionRecord] = field(default_factory=list)
    error: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    parts: list[PartRecord] | None = field(default_factory=list)
    """Every finished part with its checksum, in game order; None in a manifest
    written before checksums were kept (its parts are checked by reading them)."""
    record_sha256: str | None = None
    """Checksum of what decides the games (:func:`record_digest`): a hand edit of
    the players, the seed or the table is found; None in older manifests."""
    format: str = RUN_FORMAT

    def to_json(self) -> dict[str, Any]:
        """The manifest as JSON values, in the file's key order.

        ``record_sha256`` is computed afresh from the values written.
        """
        out: dict[str, Any] = {"format": self.format}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("format", "record_sha256"):
                continue
            if isinstance(value, RunConfig | SeedRecord):
                value = value.to_json()
            elif f.name == "sessions":
                value = [s.to_json() for s in value]
            elif f.name == "parts" and value is not None:
                order = sorted(
                    value, key=lambda p: (p.file.split("/")[0], p.first_game)
                )
                value = [p.to_json() for p in order]
            out[f.name] = plain(value)
        out["record_sha256"] = record_digest(out)
        return out

    @classmethod
    def from_json(cls, file: Path, data: object) -> RunManifest:
        """A parsed ``manifest.json``, checked: one line for what is wrong."""
        if not isinstance(data, dict) or data.get("format") != RUN_FORMAT:
            raise ManifestError(
                f"{file} is not a pu_sim run manifest (format {RUN_FORMAT!r} expected)"
            )
        _check_run_json(file, data)
        names = {f.name for f in dataclasses.fields(cls)}
        values = {k: v for k, v in data.items() if k in names}
        values["config"] = RunConfig.from_json(data["config"])
        seed = data["seed"]
        values["seed"] = SeedRecord(
            entropy=seed["entropy"], root_key=list(seed["root_key"]),
            spawn_key=list(seed.get("spawn_key") or []),
        )  # fmt: skip
        sessions = data.get("sessions") or []
        values["sessions"] = [SessionRecord.from_json(s) for s in sessions]
        values["metadata"] = dict(data.get("metadata") or {})
        parts = data.get("parts")  # older manifests: None, checked by reading
        try:
            values["parts"] = (
                None if parts is None else [PartRecord.from_json(p) for p in parts]
            )
        except (KeyError, TypeError, ValueError):
            raise ManifestError(
                f"{file} is damaged: 'parts' is not a list of part records (edited "
                "by hand?); restore it or start a new run folder"
            ) from None
        _check_record(file, data)
        return cls(**values)

    # -- what readers ask ----------------------------------------------------------

    def root_seed(self) -> RootSeed:
        """The root seed the run played."""
        return self.seed.root_seed()

    def table_setup(self) -> Any:
        """The table the run played (its own, not today's defaults)."""
        return self.config.table_setup()

    def plan(self) -> Any:
        """The plan of the run: its table and root seed (replays its games)."""
        from pu_sim.simulation.plan import Plan

        return Plan.of(self.table_setup(), seed=self.root_seed())

    @property
    def bot_labels(self) -> list[str]:
        """The labels of the result frame's ``bot`` Enum (the core spec's order)."""
        return list(self.table["bot_labels"])

    @property
    def name(self) -> str | None:
        """The run's name in its study (``metadata.name``)."""
        return _text(self.metadata.get("name"))

    @property
    def study(self) -> str | None:
        """The study that played the run (``metadata.study``)."""
        return _text(self.metadata.get("study"))

    @property
    def pairing(self) -> str | None:
        """The set of runs dealt the same setups (``metadata.pairing``)."""
        return _text(self.metadata.get("pairing"))

    @property
    def role(self) -> str:
        """The run's role in its study (``metadata.role``; "" when none)."""
        return _text(self.metadata.get("role")) or ""

    @property
    def ladder(self) -> tuple[str, ...]:
        """The skill ladder's bot labels, weakest first (``metadata.ladder``)."""
        return tuple(str(b) for b in self.metadata.get("ladder") or ())


def _text(value: object) -> str | None:
    return None if value is None else str(value)


RUN_KEYS = {
    "status": str, "n_games": int, "completed_games": int, "batch_size": int,
    "config": dict, "table": dict, "seed": dict, "versions": dict,
    "schema": list, "enums": dict,
}  # fmt: skip
"""Top-level run manifest keys every reader relies on, and their JSON types."""

CONFIG_KEYS = ("players", "corporations", "planets", "bots", "options",
               "unique_asymmetric", "group_size", "seed")  # fmt: skip


def _check_run_json(file: Path, manifest: Mapping[str, Any]) -> None:
    """One clear line for a manifest that lost or mangled a key (a hand edit)."""
    for key, kind in RUN_KEYS.items():
        if not isinstance(manifest.get(key), kind):
            raise ManifestError(
                f"{file} is damaged: {key!r} is missing or not a {kind.__name__} "
                "(edited by hand?); restore it or start a new run folder"
            )
    missing = [k for k in CONFIG_KEYS if k not in manifest["config"]]
    key = manifest["seed"].get("root_key")
    bots = manifest["config"].get("bots")
    problems = [f"config lacks {', '.join(missing)}"] if missing else []
    if not (
        isinstance(key, list) and len(key) == 2 and all(isinstance(k, int) for k in key)
    ):
        problems.append("seed.root_key")
    if not isinstance(bots, list) or not all(
        isinstance(b, dict) and {"kind", "label", "params"} <= set(b) for b in bots
    ):
        problems.append("config.bots")
    if problems:
        raise ManifestError(
            f"{file} is damaged ({'; '.join(problems)}, edited by hand?); restore "
            "it or start a new run folder"
        )


def record_digest(data: Mapping[str, Any]) -> str:
    """SHA-256 of what decides a run's games, from a manifest's JSON.

    The config's game-deciding arguments (:attr:`RunConfig.IDENTITY`, the seed
    and ``round_scores``) and :data:`RECORD_KEYS`; the progress, sessions,
    timings and metadata are free to change.
    """
    config = data.get("config") or {}
    record = {
        "config": {k: config.get(k) for k in (*RunConfig.IDENTITY, "seed",
                                              "round_scores")},
        **{k: data.get(k) for k in RECORD_KEYS},
    }  # fmt: skip
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _check_record(file: Path, data: Mapping[str, Any]) -> None:
    """Refuse a manifest whose record was edited by hand, saying what is off.

    Every manifest is checked for what can be checked without its digest (the
    players against the table spec, the root key against the seed); one with
    a digest also against it.
    """
    problems = []
    config, table = data["config"], data["table"]
    if table.get("n_players") is not None and config["players"] != table["n_players"]:
        problems.append(
            f"config.players is {config['players']!r} but the table spec plays "
            f"{table['n_players']!r}"
        )
    if isinstance(config.get("bots"), list) and len(config["bots"]) != table.get(
        "n_players", len(config["bots"])
    ):
        problems.append(f"config.bots has {len(config['bots'])} seats")
    derived = _derived_root_key(config.get("seed"), data["seed"])
    if derived is not None and derived != list(data["seed"]["root_key"]):
        problems.append(
            f"its recorded root_key does not derive from its seed {config['seed']!r}"
        )
    recorded = data.get("record_sha256")
    if not problems and recorded is not None and recorded != record_digest(data):
        problems.append(
            "its config, seed, table or schema no longer match their checksum"
        )
    if problems:
        raise ManifestError(
            f"{file} was edited by hand ({'; '.join(problems)}): its games are not "
            "the ones recorded; restore it, or start a new run folder"
        )


def _derived_root_key(seed: object, record: Mapping[str, Any]) -> list[int] | None:
    """The root key a recorded seed argument derives (None: cannot tell)."""
    if isinstance(seed, bool) or not isinstance(seed, int | dict):
        return None
    if isinstance(seed, dict):
        entropy, spawn = seed.get("entropy"), seed.get("spawn_key") or []
    else:
        entropy, spawn = seed, record.get("spawn_key") or []
    if not isinstance(entropy, int) or entropy < 0:
        return None
    try:
        root = RootSeed.from_entropy(entropy, tuple(spawn))
    except (TypeError, ValueError):
        return None
    return [root.k0, root.k1]


def manifest_json(path: StrPath) -> object:
    """The parsed ``manifest.json`` of a folder, whatever its kind."""
    file = Path(path) / MANIFEST
    try:
        return json.loads(file.read_text())
    except FileNotFoundError:
        raise ManifestError(
            f"{path} is not a run folder: it has no {MANIFEST}"
        ) from None
    except (OSError, ValueError) as exc:
        raise ManifestError(f"cannot read {file}: {exc}") from None


def is_run_manifest(data: object) -> bool:
    """Whether a parsed manifest is a run's (not a report folder's, say)."""
    return isinstance(data, dict) and data.get("format") == RUN_FORMAT


def read_manifest(path: StrPath) -> RunManifest:
    """The manifest of a run folder, typed and checked.

    A run left ``"running"`` by a process that died without a word (killed,
    power cut) reads as ``"interrupted"``: no process holds the folder's lock.

    Raises
    ------
    ManifestError
        When ``path`` holds no readable run manifest, or one missing a key its
        readers need (a hand edit).
    """
    manifest = RunManifest.from_json(Path(path) / MANIFEST, manifest_json(path))
    if manifest.status == "running" and not writer_alive(path):
        manifest.status = "interrupted"
        manifest.error = manifest.error or (
            "the process writing this run stopped without a word (killed?)"
        )
    return manifest


def write_manifest(run_dir: StrPath, manifest: RunManifest) -> None:
    """Write a run folder's ``manifest.json`` atomically."""
    text = json.dumps(manifest.to_json(), indent=2, sort_keys=False) + "\n"
    with atomic_open(Path(run_dir) / MANIFEST) as fh:
        fh.write(text.encode())


# --------------------------------------------------------------------------------
# Report manifests
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportManifest:
    """A report folder's ``manifest.json``: one shape for every report.

    ``runs`` are the run folders the report read (relative to the report
    folder when beneath it); ``results`` the study's own numbers.
    """

    study: str
    title: str
    command: str | None
    created: str
    wall_time_s: float | None
    games: int | None
    runs: list[str]
    config: Any
    versions: dict[str, Any]
    git: dict[str, Any] | None
    machine: dict[str, Any]
    results: dict[str, Any]
    format: str = REPORT_FORMAT

    KEYS = ("format", "study", "title", "command", "created", "wall_time_s",
            "games", "runs", "config", "versions", "git", "machine",
            "results")  # fmt: skip
    """Every report manifest's keys, in this order."""

    def to_json(self) -> dict[str, Any]:
        """The manifest as JSON, in the file's key order."""
        return {k: plain(getattr(self, k)) for k in self.KEYS}


def write_report_manifest(
    folder: str | Path,
    *,
    study: str,
    title: str,
    command: str | None = None,
    config: Any = None,
    runs: Sequence[str | Path] = (),
    games: int | None = None,
    wall_time_s: float | None = None,
    results: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``folder/manifest.json``; returns its path.

    ``config`` is the study's configuration (a dataclass or a mapping);
    ``results`` the study's own numbers, as plain JSON.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    manifest = ReportManifest(
        study=study, title=title, command=command,
        created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        wall_time_s=wall_time_s, games=games,
        runs=[_relative(Path(r), out) for r in runs], config=jsonable(config),
        versions={**provenance.game_versions(), **provenance.library_versions()},
        git=provenance.git_revision(), machine=provenance.machine(),
        results=jsonable(dict(results or {})),
    )  # fmt: skip
    path = out / MANIFEST
    path.write_text(json.dumps(manifest.to_json(), indent=2) + "\n")
    return path


def read_report_manifest(folder: str | Path) -> ReportManifest:
    """The manifest of a report folder; one clear error if it is not one."""
    path = Path(folder) / MANIFEST
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ReportManifestError(
            f"{folder}: no {MANIFEST}: not a report folder"
        ) from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ReportManifestError(f"{path}: unreadable ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        raise ReportManifestError(f"{path}: not a {REPORT_FORMAT} report manifest")
    missing = [k for k in ReportManifest.KEYS if k not in data]
    if missing:
        raise ReportManifestError(f"{path}: missing keys {', '.join(missing)}")
    return ReportManifest(**{k: data[k] for k in ReportManifest.KEYS})


def _relative(run: Path, folder: Path) -> str:
    """A run folder's path: relative to the report folder when beneath it."""
    try:
        return run.resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return run.resolve().as_posix()
