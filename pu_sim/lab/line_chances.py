"""Line chances: how likely a row or column with n open squares is to score.

Every row and column is recorded at the start of every round (open squares
0-12, whether a meteorite sits in it) with whether it scored its medal at the
end (complete, no meteorite).  The share that scored, per (meteorite, open
squares, round), is the ``line_chance`` table: the greedy bot's
``line_chance`` weight credits a placement with the medals times the chance
it adds to each line it fills.  Where a line length is rare, a cell is shrunk
toward its neighbouring rounds; chances never rise with more open squares.
The round after the last (``ROUNDS + 1``) is the end of the game: a line
scores there exactly when it is complete without a meteorite.

The table measures the policy that plays the games (greedy_tuned with
``line_chance`` 0); re-measure whenever the greedy bot changes.
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

SQUARES = 13  # open squares 0..12 (a line is at most 12 squares)


def play_bot() -> bots.BotSpec:
    """greedy_tuned without line chances: the policy the table measures."""
    return policy_without("line_chance")


def collect(games: range, seed: int) -> tuple[Floats, Floats]:
    """(lines seen, lines that scored) per [meteorite][open squares][round - 1]."""
    seen = np.zeros((2, SQUARES, ROUNDS))
    scored = np.zeros((2, SQUARES, ROUNDS))
    bot = play_bot()
    for index in games:
        game = random_board_game(bot, seed, index)
        states, final = probes.play_reading_rounds(
            game, lambda state: state.line_states(0)
        )
        for round_, lines in states:
            r = min(round_, ROUNDS) - 1  # later rounds count as the last
            for (open_, meteor, _), (end_open, end_meteor, _) in zip(
                lines, final, strict=True
            ):
                seen[int(meteor), open_, r] += 1
                ends_scored = end_open == 0 and not end_meteor
                scored[int(meteor), open_, r] += ends_scored
    return seen, scored


def chances(seen: Floats, scored: Floats) -> Floats:
    """Smoothed share that scored, [meteorite][open][round 1..ROUNDS+1].

    Each cell shrunk toward its rounds' neighbourhood (PRIOR pseudo-lines), then
    made non-increasing in open squares; the extra last round is the game's end.
    """
    out = np.zeros((2, SQUARES, ROUNDS + 1))
    for m in range(2):
        for n in range(SQUARES):
            for r in range(ROUNDS):
                lo, hi = max(0, r - 2), min(ROUNDS, r + 3)
                near_seen = seen[m, n, lo:hi].sum()
                prior = (scored[m, n, lo:hi].sum() / near_seen if near_seen
                         else (1.0 if n == 0 and m == 0 else 0.0))  # fmt: skip
                out[m, n, r] = (scored[m, n, r] + PRIOR * prior) / (
                    seen[m, n, r] + PRIOR
                )
            out[m, :, :ROUNDS] = np.minimum.accumulate(out[m, :, :ROUNDS], axis=0)
    out[0, 0, ROUNDS] = 1.0  # the game's end: complete and no meteorite
    return out


def table_arrays(table: Floats) -> dict[str, Floats]:
    """The line_chance table: [meteorite][open squares][round - 1], 4 decimals."""
    return {"chance": fitted.rounded(table)}


def results(seen: Floats, scored: Floats, table: Floats) -> dict[str, Any]:
    """The report's numbers: the counts, the table and the policy measured."""
    return {"prior": PRIOR, "weights": dict(play_bot().params),
            "seen": seen.tolist(), "scored": scored.tolist(),
            "chance": table.round(4).tolist()}  # fmt: skip


def report_text(n_games: int, seed: int, command: str, result: dict[str, Any]) -> str:
    """The README of the report folder."""
    table, seen = np.asarray(result["chance"]), np.asarray(result["seen"])
    return "\n".join([
        "# Line chances: how likely a line with n open squares is to score", "",
        f"{n_games} solo games, random corporations and planets, greedy_tuned with "
        f"line_chance 0 (seed {seed}): `{command}`. A line scores when it is "
        "complete at the end with no meteorite in it. The bot's weights are in "
        "the manifest (`results.weights`).", "",
        "Chance (smoothed) at the start of a round, lines without a meteorite:", "",
        *rounds_table("open squares", "lines seen",
                      ((n, table[0, n], seen[0, n].sum()) for n in range(SQUARES))),
        "",
    ])  # fmt: skip
