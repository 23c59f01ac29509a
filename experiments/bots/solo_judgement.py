"""What the learned bot's solo target asks: greedy_tuned's best two solo placements
judged by rollouts, by short play-outs and by afterstate readings
(``pu_sim.lab.solo_judgement``).

Usage: ``python experiments/bots/solo_judgement.py [--games N] [--rollouts R]
[--redeals D] [--seed S] [--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim.lab import solo_judgement as sj
from pu_sim.lab.common import guarded, in_chunks, start
from pu_sim.report import plots

STUDY = "solo_judgement"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 1000
    rollouts: int = 16
    redeals: int = 4
    seed: int = 4041


SMOKE = {"n_games": 2, "rollouts": 4, "redeals": 1}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE)
    c = run.config
    started = time.perf_counter()
    parts = in_chunks(sj.collect, c.n_games, run.jobs, c.rollouts, c.redeals, c.seed,
                      progress="placements judged (chunks of games)")  # fmt: skip
    summary = sj.summarise([r for part in parts for r in part])
    seconds = time.perf_counter() - started
    plots.save(sj.figure(summary), run.folder / "figures" / f"{STUDY}.png")
    run.finish(
        title="Judging greedy_tuned's best two solo placements", games=c.n_games,
        results=summary, readme=sj.report_text(summary, c, run.command, seconds),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
