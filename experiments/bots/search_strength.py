"""Search bot against greedy: paired solo scores and speed at several budgets,
then a 2-player duel (``pu_sim.lab.search_strength``).  Search
settings are BUDGETxWIDTH; the search bots use the greedy bot's weights.

Usage: ``python experiments/bots/search_strength.py [--games N]
[--bots 8x2 32x4 ...] [--seed S] [--greedy NAME] [--duel 16x2]
[--duel-games N] [--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pu_sim import bots
from pu_sim.lab import search_strength as ss
from pu_sim.lab.common import guarded, start

STUDY = "search_strength"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 200
    bots: tuple[str, ...] = field(
        default=("8x2", "8x4", "16x2", "16x4", "32x2", "32x4"),
        metadata={"help": "search settings as BUDGETxWIDTH"},
    )
    seed: int = 2026
    greedy: str = field(
        default="greedy",
        metadata={"help": "the greedy bot to beat (its weights play the search)"},
    )
    duel: str = field(
        default="16x2", metadata={"help": "2-player duel setting ('' to skip)"}
    )
    duel_games: int = field(default=50, metadata={"help": "per seating"})

    def run_name(self) -> str:
        return f"{self.greedy}-{self.n_games}-games-seed-{self.seed}"


SMOKE = {"n_games": 4, "bots": ("2x2", "2x4"), "duel": "2x2", "duel_games": 2}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, run_name=Config.run_name
    )
    c = run.config
    greedy = bots.parse(c.greedy)
    settings = [ss.parse_bot(b) for b in c.bots]
    rows, scores, _ = ss.speed_rows(greedy, settings, c.n_games, c.seed)
    duels = []
    if c.duel:
        budget, width = ss.parse_bot(c.duel)
        duels.append(ss.duel(greedy, budget, width, c.duel_games, c.seed))
    results = {"games": c.n_games, "seed": c.seed, "bots": rows,
               "widths": ss.width_rows(scores), "duels": duels}  # fmt: skip
    run.finish(
        title="Search bot against greedy", games=c.n_games * (len(settings) + 1),
        results=results,
        readme=ss.report_text(c.n_games, c.seed, run.command, greedy.label, results),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
