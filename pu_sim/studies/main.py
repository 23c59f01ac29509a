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
* a **third opinion** of another family of play (``--third``, default
  ``policy_td``: values learned by self-play, no greedy code) on the first
  ``--third-games`` games of the same setups per player count, read beside
  every verdict and never voting in its label;
* a **skill ladder** (random, greedy, the strong bot, the second policy) on
  the same solo and 4-player setups: solo skill depth, and which verdicts
  survive weaker play;
* **mixed-skill tables** at 2-4 players (``--mixed-players``): one seat of
  the strong bot among ``--weak`` seats (default greedy) and, from 3
  players, one weak seat among strong ones, with the odd seat at every
  position on the same setups: whether skill pays more with some boards;
* **solo** games with the strong bot on fixed event decks and random decks,
  for the target-score calibration;

and writes the report to ``<out>/main/<run>/`` (README.md, figures, tables, the
report manifest with this command and the Config; the run folders with their
manifests under ``runs/``). Each run's manifest names its bot and its role in
the study (``metadata.role``), which is how the report knows which policy is
which. Flags: ``--games`` (balance games per player count, default 3,000; the
other runs are multiples of it), ``--bot``, ``--second``, ``--third`` (``none``
for no third opinion), ``--seed``, ``--jobs``, ``--out``, ``--variant`` and
``--smoke``, and every other field of :class:`Config` (``python -m
pu_sim.studies.main --help``). Every run's seed is derived from ``--seed`` by
its name (:mod:`pu_sim.studies.harness`); the balance, second-policy and ladder
runs at one player count share theirs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.rules import RuleOptions, load_game_data
from pu_sim.simulation.seeds import DEFAULT_SEED, KeyPart
from pu_sim.studies.harness import guarded, start
from pu_sim.studies.policies import (
    PRIMARY,
    SECOND,
    THIRD,
    THIRD_GAMES,
    check_roles,
    lone_seat_tables,
    roles,
)

STUDY = "main"

Mix = tuple[int, int, int]

LADDER = (bots.random(), bots.greedy())


@dataclass(frozen=True, kw_only=True)
class Config:
    """Sizes are multiples of ``n_games`` (balance games per player count)."""

    n_games: int = field(
        default=3_000,  # 3 min 24 s on 2 cores (2026-12-06, `pu-sim study`)
        metadata={"help": "size: balance games per player count (3000); the other "
                  "runs are multiples of it"},
    )  # fmt: skip
    seed: int = DEFAULT_SEED
    bot: BotSpec = PRIMARY
    second: BotSpec = SECOND
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    second_share: float = 1.0  # x n_games per player count, the same setups
    third: BotSpec | None = THIRD
    third_games: int = THIRD_GAMES  # per player count, the first of the same setups
    ladder: tuple[BotSpec, ...] = LADDER  # weakest first; the bot and second follow
    ladder_players: tuple[int, ...] = (1, 4)
    ladder_share: float = 0.1  # x n_games per level and player count
    ladder_second_share: float = 0.1  # the second policy's share of the ladder
    fixed_decks: tuple[Mix, ...] = ((7, 7, 6), (14, 3, 3), (3, 14, 3), (3, 3, 14))
    solo_per_deck: float = 0.075  # x n_games, per fixed deck
    solo_random: float = 0.6  # x n_games, random decks
    mixed_players: tuple[int, ...] = (2, 3, 4)
    mixed_share: float = 1.0  # x n_games per player count and kind of table
    weak: BotSpec = LADDER[-1]  # the weaker level of the mixed tables
    round_scores: bool = True
    agree_with: tuple[str, ...] = ()  # other studies' report folders to check


SMOKE = {
    "n_games": 12,
    "players": (2, 3),
    "second_share": 0.0,
    "third_games": 0,
    "ladder_players": (1, 3),
    "ladder_share": 0.0,
    "ladder_second_share": 0.0,
    "solo_per_deck": 0.5,
    "solo_random": 1.0,
    "mixed_players": (3,),
    "mixed_share": 0.0,
}
"""A run of seconds: two setups per second-policy and ladder run (the least)."""

ALL_BOARDS = {
    "corporations": [tuple(sorted(load_game_data().playable_corporations))],
    "planets": [tuple(sorted(load_game_data().playable_planets))],
}
"""Every seat draws from every playable corporation and planet."""

RANDOM_BOARDS = {"corporations": "random", "planets": "random"}
"""The solo seat draws any playable corporation and planet."""


def _games(n: float, players: int) -> int:
    """At least two whole setups (a setup is played once per seat)."""
    return max(2 * players, int(n))


def _runs(config: Config) -> list[tuple[str, tuple[KeyPart, ...], dict[str, Any]]]:
    """Every run of the study: (folder name, seed key, run arguments).

    Runs of one seed key deal the same setups: the balance runs of the two
    policies and the ladder at one player count are paired that way.
    """
    n = config.n_games
    runs: list[tuple[str, tuple[KeyPart, ...], dict[str, Any]]] = []
    for mix in config.fixed_decks:
        name = "solo-deck-{}-{}-{}".format(*mix)
        runs.append((name, (name,), {
            "table": {"players": 1, "bots": config.bot, **RANDOM_BOARDS,
                      "options": RuleOptions(event_deck_mix=mix)},
            "n_games": _games(n * config.solo_per_deck, 1),
            "extra": {"role": "calibration"},
        }))  # fmt: skip
    runs.append(("solo-random-decks", ("solo-random-decks",), {
        "table": {"players": 1, "bots": config.bot, **RANDOM_BOARDS,
                  "options": RuleOptions(event_deck_mix="random")},
        "n_games": _games(n * config.solo_random, 1),
        "extra": {"role": "calibration"},
    }))  # fmt: skip
    for p in config.players:
        for role, bot, games in roles(config):
            runs.append((f"{role}-{bot.label}-{p}p", ("setups", p), {
                "table": {"players": p, "bots": bot, "group_size": p, **ALL_BOARDS},
                "n_games": _games(games, p),
                "pairing": f"setups-{p}p",
                "extra": {"role": role},
                "round_scores": config.round_scores and role == "primary",
            }))  # fmt: skip
    levels = [*config.ladder, config.bot, config.second]
    for p in config.ladder_players:
        for bot in levels:
            if p in config.players and bot in (config.bot, config.second):
                continue  # the balance runs above are this level's games
            share = (
                config.ladder_second_share
                if bot == config.second
                else config.ladder_share
            )
            boards = ALL_BOARDS if p > 1 else RANDOM_BOARDS
            runs.append((f"ladder-{bot.label}-{p}p", ("setups", p), {
                "table": {"players": p, "bots": bot, "group_size": p, **boards},
                "n_games": _games(n * share, p),
                "pairing": f"setups-{p}p",
                "extra": {"role": "ladder"},
            }))  # fmt: skip
    runs += _mixed_runs(config)
    ladder = [b.label for b in levels]
    for _, _, kwargs in runs:
        kwargs["extra"]["ladder"] = ladder
    return runs


def _mixed_runs(
    config: Config,
) -> list[tuple[str, tuple[KeyPart, ...], dict[str, Any]]]:
    """Mixed-skill tables: one odd seat, at every position in turn.

    One run per kind of table and odd seat; all runs at a player count share
    their setups, so a setup is played with the odd seat everywhere and the
    boards rotated (at 2 players one strong and one weak seat is both kinds).
    """
    runs: list[tuple[str, tuple[KeyPart, ...], dict[str, Any]]] = []
    for p in config.mixed_players:
        per_run = p * max(2, round(config.n_games * config.mixed_share / p / p))
        for name, table in lone_seat_tables(p, config.bot, config.weak):
            runs.append((f"mixed-{name}", ("mixed", p), {
                "table": {"players": p, "bots": table, "group_size": p,
                          **ALL_BOARDS},
                "n_games": per_run,
                "pairing": f"mixed-{p}p",
                "extra": {"role": "mixed"},
            }))  # fmt: skip
    return runs


def _check(config: Config) -> str | None:
    """A Config's error: the same bot twice, or mixed tables of one player."""
    problem = check_roles(config)
    if problem:
        return problem
    if config.mixed_players and config.weak.label == config.bot.label:
        return f"--weak and --bot must differ, both are {config.bot.label!r}"
    if any(not 2 <= p <= 6 for p in config.mixed_players):
        return f"--mixed-players must be 2..6, got {list(config.mixed_players)}"
    return None


def main(
    argv: Sequence[str] | None = None, program: str = "python -m pu_sim.studies.main"
) -> int:
    """Run the study and write ``<out>/main/<run>/``; returns 0.

    ``program``: how the study was started (``pu-sim study`` passes its own
    name), the start of the command its report records.
    """
    from pu_sim.report.reporting import write_study_report

    study = start(
        STUDY, Config(), argv, doc=__doc__, smoke=SMOKE, out=Path("runs"),
        program=program, check=_check,
    )  # fmt: skip
    config: Config = study.config
    began = time.perf_counter()
    runs: list[Path] = []
    for i, (name, key, kwargs) in enumerate(_runs(config)):
        print(f"[{i + 1}] {name}: {kwargs['n_games']:,} games", flush=True)
        plan = study.plan(*key, **kwargs.pop("table"))
        runs.append(study.run(name, plan, **kwargs))
    played = time.perf_counter() - began
    report = write_study_report(
        runs,
        study.folder,
        title="pu_sim main study: balance verdicts",
        study=STUDY,
        command=study.command,
        config=config,
        agree_with=[Path(f) for f in config.agree_with],
    )
    total = time.perf_counter() - began
    print(
        f"played in {played:.0f} s, report in {total - played:.0f} s; "
        f"total {total:.0f} s"
    )
    print(report / "README.md")
    print(report / "index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
