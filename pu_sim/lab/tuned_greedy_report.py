"""The tuning study's report: headline findings, sections and the figure.

Words over the numbers :mod:`pu_sim.lab.tuned_greedy` measures.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from pu_sim.bots import BotSpec
from pu_sim.lab.tuned_greedy import CORP_NAMES, Config
from pu_sim.report import plots
from pu_sim.report.markdown import frame_table
from pu_sim.report.runs import run_info


def fmt_ci(r: dict[str, object], spec: str = ".2f", scale: float = 1.0) -> str:
    """A t_row's mean and interval as text (scaled, e.g. to percent)."""
    m, lo, hi = (scale * float(r[k]) for k in ("mean", "lower", "upper"))  # type: ignore[arg-type]
    return f"{m:{spec}} [{lo:{spec}}, {hi:{spec}}]"


def fitness_figure(histories: dict[str, pl.DataFrame], path: Path) -> None:
    """Fitness by generation: samples' best and median, the mean, the reference."""
    fig = Figure(figsize=(5.2 * len(histories), 3.8), layout="constrained")
    axes = fig.subplots(1, len(histories), squeeze=False)[0]
    for ax, (title, h) in zip(axes, histories.items(), strict=True):
        g = h["generation"].to_numpy()
        ax.plot(g, h["best"], "^", color="tab:grey", label="best sample")
        ax.plot(
            g, h["median"], "o", color="tab:grey", mfc="none", label="median sample"
        )
        ax.plot(g, h["mean_fitness"], "-o", color="tab:blue", label="search mean")
        ax.plot(g, h["reference_fitness"], "--", color="tab:red", label="reference")
        ax.set_xlabel("generation (fresh seeds each)")
        ax.set_ylabel("fitness (solo points + weight x win-share excess)")
        ax.set_title(title)
        ax.legend(fontsize="small")
    plots.save(fig, path)


def headlines(
    config: Config,
    solo: dict[str, Any],
    multi: dict[str, Any],
    corp_table: pl.DataFrame | None,
    tuned: BotSpec,
    corp_tuned: dict[str, BotSpec],
    found: dict[str, Any],
    runs: list[Path],
) -> list[str]:
    """The findings, one Markdown paragraph each."""
    r_d, r_t, r_diff = solo["rows"]
    d_scores, t_scores, target = solo["default"], solo["tuned"], solo["target"]
    diff = t_scores - d_scores
    med_d, med_t = float(np.median(d_scores)), float(np.median(t_scores))
    extra = solo["extra"]
    out = [
        f"**Solo (base game, 7/7/6 deck, {config.n_games:,} held-out games per bot):** "
        f"default greedy {fmt_ci(r_d)}, greedy_tuned {fmt_ci(r_t)} points; tuned - "
        f"default {fmt_ci(r_diff)} points per game (paired; pairing cut the variance "
        f"{solo['var_ratio']:.1f}-fold); the tuned bot scores more in "
        f"{(diff > 0).mean():.1%} of games, fewer in {(diff < 0).mean():.1%}.",
        f"**Target not reached:** median solo score {med_d:.0f} (default) and "
        f"{med_t:.0f} (tuned) against the rulebook's target {target:.0f} for this "
        f"deck: the tuned bot is {target - med_t:.0f} points short; it reaches the "
        f"target in {extra['reach_target'][1]:.2%} of games (default "
        f"{extra['reach_target'][0]:.2%}).  Weight tuning alone does not make "
        "the greedy bot play like a strong player.",
    ]
    m_share, m_margin = multi["rows"]
    out.append(
        f"**4 players (base game, {4 * config.multi_val_games:,} games, tuned seat "
        f"rotated over the four seats on the same setups):** greedy_tuned takes "
        f"{fmt_ci(m_share, '.1f', 100)}% of the wins against three default-greedy "
        f"seats (fair share 25%) and scores {fmt_ci(m_margin)} points more than "
        "their mean."
    )
    if corp_table is not None:
        out += corporation_headlines(corp_table, tuned, corp_tuned)
    cpu, wall = found["cpu_s"], found["wall_s"]
    infos = [run_info(r) for r in runs]
    val_games = sum(i.n_games or 0 for i in infos)
    val_wall = sum(i.wall_time_s or 0.0 for i in infos)
    out.append(
        f"**Cost:** the base search took {cpu['base'] / 60:.1f} CPU minutes "
        f"({wall['base'] / 60:.1f} min wall), the per-corporation searches "
        f"{cpu['corporations'] / 60:.1f} CPU minutes ({wall['corporations'] / 60:.1f} "
        f"min wall); the validation played {val_games:,} games in "
        f"{val_wall / 60:.1f} min wall (from the run manifests)."
    )
    return out


def corporation_headlines(
    corp_table: pl.DataFrame, tuned: BotSpec, corp_tuned: dict[str, BotSpec]
) -> list[str]:
    """Per corporation and field: the tested seats' win shares.

    And whether the corporation's preset closes greedy_tuned's gap to the fair
    share.
    """
    out = []
    for corp in corp_tuned:
        for field in ("greedy", tuned.label):
            rows = list(corp_table.filter(
                pl.col("corporation") == corp, pl.col("field") == field
            ).iter_rows(named=True))  # fmt: skip
            parts = [f"{r['bot']} {fmt_ci(r, '.1f', 100)}%" for r in rows]
            share = {r["bot"]: float(r["mean"]) for r in rows}
            gap = 0.25 - share[tuned.label]
            verdict = ""
            if field == tuned.label and gap > 0:
                closed = 1.0 - (0.25 - share[corp_tuned[corp].label]) / gap
                paired = rows[-1]  # the preset minus greedy_tuned, paired
                if float(paired["lower"]) <= 0.0 <= float(paired["upper"]):
                    what = "does not measurably close"
                else:
                    what = f"closes {closed:.0%} of"
                verdict = (
                    f"  Among equals (every seat greedy_tuned) the corporation "
                    f"preset {what} the {100 * gap:.1f}-point gap to the fair "
                    "share."
                )
            out.append(
                f"**{CORP_NAMES.get(corp, corp)} at 4 players** against three "
                f"{field} seats (random corporations and planets; fair "
                f"share 25%): win share {'; '.join(parts)}.{verdict}"
            )
    return out


def readme(
    config: Config,
    command: str,
    found_lines: list[str],
    found: dict[str, Any],
    weights: pl.DataFrame,
    solo: dict[str, Any],
    multi: dict[str, Any],
    corp_table: pl.DataFrame | None,
    runs: list[Path],
    out: Path,
) -> str:
    """The README: headlines, the search, the weights, validation, runs, files."""
    cpu = found["cpu_s"]["base"] + found["cpu_s"]["corporations"]
    infos = [run_info(r) for r in runs]
    run_rows = pl.DataFrame({
        "run": [i.name for i in infos], "players": [str(i.players) for i in infos],
        "games": [i.n_games for i in infos], "seed": [str(i.seed) for i in infos],
        "wall_s": [round(i.wall_time_s or 0.0, 1) for i in infos],
    })  # fmt: skip
    corp = ("\n\nPer corporation (the corporation on the tested seat):\n\n"
            + frame_table(corp_table) if corp_table is not None else "")  # fmt: skip
    text = [
        "# Tuned greedy: cross-entropy search over the greedy weights",
        f"Generated by `{command}`. Total search CPU time {cpu / 60:.1f} min; the "
        "manifest has the config, the seeds, the timings and the git revision "
        "(`results`).",
        "## Headline findings",
        "\n".join(f"- {h}" for h in found_lines),
        "## The search\n\n"
        f"Cross-entropy method over the log-weights (diagonal Gaussian, "
        f"{config.population} samples a generation, elite {config.elite_frac:.0%}, "
        f"smoothing {config.smoothing}, initial sd {config.sd0}, box: each weight "
        f"within {math.exp(-config.box):.2g}x-{math.exp(config.box):.2g}x its "
        f"default), {config.generations} generations.  Fitness = mean solo score "
        f"over {config.solo_games} seeded games + {config.multi_weight:g} x (win "
        f"share - 0.25) over {config.multi_games} seeded 4-player setups played "
        "once per seat of the candidate (ties split the win); the default greedy's "
        "multiplayer term is exactly 0 by symmetry.  Every candidate of a "
        "generation plays the same seeds; each generation draws new ones.  The "
        "reference line is the default greedy (base) or greedy_tuned (per "
        "corporation) on the same seeds.\n\n"
        "![fitness by generation](figures/fitness_by_generation.png)\n\n"
        "*Fitness by generation on that generation's seeds: the search mean is "
        "what ships; best and median are over the samples.*",
        "## Tuned weights\n\n" + frame_table(weights),
        "## Validation\n\nSolo, paired by game on the same held-out seed:\n\n"
        + frame_table(pl.DataFrame(solo["rows"])) + "\n\n"
        + frame_table(solo["extra"]) + "\n\n"
        + "4 players, one tuned seat against three default-greedy seats (t "
        "intervals over setups, each setup's four seatings averaged):\n\n"
        + frame_table(pl.DataFrame(multi["rows"])) + corp,
        "## Runs and reproducibility",
        "The search plays in memory (`pu_sim.simulate`, seeds "
        "`SeedSequence([seed, tag, generation])`); the validation runs are run "
        "folders below `runs/` (git-ignored: the manifest is the committed "
        "record; the same command with it in place skips the search and "
        "replays only the validation).  Re-running the same command reproduces "
        "every game and so every number but the timings.\n\n"
        + frame_table(run_rows, ".1f"),
        "## Files",
        "Tables: " + ", ".join(f"[{p.name}](tables/{p.name})"
                               for p in sorted((out / "tables").glob("*.csv"))),
    ]  # fmt: skip
    return "\n\n".join(text) + "\n"
