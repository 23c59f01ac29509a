"""Shared plumbing of the experiment scripts: flags, run folders, manifests.

Every script in ``experiments/`` declares a frozen ``Config`` dataclass and a
``main(argv=None)`` that calls :func:`cli` for the shared flags
(``--games --seed --jobs --out --smoke``), plays its runs with
:func:`simulate_run`, and writes a report with
:func:`pu_sim.report.reporting.write_report`.

A *run folder* is what :mod:`pu_sim.simulation.runner` produces and what reports read::

    <run>/manifest.json               configuration, seed, versions, timing
    <run>/data/part-<first>-<n>.parquet   one row per (game, seat)

:func:`simulate_run` plays through :func:`pu_sim.simulation.runner.run`, so a study
streams its games to Parquet and resumes after an interruption.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pu_sim.bots import BotSpec
from pu_sim.bots import parse as parse_bot
from pu_sim.rules import RuleOptions, Variant
from pu_sim.simulation.table import SeatChoice

C = TypeVar("C")


@dataclass(frozen=True, kw_only=True)
class Args:
    """The shared flags after parsing."""

    games: int | None
    seed: int | None
    jobs: int
    out: Path
    smoke: bool
    variant: Variant | None = None
    """The variant every run of the study plays (``--variant FILE``, repeatable)."""
    bot: str | None = None
    second: str | None = None


def cli(
    argv: Sequence[str] | None, *, description: str, policies: bool = False
) -> Args:
    """Parse the shared experiment flags; unknown flags are an error.

    ``--games`` and ``--seed`` default to None: the script's Config decides.
    ``--smoke`` asks for a run of seconds (CI runs every script that way).
    ``policies`` adds ``--bot`` (the bot every seat plays) and ``--second``
    (the second policy, of another style, that checks its findings): names
    or spec strings for :func:`pu_sim.bots.parse`, None when not given.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--games", type=int, default=None, help="games per cell")
    parser.add_argument("--seed", type=int, default=None, help="root seed")
    parser.add_argument(
        "--jobs", type=int, default=-1, help="parallel workers (-1: all cores)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("reports"), help="reports root (reports/)"
    )
    parser.add_argument("--smoke", action="store_true", help="tiny run for CI")
    parser.add_argument(
        "--variant", type=Path, action="append", default=[], metavar="FILE",
        help="play a variant of the game (repeatable, applied in order)",
    )  # fmt: skip
    if policies:
        parser.add_argument(
            "--bot", default=None,
            help="the bot at every seat (default greedy_tuned; e.g. greedy, "
            "'search:budget=8')",
        )  # fmt: skip
        parser.add_argument(
            "--second", default=None,
            help="the second policy, of another style (the main study's "
            "default: greedy_learned; e.g. 'search:budget=2')",
        )  # fmt: skip
    ns = parser.parse_args(argv)
    if ns.games is not None and ns.games < 1:
        parser.error(f"--games must be >= 1, got {ns.games}")
    for flag in ("bot", "second"):
        name = getattr(ns, flag, None)
        if name is not None:
            try:
                parse_bot(name)
            except (TypeError, ValueError) as exc:
                parser.error(f"--{flag}: {exc}")
    variant = Variant.read(*ns.variant) if ns.variant else None
    return Args(
        games=ns.games, seed=ns.seed, jobs=ns.jobs, out=ns.out, smoke=ns.smoke,
        variant=variant, bot=getattr(ns, "bot", None),
        second=getattr(ns, "second", None),
    )  # fmt: skip


def command_line(program: str, argv: Sequence[str] | None) -> str:
    """The command that ran ``python <program>`` with ``argv``.

    ``program``: ``experiments/<study>.py`` or ``-m <module>``; ``argv`` None:
    the process's own arguments.  For the report manifest: a report says how
    to play its games again.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    return " ".join([f"python {program}", *args])


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


def with_policies(
    config: C, bot: str | None, second: str | None, fallback: BotSpec
) -> C:
    """The Config with ``--bot`` / ``--second`` applied (by name or spec string).

    A new ``--bot`` without ``--second`` keeps the Config's second policy, or
    takes ``fallback`` when the new bot is that policy (a bot cannot check
    itself, and the two would share run folders).
    """
    changes: dict[str, Any] = {}
    if bot is not None:
        changes["bot"] = parse_bot(bot)
        current = getattr(config, "second", None)
        if current is not None and changes["bot"].label == current.label:
            changes["second"] = fallback
    if second is not None:
        changes["second"] = parse_bot(second)
    return dataclasses.replace(config, **changes)  # type: ignore[type-var]


def run_name(config: Any, smoke: bool, variant: Variant | None = None) -> str:
    """A stable folder name from the size and seed (re-running overwrites it).

    A variant's study gets its own folder (``...-variant-<name>``).
    """
    name = "smoke" if smoke else f"{config.n_games}-games-seed-{config.seed}"
    return name if variant is None else f"{name}-variant-{variant.name}"


def simulate_run(
    run_dir: Path,
    *,
    study: str,
    n_games: int,
    seed: int,
    n_jobs: int = -1,
    players: int = 1,
    corporations: SeatChoice | Sequence[SeatChoice] = "random",
    planets: SeatChoice | Sequence[SeatChoice] = "random",
    bots: str | BotSpec | Sequence[str | BotSpec] = "greedy",
    options: RuleOptions | None = None,
    group_size: int = 1,
    pairing: str | None = None,
    extra: dict[str, Any] | None = None,
    batch_size: int | None = None,
    variant: Variant | None = None,
    round_scores: bool = False,
) -> Path:
    """Play one run of a study into ``run_dir`` with :func:`pu_sim.run`.

    The run is resumable like any runner call: the same command after an
    interruption plays only the missing batches, and a finished run is not
    played again.  ``n_games`` is rounded up to whole paired groups.
    ``pairing`` names a set of runs designed to be compared game by game:
    runs with the same pairing name and seed deal identical setups (the core
    seeds each game's setup from the seed and game index only), so reports
    pair them by ``game_id``.  ``study``, the folder name, ``pairing`` and
    ``extra`` go to the manifest's ``metadata``.  ``batch_size`` (default:
    :func:`study_batch`) sets the games per core call.  Results do not depend
    on it.  ``variant`` plays a variant of the game;
    ``round_scores`` keeps each seat's score after every round (the
    runner's option of that name).

    A folder holding only a manifest (its games deleted) is replayed from
    scratch, since nothing can be lost; a folder holding games of a different
    run is refused by the runner with what differs.

    Returns
    -------
    pathlib.Path
        ``run_dir``.
    """
    from pu_sim.simulation.runner import run

    run_dir = Path(run_dir)
    _forget_record_without_games(run_dir)
    groups = max(1, group_size)
    run(
        -(-n_games // groups) * groups,
        out=run_dir, players=players, corporations=corporations, planets=planets,
        bots=bots, seed=seed, n_jobs=n_jobs, options=options or RuleOptions(),
        group_size=groups, progress=None, variant=variant,
        batch_size=batch_size or study_batch(bots, n_games), round_scores=round_scores,
        metadata={"study": study, "name": run_dir.name, "pairing": pairing,
                  **(extra or {})},
    )  # fmt: skip
    return run_dir


def _forget_record_without_games(run_dir: Path) -> None:
    """Remove a manifest whose games are gone: nothing is lost by replaying."""
    manifest = run_dir / "manifest.json"
    if manifest.is_file() and not any((run_dir / "data").glob("part-*.parquet")):
        manifest.unlink()


def study_batch(bots: str | BotSpec | Sequence[str | BotSpec], n_games: int) -> int:
    """Games per core call that keep every worker of a study run busy.

    Eight batches a run at least (a run of one or two default batches played
    on one core of two), at most the runner's default; a searching bot's
    games are slow, so its batches hold 8.  Results do not depend on it.
    """
    from pu_sim.simulation.seeds import DEFAULT_BATCH_SIZE

    seats = [bots] if isinstance(bots, str | BotSpec) else list(bots)
    specs = [b if isinstance(b, BotSpec) else parse_bot(b) for b in seats]
    if any(b.kind == "search" for b in specs):
        return 8
    return max(25, min(DEFAULT_BATCH_SIZE, -(-n_games // 8)))
