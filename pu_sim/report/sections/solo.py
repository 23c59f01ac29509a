"""The solo sections: scores against the published target, by bot and by board.

Solo games are graded by the rulebook's target table (rules 10.2); the
calibration of that table is :mod:`pu_sim.report.sections.calibration`'s.
"""

from __future__ import annotations

import polars as pl

from pu_sim import analysis
from pu_sim.analysis import calibration, clusters, solo_table
from pu_sim.analysis.calibration import DECK_COLUMNS, TargetTable
from pu_sim.report.markdown import ci, fmt, md_table, ratio_words
from pu_sim.report.page import Page

__all__ = ["has_deck", "solo_boards", "solo_summary"]


def has_deck(solo: pl.DataFrame) -> bool:
    """Whether the games record a whole 20-card event deck each."""
    if not all(c in solo.columns for c in DECK_COLUMNS):
        return False
    sums = solo.select(pl.sum_horizontal(*DECK_COLUMNS).alias("s"))["s"]
    return bool((sums == calibration.DECK_SIZE).all())


def _clustered(solo: pl.DataFrame, deck: bool) -> pl.DataFrame:
    """Per bot: setups, mean score and success rate, clustered by setup.

    The success rate (with a deck) is at the published target.  The setup
    is the report's paired-design ``group`` (runs dealt the same setups
    share it): a study that plays every setup under many decks has as many
    independent draws as setups, not games.
    """
    cluster = "group" if "group" in solo.columns else None
    means = clusters.cluster_means(solo, by=("bot",), value="score", cluster=cluster)
    out = means.select("bot", setups="clusters", lower="lower", upper="upper")
    if deck:
        hit = solo.with_columns(
            _hit=(pl.col("score") >= TargetTable.published().expr()).cast(pl.Float64)
        )
        rate = clusters.cluster_means(hit, by=("bot",), value="_hit", cluster=cluster)
        lower, upper = solo_table.rate_interval(rate)
        out = out.join(
            rate.select(
                "bot", success="mean", success_lower=pl.Series(lower),
                success_upper=pl.Series(upper),
            ),
            on="bot", maintain_order="left",
        )  # fmt: skip
    return out


def solo_summary(page: Page, solo: pl.DataFrame) -> None:
    """Scores per bot, their quantiles, the published target and paired bots.

    Intervals are clustered by setup (:func:`_clustered`).
    """
    deck = has_deck(solo)
    summary = (
        analysis.score_summary(solo, by=("bot",))
        .drop("lower", "upper")
        .join(_clustered(solo, deck), on="bot", how="left", maintain_order="left")
    )
    quant = analysis.score_quantiles(solo, by=("bot",), quantiles=(0.1, 0.5, 0.9))
    page.table("solo_scores", summary)
    page.table("solo_quantiles", quant)
    published = TargetTable.published()
    rows = []
    for r in summary.iter_rows(named=True):
        sub = solo.filter(pl.col("bot") == r["bot"])
        q = quant.filter(pl.col("bot") == r["bot"])["value"].to_list()
        row = [str(r["bot"]), f"{r['n']:,}", f"{r['setups']:,}",
               ci(r, "mean", "lower", "upper", ".2f")]  # fmt: skip
        row += [fmt(r["sd"], ".1f"), " / ".join(fmt(v, ".0f") for v in q)]
        if deck:
            target = float(sub.select(published.expr()).to_series().mean())  # type: ignore[arg-type]
            row += [
                f"{target:.1f}",
                ci(r, "success", "success_lower", "success_upper", "%"),
            ]
        rows.append(row)
    header = ["bot", "games", "setups", "mean score [95% CI]", "sd",
              "p10 / p50 / p90"]  # fmt: skip
    if deck:
        header += ["mean published target", "reaches target [95% CI]"]
    parts = [
        md_table(rows, header),
        "Intervals are clustered by setup: games dealt the same setup (under "
        "different decks or by different bots) are one draw of the boards.",
    ]
    if deck:
        below = [
            f"{r['bot']} averages {r['mean']:.1f} points"
            for r in summary.iter_rows(named=True)
        ]
        who = (
            " " + "; ".join(below) + ". Absolute success rates measure each bot, "
            "not people; the differences between decks are what a target table "
            "must get right."
        )
        parts.append(
            "Targets follow the rulebook's table (rules 10.2): 60, plus an "
            "adjustment per event colour by its count band." + who
        )
    paired = analysis.paired_differences(solo, by="bot", group_col="group")
    if paired.height:
        page.table("solo_bots_paired", paired)
        prows = []
        for r in paired.iter_rows(named=True):
            prows.append(
                [
                    f"{r['bot_a']} - {r['bot_b']}",
                    f"{r['groups']:,}",
                    ci(r, "mean_diff", "lower", "upper", "+.2f"),
                    fmt(r["variance_ratio"], ".2f"),
                ]
            )
            page.headlines.append(
                f"**Solo bots:** {r['bot_a']} - {r['bot_b']} = "
                f"{ci(r, 'mean_diff', 'lower', 'upper', '+.2f')} points on identical "
                f"setups ({ratio_words(r['variance_ratio'])})."
            )
        header = ["difference", "games", "mean [95% CI]", "variance ratio"]
        parts.append(
            "Paired by game (same seed, same setups):\n\n" + md_table(prows, header)
        )
    page.section("Solo scores", *parts)


def solo_boards(page: Page, solo: pl.DataFrame) -> None:
    """Solo difficulty of each corporation and planet under the published table."""
    published = TargetTable.published()
    parts = []
    for column in ("corporation", "planet"):
        if solo[column].n_unique() < 2:
            continue
        by = ("bot", column)
        summary = analysis.score_summary(solo, by=by)
        reached = calibration.outcomes(solo, tables=[published], by=by)
        table = summary.join(
            reached.drop("table", "n"), on=list(by), how="left", maintain_order="left"
        )
        page.table(f"solo_by_{column}", table)
        rows = [
            [str(r["bot"]), str(r[column]), f"{r['n']:,}",
             ci(r, "mean", "lower", "upper", ".2f"),
             ci(r, "success", "success_lower", "success_upper", "%")]
            for r in table.sort("bot", "mean", descending=[False, True]).iter_rows(
                named=True
            )
        ]  # fmt: skip
        header = ["bot", column, "games", "mean score [95% CI]",
                  "reaches the published target [95% CI]"]  # fmt: skip
        parts.append(md_table(rows, header))
    if parts:
        page.section(
            "Solo difficulty by corporation and planet",
            "The same published target (rules 10.2) for every board: where the "
            "mean score and the success rate differ, the target is easier or "
            "harder with that corporation or planet.",
            *parts,
        )
