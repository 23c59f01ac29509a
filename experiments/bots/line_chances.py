"""Line chances: how likely a row or column with n open squares is to score.

Solo games with random corporations and planets, played by greedy_tuned
without line chances; every line counted at every round start
(``pu_sim.lab.line_chances``).  ``--write`` writes the
``line_chance`` fitted table.

Usage: ``python experiments/bots/line_chances.py [--games N] [--seed S]
[--jobs J] [--write] [--tables DIR] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim.lab import line_chances as lc
from pu_sim.lab.chance_tables import count_in_chunks
from pu_sim.lab.common import guarded, start

STUDY = "line_chances"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 4000
    seed: int = 31


SMOKE = {"n_games": 8}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="line_chance")
    n_games, seed = run.config.n_games, run.config.seed
    seen, scored = count_in_chunks(lc.collect, n_games, seed, run.jobs)
    table = lc.chances(seen, scored)
    results = lc.results(seen, scored, table)
    run.finish(
        title="Line chances", games=n_games, results=results,
        readme=lc.report_text(n_games, seed, run.command, results),
    )  # fmt: skip
    run.write_table(lc.table_arrays(table), seed=seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
