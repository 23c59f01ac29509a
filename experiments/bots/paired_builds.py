"""The paired effect of a bot change: the same games under two builds.

Run ``play`` once in each checkout with the same arguments (``PYTHONPATH``
picks the build), then ``compare`` the two files (pu_sim.lab.
paired_builds)::

    PYTHONPATH=../before python experiments/bots/paired_builds.py play \\
        --corporation cosmos_inc --players 4 --games 4000 --out before.parquet
    python experiments/bots/paired_builds.py play ... --out after.parquet
    python experiments/bots/paired_builds.py compare before.parquet after.parquet
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from pu_sim.lab import paired_builds
from pu_sim.studies.harness import guarded


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="play the games with the build imported")
    p.add_argument("--corporation", required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--bot", default="greedy_tuned")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare", help="paired differences of two played files")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "play":
        frame = paired_builds.play_seat(
            args.corporation, players=args.players, games=args.games, bot=args.bot,
            seed=args.seed, n_jobs=args.jobs,
        )  # fmt: skip
        frame.write_parquet(args.out)
        mean = float(frame["score"].cast(pl.Float64).to_numpy().mean())
        print(f"{args.out}: {frame.height:,} games, mean score {mean:.3f}")
        return 0
    with pl.Config(tbl_rows=-1, float_precision=3):
        print(paired_builds.compare(args.before, args.after))
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
