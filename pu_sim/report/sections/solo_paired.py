"""The solo target table judged on paired boards: per composition, held out.

When the same setups (corporation, planet, tiles, objectives: one ``game_id``
across runs of one seed) are played under many event-deck compositions, a
deck's effect is a difference within setups (:mod:`pu_sim.analysis.solo_decks`).
This section reports, per bot: the composition means against the published
targets, three target rules (published, refitted banded table, per-card
formula) judged per composition on held-out setups, the rounding stability of
the refitted entries, and the boards' difficulty offsets; then, across bots,
how the colour effects change with skill and which table changes every bot
agrees on.  The bot whose strength the table is fitted at is chosen by the
data: the one whose median margin at the published target is nearest zero
(the rulebook's target is the score a typical player reaches about half the
time).

Why long: the paired-deck calibration writes each bot's whole block (fits,
rounding stability, boards, skill) and the comparison of the bots; its helpers
are private to it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from pu_sim.analysis import clusters, solo_decks, solo_fairness
from pu_sim.analysis.calibration import DECK_COLUMNS, TargetTable
from pu_sim.analysis.solo_decks import CardFormula
from pu_sim.report.markdown import ci, fmt, md_table, pct, slug
from pu_sim.report.page import Page
from pu_sim.report.sections.shared import played_by
from pu_sim.report.sections.solo_table import (
    SETUP,
    BotFit,
    formula_words,
    published_difficulty_section,
)

__all__ = [
    "is_paired_deck_design",
    "is_paired_subsample",
    "paired_calibration_section",
    "strength_anchor",
]

MIN_DECKS = 13
"""Compositions a banded table needs: a base and four bands of three colours."""


def _deck_design(solo: pl.DataFrame) -> tuple[int, float]:
    """Compositions played, and the share of games in paired setups.

    The share counts games in setups (``game_id`` per bot) played under two
    or more compositions; (0, 0.0) without the columns.
    """
    if not all(c in solo.columns for c in (*DECK_COLUMNS, "bot", SETUP)):
        return 0, 0.0
    n_decks = solo.select(pl.struct(*DECK_COLUMNS).n_unique()).item()
    paired = solo.select(
        (pl.struct(*DECK_COLUMNS).n_unique().over("bot", SETUP) >= 2).mean()
    ).item()
    return int(n_decks), float(paired or 0.0)


def is_paired_deck_design(solo: pl.DataFrame) -> bool:
    """Whether (nearly) every setup was played under several deck compositions.

    At least :data:`MIN_DECKS` compositions, and 90% of the games in setups
    (``game_id`` per bot) played under two or more of them; a run of random
    decks beside a few fixed ones is not a paired design.
    """
    n_decks, paired = _deck_design(solo)
    return n_decks >= MIN_DECKS and paired >= 0.9


def is_paired_subsample(solo: pl.DataFrame) -> bool:
    """A paired design too small for a banded table: 3+ decks over shared setups.

    Enough for the per-card formula (three terms), so a costly bot that played
    a few compositions on a few setups still shows its colour effects.
    """
    n_decks, paired = _deck_design(solo)
    return n_decks >= 3 and paired >= 0.9


def _reference_deck(played: set[tuple[int, int, int]]) -> tuple[int, int, int]:
    """The balanced deck when it was played, else the first one played."""
    ref = solo_decks.REFERENCE_DECK
    return ref if ref in played else min(played)


def strength_anchor(solo: pl.DataFrame) -> pl.DataFrame:
    """Per bot: games, median margin at the published target, success rate.

    Sorted so the first row is the bot nearest the rulebook's anchor: median
    margin nearest 0; on ties (margins are whole or half points, so two bots
    often tie) success rate nearest one half, then more games, then the name,
    so the choice never depends on row order.
    """
    published = TargetTable.published()
    return (
        solo.with_columns(margin=pl.col("score") - published.expr())
        .group_by("bot")
        .agg(
            games=pl.len(),
            mean_score=pl.col("score").mean(),
            median_margin=pl.col("margin").median(),
            success=(pl.col("margin") >= 0).mean(),
        )
        .with_columns(bot=pl.col("bot").cast(pl.String))
        .sort(
            pl.col("median_margin").abs(),
            (pl.col("success") - 0.5).abs(),
            pl.col("games"),
            pl.col("bot"),
            descending=[False, False, True, False],
        )
    )


def paired_calibration_section(page: Page, solo: pl.DataFrame) -> None:
    """Every bot's paired calibration, the skill comparison, the proposal.

    Bots that played every composition get the full calibration; the table's
    entries are settled by the two strongest of them, its level kept at the
    one nearest the rulebook's anchor (:mod:`pu_sim.report.sections.
    solo_table`).  A bot that played only a paired subsample (the search bot)
    is compared with the others on exactly its decks and setups.
    """
    anchor = strength_anchor(solo)
    page.table("solo_strength_anchor", anchor)
    bots = anchor["bot"].to_list()
    parts = {b: solo.filter(pl.col("bot").cast(pl.String) == b) for b in bots}
    full = [b for b in bots if is_paired_deck_design(parts[b])]
    small = [b for b in bots if b not in full and is_paired_subsample(parts[b])]
    fits: dict[str, BotFit] = {}
    for bot in full:
        try:
            fits[bot] = _one_bot(page, parts[bot], bot, main=bot == full[0])
        except ValueError as exc:  # a design too thin to fit: say so, go on
            page.section(f"Solo target on paired boards: {bot}", f"Not fitted: {exc}.")
    fitted = [b for b in full if b in fits]
    scores = {str(r["bot"]): r["mean_score"] for r in anchor.iter_rows(named=True)}
    judges = sorted(fits, key=lambda b: -scores[b])[:2]
    if len(fits) >= 2:
        _skill(page, fits, fitted[0], judges)
    for bot in small:
        _subsample(page, solo, bots, bot)
    if fitted:
        published_difficulty_section(page, solo, fits, fitted[0], judges)
    rows = [
        [str(r["bot"]), f"{r['games']:,}", fmt(r["mean_score"], ".1f"),
         fmt(r["median_margin"], "+.1f"), pct(r["success"])]
        for r in anchor.iter_rows(named=True)
    ]  # fmt: skip
    header = ["bot", "games", "mean score", "median margin at the published target",
              "reaches the target"]  # fmt: skip
    page.section(
        "Which strength the target table is for",
        _strength_text(anchor, fitted, small, judges),
        md_table(rows, header),
    )


def _strength_text(
    anchor: pl.DataFrame, fitted: list[str], small: list[str], judges: list[str]
) -> str:
    """Which bot anchors the table's level, and why: computed from the anchor table."""
    row = {r["bot"]: r for r in anchor.iter_rows(named=True)}
    text = (
        "The rulebook's target is the score of a completed mission; the anchor "
        "is the bot nearest the published table's own difficulty, reaching the "
        "published target about half the time (median margin near 0). "
    )
    if not fitted:
        return text + "No bot played enough compositions on shared setups to fit one."
    main = row[fitted[0]]
    text += (
        "The proposed table keeps the published table's success rate at "
        f"**{fitted[0]}** (median margin {main['median_margin']:+.1f} points, "
        f"reaches the target in {pct(main['success'])} of its games), the "
        "nearest of the bots that played every composition; its entries are "
        f"settled by {' and '.join(judges)} together, so neither the shape nor "
        "the level hangs on one bot's strength"
    )
    nearest = str(anchor["bot"][0])
    if nearest != fitted[0]:
        near = row[nearest]
        how = (
            "played only a paired subsample, too few compositions for a table"
            if nearest in small
            else "did not play a paired deck design"
        )
        text += (
            f". **{nearest}** is nearer (median margin "
            f"{near['median_margin']:+.1f}, {pct(near['success'])}) but {how}"
        )
        if nearest in small:
            text += (
                "; its colour effects on that subsample, beside the other bots' "
                "on the same decks and setups, show whether the table's shape "
                "also fits stronger play"
            )
    return text + "; the other bots show how the table's faults change with skill."


def _subsample(page: Page, solo: pl.DataFrame, bots: list[str], small: str) -> None:
    """Every bot's per-card effects on the decks and setups ``small`` played."""
    part = solo.filter(pl.col("bot").cast(pl.String) == small)
    decks = part.select(DECK_COLUMNS).unique()
    setups = part[SETUP].unique()
    shared = solo.join(decks, on=list(DECK_COLUMNS), maintain_order="left").filter(
        pl.col(SETUP).is_in(setups.implode())
    )
    ref = _reference_deck(set(decks.rows()))
    long = []
    for bot in bots:
        mine = shared.filter(pl.col("bot").cast(pl.String) == bot)
        if mine.select(pl.struct(*DECK_COLUMNS).n_unique()).item() < decks.height:
            continue  # a bot that did not play every one of these decks
        formula = solo_decks.fit_formula(mine, cluster=SETUP, reference=ref)
        for r in formula.filter(pl.col("term") != "base").iter_rows(named=True):
            long.append({"bot": bot, "games": mine.height, **r})
    if not long:
        return
    slopes = pl.DataFrame(long)
    page.table(f"solo_colour_effects_subsample_{slug(small)}", slopes)
    rows = [
        [str(r["bot"]), f"{r['games']:,}", str(r["term"]),
         ci(r, "estimate", "lower", "upper", "+.2f")]
        for r in slopes.iter_rows(named=True)
    ]  # fmt: skip
    deck_names = ", ".join("{}/{}/{}".format(*d) for d in sorted(decks.rows()))
    page.section(
        f"Solo deck effects on {small}'s subsample",
        f"{small} played {setups.len():,} setups under {decks.height} compositions "
        f"({deck_names}); every bot below played the same setups under the same "
        "decks, so their per-card effects (points per card replacing an orange "
        "card, 95% intervals clustered by setup) compare skill levels like for "
        "like, with wide intervals from so few setups.",
        md_table(rows, ["bot", "games", "colour (per card)", "points [95% CI]"]),
        page.figure(
            f"solo_colour_effect_subsample_{slug(small)}",
            _slopes_figure(slopes),
            f"Points per card replacing an orange card (green, red) on {small}'s "
            "subsample, per bot (ordered by strength), with 95% cluster intervals.",
        ),
    )


def _one_bot(page: Page, solo: pl.DataFrame, bot: str, *, main: bool) -> BotFit:
    """One bot's calibration: its fits, their held-out test and rounding.

    Why long: one bot's block of the report, read top to bottom: the fits, their
    held-out tests, tables, figures and words share the design they compute.
    """
    slug = bot.replace(" ", "_")
    published = TargetTable.published()
    played = set(solo.select(DECK_COLUMNS).unique().rows())
    ref = _reference_deck(played)
    effects = solo_decks.deck_effects(solo, cluster=SETUP, reference=ref)
    bands = solo_decks.fit_bands(solo, cluster=SETUP, reference=ref)
    formula = solo_decks.fit_formula(solo, cluster=SETUP, reference=ref)
    rate = float(solo.select((pl.col("score") >= published.expr()).mean()).item())
    held = solo_fairness.holdout(
        solo,
        cluster=SETUP,
        reference=ref,
        # rules compare at the published table's own success rate on the fit
        # setups, unless a bot (almost) never or always reaches it: then at
        # one game in two
        success=None if 0.02 <= rate <= 0.98 else 0.5,
    )
    stable_bands = solo_fairness.rounding_stability(
        solo, model="bands", cluster=SETUP, reference=ref
    )
    stable_formula = solo_fairness.rounding_stability(
        solo, model="formula", step=0.1, cluster=SETUP, reference=ref
    )
    quoted = held.formula_fit.with_columns(
        quoted=pl.Series([held.formula.base, held.formula.green, held.formula.red])
    )
    for name, frame in (("deck_effects", effects), ("band_fit", bands),
                        ("colour_effects", formula), ("formula_held_out", quoted),
                        ("target_misfit_held_out", held.misfit),
                        ("fairness_held_out", held.fairness),
                        ("rounding_bands", stable_bands),
                        ("rounding_formula", stable_formula)):  # fmt: skip
        page.table(f"solo_{name}_{slug}", frame)
    n_setups = solo[SETUP].n_unique()
    n_decks = effects.height
    figure = page.figure(
        f"solo_score_vs_target_{slug}",
        _score_vs_target(effects, published, bot),
        f"{bot}: each deck composition's mean score on the same {n_setups:,} "
        "setups (points, with 95% cluster intervals) against its published "
        "target (points); the line is the mean gap.",
    )
    spread = page.figure(
        f"solo_success_spread_{slug}",
        _success_spread(held.fairness, bot),
        f"{bot}: success rate at each target rule over the {n_decks} deck "
        "compositions (percent), 10th to 90th percentile with the noise "
        "removed, on the setups used to fit (fit) and on held-out setups.",
    )
    fair = held.held_out
    f = {r["term"]: r for r in formula.iter_rows(named=True)}
    correlation = float(fair["published"]["setup_correlation"])  # type: ignore[arg-type]
    if main:
        halves = (held.fit_setups, held.held_setups)
        page.headlines.append(
            _fair_headline(bot, n_setups, n_decks, fair, held.formula, halves)
        )
    page.section(
        f"Solo target on paired boards: {bot}",
        f"{bot} played the same {n_setups:,} setups under each of {n_decks} "
        "event-deck compositions, so each composition's effect is a "
        "difference within setups (cluster: the setup). Per card, replacing "
        f"an orange card by a green one moves the score "
        f"{ci(f['green'], 'estimate', 'lower', 'upper', '+.2f')} points and by "
        f"a red one {ci(f['red'], 'estimate', 'lower', 'upper', '+.2f')} (every "
        "setup).",
        figure,
        f"Fairness per composition, held out: each rule fitted on "
        f"{held.fit_setups:,} setups and moved there to one overall success "
        "rate (the published table's own there, or one game in two where the "
        f"bot almost never reaches it), then judged on the other {held.held_setups:,} "
        "setups. Spread: the standard deviation of the success rate over "
        "compositions beyond sampling noise, in percentage points; the noise is "
        "clustered by setup, since every composition is played on the same "
        "setups and two compositions' success on one setup go together "
        f"(correlation {correlation:.2f}). Miss: how far the compositions' mean "
        "scores stray from the rule's targets beyond their noise (sd, points). "
        f"The per-card formula judged here: {formula_words(held.formula)}.",
        md_table(_fair_rows(fair), FAIR_HEADER),
        spread,
        _band_text(bands, stable_bands),
        _boards(page, solo, bot, slug),
    )
    return BotFit(bands=bands, formula=formula, stability=stable_bands, held=held)


FAIR_HEADER = ["target rule", "success", "spread (pp)", "10th-90th percentile",
               "raw 10th-90th", "miss (points)"]  # fmt: skip


def _fair_rows(fair: dict[str, dict[str, Any]]) -> list[list[str]]:
    return [
        [str(label), pct(r["success"]), fmt(100 * r["spread"], ".1f"),
         f"{pct(r['p10'])} - {pct(r['p90'])}",
         f"{pct(r['raw_p10'])} - {pct(r['raw_p90'])}", fmt(r["misfit_sd"], ".1f")]
        for label, r in fair.items()
    ]  # fmt: skip


def _band_text(bands: pl.DataFrame, stable_bands: pl.DataFrame) -> str:
    """The refitted banded table with each entry's rounding stability."""
    band_rows = []
    flips = {(r["entry"], r["band"]): r for r in stable_bands.iter_rows(named=True)}
    for r in bands.iter_rows(named=True):
        s = flips.get((r["entry"], r["band"]))
        if r["entry"] != "base" and s is None:
            continue  # first bands: 0 by construction
        stable = "" if s is None or s["stable"] else " (rounding unstable)"
        band_rows.append(
            [f"{r['entry']} {r['band'] or ''}".strip(), fmt(r["published"], "+.0f"),
             ci(r, "estimate", "lower", "upper", "+.1f"),
             fmt(r["recalibrated"], "+.0f") + stable,
             "" if s is None else pct(s["flip_share"])]
        )  # fmt: skip
    unstable = stable_bands.filter(~pl.col("stable")).height
    return (
        "The refitted banded table on every setup (least squares over "
        "compositions, each composition counted once; intervals clustered by "
        "setup; bootstrap over setups for the rounding: an entry whose rounding "
        f"flips in more than 5% of resamples is marked unstable; {unstable} "
        "are). The base here is this bot's mean level, not a difficulty to "
        "adopt: the table at the published difficulty is below.\n\n"
        + md_table(
            band_rows,
            ["entry", "published", "fitted [95% CI]", "rounded", "rounding flips"],
        )
    )


EVEN_SPREAD = 0.02
"""A target rule is even over decks when its success rate's spread over
compositions, beyond sampling noise, is at most 2 percentage points."""


def _fair_headline(
    bot: str,
    n_setups: int,
    n_decks: int,
    fair: dict[str, dict[str, Any]],
    formula: CardFormula,
    halves: tuple[int, int],
) -> str:
    """Whether the published table is fair at ``bot``'s strength, and the fixes.

    Every number is a held-out one: the rules were fitted on ``halves[0]``
    setups and judged on the other ``halves[1]``; ``formula`` is the per-card
    rule so fitted (and moved to the published table's success rate).
    """
    pub, bands, card = (
        fair["published"], fair["banded refit"], fair["per-card formula"]
    )  # fmt: skip
    even = pub["spread"] <= EVEN_SPREAD
    return (
        f"**Solo target ({bot}, {n_setups:,} paired setups x {n_decks} deck "
        f"compositions, fitted on {halves[0]:,} setups and judged on the other "
        f"{halves[1]:,}):** the published table is "
        + ("even" if even else "**not even**")
        + f" over event decks at {bot}'s strength: its success rate varies over "
        f"compositions with a spread of {100 * pub['spread']:.1f} points beyond "
        f"noise (noise clustered by setup; 10th-90th percentile "
        f"{pct(pub['p10'])} - {pct(pub['p90'])}; even means at most "
        f"{100 * EVEN_SPREAD:.0f}), and its targets miss each composition's mean "
        f"score by {pub['misfit_sd']:.1f} points (sd beyond noise). A refitted "
        f"banded table: spread {100 * bands['spread']:.1f}, miss "
        f"{bands['misfit_sd']:.1f}; the per-card formula {formula_words(formula)}"
        f": spread {100 * card['spread']:.1f}, miss {card['misfit_sd']:.1f}."
    )


def _boards(page: Page, solo: pl.DataFrame, bot: str, slug: str) -> str:
    """Difficulty offsets: each corporation's and planet's mean margin."""
    margin = solo.with_columns(
        solo_margin=pl.col("score") - TargetTable.published().expr()
    )
    parts = []
    for column in ("corporation", "planet"):
        if margin[column].n_unique() < 2:
            continue
        table = clusters.cluster_means(
            margin, by=(column,), value="solo_margin", cluster=SETUP
        ).sort("mean", descending=True)
        page.table(f"solo_board_offsets_{column}_{slug}", table)
        overall = float(margin["solo_margin"].mean())  # type: ignore[arg-type]
        rows = [
            [str(r[column]), f"{r['n']:,}", ci(r, "mean", "lower", "upper", "+.1f"),
             fmt(r["mean"] - overall, "+.1f")]
            for r in table.iter_rows(named=True)
        ]  # fmt: skip
        parts.append(md_table(rows, [column, "games", "margin at the published "
                                     "target [95% CI]", "vs all boards"]))  # fmt: skip
    if not parts:
        return ""
    return (
        f"By board ({bot}; positive: the target is easier; intervals "
        "clustered by setup):\n\n" + "\n\n".join(parts)
    )


def _entry(fit: pl.DataFrame, entry: str, band: str) -> dict[str, float]:
    """One entry's row of a refitted table."""
    key = (pl.col("entry") == entry) & (pl.col("band") == band)
    return fit.filter(key).row(0, named=True)


def _side(row: dict[str, float]) -> int:
    """+1 / -1: the fit's 95% interval above / below the published entry; 0: not."""
    if row["se"] == 0:
        return 0
    if row["lower"] > row["published"]:
        return 1
    return -1 if row["upper"] < row["published"] else 0


def _skill(page: Page, fits: dict[str, BotFit], anchor: str, strong: list[str]) -> None:
    """Colour effects per bot, and the table's faults labelled by the bots.

    An entry is off in a settled direction when the two strongest bots
    (``strong``, by their mean score here) both fit it off the published one
    on the same side, bot-dependent when only one of them does; the weaker
    bots say whether it also holds at lower skill.  Whether the new *value*
    is settled is the rounding's question (the table at the published
    difficulty).
    """
    long = []
    for bot, fit in fits.items():
        for r in fit.formula.filter(pl.col("term") != "base").iter_rows(named=True):
            long.append({"bot": bot, **r})
    slopes = pl.DataFrame(long)
    page.table("solo_colour_effects_by_bot", slopes)
    weaker = [b for b in fits if b not in strong]
    robust, dependent = [], []
    entries = fits[anchor].bands.filter(pl.col("entry") != "base")
    for r in entries.iter_rows(named=True):
        rows_of = {
            b: _entry(fit.bands, r["entry"], r["band"]) for b, fit in fits.items()
        }
        sides = {b: _side(row) for b, row in rows_of.items()}
        estimates = ", ".join(f"{b} {rows_of[b]['estimate']:+.1f}" for b in strong)
        label = (
            f"{r['entry']} {r['band']} (published {r['published']:+.0f}; {estimates}"
        )
        side = sides[strong[0]]
        if side != 0 and all(sides[b] == side for b in strong):
            also = [b for b in weaker if sides[b] == side]
            tail = (f"; {', '.join(also)} too" if also else "") + (
                f"; not {', '.join(b for b in weaker if b not in also)}"
                if len(also) < len(weaker) else ""
            )  # fmt: skip
            robust.append(f"{label}: {'above' if side > 0 else 'below'}{tail})")
        elif any(sides[b] != 0 for b in strong):
            off = [f"{b} {'above' if sides[b] > 0 else 'below'}" for b in strong
                   if sides[b] != 0]  # fmt: skip
            both = len(off) == len(strong)  # off on opposite sides
            dependent.append(
                f"{label}: {', '.join(off)}{': opposite' if both else ' only'})"
            )
    rows = [
        [r["bot"], r["term"], ci(r, "estimate", "lower", "upper", "+.2f")]
        for r in slopes.iter_rows(named=True)
    ]
    figure = page.figure(
        "solo_colour_effect_by_skill",
        _slopes_figure(slopes),
        "Points per card replacing an orange card (green, red), per bot "
        "(ordered by strength), with 95% cluster intervals: how each colour's "
        f"effect changes with skill; solo games of {played_by(slopes)}.",
    )
    pair = " and ".join(strong)
    verdict = (
        "Off the published table in the same direction under both strongest "
        f"bots ({pair}, their 95% intervals on the same side of the entry; the "
        "direction is settled, the new value only where its rounding is): "
        + "; ".join(robust)
        + "."
        if robust
        else "No entry of the published table is off in the same direction under "
        f"both strongest bots ({pair})."
    )
    if dependent:
        verdict += (
            " Bot-dependent (off under one of them only, or on opposite sides): "
            + "; ".join(dependent)
            + "."
        )
    page.headlines.append(f"**Solo table faults across skill levels:** {verdict}")
    page.section(
        "Solo deck effects by skill level",
        md_table(rows, ["bot", "colour (per card)", "points [95% CI]"]),
        figure,
        verdict,
    )


def _score_vs_target(effects: pl.DataFrame, table: TargetTable, bot: str) -> Figure:
    """Composition means against the published target, with cluster CIs."""
    target = np.array(
        [table.target(g, o, r) for g, o, r in effects.select(DECK_COLUMNS).rows()]
    )
    mean = effects["mean"].to_numpy()
    half = (effects["upper"] - effects["lower"]).to_numpy() / 2
    red = effects["deck_red"].to_numpy()
    fig = Figure(figsize=(6.4, 4.4), layout="constrained")
    ax = fig.subplots()
    ax.errorbar(target, mean, yerr=half, fmt="none", ecolor="0.75", lw=0.8)
    points = ax.scatter(target, mean, c=red, cmap="Reds", s=14, edgecolor="0.3",
                        linewidth=0.3)  # fmt: skip
    gap = float(np.mean(mean - target))
    line = np.array([target.min(), target.max()])
    ax.plot(line, line + gap, color="0.3", lw=1)
    ax.set_xlabel("published target (points)")
    ax.set_ylabel("mean score on the paired setups (points)")
    ax.set_title(f"Solo score against target per deck composition ({bot})")
    fig.colorbar(points, ax=ax, label="red cards in the deck")
    return fig


def _success_spread(held: pl.DataFrame, bot: str) -> Figure:
    """p10-p90 of the success rate per target rule, fit and held out.

    A rule as even as can be has a spread of zero width: it is drawn as a
    square, so it still shows.  The legend stands beside the plot, over no
    bar.
    """
    fig = Figure(figsize=(7.4, 3.6), layout="constrained")
    ax = fig.subplots()
    labels = held["target"].unique(maintain_order=True).to_list()
    for k, (sample, shift) in enumerate((("fit", -0.12), ("held out", 0.12))):
        part = held.filter(pl.col("sample") == sample)
        y = np.arange(len(labels)) + shift
        lo = 100 * part["p10"].to_numpy()
        hi = 100 * part["p90"].to_numpy()
        ax.hlines(y, lo, hi, color=f"C{k}", lw=4,
                  label=f"{sample}: 10th-90th percentile")  # fmt: skip
        flat = hi - lo < 0.5  # a spread of (nearly) no width still shows
        ax.plot((lo[flat] + hi[flat]) / 2, y[flat], "s", color=f"C{k}", ms=6)
        ax.plot(100 * part["success"].to_numpy(), y, "k|", ms=10,
                label="over every deck" if k == 0 else None)  # fmt: skip
    ax.set_yticks(np.arange(len(labels)), labels)
    ax.set_ylim(-0.6, len(labels) - 0.4)
    ax.set_xlabel("success rate over deck compositions (%)")
    ax.set_title(f"How even each target rule is over decks ({bot})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    return fig


def _slopes_figure(slopes: pl.DataFrame) -> Figure:
    fig = Figure(figsize=(6.4, 3.6), layout="constrained")
    ax = fig.subplots()
    bots = slopes["bot"].unique(maintain_order=True).to_list()
    for k, term in enumerate(("green", "red")):
        part = slopes.filter(pl.col("term") == term)
        x = np.arange(len(bots)) + (k - 0.5) * 0.2
        est = part["estimate"].to_numpy()
        err = np.vstack(
            [est - part["lower"].to_numpy(), part["upper"].to_numpy() - est]
        )
        ax.errorbar(x, est, yerr=err, fmt="o", color="green" if term == "green"
                    else "firebrick", label=term, capsize=3)  # fmt: skip
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xticks(np.arange(len(bots)), bots)
    ax.set_ylabel("points per card (vs an orange card)")
    ax.set_title("Event colour effects by skill level")
    ax.legend(fontsize=8)
    return fig
