"""The learned rotation value: the commander's station rotation fitted to rollouts
of every kept rotation in 3-player games, then played in paired 3- and 4-player
games (``pu_sim.lab.rotation_round``).  ``--write`` writes the
``rotation_round`` fitted table; the report folder always keeps the fit under
``table/``.

Usage: ``python experiments/bots/rotation_round.py [--games N] [--rollouts R]
[--seed S] [--three N] [--four N] [--jobs J] [--write] [--tables DIR]
[--out reports] [--smoke]``
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.lab import rotation_round as rr
from pu_sim.lab.common import guarded, in_chunks, share_row, start
from pu_sim.report import plots
from pu_sim.simulation.seeds import derive

STUDY = "rotation_round"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 1500
    rollouts: int = 8
    seed: int = 5001
    three: int = field(default=3000, metadata={"help": "paired 3-player setups"})
    four: int = field(default=1000, metadata={"help": "paired 4-player setups"})


# game 0 held out
SMOKE = {"n_games": 4, "rollouts": 2, "three": 4, "four": 2}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="rotation_round")
    c = run.config
    started = time.perf_counter()
    parts = in_chunks(rr.collect, c.n_games, run.jobs, c.rollouts, c.seed,
                      progress="rollouts (chunks of games)")  # fmt: skip
    records = [r for part in parts for r in part]
    coef = rr.fit(records)
    arrays = rr.table_arrays(coef)
    provenance = fitted.Provenance(command=run.command, seed=c.seed,
                                   report=run.folder.as_posix())  # fmt: skip
    fitted.write_table("rotation_round", arrays, provenance, run.folder / "table")
    paired_seed = derive(c.seed, STUDY, "paired")
    learned, fast = rr.learned_bot(), rr.rule_bot()
    tuned = bots.parse("greedy_tuned")
    with tempfile.TemporaryDirectory() as folder:
        tables = Path(folder)
        shutil.copytree(fitted.FITTED_DIR, tables, dirs_exist_ok=True)
        fitted.write_table("rotation_round", arrays, provenance, tables)
        plans = [(fast, 3, c.three), (tuned, 3, c.three), (tuned, 4, c.four)]
        paired = [
            share_row(learned, against, players, n, paired_seed, run.jobs, tables)
            for against, players, n in plans
        ]
    results = {
        "games": c.n_games, "rollouts": c.rollouts, "seed": c.seed,
        "served": fast.label, "paired_seed": paired_seed.label,
        "decisions": len(records),
        "coef": arrays["coef"].tolist(), "held_out": rr.held_out(records, coef),
        "curve": rr.training_curve(records),
        "paired": paired, "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip
    plots.save(rr.figure(results), run.folder / "figures" / f"{STUDY}.png")
    run.finish(
        title="The learned rotation value", games=c.n_games, results=results,
        readme=rr.report_text(results, run.command),
    )  # fmt: skip
    run.write_table(arrays, seed=c.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
