"""The ``pu-sim`` command: run studies, report on them, or play one game.

``pu-sim simulate`` plays games through :func:`pu_sim.simulation.runner.run`: with
``--out`` into a run folder that streams, resumes and can be reported on;
without it into a temporary folder, printing only the summary table.
Bad input exits with status 2 and one clear line (never a traceback); a run
that fails part-way exits 1 and Ctrl-C exits 130, both saying how to resume.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import polars as pl

CORPORATIONS_HELP = (
    "corporation key per seat (comma-separated), 'random', or one for all "
    "(default universal_coalition)"
)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (the usage is one --help away)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _split(value: str) -> list[str] | str:
    parts = [v.strip() for v in value.split(",") if v.strip()]
    return parts[0] if len(parts) == 1 else parts


def _deck(value: str) -> tuple[int, int, int] | str:
    """``--deck``: G,O,R counts, random or bga_random."""
    if value in ("random", "bga_random"):
        return value
    try:
        counts = tuple(int(v) for v in value.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 3:
        raise argparse.ArgumentTypeError(
            f"--deck takes G,O,R (three counts), random or bga_random, not {value!r}"
        )
    return counts[0], counts[1], counts[2]


def _add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """Players, boards, bots and rule options (shared by simulate and play)."""
    from pu_sim.bots import PRESETS

    parser.add_argument(
        "--players", type=int, default=1, help="players per game, 1-6 (1)"
    )
    parser.add_argument(
        "--corporations", default="universal_coalition", help=CORPORATIONS_HELP
    )
    parser.add_argument(
        "--planets",
        default="ksb_4156",
        help="planet key per seat (comma-separated), 'random', or one for all "
        "(default ksb_4156)",
    )
    parser.add_argument(
        "--bots",
        default="greedy",
        help="bot per seat (comma-separated) or one for all: random, greedy, a "
        f"tuned preset ({', '.join(PRESETS)}) or search (budget 16, width 2; slow) "
        "(default greedy)",
    )
    rules = parser.add_argument_group("rules")
    rules.add_argument(
        "--rules",
        choices=("default", "bga"),
        default="default",
        help="rule profile: the reference's recommendations (default) or Board "
        "Game Arena's choices (RuleOptions.bga()); the options below override it",
    )
    rules.add_argument(
        "--events",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="use the event deck (default: the rulebook's, on in solo only)",
    )
    rules.add_argument(
        "--deck",
        type=_deck,
        default=None,
        metavar="G,O,R|random|bga_random",
        help="event deck colours: green,orange,red counts summing to 20, "
        "'random' or 'bga_random' (implies --events; default 7,7,6)",
    )
    rules.add_argument(
        "--private-objectives",
        action="store_true",
        help="multiplayer private-objective module (deal 2, keep 1)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pu-sim",
        description="Monte Carlo simulation of the board game Planet Unknown.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = sub.add_parser(
        "simulate",
        help="play many games: summary table, or a resumable run folder",
        description="Play games with core bots and print a summary.  With --out "
        "the games go to a run folder (manifest.json + data/*.parquet) batch by "
        "batch; the same command resumes an interrupted run.",
    )
    sim.add_argument(
        "--games", type=int, default=20_000, help="number of games (20000)"
    )
    _add_table_arguments(sim)
    sim.add_argument("--seed", type=int, default=20240611, help="root seed (20240611)")
    sim.add_argument(
        "--paired",
        action="store_true",
        help="paired design: groups of PLAYERS games share one setup, the boards "
        "rotated one seat per game (--games must be a multiple of --players)",
    )
    run = sim.add_argument_group("running")
    run.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="RUN_FOLDER",
        help="run folder to write (and to resume if it holds this run); "
        "default: a temporary folder, summary only",
    )
    run.add_argument(
        "--jobs", type=int, default=-1, help="parallel workers (-1 = all cores)"
    )
    run.add_argument(
        "--batch-size",
        type=int,
        default=None,
        help="games per core call and per Parquet file (5000)",
    )
    run.add_argument(
        "--backend",
        choices=("threads", "processes", "dask"),
        default=None,
        help="threads (default; the core releases the GIL), processes, or dask",
    )
    run.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="dask scheduler to send the batches to, e.g. tcp://host:8786 "
        "(implies --backend dask; needs pip install 'pu_sim[dask]')",
    )
    run.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it shows only when stderr is a terminal anyway)",
    )

    study = sub.add_parser(
        "study",
        help="the main job: a balance and solo study with its report",
        description="Play the main study (solo games for the target-score "
        "calibration, seats, corporation and planet balance, bot duels) into "
        "resumable run folders and write its report to OUT/main/<run>/.  The "
        "same command resumes an interrupted study.",
    )
    study.add_argument(
        "--games",
        type=int,
        default=None,
        help="size: games per seat run (10000); the other runs are multiples of it",
    )
    study.add_argument("--seed", type=int, default=None, help="root seed (20240611)")
    study.add_argument("--jobs", type=int, default=2, help="parallel workers (2)")
    study.add_argument(
        "--out", type=Path, default=Path("reports"), help="reports root (reports/)"
    )
    study.add_argument("--smoke", action="store_true", help="a run of seconds")

    report = sub.add_parser(
        "report",
        help="write the report of a run folder",
        description="Write figures, tables and a README summarising a run "
        "folder made by `pu-sim simulate --out`.",
    )
    report.add_argument("run_folder", type=Path, metavar="RUN_FOLDER")
    report.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="where to write the report (default: chosen by pu_sim.report.reporting)",
    )

    play = sub.add_parser(
        "play",
        help="play one seeded game and print it move by move",
        description="Play one game with the core bots, printing every decision and "
        "the final planets: the way to check a rule by eye.",
    )
    _add_table_arguments(play)
    play.add_argument("--seed", type=int, default=1, help="root seed (1)")
    play.add_argument(
        "--game-index", type=int, default=0, help="game index under the seed (0)"
    )
    return parser


def _options(args: argparse.Namespace) -> Any:
    """Rule options from --rules, --events, --deck and --private-objectives."""
    from dataclasses import replace

    from pu_sim.rules import RuleOptions

    options = RuleOptions.bga() if args.rules == "bga" else RuleOptions()
    changes: dict[str, Any] = {}
    if args.events is not None:
        changes["event_deck"] = args.events
    if args.deck is not None:
        if args.events is False:
            raise ValueError("--deck needs the event deck: drop --no-events")
        changes["event_deck"] = True
        changes["event_deck_mix"] = args.deck
    if args.private_objectives:
        changes["private_objectives"] = True
    return replace(options, **changes)


def _summary(games: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    return (
        games.lazy()
        .group_by("n_players", "bot")
        .agg(
            pl.col("game_id").n_unique().alias("games"),
            pl.col("score").mean().round(2).alias("mean_score"),
            pl.col("score").std().round(2).alias("sd"),
            pl.col("score").quantile(0.5).alias("median"),
            pl.col("won").mean().round(3).alias("win_rate"),
            pl.col("rounds").mean().round(1).alias("rounds"),
            (pl.col("status") != "ok").sum().alias("anomalies"),
        )
        .sort("n_players", "bot")
        .collect()
    )


def _simulate(args: argparse.Namespace) -> int:
    from pu_sim.simulation.runner import DEFAULT_BATCH_SIZE, run, scan_run

    kwargs: dict[str, Any] = dict(
        players=args.players, corporations=_split(args.corporations),
        planets=_split(args.planets), bots=_split(args.bots), seed=args.seed,
        n_jobs=args.jobs,
        batch_size=DEFAULT_BATCH_SIZE if args.batch_size is None else args.batch_size,
        options=_options(args), paired=args.paired, backend=args.backend,
        scheduler=args.scheduler, progress=False if args.no_progress else None,
    )  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="pu-sim-") as tmp:
        out = args.out if args.out is not None else Path(tmp) / "run"
        try:
            result = run(args.games, out=out, **kwargs)
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
            print(_summary(scan_run(out)))
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


def _report(args: argparse.Namespace) -> int:
    folder: Path = args.run_folder
    manifest = _run_facts(folder)
    try:
        from pu_sim.report.reporting import write_report  # type: ignore[import-not-found,unused-ignore]
    except ImportError as exc:
        raise ValueError(
            f"reports are not available in this installation: {exc} "
            "(pu_sim.report.reporting could not be imported)"
        ) from None
    if manifest.get("status", "complete") != "complete":
        print(
            f"pu-sim: note: the run is {manifest['status']} "
            f"({manifest.get('completed_games', 0):,} of {manifest.get('n_games', 0):,}"
            " games); reporting on the finished games",
            file=sys.stderr,
        )
    written = write_report(folder, out_dir=args.out)
    print(f"wrote the report to {written if written is not None else args.out}")
    return 0


def _run_facts(folder: Path) -> dict[str, Any]:
    """A run folder's manifest, or {} for a study folder holding runs below it."""
    import json

    from pu_sim.simulation.runfolder import MANIFEST

    if not folder.is_dir():
        raise ValueError(f"{folder} is not a run folder: no such folder")
    file = folder / MANIFEST
    if not file.is_file():
        if not any(folder.rglob(MANIFEST)):
            raise ValueError(
                f"{folder} is not a run folder: no {MANIFEST} in it or below"
            )
        return {}
    try:
        manifest = json.loads(file.read_text())
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read {file}: {exc}") from None
    return manifest if isinstance(manifest, dict) else {}


def _play(args: argparse.Namespace) -> int:
    from pu_sim.game import Game

    game = Game(
        players=args.players, corporations=_split(args.corporations),
        planets=_split(args.planets), bots=_split(args.bots), seed=args.seed,
        game_index=args.game_index, options=_options(args),
    )  # fmt: skip
    for line in game.trace():
        print(line)
    for p in range(args.players):
        print(f"\nplanet of player {p}:")
        print(game.render(p))
    return 0


def _study(args: argparse.Namespace) -> int:
    from pu_sim.studies import main as study

    argv = ["--jobs", str(args.jobs), "--out", str(args.out)]
    if args.games is not None:
        argv += ["--games", str(args.games)]
    if args.seed is not None:
        argv += ["--seed", str(args.seed)]
    if args.smoke:
        argv.append("--smoke")
    return study.main(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pu-sim`` command."""
    from pu_sim.simulation.runner import RunError

    args = _parser().parse_args(argv)
    commands = {
        "simulate": _simulate, "study": _study, "report": _report, "play": _play,
    }  # fmt: skip
    try:
        return commands[args.command](args)
    except (ValueError, ImportError) as exc:
        print(f"pu-sim: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `pu-sim play | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return 0
    except (RunError, OSError) as exc:  # stopped part-way: resumable
        print(f"pu-sim: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("pu-sim: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


if __name__ == "__main__":
    raise SystemExit(main())
