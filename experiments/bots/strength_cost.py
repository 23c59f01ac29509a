"""What each part of the learned bot costs and buys: greedy_learned beside
variants that each drop or narrow one costly part, by speed on one core and by
strength on paired seeds (solo) and setups (4 players), on random boards
(``pu_sim.lab.strength_cost``).

Usage: ``python experiments/bots/strength_cost.py [--solo-games N] [--setups N]
[--speed-games N] [--repeats R] [--seed S] [--jobs J] [--out reports]
[--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pu_sim.lab import strength_cost as sc
from pu_sim.lab.common import guarded, start
from pu_sim.report import plots

STUDY = "strength_cost"


@dataclass(frozen=True, kw_only=True)
class Config:
    solo_games: int = 8000
    setups: int = field(default=2000, metadata={"help": "4-player setups"})
    speed_games: int = field(default=240, metadata={"help": "solo; a quarter at 4p"})
    repeats: int = 2
    seed: int = 6303

    def run_name(self) -> str:
        return f"{self.solo_games}-games-seed-{self.seed}"


SMOKE = {"solo_games": 4, "setups": 2, "speed_games": 4, "repeats": 1}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, run_name=Config.run_name
    )
    c = run.config
    results = sc.study(c, run.jobs)
    plots.save(sc.figure(results), run.folder / "figures" / f"{STUDY}.png")
    run.finish(
        title="What the learned bot's parts cost and buy", games=c.solo_games,
        results=results, readme=sc.report_text(results, run.command),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
