"""Bot ladder: five bots rated against each other, and their solo scores.

The bots: random, greedy (default weights), greedy_tuned (the preset) and the
search bot at two budgets, both with greedy_tuned's weights
(``bots.search(budget=B, width=2, **PRESETS["greedy_tuned"])``: the rollouts
play the tuned greedy too).

Ladder: 3-player games of the base game, every seat on the base board
(Universal Coalition on KSB-4156), so board luck plays no part.  Every 3-subset
of the five bots is seated in its three cyclic seat orders, all on the same
seed: game i of every run deals the same setup, so each subset plays each setup
with every bot in every seat once (seat order cancels) and the subsets meet on
identical setups.  Three players rather than four because the search bot's
rollouts play every seat: a 3-player game costs it about half of a 4-player
one, so the same CPU buys more games, and every pair of bots still meets in 3
of the 10 subsets.  Ratings: Plackett-Luce on the finishing orders (bootstrap
over games), also on the Elo scale (400 / ln 10 per unit of log-strength), and
a head-to-head table (share of games bot A finished ahead of bot B, ties half,
Wilson intervals) beside the share the Plackett-Luce ratings predict.

Solo: every bot on the base game with a balanced event deck (7 green, 7
orange, 6 red: target 59) on the same seed, so the scores are paired game by
game: mean (t interval), median, the share of games reaching the target
(Wilson) and the rulebook's outcome bands.
"""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib import colormaps
from matplotlib.figure import Figure

from pu_sim import analysis, bots
from pu_sim.analysis import stats
from pu_sim.bots import BotSpec
from pu_sim.report import plots
from pu_sim.report.markdown import frame_table
from pu_sim.report.runs import load_runs, run_info
from pu_sim.rules import RuleOptions
from pu_sim.rules.loading import load_game_data
from pu_sim.simulation.provenance import git_revision, library_versions
from pu_sim.simulation.runner import scan_run
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "bots"
CORPORATION, PLANET = "universal_coalition", "ksb_4156"  # the base game
BALANCED_DECK = (7, 7, 6)  # green, orange, red: the rulebook's target is 59
TUNED = "greedy_tuned"


def searcher(budget: int, width: int = 2) -> BotSpec:
    """The search bot with greedy_tuned's weights, labelled by its budget."""
    return bots.search(
        f"search-{budget}", budget=budget, width=width, **bots.PRESETS[TUNED]
    )


def ladder_bots(budgets: tuple[int, int]) -> tuple[BotSpec, ...]:
    """random, greedy, greedy_tuned and search at the two budgets, weakest first."""
    return (bots.random(), bots.greedy(), bots.parse(TUNED),
            *(searcher(b) for b in budgets))  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 8  # ladder: setups per seating (every subset x seat order)
    seed: int = 909  # solo; the ladder plays seed + 1
    solo_games: int = 150  # per bot, the same seeds for every bot
    players: int = 3
    bots: tuple[BotSpec, ...] = ladder_bots((8, 64))
    n_boot: int = 400  # bootstrap resamples of the ratings


# smoke: four bots (random, greedy_tuned, search at budgets 2 and 4), tiny sizes
SMOKE = {
    "n_games": 2, "solo_games": 4, "n_boot": 20,
    "bots": tuple(b for b in ladder_bots((2, 4)) if b.label != "greedy"),
}  # fmt: skip


def seatings(labels: Sequence[BotSpec], players: int) -> list[list[BotSpec]]:
    """Every `players`-subset of the bots in each of its cyclic seat orders."""
    out = []
    for subset in itertools.combinations(labels, players):
        out += [list(subset[k:] + subset[:k]) for k in range(players)]
    return out


def batch(n_games: int, jobs: int) -> int:
    """Games per core call so that a run of few slow games uses every worker."""
    return max(1, -(-n_games // max(jobs, 1)))


# --------------------------------------------------------------------------------
# Analysis
# --------------------------------------------------------------------------------


def ratings(games: pl.DataFrame, order: list[str], config: Config) -> pl.DataFrame:
    """Plackett-Luce log-strengths with bootstrap CIs, on the Elo scale too."""
    fit = analysis.strength_model(
        games, by="bot", model="plackett_luce", n_boot=config.n_boot, seed=config.seed
    )
    fit = analysis.to_elo(fit.with_columns(pl.col("bot").cast(pl.String)))
    return sort_bots(fit, order)


def head_to_head(games: pl.DataFrame, fit: pl.DataFrame) -> pl.DataFrame:
    """Observed share of A ahead of B, and the share the ratings predict."""
    h = analysis.head_to_head(games, by="bot")
    r = dict(zip(fit["bot"].to_list(), fit["rating"].to_list(), strict=True))
    return h.with_columns(
        predicted=pl.struct("a", "b").map_elements(
            lambda s: 1.0 / (1.0 + math.exp(r[s["b"]] - r[s["a"]])),
            return_dtype=pl.Float64,
        )
    )


def solo_table(solo: pl.DataFrame, order: list[str], reference: str) -> pl.DataFrame:
    """Per bot: mean (t CI), median, paired difference, target share, bands."""
    bands = list(solo.schema["solo_band"].categories)  # type: ignore[attr-defined]
    ref = solo.filter(pl.col("bot") == reference).sort("game_id")["score"]
    rows = []
    for bot in order:
        g = solo.filter(pl.col("bot") == bot).sort("game_id")
        score = g["score"].cast(pl.Float64).to_numpy()
        n = len(score)
        sd = float(score.std(ddof=1)) if n > 1 else float("nan")
        lo, hi = stats.mean_interval(score.mean(), sd, n)
        diff = score - ref.cast(pl.Float64).to_numpy()
        dlo, dhi = stats.mean_interval(
            diff.mean(), float(diff.std(ddof=1)) if n > 1 else float("nan"), n
        )
        reached = int((g["solo_margin"] >= 0).sum())
        tlo, thi = stats.wilson_interval(reached, n)
        freq = {
            f"band {b}": float((g["solo_band"].cast(pl.String) == b).mean())
            for b in bands
        }
        rows.append({
            "bot": bot, "games": n, "mean": float(score.mean()), "lower": float(lo),
            "upper": float(hi), "median": float(np.median(score)), "sd": sd,
            f"vs {reference}": float(diff.mean()), "diff_lower": float(dlo),
            "diff_upper": float(dhi), "target": int(g["solo_target"][0]),
            "reached": reached, "target_share": reached / n,
            "target_lower": float(tlo), "target_upper": float(thi), **freq,
        })  # fmt: skip
    return pl.DataFrame(rows)


def speed_table(solo_runs: dict[str, Path], jobs: int) -> pl.DataFrame:
    """Solo speed per bot from the run manifests and the games' decisions."""
    rows = []
    for bot, run in solo_runs.items():
        info = run_info(run)
        decisions = int(scan_run(run).select(pl.col("decisions").sum()).collect()[0, 0])
        wall = float(info.wall_time_s or float("nan"))
        games = int(info.n_games or 0)
        workers = int(info.manifest.get("workers") or jobs)
        rows.append({
            "bot": bot, "games": games, "wall_s": wall, "games_per_s": games / wall,
            "ms_per_game": 1e3 * wall * workers / games,
            "decisions_per_game": decisions / games,
            "ms_per_decision": 1e3 * wall * workers / decisions,
        })  # fmt: skip
    return pl.DataFrame(rows)


def sort_bots(frame: pl.DataFrame, order: list[str], col: str = "bot") -> pl.DataFrame:
    rank = {b: i for i, b in enumerate(order)}
    return frame.sort(pl.col(col).replace_strict(rank, return_dtype=pl.Int64))


# --------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------


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
    ax.legend(loc="lower right", fontsize="small")
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


# --------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------


def ci(mean: float, lo: float, hi: float, spec: str = ".1f") -> str:
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
    if bot.kind == "search":
        return (f"search, budget {bot.params['budget']:g}, width "
                f"{bot.params['width']:g}, greedy_tuned weights")  # fmt: skip
    if bot.kind == "greedy":
        return "greedy, tuned preset" if bot.label == TUNED else "greedy, defaults"
    return "uniform over legal moves"


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke)
    order = [b.label for b in config.bots]
    start = time.perf_counter()
    options = RuleOptions(event_deck_mix=BALANCED_DECK)

    solo_runs: dict[str, Path] = {}
    for bot in config.bots:
        name = f"solo-{bot.label}"
        print(f"{STUDY}: {name} ({config.solo_games:,} games)", flush=True)
        solo_runs[bot.label] = simulate_run(
            out / "runs" / name, study=STUDY, n_games=config.solo_games,
            seed=config.seed, n_jobs=args.jobs, players=1, bots=bot,
            options=options, pairing="solo", corporations=CORPORATION, planets=PLANET,
            batch_size=batch(config.solo_games, args.jobs),
        )  # fmt: skip
    ladder_runs: list[Path] = []
    for seats in seatings(config.bots, config.players):
        name = f"{config.players}p-" + "-".join(b.label for b in seats)
        print(f"{STUDY}: {name} ({config.n_games:,} games)", flush=True)
        ladder_runs.append(
            simulate_run(
                out / "runs" / name, study=STUDY, n_games=config.n_games,
                seed=config.seed + 1, n_jobs=args.jobs, players=config.players,
                bots=seats, pairing="ladder", corporations=CORPORATION, planets=PLANET,
                batch_size=batch(config.n_games, args.jobs),
            )
        )  # fmt: skip
    sim_wall = time.perf_counter() - start

    games = load_runs(ladder_runs)
    anomalies = games.filter(pl.col("status") != "ok").height
    games = games.filter(pl.col("status") == "ok")
    fit = ratings(games, order, config)
    h2h = head_to_head(games, fit)
    solo = pl.concat(
        [scan_run(r).select("game_id", "score", "solo_target", "solo_margin",
                            "solo_band", "status").collect()
         .with_columns(bot=pl.lit(b)) for b, r in solo_runs.items()]
    )  # fmt: skip
    anomalies += solo.filter(pl.col("status") != "ok").height
    reference = TUNED if TUNED in order else order[0]
    solo_t = solo_table(solo, order, reference)
    speed = speed_table(solo_runs, args.jobs)

    for sub in ("figures", "tables"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    plots.save(ladder_figure(fit, h2h, order), out / "figures" / "ladder.png")
    plots.save(solo_figure(solo, solo_t, order), out / "figures" / "solo.png")
    fit.write_csv(out / "tables" / "ratings.csv")
    h2h.write_csv(out / "tables" / "head_to_head.csv")
    solo_t.write_csv(out / "tables" / "solo.csv")
    speed.write_csv(out / "tables" / "speed.csv")

    # ---- words
    r = {row["bot"]: row for row in fit.iter_rows(named=True)}
    s = {row["bot"]: row for row in solo_t.iter_rows(named=True)}
    sp = {row["bot"]: row for row in speed.iter_rows(named=True)}
    h = {(row["a"], row["b"]): row for row in h2h.iter_rows(named=True)}
    n_ladder = games.select(pl.struct("run", "game_id").n_unique()).item()
    best = fit.sort("rating", descending=True)["bot"].to_list()
    target = int(solo_t["target"][0])
    headlines = [
        f"**Ladder** ({n_ladder:,} {config.players}-player games): "
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
        f"{config.solo_games:,} paired games per bot): mean "
        + ", ".join(f"{b} {ci(s[b]['mean'], s[b]['lower'], s[b]['upper'])}"
                    for b in order)
        + "; median " + ", ".join(f"{b} {s[b]['median']:g}" for b in order) + "."
    )  # fmt: skip
    strongest = order[-1]
    bottom = next(c for c in solo_t.columns if c.startswith("band "))
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
    headlines.append(
        "**Speed** (solo, from the run manifests, "
        f"{args.jobs} worker(s); worker time, the runner's per-run overhead "
        "included): "
        + ", ".join(f"{b} {sp[b]['ms_per_game']:,.1f} ms/game "
                    f"({sp[b]['ms_per_decision']:.3f} ms/decision)" for b in order)
        + f".  Total simulation wall time {sim_wall / 60:.1f} min."
    )  # fmt: skip

    bot_rows = pl.DataFrame({
        "bot": order, "what": [bot_description(b) for b in config.bots],
    })  # fmt: skip
    fit_show = fit.select(
        "bot", pl.col("n").alias("games"), pl.col("rating").round(3),
        pl.col("lower").round(3), pl.col("upper").round(3),
        *(pl.col(c).round(0).cast(pl.Int64) for c in ("elo", "elo_lower", "elo_upper")),
        pl.col("p_beat_average").round(3),
    )  # fmt: skip
    h2h_show = sort_bots(sort_bots(h2h, order, "b"), order, "a").select(
        "a", "b", "n", "ahead", "ties", pl.col("share").round(3),
        pl.col("lower").round(3), pl.col("upper").round(3),
        pl.col("predicted").round(3),
    )  # fmt: skip
    band_cols = [c for c in solo_t.columns if c.startswith("band ")]
    solo_show = solo_t.select(
        "bot", "games", pl.col("mean").round(2), pl.col("lower").round(2),
        pl.col("upper").round(2), "median", pl.col(f"vs {reference}").round(2),
        pl.col("diff_lower").round(2), pl.col("diff_upper").round(2),
        pl.col("target_share").round(4), pl.col("target_lower").round(4),
        pl.col("target_upper").round(4),
    )  # fmt: skip
    band_show = solo_t.select("bot", *(pl.col(c).round(3) for c in band_cols))
    speed_show = speed.select(
        "bot", "games", pl.col("wall_s").round(1), pl.col("games_per_s").round(2),
        pl.col("ms_per_game").round(1), pl.col("decisions_per_game").round(1),
        pl.col("ms_per_decision").round(4),
    )  # fmt: skip
    infos = [run_info(p) for p in [*solo_runs.values(), *ladder_runs]]
    runs_show = pl.DataFrame({
        "run": [i.name for i in infos], "players": [str(i.players) for i in infos],
        "games": [i.n_games for i in infos], "seed": [str(i.seed) for i in infos],
        "wall_s": [round(i.wall_time_s or 0.0, 1) for i in infos],
    })  # fmt: skip
    git = git_revision()
    versions = library_versions()
    sections = [
        "## The bots\n\n" + frame_table(bot_rows) + "\n\nThe search bots use "
        "greedy_tuned's weights for their own candidate ranking and rollouts "
        "(`bots.search(budget=B, width=2, **bots.PRESETS['greedy_tuned'])`); "
        "rollouts play the other seats with their own greedy weights (the random "
        "seat with greedy's defaults).",
        "## Ladder\n\n"
        f"{n_ladder:,} games at {config.players} players: every "
        f"{config.players}-subset of the {len(order)} bots in its "
        f"{config.players} cyclic seat orders, {config.n_games} setups each (seed "
        f"{config.seed + 1}; the same setups for every seating), every seat on "
        "Universal Coalition / KSB-4156 with the default event deck.  Ratings are "
        "Plackett-Luce log-strengths (mean 0) fitted by MM on the finishing orders, "
        f"with {config.n_boot} bootstrap resamples of the games; Elo = 400 / ln 10 x "
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
        f"{config.solo_games:,} games per bot on seed {config.seed}, the same games "
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
        f"{args.jobs} workers, so ms/game and ms/decision are worker time (wall x "
        "workers / games or decisions; every decision counted, forced ones "
        "included).  The runner's per-run overhead (starting workers, writing "
        "Parquet) is included and dominates the small runs of the fast bots; the "
        "search bots' numbers are their playing cost.  A shared machine: the "
        "numbers are indicative.\n\n"
        + frame_table(speed_show, ".2f"),
    ]  # fmt: skip
    result = {
        "config": {"n_games": config.n_games, "seed": config.seed,
                   "solo_games": config.solo_games, "players": config.players,
                   "n_boot": config.n_boot,
                   "bots": {b.label: dict(b.params) for b in config.bots}},
        "ladder_games": n_ladder, "anomalous_rows": anomalies,
        "simulation_wall_s": sim_wall, "jobs": args.jobs,
        "ratings": fit.to_dicts(), "head_to_head": h2h.to_dicts(),
        "solo": solo_t.to_dicts(), "speed": speed.to_dicts(),
        "git": git, "versions": versions,
    }  # fmt: skip
    (out / "ladder.json").write_text(json.dumps(result, indent=2, default=str) + "\n")
    command = (
        "python experiments/bot_ladder.py --smoke"
        if args.smoke
        else f"python experiments/bot_ladder.py --games {config.n_games} "
        f"--seed {config.seed} --jobs {args.jobs}"
    )
    versions_text = ", ".join(f"{k} {v}" for k, v in versions.items() if v)
    text = [
        "# Bot ladder: ratings from multiplayer games and solo scores",
        f"Generated by `{command}` (`experiments/bot_ladder.py`; the script's Config "
        f"sets {config.solo_games} solo games per bot).  `ladder.json` holds every "
        "number below.",
        "## Headline findings",
        "\n".join(f"- {x}" for x in headlines),
        *sections,
        "## Runs and reproducibility",
        f"{len(infos)} run folders below `runs/` (git-ignored; the same command "
        "replays them, and resumes an interrupted run).  Solo runs share seed "
        f"{config.seed} (pairing `solo`), ladder runs seed {config.seed + 1} "
        f"(pairing `ladder`).  Simulation wall time {sim_wall:.0f} s with "
        f"{args.jobs} workers; {anomalies} seat rows came from anomalous games and "
        "were left out.  Re-running the command reproduces every game and number "
        "but the timings.\n\n"
        f"- git revision: {(git or {}).get('revision', 'unknown')} "
        f"(uncommitted changes: {(git or {}).get('dirty', 'unknown')})\n"
        f"- versions: {versions_text}\n\n" + frame_table(runs_show, ".1f"),
        "## Files",
        "Figures: [ladder.png](figures/ladder.png), [solo.png](figures/solo.png).  "
        "Tables: " + ", ".join(f"[{p.name}](tables/{p.name})"
                               for p in sorted((out / "tables").glob("*.csv"))),
    ]  # fmt: skip
    (out / "README.md").write_text("\n\n".join(text) + "\n")
    print("\n".join(headlines))
    print(out / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
