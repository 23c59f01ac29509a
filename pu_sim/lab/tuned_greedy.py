"""Tuned greedy: the greedy bot's weights tuned by a cross-entropy search.

The search (:func:`pu_sim.lab.tuning.cross_entropy`) moves every
greedy weight but ``noise`` on a log scale around the defaults.  A candidate's
fitness is its mean solo score on the base game (Universal Coalition on
KSB-4156, balanced 7/7/6 event deck) plus ``multi_weight`` x (its win share
against three default-greedy seats at 4 players - 1/4), the candidate's seat
rotated over all four seats on the same setups.  Every candidate of a
generation plays the same seeds (common random numbers); each generation draws
fresh seeds, so the search cannot overfit one seed set.  The answer is the
final mean of the search distribution, validated on held-out seeds with many
more games: paired solo differences against the default greedy and the
4-player win share against the default field.  Optionally the search is
repeated, warm-started from the base result, for corporations the greedy plays
worst.  The report's words are :mod:`pu_sim.lab.tuned_greedy_report`.

The config (the script's) names: n_games, seed, the search's generations,
population, box, sd0, elite_frac, smoothing, solo_games, multi_games,
multi_weight, multi_val_games, and the per-corporation corporations,
corp_generations, corp_population, corp_sd0, corp_solo_games,
corp_multi_games, corp_val_games.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from pu_sim import bots
from pu_sim.analysis import stats
from pu_sim.bots import GREEDY_WEIGHTS, BotSpec
from pu_sim.engine.core import engine_version
from pu_sim.lab.tuning import (
    TUNED_WEIGHTS,
    CEMResult,
    Generation,
    GreedyFitness,
    cross_entropy,
    weights_from_theta,
    win_share,
)
from pu_sim.report.runs import run_info
from pu_sim.simulation.manifest import ReportManifestError, read_report_manifest
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.provenance import git_revision
from pu_sim.simulation.runner import scan_run
from pu_sim.simulation.seeds import RootSeed, SeedLike, derive
from pu_sim.simulation.table import TableSetup
from pu_sim.studies.harness import play_run

STUDY = "tune_greedy"
CORP_NAMES = {"cosmos_inc": "Cosmos Inc.", "wormhole_corp": "Wormhole Corp."}

Config = Any  # the script's frozen Config dataclass


# --------------------------------------------------------------------------------
# The search
# --------------------------------------------------------------------------------


def tuning_seed(config: Config, tag: int, generation: int) -> RootSeed:
    """The seed of one generation's games (its own key: disjoint from validation)."""
    return derive(config.seed, STUDY, "tuning", tag, generation)


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


def corp_label(corp: str) -> str:
    """The preset name of a corporation's tuned greedy."""
    return f"greedy_tuned_{corp.split('_')[0]}"


def config_record(config: Config) -> dict[str, object]:
    """The config as JSON values (tuples as lists) with what else decides it.

    The weights the search moves and the engine that plays: a recorded search of
    other weights or another engine is not reused.
    """
    record: dict[str, object] = {
        k: list(v) if isinstance(v, tuple) else v for k, v in asdict(config).items()
    }
    record["weights"] = list(TUNED_WEIGHTS)
    record["engine"] = engine_version()
    return record


def history_title(corp: str | None) -> str:
    """The title of a search's panel in the fitness figure."""
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
    """The searches recorded in ``out``'s manifest for this very config, or None.

    Like the runner's resume: a finished search is not played again when only
    the validation or the report changed.  Its timings and git revision are
    the original ones.
    """
    try:
        record: dict[str, Any] = read_report_manifest(out).results
    except ReportManifestError:
        return None
    if record.get("config") != config_record(config):
        return None
    names = [("base", None), *[(c, c) for c in config.corporations]]
    tables = {c: out / "tables" / f"generations_{n}.csv" for n, c in names}
    if not all(t.is_file() for t in tables.values()):
        return None
    record["histories"] = {history_title(c): pl.read_csv(t) for c, t in tables.items()}
    record["git"] = record.get("search_git", record.get("git", {}))
    print(f"{STUDY}: search read from {out} (same config)", flush=True)
    return record


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
    seed: SeedLike,
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
        table = TableSetup(players=4, corporations=corps, planets=planets, bots=seats)
        runs.append(
            play_run(
                out / "runs" / name, Plan.of(table, seed=seed), n_games, study=STUDY,
                jobs=jobs, pairing=prefix,
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


def solo_validation(
    config: Config, out: Path, jobs: int, tuned: BotSpec
) -> dict[str, Any]:
    """Default greedy and the tuned bot on the same held-out solo seeds."""
    runs, solo = [], {}
    for bot in (bots.greedy(), tuned):
        run = out / "runs" / f"solo-{bot.label}"
        print(f"{STUDY}: {run.name} ({config.n_games:,} games)", flush=True)
        table = TableSetup(players=1, corporations="universal_coalition",
                           planets="ksb_4156", bots=bot)  # fmt: skip
        runs.append(play_run(
            run, Plan.of(table, seed=derive(config.seed, STUDY, "solo")),
            config.n_games, study=STUDY, jobs=jobs, pairing="solo",
        ))  # fmt: skip
        solo[bot.label] = scan_run(run).collect().sort("game_id")
    d_scores = solo["greedy"]["score"].to_numpy().astype(float)
    t_scores = solo["greedy_tuned"]["score"].to_numpy().astype(float)
    target = float(solo["greedy"]["solo_target"].median())  # type: ignore[arg-type]
    diff = t_scores - d_scores
    rows = [
        t_row("default greedy: solo score", d_scores),
        t_row("greedy_tuned: solo score", t_scores),
        t_row("tuned - default (paired by game)", diff),
    ]
    extra = pl.DataFrame({
        "bot": ["greedy", "greedy_tuned"],
        "median_score": [float(np.median(d_scores)), float(np.median(t_scores))],
        "median_target": [target, target],
        "reach_target": [float(np.mean(solo[b]["solo_margin"].to_numpy() >= 0))
                         for b in ("greedy", "greedy_tuned")],
        "tuned_wins_pair": [float("nan"), float((diff > 0).mean())],
    })  # fmt: skip
    pl.DataFrame(rows).write_csv(
        out / "tables" / "validation_solo.csv", float_precision=4
    )
    extra.write_csv(out / "tables" / "validation_solo_median.csv", float_precision=4)
    return {
        "runs": runs, "rows": rows, "extra": extra, "target": target,
        "default": d_scores, "tuned": t_scores,
        "var_ratio": (d_scores.var(ddof=1) + t_scores.var(ddof=1)) / diff.var(ddof=1),
    }  # fmt: skip


def multi_validation(
    config: Config, out: Path, jobs: int, tuned: BotSpec
) -> dict[str, Any]:
    """The tuned seat against three default-greedy seats, every seat in turn."""
    seat = seat_runs(out, "4p-greedy_tuned", tuned, n_games=config.multi_val_games,
                     seed=derive(config.seed, STUDY, "base"), jobs=jobs)  # fmt: skip
    shares = seat_share(seat)
    per_setup = shares.group_by("game_id").agg(pl.col("win_share", "margin").mean())
    rows = [
        t_row("greedy_tuned win share vs 3 default (fair 0.25)",
              per_setup["win_share"].to_numpy()),
        t_row("greedy_tuned score - mean of the 3 default seats",
              per_setup["margin"].to_numpy()),
    ]  # fmt: skip
    pl.DataFrame(rows).write_csv(
        out / "tables" / "validation_4p.csv", float_precision=4
    )
    return {"runs": seat, "rows": rows}


def corporation_validation(
    config: Config, out: Path, jobs: int, tuned: BotSpec,
    corp_tuned: dict[str, BotSpec],
) -> tuple[list[Path], pl.DataFrame | None]:  # fmt: skip
    """Each corporation's preset, greedy_tuned and default greedy on its seat.

    Against a default field and against a greedy_tuned field (random boards).
    """
    default = bots.greedy()
    runs: list[Path] = []
    corp_rows: list[dict[str, object]] = []
    for corp, special in corp_tuned.items():
        for field_bot, tested in ((default, (default, tuned, special)),
                                  (tuned, (tuned, special))):  # fmt: skip
            shares_of: dict[str, np.ndarray] = {}
            suffix = "" if field_bot is default else "-in-tuned-field"
            for bot in tested:
                rs = seat_runs(
                    out, f"4p-{corp}-{bot.label}{suffix}", bot,
                    n_games=config.corp_val_games,
                    seed=derive(config.seed, STUDY, "corporations"),
                    jobs=jobs, corporation=corp, planet="random",
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
    table = pl.DataFrame(corp_rows) if corp_rows else None
    if table is not None:
        table.write_csv(out / "tables" / "validation_corporations.csv",
                        float_precision=4)  # fmt: skip
    return runs, table


def searched_bots(
    config: Config, found: dict[str, Any]
) -> tuple[BotSpec, dict[str, BotSpec]]:
    """greedy_tuned and each corporation's preset from the searches' weights."""
    cols = found["weights"]
    tuned = bots.greedy("greedy_tuned", **cols["greedy_tuned"])
    corp_tuned = {
        corp: bots.greedy(corp_label(corp), **cols[corp_label(corp)])
        for corp in config.corporations
    }
    return tuned, corp_tuned


def weights_table(found: dict[str, Any]) -> pl.DataFrame:
    """One row per tuned weight, one column per searched bot."""
    return pl.DataFrame(
        {"weight": list(TUNED_WEIGHTS),
         **{c: [w[n] for n in TUNED_WEIGHTS] for c, w in found["weights"].items()}}
    )  # fmt: skip


def record(
    config: Config,
    found: dict[str, Any],
    git: dict[str, Any],
    jobs: int,
    runs: Sequence[Path],
    cpu0: float,
    wall0: float,
) -> dict[str, Any]:
    """The study's record (the manifest's results).

    What :func:`load_search` reads back, the seeds, and the timings of the
    searches and the validation since ``cpu0``/``wall0``.
    """
    infos = [run_info(r) for r in runs]
    return {
        "config": config_record(config),
        "tuning_seeds": "seeds.derive(seed, 'tuned_greedy', 'tuning', tag, "
                        "generation); tag 0 base, 1.. corporations in order",
        "validation_seeds": "seeds.derive(seed, 'tuned_greedy', 'solo' | 'base' | "
                            "'corporations')",
        "cpu_s": {**found["cpu_s"],
                  "validation_this_session": time.process_time() - cpu0},
        "wall_s": {**found["wall_s"],
                   "validation_this_session": time.perf_counter() - wall0,
                   "validation_runs": sum(i.wall_time_s or 0.0 for i in infos)},
        "validation_games": sum(i.n_games or 0 for i in infos),
        "search_git": found["git"], "git": git, "jobs": jobs,
        "weights": found["weights"], "final_sd": found["final_sd"],
    }  # fmt: skip
