"""The main job: balance verdicts at strength, in under ten minutes on two cores.

``python -m pu_sim.studies.main`` (``pu-sim study``) plays:

* **balance** at every player count 2-6 with the strong bot (``--bot``,
  default ``greedy_tuned``) at every seat: each seat draws its corporation and
  planet from all of them and a setup is played once per seat with the boards
  rotated (the paired design), so the same runs measure corporations, planets
  and seat order; each seat's score after every round is kept for lead
  changes;
* a **second policy** of another style (``--second``, default
  ``greedy_learned``: its planet and rotation values learned from rollouts,
  not hand-weighted) on the same setups, so every corporation and planet
  finding is labelled robust, bot-dependent or unresolved;
* a **skill ladder** (random, greedy, the strong bot, the second policy) on
  the same solo and 4-player setups, for the skill-depth matrix;
* **solo** games with the strong bot on fixed event decks and random decks,
  for the target-score calibration;

and writes the report to ``<out>/main/<run>/`` (README.md, figures, tables,
the report manifest with this command and the Config; the run folders with
their manifests under ``runs/``).  Each run's manifest names its bot and its
role in the study (``metadata.role``), which is how the report knows which
policy is which.  Flags: ``--games`` (balance games per player count,
default 3,000; the other runs are multiples of it), ``--bot``, ``--second``,
``--seed``, ``--jobs``, ``--out`` and ``--smoke``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.rules import RuleOptions
from pu_sim.simulation.table import PLAYABLE_CORPORATIONS, PLAYABLE_PLANETS
from pu_sim.studies.script import (
    cli,
    command_line,
    configure,
    run_name,
    simulate_run,
    with_policies,
)

STUDY = "main"

Mix = tuple[int, int, int]

STRONG = bots.preset("greedy_tuned")

SECOND = bots.preset("greedy_learned")
"""The default second policy: the learned bot, stronger than greedy_tuned at
3 players and solo (the bot ladder) and fast enough to replay every setup; the
search bot at a small budget (``--second search:budget=2``), the earlier
default, afforded only a twentieth of them and left most findings unresolved."""

LADDER = (bots.random(), bots.greedy())


@dataclass(frozen=True, kw_only=True)
class Config:
    """Sizes are multiples of ``n_games`` (balance games per player count)."""

    n_games: int = 3_000  # 2 min 6 s on 2 cores (2026-12-04, `pu-sim study`)
    seed: int = 20240611
    bot: BotSpec = STRONG
    second: BotSpec = SECOND
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    second_share: float = 1.0  # x n_games per player count, the same setups
    ladder: tuple[BotSpec, ...] = LADDER  # weakest first; the bot and second follow
    ladder_players: tuple[int, ...] = (1, 4)
    ladder_share: float = 0.1  # x n_games per level and player count
    ladder_second_share: float = 0.1  # the second policy's share of the ladder
    fixed_decks: tuple[Mix, ...] = ((7, 7, 6), (14, 3, 3), (3, 14, 3), (3, 3, 14))
    solo_per_deck: float = 0.075  # x n_games, per fixed deck
    solo_random: float = 0.6  # x n_games, random decks
    round_scores: bool = True


SMOKE = {
    "n_games": 12,
    "players": (2, 3),
    "second_share": 0.0,
    "ladder_players": (1, 3),
    "ladder_share": 0.0,
    "ladder_second_share": 0.0,
    "solo_per_deck": 0.5,
    "solo_random": 1.0,
}
"""A run of seconds: two setups per second-policy and ladder run (the least)."""

ALL_BOARDS = {
    "corporations": [tuple(sorted(PLAYABLE_CORPORATIONS))],
    "planets": [tuple(sorted(PLAYABLE_PLANETS))],
}
"""Every seat draws from every playable corporation and planet."""


def _games(n: float, players: int) -> int:
    """At least two whole setups (a setup is played once per seat)."""
    return max(2 * players, int(n))


def _plan(config: Config) -> list[tuple[str, dict[str, Any]]]:
    """Every run of the study: (folder name, simulate_run arguments)."""
    n = config.n_games
    runs: list[tuple[str, dict[str, Any]]] = []
    for mix in config.fixed_decks:
        runs.append(
            (
                "solo-deck-{}-{}-{}".format(*mix),
                {
                    "players": 1,
                    "n_games": _games(n * config.solo_per_deck, 1),
                    "options": RuleOptions(event_deck_mix=mix),
                    "bots": config.bot,
                    "extra": {"role": "calibration"},
                },
            )
        )
    runs.append(
        (
            "solo-random-decks",
            {
                "players": 1,
                "n_games": _games(n * config.solo_random, 1),
                "options": RuleOptions(event_deck_mix="random"),
                "bots": config.bot,
                "extra": {"role": "calibration"},
            },
        )
    )
    for p in config.players:
        pairing = f"setups-{p}p"
        for role, bot, share in (
            ("primary", config.bot, 1.0),
            ("second", config.second, config.second_share),
        ):
            runs.append(
                (
                    f"{role}-{bot.label}-{p}p",
                    {
                        "players": p,
                        "n_games": _games(n * share, p),
                        "bots": bot,
                        "group_size": p,
                        "pairing": pairing,
                        **ALL_BOARDS,
                        "seed": config.seed + 10 * p,
                        "extra": {"role": role},
                        "round_scores": config.round_scores and role == "primary",
                    },
                )
            )
    levels = [*config.ladder, config.bot, config.second]
    for p in config.ladder_players:
        pairing = f"setups-{p}p"
        for bot in levels:
            if p in config.players and bot in (config.bot, config.second):
                continue  # the balance runs above are this level's games
            share = (
                config.ladder_second_share
                if bot == config.second
                else config.ladder_share
            )
            boards = ALL_BOARDS if p > 1 else {}
            runs.append(
                (
                    f"ladder-{bot.label}-{p}p",
                    {
                        "players": p,
                        "n_games": _games(n * share, p),
                        "bots": bot,
                        "group_size": p,
                        "pairing": pairing,
                        **boards,
                        "seed": config.seed + 10 * p,
                        "extra": {"role": "ladder"},
                    },
                )
            )
    ladder = [b.label for b in levels]
    for _, kwargs in runs:
        kwargs["extra"]["ladder"] = ladder
    return runs


def with_bot(config: Config, bot: str | None, second: str | None) -> Config:
    """The Config with ``--bot`` / ``--second`` applied (:func:`with_policies`).

    A new ``--bot`` without ``--second`` keeps the default second policy, or
    takes greedy_tuned when the new bot is that policy.
    """
    new = with_policies(config, bot, second, fallback=STRONG)
    if new.bot.label == new.second.label:
        raise ValueError(f"--bot and --second must differ, both are {new.bot.label!r}")
    return new


def main(argv: Sequence[str] | None = None) -> int:
    """Run the study and write ``<out>/main/<run>/``; returns 0."""
    from pu_sim.report.reporting import write_study_report

    args = cli(
        argv,
        description="The main job: balance verdicts at strength.",
        policies=True,
    )
    config = with_bot(configure(Config(), args, smoke=SMOKE), args.bot, args.second)
    out = args.out / STUDY / run_name(config, args.smoke, args.variant)
    start = time.perf_counter()
    runs: list[Path] = []
    for i, (name, kwargs) in enumerate(_plan(config)):
        print(f"[{i + 1}] {name}: {kwargs['n_games']:,} games", flush=True)
        # Runs of one pairing carry one seed so that they deal the same setups.
        kwargs.setdefault("seed", config.seed + i)
        runs.append(
            simulate_run(
                out / "runs" / name,
                study=STUDY,
                n_jobs=args.jobs,
                variant=args.variant,
                **kwargs,
            )
        )
    played = time.perf_counter() - start
    report = write_study_report(
        runs,
        out,
        title="pu_sim main study: balance verdicts",
        study=STUDY,
        command=command_line("-m pu_sim.studies.main", argv),
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
