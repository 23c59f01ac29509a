"""Search bot against greedy: paired solo scores and speed at several budgets.

Every bot plays the same seeded solo games of the base game (pu_sim.simulate's
defaults: Universal Coalition on KSB-4156), so game i has the same setup for
each bot and the difference of scores is paired game by game.  Speed is the
wall time of those games in one core call on one thread (noisy on a shared
machine); ms/decision divides it by every decision of the games, forced ones
included.

Usage: ``python experiments/search_strength.py [--games N] [--budgets 8 32]
[--width 4] [--seed S] [--out reports/search_strength] [--smoke]``
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pu_sim import _core, bots
from pu_sim.rules import load_rules
from pu_sim.table import TableSetup


def measure(bot: bots.BotSpec, n_games: int, seed: int) -> tuple[np.ndarray, dict]:
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budgets", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=Path("reports/search_strength"))
    parser.add_argument("--smoke", action="store_true", help="tiny sizes (tests)")
    args = parser.parse_args(argv)
    n = 4 if args.smoke else args.games
    budgets = [2] if args.smoke else args.budgets
    base, speed = measure(bots.greedy(), n, args.seed)
    rows = [{"bot": "greedy", "budget": 0, "width": 1, "mean": base.mean(), **speed}]
    for budget in budgets:
        bot = bots.search(f"search-{budget}", budget=budget, width=args.width)
        scores, speed = measure(bot, n, args.seed)
        diff = scores - base
        half = 1.96 * diff.std(ddof=1) / np.sqrt(n)
        rows.append({"bot": bot.label, "budget": budget, "width": args.width,
                     "mean": scores.mean(), "diff": diff.mean(), "ci95": half,
                     "better": float((diff > 0).mean()), **speed})  # fmt: skip
        print(rows[-1], flush=True)
    command = (
        f"python experiments/search_strength.py --games {n} --budgets "
        f"{' '.join(map(str, budgets))} --width {args.width} --seed {args.seed}"
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
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "search_strength.json").write_text(json.dumps(rows, indent=2) + "\n")
    (args.out / "README.md").write_text("# Search bot against greedy\n\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
