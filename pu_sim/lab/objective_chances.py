"""Objective chances: how likely a private card n units from done is to be met.

Every private card the player kept is recorded at the start of every round:
how far it is from done, in its own units (``GameState.objective_states``),
and whether it was met at the end.  The units: the squares a rectangle's best
free window still lacks, the icons the richest area still lacks, the steps a
tracker still needs to its top, the meteorites still to collect, the ice
squares still open.  The share met, per (card group, missing units, round), is
the ``objective_chance`` table the greedy bot's ``objective_chance`` weight
reads: a move is credited with 5 medals times the chance it adds.  Cells with
few cards are shrunk toward their neighbouring rounds; chances never rise with
more units missing.  A rectangle with no free window left ("dead") has its own
row.  The round after the last (``ROUNDS + 1``) is the end of the game: a card
is met there exactly when nothing is missing.

The table measures the policy that plays the games (greedy_tuned with
``objective_chance`` 0); re-measure whenever the greedy bot changes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.lab import probes
from pu_sim.lab.chance_tables import (
    PRIOR,
    ROUNDS,
    Floats,
    random_board_game,
    rounds_table,
)
from pu_sim.lab.common import policy_without

GROUPS = (
    "3x3 rectangle",
    "2x5 rectangle",
    "area with 6 icons",
    "civ tracker at the top",
    "water tracker at the top",
    "biomass tracker at the top",
    "rover tracker at the top",
    "tech tracker at the top",
    "9 meteorites collected",
    "no uncovered ice",
)
MISSING = 17  # units missing 0..15, then 16: a rectangle with no room left
DEAD = MISSING - 1


def play_bot() -> bots.BotSpec:
    """greedy_tuned without objective chances: the policy the table measures."""
    return policy_without("objective_chance")


def collect(games: range, seed: int) -> tuple[Floats, Floats]:
    """(cards seen, cards met) per [group][units missing][round - 1]."""
    seen = np.zeros((len(GROUPS), MISSING, ROUNDS))
    met = np.zeros((len(GROUPS), MISSING, ROUNDS))
    bot = play_bot()
    for index in games:
        game = random_board_game(bot, seed, index)
        states, end = probes.play_reading_rounds(game, lambda s: s.objective_states(0))
        final = {card: done for card, _, _, done in end}
        for round_, cards in states:
            r = min(round_, ROUNDS) - 1  # later rounds count as the last
            for card, group, missing, _ in cards:
                if group >= 0 and card in final:  # not a card discarded at setup
                    seen[group, missing, r] += 1
                    met[group, missing, r] += final[card]
    return seen, met


def nearby_share(seen: Floats, met: Floats, r: int) -> float:
    """Share met in the rounds around r (+-2), widened until some card was seen.

    A (missing, round) cell the policy never reaches, like a tracker one step
    from its top in round 5, borrows from the nearest rounds that have cards,
    not from zero (which would drag every farther cell down with it).
    """
    for reach in range(2, ROUNDS + 1, 2):
        lo, hi = max(0, r - reach), min(ROUNDS, r + reach + 1)
        if seen[lo:hi].sum():
            return float(met[lo:hi].sum() / seen[lo:hi].sum())
    return 0.0


def chances(seen: Floats, met: Floats) -> Floats:
    """Smoothed share met, [group][missing][round 1..ROUNDS+1].

    Each cell shrunk toward its rounds' neighbourhood (PRIOR pseudo-cards), then
    made non-increasing in units missing (the dead row apart); the extra last
    round is the game's end.
    """
    out = np.zeros((len(GROUPS), MISSING, ROUNDS + 1))
    for g in range(len(GROUPS)):
        for n in range(MISSING):
            for r in range(ROUNDS):
                out[g, n, r] = (met[g, n, r] + PRIOR * nearby_share(seen[g, n],
                                met[g, n], r)) / (seen[g, n, r] + PRIOR)  # fmt: skip
        # a card met now can still be lost (Petra: open currents count as energy
        # and get covered), so the met row only bounds the others from above
        out[g, 1:DEAD, :ROUNDS] = np.minimum.accumulate(out[g, 1:DEAD, :ROUNDS], axis=0)
        out[g, 0, :ROUNDS] = np.maximum(out[g, 0, :ROUNDS], out[g, 1, :ROUNDS])
        out[g, 0, ROUNDS] = 1.0  # the game's end: met exactly when nothing is missing
    return out


def table_arrays(table: Floats) -> dict[str, Floats]:
    """The objective_chance table: [group][units missing][round - 1], 4 decimals."""
    return {"chance": fitted.rounded(table)}


def results(seen: Floats, met: Floats, table: Floats) -> dict[str, Any]:
    """The report's numbers: the counts, the table, the groups, the policy."""
    return {"prior": PRIOR, "groups": list(GROUPS),
            "weights": dict(play_bot().params),
            "seen": seen.tolist(), "met": met.tolist(),
            "chance": table.round(4).tolist()}  # fmt: skip


def report_text(n_games: int, seed: int, command: str, result: dict[str, Any]) -> str:
    """The README of the report folder: a table of chances per card group."""
    table, seen = np.asarray(result["chance"]), np.asarray(result["seen"])
    lines = [
        "# Objective chances: how likely a private card n units from done is met",
        "",
        f"{n_games} solo games, random corporations and planets, greedy_tuned with "
        f"objective_chance 0 (seed {seed}): `{command}`. Units: squares a "
        "rectangle's best free window lacks, icons the richest area lacks, steps to "
        "a track's top, meteorites still to collect, open ice squares. The bot's "
        "weights are in the manifest (`results.weights`).",
        "",
    ]
    for g, group in enumerate(GROUPS):
        shown = [n for n in range(MISSING) if seen[g, n].sum() >= 50]
        lines += [
            f"## {group}",
            "",
            *rounds_table("missing", "cards seen",
                          (("dead" if n == DEAD else n, table[g, n], seen[g, n].sum())
                           for n in shown)),
            "",
        ]  # fmt: skip
    return "\n".join(lines)
