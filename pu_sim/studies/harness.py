"""The study harness: flags, seeds, run folders and report manifests, once.

Every study, whether a designer's (the main study, ``experiments/*.py``) or
the bot lab's (``experiments/bots/*.py``), is a frozen ``Config`` dataclass
and a ``main(argv)`` that calls :func:`start`:

* the flags come from the Config's fields (``n_games`` is ``--games``, other
  fields ``--field-name``; numbers, strings, flags, tuples, JSON mappings and
  bots by name), beside the shared ``--jobs --out --smoke --variant``
  (:mod:`pu_sim.studies.flags`) and, for a lab script that writes a fitted
  table, ``--write --tables``;
* ``--smoke`` applies the script's small overrides first, explicit flags win;
* every run's seed is derived from the Config's ``seed`` by a key path that
  starts with the study's name (:meth:`Study.seed`): runs that share a key
  deal the same setups (paired), and no two studies share setups by accident;
* :meth:`Study.run` plays a resumable run folder under the report folder
  ``<out>/[<reports>/]<study>/<run>/runs/`` and :meth:`Study.finish` (or the
  report builder) writes the report manifest with the command that made it.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy.typing as npt

from pu_sim.bots import BotSpec, fitted
from pu_sim.bots import parse as parse_bot
from pu_sim.engine import core
from pu_sim.rules import Variant
from pu_sim.simulation.manifest import write_report_manifest
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.seeds import DEFAULT_BATCH_SIZE, KeyPart, RootSeed, derive
from pu_sim.simulation.table import TableSetup
from pu_sim.studies import flags

C = TypeVar("C")


@dataclass(frozen=True)
class Study:
    """One run of a study script, from its flags to its report."""

    name: str
    config: Any
    jobs: int
    smoke: bool
    folder: Path
    command: str
    variant: Variant | None = None
    write: bool = False
    tables: Path | None = None
    table: str | None = None
    started: float = field(default_factory=time.perf_counter)

    def seed(self, *key: KeyPart) -> RootSeed:
        """The root seed of the runs named ``key`` (derived from the Config's)."""
        return derive(self.config.seed, self.name, *key)

    def plan(
        self, *key: KeyPart, table: TableSetup | None = None, **table_args: Any
    ) -> Plan:
        """The plan of a run: its table (with the study's variant) and seed."""
        if table is None:
            table = TableSetup(**table_args)
        elif table_args:
            raise TypeError("give the table or its fields, not both")
        if self.variant is not None:
            table = dataclasses.replace(table, variant=self.variant)
        return Plan.of(table, seed=self.seed(*key))

    def run(
        self,
        name: str,
        plan: Plan,
        n_games: int,
        *,
        pairing: str | None = None,
        extra: Mapping[str, Any] | None = None,
        batch_size: int | None = None,
        round_scores: bool = False,
        folder: Path | None = None,
    ) -> Path:
        """Play (or resume) run ``name`` under ``<folder>/runs/``; returns its path.

        ``n_games`` is rounded up to whole paired groups.  ``pairing`` names
        a set of runs dealt the same setups (the same plan seed), so reports
        pair them by ``game_id``; it, the study, the run's name and ``extra``
        go to the manifest's ``metadata``.
        """
        run_dir = (folder or self.folder) / "runs" / name
        return play_run(
            run_dir, plan, n_games, study=self.name, jobs=self.jobs,
            pairing=pairing, extra=extra, batch_size=batch_size,
            round_scores=round_scores,
        )  # fmt: skip

    def finish(
        self,
        *,
        title: str,
        readme: str,
        results: Mapping[str, Any],
        games: int | None = None,
        runs: Sequence[Path] = (),
    ) -> Path:
        """Write the README and the report manifest; returns the report folder."""
        self.folder.mkdir(parents=True, exist_ok=True)
        from pu_sim.report.document import from_markdown, write_pages

        path = self.folder / "README.md"
        # a page the report builder wrote for this very README is kept (it
        # links each headline to its section); any other README gets its own
        kept = (self.folder / "index.html").is_file() and (
            path.is_file() and path.read_text() == readme
        )
        path.write_text(readme)
        if not kept:
            write_pages(from_markdown(readme), self.folder, markdown=False)
        write_report_manifest(
            self.folder, study=self.name, title=title, command=self.command,
            config=self.config, runs=runs, games=games,
            wall_time_s=round(time.perf_counter() - self.started, 1),
            results=results,
        )  # fmt: skip
        print(f"report: {self.folder}", flush=True)
        print(f"page: {self.folder / 'index.html'}", flush=True)
        return self.folder

    def write_table(
        self,
        arrays: Mapping[str, npt.ArrayLike],
        *,
        seed: int | None = None,
        notes: str | None = None,
    ) -> Path | None:
        """Write the script's fitted table when ``--write`` asks.

        Into ``--tables`` (default: the packaged ``pu_sim/data/fitted``),
        checked against the core's sizes; a smoke run writes only into a
        ``--tables`` folder given explicitly.
        """
        if self.table is None or not self.write:
            return None
        if self.smoke and self.tables is None:
            return None
        provenance = fitted.Provenance(
            command=self.command, seed=seed, engine_version=core.engine_version(),
            report=self.folder.as_posix(), notes=notes,
        )  # fmt: skip
        return fitted.write_table(
            self.table, arrays, provenance, self.tables, constants=core.constants()
        )


# --------------------------------------------------------------------------------
# Flags from a Config
# --------------------------------------------------------------------------------


def flag(name: str) -> str:
    """A Config field's flag: ``n_games`` is ``--games``."""
    return "--games" if name == "n_games" else "--" + name.replace("_", "-")


def _flag_type(name: str, value: Any, optional: bool = False) -> dict[str, Any] | None:
    """Argparse keywords for a field with this default (None: no flag).

    ``optional``: the field may be None, which a bot flag takes as ``none``.
    """
    if name == "seed":
        return {"type": flags.SEED}
    if name == "n_games":
        return {"type": flags.GAMES}
    if isinstance(value, BotSpec):
        # the default's own label names it too, so a recorded command replays
        # (e.g. a study's built-in search-8-tuned, which is no parseable name)
        return {"type": _bot_or_default(value.label, optional), "metavar": "BOT"}
    if isinstance(value, bool):
        return {"action": argparse.BooleanOptionalAction}
    if isinstance(value, float):
        return {"type": flags.finite}
    if isinstance(value, int | str):
        return {"type": type(value)}
    if isinstance(value, tuple) and all(isinstance(v, int | str) for v in value):
        kind = type(value[0]) if value else str
        return {"nargs": "+" if value else "*", "type": kind}  # given: not empty
    if isinstance(value, Mapping):
        return {"type": json.loads, "metavar": "JSON"}
    return None  # tuples of bots and other objects are set in the Config only


def _bot_or_default(label: str, optional: bool = False) -> Any:
    """A --bot flag's type: a bot spec string, the default's label, or ``none``."""

    def check(text: str) -> str:
        if text == label or (optional and text == NO_BOT):
            return text
        return flags.bot(text)

    return check


NO_BOT = "none"
"""What an optional bot flag (``--third none``) takes for no bot."""


def _rendered(name: str, value: Any) -> str:
    """A flag and its value as shell text."""
    if value is None:  # only an optional bot flag can have been set to None
        return f"{name} {NO_BOT}"
    if isinstance(value, bool):
        return name if value else "--no-" + name[2:]
    if isinstance(value, BotSpec):
        return f"{name} {shlex.quote(value.label)}"
    if isinstance(value, tuple):
        return " ".join([name, *(shlex.quote(str(v)) for v in value)])
    if isinstance(value, Mapping):
        return f"{name} {shlex.quote(json.dumps(dict(value)))}"
    return f"{name} {shlex.quote(str(value))}"


def start(
    study: str,
    config: C,
    argv: Sequence[str] | None,
    *,
    doc: str | None,
    smoke: Mapping[str, Any],
    program: str | None = None,
    reports: str = "",
    out: Path = Path("reports"),
    table: str | None = None,
    run_name: Callable[[C], str] | None = None,
    check: Callable[[C], str | None] | None = None,
) -> Study:
    """Parse a study script's flags into a :class:`Study`.

    ``doc`` is the script's docstring (its first line describes the flags);
    ``smoke`` the Config's ``--smoke`` overrides; ``program`` the command that
    runs the study (default ``python experiments/[<reports>/]<study>.py``),
    which starts the command recorded in the report manifest; ``reports`` the
    folder under ``--out`` its reports go to (``bots`` for the lab); ``out``
    the default of ``--out``; ``table`` the fitted table a lab script can
    write; ``run_name`` names the report folder (default
    ``<n_games>-games-seed-<seed>``); ``check`` returns an error for a Config
    the study cannot run (reported like a bad flag).

    A Config with a ``bot`` and a ``second`` policy (or a ``weak`` level to
    face): a new ``--bot`` that is the Config's second (weak), without
    ``--second`` (``--weak``), takes the Config's bot in its place (a bot
    cannot check or face itself).
    """
    where = f"{reports}/" if reports else ""
    program = program or f"python experiments/{where}{study}.py"
    parser = flags.Parser(prog=program, description=(doc or study).splitlines()[0])
    flagged = {}
    for f in dataclasses.fields(config):  # type: ignore[arg-type]
        optional = "None" in str(f.type)
        kind = _flag_type(f.name, getattr(config, f.name), optional)
        if kind is not None and f.init:
            flagged[f.name] = flag(f.name)
            shown = getattr(config, f.name)
            bot_flag = isinstance(shown, BotSpec)
            shown = shown.label if isinstance(shown, BotSpec) else shown
            help_ = f.metadata.get("help") or (
                f"root seed ({shown}); each run's is derived from it"
                if f.name == "seed"
                else f"(default: {shown}"
                + (f"; {NO_BOT}: no such bot)" if bot_flag and optional else ")")
            )
            parser.add_argument(
                flagged[f.name], dest=f.name, default=None, help=help_,
                choices=f.metadata.get("choices"), **kind,
            )  # fmt: skip
    flags.add_jobs(parser)
    parser.add_argument("--out", type=Path, default=out, help=f"reports root ({out}/)")
    parser.add_argument("--smoke", action="store_true", help="a run of seconds (CI)")
    flags.add_variant(parser)
    if table is not None:
        parser.add_argument(
            "--write", action="store_true",
            help=f"write the {table} fitted table into --tables",
        )  # fmt: skip
        parser.add_argument(
            "--tables", type=Path, default=None,
            help="folder of fitted tables to write (default: pu_sim/data/fitted)",
        )  # fmt: skip
    ns = parser.parse_args(argv)
    _PROGRAM[0] = program
    config = _configured(config, ns, flagged, smoke)
    try:
        _check_known_fields(config)
    except (TypeError, ValueError) as exc:
        parser.error(" ".join(str(exc).split()))
    problem = check(config) if check is not None else None
    if problem:
        parser.error(problem)
    try:
        variant = Variant.read(*ns.variant) if ns.variant else None
    except ValueError as exc:  # a bad file: one line, as a bad flag gets
        parser.error(f"argument --variant: {' '.join(str(exc).split())}")
    name = "smoke" if ns.smoke else (run_name or default_run_name)(config)
    if variant is not None:
        name = f"{name}-variant-{variant.name}"
    parts = [program]
    parts += [_rendered(f, getattr(config, k)) for k, f in flagged.items()]
    parts += [f"--variant {shlex.quote(str(v))}" for v in ns.variant]
    parts += ["--write"] if table is not None else []
    parts += ["--smoke"] if ns.smoke else []
    return Study(
        name=study, config=config, jobs=ns.jobs, smoke=ns.smoke,
        folder=ns.out / reports / study / name, command=" ".join(parts),
        variant=variant, write=bool(getattr(ns, "write", False)),
        tables=getattr(ns, "tables", None), table=table,
    )  # fmt: skip


def _check_known_fields(config: Any) -> None:
    """The fields every study names alike, checked before anything plays.

    ``players`` (and ``*_players``): counts 1..6; ``corporations`` and
    ``planets``: names a seat takes, unless the field lists its own ``choices``
    (a lab script's ``--planets base|random`` picks a mode, which argparse
    checks).  A study's own checks are its ``check``.
    """
    from pu_sim.rules import load_game_data
    from pu_sim.rules.validation import check_int
    from pu_sim.simulation.table import check_names

    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        counts = value if isinstance(value, tuple) else (value,)
        if f.name == "players" or f.name.endswith("_players"):
            for n in counts:
                check_int(n, f"argument {flag(f.name)}: players", 1, 6)
        elif (
            f.name in ("corporations", "planets")
            and "choices" not in f.metadata
            and all(isinstance(v, str) for v in counts)
        ):
            for name in counts:
                try:
                    check_names(f.name[:-1], name, load_game_data())
                except ValueError as exc:
                    raise ValueError(f"argument {flag(f.name)}: {exc}") from None


_PROGRAM = ["pu_sim"]
"""The running study's program name (set by :func:`start`), for :func:`guarded`."""


def guarded(command: Callable[[], int | None], program: str | None = None) -> int:
    """Run a study's ``main``; a failure becomes one line and an exit status.

    Every study script ends ``raise SystemExit(guarded(main))``, so a study is
    at the command line's standard: bad input (a value a flag took but the
    study cannot play, a run folder of another run) exits 2 with one line
    naming it, a run stopped part-way exits 1 saying how to resume, Ctrl-C
    exits 130, and a warning (a part played again) is one line too.
    """
    from pu_sim.simulation.runner import RunError

    def say(kind: str, exc: BaseException | str) -> None:
        text = " ".join(str(exc).split()) or type(exc).__name__
        print(f"{program or _PROGRAM[0]}: {kind}: {text}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = lambda message, *args, **kwargs: say("note", message)
        try:
            return command() or 0
        except (ValueError, TypeError, ImportError) as exc:
            say("error", exc)
            return 2
        except (RunError, OSError) as exc:
            say("error", exc)
            return 1
        except KeyboardInterrupt:
            say("interrupted", "finished batches are saved; run the same command "
                "to resume")  # fmt: skip
            return 130


def _configured(
    config: C,
    ns: argparse.Namespace,
    flagged: Mapping[str, str],
    smoke: Mapping[str, Any],
) -> C:
    """The Config after ``--smoke`` and the flags given."""
    changes: dict[str, Any] = dict(smoke) if ns.smoke else {}
    for k in flagged:
        value = getattr(ns, k)
        if value is None:
            continue
        default = getattr(config, k)
        if isinstance(default, BotSpec):
            value = (
                None if value == NO_BOT
                else default if value == default.label
                else parse_bot(value)
            )  # fmt: skip
        changes[k] = tuple(value) if isinstance(value, list) else value
    bot = changes.get("bot")
    for name in ("second", "weak"):  # a bot cannot check or face itself
        other = getattr(config, name, None)
        if (
            isinstance(bot, BotSpec)
            and isinstance(other, BotSpec)
            and name not in changes
            and bot.label == other.label
        ):
            changes[name] = config.bot  # type: ignore[attr-defined]
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]


def default_run_name(config: Any) -> str:
    """``<n_games>-games-seed-<seed>``: the same size and seed rewrite one folder."""
    return f"{config.n_games}-games-seed-{config.seed}"


# --------------------------------------------------------------------------------
# Run folders
# --------------------------------------------------------------------------------


def play_run(
    run_dir: Path,
    plan: Plan,
    n_games: int,
    *,
    study: str,
    jobs: int = -1,
    pairing: str | None = None,
    extra: Mapping[str, Any] | None = None,
    batch_size: int | None = None,
    round_scores: bool = False,
) -> Path:
    """Play one run of a study into ``run_dir`` with :func:`pu_sim.run`.

    Resumable like any run: the same call after an interruption plays only
    the missing batches, and a finished run is not played again.  A folder
    holding only a manifest (its games deleted) is replayed from scratch,
    since nothing can be lost; one holding games of a different run is
    refused by the runner with what differs.
    """
    from pu_sim.simulation.runner import run

    run_dir = Path(run_dir)
    _forget_record_without_games(run_dir)
    groups = plan.table.groups
    run(
        -(-n_games // groups) * groups, plan, out=run_dir, n_jobs=jobs,
        progress=None, batch_size=batch_size or study_batch(plan, n_games),
        round_scores=round_scores,
        metadata={"study": study, "name": run_dir.name, "pairing": pairing,
                  **(extra or {})},
    )  # fmt: skip
    return run_dir


def _forget_record_without_games(run_dir: Path) -> None:
    """Remove a manifest whose games are gone: nothing is lost by replaying."""
    manifest = run_dir / "manifest.json"
    if manifest.is_file() and not any((run_dir / "data").glob("part-*.parquet")):
        manifest.unlink()


def study_batch(plan: Plan, n_games: int) -> int:
    """Games per core call that keep every worker of a study run busy.

    Eight batches a run at least (a run of one or two default batches played
    on one core of two), at most the runner's default; a searching bot's
    games are slow, so its batches hold 8.  Results do not depend on it.
    """
    if any(b.kind == "search" for b in plan.table.seat_bots()):
        return 8
    return max(25, min(DEFAULT_BATCH_SIZE, -(-n_games // 8)))
