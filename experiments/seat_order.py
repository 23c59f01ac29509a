"""Seat order: does the first commander (seat 0) or any seat have an edge?

Plays games at every player count in which every seat uses the same bot
(``--bot``, default ``greedy_tuned``) and again with a second policy on the
same setups (``--second``, default ``greedy_learned``), and the report checks
that the conclusions agree; a third opinion of another family of play
(``--third``, default ``policy_td``, ``none`` for none) plays the first
``--third-games`` of the same setups per player count and is read beside them.
Boards rotate one seat per game inside groups of n games (the paired design),
so the corporations and planets each seat draws from all nine and all thirteen
spread evenly over the seats; a seat study whose seats keep boards of their own
is confounded, and the report says so.

Usage: ``python experiments/seat_order.py [--games N] [--bot B] [--second B]
[--third B] [--seed S] [--jobs J] [--out reports] [--smoke]`` (``--help`` lists
every flag).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
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

STUDY = "seat_order"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 30_000  # per player count
    seed: int = DEFAULT_SEED
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    bot: BotSpec = PRIMARY
    second: BotSpec | None = SECOND  # replays second_share of the setups
    second_share: float = 1.0
    third: BotSpec | None = THIRD
    third_games: int = THIRD_GAMES  # per player count, the first of the same setups


SMOKE = {"n_games": 40, "players": (2, 4), "third_games": 8}


def main(argv: Sequence[str] | None = None) -> int:
    study = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, check=check_roles)
    config: Config = study.config
    runs = []
    for role, bot, size in roles(config):
        for n in config.players:
            games = max(2 * n, int(size))
            name = f"{bot.label}-{n}p"
            print(f"{STUDY}: {name} ({games:,} games)", flush=True)
            plan = study.plan(
                "setups", n, players=n, bots=bot, group_size=n,
                corporations="random", planets="random",
            )  # fmt: skip
            runs.append(
                study.run(
                    name, plan, games, pairing=f"setups-{n}p", extra={"role": role}
                )
            )
    report = write_study_report(
        runs,
        study.folder,
        title="Seat order and first-commander advantage",
        command=study.command,
    )
    print(report / "README.md")
    print(report / "index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
