"""Skill depth: whether a better player gains more with some boards than others.

In multiplayer, from mixed-skill tables (:mod:`pu_sim.analysis.mixed_skill`):
one stronger seat among weaker ones and the reverse, so a board's skill
payoff is a win rate against the table, as in TAG's 2025 balancing
competition.  Tables where every seat plays one level cannot show it (the
opponents improve with the player).  In solo there are no opponents: the
skill ladder's mean score per board and level, and each board's gain from
greedy to the strongest level (:mod:`pu_sim.analysis.skill`).
"""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.analysis import mixed_skill
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct
from pu_sim.report.page import Page
from pu_sim.report.policies import Policies

__all__ = ["skill_section"]

KINDS = ("corporation", "planet")


def skill_section(page: Page, games: pl.DataFrame, policies: Policies) -> None:
    """Mixed-skill tables (multiplayer), then the solo ladder."""
    _mixed_section(page, games, policies)
    _solo_ladder_section(page, games, policies)


# ---- multiplayer: mixed-skill tables ------------------------------------------------


def _levels(mixed: pl.DataFrame, policies: Policies) -> tuple[str, str] | None:
    """(stronger, weaker): the study's ladder order, else the data's."""
    bots = sorted(set(mixed["bot"].cast(pl.String).to_list()))
    if len(bots) != 2:
        return None
    ladder = list(policies.ladder)
    if all(b in ladder for b in bots):
        weak, strong = sorted(bots, key=ladder.index)
        return strong, weak
    return mixed_skill.skill_order(mixed, bots)


def _mixed_section(page: Page, games: pl.DataFrame, policies: Policies) -> None:
    """Each board's skill payoff on mixed tables, replicated on two halves.

    Why long: one block of the report, read top to bottom: its tables, figure and
    words share the frames they compute.
    """
    if "role" not in games.columns:
        return
    mixed = games.filter((pl.col("role") == "mixed") & (pl.col("n_players") >= 2))
    levels = _levels(mixed, policies) if mixed.height else None
    if levels is None:
        return
    strong, weak = levels
    parts = [
        f"Tables that mix two levels of play: one **{strong}** seat among "
        f"**{weak}** seats, and from 3 players the reverse, one {weak} seat among "
        f"{strong} seats, each setup played with the odd seat at every position "
        "and the boards rotated. For each board: the win rate of the lone "
        f"{strong} seat holding it, of the lone {weak} seat holding it, the gap "
        "between them (percentage points), and the odds ratio (the lone "
        f"{strong} seat's odds of winning over the lone {weak} seat's); a board's "
        "own strength lifts both seats and cancels in the odds ratio. *Skill "
        "pays* is the board's odds ratio over the geometric mean of its player "
        "count's boards: above 1 where skill pays more with it. Intervals are "
        "cluster-robust over setups (95%); each table is one family, Holm over "
        "every board and player count; a finding is declared on one half of the "
        "setups and confirmed in the same direction on the other (one-sided, "
        "Holm over the declared ones)."
    ]
    parts.append(_overall(page, mixed, strong, weak))
    figures = []
    for kind in KINDS:
        table = mixed_skill.skill_findings(mixed, strong=strong, weak=weak, by=kind)
        if table.height == 0:
            continue
        table = table.sort(["n_players", "excess_ratio"], descending=[False, True])
        page.table(f"skill_mixed_{kind}", table)
        spread = mixed_skill.gap_spread(mixed, strong=strong, weak=weak, by=kind)
        page.table(f"skill_mixed_{kind}_spread", spread)
        parts.append(_board_table(table, kind, strong, weak))
        parts.append(_spread_words(spread, kind))
        page.headlines.append(_headline(table, kind, strong, weak))
        figures.append(
            page.figure(
                f"skill_mixed_{kind}",
                _figure(table, kind),
                f"Skill pays: each {kind}'s odds ratio (lone {strong} over lone "
                f"{weak}) over its player count's mean, log scale, 95% "
                "cluster-robust intervals, sorted; filled points replicated on "
                "both halves of the setups.",
            )
        )
    page.section(f"Skill depth: mixed tables ({strong} and {weak})", *parts, *figures)


def _overall(page: Page, mixed: pl.DataFrame, strong: str, weak: str) -> str:
    """Each kind of table's lone-seat win rate against its fair share."""
    seats = mixed_skill.lone_seats(mixed, strong, weak).with_columns(
        lone_win=pl.col("win_share")
    )
    rates = analysis.cluster_means(seats, by=("level",), value="lone_win",
                                   cluster="group")  # fmt: skip
    page.table("skill_mixed_overall", rates)
    rows = [
        [
            str(r["n_players"]),
            f"one {strong} among {weak}" if r["level"] == "strong"
            else f"one {weak} among {strong}",
            ci(r, "mean", "lower", "upper", "%"),
            pct(1.0 / r["n_players"]),
        ]
        for r in rates.sort("n_players", "level").iter_rows(named=True)
    ]  # fmt: skip
    return md_table(rows, ["players", "table", "lone seat wins [95% CI]", "fair share"])


def _board_table(table: pl.DataFrame, kind: str, strong: str, weak: str) -> str:
    rows = [
        [
            str(r["n_players"]),
            str(r[kind]),
            ci(r, "strong_rate", "strong_lower", "strong_upper", "%"),
            ci(r, "weak_rate", "weak_lower", "weak_upper", "%"),
            fmt(100 * r["gap"], "+.1f"),
            ci(r, "excess_ratio", "excess_ratio_lower", "excess_ratio_upper", ".2f"),
            fmt(r["p_adjusted"], "p"),
            _replicated_word(r),
        ]
        for r in table.iter_rows(named=True)
    ]
    header = ["players", kind, f"lone {strong} wins", f"lone {weak} wins",
              "gap, pp", "skill pays (x mean)", "Holm p",
              "confirmed on the other half"]  # fmt: skip
    return f"**{kind.title()}s**\n\n" + md_table(rows, header)


def _replicated_word(r: dict[str, object]) -> str:
    if not r["replicable"]:
        return "too few setups"
    return "yes" if r["replicated"] else ("no" if r["declared"] else "–")


def _spread_words(spread: pl.DataFrame, kind: str) -> str:
    """Whether the odds ratios differ at all, per player count."""
    if spread.height == 0:
        return ""
    items = [
        f"{r['n_players']} players: F = {fmt(r['f'], '.2f')} on "
        f"{r['df_num']:.0f} and {r['df_denom']:.0f} df, p = {fmt(r['p_value'], 'p')}"
        for r in spread.iter_rows(named=True)
    ]
    return (
        f"Do the {kind}s' odds ratios differ at all (joint Wald test on the "
        "cluster-robust covariance, one per player count)? " + "; ".join(items) + "."
    )


def _headline(table: pl.DataFrame, kind: str, strong: str, weak: str) -> str:
    """The replicated findings only, at their confirming half's size."""
    head = f"**Skill depth ({kind}s, mixed tables of {strong} and {weak}):** "
    if not table["replicable"].any():
        return head + "too few setups to check any finding on two halves."
    kept = table.filter(pl.col("replicated"))
    lost = table.filter(pl.col("declared") & ~pl.col("replicated"))
    family = f"{table.height} {kind} x player-count comparisons"
    if kept.height == 0:
        text = head + (
            f"skill pays alike with every {kind}: no {kind}'s odds ratio differs "
            f"from its player count's mean on both halves of the setups (Holm over "
            f"the {family})"
        )
    else:
        items = [
            f"{'more' if r['excess_conf'] > 1 else 'less'} with {r[kind]} at "
            f"{r['n_players']}p (x{fmt(r['excess_conf'], '.2f')} on the confirming "
            "half)"
            for r in kept.iter_rows(named=True)
        ]
        text = head + (
            f"skill pays {'; '.join(items)}, declared on half of the setups (Holm "
            f"over the {family}) and confirmed on the other"
        )
    if lost.height:
        text += "; not replicated: " + ", ".join(
            f"{r[kind]} at {r['n_players']}p" for r in lost.iter_rows(named=True)
        )
    return text + "."


def _figure(table: pl.DataFrame, kind: str) -> Figure:
    counts = table["n_players"].unique().sort().to_list()
    rows = max(table.filter(pl.col("n_players") == n).height for n in counts)
    fig, axes = plots.panel_figure(len(counts), 4.2, 0.3 * rows + 1.8, extra_width=0.8)
    for ax, n in zip(axes, counts, strict=True):
        part = table.filter(pl.col("n_players") == n).sort("excess_ratio")
        part = part.with_columns(label=pl.col(kind).cast(pl.String))
        plots.plot_forest(
            ax, part.reverse(), label="label", estimate="excess_ratio",
            lower="excess_ratio_lower", upper="excess_ratio_upper", reference=1.0,
            significant="replicated", xlabel="skill pays (x mean, log scale)",
        )  # fmt: skip
        ax.set_xscale("log")
        ax.set_title(f"{n} players")
    fig.suptitle(f"Skill depth by {kind}: mixed tables")
    return fig


# ---- solo: the skill ladder ---------------------------------------------------------


def _cell(r: dict[str, object]) -> str:
    return (
        f"{fmt(r['mean'], '.1f')} [{fmt(r['lower'], '.1f')}, {fmt(r['upper'], '.1f')}]"
    )


def _solo_ladder_section(page: Page, games: pl.DataFrame, policies: Policies) -> None:
    """Solo score per board and level, and the gains from greedy to the top.

    Why long: one block of the report, read top to bottom: its matrices, figure and
    words share the frames they compute.
    """
    levels = list(policies.ladder)
    if len(levels) < 2 or "role" not in games.columns:
        return
    bot = pl.col("bot").cast(pl.String)
    ladder = games.filter(
        bot.is_in(levels) & (pl.col("n_players") == 1) & (pl.col("role") == "ladder")
    )
    if ladder["bot"].n_unique() != len(levels):
        return
    low = "greedy" if "greedy" in levels[:-1] else levels[0]
    high = levels[-1]
    parts = [
        f"The skill ladder {' < '.join(levels)} (weakest first) on the same solo "
        "setups. Mean score per board and level with 95% cluster-robust "
        f"intervals over setups; then each board's gain from {low} to {high}, "
        "paired inside setups. Solo has no opponents, so the score is the "
        "measure of play."
    ]
    gains_all = []
    for kind in KINDS:
        matrix = analysis.skill_matrix(
            ladder, levels=levels, by=(kind,), value="score", cluster="group"
        )
        page.table(f"skill_solo_{kind}", matrix)
        gains = analysis.skill_gains(
            ladder, low=low, high=high, by=kind, value="score", cluster="group"
        )
        page.table(f"skill_solo_gain_{kind}", gains)
        gains_all.append(
            gains.with_columns(kind=pl.lit(kind), name=pl.col(kind).cast(pl.String))
            .drop(kind)
        )  # fmt: skip
        rows = []
        for name in matrix[kind].unique(maintain_order=True).to_list():
            cells = {
                str(r["bot"]): _cell(r)
                for r in matrix.filter(pl.col(kind) == name).iter_rows(named=True)
            }
            g = gains.filter(pl.col(kind) == name)
            g_text = (
                ci(g.row(0, named=True), "gain", "lower", "upper", "+.1f")
                if g.height
                else "–"
            )
            rows.append([str(name), *(cells.get(lv, "–") for lv in levels), g_text])
        parts.append(
            f"**{kind.title()}s, solo: mean score by level**\n\n"
            + md_table(rows, [kind, *levels, f"gain {low} -> {high}"])
        )
        for r in analysis.gain_spread(gains).iter_rows(named=True):
            if r["labels"] >= 2:
                page.headlines.append(_solo_headline(r, kind, low, high))
    gains = pl.concat(gains_all)
    parts.append(
        page.figure(
            "skill_solo_gains",
            _gain_figure(gains, low, high),
            f"Each board's solo score gain from {low} to {high} (points, paired "
            "95% cluster-robust intervals), sorted.",
        )
    )
    page.section(f"Skill depth in solo ({' < '.join(levels)})", *parts)


def _solo_headline(r: dict[str, object], kind: str, low: str, high: str) -> str:
    test = (
        f"they differ between {kind}s (Cochran's Q p={fmt(r['p_value'], 'p')}, "
        f"spread {fmt(r['spread'], '.1f')} points)"
        if isinstance(r["p_value"], float) and r["p_value"] < 0.05
        else f"no evidence that they differ (Cochran's Q p={fmt(r['p_value'], 'p')})"
    )
    return (
        f"**Skill depth ({kind}s, solo, {low} -> {high}):** score gains from "
        f"{fmt(r['min_gain'], '+.1f')} to {fmt(r['max_gain'], '+.1f')} points (mean "
        f"{fmt(r['mean_gain'], '+.1f')}); {test}."
    )


def _gain_figure(gains: pl.DataFrame, low: str, high: str) -> Figure:
    part = gains.sort("gain", descending=True).with_columns(
        name=pl.format("{} ({})", pl.col("name"), pl.col("kind"))
    )
    fig = Figure(figsize=(6.4, 0.28 * part.height + 1.8), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    plots.plot_two_policies(
        ax, part, label="name",
        policies=[(f"{low} -> {high}", "gain", "lower", "upper")],
        xlabel=f"score gain {low} -> {high} (points)",
    )  # fmt: skip
    mean_gain = float(np.mean(part["gain"].to_numpy()))
    ax.axvline(mean_gain, color="0.5", lw=1, ls=":",
               label=f"mean gain ({mean_gain:+.1f})")  # fmt: skip
    ax.legend(loc="best", fontsize=7)  # the mean line is named too
    fig.suptitle("Skill depth in solo: who gains most from better play")
    return fig
