"""Power use: how often the bots use each corporation's powers when offered.

Slow-path games per corporation and bot record every power offered to the
corporation's seat and whether the bot took it (``pu_sim.lab.
power_use``); fast-path games give each corporation's outcomes. A power the
strongest fast bot ignores makes a balance study wrong for its corporation.

Usage: ``python experiments/bots/power_use.py [--games N] [--seed S] [--jobs J]
[--out reports] [--smoke]``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pu_sim.lab import power_use as use
from pu_sim.lab.common import guarded, start
from pu_sim.rules.loading import load_game_data

STUDY = "power_use"


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 60  # slow-path games per corporation and bot
    seed: int = 41
    players: int = 2
    bots: tuple[str, ...] = ("greedy_tuned", "greedy", "random")
    outcome_games: int = 4000  # fast-path games per bot


SMOKE = {"n_games": 1, "outcome_games": 20}


def main(argv: Sequence[str] | None = None) -> int:
    run = start(STUDY, Config(), argv, doc=__doc__, smoke=SMOKE)
    config = run.config
    corporations = [  # in the data's order
        c.key for c in load_game_data().corporations if c.playable
    ]
    rows = use.power_use(
        config.bots, corporations, players=config.players, n_games=config.n_games,
        seed=config.seed, n_jobs=run.jobs,
    )  # fmt: skip
    table = use.power_table(rows)
    mix = use.decision_mix(rows)
    outcomes = use.outcome_table(
        config.bots, players=config.players, n_games=config.outcome_games,
        seed=config.seed, n_jobs=run.jobs,
    )  # fmt: skip
    tables = run.folder / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    for name, frame in (("power_use", table), ("decision_mix", mix),
                        ("outcomes", outcomes)):  # fmt: skip
        frame.write_csv(tables / f"{name}.csv", float_precision=4)
    ignored = use.ignored_powers(table, [b for b in config.bots if b != "random"])
    run.finish(
        title=f"Power use of {config.bots[0]}",
        games=config.n_games * len(corporations) * len(config.bots),
        results={"ignored": ignored.to_dicts()},
        readme=use.report_text(
            bots=config.bots, players=config.players, n_games=config.n_games,
            command=run.command, table=table, mix=mix, outcomes=outcomes,
            outcome_games=config.outcome_games,
        ),
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
