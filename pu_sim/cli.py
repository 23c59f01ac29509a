"""The ``pu-sim`` command: simulate games, or play one move by move.

Bad input exits with status 2 and one clear line (never a traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import polars as pl

CORPORATIONS_HELP = (
    "corporation key per seat (comma-separated), 'random', or one for all"
)


def _split(value: str) -> list[str] | str:
    parts = [v.strip() for v in value.split(",") if v.strip()]
    return parts[0] if len(parts) == 1 else parts


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pu-sim",
        description="Monte Carlo simulation of the board game Planet Unknown.",
    )
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser(
        "simulate",
        help="play many games and summarise them",
        description="Play games with core bots; print a summary, optionally save "
        "one row per (game, seat) as Parquet.",
    )
    sim.add_argument(
        "--games", type=int, default=20_000, help="number of games (20000)"
    )
    sim.add_argument("--players", type=int, default=1, help="players per game, 1-6 (1)")
    sim.add_argument(
        "--corporations", default="universal_coalition", help=CORPORATIONS_HELP
    )
    sim.add_argument(
        "--planets", default="ksb_4156", help="planet key per seat, or one"
    )
    sim.add_argument("--bots", default="greedy", help="bot per seat: random or greedy")
    sim.add_argument("--seed", type=int, default=20240611, help="root seed (20240611)")
    sim.add_argument(
        "--jobs", type=int, default=1, help="parallel workers (1; -1 = all)"
    )
    sim.add_argument("--batch-size", type=int, default=2000, help="games per core call")
    sim.add_argument(
        "--out", type=Path, default=None, help="write the frame as Parquet"
    )

    play = sub.add_parser(
        "play",
        help="play one seeded game and print it move by move",
        description="Play one game with the core bots, printing every decision and "
        "the final planets: the way to check a rule by eye.",
    )
    play.add_argument("--players", type=int, default=1)
    play.add_argument("--bots", default="greedy")
    play.add_argument("--seed", type=int, default=1)
    play.add_argument("--game-index", type=int, default=0)
    return parser


def _summary(frame: pl.DataFrame) -> pl.DataFrame:
    return (
        frame.group_by("n_players", "bot")
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
    )


def _simulate(args: argparse.Namespace) -> int:
    from pu_sim.simulation import simulate

    if args.out is not None:
        parent = args.out.resolve().parent
        if not parent.is_dir():
            raise ValueError(f"output folder {parent} does not exist")
    start = time.perf_counter()
    frame = simulate(
        args.games, players=args.players, corporations=_split(args.corporations),
        planets=_split(args.planets), bots=_split(args.bots), seed=args.seed,
        n_jobs=args.jobs, batch_size=args.batch_size,
    )  # fmt: skip
    elapsed = time.perf_counter() - start
    with pl.Config(
        tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True, tbl_cols=-1,
        tbl_width_chars=120,
    ):  # fmt: skip
        print(_summary(frame))
    print(
        f"{args.games} games in {elapsed:.1f} s "
        f"({args.games / max(elapsed, 1e-9):,.0f} games/s)"
    )
    if args.out is not None:
        try:
            frame.write_parquet(args.out)
        except OSError as exc:
            raise ValueError(f"cannot write {args.out}: {exc.strerror or exc}") from exc
        print(f"wrote {frame.height} rows to {args.out}")
    return 0


def _play(args: argparse.Namespace) -> int:
    from pu_sim.engine import Game

    game = Game(
        players=args.players, bots=_split(args.bots), seed=args.seed,
        game_index=args.game_index,
    )  # fmt: skip
    for line in game.trace():
        print(line)
    for p in range(args.players):
        print(f"\nplanet of player {p}:")
        print(game.render(p))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``pu-sim`` command."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "simulate":
            return _simulate(args)
        return _play(args)
    except (ValueError, ImportError) as exc:
        print(f"pu-sim: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `pu-sim play | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
