"""How much greedy gains by valuing the next round's tiles on the planet each
placement leaves (the `next_fit` weight): offline rollouts of greedy's best
placements, then paired solo games at each weight
(``pu_sim.lab.next_fit``).

Usage: ``python experiments/bots/next_fit_values.py [--preset NAME] [--games N]
[--rollouts R] [--paired N] [--seed S] [--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from pu_sim import bots
from pu_sim.lab import next_fit as nf
from pu_sim.lab.common import guarded, in_chunks, start
from pu_sim.report import plots

STUDY = "next_fit_values"


@dataclass(frozen=True, kw_only=True)
class Config:
    preset: str = field(
        default="greedy_tuned", metadata={"choices": ("greedy", *bots.PRESETS)}
    )
    n_games: int = 400
    rollouts: int = 16
    paired: int = field(default=4000, metadata={"help": "paired solo games per weight"})
    seed: int = 11

    def run_name(self) -> str:
        return f"{self.preset}-{self.n_games}-games-seed-{self.seed}"


# default greedy (fast rollouts), tiny sizes
SMOKE = {"preset": "greedy", "n_games": 3, "rollouts": 2, "paired": 20}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, run_name=Config.run_name
    )
    c = run.config
    started = time.perf_counter()
    parts = in_chunks(nf.collect, c.n_games, run.jobs, c.preset, c.rollouts, c.seed)
    records = [r for part in parts for r in part]
    offline = nf.offline_rows(records)
    paired = nf.paired_rows(c.preset, c.paired, c.seed, run.jobs)
    results = {
        "preset": c.preset, "games": c.n_games, "rollouts": c.rollouts,
        "paired": c.paired, "seed": c.seed, "decisions": len(records),
        "seconds": round(time.perf_counter() - started, 1),
        "offline": offline, "paired_rows": paired,
    }  # fmt: skip
    plots.save(nf.figure(offline, paired), run.folder / "figures" / f"{STUDY}.png")
    run.finish(
        title="The next tiles: greedy's lookahead of one depot", games=c.n_games,
        results=results, readme=nf.report_text(results, run.command),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
