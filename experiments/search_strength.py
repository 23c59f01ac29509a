"""Search bot against greedy: paired solo scores and speed at several budgets.

Every bot plays the same seeded solo games of the base game (pu_sim.simulate's
defaults: Universal Coalition on KSB-4156), so game i has the same setup for
each bot and the difference of scores is paired game by game.  Speed is the
wall time of those games in one core call on one thread (noisy on a shared
machine); ms/decision divides it by every decision of the games, forced ones
included.  Then a 2-player duel, search against greedy, each setup played from
both seats so the seat order cancels.

Usage: ``python experiments/search_strength.py [--games N] [--bots 8x2 32x4 ...]
[--seed S] [--greedy NAME] [--duel 16x2] [--duel-games N]
[--out reports/search_strength]
[--smoke]`` (BUDGETxWIDTH).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pu_sim import _core, bots
from pu_sim.bots import BotSpec
from pu_sim.rules import load_rules
from pu_sim.simulation.table import TableSetup

Scores = npt.NDArray[np.float64]


def measure(bot: BotSpec, n_games: int, seed: int) -> tuple[Scores, dict[str, float]]:
    """Scores of `bot` in n_games solo games (one GIL-free core call), its speed."""
    rules = load_rules()
    spec = TableSetup(players=1, bots=bot).lower(rules.data)
    out = np.zeros(n_games, dtype=_core.RECORD_DTYPE)
    start = time.perf_counter()
    _core.play_batch(rules.core, spec, seed, 0, 0, out)
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
    rules = load_rules()
    search = searcher(greedy, budget, width)
    margins, wins = [], []
    pairs: tuple[list[BotSpec], ...] = ([search, greedy], [greedy, search])
    for seat, seats in enumerate(pairs):
        spec = TableSetup(players=2, bots=seats).lower(rules.data)
        out = np.zeros(2 * n_games, dtype=_core.RECORD_DTYPE)
        _core.play_batch(rules.core, spec, seed, 0, 0, out)
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


def paired(a: Scores, b: Scores) -> tuple[float, float]:
    """Mean of a - b and the half-width of its 95% interval (normal)."""
    d = a - b
    return float(d.mean()), float(1.96 * d.std(ddof=1) / np.sqrt(len(d)))


def parse_bot(text: str) -> tuple[int, int]:
    """'16x2' -> (budget 16, width 2)."""
    budget, _, width = text.partition("x")
    return int(budget), int(width)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--bots",
        nargs="+",
        default=["8x2", "8x4", "16x2", "16x4", "32x2", "32x4"],
        help="search settings as BUDGETxWIDTH",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--greedy",
        default="greedy",
        help="the greedy bot to beat (a name or preset, e.g. greedy_tuned); the "
        "search bot uses its weights",
    )
    parser.add_argument(
        "--duel",
        default="16x2",
        help="2-player duel against greedy with this BUDGETxWIDTH ('' to skip)",
    )
    parser.add_argument("--duel-games", type=int, default=50, help="per seating")
    parser.add_argument("--out", type=Path, default=Path("reports/search_strength"))
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (tests)")
    args = parser.parse_args(argv)
    n = 4 if args.smoke else args.games
    settings = [(2, 2), (2, 4)] if args.smoke else [parse_bot(b) for b in args.bots]
    greedy = bots.parse(args.greedy)
    base, speed = measure(greedy, n, args.seed)
    rows = [
        {"bot": greedy.label, "budget": 0, "width": 1, "mean": base.mean(), **speed}
    ]
    scores: dict[tuple[int, int], Scores] = {}
    for budget, width in settings:
        bot = searcher(greedy, budget, width)
        scores[budget, width], speed = measure(bot, n, args.seed)
        diff, half = paired(scores[budget, width], base)
        rows.append({"bot": bot.label, "budget": budget, "width": width,
                     "mean": scores[budget, width].mean(), "diff": diff, "ci95": half,
                     "better": float((scores[budget, width] > base).mean()),
                     **speed})  # fmt: skip
        print(rows[-1], flush=True)
    command = (
        f"python experiments/search_strength.py --games {n} --bots "
        f"{' '.join(f'{b}x{w}' for b, w in settings)} --seed {args.seed} "
        f"--greedy {args.greedy} "
        f"--duel '{args.duel}' --duel-games {args.duel_games} --out {args.out}"
    )
    lines = [
        f"Solo base game, {n} paired games (seed {args.seed}), one worker: "
        f"`{command}`.",
        "",
        "| bot | budget | width | mean score | vs greedy (95% CI) | games better "
        "| games/s | ms/decision |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        vs = f"{r['diff']:+.2f} ± {r['ci95']:.2f}" if "diff" in r else "—"
        won = f"{r['better']:.0%}" if "better" in r else "—"
        lines.append(
            f"| {r['bot']} | {r['budget']} | {r['width']} | {r['mean']:.2f} | {vs} "
            f"| {won} | {r['games_per_s']:,.1f} | {r['ms_per_decision']:.3f} |"
        )
    widths = []  # the same budget spread over more moves: paired on the same games
    for (budget, width), s in scores.items():
        for (b2, w2), s2 in scores.items():
            if b2 == budget and w2 > width:
                diff, half = paired(s2, s)
                widths.append({"budget": budget, "narrow": width, "wide": w2,
                               "diff": diff, "ci95": half})  # fmt: skip
    if widths:
        lines += ["", "Width at equal budget (wide minus narrow, paired):", ""]
        lines += ["| budget | widths | difference (95% CI) |", "|---|---|---|"]
        lines += [
            f"| {w['budget']} | {w['wide']} vs {w['narrow']} | "
            f"{w['diff']:+.2f} ± {w['ci95']:.2f} |"
            for w in widths
        ]
    lines += ["", "ms/decision counts every decision, forced ones included."]
    duels = []
    if args.duel:
        budget, width = (2, 2) if args.smoke else parse_bot(args.duel)
        duels.append(
            duel(greedy, budget, width, 2 if args.smoke else args.duel_games, args.seed)
        )
        d = duels[-1]
        lines += ["", f"Two players, search ({d['budget']}x{d['width']}) against "
                  f"{greedy.label}, {d['games']} games (each setup from both seats): "
                  f"margin {d['margin']:+.2f} ± {d['ci95']:.2f} medals, "
                  f"wins {d['win_rate']:.0%}."]  # fmt: skip
        print(d, flush=True)
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    result = {"games": n, "seed": args.seed, "bots": rows, "widths": widths,
              "duels": duels}  # fmt: skip
    (args.out / "search_strength.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / "README.md").write_text("# Search bot against greedy\n\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
