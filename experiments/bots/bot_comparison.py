"""Bot comparison: random vs greedy, and two greedy variants, head to head.

Solo: every bot plays the same seeded setups (paired by game).  Multiplayer:
each pairing of bots plays twice with the seats swapped and the same seed, so
every setup is played from both sides and the seat order cancels; the report
pairs the runs game by game, fits Plackett-Luce strengths and shows how much
variance the pairing removed (``pu_sim.report.reporting.write_study_report``).

Usage: ``python experiments/bots/bot_comparison.py [--games N] [--seed S]
[--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.lab.common import guarded, start
from pu_sim.report.reporting import write_study_report

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
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE)
    config, runs = run.config, []

    def play(name: str, players: int, seats: object, pairing: str) -> Path:
        print(f"{STUDY}: {name} ({config.n_games:,} games)", flush=True)
        plan = run.plan(pairing, players=players, bots=seats,
                        corporations="random", planets="random")  # fmt: skip
        return run.run(name, plan, config.n_games, pairing=pairing)

    for bot in config.solo_bots:
        runs.append(play(f"solo-{bot.label}", 1, bot, "solo"))
    for n, a, b in config.duels:
        pairing = f"{n}p-{a.label}-{b.label}"
        for tag, first, second in (("ab", a, b), ("ba", b, a)):
            seats = [first if i % 2 == 0 else second for i in range(n)]
            runs.append(play(f"{pairing}-{tag}", n, seats, pairing))
    report = write_study_report(runs, run.folder, title="Bot comparison")
    run.finish(
        title="Bot comparison", games=config.n_games * len(runs), runs=runs,
        results={"study": "study.json (the study report's own record)"},
        readme=(report / "README.md").read_text(),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
