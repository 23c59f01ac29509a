"""Where the search bot's extra medals come from, and how far apart greedy's
two best placements truly are: paired games of the preset and the search bot
by scoring category and private card, then rollouts of the preset's two best
placements (``pu_sim.lab.search_gap``).

Usage: ``python experiments/bots/search_gap.py [--preset NAME] [--games N]
[--budget B] [--placement-games N] [--rollouts R] [--seed S] [--jobs J]
[--out reports] [--smoke]``
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pu_sim import bots
from pu_sim.lab import search_gap as sg
from pu_sim.lab.common import guarded, start
from pu_sim.report import plots

STUDY = "search_gap"


@dataclass(frozen=True, kw_only=True)
class Config:
    preset: str = field(
        default="greedy_tuned", metadata={"choices": ("greedy", *bots.PRESETS)}
    )
    n_games: int = 500
    budget: int = 16
    placement_games: int = 300
    rollouts: int = 16
    seed: int = 11

    def run_name(self) -> str:
        return f"{self.preset}-{self.n_games}-games-seed-{self.seed}"


# default greedy (fast rollouts), a few games
SMOKE = {
    "preset": "greedy", "n_games": 4, "placement_games": 2, "rollouts": 2, "budget": 2
}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, run_name=Config.run_name
    )
    c = run.config
    results = sg.study(c, run.jobs)
    results["seconds"] = round(time.perf_counter() - run.started, 1)
    plots.save(sg.figure(results["categories"], results["placements"], c.budget),
               run.folder / "figures" / f"{STUDY}.png")  # fmt: skip
    run.finish(
        title="Where search's extra medals come from", games=2 * c.n_games,
        results=results, readme=sg.report_text(results, run.command),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
