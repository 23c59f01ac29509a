"""The seat-order section: what turn order and the first commander are worth.

Only games in which every seat used the same bot, so the only difference
between seats is the turn order (seat 0 is the first commander, rules ST-10).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim import analysis
from pu_sim.analysis import stats
from pu_sim.analysis.replication import (
    MIN_HALF_SETUPS,
    confirmed,
    one_sided,
    setups_per_count,
    split_halves,
)
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct, ratio_words
from pu_sim.report.page import Page
from pu_sim.report.sections.shared import main_bot, median_ratio, played_by

__all__ = ["seat_section"]


def _seat_name(seat: int) -> str:
    """A seat as the report names it."""
    return f"seat {seat} (first commander)" if seat == 0 else f"seat {seat}"


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
        kept = part.filter(pl.col("replicated"))
        lost = part.filter(pl.col("declared") & ~pl.col("replicated"))
        if part["win_conf"].is_null().all():
            text += (
                f"; too few setups (under {MIN_HALF_SETUPS} per half) to check a "
                "seat effect on two independent halves"
            )
            lost = lost.clear()
        elif kept.height == 0:
            text += (
                f"; no seat's win rate differs from 1/{n} on both halves of the "
                "setups (Holm correction)"
            )
        else:
            items = [
                f"{_seat_name(r['seat'])} {pct(r['win_conf'])} on the confirming half"
                for r in kept.iter_rows(named=True)
            ]
            text += (
                f". Differing from 1/{n}, declared on half of the setups and "
                f"confirmed on the other: {'; '.join(items)}"
            )
        if lost.height:
            text += "; not replicated: " + ", ".join(
                _seat_name(s) for s in lost["seat"].to_list()
            )
        page.headlines.append(text + ".")


def _per_bot(
    bots: pl.Series, values: npt.NDArray[Any], rule: Callable[..., npt.NDArray[Any]]
) -> npt.NDArray[Any]:
    """``rule`` applied to each bot's rows alone: one family per bot's seat table.

    A bot's seat findings must not depend on which other bots the study played
    (a third policy added to a study would otherwise tighten the others' Holm).
    """
    names = bots.cast(pl.String).to_numpy()
    out: npt.NDArray[Any] | None = None
    for bot in dict.fromkeys(names):
        mask = names == bot
        part = rule(values[mask])
        if out is None:
            out = np.empty(len(names), dtype=part.dtype)
        out[mask] = part
    return out if out is not None else np.asarray(values)


def _holm(wins: pl.DataFrame) -> pl.Series:
    """The win rates' p-values, Holm-adjusted within each bot's table."""
    p = wins["p_value"].to_numpy()
    return pl.Series(_per_bot(wins["bot"], p, lambda v: stats.adjust(v, "holm")))


def _seat_wins(homo: pl.DataFrame) -> pl.DataFrame:
    """Each (player count, bot, seat)'s win rate with its Holm-adjusted p (setups)."""
    wins = analysis.cluster_win_rates(homo, by=("bot", "seat"), cluster="group")
    return wins.with_columns(pl.col("bot").cast(pl.String), p_adjusted=_holm(wins))


def _replicated(homo: pl.DataFrame) -> pl.DataFrame | None:
    """Seat effects declared on one half of the setups and confirmed on the other.

    None when a half has too few setups at some player count.
    """
    halves = split_halves(homo, cluster="group")
    if any(setups_per_count(h, "group", 1) < MIN_HALF_SETUPS for h in halves):
        return None
    keys = ["n_players", "bot", "seat"]
    disc, conf = (_seat_wins(h) for h in halves)
    both = disc.select(*keys, "excess", "p_adjusted").join(
        conf.select(*keys, "win_rate", "excess", "p_value"),
        on=keys, how="left", suffix="_conf", maintain_order="left",
    )  # fmt: skip
    declared = (both["p_adjusted"] < 0.05).to_numpy()
    p_one = one_sided(
        both["excess_conf"].to_numpy(), both["p_value"].to_numpy(),
        np.sign(both["excess"].to_numpy()),
    )  # fmt: skip
    rows = np.arange(both.height)
    replicated = _per_bot(both["bot"], rows, lambda r: confirmed(p_one[r], declared[r]))
    return both.select(
        *keys, win_conf="win_rate", declared=pl.Series(declared),
        replicated=pl.Series(replicated),
    )  # fmt: skip


def _clustered(homo: pl.DataFrame, table: pl.DataFrame) -> pl.DataFrame:
    """The seat table with intervals and tests over setups (``group``).

    A rotated setup is played once per seat, so its games are not
    independent: the win-rate and score-vs-table intervals, the p-values
    (Holm over each bot's table) and the design effect treat the setup as the unit.
    """
    keys = ["n_players", "bot", "seat"]
    wins = analysis.cluster_win_rates(homo, by=("bot", "seat"), cluster="group")
    svt = analysis.cluster_means(
        homo, by=("bot", "seat"), value="score_vs_table", cluster="group"
    )
    wins = wins.select(
        *keys,
        _lo=pl.col("lower") + pl.col("expected"),
        _hi=pl.col("upper") + pl.col("expected"),
        _p=_holm(wins),
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
    halves = _replicated(homo)
    if halves is None:
        table = table.with_columns(
            win_conf=pl.lit(None, pl.Float64), declared=pl.col("significant"),
            replicated=pl.lit(False),
        )  # fmt: skip
    else:
        table = table.join(
            halves, on=["n_players", "bot", "seat"], how="left", maintain_order="left"
        )
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
            "yes" if r["replicated"] else ("no" if r["declared"] else "–"),
            ci(r, "score_vs_table", "svt_lower", "svt_upper", "+.2f"),
            fmt(r["mean_rank"], ".3f"),
        ]
        for r in table.iter_rows(named=True)
    ]
    header = ["players", "bot", "seat", "games", "win rate [95% CI]", "fair share"]
    header += ["Holm p", "confirmed on the other half", "score vs table mean [95% CI]",
               "mean rank"]  # fmt: skip
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
            f"first commander; one panel per bot ({played_by(plot_df)}), rows by "
            "player count and seat.",
        ),
        (
            "seat_score", "score_vs_table", "svt_lower", "svt_upper", None,
            "score - table mean (points)",
            "Each seat's score minus its own game's mean score (paired within "
            "games), with 95% cluster-robust intervals over setups; one panel per "
            f"bot ({played_by(plot_df)}), rows by player count and seat.",
        ),
    ):  # fmt: skip
        fig, axes = plots.panel_figure(len(bots), 4.2, 0.3 * per_bot + 1.6,
                                       extra_width=0.8)  # fmt: skip
        for ax, bot in zip(axes, bots, strict=True):
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
        "over setups, Holm correction over each bot's table). A seat effect is "
        "a finding only when it is declared on one half of the setups (Holm) and "
        "confirmed in the same direction on the other (one-sided, Holm over the "
        "bot's declared ones): the *confirmed* column; a dash means none was declared.",
        md_table(rows, header),
        pairing,
        *figs,
    )
    return table
