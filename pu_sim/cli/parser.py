"""The ``pu-sim`` command line: every subcommand, flag and default, in one place.

Flag values are checked as they are parsed, so a bad value gets argparse's one
line naming the flag (``argument --seed: must be a non-negative integer``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from pu_sim.cli.table_flags import add_table_arguments
from pu_sim.studies.flags import BATCH, GAMES, INDEX, Parser, add_jobs, add_seed


def probability(text: str) -> float:
    """``--confidence``: a number strictly between 0 and 1."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 < value < 1.0:  # nan fails too
        raise argparse.ArgumentTypeError(f"must be a number in (0, 1), got {text!r}")
    return value


MAX_GAMES_IN_MEMORY = 10_000_000
"""Without --out a run's summary is all that is kept: more games need a folder."""


if TYPE_CHECKING:
    Subcommands = argparse._SubParsersAction[Parser]


def build() -> argparse.ArgumentParser:
    """The whole ``pu-sim`` parser."""
    parser = Parser(
        prog="pu-sim",
        description="Monte Carlo simulation of the board game Planet Unknown.",
    )
    parser.add_argument(
        "--version", action="store_true", help="print the version and exit"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    _simulate(sub)
    _study(sub)
    _report(sub)
    _play(sub)
    _compare(sub)
    _balance(sub)
    _list(sub)
    return parser


def _running(parser: argparse.ArgumentParser) -> None:
    """--jobs and the run folder flags (simulate)."""
    run = parser.add_argument_group("running")
    run.add_argument(
        "--out", type=Path, default=None, metavar="RUN_FOLDER",
        help="run folder to write (and to resume if it holds this run); "
        f"default: a temporary folder, summary only (at most "
        f"{MAX_GAMES_IN_MEMORY:,} games)",
    )  # fmt: skip
    add_jobs(run)
    run.add_argument(
        "--batch-size", type=BATCH, default=None,
        help="games per core call and per Parquet file (2000)",
    )  # fmt: skip
    run.add_argument(
        "--backend", choices=("threads", "processes", "dask"), default=None,
        help="threads (default; the core releases the GIL), processes, or dask",
    )  # fmt: skip
    run.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="dask scheduler to send the batches to, e.g. tcp://host:8786 "
        "(implies --backend dask; needs pip install 'pu_sim[dask]')",
    )  # fmt: skip
    run.add_argument(
        "--no-progress", action="store_true",
        help="no progress bar (it shows only when stderr is a terminal anyway)",
    )  # fmt: skip


def _simulate(sub: Subcommands) -> None:
    sim = sub.add_parser(
        "simulate",
        help="play many games: summary table, or a resumable run folder",
        description="Play games with core bots and print a summary.  With --out "
        "the games go to a run folder (manifest.json + data/*.parquet) batch by "
        "batch; the same command resumes an interrupted run.",
    )
    sim.add_argument(
        "--games", type=GAMES, default=20_000, help="number of games (20000)"
    )
    add_table_arguments(sim, play=False)
    add_seed(sim)
    _running(sim)


def _study(sub: Subcommands) -> None:
    sub.add_parser(
        "study",
        help="the main job: a balance and solo study with its report "
        "(`pu-sim study --help`: its flags)",
        add_help=False,
    )  # parsed by the study's own parser: see main()


def _report(sub: Subcommands) -> None:
    report = sub.add_parser(
        "report",
        help="write the report of a run folder",
        description="Write figures, tables, a README and a web page (index.html) "
        "summarising a run folder made by `pu-sim simulate --out` (or a study "
        "folder of runs).",
    )
    report.add_argument("run_folder", type=Path, metavar="RUN_FOLDER")
    report.add_argument(
        "--out", type=Path, default=None, metavar="DIR",
        help="where to write the report (default: RUN_FOLDER/report)",
    )  # fmt: skip
    report.add_argument(
        "--allow-incomplete", action="store_true",
        help="report on a run with games missing or damaged (refused otherwise); "
        "the report's first lines say what is left out",
    )  # fmt: skip
    report.add_argument(
        "--open", action="store_true",
        help="open the report's page (index.html) in the web browser",
    )  # fmt: skip


def _play(sub: Subcommands) -> None:
    play = sub.add_parser(
        "play",
        help="play one seeded game and print it move by move",
        description="Play one game with the core bots, printing every decision and "
        "the final planets: the way to check a rule by eye.  --run FOLDER --game N "
        "replays game N of a run folder exactly.",
    )
    add_table_arguments(play, play=True)
    add_seed(play)
    play.add_argument(
        "--game-index", type=INDEX, default=0, help="game index under the seed (0)"
    )
    replay = play.add_argument_group("replay")
    replay.add_argument(
        "--run", type=Path, default=None, metavar="RUN_FOLDER",
        help="replay a game of this run folder (its table, seed and rules)",
    )  # fmt: skip
    replay.add_argument(
        "--game", type=INDEX, default=None, metavar="N",
        help="the run's game to replay (its game_id)",
    )  # fmt: skip


def _compare(sub: Subcommands) -> None:
    from pu_sim.cli.table_flags import option_setting

    cmp = sub.add_parser(
        "compare",
        help="a variant against the published game, on the same setups",
        description="Play the published game (or --baseline) and every --variant "
        "on the same setups (one root seed: common random numbers) and report, per "
        "corporation, planet and player count, the change in win rate and score "
        "with cluster-robust intervals corrected for multiple comparisons.  Each "
        "--variant FILE and each --option-variant NAME=VALUE is one arm.",
    )
    cmp.add_argument("--games", type=GAMES, default=2000, help="games per arm (2000)")
    add_table_arguments(cmp, play=False)
    add_seed(cmp)
    arms = cmp.add_argument_group("arms")
    arms.add_argument(
        "--baseline", type=Path, action="append", default=[], metavar="FILE",
        help="compare against this variant instead of the published game "
        "(repeatable: files applied in order)",
    )  # fmt: skip
    arms.add_argument(
        "--option-variant", type=option_setting, action="append", default=[],
        metavar="NAME=VALUE",
        help="one arm: the baseline with this rule option set (repeatable: one arm "
        "each)",
    )  # fmt: skip
    stats = cmp.add_argument_group("statistics")
    stats.add_argument(
        "--confidence", type=probability, default=0.95,
        help="interval level, a number in (0, 1) (0.95)",
    )  # fmt: skip
    stats.add_argument(
        "--correction", choices=("holm", "bh", "bonferroni", "none"), default="holm",
        help="multiple-comparison correction over every row (holm)",
    )  # fmt: skip
    _running(cmp)
    cmp.add_argument(
        "--runs", type=Path, default=None, metavar="DIR",
        help="where the arms' run folders go (default OUT/runs), e.g. under runs/ "
        "while the report goes to reports/",
    )  # fmt: skip


def _balance(sub: Subcommands) -> None:
    bal = sub.add_parser(
        "balance",
        help="search declared changes for the patch that best meets an objective",
        description="Read a search file (which numbers may move and by how much, "
        "the table, the objective and the budget; docs/variants.md), race its "
        "candidates by successive halving on common setups, write the best patches "
        "as variant files and confirm each on held-out setups with `compare`.  The "
        "same command resumes an interrupted search.",
    )
    bal.add_argument("space", type=Path, metavar="SEARCH_FILE")
    bal.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="the search folder"
    )
    bal.add_argument(
        "--runs", type=Path, default=None, metavar="DIR",
        help="where the run folders go (default OUT/runs), e.g. under runs/ "
        "while the report goes to reports/",
    )  # fmt: skip
    add_jobs(bal)
    bal.add_argument(
        "--backend", choices=("threads", "processes", "dask"), default=None,
        help="threads (default), processes, or dask",
    )  # fmt: skip
    bal.add_argument(
        "--scheduler", default=None, metavar="ADDRESS",
        help="dask scheduler address (implies --backend dask)",
    )  # fmt: skip
    bal.add_argument(
        "--no-confirm", action="store_true",
        help="skip the held-out confirmation of the best patches",
    )  # fmt: skip


def _list(sub: Subcommands) -> None:
    what = ("corporations", "planets", "bots", "presets", "options", "all")
    listing = sub.add_parser(
        "list",
        help="corporations, planets, bots, presets and rule options, with their keys",
        description="List what a flag accepts: corporation and planet keys with "
        "their display names (either works), bots and presets, and every rule "
        "option with its values and default.",
    )
    listing.add_argument(
        "what", nargs="?", choices=what, default="all",
        help="what to list (all)",
    )  # fmt: skip
