"""Search bot against greedy: paired solo scores and speed at several budgets.

Every bot plays the same seeded solo games of the base game (Universal
Coalition on KSB-4156), so game i has the same setup for each bot and the
difference of scores is paired game by game.  Speed is the wall time of those
games in one core call on one thread (noisy on a shared machine); ms/decision
divides it by every decision of the games, forced ones included.  Then a
2-player duel, search against greedy, each setup played from both seats so
the seat order cancels.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from pu_sim import bots
from pu_sim.bots import BotSpec
from pu_sim.lab.common import paired, play_records
from pu_sim.simulation.table import TableSetup

Scores = npt.NDArray[np.float64]


def measure(bot: BotSpec, n_games: int, seed: int) -> tuple[Scores, dict[str, float]]:
    """Scores of `bot` in n_games solo games (one GIL-free core call), its speed."""
    start = time.perf_counter()
    out = play_records(TableSetup(players=1, bots=bot), n_games, seed)
    wall = time.perf_counter() - start
    assert (out["status"] == 0).all()
    return out["score"].astype(float), {
        "games_per_s": n_games / wall,
        "ms_per_game": wall / n_games * 1e3,
        "ms_per_decision": wall / float(out["decisions"].sum()) * 1e3,
    }


def duel(
    greedy: BotSpec, budget: int, width: int, n_games: int, seed: int
) -> dict[str, float]:
    """Two players, search against greedy, each setup played from both seats."""
    search = searcher(greedy, budget, width)
    margins, wins = [], []
    pairs: tuple[list[BotSpec], ...] = ([search, greedy], [greedy, search])
    for seat, seats in enumerate(pairs):
        out = play_records(TableSetup(players=2, bots=seats), n_games, seed)
        assert (out["status"] == 0).all()
        score = out["score"].reshape(n_games, 2).astype(float)
        margins.append(score[:, seat] - score[:, 1 - seat])
        wins.append(out["won"].reshape(n_games, 2)[:, seat])
    m, w = np.concatenate(margins), np.concatenate(wins)
    half = 1.96 * m.std(ddof=1) / np.sqrt(len(m))
    return {"budget": budget, "width": width, "games": len(m),
            "margin": float(m.mean()), "ci95": float(half),
            "win_rate": float(w.mean())}  # fmt: skip


def searcher(greedy: BotSpec, budget: int, width: int) -> BotSpec:
    """The search bot playing (and rolling out) with `greedy`'s weights."""
    weights = {k: greedy.params[k] for k in bots.GREEDY_WEIGHTS}
    label = f"search-{budget}x{width}"
    return bots.search(label, budget=budget, width=width, **weights)


def parse_bot(text: str) -> tuple[int, int]:
    """'16x2' -> (budget 16, width 2)."""
    budget, _, width = text.partition("x")
    return int(budget), int(width)


def speed_rows(
    greedy: BotSpec, settings: Sequence[tuple[int, int]], n: int, seed: int
) -> tuple[list[dict[str, Any]], dict[tuple[int, int], Scores], Scores]:
    """The greedy bot's row, then one per search setting.

    Mean score, the paired difference to greedy, the share of games better,
    speed.
    """
    base, speed = measure(greedy, n, seed)
    rows: list[dict[str, Any]] = [
        {"bot": greedy.label, "budget": 0, "width": 1, "mean": base.mean(), **speed}
    ]
    scores: dict[tuple[int, int], Scores] = {}
    for budget, width in settings:
        bot = searcher(greedy, budget, width)
        scores[budget, width], speed = measure(bot, n, seed)
        diff, half = paired(scores[budget, width], base)
        rows.append({"bot": bot.label, "budget": budget, "width": width,
                     "mean": scores[budget, width].mean(), "diff": diff, "ci95": half,
                     "better": float((scores[budget, width] > base).mean()),
                     **speed})  # fmt: skip
        print(rows[-1], flush=True)
    return rows, scores, base


def width_rows(scores: Mapping[tuple[int, int], Scores]) -> list[dict[str, Any]]:
    """The same budget spread over more moves: wide minus narrow, paired."""
    out = []
    for (budget, width), s in scores.items():
        for (b2, w2), s2 in scores.items():
            if b2 == budget and w2 > width:
                diff, half = paired(s2, s)
                out.append({"budget": budget, "narrow": width, "wide": w2,
                            "diff": diff, "ci95": half})  # fmt: skip
    return out


def report_text(
    n: int, seed: int, command: str, greedy: str, result: Mapping[str, Any]
) -> str:
    """The README: the speed table, widths at equal budget, the duel."""
    lines = [
        "# Search bot against greedy",
        "",
        f"Solo base game, {n} paired games (seed {seed}), one worker: `{command}`.",
        "",
        "| bot | budget | width | mean score | vs greedy (95% CI) | games better "
        "| games/s | ms/decision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in result["bots"]:
        vs = f"{r['diff']:+.2f} ± {r['ci95']:.2f}" if "diff" in r else "—"
        won = f"{r['better']:.0%}" if "better" in r else "—"
        lines.append(
            f"| {r['bot']} | {r['budget']} | {r['width']} | {r['mean']:.2f} | {vs} "
            f"| {won} | {r['games_per_s']:,.1f} | {r['ms_per_decision']:.3f} |"
        )
    if result["widths"]:
        lines += ["", "Width at equal budget (wide minus narrow, paired):", ""]
        lines += ["| budget | widths | difference (95% CI) |", "|---|---|---|"]
        lines += [
            f"| {w['budget']} | {w['wide']} vs {w['narrow']} | "
            f"{w['diff']:+.2f} ± {w['ci95']:.2f} |"
            for w in result["widths"]
        ]
    lines += ["", "ms/decision counts every decision, forced ones included."]
    for d in result["duels"]:
        lines += ["", f"Two players, search ({d['budget']}x{d['width']}) against "
                  f"{greedy}, {d['games']} games (each setup from both seats): "
                  f"margin {d['margin']:+.2f} ± {d['ci95']:.2f} medals, "
                  f"wins {d['win_rate']:.0%}."]  # fmt: skip
    return "\n".join(lines) + "\n"
