"""Where search beats greedy: a search restricted to one kind of decision.

The preset's solo base games, searching (the preset's best 2 moves, 4
rollouts each) only the decisions of one group at a time, paired with the
preset's own games (``pu_sim.lab.search_by_decision``).

With ``--players`` above 1 seat 0 alone searches, in base games of that many
players, valuing its moves by its margin over the best opponent.

Usage: ``python experiments/bots/search_by_decision.py [--preset NAME]
[--games N] [--seed S] [--players P] [--groups NAME ...] [--jobs J]
[--out reports] [--smoke]``
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed

from pu_sim import bots
from pu_sim.lab import search_by_decision as sbd
from pu_sim.lab.common import guarded, seat_outcomes, start

STUDY = "search_by_decision"
GROUPS = tuple(sbd.GROUPS)


@dataclass(frozen=True, kw_only=True)
class Config:
    preset: str = field(
        default="greedy_tuned", metadata={"choices": ("greedy", *bots.PRESETS)}
    )
    n_games: int = 400
    seed: int = 101
    players: int = field(default=1, metadata={"choices": (1, 2, 3, 4, 5, 6)})
    groups: tuple[str, ...] = field(default=GROUPS, metadata={"choices": GROUPS})

    def run_name(self) -> str:
        name = f"{self.preset}-{self.n_games}-games-seed-{self.seed}"
        return name if self.players == 1 else f"{self.players}p-{name}"


# default greedy (fast rollouts), two games, two groups
SMOKE = {"preset": "greedy", "n_games": 2, "groups": ("place", "civ")}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, run_name=Config.run_name
    )
    c = run.config
    seat_scores = {
        group: np.array(Parallel(n_jobs=run.jobs)(
            delayed(sbd.play_scores)(c.preset, group, i, c.seed, c.players)
            for i in range(c.n_games)
        ))
        for group in ("none", *c.groups)
    }  # fmt: skip
    if c.players == 1:
        scores = {group: s[:, 0] for group, s in seat_scores.items()}
        ahead = None
    else:
        outcomes = {group: seat_outcomes(s) for group, s in seat_scores.items()}
        scores = {group: margin for group, (margin, _) in outcomes.items()}
        ahead = {group: share for group, (_, share) in outcomes.items()}
    results = {
        "width": sbd.WIDTH, "rollouts": sbd.ROLLOUTS, "games": c.n_games,
        "players": c.players, "seconds": round(time.perf_counter() - run.started, 1),
        "preset_mean": float(scores["none"].mean()),
        "preset_median": float(np.median(scores["none"])),
        "groups": sbd.group_rows(scores, c.groups, ahead),
    }  # fmt: skip
    if ahead is not None:
        results["preset_ahead"] = float(ahead["none"].mean())
    run.finish(
        title="Where search beats greedy, by kind of decision",
        games=c.n_games * len(seat_scores), results=results,
        readme=sbd.report_text(c.preset, run.command, results),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
