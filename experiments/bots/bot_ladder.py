"""Bot ladder: bots rated against each other, and their solo scores.

3-player games of the base game, every 3-subset of the bots in its three
cyclic seat orders on the same setups, rated by Plackett-Luce (Elo) with a
head-to-head table; then every bot's paired solo games against the rulebook's
target (``pu_sim.lab.ladder``); the learned bot's targets on
larger paired samples (solo seeds and 3-player setups against greedy_tuned);
and the policy's solo target (random boards, paired against greedy_learned).

Usage: ``python experiments/bots/bot_ladder.py [--games N] [--seed S]
[--solo-games N] [--players P] [--n-boot N] [--target-solo-games N]
[--target-setups N] [--policy-solo-games N] [--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.lab import ladder as lad
from pu_sim.lab import ladder_report as words
from pu_sim.lab.common import guarded, start
from pu_sim.report import plots

STUDY = lad.STUDY


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 8  # ladder: setups per seating (every subset x seat order)
    seed: int = 909  # each pairing's runs derive theirs from it
    solo_games: int = 150  # per bot, the same seeds for every bot
    players: int = 3
    bots: tuple[BotSpec, ...] = lad.ladder_bots((8, 64))
    n_boot: int = 400  # bootstrap resamples of the ratings
    target_solo_games: int = 4000  # greedy_learned vs greedy_tuned solo, paired
    target_setups: int = 2000  # 3-player setups, greedy_learned in each seat in turn
    policy_solo_games: int = 1000  # policy_td vs greedy_learned solo, random boards


# smoke: five bots (random, the policy, the learned and the tuned greedy, search
# at budget 2 on greedy's defaults)
SMOKE = {
    "n_games": 2, "solo_games": 4, "n_boot": 20, "target_solo_games": 6,
    "target_setups": 4, "policy_solo_games": 4,
    "bots": (bots.random(), bots.parse(lad.POLICY), bots.parse(lad.LEARNED),
             bots.parse(lad.TUNED), bots.search("search-2", 2, 2)),
}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE)
    ladder = lad.play(run.config, run.folder, run.jobs)
    plots.save(words.ladder_figure(ladder.fit, ladder.h2h, ladder.order),
               run.folder / "figures" / "ladder.png")  # fmt: skip
    plots.save(words.solo_figure(ladder.solo, ladder.solo_t, ladder.order),
               run.folder / "figures" / "solo.png")  # fmt: skip
    ladder.write_tables(run.folder)
    run.finish(
        title="Bot ladder: ratings from multiplayer games and solo scores",
        games=ladder.n_ladder + len(ladder.order) * run.config.solo_games
        + ladder.target_games,
        runs=ladder.runs,
        results=ladder.results(), readme=words.readme(ladder, run.command, run.folder),
    )  # fmt: skip
    print("\n".join(words.headlines(ladder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
