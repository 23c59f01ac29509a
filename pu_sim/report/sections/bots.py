"""The bot sections: duels between bots, and whether findings survive a bot change.

Mixed games (different bots at one table) compare the bots; the seat table
played by several bots tells whether a balance finding is the game's or the
bot's.
"""

from __future__ import annotations

from itertools import combinations

import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.report import plots
from pu_sim.report.markdown import ci, fmt, md_table, pct, ratio_words, slug
from pu_sim.report.page import Page, attempt
from pu_sim.report.sections.shared import agreement_cells, excludes_zero, played_by

__all__ = ["bot_section", "robustness_section"]


def bot_section(page: Page, mixed: pl.DataFrame) -> None:
    """Each mixed-table policy's bots, paired differences and strengths.

    Why long: one block of the report, read top to bottom: its tables, figures and
    words share the frames they compute.
    """
    if mixed.height == 0:
        return
    parts = [
        "Games with different bots at one table. Seat-swapped runs with the same "
        "seed are paired game by game (same setups), so seat order cancels."
    ]
    all_paired: list[pl.DataFrame] = []
    for (policy,), sub in mixed.partition_by(
        "policy", as_dict=True, maintain_order=True
    ).items():
        tag = slug(str(policy))
        table = analysis.balance_table(sub, by=("bot",))
        page.table(f"bots_{tag}", table)
        rows = [
            [
                str(r["n_players"]),
                str(r["bot"]),
                f"{r['n']:,}",
                ci(r, "win_rate", "lower", "upper", "%"),
                ci(r, "mean_score", "score_lower", "score_upper", ".1f"),
                fmt(r["mean_rank"], ".2f"),
            ]
            for r in table.iter_rows(named=True)
        ]
        header = ["players", "bot", "seats", "win rate [95% CI]", "mean score"]
        parts.append(f"**{policy}**\n\n" + md_table(rows, [*header, "mean rank"]))
        paired = analysis.paired_differences(sub, by="bot", group_col="group")
        if paired.height:
            page.table(f"bots_{tag}_paired", paired)
            prows = []
            for r in paired.iter_rows(named=True):
                prows.append(
                    [
                        str(r["n_players"]),
                        f"{r['bot_a']} - {r['bot_b']}",
                        f"{r['groups']:,}",
                        ci(r, "mean_diff", "lower", "upper", "+.2f"),
                        fmt(r["p_adjusted"], "p"),
                        fmt(r["variance_ratio"], ".2f"),
                    ]
                )
                win = table.filter(
                    (pl.col("n_players") == r["n_players"])
                    & (pl.col("bot") == r["bot_a"])
                )
                wins = (
                    f"; {r['bot_a']} wins "
                    f"{ci(win.row(0, named=True), 'win_rate', 'lower', 'upper', '%')}"
                    " of its seats"
                    if win.height
                    else ""
                )
                page.headlines.append(
                    f"**Bots, {r['n_players']} players:** {r['bot_a']} - {r['bot_b']} "
                    f"= {ci(r, 'mean_diff', 'lower', 'upper', '+.2f')} points in the "
                    f"same setups{wins}; {ratio_words(r['variance_ratio'])}."
                )
            header = ["players", "difference", "setups", "mean [95% CI]", "Holm p"]
            parts.append(md_table(prows, [*header, "variance ratio"]))
            all_paired.append(paired)
    strength, err = attempt(
        lambda: analysis.strength_model(mixed, by="bot", cluster="group")
    )
    fig = Figure(
        figsize=(10.0, 0.35 * max(len(all_paired), 3) + 2.2), layout="constrained"
    )
    if all_paired:
        diffs = pl.concat(all_paired).with_columns(
            lab=pl.format("{}p {} - {}", "n_players", "bot_a", "bot_b")
        )
        plots.plot_forest(
            fig.add_subplot(1, 2, 1), diffs, label="lab", estimate="mean_diff",
            reference=0.0, significant="significant", xlabel="score difference",
        )  # fmt: skip
    if strength is not None:
        page.table("bot_strength", strength)
        srows = [
            [str(r["bot"]), f"{r['n']:,}", ci(r, "rating", "lower", "upper", "+.2f"),
             pct(r["p_beat_average"])]
            for r in strength.iter_rows(named=True)
        ]  # fmt: skip
        parts.append(
            "Plackett-Luce strengths of the bots from every mixed game (log-strength, "
            "mean 0; 95% bootstrap over setups, each drawn with all its games, "
            "which share its luck):\n\n"
            + md_table(srows, ["bot", "seats", "rating [95% CI]", "beats an average"])
        )
        plots.plot_forest(
            fig.add_subplot(1, 2, 2), strength, label="bot", estimate="rating",
            reference=0.0, xlabel="Plackett-Luce log-strength",
        )  # fmt: skip
    elif err:
        parts.append(f"No strength model: {err}.")
    caption = (
        "Left: paired score differences between bots on identical setups (95% t "
        "intervals; filled: significant after Holm). Right: Plackett-Luce "
        "strengths with 95% bootstrap intervals over setups; mixed tables of "
        f"{played_by(mixed)}."
    )
    parts.append(page.figure("bots", fig, caption))
    page.section("Bots against each other", *parts)


def robustness_section(page: Page, seat: pl.DataFrame | None) -> None:
    """Whether the seat effects agree between every two bots that played them."""
    if seat is None:
        return
    bots = seat["bot"].unique(maintain_order=True).to_list()
    if len(bots) < 2:
        return
    rows = []
    results = []
    for a, b in combinations(bots, 2):
        ta = seat.filter(pl.col("bot") == a)
        tb = seat.filter(pl.col("bot") == b)
        for estimate in ("excess", "score_vs_table"):
            if estimate == "score_vs_table":  # significant: its own CI excludes 0
                sig = excludes_zero("svt_lower", "svt_upper")
                ta, tb = (t.with_columns(significant=sig) for t in (ta, tb))
            res = analysis.robustness(
                ta, tb, on=("n_players", "seat"), estimate=estimate
            )
            r = res.row(0, named=True)
            results.append(
                res.with_columns(
                    a=pl.lit(str(a)), b=pl.lit(str(b)), estimate=pl.lit(estimate)
                )
            )
            rows.append([f"{a} vs {b}", estimate, *agreement_cells(r)])
            if estimate != "excess":
                continue
            either = max(r["significant_a"], r["significant_b"])
            signs = (
                f"{fmt(r['sign_agreement'], '%')} of the effects significant under "
                f"either policy have the same sign under both, {r['conflicts']} "
                "conflict"
                if either
                else "no seat effect is significant under either policy"
            )
            page.headlines.append(
                f"**Robustness ({a} vs {b}):** the seats' excess win rates have rank "
                f"correlation {fmt(r['spearman'], '.2f')} over {r['keys']} "
                f"(players, seat) cells; {signs}."
            )
    page.table("robustness", pl.concat(results))
    header = ["policies", "estimate", "cells", "Spearman", "significant (a / b)"]
    page.section(
        "Robustness across bot policies",
        "The same seat table under each bot policy: do the conclusions survive a "
        "change of bot? Spearman's rank correlation of the estimates over "
        "(players, seat) cells, and the sign agreement of the effects that are "
        "significant under at least one policy (win rate: against 1/n after Holm; "
        "score vs table mean: its 95% interval excludes 0).",
        md_table(rows, [*header, "same sign", "conflicts"]),
    )
