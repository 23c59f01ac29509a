"""Skill depth: whether a better player gains more with some boards than others.

The ladder's levels (weakest first, from the runs' manifests) played the same
setups; each corporation's and planet's mean score at every level, and its gain
from greedy to the strongest level with paired cluster intervals
(:mod:`pu_sim.analysis.skill`).  Balance in the sense of TAG's 2025 balancing
competition: fair at every level of play, and no board that rewards skill
much more than the others.
"""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.report import plots
from pu_sim.report.markdown import fmt, md_table
from pu_sim.report.page import Page
from pu_sim.report.policies import Policies

__all__ = ["skill_section"]

ROLES = ("ladder", "primary", "second")
"""Runs on the ladder's setups (calibration runs use other decks)."""


def _cell(r: dict[str, object]) -> str:
    return (
        f"{fmt(r['mean'], '.1f')} [{fmt(r['lower'], '.1f')}, {fmt(r['upper'], '.1f')}]"
    )


def skill_section(page: Page, games: pl.DataFrame, policies: Policies) -> None:
    """Score matrices per level and the gains from greedy to the strongest.

    Why long: one block of the report, read top to bottom: its matrices, figure and
    words share the frames they compute.
    """
    levels = list(policies.ladder)
    if len(levels) < 2:
        return
    bot = pl.col("bot").cast(pl.String)
    ladder = games.filter(
        bot.is_in(levels) & (pl.col("n_bots") == 1) & pl.col("role").is_in(ROLES)
    )
    counts = sorted(
        n
        for n in ladder["n_players"].unique().to_list()
        if ladder.filter(pl.col("n_players") == n)["bot"].n_unique() == len(levels)
    )
    if not counts:
        return
    ladder = ladder.filter(pl.col("n_players").is_in(counts))
    low = "greedy" if "greedy" in levels[:-1] else levels[0]
    high = levels[-1]
    parts = [
        f"The skill ladder {' < '.join(levels)} (weakest first) on the same setups "
        f"at {', '.join(f'{n}' for n in counts)} player(s), every seat of a game "
        "played by one level. Mean score per board and level with 95% "
        "cluster-robust intervals over setups; then each board's gain from "
        f"{low} to {high}, paired inside setups."
    ]
    gains_all = []
    for kind in ("corporation", "planet"):
        matrix = analysis.skill_matrix(
            ladder, levels=levels, by=(kind,), value="score", cluster="group"
        )
        page.table(f"skill_{kind}", matrix)
        gains = analysis.skill_gains(
            ladder, low=low, high=high, by=kind, value="score", cluster="group"
        )
        page.table(f"skill_gain_{kind}", gains)
        gains_all.append(
            gains.with_columns(
                kind=pl.lit(kind), name=pl.col(kind).cast(pl.String)
            ).drop(kind)
        )
        for n in counts:
            sub = matrix.filter(pl.col("n_players") == n)
            gain = gains.filter(pl.col("n_players") == n)
            rows = []
            for name in sub[kind].unique(maintain_order=True).to_list():
                cells = {
                    str(r["bot"]): _cell(r)
                    for r in sub.filter(pl.col(kind) == name).iter_rows(named=True)
                }
                g = gain.filter(pl.col(kind) == name)
                g_text = (
                    f"{fmt(g['gain'][0], '+.1f')} [{fmt(g['lower'][0], '+.1f')}, "
                    f"{fmt(g['upper'][0], '+.1f')}]"
                    if g.height
                    else "–"
                )
                rows.append([str(name), *(cells.get(lv, "–") for lv in levels), g_text])
            parts.append(
                f"**{kind.title()}s, {n} player(s): mean score by level**\n\n"
                + md_table(rows, [kind, *levels, f"gain {low} -> {high}"])
            )
        spread = analysis.gain_spread(gains)
        for r in spread.iter_rows(named=True):
            page.headlines.append(
                f"**Skill depth ({kind}s, {r['n_players']}p, {low} -> {high}):** "
                f"gains from {fmt(r['min_gain'], '+.1f')} to "
                f"{fmt(r['max_gain'], '+.1f')} points (mean "
                f"{fmt(r['mean_gain'], '+.1f')}); "
                + (
                    f"they differ between {kind}s (Cochran's Q "
                    f"p={fmt(r['p_value'], 'p')}, spread {fmt(r['spread'], '.1f')} "
                    "points)"
                    if r["p_value"] < 0.05
                    else f"no evidence that they differ (Cochran's Q p="
                    f"{fmt(r['p_value'], 'p')})"
                )
                + "."
            )
    gains = pl.concat(gains_all)
    parts.append(
        page.figure(
            "skill_gains",
            _figure(gains, low, high),
            f"Each board's score gain from {low} to {high} (points, paired "
            "95% cluster-robust intervals), sorted; one panel per player "
            "count.",
        )
    )
    page.section(f"Skill depth ({' < '.join(levels)})", *parts)


def _figure(gains: pl.DataFrame, low: str, high: str) -> Figure:
    counts = gains["n_players"].unique().sort().to_list()
    rows = max(gains.filter(pl.col("n_players") == n).height for n in counts)
    fig = Figure(
        figsize=(4.8 * len(counts) + 0.6, 0.28 * rows + 1.8), layout="constrained"
    )
    for i, n in enumerate(counts):
        ax = fig.add_subplot(1, len(counts), i + 1)
        part = gains.filter(pl.col("n_players") == n).sort("gain", descending=True)
        plots.plot_two_policies(
            ax,
            part,
            label="name",
            policies=[(f"{low} -> {high}", "gain", "lower", "upper")],
            xlabel=f"score gain {low} -> {high} (points)",
        )
        mean_gain = part["gain"].cast(pl.Float64).mean()
        if isinstance(mean_gain, float):
            ax.axvline(mean_gain, color="0.5", lw=1, ls=":")
        ax.set_title(f"{n} player(s)")
    fig.suptitle("Skill depth: who gains most from better play")
    return fig
