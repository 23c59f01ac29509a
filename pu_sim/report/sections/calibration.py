"""The solo calibration sections: whether the target table is fair to every deck.

Per card and per count band, the score effect of each event colour against the
table's adjustment (the drift), the success rate and outcome rows under the
published table, and whether two bots find the same faults.  These sections
measure the published table on a study's own solo games; they propose no
table (the paired calibration study does, held out and at the published
difficulty: :mod:`pu_sim.report.sections.solo_table`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import polars as pl

from pu_sim import analysis
from pu_sim.analysis import calibration
from pu_sim.analysis.calibration import DECK_COLUMNS, TargetTable
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct, slug
from pu_sim.report.page import Page, attempt
from pu_sim.report.sections.shared import agreement_cells, excludes_zero, played_by

__all__ = ["calibration_robustness", "calibration_section"]


def _judge(r: dict[str, Any]) -> str:
    """Words for one term: whether the table over- or under-corrects it."""
    est, pub = float(r["estimate"]), float(r["published"])
    if r["drift_lower"] <= 0 <= r["drift_upper"]:
        return "consistent"
    if pub == 0:
        return "missing adjustment"
    if est * pub < 0 and (r["lower"] > 0 or r["upper"] < 0):
        return "wrong direction"
    return "over-corrects" if abs(pub) > abs(est) else "under-corrects"


def _linear_part(page: Page, solo: pl.DataFrame, suffix: str, who: str) -> str:
    """The per-card model: one score slope per colour against the table's."""
    lin, err = attempt(lambda: calibration.colour_effects(solo, model="linear"))
    if lin is None:
        return f"Per-card model not fitted: {err}."
    page.table(f"solo_colour_linear{suffix}", lin)
    rows = []
    words = []
    for r in lin.filter(pl.col("term") != "intercept").iter_rows(named=True):
        rows.append(
            [
                f"{r['colour']} (per card, replacing an orange one)",
                ci(r, "estimate", "lower", "upper", "+.3f"),
                fmt(r["published"], "+.3f"),
                ci(r, "drift", "drift_lower", "drift_upper", "+.3f"),
                _judge(r),
            ]
        )
        words.append(
            f"{r['colour']} {ci(r, 'estimate', 'lower', 'upper', '+.2f')} points "
            f"per card against the table's {r['published']:+.2f} ({_judge(r)})"
        )
    page.headlines.append(
        f"**Event colours{who}, per card in place of an orange card:** "
        + "; ".join(words)
        + "."
    )
    header = ["term", "score effect [95% CI]", "table's effect", "drift [95% CI]"]
    return (
        "**Per card.** Score = a + b_green x green + b_red x red, with orange as "
        "the reference (a deck always holds 20 cards), next to the same slope fitted "
        "to the published targets. Drift = score effect - target effect: positive "
        "means decks rich in that colour are easier than the table intends.\n\n"
        + md_table(rows, [*header, "verdict"])
    )


def _band_headlines(page: Page, band_fit: pl.DataFrame, who: str) -> None:
    """One headline per colour: which bands the table gets wrong."""
    for (colour,), part in (
        band_fit.filter(pl.col("term") != "intercept")
        .partition_by("colour", as_dict=True, maintain_order=True)
        .items()
    ):
        rs = list(part.iter_rows(named=True))
        off = [r for r in rs if r["drift_lower"] > 0 or r["drift_upper"] < 0]
        if not off:
            page.headlines.append(
                f"**Table, {colour}{who}:** every band's adjustment is consistent "
                "with the scores (all drift intervals include 0)."
            )
            continue
        verdicts = " / ".join(sorted({_judge(r) for r in off}))
        spans = ", ".join(
            f"{r['band']} cards: table {r['published']:+.0f}, score "
            f"{ci(r, 'estimate', 'lower', 'upper', '+.1f')}"
            for r in off
        )
        page.headlines.append(
            f"**Table, {colour}{who}:** {verdicts} in {len(off)} of {len(rs)} bands "
            f"({spans})."
        )


CALIBRATION_STUDY = (
    "the paired calibration study (`experiments/solo_target_calibration.py`, "
    "report in `reports/solo_target_calibration/`: every composition on the "
    "same setups, fits judged on held-out setups, entries changed only where "
    "their rounding is stable under both strong bots, the level kept at the "
    "published difficulty)"
)
"""Where the table to act on comes from: named by every in-sample section."""


def calibration_section(
    page: Page, solo: pl.DataFrame, key: str, title: str
) -> pl.DataFrame | None:
    """The calibration section of one group; returns its band fit, if any.

    It measures the published table on these games (the colour effects per
    card and per band against the table's, success and outcome rows by deck)
    and proposes no table: these games are fitted and judged in-sample, on
    decks each played on its own setups, so the table to act on is
    :data:`CALIBRATION_STUDY`'s.

    Why long: one block of the report, read top to bottom: the fit, its tables,
    figures and words share the frames they compute.
    """
    published = TargetTable.published()
    suffix = f"_{slug(key)}" if key else ""
    who = f" ({key})" if key else ""
    comp = calibration.deck_summary(solo)
    if comp.height < 3:
        return None  # one or two decks: the solo table already shows them
    bands = calibration.deck_summary(solo, level="bands")
    page.table(f"solo_decks{suffix}", comp)
    page.table(f"solo_deck_bands{suffix}", bands)
    parts = [
        f"{solo.height:,} solo games over {comp.height} deck compositions "
        f"({bands.height} band classes); per-composition and per-band scores, "
        f"targets and success: `solo_decks{suffix}.csv`, "
        f"`solo_deck_bands{suffix}.csv`. This section measures how the scores "
        "move with the deck against the published table's adjustments, on "
        "decks that are few or random, each on its own setups, fitted and "
        "judged on the same games: a check of the published table, not a "
        f"table to adopt. The table to act on comes from {CALIBRATION_STUDY}.",
        _linear_part(page, solo, suffix, who),
    ]
    fig, ax = plots.new_figure(6.4, 4.4)
    plots.plot_deck_means(ax, comp)
    parts.append(
        page.figure(
            f"solo_deck_means{suffix}",
            fig,
            "Mean score against the published target, one point per deck "
            "composition (size: games; colour: red cards). A calibrated table puts "
            f"the points on the slope-1 line. Solo games, {played_by(solo)}.",
        )
    )
    band_fit, err = attempt(lambda: calibration.colour_effects(solo, model="bands"))
    if band_fit is None:
        parts.append(
            f"Band-level model not fitted: {err}. Play random decks "
            "(`event_deck_mix='random'`) to measure every band of the table."
        )
        _ecdf_figure(page, solo, published, [], suffix, parts)
        page.section(title, *parts)
        return None
    page.table(f"solo_colour_bands{suffix}", band_fit)
    _band_headlines(page, band_fit, who)
    pub_par = calibration.rebase(published, solo, success=0.5, label="published, par")
    rows = [
        [r["colour"], r["band"], fmt(r["published"], "+.0f"),
         ci(r, "estimate", "lower", "upper", "+.1f"),
         ci(r, "drift", "drift_lower", "drift_upper", "+.1f"), _judge(r)]
        for r in band_fit.filter(pl.col("term") != "intercept").iter_rows(named=True)
    ]  # fmt: skip
    header = ["colour", "cards", "published", "score effect [95% CI]"]
    parts.append(
        "**Per band.** One effect per colour and count band beyond 0-2, the "
        "published table's own structure (each relative to 0-2 cards of that "
        "colour, the other colours' bands held fixed), beside the published "
        "adjustment; drift = score effect - adjustment.\n\n"
        + md_table(rows, [*header, "drift [95% CI]", "verdict"])
    )
    fig, ax = plots.new_figure(7.2, 4.2)
    plots.plot_adjustments(
        ax,
        band_fit.filter(pl.col("term") != "intercept").rename({"colour": "entry"}),
        recalibrated=None,
    )
    parts.append(
        page.figure(
            f"solo_adjustments{suffix}",
            fig,
            "Published adjustments (crosses, dashed) and fitted score effects with "
            "95% intervals (dots), per colour and card-count band; solo games, "
            f"{played_by(solo)}.",
        )
    )
    parts.append(_outcomes_part(page, solo, [published, pub_par], suffix))
    sp = calibration.success_spread(
        calibration.outcomes(solo, tables=[pub_par], level="bands")
    ).row(0, named=True)
    if sp["decks"] >= 2:
        page.headlines.append(
            f"**Fairness across decks{who}:** with the published adjustments at par "
            "(base set so the bot succeeds half the time) success ranges over "
            f"{pct(sp['min_success'])}-{pct(sp['max_success'])} across deck band "
            f"classes (flatness p={fmt(sp['p_value'], 'p')}), measured on these "
            "games; the table to act on is the paired calibration study's "
            "(`reports/solo_target_calibration/`)."
        )
    _ecdf_figure(page, solo, published, [pub_par], suffix, parts)
    page.section(title, *parts)
    return band_fit


def _outcomes_part(
    page: Page, solo: pl.DataFrame, tables: list[TargetTable], suffix: str
) -> str:
    """The same games graded by each table: success, its spread, outcome rows."""
    overall = calibration.outcomes(solo, tables=tables)
    per_band = calibration.outcomes(solo, tables=tables, level="bands")
    spread = calibration.success_spread(per_band)
    page.table(f"solo_outcomes{suffix}", overall)
    page.table(f"solo_outcomes_by_band{suffix}", per_band)
    page.table(f"solo_success_spread{suffix}", spread)
    labels = [b.row for b in calibration.outcome_bands()]
    rows = []
    for r in overall.join(spread, on="table", maintain_order="left").iter_rows(
        named=True
    ):
        spread_txt = (
            f"{pct(r['min_success'])} - {pct(r['max_success'])}"
            if r["decks"] >= 2
            else "too few games per class"
        )
        rows.append(
            [
                r["table"],
                f"{r['base']:.0f}" if "base" in r else "",
                ci(r, "success", "success_lower", "success_upper", "%"),
                spread_txt,
                fmt(r["p_value"], "p"),
                *[pct(r[b]) for b in labels],
            ]
        )
    bases = {t.label: t.base for t in tables}
    for row in rows:
        row[1] = f"{bases[row[0]]:.0f}"
    header = ["table", "base", "success [95% CI]", "spread over decks", "flatness p"]
    return (
        "**Success and outcome rows.** The same games graded by each table (the "
        'outcome rows are the rulebook\'s, by score - target). "Spread" is the '
        "lowest and highest success rate over deck band classes with at least 20 "
        "games; the chi-square test asks whether success is flat across them (a "
        'calibrated table gives a large p). The "par" table moves the base so '
        "this bot succeeds half the time, where unequal decks show most.\n\n"
        + md_table(rows, [*header, *labels])
    )


def _ecdf_figure(
    page: Page,
    solo: pl.DataFrame,
    published: TargetTable,
    tables: list[TargetTable],
    suffix: str,
    parts: list[str],
) -> None:
    """Score ECDFs of the fixed decks played; margins by red band under tables.

    A fixed deck is a composition holding at least 5% of the games (a grid
    cell, not a random draw); with two to eight of them, their score
    distributions are drawn against their targets.  The margin distributions
    by red band under ``tables`` (best at one difficulty, e.g. at par) show
    how even a table is over decks.
    """
    big = max(100, solo.height // 20)
    counts = solo.group_by(DECK_COLUMNS).len().filter(pl.col("len") >= big)
    if 2 <= counts.height <= 8:
        samples: dict[str, Any] = {}
        targets: dict[str, float] = {}
        for g, o, r, _ in counts.sort(DECK_COLUMNS).iter_rows():
            name = f"{g}/{o}/{r}"
            sub = solo.filter(
                (pl.col("deck_green") == g)
                & (pl.col("deck_orange") == o)
                & (pl.col("deck_red") == r)
            )
            samples[name] = sub["score"].to_numpy()
            targets[name] = published.target(g, o, r)
        fig, ax = plots.new_figure(6.8, 4.2)
        plots.plot_ecdf(ax, samples, targets=targets)
        ax.set_title("green/orange/red cards; dashed: published target")
        caption = (
            "Score distribution (ECDF) per fixed deck with its published target "
            "(dashed): where a curve crosses its target is the failure rate. "
            f"Solo games, {played_by(solo)}."
        )
        parts.append(page.figure(f"solo_ecdf{suffix}", fig, caption))
    if not tables:
        return
    fig, axes = plots.panel_figure(len(tables), 5.0, 4.0, extra_width=0.0)
    order = published.band_labels()
    for ax, table in zip(axes, tables, strict=True):
        graded = solo.with_columns(
            *calibration.deck_classes(published),
            margin=pl.col("score").cast(pl.Float64) - table.expr(),
        )
        samples = {
            f"red {b}": graded.filter(pl.col("band_red") == b)["margin"].to_numpy()
            for b in order
        }
        samples = {k: v for k, v in samples.items() if v.size}
        colours = dict(zip(samples, plots.shades("Reds", len(samples)), strict=True))
        plots.plot_ecdf(ax, samples, colours=colours, xlabel="score - target")
        ax.axvline(0, color="k", lw=1)
        ax.set_title(f"{table.label} table (base {table.base:.0f})")
    caption = (
        "Distribution of score minus target by number of red cards, under the "
        "published adjustments with the base at par: under a calibrated table "
        "the curves cross the target line (0) at the same height. Solo games, "
        f"{played_by(solo)}."
    )
    parts.append(page.figure(f"solo_margin_ecdf{suffix}", fig, caption))


def calibration_robustness(page: Page, fits: dict[str, pl.DataFrame]) -> None:
    """Whether the table's errors look the same for every bot (or board)."""
    if len(fits) < 2:
        return
    rows = []
    frames = []
    for a, b in combinations(fits, 2):
        ta, tb = (
            fits[k]
            .filter(pl.col("term") != "intercept")
            .with_columns(significant=excludes_zero("drift_lower", "drift_upper"))
            for k in (a, b)
        )
        res = analysis.robustness(ta, tb, on=("term",), estimate="drift")
        r = res.row(0, named=True)
        frames.append(res.with_columns(a=pl.lit(a), b=pl.lit(b)))
        rows.append([f"{a} vs {b}", *agreement_cells(r)])
        page.headlines.append(
            f"**Calibration robustness ({a} vs {b}):** the per-band drifts of the "
            f"published table have rank correlation {fmt(r['spearman'], '.2f')}; "
            f"{fmt(r['sign_agreement'], '%')} of the drifts significant for either "
            f"have the same sign for both, {r['conflicts']} conflict."
        )
    page.table("solo_calibration_robustness", pl.concat(frames))
    header = ["groups", "bands", "Spearman", "significant (a / b)", "same sign"]
    page.section(
        "Solo calibration: robustness",
        "Do two bots (or boards) find the same faults in the published table? The "
        "per-band drifts (score effect - table adjustment) compared between groups.",
        md_table(rows, [*header, "conflicts"]),
    )
