"""The seat-order section: what turn order and the first commander are worth.

Only games in which every seat used the same bot, so the only difference
between seats is the turn order (seat 0 is the first commander, rules ST-10).
"""

from __future__ import annotations

import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.analysis import stats
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct, ratio_words
from pu_sim.report.page import Page
from pu_sim.report.sections.shared import main_bot, median_ratio

__all__ = ["seat_section"]


def _seat_name(seat: int) -> str:
    """A seat as the report names it."""
    return f"seat {seat} (first commander)" if seat == 0 else f"seat {seat}"


def _panels(n: int, rows: int) -> Figure:
    """A figure with room for ``n`` side-by-side forest plots of ``rows`` rows."""
    return Figure(figsize=(4.2 * n + 0.8, 0.3 * rows + 1.6), layout="constrained")


def _seat_headlines(page: Page, table: pl.DataFrame) -> None:
    """One headline per (bot, player count): the first commander, then the rest."""
    groups = table.partition_by(["bot", "n_players"], as_dict=True, maintain_order=True)
    for (bot, n), part in groups.items():
        r0 = part.filter(pl.col("seat") == 0).row(0, named=True)
        wins = ci(r0, "win_rate", "lower", "upper", "%")
        points = ci(r0, "score_vs_table", "svt_lower", "svt_upper", "+.2f")
        text = (
            f"**Seats, {n} players ({bot}):** the first commander (seat 0) wins "
            f"{wins} of games against a fair {pct(r0['expected'])} and scores "
            f"{points} points against its table's mean"
        )
        sig = part.filter(pl.col("significant"))
        if sig.height == 0:
            text += f"; no seat's win rate differs from 1/{n} after Holm correction."
        else:
            items = [
                f"{_seat_name(r['seat'])} {ci(r, 'win_rate', 'lower', 'upper', '%')}"
                for r in sig.iter_rows(named=True)
            ]
            text += f". Differing from 1/{n} after Holm correction: {'; '.join(items)}."
        page.headlines.append(text)


def _clustered(homo: pl.DataFrame, table: pl.DataFrame) -> pl.DataFrame:
    """The seat table with intervals and tests over setups (``group``).

    A rotated setup is played once per seat, so its games are not
    independent: the win-rate and score-vs-table intervals, the p-values
    (Holm over the table) and the design effect treat the setup as the unit.
    """
    keys = ["n_players", "bot", "seat"]
    wins = analysis.cluster_win_rates(homo, by=("bot", "seat"), cluster="group")
    svt = analysis.cluster_means(
        homo, by=("bot", "seat"), value="score_vs_table", cluster="group"
    )
    adjusted = stats.adjust(wins["p_value"].to_numpy(), "holm")
    wins = wins.select(
        *keys,
        _lo=pl.col("lower") + pl.col("expected"),
        _hi=pl.col("upper") + pl.col("expected"),
        _p=pl.Series(adjusted),
        design_effect="design_effect",
    )
    svt = svt.select(*keys, _slo="lower", _shi="upper")
    return (
        table.with_columns(pl.col("bot").cast(pl.String))
        .join(wins.with_columns(pl.col("bot").cast(pl.String)), on=keys,
              maintain_order="left")
        .join(svt.with_columns(pl.col("bot").cast(pl.String)), on=keys,
              maintain_order="left")
        .with_columns(
            lower=pl.col("_lo"), upper=pl.col("_hi"), p_adjusted=pl.col("_p"),
            significant=pl.col("_p") < 0.05, svt_lower=pl.col("_slo"),
            svt_upper=pl.col("_shi"),
        )
        .drop("_lo", "_hi", "_p", "_slo", "_shi")
    )  # fmt: skip


def seat_section(page: Page, homo: pl.DataFrame) -> pl.DataFrame | None:
    """Seat effects of the one-bot games (per bot); returns the seat table.

    Why long: one block of the report, read top to bottom: its table, figure and
    words share the frames they compute.
    """
    if homo.height == 0:
        return None
    table = _clustered(homo, analysis.seat_effect(homo, by=("bot",)))
    page.table("seat_effect", table)
    rows = [
        [
            str(r["n_players"]),
            str(r["bot"]),
            _seat_name(r["seat"]),
            f"{r['n']:,}",
            ci(r, "win_rate", "lower", "upper", "%"),
            pct(r["expected"]),
            fmt(r["p_adjusted"], "p"),
            ci(r, "score_vs_table", "svt_lower", "svt_upper", "+.2f"),
            fmt(r["mean_rank"], ".3f"),
        ]
        for r in table.iter_rows(named=True)
    ]
    header = ["players", "bot", "seat", "games", "win rate [95% CI]", "fair share"]
    header += ["Holm p", "score vs table mean [95% CI]", "mean rank"]
    _seat_headlines(page, table)
    plot_df = table.with_columns(
        excess_pp=pl.col("excess") * 100,
        excess_lower=(pl.col("lower") - pl.col("expected")) * 100,
        excess_upper=(pl.col("upper") - pl.col("expected")) * 100,
        label=pl.format("{}p seat {}", pl.col("n_players"), pl.col("seat")),
    )
    bots = plot_df["bot"].unique(maintain_order=True).to_list()
    per_bot = plot_df.height // max(len(bots), 1)
    figs = []
    for name, est, lo, hi, sig, xlabel, caption in (
        (
            "seat_win_rate", "excess_pp", "excess_lower", "excess_upper",
            "significant", "win rate - 1/n (percentage points)",
            "Win rate minus the fair share 1/n by seat, with 95% cluster-robust "
            "intervals over setups; "
            "filled points differ from 1/n after Holm correction. Seat 0 is the "
            "first commander.",
        ),
        (
            "seat_score", "score_vs_table", "svt_lower", "svt_upper", None,
            "score - table mean (points)",
            "Each seat's score minus its own game's mean score (paired within "
            "games), with 95% cluster-robust intervals over setups.",
        ),
    ):  # fmt: skip
        fig = _panels(len(bots), per_bot)
        for i, bot in enumerate(bots):
            ax = fig.add_subplot(1, len(bots), i + 1)
            plots.plot_forest(
                ax,
                plot_df.filter(pl.col("bot") == bot),
                label="label",
                estimate=est,
                lower=lo,
                upper=hi,
                reference=0.0,
                significant=sig,
                xlabel=xlabel,
            )
            ax.set_title(str(bot))
        fig.suptitle(f"Seat order: {xlabel.split(' (')[0]}")
        figs.append(page.figure(name, fig, caption))
    bot = main_bot(homo)
    paired = analysis.paired_differences(homo.filter(pl.col("bot") == bot), by="seat")
    pairing = ""
    if paired.height:
        page.table("seat_paired", paired)
        ratio = median_ratio(paired)
        pairing = (
            f"Comparing two seats inside the same game ({bot}) instead of "
            f"across games: {ratio_words(ratio)} (median over {paired.height} "
            "seat pairs; `seat_paired.csv` has each pair's difference)."
        )
    page.section(
        f"Seat order and the first commander ({', '.join(str(b) for b in bots)})",
        "Games in which every seat used the same bot, so the only difference "
        "between seats is the turn order (seat 0 is the first commander, rules "
        "ST-10). Win rates are compared with the fair share 1/n and the score "
        "against the table mean is paired within games, so the game's luck "
        "cancels; intervals and tests treat a setup as the unit (cluster-robust "
        "over setups, Holm correction over the whole table).",
        md_table(rows, header),
        pairing,
        *figs,
    )
    return table
