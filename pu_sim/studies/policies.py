"""The balance studies' policies: who plays the setups, who checks, who reads beside.

The main, balance and seat studies play the same setups under a primary
policy, a second policy (the verdicts need both) and a third opinion of
another family of play, which the report reads beside every verdict and which
never votes in a label (:mod:`pu_sim.analysis.third_policy`).  The defaults,
the run sizes and the mixed tables of two policies live here once.
"""

from __future__ import annotations

from typing import Any

from pu_sim import bots
from pu_sim.bots import BotSpec

__all__ = [
    "PRIMARY",
    "SECOND",
    "THIRD",
    "THIRD_GAMES",
    "check_roles",
    "lone_seat_tables",
    "roles",
]

PRIMARY = bots.preset("greedy_tuned")
"""The primary policy: tuned greedy weights, fast."""

SECOND = bots.preset("greedy_learned")
"""The second policy: greedy_tuned plus planet and rotation values learned from
rollouts.  The same hand-written valuation as the primary, so its agreement is
a check of the learned values, not of how the corporations are played."""

THIRD = bots.preset("policy_td")
"""The third opinion: values learned by self-play, no greedy code.  It does not
vote in the labels: solo it is far from the two greedy policies' strength
(docs/bots.md, "A policy learned from outcomes")."""

THIRD_GAMES = 2_000
"""The third opinion's games per player count, on the first of the same setups."""


def roles(config: Any) -> list[tuple[str, BotSpec, float]]:
    """``(role, bot, games per player count)`` of a study's one-bot runs.

    ``config`` has ``bot`` and ``n_games``, and may have ``second`` with
    ``second_share`` (a multiple of ``n_games``) and ``third`` with
    ``third_games`` (a number of games); either set to None is left out.
    """
    out: list[tuple[str, BotSpec, float]] = [("primary", config.bot, config.n_games)]
    if getattr(config, "second", None) is not None:
        out.append(("second", config.second, config.n_games * config.second_share))
    if getattr(config, "third", None) is not None:
        out.append(("third", config.third, config.third_games))
    return out


def check_roles(config: Any) -> str | None:
    """An error if two roles name the same bot (a bot cannot check itself)."""
    labels = [(role, bot.label) for role, bot, _ in roles(config)]
    for i, (role, label) in enumerate(labels):
        for other, other_label in labels[:i]:
            if label == other_label:
                return (
                    f"--{'bot' if other == 'primary' else other} and --{role} must "
                    f"differ, both are {label!r}"
                )
    return None


def lone_seat_tables(
    players: int, a: BotSpec, b: BotSpec
) -> list[tuple[str, tuple[BotSpec, ...]]]:
    """``(name, bots per seat)`` of every mixed table of two policies.

    One ``a`` seat among ``b`` seats and the reverse, the lone seat at every
    position; at 2 players the two kinds are the same tables, played once.
    Names read ``<odd>-among-<rest>-<n>p-seat<k>``.
    """
    kinds = [(a, b)] + ([(b, a)] if players > 2 else [])
    return [
        (
            f"{odd.label}-among-{rest.label}-{players}p-seat{seat}",
            tuple(odd if s == seat else rest for s in range(players)),
        )
        for odd, rest in kinds
        for seat in range(players)
    ]
