"""Solo target-score calibration across event-deck compositions.

Plays solo games whose 20-card event deck is drawn uniformly from every valid
(green, orange, red) mix (``event_deck_mix="random"``), or over an explicit
grid of mixes, then fits how each colour moves the score, compares that with
the rulebook's target table (rules 10.2) and fits a recalibrated table with
the same bands that makes success equally likely for every deck.  The report
is per bot (and per corporation and planet when several are playable), and
checks that two play styles find the same faults in the published table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
from pu_sim.rules import RuleOptions
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "solo_target_calibration"
GREEDY = bots.greedy()
NO_OBJECTIVES = bots.greedy("greedy_no_objectives", objective=0.0)

Mix = tuple[int, int, int]


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 150_000  # per bot ("random" decks) or per mix (grid)
    seed: int = 10
    decks: Literal["random"] | tuple[Mix, ...] = "random"
    # Two play styles: do both find the same faults in the table?
    bots: tuple[BotSpec, ...] = (GREEDY, NO_OBJECTIVES)
    corporations: str = "random"  # every playable one
    planets: str = "random"


SMOKE = {"n_games": 300}


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke, args.variant)
    mixes: list[Mix | Literal["random"]] = (
        ["random"] if config.decks == "random" else list(config.decks)
    )
    runs = []
    for bot in config.bots:
        for mix in mixes:
            tag = "random-decks" if mix == "random" else "deck-{}-{}-{}".format(*mix)
            run = out / "runs" / f"{bot.label}-{tag}"
            print(f"{STUDY}: {run.name} ({config.n_games:,} games)", flush=True)
            runs.append(
                simulate_run(
                    run,
                    study=STUDY,
                    n_games=config.n_games,
                    seed=config.seed,
                    n_jobs=args.jobs,
                    variant=args.variant,
                    players=1,
                    bots=bot,
                    corporations=config.corporations,
                    planets=config.planets,
                    options=RuleOptions(event_deck_mix=mix),
                    pairing="solo",
                )
            )
    report = write_study_report(runs, out, title="Solo target-score calibration")
    print(report / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
