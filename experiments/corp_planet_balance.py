"""Corporation and planet balance at every player count, played at strength.

Every seat draws its corporation and planet from the playable pools
(``playable`` in ``pu_sim/data/corporations.toml`` / ``planets.toml``); the paired
design deals one setup to a group of n games and rotates the boards one seat
per game, so each corporation/planet meets the same station, civ piles and
opponents from every seat.  Every seat plays ``--bot`` (default
``greedy_tuned``); a second policy (``--second``, default ``greedy_learned``)
replays the same setups so the report labels each finding robust,
bot-dependent or unresolved, and a third opinion of another family of play
(``--third``, default ``policy_td``, ``none`` for none) plays the first
``--third-games`` of the same setups at 2-6 players, read beside every
verdict without voting in its label.  The report gives the one-look
verdict table, win rates against 1/n with intervals over setups and Holm
correction, mean score and rank, Plackett-Luce strengths, the corporation x
planet cells and interaction, and the paired comparisons with their variance
savings.

Usage: ``python experiments/corp_planet_balance.py [--games N] [--bot B]
[--second B] [--third B] [--seed S] [--jobs J] [--out reports] [--smoke]`` (``--help``
lists every flag).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
from pu_sim.rules import load_game_data
from pu_sim.simulation.seeds import DEFAULT_SEED
from pu_sim.studies.harness import guarded, start
from pu_sim.studies.policies import (
    PRIMARY,
    SECOND,
    THIRD,
    THIRD_GAMES,
    check_roles,
    roles,
)

STUDY = "corp_planet_balance"
DATA = load_game_data()


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 10_000  # per player count
    seed: int = DEFAULT_SEED
    players: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
    bot: BotSpec = PRIMARY
    second: BotSpec | None = SECOND  # replays second_share of the setups
    second_share: float = 1.0
    third: BotSpec | None = THIRD  # read beside the verdicts at 2-6 players
    third_games: int = THIRD_GAMES  # per player count, the first of the same setups
    corporations: tuple[str, ...] = tuple(
        sorted(load_game_data().playable_corporations)
    )
    planets: tuple[str, ...] = tuple(sorted(load_game_data().playable_planets))
    agree_with: tuple[str, ...] = ()  # other studies' report folders to check


SMOKE = {"n_games": 12, "players": (1, 2, 3), "third_games": 0}


def main(argv: Sequence[str] | None = None) -> int:
    study = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, check=check_roles)
    config: Config = study.config
    runs = []
    for n in config.players:
        for role, bot, size in roles(config):
            if role == "third" and n == 1:
                continue  # solo has no win rate to read beside the verdicts
            games = max(2 * n, int(size))
            name = f"{role}-{bot.label}-{n}p"
            print(f"{STUDY}: {name} ({games:,} games)", flush=True)
            plan = study.plan(
                "setups", n, players=n, bots=bot, group_size=n,
                corporations=[config.corporations],  # one pool, every seat
                planets=[config.planets],
            )  # fmt: skip
            runs.append(
                study.run(
                    name, plan, games, pairing=f"setups-{n}p", extra={"role": role}
                )
            )
    report = write_study_report(
        runs,
        study.folder,
        title="Corporation and planet balance",
        command=study.command,
        agree_with=[Path(f) for f in config.agree_with],
    )
    print(report / "README.md")
    print(report / "index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
