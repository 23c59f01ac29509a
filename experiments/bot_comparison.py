"""Bot comparison: random vs greedy, and two greedy variants, head to head.

Solo: every bot plays the same seeded setups (paired by game).  Multiplayer:
each pairing of bots plays twice with the seats swapped and the same seed, so
every setup is played from both sides and the seat order cancels; the report
pairs the runs game by game, fits Plackett-Luce strengths and shows how much
variance the pairing removed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "bot_comparison"

GREEDY = bots.greedy()
NO_OBJECTIVES = bots.greedy("greedy_no_objectives", objective=0.0)
RANDOM = bots.random()


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 20_000  # per run
    seed: int = 99
    solo_bots: tuple[BotSpec, ...] = (GREEDY, NO_OBJECTIVES, RANDOM)
    # (players, seat pattern of two bots); each is also played seat-swapped.
    duels: tuple[tuple[int, BotSpec, BotSpec], ...] = (
        (2, GREEDY, RANDOM),
        (2, GREEDY, NO_OBJECTIVES),
        (4, GREEDY, NO_OBJECTIVES),
    )


SMOKE = {"n_games": 30}


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke)
    runs: list[Path] = []

    def play(name: str, **kwargs: object) -> None:
        run = out / "runs" / name
        print(f"{STUDY}: {name} ({config.n_games:,} games)", flush=True)
        runs.append(
            simulate_run(
                run,
                study=STUDY,
                n_games=config.n_games,
                n_jobs=args.jobs,
                **kwargs,  # type: ignore[arg-type]
            )
        )

    for bot in config.solo_bots:
        play(f"solo-{bot.label}", seed=config.seed, players=1, bots=bot, pairing="solo")
    for n, a, b in config.duels:
        seats_ab = [a if i % 2 == 0 else b for i in range(n)]
        seats_ba = [b if i % 2 == 0 else a for i in range(n)]
        pairing = f"{n}p-{a.label}-{b.label}"
        for tag, seats in (("ab", seats_ab), ("ba", seats_ba)):
            play(
                f"{pairing}-{tag}",
                seed=config.seed + n,
                players=n,
                bots=seats,
                pairing=pairing,
            )
    report = write_study_report(runs, out, title="Bot comparison")
    print(report / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
