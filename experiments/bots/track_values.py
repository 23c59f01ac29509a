"""Track values: what advancing each tracker is worth, fitted to rollouts.

Every track choice of greedy_tuned's solo games (track_fit 0) valued by
rollouts and fitted per corporation (``pu_sim.lab.track_values``);
held-out games decide which corporations get a row.  ``--write`` writes the
``track_fit`` fitted table.  The base game's corporation (Universal
Coalition) plays ``--base-games`` games, the others ``--games``.

Usage: ``python experiments/bots/track_values.py [--games N] [--base-games N]
[--rollouts R] [--seed S] [--jobs J] [--corporations KEY ...] [--write]
[--tables DIR] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pu_sim.engine import load_rules
from pu_sim.lab import track_values as tv
from pu_sim.lab.common import guarded, start

STUDY = "track_values"
KEYS = tuple(c.key for c in load_rules().data.corporations)


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = field(default=200, metadata={"help": "games per corporation"})
    base_games: int = field(
        default=0, metadata={"help": f"games of {tv.BASE_CORPORATION} (0: --games)"}
    )
    rollouts: int = 16
    seed: int = 77
    corporations: tuple[str, ...] = field(
        default=KEYS, metadata={"choices": KEYS, "help": "(default: all)"}
    )


SMOKE = {"n_games": 2, "base_games": 2, "rollouts": 2}  # game 0 held out


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="track_fit")
    config = run.config
    n_base = config.base_games or config.n_games
    games = {c: n_base if c == tv.BASE_CORPORATION else config.n_games
             for c in config.corporations}  # fmt: skip
    records = tv.collect_all(games, config.rollouts, config.seed, run.jobs)
    tables = {corp: tv.fit(records[corp]) for corp in config.corporations}
    rows = [tv.held_out_row(c, records[c], tables[c]) for c in config.corporations]
    results = {"ridge": tv.RIDGE, "tables": tables, "held_out": rows}
    run.finish(
        title="Track values fitted to rollouts", games=sum(games.values()),
        results=results, readme=tv.report_text(
            config.n_games, n_base, config.rollouts, config.seed, run.command, results
        ),
    )  # fmt: skip
    run.write_table(
        tv.table_arrays(results, KEYS), seed=config.seed,
        notes="Corporations whose fit chose worse than greedy on their held-out "
        "games have no row (zeros).",
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
