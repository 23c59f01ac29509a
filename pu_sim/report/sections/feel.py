"""Game feel and length: how close games are, how the lead moves, when they end.

From the primary policy's one-bot games: margins of victory, lead changes,
the eventual winner's comeback and decisive round (where the runs kept the
round score table), game length by player count and end trigger, and short
games (relative to each player count's own lengths) by cause and by the
planet at the table (:mod:`pu_sim.analysis.feel`, whose glossary the section
prints).  Every interval treats a setup (``group``) as the unit.

Why long: the section's five measures share one set of formatting helpers
(intervals, forests, per-count rows); split, each part would import them back.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.analysis import feel
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct
from pu_sim.report.page import Page

__all__ = ["feel_section"]

SHOWN_LABELS = 3
"""Planets named per player count and direction in a headline (the largest)."""


def _interval(r: dict[str, Any], spec: str) -> str:
    return ci(r, "mean", "lower", "upper", spec)


def _pct_interval(r: dict[str, Any], est: str, lo: str, hi: str) -> str:
    return f"{pct(r[est])} [{pct(r[lo])}, {pct(r[hi])}]"


def _pp(r: dict[str, Any], est: str, lo: str, hi: str) -> str:
    """A difference of shares in percentage points with its interval."""
    return (
        f"{fmt(100 * r[est], '+.1f')} [{fmt(100 * r[lo], '+.1f')}, "
        f"{fmt(100 * r[hi], '+.1f')}]"
    )


def _summary_rows(table: pl.DataFrame, share: str) -> list[list[str]]:
    return [
        [
            str(r["n_players"]),
            f"{r['games']:,}",
            _interval(r, ".2f"),
            " / ".join(fmt(r[k], ".0f") for k in ("p10", "median", "p90")),
            pct(r[share]),
            fmt(r["max"], ".0f"),
        ]
        for r in table.iter_rows(named=True)
    ]


def _design_effects(tables: list[pl.DataFrame]) -> str:
    """``"design effects a-b here"`` over the tables' intervals, or ``""``.

    Rows without an interval (a value the same in every game) are left out:
    their design effect of 0 or NaN says nothing about the clustering.
    """
    shown = pl.col("lower").is_not_nan() & pl.col("upper").is_not_nan()
    deff = pl.col("design_effect").cast(pl.Float64)
    parts = [t.filter(shown).select(deff) for t in tables if t.height]
    if not parts:
        return ""
    values = pl.concat(parts)["design_effect"].to_numpy()
    values = values[np.isfinite(values) & (values > 0)]
    if values.size == 0:
        return ""
    return f"design effects {values.min():.2f}-{values.max():.2f} here"


def feel_section(
    page: Page, games: pl.DataFrame, bot: str, round_scores: pl.DataFrame | None
) -> None:
    """Margins, lead changes, comebacks, length and short games of ``bot``'s games.

    The section opens with the unit of its intervals and its terms
    (:data:`pu_sim.analysis.feel.GLOSSARY`), then each table with its
    sentence and figure.
    """
    mine = games.filter(
        (pl.col("bot").cast(pl.String) == bot) & (pl.col("n_bots") == 1)
    )
    if mine.height == 0 or "end_trigger" not in mine.columns:
        return
    clustered = feel.SETUP in mine.columns
    tables: list[pl.DataFrame] = []
    body: list[str] = []
    margins = analysis.margin_summary(mine)
    if margins.height:
        page.table("feel_margins", margins)
        tables.append(margins)
        body.append(
            "**Margin of victory** (winner's score minus the runner-up's, points):"
            "\n\n"
            + md_table(
                _summary_rows(margins, "share_tied"),
                [
                    "players",
                    "games",
                    "mean [95% CI]",
                    "p10 / median / p90",
                    "tied for first",
                    "largest",
                ],
            )
        )
    multi = _multiplayer_round_scores(mine, round_scores)
    if multi is None:
        body.append(
            "Lead changes, comebacks and decisive rounds: these runs kept no round "
            "score table (play them with `round_scores=True`)."
        )
    elif multi.height:
        setups = mine if clustered else None
        body.append(_lead_part(page, multi, setups, bot, tables))
        body.append(_comeback_part(page, multi, setups, bot, tables))
    body.extend(_length_part(page, mine, bot))
    body.append(_short_part(page, mine, bot, tables))
    deff = _design_effects(tables)
    unit = (
        "Every interval is a 95% cluster-robust t interval over setups, not over "
        "games: the games dealt one setup are alike" + (f" ({deff})." if deff else ".")
        if clustered
        else "Every interval is a 95% t interval over games (these runs name no setup)."
    )
    terms = "**Terms.** " + " ".join(
        f"**{name}**: {meaning}." for name, meaning in feel.GLOSSARY.items()
    )
    page.section(
        f"Game feel and length ({bot})",
        f"Every seat played by {bot}; one row per game. {unit}",
        terms,
        *body,
    )


def _multiplayer_round_scores(
    games: pl.DataFrame, round_scores: pl.DataFrame | None
) -> pl.DataFrame | None:
    """The round scores of ``games``' multiplayer games (None: none kept)."""
    if round_scores is None:
        return None
    keys = games.filter(pl.col("n_players") >= 2).select("run", "game_id").unique()
    return round_scores.join(
        keys.with_columns(pl.col("game_id").cast(round_scores.schema["game_id"])),
        on=["run", "game_id"],
        maintain_order="left",
    )


def _lead_part(
    page: Page,
    table: pl.DataFrame,
    setups: pl.DataFrame | None,
    bot: str,
    tables: list[pl.DataFrame],
) -> str:
    """Lead changes per game."""
    summary = analysis.lead_change_summary(table, setups=setups)
    page.table("feel_lead_changes", summary)
    tables.append(summary)
    for r in summary.iter_rows(named=True):
        page.headlines.append(
            f"**Lead changes, {r['n_players']} players ({bot}):** "
            f"{fmt(r['mean'], '.1f')} per game [{fmt(r['lower'], '.1f')}, "
            f"{fmt(r['upper'], '.1f')}]; {pct(r['share_none'])} of games have no "
            "lead change."
        )
    return "**Lead changes** per game:\n\n" + md_table(
        _summary_rows(summary, "share_none"),
        ["players", "games", "mean [95% CI]", "p10 / median / p90", "no change",
         "most"],
    )  # fmt: skip


def _by_measure(summary: pl.DataFrame) -> dict[int, dict[str, dict[str, Any]]]:
    """``{n_players: {measure: row}}`` of a comeback summary."""
    out: dict[int, dict[str, dict[str, Any]]] = {}
    for r in summary.iter_rows(named=True):
        out.setdefault(int(r["n_players"]), {})[r["measure"]] = r
    return out


def _comeback_part(
    page: Page,
    table: pl.DataFrame,
    setups: pl.DataFrame | None,
    bot: str,
    tables: list[pl.DataFrame],
) -> str:
    """The winner's worst deficit and its decisive round, per player count."""
    summary = analysis.comeback_summary(table, setups=setups)
    page.table("feel_comeback", summary)
    tables.append(summary)
    rows_of = _by_measure(summary)
    if not rows_of:
        return ""
    rows = []
    for n, m in rows_of.items():
        cb, dr, ds = m["comeback"], m["decisive_round"], m["decisive_share"]
        rows.append([
            str(n),
            f"{cb['games']:,}",
            _pct_interval(m["behind"], "mean", "lower", "upper"),
            _interval(cb, ".2f"),
            " / ".join(fmt(cb[k], ".0f") for k in ("p10", "median", "p90")),
            fmt(m["comeback_round"]["median"], ".0f"),
            _interval(dr, ".1f"),
            _pct_interval(ds, "mean", "lower", "upper"),
            _pct_interval(m["led_throughout"], "mean", "lower", "upper"),
            f"{cb['tied']:,}",
        ])  # fmt: skip
        page.headlines.append(
            f"**Comebacks, {n} players ({bot}):** the eventual winner trailed at "
            f"some point in {_pct_interval(m['behind'], 'mean', 'lower', 'upper')} "
            f"of games, at its worst by {_interval(cb, '.1f')} points on average; "
            f"it led for good from round {_interval(dr, '.1f')}, "
            f"{_pct_interval(ds, 'mean', 'lower', 'upper')} of the way through."
        )
    behind = [m["behind"]["mean"] for m in rows_of.values()]
    share = [m["decisive_share"]["mean"] for m in rows_of.values()]
    counts = ", ".join(str(n) for n in rows_of)
    text = (
        f"**Comeback and decisive round** of the eventual winner, in {bot}'s "
        f"games at {counts} players: the winner trailed at some point in "
        f"{_span(behind)} of games and took the lead for good, on average, "
        f"{_span(share)} of the way through (by player count). Games tied for "
        "first on points are left out (last column).\n\n"
        + md_table(
            rows,
            [
                "players",
                "games",
                "winner ever behind",
                "worst deficit, points",
                "deficit p10 / median / p90",
                "round of worst deficit (median)",
                "led for good from round",
                "as a share of the game",
                "led throughout",
                "tied, left out",
            ],
        )
    )
    return "\n\n".join([text, *_comeback_figures(page, summary, bot)])


def _comeback_figures(page: Page, summary: pl.DataFrame, bot: str) -> list[str]:
    """The deficit and decisive-round forests, each with its caption."""
    return [
        page.figure(
            "feel_comeback",
            _forest(
                summary,
                "comeback",
                xlabel="worst deficit of the eventual winner (points behind the "
                "leader)",
                title="How far behind the winner was at its worst",
            ),
            f"How far behind the eventual winner was at its worst, mean points "
            f"behind the leader with 95% intervals over setups, by player count "
            f"({bot}).",
        ),
        page.figure(
            "feel_decisive",
            _forest(
                summary,
                "decisive_share",
                xlabel="decisive round as a share of the game's rounds (%)",
                title="When the winner took the lead for good",
                percent=True,
            ),
            f"The round from which the eventual winner led for good, as a share "
            f"of the game's rounds (100%: only the last round), mean with 95% "
            f"intervals over setups, by player count ({bot}).",
        ),
    ]


def _span(values: list[float]) -> str:
    lo, hi = min(values), max(values)
    return pct(lo) if math.isclose(lo, hi) else f"{pct(lo)}-{pct(hi)}"


def _forest(
    summary: pl.DataFrame,
    measure: str,
    *,
    xlabel: str,
    title: str,
    percent: bool = False,
) -> Figure:
    """One measure per player count, mean and interval (fewest players on top).

    ``percent`` draws a share in percent on its whole scale, 0-100.
    """
    scale = 100.0 if percent else 1.0
    part = (
        summary.filter(pl.col("measure") == measure)
        .sort("n_players")
        .with_columns(
            pl.col("mean", "lower", "upper") * scale,
            label=pl.format("{} players", pl.col("n_players")),
        )
    )
    fig, ax = plots.new_figure(6.4, 0.45 * part.height + 1.6)
    plots.plot_forest(ax, part, label="label", estimate="mean", xlabel=xlabel)
    if percent:
        ax.set_xlim(0, 100)
    ax.set_title(title)
    return fig


def _length_part(page: Page, games: pl.DataFrame, bot: str) -> list[str]:
    """Game length by trigger, each player count's short cut, the figure."""
    length = analysis.game_length(games)
    page.table("feel_length", length)
    cuts = analysis.short_cuts(games)
    page.table("feel_short_cuts", cuts)
    text = (
        "**Game length** by player count and what ended the game (cannot_place: "
        "a player could not place a tile, rules 9.1 A; depot_empty: 9.1 B; "
        "events: the event deck's last card, 9.1 C); *short* games end in the "
        "player count's short cut round or earlier:\n\n"
        + md_table(
            [
                [
                    str(r["n_players"]),
                    str(r["end_trigger"]),
                    f"{r['games']:,}",
                    pct(r["share"]),
                    fmt(r["mean_rounds"], ".1f"),
                    f"{fmt(r['min_rounds'], '.0f')}-{fmt(r['max_rounds'], '.0f')}",
                    str(r["cut"]),
                    f"{r['short']:,}",
                ]
                for r in length.iter_rows(named=True)
            ],
            [
                "players",
                "end trigger",
                "games",
                "share",
                "mean rounds",
                "range",
                "short cut (round)",
                "short",
            ],
        )
    )
    deck = _deck_sentence(games, cuts)
    figure = page.figure(
        "feel_length",
        _length_figure(games, cuts),
        f"Share of games over by each round, per player count; the dot is the "
        f"player count's short cut ({bot}).",
    )
    return [text + (f"\n\n{deck}" if deck else ""), figure]


def _deck_sentence(games: pl.DataFrame, cuts: pl.DataFrame) -> str:
    """Where a count's deck games all end in one round and short means "before it"."""
    per_game = games.group_by("run", "game_id").agg(
        pl.col("n_players").first(),
        pl.col("rounds").first().cast(pl.Int64),
        pl.col("end_trigger").first().cast(pl.String),
    )
    out = []
    for r in cuts.iter_rows(named=True):
        n = r["n_players"]
        part = per_game.filter(pl.col("n_players") == n)
        deck = part.filter(pl.col("end_trigger") == "events")["rounds"].unique()
        if deck.len() != 1:
            continue
        last = int(deck[0])
        before = part.filter(pl.col("rounds") < last).height
        if before == r["short"]:
            players = "1 player" if n == 1 else f"{n} players"
            out.append(
                f"At {players} every game the event deck ended ran to round {last} "
                f"and the short cut is round {r['cut']}, so there short means "
                f"over before round {last}: cut short before the deck ran out "
                f"({pct(r['share_short'])} of games)."
            )
    return " ".join(out)


def _length_figure(games: pl.DataFrame, cuts: pl.DataFrame) -> Figure:
    per_game = games.group_by("run", "game_id").agg(
        pl.col("n_players").first(), pl.col("rounds").first().cast(pl.Int64)
    )
    fig, ax = plots.new_figure(8.6, 3.8)
    for i, r in enumerate(cuts.sort("n_players").iter_rows(named=True)):
        n = r["n_players"]
        rounds = np.sort(per_game.filter(pl.col("n_players") == n)["rounds"].to_numpy())
        if rounds.size == 0:
            continue
        share = np.arange(1, rounds.size + 1) / rounds.size
        label = f"{n} player{'s' if n != 1 else ''} (short: round {r['cut']} or less)"
        ax.step(rounds, share, where="post", color=f"C{i}", label=label)
        ax.plot([r["cut"]], [r["share_short"]], "o", color=f"C{i}")
    ax.plot([], [], "o", color="0.45", label="dot: the count's short cut")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("share of games over by then")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    # beside the curves, never over them
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.set_title("Game length per player count")
    return fig


def _short_part(
    page: Page, games: pl.DataFrame, bot: str, tables: list[pl.DataFrame]
) -> str:
    """Short games by cause, and the planets whose tables change their rate."""
    causes = analysis.short_endings(games)
    page.table("feel_short_games", causes)
    tables.append(causes)
    rows = [
        [
            str(r["n_players"]),
            str(r["cause"]),
            f"{r['games']:,}",
            f"{r['short']:,}",
            _pct_interval(r, "rate", "lower", "upper"),
        ]
        for r in causes.iter_rows(named=True)
    ]
    text = [
        "**Short games** by cause (about a tenth of each player count's games by "
        "construction, as near as whole rounds allow; the causes say what ended "
        "them):\n\n"
        + md_table(rows, ["players", "cause", "games", "short", "rate [95% CI]"])
    ]
    text.extend(_short_by_planet(page, games, bot, tables))
    return "\n\n".join(text)


def _short_by_planet(
    page: Page, games: pl.DataFrame, bot: str, tables: list[pl.DataFrame]
) -> list[str]:
    """The planets whose presence at the table changes how often games are short."""
    text: list[str] = []
    multi = games.filter(pl.col("n_players") >= 2)
    if multi.height == 0 or "planet" not in multi.columns:
        return text
    by_planet = analysis.short_endings(multi, by="planet")
    page.table("feel_short_games_by_planet", by_planet)
    tables.append(by_planet)
    family = int(by_planet["p_value"].is_not_nan().sum())
    found = by_planet.filter(pl.col("significant")).sort(
        "n_players", pl.col("difference").abs(), descending=[False, True]
    )
    question = (
        "Does a planet at the table change how often games are short? Each "
        "planet's rate among the games with it at the table against the player "
        "count's games without it; the question is one family of "
        f"{family} (player count, planet) comparisons, Holm-corrected together"
    )
    if found.height == 0:
        text.append(
            f"{question}: no planet changes it (no adjusted p-value below 0.05)."
        )
        page.headlines.append(
            f"**Short games ({bot}):** no planet at the table changes how often "
            f"games are short, after Holm correction over {family} (player count, "
            "planet) comparisons."
        )
        return text
    rows = [
        [
            str(r["n_players"]),
            str(r["planet"]),
            f"{r['games']:,}",
            _pct_interval(r, "rate", "lower", "upper"),
            pct(r["rate_without"]),
            _pp(r, "difference", "diff_lower", "diff_upper"),
            fmt(r["p_adjusted"], "p"),
        ]
        for r in found.iter_rows(named=True)
    ]
    text.append(
        f"{question}. Those whose adjusted p-value is below 0.05, largest "
        "difference first:\n\n"
        + md_table(
            rows,
            [
                "players",
                "planet at the table",
                "games",
                "short [95% CI]",
                "without it",
                "difference, pp [95% CI]",
                "Holm p",
            ],
        )
    )
    for (n,), part in found.partition_by(
        "n_players", as_dict=True, maintain_order=True
    ).items():
        items = []
        for word, sign in (("more", 1), ("less", -1)):
            side = part.filter(pl.col("difference").sign() == sign)
            if side.height:
                named = "; ".join(
                    f"{r['planet']} {pct(r['rate'])} (without it "
                    f"{pct(r['rate_without'])})"
                    for r in side.head(SHOWN_LABELS).iter_rows(named=True)
                )
                items.append(f"{word} often with {named}")
        page.headlines.append(
            f"**Short games, {n} players ({bot}):** games are short "
            + "; ".join(items)
            + f" (Holm over {family} comparisons)."
        )
    return text
