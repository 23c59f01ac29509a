"""What every bot-development script shares: flags, report folder, manifest.

A script under ``experiments/bots/`` is a frozen ``Config`` dataclass and a
``main(argv)`` that calls :func:`start`:

* the flags come from the Config's fields (``n_games`` is ``--games``, other
  fields ``--field-name``; numbers, strings, flags, tuples and JSON mappings),
  beside ``--jobs --out --smoke`` and, for a script that writes a fitted
  table, ``--write --tables``;
* ``--smoke`` applies the script's small overrides first, explicit flags win;
* the report goes to ``<out>/bots/<study>/<run>/`` with a README and the
  manifest of :func:`pu_sim.report.manifest.write_report_manifest` (the
  study's numbers under ``results``); :meth:`Session.finish` writes both.

Also here, for several studies: greedy_tuned without one feature, paired
differences with their 95% half-width, the games of one table in one core
call, base games played with a folder of fitted tables and the share of
opponents one seat beats there, and work over chunks of games on joblib
workers.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from pu_sim import bots
from pu_sim.bots import BotSpec, fitted
from pu_sim.engine import core, load_rules
from pu_sim.engine.core import engine_version
from pu_sim.report.manifest import write_report_manifest
from pu_sim.simulation.in_memory import play_range
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.table import TableSetup

REPORTS = "bots"
"""The bot studies' folder under the reports root (``reports/bots/<study>``)."""

C = TypeVar("C")
R = TypeVar("R")
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Session:
    """One run of a bot-development script, from its flags to its report."""

    study: str
    config: Any
    jobs: int
    smoke: bool
    folder: Path
    command: str
    write: bool = False
    tables: Path | None = None
    table: str | None = None
    started: float = field(default_factory=time.perf_counter)

    def finish(
        self,
        *,
        title: str,
        readme: str,
        results: Mapping[str, Any],
        games: int | None = None,
        runs: Sequence[Path] = (),
    ) -> Path:
        """Write the README and the manifest; returns the report folder."""
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "README.md").write_text(readme)
        write_report_manifest(
            self.folder, study=self.study, title=title, command=self.command,
            config=self.config, runs=runs, games=games,
            wall_time_s=round(time.perf_counter() - self.started, 1),
            results=results,
        )  # fmt: skip
        print(f"report: {self.folder}", flush=True)
        return self.folder

    def write_table(
        self,
        arrays: Mapping[str, npt.ArrayLike],
        *,
        seed: int | None = None,
        notes: str | None = None,
    ) -> Path | None:
        """Write the script's fitted table when ``--write`` asks.

        Into ``--tables`` (default: the packaged ``pu_sim/data/fitted``); a
        smoke run writes only into a ``--tables`` folder given explicitly.
        """
        if self.table is None or not self.write:
            return None
        if self.smoke and self.tables is None:
            return None

        provenance = fitted.Provenance(
            command=self.command, seed=seed,
            engine_version=engine_version(),
            report=self.folder.as_posix(), notes=notes,
        )  # fmt: skip
        return fitted.write_table(self.table, arrays, provenance, self.tables)


def flag(name: str) -> str:
    """A Config field's flag: ``n_games`` is ``--games``."""
    return "--games" if name == "n_games" else "--" + name.replace("_", "-")


def _flag_type(value: Any) -> dict[str, Any] | None:
    """Argparse keywords for a field with this default (None: no flag)."""
    if isinstance(value, bool):
        return {"action": argparse.BooleanOptionalAction}
    if isinstance(value, int | float | str):
        return {"type": type(value)}
    if isinstance(value, tuple) and all(isinstance(v, int | str) for v in value):
        kind = type(value[0]) if value else str
        return {"nargs": "*", "type": kind}
    if isinstance(value, Mapping):
        return {"type": json.loads, "metavar": "JSON"}
    return None  # bot specs and other objects are set in the Config only


def _rendered(name: str, value: Any) -> str:
    """A flag and its value as shell text."""
    if isinstance(value, bool):
        return name if value else "--no-" + name[2:]
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
    table: str | None = None,
    run_name: Callable[[C], str] | None = None,
    check: Callable[[C], str | None] | None = None,
) -> Session:
    """Parse the flags of ``experiments/bots/<study>.py`` into a Session.

    ``doc`` is the script's docstring (its first line describes the flags);
    ``smoke`` the Config's ``--smoke`` overrides; ``table`` the fitted table
    the script can write; ``run_name`` names the report folder (default
    ``<n_games>-games-seed-<seed>``); ``check`` returns an error for a Config
    the study cannot run (reported like a bad flag).
    """
    parser = argparse.ArgumentParser(description=(doc or study).splitlines()[0])
    flagged = {}
    for f in dataclasses.fields(config):  # type: ignore[arg-type]
        kind = _flag_type(getattr(config, f.name))
        if kind is not None and f.init:
            flagged[f.name] = flag(f.name)
            help_ = f.metadata.get("help") or f"(default: {getattr(config, f.name)})"
            parser.add_argument(
                flagged[f.name], dest=f.name, default=None, help=help_,
                choices=f.metadata.get("choices"), **kind,
            )  # fmt: skip
    parser.add_argument(
        "--jobs", type=int, default=-1, help="parallel workers (-1: all cores)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("reports"), help="reports root (reports/)"
    )
    parser.add_argument("--smoke", action="store_true", help="a run of seconds (CI)")
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
    changes = dict(smoke) if ns.smoke else {}
    for k in flagged:
        value = getattr(ns, k)
        if value is not None:
            changes[k] = tuple(value) if isinstance(value, list) else value
    if changes.get("n_games", 1) < 1:
        parser.error(f"--games must be >= 1, got {changes['n_games']}")
    config = dataclasses.replace(config, **changes)  # type: ignore[type-var]
    problem = check(config) if check is not None else None
    if problem:
        parser.error(problem)
    name = "smoke" if ns.smoke else (run_name or default_run_name)(config)
    parts = [f"python experiments/{REPORTS}/{study}.py"]
    parts += [_rendered(f, getattr(config, k)) for k, f in flagged.items()]
    parts += ["--write"] if table is not None else []
    parts += ["--smoke"] if ns.smoke else []
    return Session(
        study=study, config=config, jobs=ns.jobs, smoke=ns.smoke,
        folder=ns.out / REPORTS / study / name, command=" ".join(parts),
        write=bool(getattr(ns, "write", False)), tables=getattr(ns, "tables", None),
        table=table,
    )  # fmt: skip


def default_run_name(config: Any) -> str:
    """``<n_games>-games-seed-<seed>``.

    Re-running the same size and seed rewrites the same folder.
    """
    return f"{config.n_games}-games-seed-{config.seed}"


# --------------------------------------------------------------------------------
# Shared measurements
# --------------------------------------------------------------------------------


ROUND_PARTS = (1, 6, 11, 15, 18, 20)
"""Parts of the game by round (the first round of each; a game ends about round
20): the rows of the learned rotation value's table
(core/bots/greedy_rotation_round.pxi), and the parts other studies report by."""


def round_part(round_: int) -> int:
    """The part of the game (index into ROUND_PARTS) a round falls in."""
    return int(np.searchsorted(ROUND_PARTS, round_, side="right")) - 1


def round_part_labels() -> list[str]:
    """The parts of the game as round ranges: 1-5, ..., 20+."""
    ends = [*ROUND_PARTS[1:], None]
    return [f"{s}" if e == s + 1 else (f"{s}+" if e is None else f"{s}-{e - 1}")
            for s, e in zip(ROUND_PARTS, ends, strict=True)]  # fmt: skip


def policy_without(weight: str) -> BotSpec:
    """greedy_tuned with one feature switched off: what its table measures.

    Labelled greedy_tuned, as the committed reports record it.
    """
    return bots.greedy("greedy_tuned", **{**bots.PRESETS["greedy_tuned"], weight: 0.0})


def paired(a: npt.ArrayLike, b: npt.ArrayLike) -> tuple[float, float]:
    """Mean of a - b and the half-width of its 95% interval (normal)."""
    d = np.asarray(a, np.float64) - np.asarray(b, np.float64)
    if len(d) < 2:
        return float(d.mean()), 0.0
    return float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))


def seat_outcomes(scores: npt.ArrayLike, seat: int = 0) -> tuple[Floats, Floats]:
    """Per game (rows: games, columns: seats): `seat`'s margin and share beaten.

    Its score minus the best opponent's, and the share of opponents it finished
    ahead of (ties half).
    """
    s = np.asarray(scores, np.float64)
    own, others = s[:, seat], np.delete(s, seat, axis=1)
    margin = own - others.max(axis=1)
    ahead = ((own[:, None] > others) + 0.5 * (own[:, None] == others)).mean(axis=1)
    return margin, ahead


def play_records(
    setup: TableSetup, n_games: int, seed: int, first_game: int = 0
) -> npt.NDArray[np.void]:
    """Games [first_game, first_game + n_games) of a table in one core call.

    Game ``i`` is game ``i`` of ``pu_sim.simulate(table, seed=seed)``.
    """
    return play_range(Plan.of(setup, seed=seed), first_game, n_games)


def _batch(plan: Plan, first: int, n: int, tables: Path) -> npt.NDArray[np.float64]:
    """Seat scores of ``n`` games of ``plan`` from ``first``.

    Played with the fitted tables of ``tables``, not the packaged ones.
    """
    rules = load_rules(tables).core
    out = core.play_batch(rules, plan.spec, plan.key, first, n)
    return np.asarray(out["score"], np.float64)


def base_game_scores(
    seats: Sequence[BotSpec], n: int, seed: int, jobs: int, tables: Path
) -> Floats:
    """Scores [game, seat] of n base games, the tables read from `tables`.

    Every seat plays Universal Coalition on KSB-4156; game i deals the same
    setup whoever sits where.
    """
    setup = TableSetup(players=len(seats), corporations="universal_coalition",
                       planets="ksb_4156", bots=list(seats))  # fmt: skip
    plan = Plan.of(setup, seed=seed)
    step = max(1, n // 40)
    parts = Parallel(n_jobs=jobs, prefer="threads")(
        delayed(_batch)(plan, s, min(step, n - s), tables) for s in range(0, n, step)
    )
    return np.concatenate(parts).reshape(n, len(seats))


def share_row(
    learned: BotSpec, field_bot: BotSpec, players: int, n: int, seed: int, jobs: int,
    tables: Path,
) -> dict[str, Any]:  # fmt: skip
    """One ``learned`` seat among ``field_bot`` seats: the share of opponents beaten.

    Each of n base setups in every cyclic seat order; the share of opponents
    it finished ahead of (ties half), its interval over setups (a setup's
    games one cluster).
    """
    ahead = np.zeros(n)
    for k in range(players):
        seats = [field_bot] * players
        seats[k] = learned
        ahead += seat_outcomes(base_game_scores(seats, n, seed, jobs, tables), k)[1]
    share, half = paired(ahead / players, 0.0)
    return {"bot": learned.label, "against": field_bot.label, "players": players,
            "setups": n, "ahead": share, "half_width": half}  # fmt: skip


def in_chunks(
    work: Callable[..., R],
    n_games: int,
    jobs: int,
    *args: Any,
    parts: int = 20,
    progress: str | None = None,
) -> list[R]:
    """``work(games, *args)`` over chunks of ``range(n_games)`` on joblib workers.

    About ``parts`` chunks, results in game order (so none depends on ``jobs``);
    ``progress`` names a bar on stderr that counts the finished chunks.
    """
    from tqdm.auto import tqdm

    chunk = max(1, n_games // parts)
    starts = range(0, n_games, chunk)
    results = Parallel(n_jobs=jobs, return_as="generator")(
        delayed(work)(range(s, min(n_games, s + chunk)), *args) for s in starts
    )
    bar = tqdm(results, total=len(starts), desc=progress, disable=progress is None)
    return list(bar)
