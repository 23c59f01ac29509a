"""Objective chances: how likely a private card n units from done is to be met.

Solo games with random corporations and planets, played by greedy_tuned
without objective chances; every kept private card counted at every round
start (``pu_sim.lab.objective_chances``).  ``--write`` writes the
``objective_chance`` fitted table.

Usage: ``python experiments/bots/objective_chances.py [--games N] [--seed S]
[--jobs J] [--write] [--tables DIR] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim.lab import objective_chances as oc
from pu_sim.lab.chance_tables import count_in_chunks
from pu_sim.lab.common import guarded, start

STUDY = "objective_chances"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 4000
    seed: int = 37


SMOKE = {"n_games": 8}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="objective_chance"
    )
    n_games, seed = run.config.n_games, run.config.seed
    seen, met = count_in_chunks(oc.collect, n_games, seed, run.jobs)
    table = oc.chances(seen, met)
    results = oc.results(seen, met, table)
    run.finish(
        title="Objective chances", games=n_games, results=results,
        readme=oc.report_text(n_games, seed, run.command, results),
    )  # fmt: skip
    run.write_table(oc.table_arrays(table), seed=seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
