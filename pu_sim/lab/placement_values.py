"""Placement values: what a placement's afterstate is worth, fitted to rollouts.

At every tile placement of solo games, greedy's best ``PLACE_FIT_K`` placements
(by its own value, place_fit 0) are each valued by Monte Carlo rollouts
(:mod:`pu_sim.lab.rollouts`).  A least-squares fit within each
decision explains the rollout values by greedy's own value plus the
placement's afterstate features (``Game.placement_features``: tile size, free
regions by size, medals of lines 1, 2, 3-4 squares short), one coefficient per
feature and part of the game; ridge-regularized on standardized columns.
Divided by greedy's coefficient, the feature coefficients are in greedy's own
units: the ``place_fit`` table, which the greedy bot adds to its best
placements scaled by its ``place_fit`` weight.

Games whose index is a multiple of 4 are held out: the report gives the mean
rollout value gained per decision (and per game) by choosing among the kept
placements with the fitted values instead of greedy's value alone.  The
rollouts use greedy_tuned with ``place_fit`` 0, so the table does not depend on
itself; re-fit whenever the greedy bot changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pu_sim.analysis.stats import within_group_ridge
from pu_sim.bots import fitted
from pu_sim.engine.core import constants
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab.common import policy_without
from pu_sim.lab.rollouts import decisions, rollout_values, top_moves

CONSTANTS = constants()
KEPT = int(CONSTANTS["PLACE_FIT_K"])  # greedy-best placements valued per decision
PHASES = int(CONSTANTS["PLACE_FIT_PHASES"])
ROUND_SPAN = int(CONSTANTS["PLACE_FIT_ROUND_SPAN"])
N_FEATURES = int(CONSTANTS["N_PLACE_FEATURES"])
FEATURES = ("size", "regions", "free_1", "free_2_3", "free_4_7", "free_8",
            "line_1", "line_2", "line_3_4")  # fmt: skip
"""Names of Game.placement_features, in order (core/bots/greedy_place_fit.pxi PLF_*)."""
RIDGE = 1.0

Floats = npt.NDArray[np.float64]
Record = dict[str, Any]


def phase(round_: int) -> int:
    """Part of the game a round falls in (the core's place_fit_phase)."""
    return min(PHASES - 1, max(0, (round_ - 1) // ROUND_SPAN))


def collect(games: range, rollouts: int, seed: int, planets: str) -> list[Record]:
    """Every placement decision of the games, with greedy's best placements.

    Their greedy values, features and mean rollout values.
    """
    bot = policy_without("place_fit")  # the policy served
    base = planets == "base"
    records = []
    for index in games:
        game = Game(
            players=1,
            corporations="universal_coalition" if base else "random",
            planets="ksb_4156" if base else "random",
            bots=bot,
            seed=seed,
            game_index=index,
        )
        for moves in decisions(game, ("place",)):
            values = probes.greedy_values(game, bot)
            kept = top_moves(values, KEPT)
            records.append({
                "game": index, "round": game.fields()["round"],
                "greedy": [float(values[i]) for i in kept],
                "features": [probes.placement_features(game, moves[i]) for i in kept],
                "value": rollout_values(
                    game, [moves[i] for i in kept], rollouts, index
                ),
            })  # fmt: skip
    return records


def design(r: Record) -> Floats:
    """Decision r's options as rows: features in their part of the game, greedy."""
    x = np.zeros((len(r["greedy"]), PHASES * N_FEATURES + 1))
    at = phase(r["round"]) * N_FEATURES
    x[:, at : at + N_FEATURES] = np.asarray(r["features"], float)
    x[:, -1] = r["greedy"]
    return x


def fit(records: Sequence[Record]) -> Record:
    """Ridge fit of the rollout values within each decision.

    The table in greedy's units (feature coefficients over greedy's coefficient).
    """
    beta = within_group_ridge(
        [(design(r), r["value"]) for r in records], RIDGE, standardize=True
    )
    coef = float(beta[-1])
    table = (beta[:-1] / coef).reshape(PHASES, N_FEATURES)
    return {"table": table.round(4).tolist(), "greedy_coef": round(coef, 4)}


def gain(records: Sequence[Record], table: Record) -> Floats:
    """Per decision: what choosing by the fitted values gains.

    The rollout value of the option they choose minus that of greedy's choice
    (option 0).
    """
    t = np.asarray(table["table"], float).ravel()
    out = []
    for r in records:
        x = design(r)
        choice = int(np.argmax(x[:, -1] + x[:, :-1] @ t))
        out.append(r["value"][choice] - r["value"][0])
    return np.asarray(out, float)


def table_arrays(report: Record) -> dict[str, Floats]:
    """The place_fit table from a report: [part of the game][feature], 4 decimals."""
    return {"values": fitted.rounded(report["fit"]["table"])}


def report_text(
    n_games: int, rollouts: int, seed: int, planets: str, command: str, report: Record
) -> str:
    """README of the report folder."""
    h = report["held_out"]
    spans = [f"{1 + k * ROUND_SPAN}-{(k + 1) * ROUND_SPAN}" for k in range(PHASES)]
    spans[-1] = f"{1 + (PHASES - 1) * ROUND_SPAN}+"
    return "\n".join([
        "# Placement values fitted to rollouts", "",
        f"{n_games} solo games ({planets} boards), "
        f"{rollouts} rollouts per kept placement (seed {seed}): "
        f"`{command}`. Rollouts and decisions by greedy_tuned with "
        f"place_fit 0; greedy's best {KEPT} placements valued per decision.", "",
        f"Held-out games (index multiple of 4): {h['decisions']:,} decisions. Choosing "
        f"among the kept placements by the fitted values instead of greedy's value "
        f"alone changes {h['changed']:.0%} of the choices and gains "
        f"**{h['per_decision']:+.3f} ± {h['per_decision_ci']:.3f}** medals per "
        f"decision (95%), {h['per_game']:+.2f} per game ({h['per_game_decisions']:.1f} "
        "placements a game), by the rollouts' values of the options: one step of",
        "policy improvement, not the games' score; the paired games of the",
        "README measure that.", "",
        f"Greedy's coefficient: {report['fit']['greedy_coef']:.3f} medals per unit of "
        "its value. The table (greedy units per unit of feature):", "",
        "| rounds | " + " | ".join(FEATURES) + " |",
        "|---|" + "---|" * N_FEATURES,
        *(f"| {span} | " + " | ".join(f"{v:+.3f}" for v in row) + " |"
          for span, row in zip(spans, report["fit"]["table"], strict=True)),
        "",
    ])  # fmt: skip


def held_out(records: Sequence[Record]) -> Record:
    """What choosing by the fitted values gains on held-out games.

    Fitted on games whose index is not a multiple of 4, measured on the others,
    per decision and per game.
    """
    test = [r for r in records if not r["game"] % 4]
    gains = gain(test, fit([r for r in records if r["game"] % 4]))
    n_test_games = len({r["game"] for r in test})
    return {
        "decisions": len(test), "changed": float(np.mean(gains != 0)),
        "per_decision": float(gains.mean()),
        "per_decision_ci": float(1.96 * gains.std() / np.sqrt(max(1, len(gains)))),
        "per_game_decisions": len(test) / max(1, n_test_games),
        "per_game": float(gains.sum() / max(1, n_test_games)),
    }  # fmt: skip
