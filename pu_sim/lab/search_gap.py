"""Where the search bot's extra medals come from.

And how far apart greedy's two best placements truly are.

Three measurements on solo base games:

1. Scoring categories: the same seeds played by a greedy preset and by the
   search bot on the preset's weights (paired), compared by scoring category
   (A-E) and by the counts behind them (lines completed, lifepods, meteorites,
   squares left uncovered).
2. Private objective cards: how often each card kept is met by either bot.
3. Placements: at every placement of the preset's own games, its two best
   placements are each valued by rollouts on common random numbers, keeping
   each rollout's score breakdown.  The spread of the per-decision mean
   differences, less its rollout-noise part (``pu_sim.analysis.stats.signal_spread``),
   is how much the two options truly differ, per scoring category: what the
   greedy's one-ply value leaves unexplained at the decision where search gains
   most (:mod:`pu_sim.lab.search_by_decision`), and so where a better
   placement value has to look.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
from matplotlib.figure import Figure

import pu_sim
from pu_sim import bots
from pu_sim.analysis.stats import normal_sf, signal_spread
from pu_sim.engine import load_rules
from pu_sim.engine.core import engine_version
from pu_sim.game import SCORE_KEYS, Game
from pu_sim.lab import probes
from pu_sim.lab.common import in_chunks, paired
from pu_sim.lab.rollouts import STREAM, decisions, top_moves

COUNTS = (
    "rows_complete", "cols_complete", "lifepods_collected", "lifepods_lost",
    "meteorites_collected", "rovers_lost", "uncovered", "tiles_placed",
)  # fmt: skip
"""Result columns behind the categories, compared like them."""
THIRDS = ((1, 7), (8, 14), (15, 99))
"""Round spans the placement spread is also given for."""

Row = dict[str, Any]
Floats = npt.NDArray[np.float64]


def paired_games(preset: str, budget: int, n: int, seed: int, jobs: int
                 ) -> tuple[pl.DataFrame, pl.DataFrame]:  # fmt: skip
    """Solo base games of the preset and of search-`budget` on its weights."""
    greedy = bots.parse(preset)
    search = bots.search(f"search-{budget}", budget, 2, **greedy.params)
    frames = [
        pu_sim.simulate(n, players=1, bots=bot, seed=seed, n_jobs=jobs).sort("game_id")
        for bot in (greedy, search)
    ]
    return frames[0], frames[1]


def category_rows(greedy: pl.DataFrame, search: pl.DataFrame) -> list[Row]:
    """Per column: both means and the paired difference with its 95% interval."""
    rows = []
    for col in (*SCORE_KEYS, *COUNTS):
        a, b = (df[col].to_numpy().astype(float) for df in (greedy, search))
        diff, half = paired(b, a)
        rows.append({"column": col, "greedy": float(a.mean()),
                     "search": float(b.mean()), "diff": diff,
                     "half_width": half})  # fmt: skip
    return rows


def card_rows(greedy: pl.DataFrame, search: pl.DataFrame) -> list[Row]:
    """Per private card kept: times kept and share met by each bot.

    Most gained first.
    """
    names = {o.id: o.private.name for o in load_rules().data.objectives}
    tallies = []
    for df in (greedy, search):
        kept = Counter(c for cards in df["private_cards"].to_list() for c in cards)
        met = Counter(c for cards in df["private_met"].to_list() for c in cards)
        tallies.append((kept, met))
    rows = []
    for card in sorted(set(tallies[0][0]) | set(tallies[1][0])):
        shares = [m[card] / k[card] if k[card] else float("nan") for k, m in tallies]
        rows.append({"card": card, "name": names[card],
                     "kept_greedy": tallies[0][0][card],
                     "kept_search": tallies[1][0][card], "met_greedy": shares[0],
                     "met_search": shares[1],
                     "diff": shares[1] - shares[0]})  # fmt: skip
    return sorted(rows, key=lambda r: -np.nan_to_num(r["diff"], nan=-9.0))


def placement_pairs(games: range, preset: str, rollouts: int, seed: int
                    ) -> list[tuple[int, Floats]]:  # fmt: skip
    """Every placement of the preset's games with 2+ options.

    As (round, the second-best option's minus the best option's score breakdown,
    one row per rollout).
    """
    bot = bots.parse(preset)
    out = []
    for index in games:
        game = Game(players=1, bots=bot, seed=seed, game_index=index)
        for moves in decisions(game, ("place",)):
            best, second = (
                moves[i] for i in top_moves(probes.greedy_values(game, bot), 2)
            )
            diff = np.array(
                [[b - a for a, b in zip(
                    probes.rollout_scores(game, best, index * STREAM + j).values(),
                    probes.rollout_scores(game, second, index * STREAM + j).values(),
                    strict=True)]
                 for j in range(rollouts)], float)  # fmt: skip
            out.append((int(game.fields()["round"]), diff))
    return out


def spread_rows(pairs: Sequence[tuple[int, Floats]]) -> list[Row]:
    """The spread of the two best options' mean difference, per category.

    Per scoring category (then the score by third of the game): its variance,
    its noise part and the true differences' spread.
    """
    rows = []
    every = np.stack([d for _, d in pairs])  # decisions x rollouts x categories
    for k, key in enumerate(SCORE_KEYS):
        total, noise, signal = signal_spread(every[:, :, k])
        rows.append({"what": key, "decisions": len(pairs), "variance": total,
                     "noise": noise, "signal_sd": signal})  # fmt: skip
    for lo, hi in THIRDS:
        part = [d[:, 0] for r, d in pairs if lo <= r <= hi]
        if len(part) >= 2:
            total, noise, signal = signal_spread(np.stack(part))
            span = f"{lo}-{hi}" if hi < 99 else f"{lo}+"
            rows.append({"what": f"score, rounds {span}", "decisions": len(part),
                         "variance": total, "noise": noise,
                         "signal_sd": signal})  # fmt: skip
    return rows


def figure(categories: Sequence[Row], spread: Sequence[Row], budget: int) -> Figure:
    """Where search gains, and how far apart greedy's two best placements are.

    Left: search's gain per scoring category; right: the true spread of the two
    best placements' difference per category.
    """
    fig = Figure(figsize=(10.0, 3.8), layout="constrained")
    gain_ax, spread_ax = fig.subplots(1, 2)
    labels = [k.removeprefix("score_") if k != "score" else "total" for k in SCORE_KEYS]
    gain = [r for r in categories if r["column"] in SCORE_KEYS]
    gain_ax.barh(labels, [r["diff"] for r in gain],
                 xerr=[r["half_width"] for r in gain], color="#4c72b0")  # fmt: skip
    gain_ax.axvline(0, color="black", linewidth=0.8)
    gain_ax.invert_yaxis()
    gain_ax.set_xlabel(f"search-{budget} minus greedy (medals, 95% CI)")
    gain_ax.set_title("Where search gains, by category")
    per = [r for r in spread if r["what"] in SCORE_KEYS]
    spread_ax.barh(labels, [r["signal_sd"] for r in per], color="#dd8452")
    spread_ax.invert_yaxis()
    spread_ax.set_xlabel("sd of the true difference (medals)")
    spread_ax.set_title("Greedy's two best placements")
    return fig


def report_text(report: Row, command: str) -> str:
    """README of the report folder."""
    cats, cards, spread = report["categories"], report["cards"], report["placements"]
    total = next(r for r in spread if r["what"] == "score")
    gained = [r for r in cards if r["diff"] == r["diff"]]
    return "\n".join([
        "# Where search's extra medals come from", "",
        f"`{command}` (engine {engine_version()}, "
        f"{report['seconds'] / 60:.1f} min). Solo base games; `{report['preset']}` and "
        f"search-{report['budget']} on its weights play the same "
        f"{report['games']} seeds.",
        "", "![categories and placement spread](figures/search_gap.png)", "",
        "## By scoring category (paired, 95% intervals)", "",
        "| column | greedy | search | search minus greedy |", "|---|---|---|---|",
        *(f"| {r['column']} | {r['greedy']:.2f} | {r['search']:.2f} | "
          f"{r['diff']:+.2f} ± {r['half_width']:.2f} |" for r in cats),
        "", "## Private objective cards: share of kept cards met", "",
        "| card | name | kept (greedy / search) | met by greedy | met by search "
        "| gain |",
        "|---|---|---|---|---|---|",
        *(f"| {r['card']} | {r['name']} | {r['kept_greedy']} / {r['kept_search']} | "
          f"{r['met_greedy']:.2f} | {r['met_search']:.2f} | {r['diff']:+.2f} |"
          for r in gained),
        "", "## How far apart greedy's two best placements are", "",
        f"{total['decisions']:,} placements of `{report['preset']}`'s own games "
        f"({report['placement_games']} games), its two best options each valued by "
        f"{report['rollouts']} rollouts on common random numbers. The variance of the "
        "per-decision mean difference (second best minus best) is split into rollout "
        "noise and the true differences' spread (sd): what the greedy value leaves "
        "unexplained between its own two favourites.", "",
        "| category | decisions | variance of the means | noise part | true sd |",
        "|---|---|---|---|---|",
        *(f"| {r['what']} | {r['decisions']:,} | {r['variance']:.3f} | "
          f"{r['noise']:.3f} | {r['signal_sd']:.3f} |" for r in spread),
        "", f"If the better of the two were always known, a true sd of "
        f"{total['signal_sd']:.2f} medals (mean difference "
        f"{report['mean_difference']:+.2f}) would be worth about "
        f"{report['oracle_per_decision']:+.2f} medals a placement (a normal model of "
        "the true difference), before the changed positions that follow.", "",
    ])  # fmt: skip


def oracle_gain(mean: float, sd: float) -> float:
    """E[max(0, D)] for D ~ Normal(mean, sd): choosing the better of two options."""
    if sd <= 0:
        return max(0.0, mean)
    z = mean / sd
    pdf = float(np.exp(-0.5 * z * z) / np.sqrt(2 * np.pi))
    return float(mean * float(normal_sf(-z)) + sd * pdf)


def study(config: Any, jobs: int) -> Row:
    """All three measurements: the report's numbers.

    For the script's config (preset, n_games, budget, placement_games, rollouts,
    seed).
    """
    greedy, search = paired_games(
        config.preset, config.budget, config.n_games, config.seed, jobs
    )
    parts = in_chunks(placement_pairs, config.placement_games, jobs, config.preset,
                      config.rollouts, config.seed)  # fmt: skip
    pairs = [p for part in parts for p in part]
    spread = spread_rows(pairs)
    means = np.stack([d[:, 0] for _, d in pairs]).mean(1)
    return {
        "preset": config.preset, "budget": config.budget, "games": config.n_games,
        "placement_games": config.placement_games, "rollouts": config.rollouts,
        "categories": category_rows(greedy, search),
        "cards": card_rows(greedy, search), "placements": spread,
        "mean_difference": float(means.mean()),
        "oracle_per_decision": oracle_gain(float(means.mean()), spread[0]["signal_sd"]),
    }  # fmt: skip
