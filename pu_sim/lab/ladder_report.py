"""The bot ladder's report: figures, headline findings and sections.

Words over the numbers :mod:`pu_sim.lab.ladder` measures.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib import colormaps
from matplotlib.figure import Figure

from pu_sim.bots import BotSpec
from pu_sim.bots.specs import MAX_POLICY_ROLL
from pu_sim.lab.ladder import (
    LEARNED,
    POLICY,
    POLICY_SHARE,
    POLICY_SOLO,
    TARGET_SHARE,
    TARGET_SOLO,
    TUNED,
    Ladder,
    solo_table,
    sort_bots,
    target_verdict,
)
from pu_sim.report import plots
from pu_sim.report.markdown import frame_table
from pu_sim.report.runs import run_info
from pu_sim.rules.loading import load_game_data


def ladder_figure(fit: pl.DataFrame, h2h: pl.DataFrame, order: list[str]) -> Figure:
    """Elo ratings with 95% intervals, and the head-to-head matrix."""
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    ax, hx = fig.subplots(1, 2, width_ratios=[1.0, 1.1])
    plots.plot_forest(
        ax, fit, label="bot", estimate="elo", lower="elo_lower", upper="elo_upper",
        reference=0.0, xlabel="Elo (Plackett-Luce, mean 0; 95% bootstrap CI)",
    )  # fmt: skip
    ax.set_title("Ladder rating")
    k = len(order)
    grid = np.full((k, k), np.nan)
    index = {b: i for i, b in enumerate(order)}
    for r in h2h.iter_rows(named=True):
        grid[index[r["a"]], index[r["b"]]] = r["share"]
    image = hx.imshow(grid, cmap="RdBu_r", vmin=0.0, vmax=1.0)
    for i in range(k):
        for j in range(k):
            if np.isfinite(grid[i, j]):
                hx.text(j, i, f"{grid[i, j]:.0%}", ha="center", va="center",
                        fontsize=8)  # fmt: skip
    hx.set_xticks(range(k), order, rotation=30, ha="right")
    hx.set_yticks(range(k), order)
    hx.set_xlabel("opponent B")
    hx.set_ylabel("bot A")
    hx.set_title("Share of games A finished ahead of B")
    fig.colorbar(image, ax=hx, label="share")
    return fig


def solo_figure(solo: pl.DataFrame, table: pl.DataFrame, order: list[str]) -> Figure:
    """Solo score distributions against the target, and outcome-band shares."""
    fig = Figure(figsize=(11.0, 4.2), layout="constrained")
    ax, bx = fig.subplots(1, 2)
    data = [solo.filter(pl.col("bot") == b)["score"].to_numpy() for b in order]
    ax.boxplot(data, orientation="horizontal", tick_labels=order, showmeans=True)
    target = int(table["target"][0])
    ax.axvline(target, color="tab:red", ls="--", lw=1, label=f"target {target}")
    ax.set_xlim(right=max(target + 5.0, ax.get_xlim()[1]))
    ax.set_xlabel("solo score (base game, balanced 7/7/6 deck)")
    ax.set_title("Solo scores (triangle: mean)")
    ax.invert_yaxis()
    ax.legend(loc="lower left", fontsize="small")
    bands = [c for c in table.columns if c.startswith("band ")]
    colours = colormaps["RdYlGn"](np.linspace(0.05, 0.95, len(bands)))
    left = np.zeros(len(order))
    y = np.arange(len(order))
    for band, colour in zip(bands, colours, strict=True):
        share = table[band].to_numpy()
        bx.barh(y, share, left=left, color=colour, label=band.removeprefix("band "))
        left += share
    bx.set_yticks(y, order)
    bx.invert_yaxis()
    bx.set_xlim(0, 1)
    bx.set_xlabel("share of solo games")
    bx.set_title("Rulebook outcome band (score - target)")
    bx.legend(ncols=4, fontsize="small", loc="upper center",
              bbox_to_anchor=(0.5, -0.18))  # fmt: skip
    return fig


def ci(mean: float, lo: float, hi: float, spec: str = ".1f") -> str:
    """A mean and its interval as text."""
    return f"{mean:{spec}} [{lo:{spec}}, {hi:{spec}}]"


def pct(row: dict[str, Any]) -> str:
    """A share and its interval in percent."""
    return ci(100 * row["share"], 100 * row["lower"], 100 * row["upper"], ".0f")


def band_words() -> str:
    """The rulebook's outcome rows and the margins each holds."""
    parts = []
    for band in load_game_data().solo_outcome_bands:
        lo, hi = band.min_diff, band.max_diff
        span = (f"{hi} or less" if lo is None else f"{lo} or more" if hi is None
                else f"{lo}..{hi}")  # fmt: skip
        parts.append(f"'{band.row}' {span}")
    return ", ".join(parts)


def bot_description(bot: BotSpec) -> str:
    """What a ladder bot is, in a few words."""
    if bot.kind == "search":
        return (f"search, budget {bot.params['budget']:g}, width "
                f"{bot.params['width']:g}, greedy_tuned weights")  # fmt: skip
    if bot.kind == "greedy" and bot.label == LEARNED:
        w = bot.params
        return ("greedy_tuned plus the learned planet value (`ntuple` "
                f"{w['ntuple']:g}) and rotation value (`rotation_round` "
                f"{w['rotation_round']:g}); in the last {w['end_rounds']:g} solo "
                "rounds its kept placements valued by rollouts (`end_redeals` "
                f"{w['end_redeals']:g}, `end_chain` {w['end_chain']:g}) instead of "
                f"the chain, in the last {w['end_other_rounds']:g} its other "
                "decisions too")  # fmt: skip
    if bot.kind == "greedy":
        return "greedy, tuned preset" if bot.label == TUNED else "greedy, defaults"
    if bot.kind == "policy":
        w = bot.params
        search = ""
        if w["roll"]:
            played = (f"until {w['roll_horizon']:g} more rounds have begun, "
                      "then judged by the network" if w["roll_horizon"]
                      else "to the end")  # fmt: skip
            when = ("at each solo choice (a rover's or lifepod's steps aside)"
                    if w["roll"] >= MAX_POLICY_ROLL
                    else f"in the last {w['roll']:g} solo rounds")  # fmt: skip
            tiles = (f" (a placement: each tile's best {w['roll_tile_width']:g})"
                     if w["roll_tile_width"] else "")  # fmt: skip
            finals = (f", the best {w['roll_finalists']:g} of them by "
                      f"{w['roll_redeals'] + w['roll_more']:g}"
                      if w["roll_finalists"] >= 2 and w["roll_more"]  # as the core
                      else "")  # fmt: skip
            search = (f"; {when} its best "
                      f"{w['roll_width']:g} moves{tiles} each judged by "
                      f"{w['roll_redeals']:g}{finals} games it plays on {played} "
                      "(`roll`)")  # fmt: skip
        return ("an n-tuple network learned by self-play (pu_sim/data/fitted/"
                f"policy.npz), one-ply on afterstates{search}: another family, no "
                "greedy code")  # fmt: skip
    return "uniform over legal moves"


def headlines(ladder: Ladder) -> list[str]:
    """The findings, one Markdown paragraph each.

    Why long: the report's findings in reading order, one short paragraph each.
    """
    c = ladder.config
    r = {row["bot"]: row for row in ladder.fit.iter_rows(named=True)}
    s = {row["bot"]: row for row in ladder.solo_t.iter_rows(named=True)}
    sp = {row["bot"]: row for row in ladder.speed.iter_rows(named=True)}
    h = head_to_head_rows(ladder)
    n_ladder, order = ladder.n_ladder, ladder.order
    best = ladder.fit.sort("rating", descending=True)["bot"].to_list()
    target = int(ladder.solo_t["target"][0])
    headlines = [
        f"**Ladder** ({n_ladder:,} {c.players}-player games): "
        + " > ".join(f"{b} {r[b]['elo']:+.0f}" for b in best)
        + " Elo (Plackett-Luce, mean 0; 95% intervals in the table).  "
        + "Order as expected: "
        + ("yes." if best == order[::-1] else f"no, the fit orders them {best}."),
    ]
    never = [
        b
        for b in order
        if sum(row["ahead"] + row["ties"] for k, row in h.items() if k[0] == b) == 0
    ]
    if never:
        headlines[-1] += (
            f"  {', '.join(never)} never finished ahead of anyone: its rating rests on "
            "the fit's weak prior (one virtual game against an average opponent, "
            "half won), so its Elo is only an upper bound."
        )
    pairs = list(itertools.pairwise(order))
    headlines.append(
        "**Neighbours on the ladder** (share of games the stronger finished ahead, "
        "95% Wilson interval): "
        + "; ".join(
            f"{b} over {a} {pct(h[b, a])}% "
            f"({h[b, a]['n']} games)"
            for a, b in pairs
            if (b, a) in h
        )
        + "."
    )  # fmt: skip
    headlines.append(
        f"**Solo** (base game, balanced 7/7/6 deck, target {target}, "
        f"{c.solo_games:,} paired games per bot): mean "
        + ", ".join(f"{b} {ci(s[b]['mean'], s[b]['lower'], s[b]['upper'])}"
                    for b in order)
        + "; median " + ", ".join(f"{b} {s[b]['median']:g}" for b in order) + "."
    )  # fmt: skip
    strongest = order[-1]
    bottom = next(c for c in ladder.solo_t.columns if c.startswith("band "))
    headlines.append(
        f"**Against the rulebook's target {target}:** the strongest bot "
        f"({strongest}) reaches it in {100 * s[strongest]['target_share']:.1f}% "
        f"[{100 * s[strongest]['target_lower']:.1f}, "
        f"{100 * s[strongest]['target_upper']:.1f}] of solo games and its median is "
        f"{s[strongest]['median'] - target:+g} from the target; "
        + ", ".join(f"{b} {100 * s[b]['target_share']:.1f}%" for b in order[:-1])
        + f".  {100 * (1 - s[strongest]['target_share']):.0f}% of {strongest}'s "
        f"games fall short of the target and {100 * s[strongest][bottom]:.0f}% "
        f"land in the rulebook's bottom row ('{bottom.removeprefix('band ')}': 11 "
        "or more short)."
    )
    if (LEARNED, TUNED) in h and ladder.targets:  # both on the ladder
        d, t = s[LEARNED], ladder.targets
        headlines.append(
            f"**The learned bot against its targets** ({LEARNED}, its planet "
            f"and rotation values fitted to rollouts, against {TUNED}): solo "
            f"{t['solo_gain']:+.2f} [{t['solo_gain_lower']:+.2f}, "
            f"{t['solo_gain_upper']:+.2f}] points, paired on {t['solo_games']:,} "
            f"seeds (mean {t['solo_mean']:.2f}; target +{TARGET_SOLO:g}: "
            f"{t['solo_verdict']}); as one seat among two {TUNED} in 3-player "
            f"games it finished ahead of {100 * t['share_ahead']:.1f}% "
            f"[{100 * t['share_lower']:.1f}, {100 * t['share_upper']:.1f}] of its "
            f"opponents over {t['setups']:,} setups, each in its three seats "
            f"(interval over setups; target {100 * TARGET_SHARE:.0f}%: "
            f"{t['share_verdict']}).  On the ladder's own smaller samples: solo "
            f"{d[f'vs {TUNED}']:+.2f} [{d['diff_lower']:+.2f}, "
            f"{d['diff_upper']:+.2f}] on {c.solo_games:,} seeds, ahead of {TUNED} "
            f"in {pct(h[LEARNED, TUNED])}% of their {h[LEARNED, TUNED]['n']} "
            f"{c.players}-player games.  Its speed against strong play's targets "
            "(0.035x the C probe on one core, solo and at 4 and 6 players) is in "
            "the benchmark (reports/benchmark/)."
        )
    headlines += policy_headline(ladder)
    headlines.append(
        "**Speed** (solo, from the run manifests, "
        f"{ladder.jobs} worker(s); worker time, the runner's per-run overhead "
        "included): "
        + ", ".join(f"{b} {sp[b]['ms_per_game']:,.1f} ms/game "
                    f"({sp[b]['ms_per_decision']:.3f} ms/decision)" for b in order)
        + f".  Total simulation wall time {ladder.simulation_wall_s / 60:.1f} min."
    )  # fmt: skip

    return headlines


def head_to_head_rows(ladder: Ladder) -> dict[tuple[str, str], dict[str, Any]]:
    """The head-to-head rows by (a, b)."""
    return {(row["a"], row["b"]): row for row in ladder.h2h.iter_rows(named=True)}


def policy_headline(ladder: Ladder) -> list[str]:
    """The policy of another family against its targets.

    Solo on its own random-board runs when played (the issue's measure), and
    on the ladder's base-game seeds; at the table on the ladder's games.
    None when it or greedy_learned is not on the ladder.
    """
    h = head_to_head_rows(ladder)
    if (POLICY, LEARNED) not in h:
        return []
    d = solo_table(ladder.solo, [POLICY], LEARNED).row(0, named=True)
    gap, lo, hi = d[f"vs {LEARNED}"], d["diff_lower"], d["diff_upper"]
    share = h[POLICY, LEARNED]
    p = ladder.policy_targets
    solo = (
        f"solo on random boards {p['solo_gap']:+.2f} [{p['solo_gap_lower']:+.2f}, "
        f"{p['solo_gap_upper']:+.2f}] points, paired on {p['solo_games']:,} seeds, "
        f"each a random corporation on a random planet (means {p['solo_mean']:.2f} "
        f"and {p['learned_mean']:.2f}; target {POLICY_SOLO:+g}: "
        f"{p['solo_verdict']}); on the ladder's {d['games']:,} base-game seeds "
        f"{gap:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        if p else
        f"solo {gap:+.2f} [{lo:+.2f}, {hi:+.2f}] points, paired on the ladder's "
        f"{d['games']:,} base-game seeds (target {POLICY_SOLO:+g}: "
        f"{target_verdict(gap, lo, POLICY_SOLO)})"
    )  # fmt: skip
    return [
        f"**The policy of another family against its targets** ({POLICY}, "
        f"against {LEARNED}): {solo}; ahead of "
        f"{LEARNED} in {pct(share)}% of the {share['n']} {ladder.config.players}-"
        f"player ladder games holding both (Wilson interval over games; target "
        f"{100 * POLICY_SHARE:.0f}%: "
        f"{target_verdict(share['share'], share['lower'], POLICY_SHARE)}).  "
        "The ladder's games hold a third bot of any strength; the measure at "
        f"full size, one {POLICY} seat among {LEARNED} seats on random boards, is "
        f"the lab's (`python -m pu_sim.lab.policy_td ... --measure N --against "
        f"{LEARNED}`; docs/bots.md)."
    ]  # fmt: skip


def sections(ladder: Ladder) -> tuple[list[str], pl.DataFrame]:
    """The report's sections after the headlines, and the table of its runs.

    Why long: the report's sections in reading order, one short block each.
    """
    c, order, reference = ladder.config, ladder.order, ladder.reference
    n_ladder = ladder.n_ladder
    target = int(ladder.solo_t["target"][0])
    bot_rows = pl.DataFrame({
        "bot": order, "what": [bot_description(b) for b in c.bots],
    })  # fmt: skip
    fit_show = ladder.fit.select(
        "bot", pl.col("n").alias("games"), pl.col("rating").round(3),
        pl.col("lower").round(3), pl.col("upper").round(3),
        *(pl.col(c).round(0).cast(pl.Int64) for c in ("elo", "elo_lower", "elo_upper")),
        pl.col("p_beat_average").round(3),
    )  # fmt: skip
    h2h_show = sort_bots(sort_bots(ladder.h2h, order, "b"), order, "a").select(
        "a", "b", "n", "ahead", "ties", pl.col("share").round(3),
        pl.col("lower").round(3), pl.col("upper").round(3),
        pl.col("predicted").round(3),
    )  # fmt: skip
    band_cols = [c for c in ladder.solo_t.columns if c.startswith("band ")]
    solo_show = ladder.solo_t.select(
        "bot", "games", pl.col("mean").round(2), pl.col("lower").round(2),
        pl.col("upper").round(2), "median", pl.col(f"vs {reference}").round(2),
        pl.col("diff_lower").round(2), pl.col("diff_upper").round(2),
        pl.col("target_share").round(4), pl.col("target_lower").round(4),
        pl.col("target_upper").round(4),
    )  # fmt: skip
    band_show = ladder.solo_t.select("bot", *(pl.col(c).round(3) for c in band_cols))
    speed_show = ladder.speed.select(
        "bot", "games", pl.col("wall_s").round(1), pl.col("games_per_s").round(2),
        pl.col("ms_per_game").round(1), pl.col("decisions_per_game").round(1),
        pl.col("ms_per_decision").round(4),
    )  # fmt: skip
    infos = [run_info(p) for p in ladder.runs]
    runs_show = pl.DataFrame({
        "run": [i.name for i in infos], "players": [str(i.players) for i in infos],
        "games": [i.n_games for i in infos], "seed": [str(i.seed) for i in infos],
        "wall_s": [round(i.wall_time_s or 0.0, 1) for i in infos],
    })  # fmt: skip
    sections = [
        "## The bots\n\n" + frame_table(bot_rows) + "\n\nThe search bots use "
        "greedy_tuned's weights for their own candidate ranking and rollouts "
        "(`bots.search(budget=B, width=2, **bots.PRESETS['greedy_tuned'])`); "
        "rollouts play the other seats with their own greedy weights (the random "
        "seat with greedy's defaults).",
        "## Ladder\n\n"
        f"{n_ladder:,} games at {c.players} players: every "
        f"{c.players}-subset of the {len(order)} bots in its "
        f"{c.players} cyclic seat orders, {c.n_games} setups each (the pairing "
        "`ladder`'s seed: the same setups for every seating), every seat on "
        "Universal Coalition / KSB-4156 with the default event deck.  Ratings are "
        "Plackett-Luce log-strengths (mean 0) fitted by MM on the finishing orders, "
        f"with {c.n_boot} bootstrap resamples of the games; Elo = 400 / ln 10 x "
        "rating, so a gap of 400 Elo means odds of 10:1 of finishing ahead.\n\n"
        "![ladder](figures/ladder.png)\n\n"
        "*Left: Elo with 95% bootstrap intervals.  Right: the share of the games "
        "holding both bots in which the row bot finished ahead of the column bot.*"
        "\n\n" + frame_table(fit_show),
        "## Head to head\n\nShare of the games holding both in which `a` finished "
        "ahead of `b` (ties count half), 95% Wilson interval, and the share the "
        "Plackett-Luce ratings predict (1 / (1 + e^(r_b - r_a))): where they agree "
        "the one-number ratings summarise the pairings well.\n\n"
        + frame_table(h2h_show),
        "## Solo against the rulebook\n\n"
        f"{c.solo_games:,} games per bot on seed {c.seed}, the same games "
        "for every bot (paired), base game (Universal Coalition on KSB-4156) with "
        f"a 7/7/6 event deck: the rulebook's target is {target}.  Means with t "
        f"intervals; `vs {reference}` is the paired mean difference per game; "
        "target share with Wilson intervals.\n\n"
        "![solo](figures/solo.png)\n\n"
        "*Left: solo scores per bot against the target.  Right: the rulebook's "
        f"outcome rows by the margin score - target: {band_words()}.*\n\n"
        + frame_table(solo_show, ".2f") + "\n\nOutcome band shares:\n\n"
        + frame_table(band_show),
        "## Speed\n\nSolo runs, from their manifests: wall time with "
        f"{ladder.jobs} workers, so ms/game and ms/decision are worker time (wall x "
        "workers / games or decisions; every decision counted, forced ones "
        "included).  The runner's per-run overhead (starting workers, writing "
        "Parquet) is included and dominates the small runs of the fast bots; the "
        "search bots' numbers are their playing cost.  A shared machine: the "
        "numbers are indicative.\n\n"
        + frame_table(speed_show, ".2f"),
    ]  # fmt: skip

    return sections, runs_show


def readme(ladder: Ladder, command: str, out: Path) -> str:
    """The README: headlines, sections, runs and files."""
    found = headlines(ladder)
    parts, runs_show = sections(ladder)
    c = ladder.config
    text = [
        "# Bot ladder: ratings from multiplayer games and solo scores",
        f"Generated by `{command}`; the manifest holds every number below "
        "(`results`), the versions and the git revision.",
        "## Headline findings",
        "\n".join(f"- {x}" for x in found),
        *parts,
        "## Runs and reproducibility",
        f"{runs_show.height} run folders below `runs/` (git-ignored; the same "
        "command replays them, and resumes an interrupted run).  Each pairing's "
        f"runs share one seed, derived from seed {c.seed} by its name "
        "(`seeds.derive(seed, 'ladder', pairing)`): `solo` (the target-solo runs "
        "too), `ladder` and `targets`.  Simulation wall time "
        f"{ladder.simulation_wall_s:.0f} s with "
        f"{ladder.jobs} workers; {ladder.anomalies} seat rows came from anomalous "
        "games and were left out.  Re-running the command reproduces every game "
        "and number but the timings.\n\n" + frame_table(runs_show, ".1f"),
        "## Files",
        "Figures: [ladder.png](figures/ladder.png), [solo.png](figures/solo.png).  "
        "Tables: " + ", ".join(f"[{p.name}](tables/{p.name})"
                               for p in sorted((out / "tables").glob("*.csv"))),
    ]  # fmt: skip
    return "\n\n".join(text) + "\n"
