"""Greedy weights fitted to rollouts: a policy-improvement step for a preset.

The preset's solo games; the top moves of every decision valued by rollouts,
weight slopes by finite differences, a ridge fit and a line search on paired
solo games per iteration (``pu_sim.lab.weights``).  The fit starts
from the preset's weights changed by ``--start`` (JSON): a new feature's
weight, for instance.

Usage: ``python experiments/bots/fit_greedy.py [--preset NAME] [--start JSON]
[--games N] [--rollouts R] [--validate N] [--seed S] [--jobs J]
[--iterations I] [--corporations KEY] [--planets KEY] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pu_sim import bots
from pu_sim.lab import weights as fit
from pu_sim.lab.common import guarded, start

STUDY = "fit_greedy"


@dataclass(frozen=True, kw_only=True)
class Config:
    preset: str = field(
        default="greedy_tuned", metadata={"choices": ("greedy", *bots.PRESETS)}
    )
    start: Mapping[str, float] = field(
        default_factory=dict,
        metadata={
            "help": "weights changed before the fit, e.g. '{\"regress_delay\": 1}'"
        },
    )
    n_games: int = 1000
    rollouts: int = 8
    validate: int = field(default=3000, metadata={"help": "paired solo games"})
    seed: int = 6
    iterations: int = 1
    corporations: str = field(
        default="random", metadata={"help": "a corporation key or 'random'"}
    )
    planets: str = field(
        default="random", metadata={"help": "a planet key or 'random'"}
    )

    def run_name(self) -> str:
        return f"{self.preset}-{self.n_games}-games-seed-{self.seed}"


# default greedy (fast rollouts), two games (game 0 held out), one rollout a move
SMOKE = {"preset": "greedy", "n_games": 2, "rollouts": 1, "validate": 12}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, run_name=Config.run_name,
        check=lambda c: fit.unknown_weights(c.start),
    )  # fmt: skip
    iterations, weights = fit.fit_weights(run.config, run.jobs)
    c = run.config
    results = {
        "preset": c.preset, "rollouts": c.rollouts, "top": fit.TOP, "ridge": fit.RIDGE,
        "validate": c.validate, "iterations": iterations,
        "corporations": c.corporations, "planets": c.planets, "weights": weights,
    }  # fmt: skip
    run.finish(
        title="Greedy weights fitted to rollouts", games=c.n_games * c.iterations,
        results=results, readme=fit.report_text(results, run.command),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
