"""The main job: a small balance and solo study that leaves a report.

``python -m pu_sim.studies.main`` plays, on two cores in a few minutes:

* solo games with the greedy bot on a few fixed event decks (the rulebook's
  default 7/7/6, and decks heavy in each colour) plus random decks (every valid
  mix equally likely), for the target-score calibration;
* 2- and 4-player games with the greedy bot at every seat, for the seat and
  first-commander effects;
* 4-player games where every seat draws a corporation and a planet from all
  nine and all thirteen (each board once per game, paired: a setup is played
  with the boards rotated through the seats), for corporation and planet
  balance;
* seat-swapped duels (greedy vs random at 2 players, greedy vs a greedy that
  ignores objective cards at 4 players) on paired setups, for the bot
  comparison;

and writes the report to ``reports/main/<run>/`` (README.md, figures, tables,
the report manifest with this command and the Config; the run folders with
their manifests under ``runs/``).  Flags:
``--games`` scales the sizes (the number of 4-player games; default 10,000),
``--seed``, ``--jobs``, ``--out`` (reports root) and ``--smoke``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.rules import RuleOptions
from pu_sim.simulation.table import PLAYABLE_CORPORATIONS, PLAYABLE_PLANETS
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "main"

Mix = tuple[int, int, int]

GREEDY = bots.greedy()
NO_OBJECTIVES = bots.greedy("greedy_no_objectives", objective=0.0)


@dataclass(frozen=True, kw_only=True)
class Config:
    """Sizes are multiples of ``n_games`` (the 4-player seat run)."""

    n_games: int = 10_000
    seed: int = 20240611
    fixed_decks: tuple[Mix, ...] = ((7, 7, 6), (14, 3, 3), (3, 14, 3), (3, 3, 14))
    solo_per_deck: float = 0.5  # x n_games, per fixed deck
    solo_random: float = 4.0  # x n_games, random decks
    seat_players: tuple[int, ...] = (2, 4)
    balance_players: int = 4
    balance_share: float = 1.0  # x n_games, every board from every seat
    duel_share: float = 0.5  # x n_games, per seat order of each duel
    greedy: BotSpec = GREEDY
    variant: BotSpec = NO_OBJECTIVES


SMOKE = {"n_games": 40}


def _plan(config: Config) -> list[tuple[str, dict[str, object]]]:
    """Every run of the study: (folder name, simulate_run arguments)."""
    n = config.n_games
    runs: list[tuple[str, dict[str, object]]] = []
    for mix in config.fixed_decks:
        runs.append(
            (
                "solo-deck-{}-{}-{}".format(*mix),
                {
                    "players": 1,
                    "n_games": max(10, int(n * config.solo_per_deck)),
                    "options": RuleOptions(event_deck_mix=mix),
                    "bots": config.greedy,
                },
            )
        )
    runs.append(
        (
            "solo-random-decks",
            {
                "players": 1,
                "n_games": max(10, int(n * config.solo_random)),
                "options": RuleOptions(event_deck_mix="random"),
                "bots": config.greedy,
            },
        )
    )
    for p in config.seat_players:
        runs.append(
            (
                f"seats-{p}p",
                {"players": p, "n_games": n, "bots": config.greedy, "group_size": p},
            )
        )
    runs.append(
        (
            f"balance-{config.balance_players}p",
            {
                "players": config.balance_players,
                "n_games": max(config.balance_players, int(n * config.balance_share)),
                "bots": config.greedy,
                "corporations": [tuple(sorted(PLAYABLE_CORPORATIONS))],
                "planets": [tuple(sorted(PLAYABLE_PLANETS))],
                "group_size": config.balance_players,
            },
        )
    )
    duels = ((2, config.greedy, bots.random()), (4, config.greedy, config.variant))
    for p, a, b in duels:
        pairing = f"{p}p-{a.label}-{b.label}"
        for tag, first, second in (("ab", a, b), ("ba", b, a)):
            seats = [first if i % 2 == 0 else second for i in range(p)]
            runs.append(
                (
                    f"duel-{pairing}-{tag}",
                    {
                        "players": p,
                        "n_games": max(10, int(n * config.duel_share)),
                        "bots": seats,
                        "pairing": pairing,
                        "seed": config.seed + 100 + p,
                    },
                )
            )
    return runs


def main(argv: Sequence[str] | None = None) -> int:
    """Run the default study and write ``<out>/main/<run>/``; returns 0."""
    from pu_sim.report.reporting import write_study_report

    args = cli(argv, description="The main job: a small balance and solo study.")
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke, args.variant)
    start = time.perf_counter()
    runs: list[Path] = []
    for i, (name, kwargs) in enumerate(_plan(config)):
        print(f"[{i + 1}] {name}: {kwargs['n_games']:,} games", flush=True)
        # Seat-swapped duels carry one seed so both orders get the same setups.
        kwargs.setdefault("seed", config.seed + i)
        runs.append(
            simulate_run(
                out / "runs" / name,
                study=STUDY,
                n_jobs=args.jobs,
                variant=args.variant,
                **kwargs,  # type: ignore[arg-type]
            )
        )
    played = time.perf_counter() - start
    report = write_study_report(
        runs,
        out,
        title="pu_sim main study: balance and solo",
        study=STUDY,
        command=" ".join(
            ["python -m pu_sim.studies.main", *(sys.argv[1:] if argv is None else argv)]
        ),
        config=config,
    )
    total = time.perf_counter() - start
    print(
        f"played in {played:.0f} s, report in {total - played:.0f} s; "
        f"total {total:.0f} s"
    )
    print(report / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
