"""Track values: what advancing each tracker is worth, fitted to rollouts.

At every choice among trackers (synergy boost, energy, a card's "advance one")
in solo games of each corporation, every option is valued by Monte Carlo
rollouts (:mod:`pu_sim.lab.rollouts`).  A least-squares fit within
each decision explains the rollout values by one number per (track, tracker
position, third of the game) and, per track, a linear term in the player's
context (``Game.track_context``: lifepods and how near the rovers they are,
rovers, covered squares, civ cards, tech level, meteorites, the five tracker
positions), next to greedy's own value of the option; ridge-regularized on
standardized columns.  Divided by greedy's coefficient, the fitted numbers are
in greedy's own units: the ``track_fit`` table, a row per corporation whose fit
chose better on held-out games (games whose index is a multiple of 4), none for
the others, which then play greedy's own values.  The greedy bot adds it to its
track choices scaled by its ``track_fit`` weight (1: the fit's own scale).

The rollouts use greedy_tuned with ``track_fit`` 0, so the table does not
depend on itself; re-fit whenever the greedy bot changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from pu_sim.analysis.stats import within_group_ridge
from pu_sim.bots import fitted
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab.common import policy_without
from pu_sim.lab.rollouts import decisions, rollout_values
from pu_sim.rules.gamedata import TRACKS

POSITIONS = 16  # tracker positions 0..15 (higher ones count as 15)
PHASES = 3  # thirds of a ROUNDS-round game
ROUNDS = 20  # a game's usual length, for the phase of a round
RIDGE = 10.0
BASE_CORPORATION = "universal_coalition"
CONTEXT = (
    "lifepods", "lifepods_near_2", "lifepods_near_4", "rovers_on_planet",
    "rovers_in_supply", "covered", "civ_cards", "tech_level", "meteorites",
    "lifepods_collected", *(f"{t}_position" for t in TRACKS),
)  # fmt: skip
"""Game.track_context's entries, in order (the core's TCX_* indices)."""
N_CELLS = len(TRACKS) * POSITIONS * PHASES
CHOICES = ("synergy", "energy", "track")

Floats = npt.NDArray[np.float64]
Record = dict[str, Any]


def phase(round_: int) -> int:
    """Third of the game (0, 1, 2) a round falls in."""
    return min(PHASES - 1, max(0, (round_ - 1) * PHASES // ROUNDS))


def collect(games: range, corporation: str, rollouts: int, seed: int) -> list[Record]:
    """Every track choice of the games, with each option's mean rollout value."""
    bot = policy_without("track_fit")  # the policy served
    records = []
    for index in games:
        game = Game(
            players=1, corporations=corporation, bots=bot, seed=seed, game_index=index
        )
        for moves in decisions(game, CHOICES):
            names = [game.describe(m).split() for m in moves]
            if all(n[0] == "advance" and n[-1] in TRACKS for n in names):
                tracks = [TRACKS.index(n[-1]) for n in names]
                at = game.tracks(0)
                records.append({
                    "game": index, "round": game.fields()["round"], "track": tracks,
                    "pos": [min(at[TRACKS[t]], POSITIONS - 1) for t in tracks],
                    "context": probes.track_context(game, 0),
                    "greedy": probes.greedy_values(game, bot),
                    "value": rollout_values(game, moves, rollouts, index),
                })  # fmt: skip
    return records


def collect_all(
    games: Mapping[str, int], rollouts: int, seed: int, jobs: int
) -> dict[str, list[Record]]:
    """collect() for each corporation's number of games.

    All on one pool of workers (about 20 chunks per corporation), records in game
    order.
    """
    tasks = []
    for corp, n in games.items():
        chunk = max(1, n // 20)
        tasks += [(corp, range(s, min(n, s + chunk))) for s in range(0, n, chunk)]
    parts = Parallel(n_jobs=jobs)(
        delayed(collect)(chunk, corp, rollouts, seed) for corp, chunk in tasks
    )
    out: dict[str, list[Record]] = {corp: [] for corp in games}
    for (corp, _), part in zip(tasks, parts, strict=True):
        out[corp] += part
    return out


def features(r: Record, i: int) -> Floats:
    """Option i of decision r: track x position x phase, track x context."""
    f = np.zeros(N_CELLS + len(TRACKS) * len(CONTEXT))
    t = r["track"][i]
    f[(t * POSITIONS + r["pos"][i]) * PHASES + phase(r["round"])] = 1.0
    f[N_CELLS + t * len(CONTEXT) : N_CELLS + (t + 1) * len(CONTEXT)] = r["context"]
    return f


def fit(records: Sequence[Record]) -> Record:
    """Ridge fit of the rollout values, demeaned within each decision.

    The table in greedy's units (divided by greedy's own coefficient), all 0 when
    greedy's coefficient is not positive.
    """
    beta = within_group_ridge(
        [(np.array([[*features(r, i), r["greedy"][i]] for i in range(len(r["track"]))]),
          r["value"]) for r in records],
        RIDGE, standardize=True,
    )  # fmt: skip
    coef = float(beta[-1])
    # a greedy value that does not rise with the rollouts has no units to
    # express the table in: nothing is learned (the held-out check then says so)
    table = beta[:-1] / coef if coef > 0 else np.zeros(len(beta) - 1)
    cell = table[:N_CELLS].reshape(len(TRACKS), POSITIONS, PHASES)
    context = table[N_CELLS:].reshape(len(TRACKS), len(CONTEXT))
    return {
        "cell": cell.round(4).tolist(),
        "context": context.round(5).tolist(),
        "greedy_coef": round(coef, 4),
    }


def table_vector(table: Record) -> Floats:
    """A fitted table as one vector, in features()' order."""
    return np.concatenate([np.ravel(table["cell"]), np.ravel(table["context"])])


def regret(records: Sequence[Record], table: Record | None = None) -> float:
    """Mean of (best rollout value - value of the option picked).

    Picked by greedy's value, or with `table` by greedy's value plus the table's.
    """
    beta = None if table is None else table_vector(table)
    out = []
    for r in records:
        v = np.asarray(r["value"], float)
        s = np.asarray(r["greedy"], float)
        if beta is not None:
            s = s + np.array([features(r, i) @ beta for i in range(len(s))])
        out.append(v.max() - v[int(np.argmax(s))])
    return float(np.mean(out))


def helps(row: Record) -> bool:
    """Whether the fit chooses better than greedy alone on the held-out games."""
    return bool(row["regret_fitted"] < row["regret_greedy"])


def table_arrays(report: Record, keys: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    """The track_fit table from a report.

    A row (4 decimals) per corporation, in ``keys`` order, whose fit chose better
    than greedy on its held-out games; the others get no row, so their bots play
    greedy's own values.
    """
    helped = {r["corporation"] for r in report["held_out"] if helps(r)}
    used = [k for k in keys if k in helped]
    cells = [report["tables"][k]["cell"] for k in used]
    contexts = [report["tables"][k]["context"] for k in used]
    return {
        "corporations": np.array(used, dtype=str),
        "cell": fitted.rounded(cells).reshape(
            len(used), len(TRACKS), POSITIONS, PHASES
        ),
        "context": fitted.rounded(contexts).reshape(
            len(used), len(TRACKS), len(CONTEXT)
        ),
    }


def held_out_row(corporation: str, records: Sequence[Record], table: Record) -> Record:
    """Greedy's regret and the fit's on held-out games.

    Fitted on the games whose index is not a multiple of 4, compared on the
    others.
    """
    train = [r for r in records if r["game"] % 4]
    test = [r for r in records if not r["game"] % 4]
    return {
        "corporation": corporation, "decisions": len(records), "held_out": len(test),
        "regret_greedy": regret(test), "regret_fitted": regret(test, fit(train)),
        "greedy_coef": table["greedy_coef"],
    }  # fmt: skip


def report_text(
    n_games: int, n_base: int, rollouts: int, seed: int, command: str, result: Record
) -> str:
    """The README: per corporation, the held-out regrets and whether it is used."""
    rows = result["held_out"]
    return "\n".join([
        "# Track values fitted to rollouts", "",
        f"Solo games per corporation: {n_games} ({BASE_CORPORATION}: {n_base}), "
        f"{rollouts} rollouts per option "
        f"(seed {seed}): `{command}`. Rollouts and decisions by greedy_tuned "
        "with track_fit 0. Regret: mean medals lost against the best option by "
        "rollouts, on held-out games (index multiple of 4), choosing by greedy's "
        "value alone or by the values fitted on the other games.", "",
        "| corporation | decisions | held out | regret greedy | regret fitted "
        "| greedy coefficient | in the fitted table |",
        "|---|---|---|---|---|---|---|",
        *(f"| {r['corporation']} | {r['decisions']:,} | {r['held_out']:,} "
          f"| {r['regret_greedy']:.3f} | {r['regret_fitted']:.3f} "
          f"| {r['greedy_coef']:.3f} | {'yes' if helps(r) else 'no (0)'} |"
          for r in rows),
        "", "The regret includes the rollouts' own noise (the best of noisy means),",
        "so only the difference between the two columns measures the fit.", "",
    ])  # fmt: skip
