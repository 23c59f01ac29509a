"""Objective rates: how often a bot meets each private objective card it keeps.

Solo base games (Universal Coalition on KSB-4156, balanced 7/7/6 event deck)
through a run folder; per card, the share of the games that kept it in which
it was met (``pu_sim.lab.objective_rates``).  ``--write`` writes the
``objective_rate`` fitted table the setup discard reads.

Usage: ``python experiments/bots/objective_rates.py [--games N] [--seed S]
[--bot NAME] [--jobs J] [--write] [--tables DIR] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from pu_sim import bots
from pu_sim.lab import objective_rates as rates_
from pu_sim.lab.common import guarded, start
from pu_sim.report import plots
from pu_sim.simulation.runner import scan_run

STUDY = "objective_rates"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 20_000
    seed: int = 37
    bot: str = "greedy_tuned"  # a bot name bots.parse accepts


SMOKE = {"n_games": 60}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, table="objective_rate")
    config, bot = run.config, bots.parse(run.config.bot)
    plan = run.plan(players=1, corporations="universal_coalition",
                    planets="ksb_4156", bots=bot)  # fmt: skip
    played = run.run(bot.label, plan, config.n_games)
    games = scan_run(played).collect()
    rates = rates_.card_rates(games)
    (run.folder / "tables").mkdir(parents=True, exist_ok=True)
    rates.write_csv(run.folder / "tables" / "objective_rates.csv", float_precision=4)
    fig, ax = plots.new_figure(6.4, 7.5)
    plots.plot_forest(
        ax, rates.with_columns(label=pl.format("{} ({})", "name", "card")),
        label="label", estimate="rate", xlabel="share of games met (95% Wilson)",
    )  # fmt: skip
    plots.save(fig, run.folder / "figures" / "objective_rates.png")
    mean = float(games.select(pl.col("score_objectives").mean()).item())
    run.finish(
        title=f"Private objective rates of {bot.label}", games=config.n_games,
        runs=[played], results={"rates": rates.to_dicts(), "mean_objectives": mean},
        readme=rates_.report_text(bot.label, config.n_games, run.command, rates, mean),
    )  # fmt: skip
    run.write_table(rates_.table_arrays(rates), seed=config.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
