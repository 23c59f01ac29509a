"""Tuned greedy: the greedy bot's weights tuned by a cross-entropy search.

The search (``pu_sim.bots.tuning.cross_entropy``) moves every greedy weight but
``noise`` on a log scale around the defaults.  A candidate's fitness is its
mean solo score on the base game (Universal Coalition on KSB-4156, balanced
7/7/6 event deck) plus ``multi_weight`` x (its win share against three
default-greedy seats at 4 players - 1/4), the candidate's seat rotated over
all four seats on the same setups.  Every candidate of a generation plays the
same seeds (common random numbers); each generation draws fresh seeds, so the
search cannot overfit one seed set.  The answer is the final mean of the search
distribution, validated on held-out seeds with many more games: paired solo
differences against the default greedy and the 4-player win share against the
default field.  Optionally the search is repeated, warm-started from the base
result, for corporations the greedy plays worst (candidate seat on that
corporation, random planets, a field of random corporations).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from pu_sim import bots
from pu_sim._build_check import import_core
from pu_sim.analysis import stats
from pu_sim.bots import GREEDY_WEIGHTS, BotSpec
from pu_sim.bots.tuning import (
    TUNED_WEIGHTS,
    CEMResult,
    Generation,
    GreedyFitness,
    cross_entropy,
    weights_from_theta,
    win_share,
)
from pu_sim.report import plots
from pu_sim.report.markdown import frame_table
from pu_sim.report.runs import run_info
from pu_sim.simulation.provenance import git_revision
from pu_sim.simulation.runner import scan_run
from pu_sim.studies.script import cli, configure, run_name, simulate_run

STUDY = "tune_greedy"
CORP_NAMES = {"cosmos_inc": "Cosmos Inc.", "wormhole_corp": "Wormhole Corp."}


@dataclass(frozen=True, kw_only=True)
class Config:
    n_games: int = 20_000  # validation: solo games per bot (held-out seed)
    seed: int = 2026
    # the search
    generations: int = 15
    population: int = 20
    box: float = math.log(4.0)  # each weight within default / 4 .. default x 4
    sd0: float = 0.5  # initial sd of log-weights
    elite_frac: float = 0.25
    smoothing: float = 0.7
    solo_games: int = 600  # per candidate and generation
    multi_games: int = 100  # per seating (x4) per candidate and generation
    multi_weight: float = 20.0  # solo points per unit of 4-player win share
    # validation at 4 players: games per seating of the tuned seat (x4)
    multi_val_games: int = 2_500
    # per corporation: warm start from the base result
    corporations: tuple[str, ...] = ("cosmos_inc", "wormhole_corp")
    corp_generations: int = 8
    corp_population: int = 12
    corp_sd0: float = 0.3
    corp_solo_games: int = 300
    corp_multi_games: int = 150
    corp_val_games: int = 1_500  # per seating and bot


SMOKE = {
    "n_games": 40, "generations": 2, "population": 4, "solo_games": 20,
    "multi_games": 4, "multi_val_games": 8, "corporations": ("cosmos_inc",),
    "corp_generations": 1, "corp_population": 3, "corp_solo_games": 8,
    "corp_multi_games": 4, "corp_val_games": 8,
}  # fmt: skip


# --------------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------------


def tuning_seed(config: Config, tag: int, generation: int) -> np.random.SeedSequence:
    """The seed of one generation's games (never an int: disjoint from validation)."""
    return np.random.SeedSequence([config.seed, tag, generation])


def search(
    config: Config,
    fitness: GreedyFitness,
    *,
    tag: int,
    start: np.ndarray,
    sd0: float,
    generations: int,
    population: int,
    label: str,
    reference: BotSpec,
) -> tuple[CEMResult, pl.DataFrame]:
    """Run the CEM; per generation, also score the mean and the reference.

    Returns the result and one row per generation (fitness of the samples,
    of the search mean and of the reference on that generation's seeds).
    """
    rows: list[dict[str, float]] = []

    def objective(samples: np.ndarray, g: int) -> np.ndarray:
        seed = tuning_seed(config, tag, g)
        return np.array([fitness.score(fitness.bot(s), seed)[0] for s in samples])

    def record(gen: Generation) -> None:
        g = len(rows)
        seed = tuning_seed(config, tag, g)
        mean_fit, mean_solo, mean_share = fitness.score(fitness.bot(gen.mean), seed)
        ref_fit, ref_solo, ref_share = fitness.score(reference, seed)
        rows.append({
            "generation": g, "best": float(gen.fitness.max()),
            "median": float(np.median(gen.fitness)),
            "elite_mean": float(gen.fitness[gen.elite].mean()),
            "mean_fitness": mean_fit, "mean_solo": mean_solo,
            "mean_win_share": mean_share, "reference_fitness": ref_fit,
            "reference_solo": ref_solo, "reference_win_share": ref_share,
            "sd_mean": float(gen.sd.mean()),
        })  # fmt: skip
        print(
            f"{STUDY}: {label} generation {g}: best {gen.fitness.max():.2f}, "
            f"mean's fitness {mean_fit:.2f} (reference {ref_fit:.2f})",
            flush=True,
        )

    result = cross_entropy(
        objective, start, np.full(start.size, sd0),
        generations=generations, population=population,
        rng=np.random.default_rng([config.seed, tag]),
        lower=-config.box, upper=config.box, elite_frac=config.elite_frac,
        smoothing=config.smoothing, callback=record,
    )  # fmt: skip
    return result, pl.DataFrame(rows)


# --------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------


def t_row(name: str, values: np.ndarray) -> dict[str, object]:
    """Mean with a 95% t interval."""
    mean, sd, n = float(values.mean()), float(values.std(ddof=1)), values.size
    lo, hi = stats.mean_interval(mean, sd, n)
    return {
        "quantity": name,
        "n": n,
        "mean": mean,
        "lower": float(lo),
        "upper": float(hi),
    }


def seat_runs(
    out: Path,
    prefix: str,
    bot: BotSpec,
    *,
    n_games: int,
    seed: int,
    jobs: int,
    corporation: str = "universal_coalition",
    planet: str = "ksb_4156",
    field_corporations: str = "universal_coalition",
    field_planets: str = "ksb_4156",
    field_bot: BotSpec | None = None,
) -> list[Path]:
    """Four 4-player runs, ``bot`` in seat k of run k against ``field_bot``.

    The field plays default greedy unless told otherwise.
    """
    field_bot = field_bot or bots.greedy()
    runs = []
    for k in range(4):
        seats = [bot if s == k else field_bot for s in range(4)]
        corps = [corporation if s == k else field_corporations for s in range(4)]
        planets = [planet if s == k else field_planets for s in range(4)]
        name = f"{prefix}-seat{k}"
        print(f"{STUDY}: {name} ({n_games:,} games)", flush=True)
        runs.append(
            simulate_run(
                out / "runs" / name, study=STUDY, n_games=n_games, seed=seed,
                n_jobs=jobs, players=4, corporations=corps, planets=planets,
                bots=seats, pairing=prefix,
            )
        )  # fmt: skip
    return runs


def seat_share(runs: Sequence[Path]) -> pl.DataFrame:
    """The tested seat's win share and score margin, one row per (seating, game)."""
    parts = []
    for k, run in enumerate(runs):
        games = scan_run(run).collect()
        games = games.with_columns(win_share(games)).with_columns(
            margin=pl.col("score") - (pl.col("score").sum() - pl.col("score")).over(
                "game_id") / 3
        )  # fmt: skip
        parts.append(
            games.filter(pl.col("seat") == k).select(
                "game_id", "score", "win_share", "margin", seating=pl.lit(k)
            )
        )
    return pl.concat(parts)


# --------------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------------


def fmt_ci(r: dict[str, object], spec: str = ".2f", scale: float = 1.0) -> str:
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


def corp_label(corp: str) -> str:
    """The preset name of a corporation's tuned greedy."""
    return f"greedy_tuned_{corp.split('_')[0]}"


def config_record(config: Config) -> dict[str, object]:
    """The config as JSON values (tuples as lists), with what else decides the
    search: the weights it moves and the engine that plays (a recorded search
    of other weights or another engine is not reused)."""
    record: dict[str, object] = {
        k: list(v) if isinstance(v, tuple) else v for k, v in asdict(config).items()
    }
    record["weights"] = list(TUNED_WEIGHTS)
    record["engine"] = import_core().ENGINE_VERSION
    return record


def history_title(corp: str | None) -> str:
    if corp is None:
        return "base game (reference: default greedy)"
    return f"{CORP_NAMES.get(corp, corp)} (reference: greedy_tuned)"


def run_search(config: Config, out: Path, jobs: int) -> dict[str, Any]:
    """The base search, then one per corporation warm-started from it."""
    base_fit = GreedyFitness(
        solo_games=config.solo_games, multi_games=config.multi_games,
        multi_weight=config.multi_weight, n_jobs=jobs,
    )  # fmt: skip
    cpu0, wall0 = time.process_time(), time.perf_counter()
    result, history = search(
        config, base_fit, tag=0, start=np.zeros(len(TUNED_WEIGHTS)),
        sd0=config.sd0, generations=config.generations,
        population=config.population, label="base", reference=bots.greedy(),
    )  # fmt: skip
    cpu_base, wall_base = time.process_time() - cpu0, time.perf_counter() - wall0
    tuned_weights = weights_from_theta(result.mean)
    tuned = bots.greedy("greedy_tuned", **tuned_weights)
    history.write_csv(out / "tables" / "generations_base.csv", float_precision=4)
    histories = {history_title(None): history}
    weights = {
        "default": {n: GREEDY_WEIGHTS[n] for n in TUNED_WEIGHTS},
        "greedy_tuned": tuned_weights,
    }
    cpu_corp = wall_corp = 0.0
    for i, corp in enumerate(config.corporations, start=1):
        fit = replace(
            base_fit, solo_games=config.corp_solo_games,
            multi_games=config.corp_multi_games, corporation=corp,
            planet="random", field_corporations="random", field_planets="random",
        )  # fmt: skip
        cpu0, wall0 = time.process_time(), time.perf_counter()
        res, hist = search(
            config, fit, tag=i, start=result.mean, sd0=config.corp_sd0,
            generations=config.corp_generations,
            population=config.corp_population, label=corp, reference=tuned,
        )  # fmt: skip
        cpu_corp += time.process_time() - cpu0
        wall_corp += time.perf_counter() - wall0
        weights[corp_label(corp)] = weights_from_theta(res.mean)
        hist.write_csv(out / "tables" / f"generations_{corp}.csv", float_precision=4)
        histories[history_title(corp)] = hist
    return {
        "config": config_record(config), "weights": weights, "histories": histories,
        "cpu_s": {"base": cpu_base, "corporations": cpu_corp},
        "wall_s": {"base": wall_base, "corporations": wall_corp},
        "final_sd": result.sd.tolist(), "git": git_revision() or {},
    }  # fmt: skip


def load_search(out: Path, config: Config) -> dict[str, Any] | None:
    """The searches recorded in ``out/tuning.json`` for this very config, or None.

    Like the runner's resume: a finished search is not played again when only
    the validation or the report changed.  Its timings and git revision are
    the original ones.
    """
    path = out / "tuning.json"
    if not path.is_file():
        return None
    record: dict[str, Any] = json.loads(path.read_text())
    if record.get("config") != config_record(config):
        return None
    names = [("base", None), *[(c, c) for c in config.corporations]]
    tables = {c: out / "tables" / f"generations_{n}.csv" for n, c in names}
    if not all(t.is_file() for t in tables.values()):
        return None
    record["histories"] = {history_title(c): pl.read_csv(t) for c, t in tables.items()}
    record["git"] = record.get("search_git", record.get("git", {}))
    print(f"{STUDY}: search read from {path} (same config)", flush=True)
    return record


def main(argv: Sequence[str] | None = None) -> int:
    args = cli(argv, description=__doc__.splitlines()[0])
    config = configure(Config(), args, smoke=SMOKE)
    out = args.out / STUDY / run_name(config, args.smoke)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    git = git_revision() or {}  # before this run rewrites tracked report files
    default = bots.greedy()
    headlines: list[str] = []
    sections: list[str] = []

    # ---- the searches (or their record, when this run folder already has them)
    found = load_search(out, config)
    if found is None:
        found = run_search(config, out, args.jobs)
    weight_cols, histories = found["weights"], found["histories"]
    cpu_base, cpu_corp = found["cpu_s"]["base"], found["cpu_s"]["corporations"]
    wall_base, wall_corp = found["wall_s"]["base"], found["wall_s"]["corporations"]
    tuned = bots.greedy("greedy_tuned", **weight_cols["greedy_tuned"])
    corp_tuned = {
        corp: bots.greedy(corp_label(corp), **weight_cols[corp_label(corp)])
        for corp in config.corporations
    }
    weights = pl.DataFrame(
        {"weight": list(TUNED_WEIGHTS),
         **{c: [w[n] for n in TUNED_WEIGHTS] for c, w in weight_cols.items()}}
    )  # fmt: skip
    weights.write_csv(out / "tables" / "tuned_weights.csv", float_precision=4)
    fitness_figure(histories, out / "figures" / "fitness_by_generation.png")

    # ---- validation on held-out seeds (int seeds; the search used SeedSequences)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    runs: list[Path] = []
    solo: dict[str, pl.DataFrame] = {}
    for bot in (default, tuned):
        run = out / "runs" / f"solo-{bot.label}"
        print(f"{STUDY}: {run.name} ({config.n_games:,} games)", flush=True)
        runs.append(simulate_run(
            run, study=STUDY, n_games=config.n_games, seed=config.seed,
            n_jobs=args.jobs, players=1, corporations="universal_coalition",
            planets="ksb_4156", bots=bot, pairing="solo",
        ))  # fmt: skip
        solo[bot.label] = scan_run(run).collect().sort("game_id")
    d_scores = solo["greedy"]["score"].to_numpy().astype(float)
    t_scores = solo["greedy_tuned"]["score"].to_numpy().astype(float)
    target = float(solo["greedy"]["solo_target"].median())  # type: ignore[arg-type]
    diff = t_scores - d_scores
    solo_rows = [
        t_row("default greedy: solo score", d_scores),
        t_row("greedy_tuned: solo score", t_scores),
        t_row("tuned - default (paired by game)", diff),
    ]
    var_ratio = (d_scores.var(ddof=1) + t_scores.var(ddof=1)) / diff.var(ddof=1)
    solo_table = pl.DataFrame(solo_rows)
    solo_table.write_csv(out / "tables" / "validation_solo.csv", float_precision=4)
    solo_extra = pl.DataFrame({
        "bot": ["greedy", "greedy_tuned"],
        "median_score": [float(np.median(d_scores)), float(np.median(t_scores))],
        "median_target": [target, target],
        "reach_target": [float(np.mean(solo[b]["solo_margin"].to_numpy() >= 0))
                         for b in ("greedy", "greedy_tuned")],
        "tuned_wins_pair": [float("nan"), float((diff > 0).mean())],
    })  # fmt: skip
    solo_extra.write_csv(
        out / "tables" / "validation_solo_median.csv", float_precision=4
    )

    seat = seat_runs(out, "4p-greedy_tuned", tuned, n_games=config.multi_val_games,
                     seed=config.seed, jobs=args.jobs)  # fmt: skip
    runs += seat
    shares = seat_share(seat)
    per_setup = shares.group_by("game_id").agg(pl.col("win_share", "margin").mean())
    multi_rows = [
        t_row("greedy_tuned win share vs 3 default (fair 0.25)",
              per_setup["win_share"].to_numpy()),
        t_row("greedy_tuned score - mean of the 3 default seats",
              per_setup["margin"].to_numpy()),
    ]  # fmt: skip
    multi_table = pl.DataFrame(multi_rows)
    multi_table.write_csv(out / "tables" / "validation_4p.csv", float_precision=4)

    corp_rows: list[dict[str, object]] = []
    for corp, special in corp_tuned.items():
        for field_bot, tested in ((default, (default, tuned, special)),
                                  (tuned, (tuned, special))):  # fmt: skip
            shares_of: dict[str, np.ndarray] = {}
            suffix = "" if field_bot is default else "-in-tuned-field"
            for bot in tested:
                rs = seat_runs(
                    out, f"4p-{corp}-{bot.label}{suffix}", bot,
                    n_games=config.corp_val_games, seed=config.seed + 1,
                    jobs=args.jobs, corporation=corp, planet="random",
                    field_corporations="random", field_planets="random",
                    field_bot=field_bot,
                )  # fmt: skip
                runs += rs
                s = seat_share(rs).sort("seating", "game_id")["win_share"].to_numpy()
                shares_of[bot.label] = s
                corp_rows.append({
                    "corporation": corp, "field": field_bot.label, "bot": bot.label,
                    **t_row("win share", s.reshape(4, -1).mean(axis=0)),
                })  # fmt: skip
            gain = (shares_of[special.label] - shares_of[tuned.label]).reshape(4, -1)
            corp_rows.append({
                "corporation": corp, "field": field_bot.label,
                "bot": f"{special.label} - greedy_tuned",
                **t_row("win share, paired", gain.mean(axis=0)),
            })  # fmt: skip
    corp_table = pl.DataFrame(corp_rows) if corp_rows else None
    if corp_table is not None:
        corp_table.write_csv(out / "tables" / "validation_corporations.csv",
                             float_precision=4)  # fmt: skip
    cpu_val, wall_val = time.process_time() - cpu0, time.perf_counter() - wall0

    # ---- words
    r_d, r_t, r_diff = solo_rows
    med_d, med_t = float(np.median(d_scores)), float(np.median(t_scores))
    headlines.append(
        f"**Solo (base game, 7/7/6 deck, {config.n_games:,} held-out games per bot):** "
        f"default greedy {fmt_ci(r_d)}, greedy_tuned {fmt_ci(r_t)} points; tuned - "
        f"default {fmt_ci(r_diff)} points per game (paired; pairing cut the variance "
        f"{var_ratio:.1f}-fold); the tuned bot scores more in "
        f"{(diff > 0).mean():.1%} of games, fewer in {(diff < 0).mean():.1%}."
    )
    headlines.append(
        f"**Target not reached:** median solo score {med_d:.0f} (default) and "
        f"{med_t:.0f} (tuned) against the rulebook's target {target:.0f} for this "
        f"deck: the tuned bot is {target - med_t:.0f} points short; it reaches the "
        f"target in {solo_extra['reach_target'][1]:.2%} of games (default "
        f"{solo_extra['reach_target'][0]:.2%}).  Weight tuning alone does not make "
        "the greedy bot play like a strong player."
    )
    m_share, m_margin = multi_rows
    headlines.append(
        f"**4 players (base game, {4 * config.multi_val_games:,} games, tuned seat "
        f"rotated over the four seats on the same setups):** greedy_tuned takes "
        f"{fmt_ci(m_share, '.1f', 100)}% of the wins against three default-greedy "
        f"seats (fair share 25%) and scores {fmt_ci(m_margin)} points more than "
        "their mean."
    )
    if corp_table is not None:
        for corp in corp_tuned:
            for field_bot in (default, tuned):
                rows = list(corp_table.filter(
                    pl.col("corporation") == corp, pl.col("field") == field_bot.label
                ).iter_rows(named=True))  # fmt: skip
                parts = [f"{r['bot']} {fmt_ci(r, '.1f', 100)}%" for r in rows]
                share = {r["bot"]: float(r["mean"]) for r in rows}
                gap = 0.25 - share[tuned.label]
                verdict = ""
                if field_bot is tuned and gap > 0:
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
                headlines.append(
                    f"**{CORP_NAMES.get(corp, corp)} at 4 players** against three "
                    f"{field_bot.label} seats (random corporations and planets; fair "
                    f"share 25%): win share {'; '.join(parts)}.{verdict}"
                )
    cpu_total = cpu_base + cpu_corp
    infos = [run_info(r) for r in runs]
    val_games = sum(i.n_games or 0 for i in infos)
    val_wall = sum(i.wall_time_s or 0.0 for i in infos)
    headlines.append(
        f"**Cost:** the base search took {cpu_base / 60:.1f} CPU minutes "
        f"({wall_base / 60:.1f} min wall), the per-corporation searches "
        f"{cpu_corp / 60:.1f} CPU minutes ({wall_corp / 60:.1f} min wall); the "
        f"validation played {val_games:,} games in {val_wall / 60:.1f} min wall "
        "(from the run manifests)."
    )

    sections.append(
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
        "what ships; best and median are over the samples.*"
    )
    sections.append("## Tuned weights\n\n" + frame_table(weights))
    sections.append(
        "## Validation\n\nSolo, paired by game on the same held-out seed:\n\n"
        + frame_table(solo_table) + "\n\n" + frame_table(solo_extra) + "\n\n"
        + "4 players, one tuned seat against three default-greedy seats (t "
        "intervals over setups, each setup's four seatings averaged):\n\n"
        + frame_table(multi_table)
        + ("\n\nPer corporation (the corporation on the tested seat):\n\n"
           + frame_table(corp_table) if corp_table is not None else "")
    )  # fmt: skip

    run_rows = pl.DataFrame({
        "run": [i.name for i in infos], "players": [str(i.players) for i in infos],
        "games": [i.n_games for i in infos], "seed": [str(i.seed) for i in infos],
        "wall_s": [round(i.wall_time_s or 0.0, 1) for i in infos],
    })  # fmt: skip
    tuning = {
        "config": config_record(config),
        "tuning_seeds": "SeedSequence([seed, tag, generation]); tag 0 base, "
                        "1.. corporations in order",
        "validation_seeds": {"solo and base 4p": config.seed,
                             "corporations": config.seed + 1},
        "cpu_s": {"base": cpu_base, "corporations": cpu_corp,
                  "validation_this_session": cpu_val},
        "wall_s": {"base": wall_base, "corporations": wall_corp,
                   "validation_this_session": wall_val,
                   "validation_runs": val_wall},
        "search_git": found["git"], "git": git, "jobs": args.jobs,
        "weights": weight_cols, "final_sd": found["final_sd"],
    }  # fmt: skip
    (out / "tuning.json").write_text(json.dumps(tuning, indent=2, default=str) + "\n")
    text = [
        "# Tuned greedy: cross-entropy search over the greedy weights",
        f"Generated by `experiments/tune_greedy.py` (seed {config.seed}). Total "
        f"search CPU time {cpu_total / 60:.1f} min; `tuning.json` has the config, "
        "the seeds, the timings and the git revision.",
        "## Headline findings",
        "\n".join(f"- {h}" for h in headlines),
        *sections,
        "## Runs and reproducibility",
        "The search plays in memory (`pu_sim.simulate`, seeds "
        "`SeedSequence([seed, tag, generation])`); the validation runs are run "
        "folders below `runs/` (git-ignored: `tuning.json` is the committed "
        "record; the same command with that file in place skips the search and "
        "replays only the validation).  Re-running the same command reproduces "
        "every game and so every number but the timings.\n\n"
        + frame_table(run_rows, ".1f"),
        "## Files",
        "Tables: " + ", ".join(f"[{p.name}](tables/{p.name})"
                               for p in sorted((out / "tables").glob("*.csv"))),
    ]  # fmt: skip
    (out / "README.md").write_text("\n\n".join(text) + "\n")
    print(out / "README.md")
    print("PRESETS = " + json.dumps(tuning["weights"], indent=4))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
