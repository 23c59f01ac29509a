"""Corporation and planet balance in multiplayer games.

Every seat draws its corporation and planet from the playable pools
(``pu_sim.simulation.table.PLAYABLE_CORPORATIONS`` / ``PLAYABLE_PLANETS``); the paired
design deals one setup to a group of n games and rotates the boards one seat
per game, so each corporation/planet meets the same station, civ piles and
opponents from every seat.  The report gives win rates against 1/n with Holm
correction, mean score and rank, Plackett-Luce strengths, the corporation x
planet interaction and the paired comparisons with their variance savings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
from pu_sim.simulation.table import PLAYABLE_CORPORATIONS, PLAYABLE_PLANETS
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "corp_planet_balance"
GREEDY = bots.greedy()


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 10_000  # per player count
    seed: int = 7
    players: tuple[int, ...] = (2, 3, 4)
    bot: BotSpec = GREEDY
    corporations: tuple[str, ...] = tuple(sorted(PLAYABLE_CORPORATIONS))
    planets: tuple[str, ...] = tuple(sorted(PLAYABLE_PLANETS))


SMOKE = {"n_games": 30, "players": (2, 3)}


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke, args.variant)
    runs = []
    for n in config.players:
        run = out / "runs" / f"{n}p"
        print(f"{STUDY}: {run.name} ({config.n_games:,} games)", flush=True)
        runs.append(
            simulate_run(
                run,
                study=STUDY,
                n_games=config.n_games,
                seed=config.seed + n,
                n_jobs=args.jobs,
                variant=args.variant,
                players=n,
                bots=config.bot,
                corporations=[config.corporations],  # one pool, every seat
                planets=[config.planets],
                group_size=n,
            )
        )
    report = write_study_report(runs, out, title="Corporation and planet balance")
    print(report / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
