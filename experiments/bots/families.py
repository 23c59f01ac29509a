"""Which family of play gets more out of each board: a lone seat among the other's.

Mixed tables of two bots of different families (default ``policy_td``, values
learned by self-play, and ``greedy_learned``, greedy's hand-written valuation
with learned values): one seat of one among seats of the other, and the
reverse, the lone seat at every position on the same setups.  The report
(``pu_sim.lab.families``) gives, per board and player count, how much more one
family's play of the board wins than the other's, replicated on two halves of
the setups: where the studies' third opinion parts from greedy, whether the
board or a family's play is the reason.

Usage: ``python experiments/bots/families.py [--games N] [--players P ...]
[--first B] [--second B] [--seed S] [--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.lab import families as fam
from pu_sim.lab.common import guarded, start
from pu_sim.report import plots
from pu_sim.report.runs import load_runs

STUDY = "families"
FIRST = bots.preset("policy_td")
SECOND = bots.preset("greedy_learned")


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 12_000  # per player count, both kinds of table
    seed: int = 6161
    players: tuple[int, ...] = (2, 3, 4, 5, 6)  # the committed report
    first: BotSpec = FIRST
    second: BotSpec = SECOND


SMOKE = {"n_games": 48, "players": (3,)}


def _check(config: Config) -> str | None:
    """Two families, not one bot against itself."""
    if config.first.label == config.second.label:
        return f"--first and --second must differ, both are {config.first.label!r}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, check=_check)
    config: Config = run.config
    runs = []
    plan_rows = fam.table_runs(config.players, config.first, config.second,
                               config.n_games)  # fmt: skip
    for name, p, seats, n in plan_rows:
        print(f"{STUDY}: {name} ({n:,} games)", flush=True)
        plan = run.plan("families", p, players=p, bots=list(seats), group_size=p,
                        corporations="random", planets="random")  # fmt: skip
        runs.append(run.run(name, plan, n, pairing=f"families-{p}p",
                            extra={"role": "families"}))  # fmt: skip
    games, left_out = fam.ok_games(load_runs(runs))
    a, b = config.first.label, config.second.label
    table = fam.family_findings(games, a, b)
    tables = run.folder / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    table.write_csv(tables / "families.csv", float_precision=4)
    strength = fam.lone_strength(games, a, b)
    strength.write_csv(tables / "strength.csv", float_precision=4)
    plots.save(fam.figure(table, a, b), run.folder / "figures" / "families.png")
    n_games = games.select("run", "game_id").unique().height
    sizes = [(r.name, size) for r, (*_, size) in zip(runs, plan_rows, strict=True)]
    run.finish(
        title=f"Which family gets more out of each board: {a} or {b}",
        games=n_games, runs=runs,
        results={"replicated": table.filter(pl.col("replicated")).select(
            "n_players", "kind", "name", "excess_conf").to_dicts(),
            "lone_win_share": strength.select(
                "n_players", "bot", "mean", "lower", "upper").to_dicts()},
        readme=fam.report_text(table=table, strength=strength, a=a, b=b,
                               command=run.command,
                               games=n_games, left_out=left_out, runs=sizes),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
