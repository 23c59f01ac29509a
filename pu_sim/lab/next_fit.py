"""The next-tile lookahead: what greedy's ``next_fit`` weight is worth.

Greedy values the next round's tiles on the planet each placement leaves
(pu_sim/core/bots/greedy_next_fit.pxi).

Two measurements:

1. Offline, on the preset's own solo base games without the lookahead: at every
   placement its best 4 options are valued by rollouts on common random numbers,
   and by greedy's best value for the next depot's tiles on the planet each
   leaves (:func:`next_tiles_value`, the core's lookahead re-derived through the
   engine's API).  For each weight, choosing by greedy's value + weight x that
   value (centred over the options) gains so many rollout medals a decision over
   greedy's own choice.
2. Paired solo games: the preset at each weight against the preset without the
   lookahead, on the base game and on random corporations and planets.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

import pu_sim
from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.engine.core import engine_version
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab.common import paired
from pu_sim.lab.rollouts import decisions, rollout_values, top_moves

KEPT = 4
"""Greedy-best placements valued by rollouts per decision."""
OFFLINE_WEIGHTS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5)
PAIRED_WEIGHTS = (0.25, 0.5, 0.75, 1.0)
THIRDS = ((1, 7), (8, 14), (15, 99))
TARGET = 59
"""The rulebook's solo target for the balanced 7/7/6 event deck."""

Row = dict[str, Any]
Floats = npt.NDArray[np.float64]


def without_lookahead(preset: str) -> BotSpec:
    """The preset ("greedy": the defaults) with next_fit 0: the policy watched."""
    return bots.greedy(preset, **{**bots.PRESETS.get(preset, {}), "next_fit": 0.0})


def next_tiles_value(game: Game, move: int, bot: BotSpec) -> float | None:
    """Greedy's value of its move with the next depot's tiles after ``move``.

    ``bot`` plays without the lookahead and, as in the core, without the fitted
    placement table (place_fit); None if no tile can be placed on the
    planet ``move`` leaves.
    """
    choice = next_choice(game, move, bot)
    return None if choice is None else choice[0]


def next_and_after(game: Game, move: int, bot: BotSpec) -> tuple[float, float] | None:
    """Greedy's values with the next depot's tiles and with the depot after's.

    The first is :func:`next_tiles_value`; the second greedy's best value for
    the depot after's once its choice from the next one is placed (0 if none
    can be placed).  None if no next tile can be placed.
    """
    choice = next_choice(game, move, bot)
    if choice is None:
        return None
    value, after, chosen = choice
    later = next_tiles_value(after, chosen, bot)
    return value, (later or 0.0)


def next_choice(game: Game, move: int, bot: BotSpec) -> tuple[float, Game, int] | None:
    """Greedy's choice from the next depot's tiles after ``move``.

    Its value, the game it is chosen in and the move; None if no next tile
    can be placed.

    As the core: the move is carried out without resolving its resources, the
    station turns one depot clockwise (SS-6) and the draft starts for player 0.
    In the last round (9.1) no next depot is played: None.
    """
    fields = game.fields()
    if fields["last_round"]:
        return None
    after = game.copy()
    after.state.apply_only(move)
    after.state.set_game_int("rotation", (fields["rotation"] + 5) % 6)
    if tuple(after.state.depot_tiles(0)) == (None, None):
        return None
    after.state.start_draft(0)  # the next round's draft, on the copy
    if after.decision != "place":
        return None
    inner = bots.greedy("inner", **{**bot.params, "place_fit": 0.0})
    values = np.asarray(probes.greedy_values(after, inner))
    best = int(np.argmax(values))  # the first on a tie, as the core
    return float(values[best]), after, after.legal_moves()[best]


def deep_counts(game: Game) -> bool:
    """The depot after next counts: not when the next round is the last.

    The round that reveals the event deck's last card is the last (9.1 C).
    """
    fields = game.fields()
    return not (fields["events_on"] and len(fields["deck"]) <= 1)


def collect(games: range, preset: str, rollouts: int, seed: int) -> list[Row]:
    """Placement decisions of solo base games, for the offline measurement.

    Per decision: the round, greedy's values of its best KEPT placements, their
    next-tile values and rollout means.
    """
    bot = without_lookahead(preset)
    out: list[Row] = []
    for index in games:
        game = Game(players=1, bots=bot, seed=seed, game_index=index)
        for moves in decisions(game, ("place",)):
            values = probes.greedy_values(game, bot)
            kept = top_moves(values, KEPT)
            ahead = [next_tiles_value(game, moves[i], bot) for i in kept]
            out.append({
                "round": game.fields()["round"],
                "greedy": [float(values[i]) for i in kept],
                "ahead": [np.nan if v is None else v for v in ahead],
                "value": rollout_values(
                    game, [moves[i] for i in kept], rollouts, index
                ),
            })  # fmt: skip
    return out


def choice_gains(records: Sequence[Row], weight: float) -> Floats:
    """Rollout medals a decision gained over greedy's choice, per decision.

    The choice: by greedy + weight x the centred next-tile value (over the
    options that have one, if 2 or more); exact ties count as the tied options'
    mean, as the bot breaks them at random.
    """
    gains = []
    for r in records:
        greedy, value = np.asarray(r["greedy"]), np.asarray(r["value"])
        ahead = np.asarray(r["ahead"])
        known = ~np.isnan(ahead)
        shift = np.zeros(len(greedy))
        if known.sum() >= 2:
            shift[known] = ahead[known] - ahead[known].mean()
        score = greedy + weight * shift
        chosen = score >= score.max() - 1e-9
        top = greedy >= greedy.max() - 1e-9
        gains.append(value[chosen].mean() - value[top].mean())
    return np.asarray(gains)


def offline_rows(records: Sequence[Row]) -> list[Row]:
    """Per weight: the gain a decision (95% interval) and by third of the game."""
    rows = []
    for w in OFFLINE_WEIGHTS:
        mean, half = paired(choice_gains(records, w), 0.0)
        row: Row = {"weight": w, "gain": mean, "half_width": half}
        for lo, hi in THIRDS:
            part = [r for r in records if lo <= r["round"] <= hi]
            gain = float(choice_gains(part, w).mean()) if part else 0.0
            row[f"rounds_{lo}_{hi}"] = gain
        rows.append(row)
    return rows


def solo_scores(
    preset: str, weight: float, n: int, seed: int, jobs: int, boards: str
) -> Floats:
    """Solo scores of the preset at next_fit `weight`, by game id."""
    bot = bots.greedy(preset, **{**bots.PRESETS.get(preset, {}), "next_fit": weight})
    kw: Row = ({} if boards == "base" else
               {"corporations": "random", "planets": "random"})  # fmt: skip
    frame = pu_sim.simulate(n, players=1, bots=bot, seed=seed, n_jobs=jobs, **kw)
    return np.asarray(frame.sort("game_id")["score"].to_numpy(), dtype=np.float64)


def paired_rows(preset: str, n: int, seed: int, jobs: int) -> list[Row]:
    """Solo games at each weight, paired with the preset without the lookahead."""
    rows = []
    for boards in ("base", "random"):
        base = solo_scores(preset, 0.0, n, seed, jobs, boards)
        for w in PAIRED_WEIGHTS:
            s = solo_scores(preset, w, n, seed, jobs, boards)
            mean, half = paired(s, base)
            rows.append({"boards": boards, "weight": w, "gain": mean,
                         "half_width": half,
                         "mean": float(s.mean()), "base_mean": float(base.mean()),
                         "median": float(np.median(s)),
                         "base_median": float(np.median(base)),
                         "at_target": float((s >= TARGET).mean()),
                         "base_at_target": float((base >= TARGET).mean())})  # fmt: skip
    return rows


def figure(offline: Sequence[Row], paired_games: Sequence[Row]) -> Figure:
    """Offline gains by weight (left), paired solo gains by weight (right)."""
    fig = Figure(figsize=(10, 4), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    w = [r["weight"] for r in offline]
    ax1.errorbar(w, [r["gain"] for r in offline],
                 yerr=[r["half_width"] for r in offline], marker="o",
                 capsize=3)  # fmt: skip
    ax1.axhline(0, color="grey", lw=0.8)
    ax1.set(xlabel="next_fit weight", ylabel="medals a placement decision",
            title="Offline: rollout value of the choice vs greedy's")  # fmt: skip
    for boards in ("base", "random"):
        rows = [r for r in paired_games if r["boards"] == boards]
        ax2.errorbar([r["weight"] for r in rows], [r["gain"] for r in rows],
                     yerr=[r["half_width"] for r in rows], marker="o", capsize=3,
                     label=boards)  # fmt: skip
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set(xlabel="next_fit weight", ylabel="solo score gain a game (paired)",
            title="Paired solo games vs next_fit 0")  # fmt: skip
    ax2.legend()
    return fig


def report_text(report: Row, command: str) -> str:
    """The README: offline gains by weight, then the paired solo games."""
    lines = [
        "# The next tiles: greedy's lookahead of one depot", "",
        f"`{command}` (engine {engine_version()}, "
        f"{report['seconds']:.0f} s).", "",
        f"## Offline: {report['decisions']:,} placement decisions of "
        f"{report['games']} solo base games",
        "",
        f"{report['preset']} without the lookahead plays; at each placement its best "
        f"{KEPT} options get {report['rollouts']} rollouts each (common random "
        "numbers) and their next-tile values.  Gain: rollout medals of the option "
        "chosen by greedy + weight x (next-tile value - its mean) over greedy's "
        "own choice.", "",
        "| weight | gain a decision (95% CI) | rounds 1-7 | 8-14 | 15+ |",
        "|---|---|---|---|---|",
    ]  # fmt: skip
    for r in report["offline"]:
        lines.append(f"| {r['weight']} | {r['gain']:+.3f} ± {r['half_width']:.3f} | "
                     f"{r['rounds_1_7']:+.3f} | {r['rounds_8_14']:+.3f} | "
                     f"{r['rounds_15_99']:+.3f} |")  # fmt: skip
    lines += ["", f"## Paired solo games ({report['paired']:,} per weight, seed "
              f"{report['seed']})", "",
              "| boards | next_fit | gain (95% CI) | mean | median | at target 59 |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for r in report["paired_rows"]:
        lines.append(f"| {r['boards']} | {r['weight']} | {r['gain']:+.2f} ± "
                     f"{r['half_width']:.2f} | {r['base_mean']:.2f} -> "
                     f"{r['mean']:.2f} | "
                     f"{r['base_median']:.0f} -> {r['median']:.0f} | "
                     f"{r['base_at_target']:.1%} -> "
                     f"{r['at_target']:.1%} |")  # fmt: skip
    lines += ["", "The target column is the base game's (balanced 7/7/6 deck); on "
              "random boards it is only a reference.", "",
              "![gains](figures/next_fit_values.png)", ""]  # fmt: skip
    return "\n".join(lines)
