"""How much greedy gains by valuing the next round's tiles on the planet each
placement leaves (the `next_fit` weight, pu_sim/core/bots/greedy_next_fit.pxi).

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

Usage: ``python experiments/next_fit_values.py [--preset NAME] [--games N]
[--rollouts R] [--paired N] [--seed S] [--jobs J] [--out reports] [--smoke]``
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from joblib import Parallel, delayed
from matplotlib.figure import Figure

import pu_sim
from pu_sim import bots
from pu_sim._core import CONSTANTS, ENGINE_VERSION
from pu_sim.bots import BotSpec, probes
from pu_sim.game import Game
from pu_sim.report import plots

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
    """The preset with next_fit 0 (the policy the offline study watches)."""
    return bots.greedy(preset, **{**bots.PRESETS[preset], "next_fit": 0.0})


def next_tiles_value(
    game: Game, move: int, bot: BotSpec, deep: float = 0.0
) -> float | None:
    """Greedy's value (`bot`, no lookahead) of the move it would play with the
    next depot's tiles on the planet `move` leaves; None if none can be placed.
    With `deep` != 0, plus deep x the same for the depot after it, once that
    move is played (as the core's next_fit_deep).

    As the core: the move is carried out without resolving its resources, the
    station turns one depot clockwise (SS-6) and the draft starts for player 0.
    In the last round (9.1) no next depot is played: None.  The depot after is
    skipped when the next round reveals the event deck's last card (9.1 C).
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
    # scoring mode leaves the placements place_fit does not re-rank unadjusted,
    # so the move greedy plays is the best of those it re-ranks
    plain = np.asarray(
        probes.greedy_values(
            after, bots.greedy("plain", **{**bot.params, "place_fit": 0.0})
        )
    )
    ranked = np.argsort(-plain, kind="stable")[: int(CONSTANTS["PLACE_FIT_K"])]
    values = np.asarray(probes.greedy_values(after, bot))
    best = int(ranked[np.argmax(values[ranked])])
    value = float(values[best])
    if deep != 0 and not (fields["events_on"] and len(fields["deck"]) <= 1):
        later = next_tiles_value(after, after.legal_moves()[best], bot)
        value += deep * (later or 0.0)
    return value


def collect(preset: str, games: range, rollouts: int, seed: int) -> list[Row]:
    """Placement decisions of solo base games: round, greedy's values of its best
    KEPT placements, their next-tile values and rollout means."""
    bot = without_lookahead(preset)
    out: list[Row] = []
    for index in games:
        game = Game(players=1, bots=bot, seed=seed, game_index=index)
        while not game.is_terminal:
            moves = game.legal_moves()
            if game.decision == "place" and len(moves) > 1:
                values = np.asarray(probes.greedy_values(game, bot))
                kept = np.argsort(-values, kind="stable")[:KEPT]
                ahead = [next_tiles_value(game, moves[i], bot) for i in kept]
                out.append({
                    "round": game.fields()["round"],
                    "greedy": [float(values[i]) for i in kept],
                    "ahead": [np.nan if v is None else v for v in ahead],
                    "value": [probes.rollout_value(game, moves[i], rollouts,
                                                   index * 100_000)
                              for i in kept],
                })  # fmt: skip
            game.step()
    return out


def choice_gains(records: Sequence[Row], weight: float) -> Floats:
    """Rollout medals a decision gained by choosing by greedy + weight x the
    centred next-tile value (over the options that have one, if 2 or more),
    over greedy's choice; exact ties count as the tied options' mean, as the
    bot breaks them at random."""
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


def interval(x: Floats) -> tuple[float, float]:
    """Mean and 95% half-width (normal)."""
    return float(x.mean()), float(1.96 * x.std(ddof=1) / np.sqrt(len(x)))


def offline_rows(records: Sequence[Row]) -> list[Row]:
    rows = []
    for w in OFFLINE_WEIGHTS:
        mean, half = interval(choice_gains(records, w))
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
    bot = bots.greedy(preset, **{**bots.PRESETS[preset], "next_fit": weight})
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
            mean, half = interval(s - base)
            rows.append({"boards": boards, "weight": w, "gain": mean,
                         "half_width": half,
                         "mean": float(s.mean()), "base_mean": float(base.mean()),
                         "median": float(np.median(s)),
                         "base_median": float(np.median(base)),
                         "at_target": float((s >= TARGET).mean()),
                         "base_at_target": float((base >= TARGET).mean())})  # fmt: skip
    return rows


def figure(offline: Sequence[Row], paired: Sequence[Row]) -> Figure:
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
        rows = [r for r in paired if r["boards"] == boards]
        ax2.errorbar([r["weight"] for r in rows], [r["gain"] for r in rows],
                     yerr=[r["half_width"] for r in rows], marker="o", capsize=3,
                     label=boards)  # fmt: skip
    ax2.axhline(0, color="grey", lw=0.8)
    ax2.set(xlabel="next_fit weight", ylabel="solo score gain a game (paired)",
            title="Paired solo games vs next_fit 0")  # fmt: skip
    ax2.legend()
    return fig


def report_text(report: Row) -> str:
    lines = [
        "# The next tiles: greedy's lookahead of one depot", "",
        f"`{report['command']}` (engine {report['engine_version']}, "
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--preset", default="greedy_tuned", choices=sorted(bots.PRESETS)
    )
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--paired", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (tests)")
    args = parser.parse_args(argv)
    n, rollouts, n_paired = ((3, 2, 20) if args.smoke else
                             (args.games, args.rollouts, args.paired))  # fmt: skip
    started = time.perf_counter()
    chunk = max(1, n // 20)
    parts = Parallel(n_jobs=args.jobs)(
        delayed(collect)(args.preset, range(s, min(n, s + chunk)), rollouts, args.seed)
        for s in range(0, n, chunk)
    )  # fmt: skip
    records = [r for part in parts for r in part]
    offline = offline_rows(records)
    paired = paired_rows(args.preset, n_paired, args.seed, args.jobs)
    seconds = time.perf_counter() - started
    command = (f"python experiments/next_fit_values.py --preset {args.preset} "
               f"--games {n} --rollouts {rollouts} --paired {n_paired} "
               f"--seed {args.seed}")  # fmt: skip
    report: Row = {
        "engine_version": ENGINE_VERSION, "command": command, "preset": args.preset,
        "games": n, "rollouts": rollouts, "paired": n_paired, "seed": args.seed,
        "decisions": len(records), "seconds": round(seconds, 1),
        "offline": offline, "paired_rows": paired,
    }  # fmt: skip
    name = "smoke" if args.smoke else f"{args.preset}-{n}-games-seed-{args.seed}"
    out = args.out / "next_fit_values" / name
    out.mkdir(parents=True, exist_ok=True)
    (out / "next_fit_values.json").write_text(json.dumps(report, indent=1))
    plots.save(figure(offline, paired), out / "figures" / "next_fit_values.png")
    (out / "README.md").write_text(report_text(report))
    print(f"report: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
