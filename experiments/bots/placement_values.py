"""Placement values: what a placement's afterstate is worth, fitted to rollouts.

Greedy_tuned's best placements (place_fit 0) at every placement of solo games
valued by rollouts and fitted on their afterstate features
(``pu_sim.lab.placement_values``).  ``--write`` writes the
``place_fit`` fitted table.

Usage: ``python experiments/bots/placement_values.py [--games N] [--rollouts R]
[--seed S] [--jobs J] [--planets base|random] [--write] [--tables DIR]
[--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pu_sim.lab import placement_values as pv
from pu_sim.lab.common import guarded, in_chunks, start

STUDY = "placement_values"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 800
    rollouts: int = 24
    seed: int = 2028
    planets: str = field(default="base", metadata={"choices": ("base", "random")})

    def run_name(self) -> str:
        return f"{self.n_games}-games-seed-{self.seed}-{self.planets}"


SMOKE = {"n_games": 2, "rollouts": 2}  # game 0 held out


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="place_fit",
        run_name=Config.run_name,
    )  # fmt: skip
    c = run.config
    parts = in_chunks(pv.collect, c.n_games, run.jobs, c.rollouts, c.seed, c.planets)
    records = [r for part in parts for r in part]
    results = {
        "ridge": pv.RIDGE, "features": pv.FEATURES, "decisions": len(records),
        "fit": pv.fit(records), "held_out": pv.held_out(records),
    }  # fmt: skip
    run.finish(
        title="Placement values fitted to rollouts", games=c.n_games, results=results,
        readme=pv.report_text(
            c.n_games, c.rollouts, c.seed, c.planets, run.command, results
        ),
    )  # fmt: skip
    run.write_table(pv.table_arrays(results), seed=c.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
