"""The learned planet value: an n-tuple network fitted within decisions to rollouts
of the fast bot's best placements, then played in paired solo games
(``pu_sim.lab.ntuple_values``).  ``--write`` writes the ``ntuple``
fitted table; the report folder always keeps the fit under ``table/``.

Usage: ``python experiments/bots/ntuple_values.py [--games N] [--rollouts R]
[--seed S] [--paired N] [--tuned N] [--three N] [--jobs J] [--write] [--tables DIR]
[--out reports] [--smoke]``
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pu_sim.bots import fitted
from pu_sim.lab import ntuple_values as nt
from pu_sim.lab.common import guarded, in_chunks, start
from pu_sim.report import plots
from pu_sim.simulation.seeds import derive

STUDY = "ntuple_values"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 2000
    rollouts: int = 16
    seed: int = 2031
    paired: int = field(default=4000, metadata={"help": "paired fast-bot solo games"})
    tuned: int = field(
        default=2000, metadata={"help": "paired greedy_tuned solo games (0: none)"}
    )
    three: int = field(
        default=2000, metadata={"help": "3-player setups against greedy_tuned"}
    )


# game 0 held out
SMOKE = {"n_games": 4, "rollouts": 2, "paired": 20, "tuned": 0, "three": 4}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="ntuple")
    c = run.config
    started = time.perf_counter()
    parts = in_chunks(nt.collect, c.n_games, run.jobs, c.rollouts, c.seed,
                      progress="rollouts (chunks of games)")  # fmt: skip
    records = [r for part in parts for r in part]
    held = nt.held_out(records)
    arrays = nt.table_arrays(nt.fit(records, held["ridge"])["coef"])
    provenance = fitted.Provenance(command=run.command, seed=c.seed,
                                   report=run.folder.as_posix())  # fmt: skip
    # the fit beside the report (readable without installing it), and the
    # packaged tables with it for the paired games
    fitted.write_table("ntuple", arrays, provenance, run.folder / "table")
    paired_seed = derive(c.seed, STUDY, "paired")
    with tempfile.TemporaryDirectory() as folder:
        tables = Path(folder)
        shutil.copytree(fitted.FITTED_DIR, tables, dirs_exist_ok=True)
        fitted.write_table("ntuple", arrays, provenance, tables)
        paired = nt.paired_rows(c.paired, paired_seed, run.jobs, tables, c.tuned)
        three = nt.three_player_row(c.three, paired_seed, run.jobs, tables,
                                    nt.WEIGHTS[0])  # fmt: skip
    results = {
        "games": c.n_games, "rollouts": c.rollouts, "seed": c.seed,
        "paired_seed": paired_seed, "decisions": len(records), "held_out": held,
        "paired": paired, "three_player": three,
        "seconds": round(time.perf_counter() - started, 1),
    }  # fmt: skip
    plots.save(nt.figure(results), run.folder / "figures" / f"{STUDY}.png")
    run.finish(
        title="The learned planet value (n-tuple network)", games=c.n_games,
        results=results, readme=nt.report_text(results, run.command),
    )  # fmt: skip
    run.write_table(arrays, seed=c.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
