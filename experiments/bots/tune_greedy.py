"""Tuned greedy: the greedy bot's weights tuned by a cross-entropy search.

A cross-entropy search over the greedy weights (solo score plus 4-player win
share, common random numbers per generation), optionally warm-started again
per corporation, then validated on held-out seeds
(``pu_sim.lab.tuned_greedy``).  A report folder whose manifest holds
the searches of the same config replays only the validation.

Usage: ``python experiments/bots/tune_greedy.py [--games N] [--seed S]
[--generations G] [--population P] ... [--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim.lab import tuned_greedy as tg
from pu_sim.lab import tuned_greedy_report as words
from pu_sim.lab.common import guarded, start
from pu_sim.simulation.provenance import git_revision

STUDY = tg.STUDY


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 20_000  # validation: solo games per bot (held-out seed)
    seed: int = 2026
    # the search
    generations: int = 15
    population: int = 20
    box: float = math.log(4.0)  # each weight within default / 4 .. default x 4
    sd0: float = 0.5  # initial sd of log-weights
    elite_frac: float = 0.25
    smoothing: float = 0.7
    solo_games: int = 600  # per candidate and generation
    multi_games: int = 100  # per seating (x4) per candidate and generation
    multi_weight: float = 20.0  # solo points per unit of 4-player win share
    # validation at 4 players: games per seating of the tuned seat (x4)
    multi_val_games: int = 2_500
    # per corporation: warm start from the base result
    corporations: tuple[str, ...] = ("cosmos_inc", "wormhole_corp")
    corp_generations: int = 8
    corp_population: int = 12
    corp_sd0: float = 0.3
    corp_solo_games: int = 300
    corp_multi_games: int = 150
    corp_val_games: int = 1_500  # per seating and bot


SMOKE = {
    "n_games": 40, "generations": 2, "population": 4, "solo_games": 20,
    "multi_games": 4, "multi_val_games": 8, "corporations": ("cosmos_inc",),
    "corp_generations": 1, "corp_population": 3, "corp_solo_games": 8,
    "corp_multi_games": 4, "corp_val_games": 8,
}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE)
    config, out = run.config, run.folder
    (out / "tables").mkdir(parents=True, exist_ok=True)
    git = git_revision() or {}  # before this run rewrites tracked report files
    found = tg.load_search(out, config) or tg.run_search(config, out, run.jobs)
    tuned, corp_tuned = tg.searched_bots(config, found)
    weights = tg.weights_table(found)
    weights.write_csv(out / "tables" / "tuned_weights.csv", float_precision=4)
    words.fitness_figure(
        found["histories"], out / "figures" / "fitness_by_generation.png"
    )
    cpu0, wall0 = time.process_time(), time.perf_counter()
    solo = tg.solo_validation(config, out, run.jobs, tuned)
    multi = tg.multi_validation(config, out, run.jobs, tuned)
    corp_runs, corp_table = tg.corporation_validation(
        config, out, run.jobs, tuned, corp_tuned
    )
    runs = [*solo["runs"], *multi["runs"], *corp_runs]
    lines = words.headlines(
        config, solo, multi, corp_table, tuned, corp_tuned, found, runs
    )
    results = tg.record(config, found, git, run.jobs, runs, cpu0, wall0)
    run.finish(
        title="Tuned greedy: cross-entropy search over the greedy weights",
        games=results["validation_games"], runs=runs, results=results,
        readme=words.readme(config, run.command, lines, found, weights, solo,
                            multi, corp_table, runs, out),
    )  # fmt: skip
    print("PRESETS = " + json.dumps(results["weights"], indent=4))
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
