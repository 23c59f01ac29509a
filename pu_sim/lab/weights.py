"""Greedy weights fitted to rollouts: a policy-improvement step for a preset.

Solo games are played by the preset.  At every decision with more than one
move, the greedy's best ``TOP`` moves are each valued by Monte Carlo rollouts
(:mod:`pu_sim.lab.rollouts`).  What each weight contributes to a
move's value is measured by finite differences of the greedy's own values
(``GameState.greedy_values``), so a weight that scales a product (``track``
scales the benefits) gets its local slope.  A ridge fit within each decision
explains the rollout values by the greedy value (one coefficient per decision
type) plus one coefficient per weight, shared by every decision type;
coefficient / the placement's greedy coefficient is the direction in which
each weight should move.  A line search over step sizes, each candidate in
paired solo games against the preset, keeps the best step if it beats the
preset; the gain is re-measured on fresh games, so the line search's choice
does not flatter it.

Why not only the cross-entropy search (:mod:`pu_sim.lab.tuning`): it
sees one number per candidate (a mean score), so 25 weights cost it tens of
thousands of games per generation; a rollout fit sees every decision's
alternatives.  ``noise``, ``track_fit``, ``place_fit``, ``neighbour`` and
``look_width`` are left alone (noise is not a value; track_fit and place_fit
scale fitted tables; solo games have no neighbour cards; look_width is how
far the bot looks, not what it values).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pu_sim import bots
from pu_sim.analysis.stats import within_group_ridge
from pu_sim.bots import GREEDY_WEIGHTS
from pu_sim.engine.core import engine_version
from pu_sim.game import Game
from pu_sim.lab.common import in_chunks, paired, play_records
from pu_sim.lab.rollouts import decisions, rollout_values, top_moves
from pu_sim.lab.tuning import COUNTS
from pu_sim.simulation.seeds import SeedLike, derive
from pu_sim.simulation.table import TableSetup

TOP = 4  # greedy's best moves valued per decision
RIDGE = 30.0  # on standardized features
ALPHAS = (0.1, 0.2, 0.4, 0.6, 0.8, 1.0)  # step sizes tried by the line search
FIXED = ("noise", "track_fit", "place_fit", "neighbour", *COUNTS)
FITTED = tuple(n for n in GREEDY_WEIGHTS if n not in FIXED)
SLOTS = tuple(list(GREEDY_WEIGHTS).index(n) for n in FITTED)  # in the vector
REFERENCE = "place"  # the decision type whose greedy coefficient sets the scale

Floats = npt.NDArray[np.float64]
Record = dict[str, Any]
Weights = dict[str, float]
Table = tuple[str, str]  # (corporations, planets): a key or "random"


def collect(
    games: range, weights: Weights, rollouts: int, seed: SeedLike, table: Table
) -> list[Record]:
    """Every non-trivial decision of the games: the top moves' features and values."""
    bot = bots.greedy("fit", **weights)
    base = bot.vector()
    records = []
    for index in games:
        game = Game(players=1, corporations=table[0], planets=table[1], bots=bot,
                    seed=seed, game_index=index)  # fmt: skip
        for moves in decisions(game):
            record = measure(game, moves, base, rollouts, index)
            if record is not None:
                records.append(record)
    return records


def measure(
    game: Game, moves: list[int], base: Floats, rollouts: int, index: int
) -> Record | None:
    """The decision's top moves with weight slopes and rollout values.

    None if no weight tells them apart: nothing to fit.
    """
    value = np.asarray(game.state.greedy_values(base))
    top = top_moves(value, TOP)
    slopes = np.empty((len(top), len(FITTED)))
    for j, i in enumerate(SLOTS):
        step = max(0.1 * abs(base[i]), 0.05)
        w = base.copy()
        w[i] += step
        slopes[:, j] = (
            np.asarray(game.state.greedy_values(w))[top] - value[top]
        ) / step
    if np.abs(slopes - slopes[0]).max() < 1e-9:
        return None
    outcomes = rollout_values(game, [moves[k] for k in top], rollouts, index)
    return {
        "game": index, "decision": game.decision, "greedy": value[top],
        "slopes": slopes, "value": np.asarray(outcomes),
    }  # fmt: skip


def design(r: Record, types: Sequence[str]) -> Floats:
    """Columns: greedy value in its decision type's column, then the slopes."""
    x = np.zeros((len(r["greedy"]), len(types) + len(FITTED)))
    x[:, types.index(r["decision"])] = r["greedy"]
    x[:, len(types) :] = r["slopes"]
    return x


def fit(records: Sequence[Record], types: Sequence[str]) -> Floats:
    """Ridge fit (standardized columns) of rollout values, demeaned per decision."""
    groups = [(design(r, types), r["value"]) for r in records]
    return within_group_ridge(groups, RIDGE, standardize=True)


def regret(
    records: Sequence[Record], types: Sequence[str], beta: Floats | None
) -> float:
    """Mean rollout value lost against the decision's best top move.

    Choosing by greedy's value (beta None) or by the fit.
    """
    lost = [
        r["value"].max()
        - r["value"][0 if beta is None else int(np.argmax(design(r, types) @ beta))]
        for r in records
    ]
    return float(np.mean(lost)) if lost else float("nan")


def stepped(weights: Mapping[str, float], direction: Mapping[str, float],
            alpha: float) -> Weights:  # fmt: skip
    """Weights + alpha x direction, rounded to 4 digits and kept non-negative."""
    return {
        n: round(max(0.0, w + alpha * direction.get(n, 0.0)), 4)
        if n in direction
        else w
        for n, w in weights.items()
    }


def solo_scores(
    weights: Mapping[str, float], n_games: int, seed: SeedLike, table: Table
) -> Floats:
    """Scores of `n_games` solo games (same seeds give the same games)."""
    bot = bots.greedy("fit", **weights)
    setup = TableSetup(players=1, corporations=table[0], planets=table[1], bots=bot)
    return np.asarray(play_records(setup, n_games, seed)["score"], dtype=np.float64)


def iteration(weights: Weights, config: Any, jobs: int, k: int) -> Record:
    """One collect-fit-line-search step from `weights`.

    config: the script's n_games, rollouts, validate, seed, corporations and
    planets.
    """
    seed = derive(config.seed, "weights", k)
    table = (config.corporations, config.planets)
    started = time.perf_counter()
    parts = in_chunks(collect, config.n_games, jobs, weights, config.rollouts, seed,
                      table, parts=4 * jobs)  # fmt: skip
    records = [r for part in parts for r in part]
    types = sorted({r["decision"] for r in records} | {REFERENCE})
    train = [r for r in records if r["game"] % 4]
    test = [r for r in records if not r["game"] % 4]
    held_out = fit(train, types)
    beta = fit(records, types)
    reference = beta[types.index(REFERENCE)]
    direction = {
        n: float(beta[len(types) + j] / reference) for j, n in enumerate(FITTED)
    }
    by_type = []
    for i, t in enumerate(types):
        held = [r for r in test if r["decision"] == t]
        by_type.append({
            "decision": t, "decisions": sum(r["decision"] == t for r in records),
            "greedy_coef": round(float(beta[i]), 4),
            "regret_greedy": regret(held, types, None),
            "regret_fitted": regret(held, types, held_out),
        })  # fmt: skip
    collect_s = time.perf_counter() - started
    base = solo_scores(weights, config.validate, seed.child("line_search"), table)
    search = []
    for alpha in ALPHAS:
        candidate = stepped(weights, direction, alpha)
        diff, half = paired(
            solo_scores(candidate, config.validate, seed.child("line_search"), table),
            base,
        )
        search.append({"alpha": alpha, "diff": diff, "half_width": half})
    best = max(search, key=lambda s: s["diff"])
    new = stepped(weights, direction, best["alpha"])
    fresh_seed = seed.child("fresh")
    fresh = paired(
        solo_scores(new, config.validate, fresh_seed, table),
        solo_scores(weights, config.validate, fresh_seed, table),
    )
    accepted = fresh[0] - fresh[1] > 0
    return {
        "iteration": k, "seed": seed.label, "games": config.n_games,
        "decisions": len(records),
        "held_out_decisions": len(test), "collect_seconds": round(collect_s, 1),
        "by_type": by_type, "direction": direction, "line_search": search,
        "alpha": best["alpha"], "fresh_diff": fresh[0], "fresh_half_width": fresh[1],
        "accepted": accepted, "before": weights, "after": new if accepted else weights,
    }  # fmt: skip


def report_text(report: Record, command: str) -> str:
    """The README: one section per iteration, then the weights."""
    lines = ["# Greedy weights fitted to rollouts", "",
             f"`{command}` (engine {engine_version()}). "
             f"Preset `{report['preset']}`, solo games (corporations "
             f"{report['corporations']}, planets {report['planets']}); {TOP} top "
             f"moves per decision, {report['rollouts']} rollouts each; line search and "
             f"re-measure on {report['validate']:,} paired solo games each.",
             ""]  # fmt: skip
    for it in report["iterations"]:
        lines += [
            f"## Iteration {it['iteration']}", "",
            f"{it['decisions']:,} decisions from {it['games']:,} games (seed "
            f"{it['seed']}), collected in {it['collect_seconds'] / 60:.1f} min. "
            "Regret: mean rollout value lost against the best of the top moves, "
            "on held-out games (index multiple of 4), choosing by greedy's value "
            "or by the fit on the other games (both include the rollouts' noise; "
            "only their difference measures the fit).", "",
            "| decision | decisions | greedy coefficient | regret greedy "
            "| regret fitted |",
            "|---|---|---|---|---|",
            *(f"| {t['decision']} | {t['decisions']:,} | {t['greedy_coef']:.3f} "
              f"| {t['regret_greedy']:.3f} | {t['regret_fitted']:.3f} |"
              for t in it["by_type"]),
            "", "| step | paired solo difference |", "|---|---|",
            *(f"| {s['alpha']} | {s['diff']:+.2f} ± {s['half_width']:.2f} |"
              for s in it["line_search"]),
            "", f"Best step {it['alpha']}; on fresh games "
            f"{it['fresh_diff']:+.2f} ± {it['fresh_half_width']:.2f} medals: "
            f"{'accepted' if it['accepted'] else 'rejected'}.", "",
        ]  # fmt: skip
    first, last = report["iterations"][0]["before"], report["weights"]
    lines += ["## Weights", "", "| weight | before | after |", "|---|---|---|",
              *(f"| {n} | {first[n]} | {last[n]} |"
                for n in GREEDY_WEIGHTS if n in last),
              ""]  # fmt: skip
    return "\n".join(lines)


def unknown_weights(start: Mapping[str, float]) -> str | None:
    """An error naming the weights ``start`` sets that greedy does not have."""
    unknown = sorted(set(start) - set(GREEDY_WEIGHTS))
    if unknown:
        return f"--start: unknown weights {unknown}; valid: {list(GREEDY_WEIGHTS)}"
    return None


def fit_weights(config: Any, jobs: int) -> tuple[list[Record], Weights]:
    """``config.iterations`` steps from the preset's weights.

    The preset's weights ("greedy": the defaults) changed by ``config.start`` (a
    weight the preset does not name takes greedy's default); returns the
    iterations and the weights they end on.
    """
    preset = bots.PRESETS.get(config.preset, {})  # "greedy": the defaults
    weights = {**GREEDY_WEIGHTS, **preset, **config.start}
    iterations = []
    for k in range(config.iterations):
        iterations.append(iteration(weights, config, jobs, k))
        weights = iterations[-1]["after"]
        keys = ("iteration", "decisions", "alpha", "fresh_diff", "accepted")
        print({key: iterations[-1][key] for key in keys}, flush=True)
    return iterations, weights
