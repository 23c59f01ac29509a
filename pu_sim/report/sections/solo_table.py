"""The solo table at the published difficulty: the paired calibration's proposal.

Reads every bot's paired calibration (:class:`BotFit`, written by
:mod:`pu_sim.report.sections.solo_paired`) and proposes a table whose shape
changes only where the two strong bots settle an entry (its refitted value
rounds stably to one whole number under both) and whose level is the
published table's at the anchor bot (:mod:`pu_sim.analysis.solo_table`).  The
per-card formula quoted beside it is the one fitted on the fit half of the
setups and judged on the held-out half, moved to the same difficulty.  How
hard each table is at each bot's strength is a table of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from pu_sim.analysis import solo_fairness, solo_table
from pu_sim.analysis.calibration import DECK_COLUMNS, TargetTable
from pu_sim.analysis.solo_decks import CardFormula, Target
from pu_sim.report.markdown import ci, fmt, md_table, pct
from pu_sim.report.page import Page

__all__ = ["SETUP", "BotFit", "formula_words", "published_difficulty_section"]

SETUP = "game_id"
"""The cluster: runs of one seed deal the same setup to the same game_id."""


@dataclass(frozen=True)
class BotFit:
    """One bot's paired calibration, as the table section reads it.

    ``bands`` and ``formula``: the banded and per-card fits on every setup
    (the colour effects); ``stability``: the banded entries' rounding
    stability; ``held``: the rules fitted on half the setups and judged on
    the other half.
    """

    bands: pl.DataFrame
    formula: pl.DataFrame
    stability: pl.DataFrame
    held: solo_fairness.HoldOut


def formula_words(formula: CardFormula) -> str:
    """``target = 48.8 + 1.51 x green - 0.16 x red``."""

    def term(value: float, name: str) -> str:
        return f"{'-' if value < 0 else '+'} {abs(value):.2f} x {name}"

    return (
        f"target = {formula.base:.1f} {term(formula.green, 'green')} "
        f"{term(formula.red, 'red')}"
    )


def _same(a: TargetTable, b: TargetTable) -> bool:
    return a.base == b.base and dict(a.adjustments) == dict(b.adjustments)


def published_difficulty_section(
    page: Page,
    solo: pl.DataFrame,
    fits: Mapping[str, BotFit],
    anchor: str,
    judges: Sequence[str],
) -> None:
    """The proposed table, its level, the held-out formula and every bot's level.

    Why long: one block of the report, read top to bottom: the settled
    entries, the table they make, its level check, the formula beside it and
    the per-bot levels share the frames they compute.
    """
    published = TargetTable.published()
    mine = solo.filter(pl.col("bot").cast(pl.String) == anchor)
    settled = solo_table.settle({b: fits[b].stability for b in judges})
    proposed = solo_table.proposed_table(settled, mine)
    held = fits[anchor].held
    formula = CardFormula(
        base=held.formula.base, green=held.formula.green, red=held.formula.red,
        label="per-card formula (held out)",
    )  # fmt: skip
    targets: list[Target] = [published, formula]
    if not _same(proposed, published):
        targets.insert(1, proposed)
    levels = solo_table.levels(solo, targets=targets, cluster=SETUP)
    page.table("solo_table_settled", _settled_frame(settled, fits, judges))
    page.table("solo_table_proposed", proposed.to_frame())
    page.table("solo_levels", levels)
    level = {
        "published": (
            solo_table.success_rate(published, mine),
            solo_table.average_target(published, mine),
        ),
        "proposed": (
            solo_table.success_rate(proposed, mine),
            solo_table.average_target(proposed, mine),
        ),
        "formula": (
            solo_table.success_rate(formula, mine),
            solo_table.average_target(formula, mine),
        ),
    }
    page.headlines.append(
        _table_headline(settled, proposed, anchor, judges, level, held)
    )
    page.headlines.append(_level_headline(levels, published))
    held_rows = held.held_out
    page.section(
        "The solo table at the published difficulty",
        _settled_text(settled, fits, judges, anchor),
        _proposed_text(proposed, published, anchor, level, _weights_words(mine)),
        _formula_text(held, anchor, level, held_rows),
        _levels_text(levels),
    )


def _settled_frame(
    settled: pl.DataFrame, fits: Mapping[str, BotFit], judges: Sequence[str]
) -> pl.DataFrame:
    """The settled entries beside each judge's fit, rounding and flip share."""
    out = settled
    for bot in judges:
        fit = fits[bot].bands.select(
            "entry", "band", pl.col("estimate", "lower", "upper").name.prefix(f"{bot} ")
        )
        stab = fits[bot].stability.select(
            "entry", "band",
            pl.col("rounded", "flip_share", "stable").name.prefix(f"{bot} "),
        )  # fmt: skip
        out = out.join(
            fit, on=["entry", "band"], how="left", maintain_order="left"
        ).join(
            stab,
            on=["entry", "band"],
            how="left",
            maintain_order="left",
        )
    return out


def _settled_text(
    settled: pl.DataFrame,
    fits: Mapping[str, BotFit],
    judges: Sequence[str],
    anchor: str,
) -> str:
    """The entry-by-entry table: each judge's fit, its rounding, the verdict."""
    rows = []
    for r in settled.iter_rows(named=True):
        cells = [f"{r['entry']} {r['band']}", fmt(r["published"], "+.0f")]
        for bot in judges:
            fit = _row(fits[bot].bands, r["entry"], r["band"])
            stab = _row(fits[bot].stability, r["entry"], r["band"])
            cells += [
                ci(fit, "estimate", "lower", "upper", "+.1f"),
                f"{stab['rounded']:+.0f} ({pct(stab['flip_share'])})",
            ]
        cells += [fmt(r["proposed"], "+.0f"), f"{r['status']}: {r['reason']}"]
        rows.append(cells)
    header = ["entry", "published"]
    for bot in judges:
        header += [f"{bot} fitted [95% CI]", f"{bot} rounds to (flips)"]
    who = " and ".join(judges)
    return (
        f"Each entry of the published table refitted under {who} (least squares "
        "over the compositions' mean scores on the same setups; intervals "
        "clustered by setup) and rounded to whole points; the rounding is "
        "stable when at most 5% of bootstrap resamples of the setups round it "
        "otherwise. An entry is changed only when its rounding is stable under "
        f"{'both bots' if len(judges) == 2 else 'every judging bot'} and they "
        "round it to the same value; every other entry is **not settled** and "
        "keeps its published value. The base is not taken from a fit: it is "
        f"set below so that the table is as hard as the published one for "
        f"{anchor}.\n\n" + md_table(rows, [*header, "proposed", "verdict"])
    )


def _row(frame: pl.DataFrame, entry: str, band: str) -> dict[str, Any]:
    key = (pl.col("entry") == entry) & (pl.col("band") == band)
    return frame.filter(key).row(0, named=True)


def _proposed_text(
    proposed: TargetTable,
    published: TargetTable,
    anchor: str,
    level: Mapping[str, tuple[float, float]],
    weights: str,
) -> str:
    """The proposed table as the rulebook prints it, and its level check."""
    labels = published.band_labels()
    rows = [
        [labels[b]]
        + [
            _cell(published.adjustments[c][b], proposed.adjustments[c][b])
            for c in ("red", "orange", "green")
        ]
        for b in range(len(labels))
    ]
    (pub_rate, pub_avg), (new_rate, new_avg) = level["published"], level["proposed"]
    same = _same(proposed, published)
    return (
        f"**The proposed table** (base {proposed.base:.0f}"
        + (", the published table unchanged" if same else "; changes in bold")
        + f"). Its base is the whole number at which {anchor} reaches the target "
        f"as often as under the published table ({pct(pub_rate)}; proposed "
        f"{pct(new_rate)}), so the table changes shape, not difficulty. Its "
        f"average target over the deck compositions, weighted as the design "
        f"deals them ({weights}): {new_avg:.2f} points "
        f"(published {pub_avg:.2f}, difference {new_avg - pub_avg:+.2f}).\n\n"
        + md_table(rows, ["cards of that colour", "red", "orange", "green"])
    )


def _weights_words(games: pl.DataFrame) -> str:
    """How the design weights the compositions: equally, or by their games."""
    counts = games.group_by(DECK_COLUMNS).len()["len"]
    if counts.n_unique() == 1:
        return f"every one of the {counts.len()} compositions equally"
    return f"each of the {counts.len()} compositions by its games"


def _cell(published: float, proposed: float) -> str:
    if proposed == published:
        return f"{proposed:+.0f}"
    return f"**{proposed:+.0f}** (published {published:+.0f})"


def _formula_text(
    held: solo_fairness.HoldOut,
    anchor: str,
    level: Mapping[str, tuple[float, float]],
    rows: Mapping[str, Mapping[str, Any]],
) -> str:
    """The per-card alternative: fitted on half the setups, judged on the rest."""
    fit = {r["term"]: r for r in held.formula_fit.iter_rows(named=True)}
    rate, avg = level["formula"]
    pub, form = rows["published"], rows["per-card formula"]
    return (
        f"**The per-card alternative** ({anchor}, fitted on {held.fit_setups:,} "
        f"setups and judged on the other {held.held_setups:,}): "
        f"{formula_words(held.formula)}, to whole points (orange is the rest of "
        f"the 20 cards; slopes on the fit setups: green "
        f"{ci(fit['green'], 'estimate', 'lower', 'upper', '+.2f')}, red "
        f"{ci(fit['red'], 'estimate', 'lower', 'upper', '+.2f')} points per card "
        "in place of an orange one). Its base was moved on the fit setups to the "
        f"published table's success rate there ({pct(held.success)}); over all "
        f"of {anchor}'s games it succeeds in {pct(rate)}, and its average target "
        f"is {avg:.2f} points. On the held-out setups its success rate spreads "
        f"{100 * float(form['spread']):.1f} points over compositions beyond noise "
        f"(published {100 * float(pub['spread']):.1f}) and it misses the "
        f"compositions' mean scores by {float(form['misfit_sd']):.1f} points "
        f"(published {float(pub['misfit_sd']):.1f})."
    )


def _levels_text(levels: pl.DataFrame) -> str:
    """How hard each table is at each bot's strength."""
    rows = [
        [str(r["bot"]), str(r["target"]), f"{r['games']:,}", f"{r['setups']:,}",
         ci(r, "success", "success_lower", "success_upper", "%"),
         ci(r, "margin", "margin_lower", "margin_upper", "+.1f"),
         f"{r['average_target']:.1f}", f"{r['par_shift']:+.0f}"]
        for r in levels.iter_rows(named=True)
    ]  # fmt: skip
    header = ["bot", "target rule", "games", "setups", "reaches it [95% CI]",
              "mean score - target [95% CI]", "average target",
              "one game in two with every target"]  # fmt: skip
    return (
        "**The level at each bot's strength.** One table is one difficulty for "
        "people; how hard it is depends on who plays. Per bot and target rule: "
        "how often the bot reaches the target and by how much it beats it "
        "(intervals clustered by setup: every composition is played on the same "
        "setups, so the setups, not the games, are the independent draws), and "
        "by how many whole points every target would move for this bot to reach "
        "it in half its games (a table fitted at the bot's mean score sits "
        "there).\n\n" + md_table(rows, header)
    )


def _table_headline(
    settled: pl.DataFrame,
    proposed: TargetTable,
    anchor: str,
    judges: Sequence[str],
    level: Mapping[str, tuple[float, float]],
    held: solo_fairness.HoldOut,
) -> str:
    """What the calibration proposes: the settled changes, at which level."""
    changes = settled.filter(pl.col("status") == solo_table.CHANGE)
    loose = settled.filter(pl.col("status") == solo_table.NOT_SETTLED)
    who = " and ".join(judges)
    if changes.height:
        what = "change " + ", ".join(
            f"{r['entry']} {r['band']} {r['published']:+.0f} -> {r['proposed']:+.0f}"
            for r in changes.iter_rows(named=True)
        )
    else:
        what = "no change to the published entries"
    pub_rate, pub_avg = level["published"]
    new_rate, new_avg = level["proposed"]
    not_settled = (
        f"; not settled ({loose.height} of {settled.height}, kept as published: "
        "their rounding flips in more than 5% of resamples under "
        f"{'one of the bots' if len(judges) > 1 else 'the bot'}, or the bots "
        "round them differently): "
        + ", ".join(f"{r['entry']} {r['band']}" for r in loose.iter_rows(named=True))
        if loose.height
        else ""
    )
    return (
        f"**Solo table at the published difficulty (entries settled by {who}):** "
        f"{what}{not_settled}. Base {proposed.base:.0f} keeps {anchor}'s success "
        f"rate ({pct(pub_rate)} published, {pct(new_rate)} proposed); average "
        f"target {new_avg:.2f} (published {pub_avg:.2f}). The per-card formula "
        f"fitted on {held.fit_setups} setups and judged on the other "
        f"{held.held_setups}, at the same difficulty: {formula_words(held.formula)}."
    )


def _level_headline(levels: pl.DataFrame, published: TargetTable) -> str:
    """How hard the published table is at each bot's strength."""
    rows = levels.filter(pl.col("target") == published.label).sort(
        "success", descending=True
    )
    parts = [
        f"{r['bot']} {ci(r, 'success', 'success_lower', 'success_upper', '%')} "
        f"(one game in two at base {r['par_base']:.0f})"
        for r in rows.iter_rows(named=True)
    ]
    return (
        "**Solo level by bot (published table, intervals clustered by setup):** "
        "reaches the target in " + "; ".join(parts) + "."
    )
