"""Solo target-score calibration on paired boards, at the published difficulty.

The same setups (corporation, planet, tiles, objectives: the setup stream of a
game depends only on the seed and the game index) are played under every
event-deck composition (green, orange, red summing to 20: 231 of them), one
run per composition and bot with one seed, so a deck's effect is a difference
within setups. Two strong bots of different style play every composition:
greedy_tuned, the fast bot, and greedy_learned (learned values and endgame
rollouts; the report measures how much stronger). The report proposes the
table at the published difficulty: an entry changes only where both strong
bots' refits round it stably to the same value (the rest are "not settled"),
and the base keeps the published table's success rate at the bot nearest the
published difficulty (the anchor), so the table changes shape, not level; how
hard it is at each bot's strength is reported per bot. The per-card formula
beside it is fitted on half the setups and judged on the other half. greedy
shows how the table's faults change with skill, and the search bot
(greedy_tuned's rollouts) plays a paired subsample of compositions and
setups. Every interval and every noise term is clustered by setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.report.reporting import write_study_report
from pu_sim.rules import RuleOptions
from pu_sim.simulation.seeds import DEFAULT_SEED
from pu_sim.studies.harness import guarded, start

STUDY = "solo_target_calibration"
Mix = tuple[int, int, int]

ALL_DECKS: tuple[Mix, ...] = tuple(
    (g, o, 20 - g - o) for g in range(21) for o in range(21 - g)
)
"""Every composition of the 20-card solo deck (231)."""

SUBSAMPLE_DECKS: tuple[Mix, ...] = (
    (7, 7, 6), (14, 3, 3), (3, 14, 3), (3, 3, 14), (10, 0, 10), (0, 10, 10),
)  # fmt: skip
"""The search bot's compositions: the balanced deck and the extremes."""


SEARCH = bots.search(
    "search-8-tuned", budget=8, width=2, **bots.PRESETS["greedy_tuned"]
)
"""The search bot of the subsample: 8 rollouts of greedy_tuned per decision."""


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 60  # setups: boards played under every composition, per bot
    seed: int = DEFAULT_SEED
    decks: Literal["all"] | tuple[Mix, ...] = "all"
    bots: tuple[BotSpec, ...] = (
        bots.preset("greedy_tuned"),
        bots.preset("greedy_learned"),
        bots.greedy(),
    )
    # The strongest bot on a paired subsample (its setups are the first ones).
    search: BotSpec | None = SEARCH
    search_setups: int = 12
    search_decks: tuple[Mix, ...] = SUBSAMPLE_DECKS
    corporations: str = "random"  # every playable one
    planets: str = "random"


SMOKE_DECKS: tuple[Mix, ...] = (
    (7, 7, 6),
    *((g, 20 - g - r, r) for g in range(0, 17, 4) for r in range(0, 21 - g, 4)),
)
"""21 compositions that reach every band of every colour, as a fit needs."""

SMOKE = {
    "n_games": 3,
    "decks": SMOKE_DECKS,
    "search": bots.search("search-2", budget=2, width=2),
    "search_setups": 2,
    "search_decks": ((7, 7, 6), (3, 3, 14), (14, 3, 3)),
}


def main(argv: Sequence[str] | None = None) -> int:
    study = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE)
    config: Config = study.config
    decks = ALL_DECKS if config.decks == "all" else config.decks
    # Batches of a quarter of a run's games keep every worker busy (results
    # do not depend on the batch size); the search bot's games go one by one.
    batch = max(1, -(-config.n_games // 4))
    plays = [(bot, decks, config.n_games, batch) for bot in config.bots]
    if config.search is not None:
        plays.append((config.search, config.search_decks, config.search_setups, 1))
    runs: list[Path] = []
    for bot, mixes, setups, batch_size in plays:
        print(f"{STUDY}: {bot.label}, {len(mixes)} decks x {setups:,} setups",
              flush=True)  # fmt: skip
        for mix in mixes:
            # one seed for every run: the setups are the same under every deck
            plan = study.plan(
                "setups", players=1, bots=bot, corporations=config.corporations,
                planets=config.planets, options=RuleOptions(event_deck_mix=mix),
            )  # fmt: skip
            name = "{}-deck-{}-{}-{}".format(bot.label, *mix)
            runs.append(
                study.run(
                    name, plan, setups, pairing="solo-decks", batch_size=batch_size
                )
            )
    report = write_study_report(
        runs,
        study.folder,
        title="Solo target calibration on paired boards",
        study=STUDY,
        command=study.command,
    )
    print(report / "README.md")
    print(report / "index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
