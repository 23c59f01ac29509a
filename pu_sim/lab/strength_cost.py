"""What each part of the learned bot costs and buys.

greedy_learned is greedy_tuned plus costly parts: the endgame rollouts (solo),
the learned planet value (which keeps greedy's best 12 placements valued in
full; with 1 and 2 players) and the commander's learned rotation value (each
kept rotation's round played out, 3+ players).  Each variant here drops,
narrows or widens one of them and is measured against greedy_learned on the
boards the studies play (random corporations and planets):

- speed: games per second on one core, solo and at 4 players (best of a few
  runs, the same games for every variant);
- solo strength: its mean score minus greedy_learned's on the same seeds
  (paired), with a 95% interval;
- 4-player strength: one variant seat among three greedy_learned seats, every
  cyclic seat order on each setup; the share of its opponents it finished
  ahead of (ties half), 50% being even, its interval over setups (a setup's
  four games one cluster).

A part that cannot act in a setting (the endgame rollouts at 4 players, the
rotation at 1) is not measured there: the variant plays as greedy_learned
(its speed-up is 1 and its strength greedy_learned's).
Strong play at speed needs a variant several times faster within 0.2 solo
points and 1 point of 4-player share; this map says where the time goes and
what it buys.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.lab.common import BOARDS, game_scores, paired, share_row
from pu_sim.report import plots
from pu_sim.simulation.in_memory import play_range
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.table import TableSetup

Floats = npt.NDArray[np.float64]
Row = dict[str, Any]

REFERENCE = "greedy_learned"


SOLO, MULTI = "solo", "4p"
VARIANTS: Mapping[str, tuple[str, Mapping[str, float], tuple[str, ...]]] = {
    # name: (what it changes, weights over greedy_learned's, where it can act)
    "no_end_rollouts": ("the endgame chain instead of its rollouts (solo)",
                        {"end_redeals": 0.0}, (SOLO,)),
    "end_redeals_2": ("2 redeals a rollout option instead of 3 (solo)",
                      {"end_redeals": 2.0}, (SOLO,)),
    "no_other_rollouts": ("no rollouts of the decisions other than placements",
                          {"end_other_rounds": 0.0}, (SOLO,)),
    "no_ntuple": ("no learned planet value (it counts with 1-2 players)",
                  {"ntuple": 0.0}, (SOLO,)),
    "ntuple_every_count": ("the learned planet value at every player count",
                           {"ntuple_players": 0.0}, (MULTI,)),
    "no_rotation_round": ("the depot rule alone for the commander's rotation",
                          {"rotation_round": 0.0}, (MULTI,)),
    "deny_every_count": ("the deny at every player count (3 only)",
                         {"rotation_deny_players": 0.0}, (MULTI,)),
    "rotation_width_2": ("2 rotations' rounds played out instead of 4",
                         {"rotation_width": 2.0}, (MULTI,)),
    "rotation_width_3": ("3 rotations' rounds played out", {"rotation_width": 3.0},
                         (MULTI,)),
    "rotation_width_6": ("all 6 rotations' rounds played out",
                         {"rotation_width": 6.0}, (MULTI,)),
}  # fmt: skip
"""The variants of greedy_learned measured, each one change."""


def variant(name: str) -> BotSpec:
    """greedy_learned with one variant's weights (labelled with its name)."""
    return bots.greedy(name, **{**bots.PRESETS[REFERENCE], **VARIANTS[name][1]})


def solo_scores(bot: BotSpec, n: int, seed: int, jobs: int) -> Floats:
    """Scores of n solo games on random boards (game i: the same setup)."""
    return game_scores([bot], n, seed, jobs, boards="random")[:, 0]


def games_per_second(bot: BotSpec, players: int, games: int, repeats: int) -> float:
    """Best-of-`repeats` games/s of one core call (the same games each time)."""
    plan = Plan.of(TableSetup(players=players, bots=bot, **BOARDS["random"]), seed=1)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        play_range(plan, 0, games)
        best = min(best, time.perf_counter() - start)
    return games / best


def study(config: Any, jobs: int) -> Row:
    """Every variant's speed and strength beside greedy_learned's and greedy_tuned's.

    ``config``: solo_games, setups, speed_games (solo; a quarter at 4
    players), repeats and seed.
    """
    c = config
    reference = bots.parse(REFERENCE)
    tuned = bots.parse("greedy_tuned")
    games = {SOLO: (1, c.speed_games), MULTI: (4, max(1, c.speed_games // 4))}
    every = {"greedy_tuned": (SOLO, MULTI), **{v: VARIANTS[v][2] for v in VARIANTS}}
    speed = {
        b.label: {where: games_per_second(b, *games[where], c.repeats)
                  for where in every.get(b.label, (SOLO, MULTI))}
        for b in (reference, tuned, *(variant(v) for v in VARIANTS))
    }  # fmt: skip
    base_solo = solo_scores(reference, c.solo_games, c.seed, jobs)
    rows = []
    for name, (what, _, where) in {
        **VARIANTS,
        "greedy_tuned": ("greedy_tuned (none of the learned parts)", {}, (SOLO, MULTI)),
    }.items():
        bot = tuned if name == "greedy_tuned" else variant(name)
        row: Row = {"variant": name, "what": what, "acts": list(where),
                    "speed": speed[name]}  # fmt: skip
        if SOLO in where:
            solo = solo_scores(bot, c.solo_games, c.seed, jobs)
            row["solo"] = dict(zip(("diff", "half_width"), paired(solo, base_solo),
                                   strict=True))  # fmt: skip
        if MULTI in where:
            share = share_row(bot, reference, 4, c.setups, c.seed, jobs,
                              boards="random")  # fmt: skip
            row["share"] = {k: share[k] for k in ("ahead", "half_width")}
        rows.append(row)
    return {"reference": {"speed": speed[REFERENCE],
                          "solo_mean": float(base_solo.mean())},
            "rows": rows, "solo_games": c.solo_games, "setups": c.setups,
            "seed": c.seed}  # fmt: skip


def speedup(row: Row, reference: Row, where: str) -> float:
    """The variant's games/s over greedy_learned's, in one setting it acts in."""
    return float(row["speed"][where] / reference["speed"][where])


def _speedup_text(row: Row, reference: Row, where: str) -> str:
    return f"{speedup(row, reference, where):.2f}" if where in row["acts"] else "1"


def figure(results: Row) -> Figure:
    """Strength change against speed-up, solo and at 4 players."""
    with plots.report_style():
        fig = Figure(figsize=(10.0, 4.4), layout="constrained")
        _panel(fig.add_subplot(1, 2, 1), results, SOLO)
        _panel(fig.add_subplot(1, 2, 2), results, MULTI)
    return fig


def _panel(ax: Any, results: Row, where: str) -> None:
    """One setting's variants: strength change (95% interval) against speed-up.

    With the even line and the 4x target line.
    """
    solo = where == SOLO
    points = []
    for row in results["rows"]:
        if where not in row["acts"]:
            continue
        if solo:
            y, h = row["solo"]["diff"], row["solo"]["half_width"]
        else:
            y, h = 100 * row["share"]["ahead"], 100 * row["share"]["half_width"]
        points.append((speedup(row, results["reference"], where), y, h, row["variant"]))
    for k, (x, y, h, name) in enumerate(sorted(points)):
        ax.errorbar([x], [y], yerr=[h], fmt="o", color="#1f4e79", capsize=3)
        # neighbours by speed alternate above and below, so close points' names
        # do not overlap
        left = x < 1.0  # names go towards the middle, never over an axis
        ax.annotate(name, (x, y), fontsize=7, ha="left" if left else "right",
                    xytext=(5 if left else -5, 6 if k % 2 else -11),
                    textcoords="offset points")  # fmt: skip
    ax.axhline(0.0 if solo else 50.0, color="grey", lw=0.8)
    ax.axvline(4.0, color="#b03a2e", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.minorticks_off()
    ax.set_xticks(SPEED_TICKS, [f"{t:g}" for t in SPEED_TICKS])
    ax.set_xlim(0.5, 5.0)
    ax.set_xlabel("speed-up over greedy_learned (x, log scale)")
    ax.set_ylabel("solo points vs greedy_learned (paired)" if solo
                  else "share of greedy_learned opponents beaten (%)")  # fmt: skip
    ax.set_title("solo" if solo else "4 players")


SPEED_TICKS = (0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)
"""The speed-up axis' ticks (a log scale reads as powers of ten otherwise)."""

SOLO_TOLERANCE = 0.2
"""Solo points a variant may lose and still be the same strength."""
SHARE_TOLERANCE = 0.01
"""4-player share a variant may lose (below 50%) and still be the same strength."""


def same_strength(row: Row) -> bool:
    """Within the tolerances wherever the variant acts (point estimates)."""
    solo = "solo" not in row or row["solo"]["diff"] >= -SOLO_TOLERANCE
    share = "share" not in row or row["share"]["ahead"] >= 0.5 - SHARE_TOLERANCE
    return solo and share


def _strength(row: Row, key: str) -> str:
    if key not in row:
        return "as greedy_learned"
    if key == "solo":
        return f"{row['solo']['diff']:+.2f} ± {row['solo']['half_width']:.2f}"
    return (
        f"{100 * row['share']['ahead']:.1f}% ± {100 * row['share']['half_width']:.1f}"
    )


def report_text(results: Row, command: str) -> str:
    """The report's Markdown: the table and what it says."""
    ref = results["reference"]
    lines = [
        "# What the learned bot's parts cost and buy",
        "",
        f"Command: `{command}`.",
        "",
        f"Random corporations and planets.  Solo: {results['solo_games']:,} seeds "
        "played by each variant and by greedy_learned (paired, 95% interval).  "
        f"4 players: {results['setups']:,} setups, one variant seat among three "
        "greedy_learned seats in each of the four cyclic seat orders; the share "
        "of opponents it finished ahead of (ties half; 50% is even; interval "
        "over setups).  Speed: games per second on one core; greedy_learned "
        f"played {ref['speed'][SOLO]:.0f} solo games/s and "
        f"{ref['speed'][MULTI]:.0f} 4-player games/s here, with greedy_learned's "
        f"solo mean {ref['solo_mean']:.2f} on these seeds.",
        "",
        "| variant | what it changes | solo x speed | solo points vs greedy_learned "
        "| 4p x speed | 4p share of greedy_learned opponents beaten "
        "| same strength |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        lines.append(
            f"| {row['variant']} | {row['what']} | {_speedup_text(row, ref, SOLO)} | "
            f"{_strength(row, 'solo')} | {_speedup_text(row, ref, MULTI)} | "
            f"{_strength(row, 'share')} | {'yes' if same_strength(row) else 'no'} |"
        )
    lines += [
        "",
        f"*Same strength* means within {SOLO_TOLERANCE} solo points and "
        f"{100 * SHARE_TOLERANCE:.0f} point of 4-player share of greedy_learned "
        "(point estimates) wherever the variant acts; strong play at speed asks "
        "for 4x the speed at the same strength (the dashed line).",
        "",
        "![strength against speed](figures/strength_cost.png)",
        "",
    ]
    return "\n".join(lines)
