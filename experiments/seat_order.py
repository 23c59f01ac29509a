"""Seat order: does the first commander (seat 0) or any seat have an edge?

Plays games at each player count in which every seat uses the same bot, under
two bot policies (the default greedy bot and a variant that ignores objective
cards), so the seat effect is measured twice and the report checks that the
conclusions agree.  Boards rotate one seat per game inside groups of n games
(the paired design), so the corporations and planets each seat draws from all
nine and all thirteen spread evenly over the seats.

Usage: ``python experiments/seat_order.py [--games N] [--seed S] [--jobs J]
[--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "seat_order"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 30_000  # per (player count, bot policy)
    seed: int = 20240611
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    policies: tuple[BotSpec, ...] = (
        bots.greedy(),
        bots.greedy("greedy_no_objectives", objective=0.0),
    )


SMOKE = {"n_games": 40, "players": (2, 4)}


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke, args.variant)
    runs = []
    for bot in config.policies:
        for n in config.players:
            run = out / "runs" / f"{bot.label}-{n}p"
            print(f"{STUDY}: {run.name} ({config.n_games:,} games)", flush=True)
            runs.append(
                simulate_run(
                    run,
                    study=STUDY,
                    n_games=config.n_games,
                    seed=config.seed + n,
                    n_jobs=args.jobs,
                    variant=args.variant,
                    players=n,
                    bots=bot,
                    group_size=n,
                )
            )
    report = write_study_report(
        runs, out, title="Seat order and first-commander advantage"
    )
    print(report / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
