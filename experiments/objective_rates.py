"""Objective rates: how often a bot meets each private objective card it keeps.

Solo base games (Universal Coalition on KSB-4156, balanced 7/7/6 event deck):
for each of the 28 private cards, the games in which the bot kept it and the
share of those in which it was met at the end, with a Wilson interval.  The
greedy bot's setup discard (draw 4, keep 3) gives up the card with the lowest
rate; the report ends with the rates in the core's table layout
(``OBJ_BASE_RATE`` in ``pu_sim/core/bots/greedy_objectives.pxi``), so the table can be
re-measured whenever the bot changes.

Usage: ``python experiments/objective_rates.py [--games N] [--seed S]
[--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pu_sim import bots
from pu_sim.analysis import stats
from pu_sim.report import plots
from pu_sim.report.markdown import frame_table
from pu_sim.report.runs import run_info
from pu_sim.rules import load_rules
from pu_sim.simulation.runner import scan_run
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "objective_rates"
FIRST_CARD = 37  # objective ids run 37..64; the core indexes them from 0


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 20_000
    seed: int = 37
    bot: str = "greedy_tuned"  # a bot name bots.parse accepts


SMOKE = {"n_games": 60}


def card_rates(games: pl.DataFrame) -> pl.DataFrame:
    """One row per private card: games it was kept, games it was met, rate."""
    cards = load_rules().data.objectives
    kept = (
        games.select("private_cards", "private_met")
        .explode("private_cards")
        .drop_nulls("private_cards")
        .with_columns(met=pl.col("private_met").list.contains(pl.col("private_cards")))
        .group_by(card=pl.col("private_cards").cast(pl.Int64))
        .agg(kept=pl.len(), met=pl.col("met").sum())
    )
    names = pl.DataFrame(
        {"card": [c.id for c in cards], "name": [c.private.name for c in cards]}
    )
    table = names.join(kept, on="card", how="left").fill_null(0).sort("card")
    lo, hi = stats.wilson_interval(table["met"].to_numpy(), table["kept"].to_numpy())
    return table.with_columns(
        rate=pl.col("met") / pl.col("kept"),
        lower=pl.Series(lo),
        upper=pl.Series(hi),
    )


def core_table(rates: pl.DataFrame) -> str:
    """The rates as the core's OBJ_BASE_RATE initialiser (6 / 6 / 6 / 5 / 5)."""
    values = [f"{r:.3g}" if r == r else "0.0" for r in rates["rate"].to_list()]
    groups = (6, 6, 6, 5, 5)
    lines, start = [], 0
    for size in groups:
        lines.append("    " + ", ".join(values[start : start + size]) + ",")
        start += size
    return "OBJ_BASE_RATE[:] = [\n" + "\n".join(lines) + "\n]"


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    bot = bots.parse(config.bot)
    run = simulate_run(
        out / "runs" / bot.label, study=STUDY, n_games=config.n_games,
        seed=config.seed, n_jobs=args.jobs, players=1,
        corporations="universal_coalition", planets="ksb_4156", bots=bot,
    )  # fmt: skip
    games = scan_run(run).collect()
    rates = card_rates(games)
    rates.write_csv(out / "tables" / "objective_rates.csv", float_precision=4)
    fig, ax = plots.new_figure(6.4, 7.5)
    plots.plot_forest(
        ax, rates.with_columns(label=pl.format("{} ({})", "name", "card")),
        label="label", estimate="rate", xlabel="share of games met (95% Wilson)",
    )  # fmt: skip
    plots.save(fig, out / "figures" / "objective_rates.png")
    info = run_info(run)
    shown = rates.select(
        "card", "name", "kept", "met",
        pl.format("{} [{}, {}]", *(pl.col(c).round(3) for c in ("rate", "lower",
                                                                "upper")))
        .alias("rate [95%]"),
    )  # fmt: skip
    kept = rates.filter(pl.col("kept") > 0)
    never: list[str] = kept.filter(pl.col("met") == 0)["name"].to_list()
    best = kept.sort("rate", descending=True).row(0, named=True)
    mean_objectives = games.select(pl.col("score_objectives").mean()).item()
    text = (
        f"# Private objective rates of {bot.label}\n\n"
        f"{config.n_games:,} solo base games (Universal Coalition on KSB-4156, "
        "7/7/6 event deck).\n\n"
        "## Headline findings\n\n"
        f"- Most often met: {best['name']} ({best['rate']:.0%} of "
        f"{best['kept']:,} games that kept it).\n"
        f"- Never met: {', '.join(never) if never else 'none'}.\n"
        f"- Mean objective points: {mean_objectives:.2f} "
        "(of 15).\n\n"
        "## Rates\n\n"
        f"{frame_table(shown)}\n\n"
        "![rates](figures/objective_rates.png)\n\n"
        "## The core's table\n\n"
        "The greedy bot's setup discard reads these rates "
        "(`OBJ_BASE_RATE` in `pu_sim/core/bots/greedy_objectives.pxi`; "
        "tests/test_greedy_features.py checks the table against this report):\n\n"
        f"```\n{core_table(rates)}\n```\n\n"
        "## Runs and reproducibility\n\n"
        f"`python experiments/objective_rates.py --games {config.n_games} "
        f"--seed {config.seed}`: engine {info.versions.get('engine')}, "
        f"git {info.versions.get('git_revision')}, "
        f"{info.wall_time_s or 0:.0f} s with {args.jobs} worker(s). The games are "
        f"in `runs/{bot.label}` (not committed; the command replays them).\n"
    )
    (out / "README.md").write_text(text)
    print(Path(out / "README.md"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
