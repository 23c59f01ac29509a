"""Track values: what advancing each tracker is worth, fitted to rollouts.

At every choice among trackers (synergy boost, energy, a card's "advance one")
in solo games of each corporation, every option is valued by Monte Carlo
rollouts: the game is determinized for the player, the option applied and the
game played to the end by the same greedy bot, R times with common random
numbers.  A least-squares fit within each decision explains the rollout values
by one number per (track, tracker position, third of the game) and, per track,
a linear term in the player's context (``Game.track_context``: lifepods and
how near the rovers they are, rovers, covered squares, civ cards, tech level,
meteorites, the five tracker positions), next to greedy's own value of the
option; ridge-regularized on standardized columns.  Divided by greedy's
coefficient, the fitted numbers are in greedy's own units: the ``track_fit``
fitted table (written by this script with ``--write``; a row per corporation
whose fit chose better on held-out games, none for the others, which then play
greedy's own values), which the greedy bot adds to its track choices scaled by
its ``track_fit`` weight (1: the fit's own scale).
Games whose index is a multiple of 4 are held out: the report compares the
regret (best rollout value minus the chosen option's) of greedy alone and of
the fitted values on them.

The base game's corporation (Universal Coalition, the solo target's game)
gets ``--base-games`` games, the others ``--games``.  The rollouts use
greedy_tuned with ``track_fit`` 0, so the tables do not depend on themselves;
re-run whenever the greedy bot changes.

Usage: ``python experiments/track_values.py [--games N] [--base-games N]
[--rollouts R] [--seed S] [--jobs J] [--corporations KEY ...] [--write]
[--tables DIR] [--out reports] [--smoke]``
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed

from pu_sim._core import ENGINE_VERSION
from pu_sim.analysis.stats import within_group_ridge
from pu_sim.bots import fitted
from pu_sim.bots.chance_tables import policy_without, table_parser, write_if_asked
from pu_sim.game import Game
from pu_sim.rules import load_rules
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


def collect(corporation: str, games: range, rollouts: int, seed: int) -> list[Record]:
    """Every track choice of the games, with each option's mean rollout value."""
    bot = policy_without("track_fit")  # the policy served
    records = []
    for index in games:
        game = Game(1, corporations=corporation, bots=bot, seed=seed, game_index=index)
        while not game.is_terminal:
            moves = game.legal_moves()
            if game.decision in CHOICES and len(moves) > 1:
                names = [game.describe(m).split() for m in moves]
                if all(n[0] == "advance" and n[-1] in TRACKS for n in names):
                    tracks = [TRACKS.index(n[-1]) for n in names]
                    at = game.tracks(0)
                    values = [game.rollout_value(m, rollouts, index * 100_000)
                              for m in moves]  # fmt: skip
                    records.append({
                        "game": index, "round": game.fields()["round"],
                        "track": tracks,
                        "pos": [min(at[TRACKS[t]], POSITIONS - 1) for t in tracks],
                        "context": game.track_context(0),
                        "greedy": game.greedy_values(bot), "value": values,
                    })  # fmt: skip
            game.apply(game.bot_move())
    return records


def features(r: Record, i: int) -> Floats:
    """Option i of decision r: track x position x phase, track x context."""
    f = np.zeros(N_CELLS + len(TRACKS) * len(CONTEXT))
    t = r["track"][i]
    f[(t * POSITIONS + r["pos"][i]) * PHASES + phase(r["round"])] = 1.0
    f[N_CELLS + t * len(CONTEXT) : N_CELLS + (t + 1) * len(CONTEXT)] = r["context"]
    return f


def fit(records: Sequence[Record]) -> Record:
    """Ridge fit of the rollout values, demeaned within each decision; the
    table in greedy's units (divided by greedy's own coefficient), all 0 when
    greedy's coefficient is not positive."""
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
    """Mean of (best rollout value - value of the option picked by greedy's value,
    or with `table` by greedy's value plus the table's)."""
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
    """Does the fit choose better than greedy alone on the held-out games?"""
    return bool(row["regret_fitted"] < row["regret_greedy"])


def table_arrays(report: Record, keys: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    """The track_fit table from a report: a row (4 decimals) per corporation, in
    ``keys`` order, whose fit chose better than greedy on its held-out games;
    the others get no row, so their bots play greedy's own values."""
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


def main(argv: Sequence[str] | None = None) -> int:
    keys = [c.key for c in load_rules().data.corporations]
    parser = table_parser(
        __doc__.splitlines()[0],
        77,
        "track_fit",
        games=200,
        games_help="per corporation",
    )
    parser.add_argument(
        "--base-games", type=int, help=f"games of {BASE_CORPORATION} (default: --games)"
    )
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--corporations", nargs="+", default=keys, choices=keys)
    args = parser.parse_args(argv)
    n_games, rollouts = (4, 2) if args.smoke else (args.games, args.rollouts)
    n_base = n_games if args.smoke or args.base_games is None else args.base_games
    tasks = []
    for corp in args.corporations:
        n = n_base if corp == BASE_CORPORATION else n_games
        chunk = max(1, n // 20)
        tasks += [(corp, range(s, min(n, s + chunk))) for s in range(0, n, chunk)]
    parts = Parallel(n_jobs=args.jobs)(
        delayed(collect)(c, games, rollouts, args.seed) for c, games in tasks
    )
    command = (f"python experiments/track_values.py --games {n_games} "
               f"--base-games {n_base} --rollouts {rollouts} --seed {args.seed} "
               "--write")  # fmt: skip
    tables, rows = {}, []
    for corp in args.corporations:
        records = [
            r
            for (c, _), part in zip(tasks, parts, strict=True)
            if c == corp
            for r in part
        ]
        train = [r for r in records if r["game"] % 4]
        test = [r for r in records if not r["game"] % 4]
        tables[corp] = fit(records)
        held_out = fit(train)
        rows.append({
            "corporation": corp, "decisions": len(records), "held_out": len(test),
            "regret_greedy": regret(test),
            "regret_fitted": regret(test, held_out),
            "greedy_coef": tables[corp]["greedy_coef"],
        })  # fmt: skip
        print(rows[-1], flush=True)
    out = (
        args.out
        / "track_values"
        / ("smoke" if args.smoke else f"{n_games}-games-seed-{args.seed}")
    )
    out.mkdir(parents=True, exist_ok=True)
    report = {"engine_version": ENGINE_VERSION, "command": command, "ridge": RIDGE,
              "tables": tables, "held_out": rows}  # fmt: skip
    (out / "track_values.json").write_text(json.dumps(report, indent=1))
    lines = [
        "# Track values fitted to rollouts", "",
        f"Solo games per corporation: {n_games} ({BASE_CORPORATION}: {n_base}), "
        f"{rollouts} rollouts per option "
        f"(seed {args.seed}): `{command}`. Rollouts and decisions by greedy_tuned "
        "with track_fit 0. Regret: mean medals lost against the best option by "
        "rollouts, on held-out games (index multiple of 4), choosing by greedy's "
        "value alone or by the values fitted on the other games.", "",
        "| corporation | decisions | held out | regret greedy | regret fitted "
        "| greedy coefficient | in the core's table |",
        "|---|---|---|---|---|---|---|",
        *(f"| {r['corporation']} | {r['decisions']:,} | {r['held_out']:,} "
          f"| {r['regret_greedy']:.3f} | {r['regret_fitted']:.3f} "
          f"| {r['greedy_coef']:.3f} | {'yes' if helps(r) else 'no (0)'} |"
          for r in rows),
        "", "The regret includes the rollouts' own noise (the best of noisy means),",
        "so only the difference between the two columns measures the fit.", "",
    ]  # fmt: skip
    (out / "README.md").write_text("\n".join(lines))
    write_if_asked(args, "track_fit", table_arrays(report, keys), fitted.Provenance(
        command=command, seed=args.seed, engine_version=ENGINE_VERSION,
        report=out.as_posix(),
        notes="Corporations whose fit chose worse than greedy on their held-out "
        "games have no row (zeros)."))  # fmt: skip
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
