"""The board sections: corporation and planet balance, how they interact, points.

Corporations and planets are the boards a seat plays; each is compared with the
fair share 1/n, rated by strength, paired inside setup groups, crossed with
the other (corporation x planet) and split into its scoring categories.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.analysis import stats
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct, ratio_words
from pu_sim.report.page import Page, attempt
from pu_sim.report.sections.shared import main_bot, median_ratio, played_by
from pu_sim.simulation.frames import SCORE_PARTS

__all__ = [
    "HEADLINE_ITEMS",
    "breakdown_section",
    "cell_section",
    "cluster_balance",
    "interaction_section",
    "label_balance",
]

CLUSTER = "group"
"""The setup group: the unit of every interval here."""

HEADLINE_ITEMS = 6
"""At most this many labels are named in one headline (the strongest and weakest)."""


def label_balance(
    page: Page,
    homo: pl.DataFrame,
    label: str,
    title: str,
    many_policies: bool,
    headline: bool = True,
) -> None:
    """Balance table, forest plot, strengths and paired comparisons of a label.

    Why long: one block of the report, read top to bottom: its table, figure,
    headline and words share the frames they compute.

    ``headline=False`` keeps its findings out of the headlines (when the
    verdicts under two policies state them).
    """
    labels = homo[label].unique()
    if labels.len() < 2:
        only = labels.to_list()[0] if labels.len() else "none"
        page.section(
            title,
            f"Only **{only}** appears in these games, so there is no {label} "
            "comparison: draw the seats' boards from a pool (e.g. "
            '`corporations="random"`) to compare them.',
        )
        return
    by = ("bot", label) if many_policies else (label,)
    table = cluster_balance(homo, by)
    page.table(f"{label}_balance", table)
    sig = table.filter(pl.col("significant"))
    if not headline:
        pass
    elif sig.height == 0:
        page.headlines.append(
            f"**{title}:** no {label}'s win rate differs from 1/n at any player count "
            f"after Holm correction ({table.height} comparisons)."
        )
    else:

        def item(r: dict[str, Any]) -> str:
            who = f" ({r['bot']})" if many_policies else ""
            return (
                f"{r[label]} at {r['n_players']}p{who}: "
                f"{ci(r, 'win_rate', 'lower', 'upper', '%')} vs "
                f"{pct(1 / r['n_players'])}"
            )

        ranked = list(sig.sort("excess", descending=True).iter_rows(named=True))
        if len(ranked) <= HEADLINE_ITEMS:
            listed = "; ".join(item(r) for r in ranked)
        else:  # the extremes; the table has them all
            k = HEADLINE_ITEMS // 2
            listed = (
                "most above: " + "; ".join(item(r) for r in ranked[:k])
                + "; most below: " + "; ".join(item(r) for r in ranked[-k:][::-1])
                + f" (all in the {label} table below)"
            )  # fmt: skip
        page.headlines.append(
            f"**{title}:** {sig.height} of {table.height} win rates differ from 1/n "
            f"after Holm correction: {listed}."
        )
    rows = [
        [
            str(r["n_players"]),
            *([str(r["bot"])] if many_policies else []),
            str(r[label]),
            f"{r['n']:,}",
            ci(r, "win_rate", "lower", "upper", "%"),
            fmt(r["p_adjusted"], "p"),
            ci(r, "mean_score", "score_lower", "score_upper", ".1f"),
            ci(r, "mean_rank", "rank_lower", "rank_upper", ".2f"),
            fmt(r["design_effect"], ".2f"),
        ]
        for r in table.iter_rows(named=True)
    ]
    header = ["players", *(["bot"] if many_policies else []), label, "seats played"]
    header += ["win rate [95% CI]", "Holm p", "mean score", "mean rank",
               "design effect"]  # fmt: skip
    fair = pl.col("win_rate") - pl.col("excess")
    plot_df = table.with_columns(
        excess_pp=pl.col("excess") * 100,
        excess_lower=(pl.col("lower") - fair) * 100,
        excess_upper=(pl.col("upper") - fair) * 100,
        lab=pl.col(label).cast(pl.String)
        + (pl.lit(" (") + pl.col("bot").cast(pl.String) + ")" if many_policies
           else pl.lit("")),
    )  # fmt: skip
    fig = _forest_panels(plot_df, title=f"{title}: win rate - 1/n")
    caption = (
        f"Win rate minus 1/n of each {label} in percentage points with 95% "
        "cluster-robust intervals over setups (filled: significant after Holm), "
        f"sorted by the effect; one panel per player count; {played_by(homo)}."
    )
    intro = (
        "Intervals treat a setup (a group of games dealt alike) as the unit "
        "(cluster-robust, CR1, t with setups - 1 degrees of freedom); the design "
        "effect is that variance over the variance if every seat were "
        "independent (above 1: naive intervals would be too narrow)."
    )
    parts = [intro, md_table(rows, header),
             page.figure(f"{label}_win_rate", fig, caption)]  # fmt: skip
    bot = main_bot(homo)
    main = homo.filter(pl.col("bot") == bot)
    strength, err = attempt(
        lambda: analysis.strength_model(main, by=label, n_boot=100, cluster=CLUSTER)
    )
    if strength is not None:
        page.table(f"{label}_strength", strength)
        srows = [
            [
                str(r[label]),
                f"{r['n']:,}",
                ci(r, "rating", "lower", "upper", "+.3f"),
                pct(r["p_beat_average"]),
            ]
            for r in strength.iter_rows(named=True)
        ]
        parts.append(
            f"Plackett-Luce strengths ({bot}) from whole finishing orders "
            "(log-strength, mean 0; 95% bootstrap over setups, each drawn with "
            "all its games, which share its luck):\n\n"
            + md_table(srows, [label, "seats", "rating [95% CI]", "beats an average"])
        )
    elif err:
        parts.append(f"Strength model not fitted: {err}.")
    paired = _paired_by_bot(homo, label)
    if paired.height:
        page.table(f"{label}_paired", paired)
        summaries = []
        for (who,), part in paired.partition_by(
            "bot", as_dict=True, maintain_order=True
        ).items():
            ratio = median_ratio(part)
            parts.append(
                f"Paired comparisons inside setup groups, {who} ({part.height} "
                f"pairs): the median variance ratio is {ratio:.2f}, so an unpaired "
                f"study would need about {ratio:.1f}x the games for the same "
                f"interval width (table `{label}_paired.csv`, column `bot`)."
            )
            summaries.append(
                f"{who}: {ratio_words(ratio)} for {label} differences (median over "
                f"{part.height} pairs)"
            )
        page.headlines.append(
            f"**Paired design ({label}s):** " + "; ".join(summaries) + "."
        )
    page.section(title, *parts)


def _paired_by_bot(homo: pl.DataFrame, label: str) -> pl.DataFrame:
    """Paired differences of ``label`` within setup groups, one bot at a time.

    The bots of a study play the same setups: pooled, a group's cell would mix
    two bots' games, so each bot is paired on its own games (its own Holm
    family), and the ``bot`` column says whose differences a row holds.
    """
    frames = [
        analysis.paired_differences(games, by=label, group_col="group").select(
            pl.lit(str(bot)).alias("bot"), pl.all()
        )
        for (bot,), games in homo.sort("bot")
        .partition_by("bot", as_dict=True, maintain_order=True)
        .items()
    ]
    return pl.concat(frames) if frames else pl.DataFrame()


def _forest_panels(plot_df: pl.DataFrame, *, title: str) -> Figure:
    """One forest panel per player count, rows sorted by the effect (pp)."""
    counts = plot_df["n_players"].unique().sort().to_list()
    rows = max(plot_df.filter(pl.col("n_players") == n).height for n in counts)
    fig, axes = plots.panel_figure(len(counts), 4.4, 0.3 * rows + 1.8, extra_width=0.8)
    for ax, n in zip(axes, counts, strict=True):
        part = plot_df.filter(pl.col("n_players") == n).sort(
            "excess_pp", descending=True
        )
        plots.plot_forest(
            ax, part, label="lab", estimate="excess_pp", lower="excess_lower",
            upper="excess_upper", reference=0.0, significant="significant",
            xlabel="win rate - 1/n (percentage points)",
        )  # fmt: skip
        ax.set_title(f"{n} players")
    fig.suptitle(title)
    return fig


def cluster_balance(games: pl.DataFrame, by: Sequence[str]) -> pl.DataFrame:
    """Win rate, score and rank per label with intervals over setups (``group``).

    ``lower``/``upper`` bound the win rate, ``excess`` is the rate minus 1/n;
    p-values test a fair share and are Holm-adjusted over the whole table.
    """
    wins = analysis.cluster_win_rates(games, by=by, cluster=CLUSTER)
    keys = ["n_players", *by]
    score = analysis.cluster_means(games, by=by, value="score", cluster=CLUSTER)
    rank = analysis.cluster_means(games, by=by, value="rank", cluster=CLUSTER)
    adjusted = stats.adjust(wins["p_value"].to_numpy(), "holm")
    return (
        wins.select(
            *keys, "n", "clusters", "win_rate", "expected", "excess",
            lower=pl.col("lower") + pl.col("expected"),
            upper=pl.col("upper") + pl.col("expected"),
            p_value="p_value", p_adjusted=pl.Series(adjusted),
            significant=pl.Series(adjusted < 0.05), design_effect="design_effect",
        )
        .join(score.select(*keys, mean_score="mean", score_lower="lower",
                           score_upper="upper"), on=keys, maintain_order="left")
        .join(rank.select(*keys, mean_rank="mean", rank_lower="lower",
                          rank_upper="upper"), on=keys, maintain_order="left")
    )  # fmt: skip


def cell_section(page: Page, games: pl.DataFrame) -> None:
    """Corporation x planet cells against fair, significant ones marked (Holm)."""
    if games["corporation"].n_unique() < 2 or games["planet"].n_unique() < 2:
        return
    bot = main_bot(games)
    cells = analysis.cell_effects(games, cluster=CLUSTER, correction="holm")
    cells = cells.with_columns(effect_pp=pl.col("effect") * 100)
    page.table("corporation_planet_cells", cells)
    fig = _cells_figure(cells, bot)
    sig = cells.filter(pl.col("significant"))
    page.headlines.append(
        f"**Corporation x planet ({bot}):** {sig.height} of {cells.height} "
        "combinations' win rates differ from 1/n after Holm correction over all "
        "of them"
        + (
            ": "
            + "; ".join(
                f"{r['corporation']} on {r['planet']} at {r['n_players']}p "
                f"{fmt(r['effect_pp'], '+.0f')} pp"
                for r in sig.sort(pl.col("effect").abs(), descending=True)
                .head(HEADLINE_ITEMS)
                .iter_rows(named=True)
            )
            if sig.height
            else ""
        )
        + "."
    )
    page.section(
        f"Corporation x planet cells ({bot})",
        "Each combination's win rate minus 1/n in percentage points, with "
        "intervals over setups and p-values Holm-adjusted over every cell of "
        "every player count (a few dozen cells would otherwise show some "
        "'significant' ones by chance); framed bold cells are significant after "
        "the correction (table `corporation_planet_cells.csv`).",
        page.figure("corporation_planet_cells", fig,
                    f"Corporation x planet win rate - 1/n ({bot}); framed: "
                    "significant after Holm; one panel per player count."),
    )  # fmt: skip


def _cells_figure(cells: pl.DataFrame, bot: str) -> Figure:
    """One panel per player count on one colour scale, one colour bar.

    Rows (corporations) and columns (planets) are ordered by their mean
    effect over every panel, strongest first, so the panels read alike.
    """
    counts = cells["n_players"].unique().sort().to_list()
    order = {
        key: cells.group_by(key)
        .agg(pl.col("effect_pp").mean())
        .sort("effect_pp", key, descending=[True, False])[key]
        .to_list()
        for key in ("corporation", "planet")
    }
    span = float(cells["effect_pp"].abs().max() or 1.0)  # type: ignore[arg-type]
    n_corp = len(order["corporation"])
    fig, axes = plots.panel_figure(len(counts), 6.5, 0.4 * n_corp + 2.7,
                                   extra_width=1.0, sharex=False)  # fmt: skip
    for i, (ax, n) in enumerate(zip(axes, counts, strict=True)):
        plots.plot_heatmap(
            ax, cells.filter(pl.col("n_players") == n), row="corporation",
            col="planet", value="effect_pp", significant="significant",
            fmt="{:+.0f}", span=span, rows=order["corporation"],
            cols=order["planet"], colorbar=False,
        )  # fmt: skip
        ax.set_title(f"{n} players")
        if i % plots.PANELS_ACROSS:  # the same rows in every panel: named once a row
            ax.set_ylabel("")
            ax.tick_params(axis="y", labelleft=False)
    fig.colorbar(axes[0].get_images()[0], ax=axes,
                 label="win rate - 1/n (percentage points)")  # fmt: skip
    fig.suptitle(f"Corporation x planet: win rate - 1/n ({bot})")
    return fig


def interaction_section(page: Page, homo: pl.DataFrame) -> None:
    """Corporation x planet deltas, when both vary.

    Each player count is one question ("which combinations do not add up at
    n players?"), so its cells are one family: p-values are Holm-adjusted
    over the combinations of that player count.
    """
    if homo["corporation"].n_unique() < 2 or homo["planet"].n_unique() < 2:
        return
    table = _holm_within(analysis.interaction_table(homo), "n_players")
    page.table("corporation_planet", table)
    sizes = table.group_by("n_players").agg(pl.col("n").sum()).sort("n")
    n_main = int(sizes["n_players"][-1])
    sub = table.filter(pl.col("n_players") == n_main)
    fig, ax = plots.new_figure(7.5, 0.35 * sub["corporation"].n_unique() + 2.5)
    plots.plot_heatmap(
        ax, sub, row="corporation", col="planet", value="delta",
        significant="significant", colorbar_label="interaction delta (points)",
    )  # fmt: skip
    ax.set_title(f"Corporation x planet interaction, {n_main} players (points)")
    off = sub.filter(pl.col("significant"))
    family = int(sub["p_value"].is_not_nan().sum())
    if off.height:
        r = off.sort(pl.col("delta").abs(), descending=True).row(0, named=True)
        page.headlines.append(
            f"**Corporation x planet scores ({main_bot(homo)}, {n_main}p):** "
            f"{off.height} of {family} combinations deviate from additivity after "
            f"Holm correction over the {family} combinations at {n_main} players; "
            f"the largest is {r['corporation']} on {r['planet']}: "
            f"{ci(r, 'delta', 'lower', 'upper', '+.1f')} points."
        )
    page.section(
        "Corporation x planet interaction",
        "Cell mean minus corporation mean minus planet mean plus grand mean: "
        "positive cells are combinations stronger than their parts. A cell "
        "deviates from additivity when its Holm-adjusted p-value is below 5%, "
        "the correction taken over the combinations of its player count (table "
        "`corporation_planet.csv` has every player count, with `p_adjusted`).",
        page.figure(
            "corporation_planet", fig,
            f"Interaction deltas at {n_main} players ({main_bot(homo)}); framed: "
            "deviates from "
            "additivity after Holm over that player count's combinations.",
        ),
    )  # fmt: skip


def _holm_within(table: pl.DataFrame, family: str) -> pl.DataFrame:
    """Add ``p_adjusted`` and ``significant`` (5%): Holm within each ``family``."""
    p = table["p_value"].to_numpy()
    keys = table[family].to_numpy()
    adjusted = np.full(p.shape, np.nan)
    for key in np.unique(keys):
        rows = keys == key
        adjusted[rows] = stats.holm(p[rows])
    return table.with_columns(
        p_adjusted=pl.Series(adjusted), significant=pl.Series(adjusted < 0.05)
    )


def breakdown_section(page: Page, homo: pl.DataFrame) -> None:
    """Mean points per scoring category, by bot and corporation."""
    table = analysis.score_breakdown(homo, by=("bot", "corporation"))
    page.table("score_breakdown", table)
    keys = ["n_players", "bot", "corporation"]
    n_keys = table.select(keys).unique().height
    fig, ax = plots.new_figure(7.0, 0.4 * n_keys + 1.8)
    labelled = table.with_columns(
        lab=pl.format("{}p {} {}", *[pl.col(k) for k in keys])
    )
    plots.plot_score_breakdown(ax, labelled, label="lab")
    wide = table.pivot(on="part", index=keys, values="mean")
    parts = list(SCORE_PARTS)
    rows = [
        [str(r[k]) for k in keys] + [fmt(r[p], ".1f") for p in parts]
        for r in wide.iter_rows(named=True)
    ]
    header = ["players", "bot", "corporation"]
    header += [p.removeprefix("score_") + " pts" for p in parts]
    page.section(
        "Where the points come from",
        "Mean points per scoring category (they add up to the score).",
        md_table(rows, header),
        page.figure(
            "score_breakdown",
            fig,
            f"Mean points by category, per player count, bot ({played_by(homo)}) "
            "and corporation.",
        ),
    )
