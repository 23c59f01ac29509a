"""What each ``pu-sim`` subcommand does, once its flags are parsed."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.cli.parser import MAX_GAMES_IN_MEMORY
from pu_sim.cli.table_flags import table_from
from pu_sim.rules.validation import Contradiction


def summary(games: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    """Per player count and bot: scores, and solo success or win rate."""
    frame = games.lazy().collect()
    solo = frame["n_players"].max() == 1 if frame.height else False
    outcome = (
        [
            pl.col("solo_target").median().alias("target"),
            (pl.col("score") >= pl.col("solo_target")).mean().round(3).alias("success"),
        ]
        if solo
        else [pl.col("won").mean().round(3).alias("win_rate")]
    )
    return (
        frame.group_by("n_players", "bot")
        .agg(
            pl.col("game_id").n_unique().alias("games"),
            pl.col("score").mean().round(2).alias("mean_score"),
            pl.col("score").std().round(2).alias("sd"),
            pl.col("score").quantile(0.5).alias("median"),
            *outcome,
            pl.col("rounds").mean().round(1).alias("rounds"),
            (pl.col("status") != "ok").sum().alias("anomalies"),
        )
        .sort("n_players", "bot")
    )


def simulate(args: argparse.Namespace) -> int:
    """Play into a run folder (or a temporary one) and print a summary."""
    from pu_sim.simulation.runfolder import scan_run
    from pu_sim.simulation.runner import run
    from pu_sim.simulation.seeds import DEFAULT_BATCH_SIZE

    if args.out is None and args.games > MAX_GAMES_IN_MEMORY:
        raise ValueError(
            f"--games {args.games:,}: more than {MAX_GAMES_IN_MEMORY:,} games need "
            "--out RUN_FOLDER (a resumable run folder; without it only the summary "
            "is kept)"
        )
    kwargs: dict[str, Any] = dict(
        seed=args.seed, n_jobs=args.jobs,
        batch_size=DEFAULT_BATCH_SIZE if args.batch_size is None else args.batch_size,
        backend=args.backend, scheduler=args.scheduler,
        progress=False if args.no_progress else None,
    )  # fmt: skip
    table = table_from(args)
    with tempfile.TemporaryDirectory(prefix="pu-sim-") as tmp:
        out = args.out if args.out is not None else Path(tmp) / "run"
        try:
            result = run(args.games, table, out=out, **kwargs)
        except KeyboardInterrupt:
            if args.out is None:
                print("pu-sim: interrupted", file=sys.stderr)
            else:
                print(
                    f"pu-sim: interrupted; finished batches are saved in {out}; "
                    "run the same command to resume",
                    file=sys.stderr,
                )
            return 130
        with pl.Config(
            tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
            tbl_cols=-1, tbl_width_chars=120,
        ):  # fmt: skip
            print(summary(scan_run(out)))
    print(
        f"{result.games_played:,} games in {result.wall_time_s:.1f} s "
        f"({result.games_per_s:,.0f} games/s)"
    )
    if args.out is not None:
        if result.games_resumed:
            print(f"resumed: {result.games_resumed:,} games were already done")
        print(
            f"run folder {out}: {result.n_games:,} games; "
            f"report with `pu-sim report {out}`"
        )
    return 0


def study(argv: Sequence[str]) -> int:
    """The main study (:mod:`pu_sim.studies.main`), with its own flags."""
    from pu_sim.studies import main as main_study

    return main_study.main(argv, program="pu-sim study")


def report(args: argparse.Namespace) -> int:
    """The report of a run folder, a study folder of runs, or a report folder."""
    from pu_sim.simulation.manifest import MANIFEST
    from pu_sim.simulation.runfolder import IncompleteRunError, find_run_folders

    folder: Path = args.run_folder
    if folder.is_file():
        raise ValueError(f"{folder} is a file, not a run folder")
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a run folder: no such folder")
    runs = find_run_folders(folder)
    if not runs and not (folder / MANIFEST).is_file():  # a report names its runs
        raise ValueError(f"{folder} is not a run folder: no {MANIFEST} in it or below")
    try:
        from pu_sim.report.reporting import write_report  # type: ignore[import-not-found,unused-ignore]
    except ImportError as exc:
        raise ValueError(
            f"reports are not available in this installation: {exc} "
            "(pu_sim.report.reporting could not be imported)"
        ) from None
    try:
        written = write_report(
            folder, out_dir=args.out, allow_incomplete=args.allow_incomplete
        )
    except IncompleteRunError as exc:
        raise IncompleteRunError(
            exc.check, exc.check.problem() + " (or report on what is there with "
            "--allow-incomplete; the report says so in its first lines)",
        ) from None  # fmt: skip
    except pl.exceptions.ComputeError:
        raise ValueError(_damage(folder)) from None
    folder = written if written is not None else args.out
    print(f"wrote the report to {folder}")
    if folder is None:
        return 0
    page = Path(folder) / "index.html"
    print(f"page: {page}")
    if getattr(args, "open", False):
        import webbrowser

        if not webbrowser.open(page.resolve().as_uri()):
            print(f"pu-sim: warning: no web browser to open {page}", file=sys.stderr)
    return 0


def _damage(folder: Path) -> str:
    """Which parts of a run (or of the runs below a folder) do not read back."""
    from pu_sim.simulation.runfolder import damaged_parts, find_run_folders

    runs = find_run_folders(folder)
    found = [(f, why) for run in runs for f, why in damaged_parts(run)]
    if not found:
        return f"{folder}: a part file does not read back (damaged?)"
    file, why = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return (
        f"{file} is damaged: {why}{more}; run the run's command again (pu-sim "
        "simulate with the same flags and --out, or pu_sim.run) to replay it"
    )


def play(args: argparse.Namespace) -> int:
    """One game, move by move, then the planets; or a run's game replayed."""
    from pu_sim.game import Game
    from pu_sim.studies.flags import given

    if (args.run is None) != (args.game is None):
        raise ValueError("--run RUN_FOLDER and --game N go together")
    if args.run is not None:
        ignored = [flag for dest, flags in given(args).items()
                   if dest not in ("run", "game") for flag in flags]  # fmt: skip
        if ignored:
            raise Contradiction(
                f"--run {args.run}", ignored[0],
                "a replay plays the run's own table, seed and rules; drop "
                + ", ".join(dict.fromkeys(ignored)),
            )  # fmt: skip
        from pu_sim.simulation.replay import replay

        game = replay(args.run, args.game)
    else:
        game = Game(table_from(args), seed=args.seed, game_index=args.game_index)
    for line in game.trace():
        print(line)
    for p in range(game.table.players):
        print(f"\nplanet of player {p} ({game.board_names(p)}):")
        print(game.render(p))
    return 0


def compare(args: argparse.Namespace) -> int:
    """The baseline and every variant on common setups (:mod:`pu_sim.variants`)."""
    from pu_sim.cli.table_flags import option_variant
    from pu_sim.rules import Variant
    from pu_sim.variants.compare import compare as run_compare
    from pu_sim.variants.compare_report import one_look

    arms = [Variant.read(path) for path in args.variant]
    arms += [option_variant(name, value) for name, value in args.option_variant]
    if not arms:
        raise ValueError(
            "compare needs at least one --variant FILE or --option-variant"
        )
    args.variant = list(args.baseline)  # the table's own variant: the baseline
    table = table_from(args)
    for name, value in args.option_variant:
        if getattr(table.rule_options, name) == value:
            raise Contradiction(
                f"--option-variant {name}={value}", "the baseline",
                f"the baseline already plays {name}={value}, so the arm would "
                "compare the game with itself",
            )  # fmt: skip
    command = " ".join(["pu-sim", *sys.argv[1:]])
    result = run_compare(
        arms, args.games, table, seed=args.seed, out=args.out, runs_dir=args.runs,
        n_jobs=args.jobs,
        batch_size=args.batch_size, backend=args.backend, scheduler=args.scheduler,
        progress=False if args.no_progress else None,
        confidence=args.confidence, correction=args.correction, command=command,
    )  # fmt: skip
    for arm in result.arms:
        if arm == result.baseline:
            continue
        for n_players in sorted(set(result.effects.filter(arm=arm)["n_players"])):
            print(f"{arm} against {result.baseline}, {n_players} player(s):")
            print("\n".join(one_look(result.effects, arm, n_players)))
            print()
    if args.out is not None:
        print(f"report: {args.out / 'README.md'}")
        print(f"page: {args.out / 'index.html'}")
    return 0


def balance(args: argparse.Namespace) -> int:
    """A balance search (:mod:`pu_sim.variants.balance`)."""
    from pu_sim.variants.balance import balance as run_balance

    result = run_balance(
        args.space, out=args.out, runs_dir=args.runs, n_jobs=args.jobs,
        backend=args.backend,
        scheduler=args.scheduler, confirm=not args.no_confirm,
        command=" ".join(["pu-sim", *sys.argv[1:]]),
    )  # fmt: skip
    for rank, candidate in enumerate(result.best, 1):
        patch = result.patches.get(candidate.key)
        where = f" -> {patch}" if patch is not None else " (the published game)"
        print(f"{rank}. {candidate.describe()} (size {candidate.size:g}){where}")
    for warning in result.warnings:
        print(f"pu-sim: warning: {warning}", file=sys.stderr)
    print(f"report: {args.out / 'README.md'}")
    print(f"page: {args.out / 'index.html'}")
    return 0


def listing(args: argparse.Namespace) -> int:
    """What the flags accept (:mod:`pu_sim.cli.listing`)."""
    from pu_sim.cli.listing import lines

    for line in lines(args.what):
        print(line)
    return 0


def version() -> int:
    """The package, rules and engine versions."""
    import pu_sim
    from pu_sim.engine.core import engine_version
    from pu_sim.rules import RULES_VERSION

    print(
        f"pu-sim {pu_sim.__version__} (rules {RULES_VERSION}, "
        f"engine {engine_version()})"
    )
    return 0
