"""Turn run folders into a report a designer reads top to bottom.

A report folder holds ``README.md`` (headline findings in words, computed from
the data; the tables; links to the figures; the runs' key facts),
``figures/*.png`` and ``tables/*.csv``.  It only *reads* run folders
(``manifest.json`` + ``data/*.parquet``), so re-plotting never re-simulates::

    python -m pu_sim.report.reporting reports/seat_order/40000-games-seed-1

A report covers one run or a study (a folder of run folders): solo rows get
the target-score calibration, multiplayer rows the balance analyses, and a
study with both gets both.  Anomalous games (``status != "ok"``) are counted
and left out.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import polars as pl
from matplotlib.figure import Figure

from pu_sim import analysis
from pu_sim.analysis import calibration
from pu_sim.analysis.calibration import DECK_COLUMNS, TargetTable
from pu_sim.report import plots
from pu_sim.simulation.frames import SCORE_PARTS

COLUMNS = (
    "game_id", "seat", "n_players", "corporation", "planet", "bot", "score", "rank",
    "won", *SCORE_PARTS, "status", *DECK_COLUMNS,
)  # fmt: skip
"""Columns a report reads (others stay on disk)."""

PAIR_SHIFT = 40
"""Group ids of different pairing sets are offset by ``index << PAIR_SHIFT``."""


# --------------------------------------------------------------------------------
# Reading run folders
# --------------------------------------------------------------------------------


def _get(d: dict[str, Any], *paths: str, default: Any = None) -> Any:
    """First value found among dotted paths.

    Run folders written before the runner (the committed reports' older
    manifests) name some facts differently; reading several candidate paths
    keeps reports readable for both.
    """
    for path in paths:
        cur: Any = d
        for part in path.split("."):
            if isinstance(cur, dict) and part in cur:
                cur = cur[part]
            else:
                cur = None
                break
        if cur is not None:
            return cur
    return default


@dataclass(frozen=True)
class RunInfo:
    """The key facts of one run folder's manifest."""

    path: Path
    name: str
    study: str
    n_games: int | None
    seed: Any
    entropy: Any
    players: Any
    bots: list[str]
    group_size: int
    pairing: str | None
    versions: dict[str, Any]
    wall_time_s: float | None
    games_per_s: float | None
    manifest: dict[str, Any] = field(repr=False)


def read_manifest(run_dir: Path) -> dict[str, Any]:
    """The run's ``manifest.json`` as a dict."""
    path = Path(run_dir) / "manifest.json"
    if not path.is_file():
        raise FileNotFoundError(f"{run_dir} is not a run folder: no manifest.json")
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _bot_text(entry: Any) -> str:
    if isinstance(entry, str):
        return entry
    if isinstance(entry, dict):
        label = str(entry.get("label") or entry.get("kind") or "?")
        params = entry.get("params") or {}
        if entry.get("kind") == "greedy" and params:
            from pu_sim.bots import GREEDY_WEIGHTS

            changed = {
                k: v
                for k, v in params.items()
                if k in GREEDY_WEIGHTS and v != GREEDY_WEIGHTS[k]
            }
            if changed:
                inner = ", ".join(f"{k}={v:g}" for k, v in changed.items())
                return f"{label} (greedy, {inner})"
        return label
    return str(entry)


def run_info(run_dir: Path) -> RunInfo:
    """Normalised facts of a run folder (tolerant of manifest key names)."""
    run_dir = Path(run_dir)
    m = read_manifest(run_dir)
    bots = _get(m, "config.bots", "bots", default=[])
    if not isinstance(bots, list):
        bots = [bots]
    versions = dict(_get(m, "versions", default={}) or {})
    git = _get(m, "git", default=None)
    if isinstance(git, dict):  # the runner keeps the checkout beside the versions
        versions.setdefault("git_revision", git.get("revision"))
        versions.setdefault("git_dirty", git.get("dirty"))
    return RunInfo(
        path=run_dir,
        name=str(_get(m, "metadata.name", "name", "run", default=run_dir.name)),
        study=str(_get(m, "metadata.study", "study", default=run_dir.parent.name)),
        n_games=_get(m, "n_games", "config.n_games", "games"),
        seed=_get(m, "seed.seed", "config.seed", "seed"),
        entropy=_get(m, "seed.entropy", "seed_entropy", "entropy", "seed"),
        players=_get(m, "config.players", "players"),
        bots=[_bot_text(b) for b in bots],
        group_size=int(_get(m, "config.group_size", "group_size", default=1)),
        pairing=_get(m, "metadata.pairing", "config.pairing", "pairing"),
        versions=versions if isinstance(versions, dict) else {},
        wall_time_s=_get(m, "wall_time_s", "wall_time", "timing.wall_time_s"),
        games_per_s=_get(m, "games_per_s", "timing.games_per_s"),
        manifest=m,
    )


def find_runs(path: Path) -> list[Path]:
    """Run folders at or below ``path`` (a run, or a study of runs), sorted."""
    path = Path(path)
    if (path / "manifest.json").is_file():
        return [path]
    return sorted(p.parent for p in path.rglob("manifest.json") if p.parent != path)


def load_runs(run_dirs: Sequence[Path]) -> pl.DataFrame:
    """All rows of the runs, with ``run`` (name) and paired-design ``group``.

    ``group`` is ``game_id // group_size`` within a run; runs that share a
    ``pairing`` name and seed share group ids (their games were dealt the same
    setups), every other run gets its own id range.
    """
    infos = [run_info(d) for d in run_dirs]
    sets: dict[tuple[str, str], int] = {}
    frames = []
    for info in infos:
        files = sorted((info.path / "data").glob("*.parquet"))
        if not files:
            raise FileNotFoundError(
                f"run {info.path} has no data/*.parquet (reports need the run's data)"
            )
        key = (
            (f"pair:{info.pairing}", str(info.entropy))
            if info.pairing
            else ("run", str(info.path))
        )
        index = sets.setdefault(key, len(sets))
        lf = pl.scan_parquet([str(f) for f in files])
        names = lf.collect_schema().names()
        frames.append(
            lf.select([c for c in COLUMNS if c in names])
            .with_columns(
                pl.col("bot").cast(pl.String),
                run=pl.lit(info.name),
                group=(
                    pl.lit(index, pl.UInt64) * (1 << PAIR_SHIFT)
                    + pl.col("game_id").cast(pl.UInt64) // max(info.group_size, 1)
                ),
            )
            .collect()
        )
    return _concat_enums(frames)


def _concat_enums(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Concatenate frames whose Enum columns may hold different categories.

    Runs label their bots (and, from other versions, corporations) with their
    own Enum; the union keeps each category's first-seen order.
    """
    cats: dict[str, list[str]] = {}
    for f in frames:
        for name, dtype in f.schema.items():
            if isinstance(dtype, pl.Enum):
                known = cats.setdefault(name, [])
                known += [c for c in dtype.categories.to_list() if c not in known]
            elif name == "bot":
                known = cats.setdefault(name, [])
                known += [
                    c for c in f[name].unique(maintain_order=True) if c not in known
                ]
    unified = [
        f.with_columns(
            pl.col(c).cast(pl.String).cast(pl.Enum(v))
            for c, v in cats.items()
            if c in f.columns
        )
        for f in frames
    ]
    return pl.concat(unified, how="diagonal_relaxed")


# --------------------------------------------------------------------------------
# Formatting
# --------------------------------------------------------------------------------


def _fmt(value: Any, spec: str) -> str:
    """One number as text; ``spec`` is a format spec, ``"%"`` or ``"p"``."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if spec == "p":
        v = float(value)
        return "<1e-300" if v == 0 else (f"{v:.2g}" if v < 0.001 else f"{v:.3f}")
    if spec == "%":
        # Keep "never" and "always" honest: rounding must not reach 0 or 100.
        v = 100 * float(value)
        if 0 < v < 0.01:
            return "<0.01%"
        if 99.99 < v < 100:
            return ">99.99%"
        return f"{v:.2f}%" if (0 < v < 0.1 or 99.9 < v < 100) else f"{v:.1f}%"
    return format(value, spec)


def _ci(r: dict[str, Any], est: str, lo: str, hi: str, spec: str) -> str:
    """``estimate [lower, upper]`` from a row dict."""
    return f"{_fmt(r[est], spec)} [{_fmt(r[lo], spec)}, {_fmt(r[hi], spec)}]"


def _md_table(rows: list[list[str]], header: list[str]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def frame_table(frame: pl.DataFrame, floats: str = ".3f") -> str:
    """A whole frame as a Markdown table, floats in the ``floats`` format."""
    rows = [
        [format(v, floats) if isinstance(v, float) else str(v) for v in row]
        for row in frame.iter_rows()
    ]
    return _md_table(rows, frame.columns)


def _seat_name(seat: int) -> str:
    return f"seat {seat} (first commander)" if seat == 0 else f"seat {seat}"


def _pct(x: float) -> str:
    return _fmt(x, "%")


def _ratio_words(ratio: float) -> str:
    """What a paired/unpaired variance ratio means, in words."""
    if not math.isfinite(ratio):
        return "no variance ratio"
    if ratio >= 1.0:
        return f"pairing cut the variance {ratio:.2f}-fold"
    return f"variance ratio {ratio:.2f}: pairing did not help here"


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in text)


# --------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------


@dataclass
class _Report:
    out: Path
    headlines: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)

    def table(self, name: str, frame: pl.DataFrame) -> str:
        path = self.out / "tables" / f"{name}.csv"
        path.parent.mkdir(parents=True, exist_ok=True)
        flat = frame.with_columns(
            pl.col(c).cast(pl.String)
            for c, t in frame.schema.items()
            if isinstance(t, (pl.Enum, pl.Categorical))
        )
        flat.write_csv(path, float_precision=6)
        rel = f"tables/{name}.csv"
        self.tables.append(rel)
        return rel

    def figure(self, name: str, fig: Figure, caption: str) -> str:
        plots.save(fig, self.out / "figures" / f"{name}.png")
        rel = f"figures/{name}.png"
        self.figures.append(rel)
        return f"![{caption}]({rel})\n\n*{caption}*"

    def section(self, title: str, *parts: str) -> None:
        self.sections.append("\n\n".join([f"## {title}", *[p for p in parts if p]]))


def _try(fn: Callable[[], pl.DataFrame]) -> tuple[pl.DataFrame | None, str | None]:
    try:
        return fn(), None
    except ValueError as exc:
        return None, str(exc)


def _panels(n: int, rows: int) -> Figure:
    """A figure with room for ``n`` side-by-side forest plots of ``rows`` rows."""
    return Figure(figsize=(4.2 * n + 0.8, 0.3 * rows + 1.6), layout="constrained")


# ---------------------------------------------------------------- multiplayer


def _with_policy(mp: pl.DataFrame) -> pl.DataFrame:
    """Add ``n_bots`` and ``policy`` (the sorted bot labels at the table)."""
    gk = ["run", "game_id"]
    pol = mp.group_by(gk).agg(
        n_bots=pl.col("bot").n_unique(),
        policy=pl.col("bot").cast(pl.String).unique().sort().str.join(" vs "),
    )
    return mp.join(pol, on=gk)


def _seat_headlines(rep: _Report, table: pl.DataFrame) -> None:
    """One headline per (bot, player count): the first commander, then the rest."""
    groups = table.partition_by(["bot", "n_players"], as_dict=True, maintain_order=True)
    for (bot, n), part in groups.items():
        r0 = part.filter(pl.col("seat") == 0).row(0, named=True)
        wins = _ci(r0, "win_rate", "lower", "upper", "%")
        points = _ci(r0, "score_vs_table", "svt_lower", "svt_upper", "+.2f")
        text = (
            f"**Seats, {n} players ({bot}):** the first commander (seat 0) wins "
            f"{wins} of games against a fair {_pct(r0['expected'])} and scores "
            f"{points} points against its table's mean"
        )
        sig = part.filter(pl.col("significant"))
        if sig.height == 0:
            text += f"; no seat's win rate differs from 1/{n} after Holm correction."
        else:
            items = [
                f"{_seat_name(r['seat'])} {_ci(r, 'win_rate', 'lower', 'upper', '%')}"
                for r in sig.iter_rows(named=True)
            ]
            text += f". Differing from 1/{n} after Holm correction: {'; '.join(items)}."
        rep.headlines.append(text)


def _seat_section(rep: _Report, homo: pl.DataFrame) -> pl.DataFrame | None:
    if homo.height == 0:
        return None
    table = analysis.seat_effect(homo, by=("bot",))
    rep.table("seat_effect", table)
    rows = [
        [
            str(r["n_players"]),
            str(r["bot"]),
            _seat_name(r["seat"]),
            f"{r['n']:,}",
            _ci(r, "win_rate", "lower", "upper", "%"),
            _pct(r["expected"]),
            _fmt(r["p_adjusted"], "p"),
            _ci(r, "score_vs_table", "svt_lower", "svt_upper", "+.2f"),
            _fmt(r["mean_rank"], ".3f"),
        ]
        for r in table.iter_rows(named=True)
    ]
    header = ["players", "bot", "seat", "games", "win rate [95% CI]", "fair share"]
    header += ["Holm p", "score vs table mean [95% CI]", "mean rank"]
    _seat_headlines(rep, table)
    plot_df = table.with_columns(
        excess_lower=pl.col("lower") - pl.col("expected"),
        excess_upper=pl.col("upper") - pl.col("expected"),
        label=pl.format("{}p seat {}", pl.col("n_players"), pl.col("seat")),
    )
    bots = plot_df["bot"].unique(maintain_order=True).to_list()
    per_bot = plot_df.height // max(len(bots), 1)
    figs = []
    for name, est, lo, hi, sig, xlabel, caption in (
        (
            "seat_win_rate", "excess", "excess_lower", "excess_upper", "significant",
            "win rate - 1/n",
            "Win rate minus the fair share 1/n by seat, with 95% Wilson intervals; "
            "filled points differ from 1/n after Holm correction. Seat 0 is the "
            "first commander.",
        ),
        (
            "seat_score", "score_vs_table", "svt_lower", "svt_upper", None,
            "score - table mean (points)",
            "Each seat's score minus its own game's mean score (paired within "
            "games), with 95% t intervals.",
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
        figs.append(rep.figure(name, fig, caption))
    main_bot = homo["bot"].mode().sort()[0]
    paired = analysis.paired_differences(
        homo.filter(pl.col("bot") == main_bot), by="seat"
    )
    pairing = ""
    if paired.height:
        rep.table("seat_paired", paired)
        ratio = float(paired["variance_ratio"].median())  # type: ignore[arg-type]
        pairing = (
            f"Comparing two seats inside the same game ({main_bot}) instead of "
            f"across games: {_ratio_words(ratio)} (median over {paired.height} "
            "seat pairs; `seat_paired.csv` has each pair's difference)."
        )
    rep.section(
        "Seat order and the first commander",
        "Games in which every seat used the same bot, so the only difference "
        "between seats is the turn order (seat 0 is the first commander, rules "
        "ST-10). Win rates are compared with the fair share 1/n (Wilson "
        "intervals, score test, Holm correction over the whole table); the score "
        "against the table mean is paired within games, so the game's luck cancels.",
        _md_table(rows, header),
        pairing,
        *figs,
    )
    return table


HEADLINE_ITEMS = 6
"""At most this many labels are named in one headline (the strongest and weakest)."""


def _label_balance(
    rep: _Report, homo: pl.DataFrame, label: str, title: str, many_policies: bool
) -> None:
    """Balance table, forest plot, strengths and paired comparisons of a label."""
    labels = homo[label].unique()
    if labels.len() < 2:
        only = labels.to_list()[0] if labels.len() else "none"
        rep.section(
            title,
            f"Only **{only}** appears in these games, so there is no {label} "
            "comparison: draw the seats' boards from a pool (e.g. "
            '`corporations="random"`) to compare them.',
        )
        return
    by = ("bot", label) if many_policies else (label,)
    table = analysis.balance_table(homo, by=by)
    rep.table(f"{label}_balance", table)
    sig = table.filter(pl.col("significant"))
    if sig.height == 0:
        rep.headlines.append(
            f"**{title}:** no {label}'s win rate differs from 1/n at any player count "
            f"after Holm correction ({table.height} comparisons)."
        )
    else:

        def item(r: dict[str, Any]) -> str:
            who = f" ({r['bot']})" if many_policies else ""
            return (
                f"{r[label]} at {r['n_players']}p{who}: "
                f"{_ci(r, 'win_rate', 'lower', 'upper', '%')} vs "
                f"{_pct(1 / r['n_players'])}"
            )

        ranked = list(sig.sort("excess", descending=True).iter_rows(named=True))
        if len(ranked) <= HEADLINE_ITEMS:
            listed = "; ".join(item(r) for r in ranked)
        else:  # the extremes; the table has them all
            k = HEADLINE_ITEMS // 2
            listed = (
                "most above: " + "; ".join(item(r) for r in ranked[:k])
                + "; most below: " + "; ".join(item(r) for r in ranked[-k:][::-1])
                + f" (all in the {label} table below)"
            )  # fmt: skip
        rep.headlines.append(
            f"**{title}:** {sig.height} of {table.height} win rates differ from 1/n "
            f"after Holm correction: {listed}."
        )
    rows = [
        [
            str(r["n_players"]),
            *([str(r["bot"])] if many_policies else []),
            str(r[label]),
            f"{r['n']:,}",
            _ci(r, "win_rate", "lower", "upper", "%"),
            _fmt(r["p_adjusted"], "p"),
            _ci(r, "mean_score", "score_lower", "score_upper", ".1f"),
            _ci(r, "mean_rank", "rank_lower", "rank_upper", ".2f"),
        ]
        for r in table.iter_rows(named=True)
    ]
    header = ["players", *(["bot"] if many_policies else []), label, "seats played"]
    header += ["win rate [95% CI]", "Holm p", "mean score", "mean rank"]
    fair = pl.col("win_rate") - pl.col("excess")
    plot_df = table.with_columns(
        excess_lower=pl.col("lower") - fair,
        excess_upper=pl.col("upper") - fair,
        lab=pl.format("{}p {}", pl.col("n_players"), pl.col(label).cast(pl.String)),
    )
    fig, ax = plots.new_figure(6.4, 0.3 * plot_df.height + 1.5)
    plots.plot_forest(
        ax,
        plot_df,
        label="lab",
        estimate="excess",
        lower="excess_lower",
        upper="excess_upper",
        reference=0.0,
        significant="significant",
        xlabel="win rate - 1/n",
    )
    caption = (
        f"Excess win rate of each {label} over 1/n with 95% Wilson intervals "
        "(filled: significant after Holm)."
    )
    parts = [_md_table(rows, header), rep.figure(f"{label}_win_rate", fig, caption)]
    main_bot = homo["bot"].mode().sort()[0]
    main = homo.filter(pl.col("bot") == main_bot)
    strength, err = _try(lambda: analysis.strength_model(main, by=label, n_boot=100))
    if strength is not None:
        rep.table(f"{label}_strength", strength)
        srows = [
            [
                str(r[label]),
                f"{r['n']:,}",
                _ci(r, "rating", "lower", "upper", "+.3f"),
                _pct(r["p_beat_average"]),
            ]
            for r in strength.iter_rows(named=True)
        ]
        parts.append(
            f"Plackett-Luce strengths ({main_bot}) from whole finishing orders "
            "(log-strength, mean 0; 95% bootstrap over games):\n\n"
            + _md_table(srows, [label, "seats", "rating [95% CI]", "beats an average"])
        )
    elif err:
        parts.append(f"Strength model not fitted: {err}.")
    paired = analysis.paired_differences(homo, by=label, group_col="group")
    if paired.height:
        rep.table(f"{label}_paired", paired)
        ratio = float(paired["variance_ratio"].median())  # type: ignore[arg-type]
        parts.append(
            f"Paired comparisons inside setup groups ({paired.height} pairs): the "
            f"median variance ratio is {ratio:.2f}, so an unpaired study would need "
            f"about {ratio:.1f}x the games for the same interval width "
            f"(table `{label}_paired.csv`)."
        )
        rep.headlines.append(
            f"**Paired design ({label}s):** {_ratio_words(ratio)} for {label} "
            f"differences (median over {paired.height} pairs)."
        )
    rep.section(title, *parts)


def _interaction_section(rep: _Report, homo: pl.DataFrame) -> None:
    if homo["corporation"].n_unique() < 2 or homo["planet"].n_unique() < 2:
        return
    table = analysis.interaction_table(homo)
    rep.table("corporation_planet", table)
    sizes = table.group_by("n_players").agg(pl.col("n").sum()).sort("n")
    n_main = int(sizes["n_players"][-1])
    sub = table.filter(pl.col("n_players") == n_main)
    fig, ax = plots.new_figure(7.5, 0.35 * sub["corporation"].n_unique() + 2.5)
    plots.plot_heatmap(ax, sub, row="corporation", col="planet", value="delta")
    off = sub.filter((pl.col("lower") > 0) | (pl.col("upper") < 0))
    if off.height:
        r = off.sort(pl.col("delta").abs(), descending=True).row(0, named=True)
        rep.headlines.append(
            f"**Corporation x planet ({n_main}p):** {off.height} of {sub.height} "
            f"combinations deviate from additivity at 95%; the largest is "
            f"{r['corporation']} on {r['planet']}: "
            f"{_ci(r, 'delta', 'lower', 'upper', '+.1f')} points."
        )
    rep.section(
        "Corporation x planet interaction",
        "Cell mean minus corporation mean minus planet mean plus grand mean: "
        "positive cells are combinations stronger than their parts (table "
        "`corporation_planet.csv` has every player count).",
        rep.figure(
            "corporation_planet", fig, f"Interaction deltas at {n_main} players."
        ),
    )


def _breakdown_section(rep: _Report, homo: pl.DataFrame) -> None:
    table = analysis.score_breakdown(homo, by=("bot", "corporation"))
    rep.table("score_breakdown", table)
    keys = ["n_players", "bot", "corporation"]
    n_keys = table.select(keys).unique().height
    fig, ax = plots.new_figure(7.0, 0.4 * n_keys + 1.8)
    labelled = table.with_columns(
        lab=pl.format("{}p {} {}", *[pl.col(k) for k in keys])
    )
    plots.plot_score_breakdown(ax, labelled, label="lab")
    wide = table.pivot(on="part", index=keys, values="mean")
    parts = list(SCORE_PARTS)
    rows = [
        [str(r[k]) for k in keys] + [_fmt(r[p], ".1f") for p in parts]
        for r in wide.iter_rows(named=True)
    ]
    header = ["players", "bot", "corporation"]
    header += [p.removeprefix("score_") + " pts" for p in parts]
    rep.section(
        "Where the points come from",
        "Mean points per scoring category (they add up to the score).",
        _md_table(rows, header),
        rep.figure("score_breakdown", fig, "Mean points by category."),
    )


def _bot_section(rep: _Report, mixed: pl.DataFrame) -> None:
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
        slug = _slug(str(policy))
        table = analysis.balance_table(sub, by=("bot",))
        rep.table(f"bots_{slug}", table)
        rows = [
            [
                str(r["n_players"]),
                str(r["bot"]),
                f"{r['n']:,}",
                _ci(r, "win_rate", "lower", "upper", "%"),
                _ci(r, "mean_score", "score_lower", "score_upper", ".1f"),
                _fmt(r["mean_rank"], ".2f"),
            ]
            for r in table.iter_rows(named=True)
        ]
        header = ["players", "bot", "seats", "win rate [95% CI]", "mean score"]
        parts.append(f"**{policy}**\n\n" + _md_table(rows, [*header, "mean rank"]))
        paired = analysis.paired_differences(sub, by="bot", group_col="group")
        if paired.height:
            rep.table(f"bots_{slug}_paired", paired)
            prows = []
            for r in paired.iter_rows(named=True):
                prows.append(
                    [
                        str(r["n_players"]),
                        f"{r['bot_a']} - {r['bot_b']}",
                        f"{r['groups']:,}",
                        _ci(r, "mean_diff", "lower", "upper", "+.2f"),
                        _fmt(r["p_adjusted"], "p"),
                        _fmt(r["variance_ratio"], ".2f"),
                    ]
                )
                win = table.filter(
                    (pl.col("n_players") == r["n_players"])
                    & (pl.col("bot") == r["bot_a"])
                )
                wins = (
                    f"; {r['bot_a']} wins "
                    f"{_ci(win.row(0, named=True), 'win_rate', 'lower', 'upper', '%')}"
                    " of its seats"
                    if win.height
                    else ""
                )
                rep.headlines.append(
                    f"**Bots, {r['n_players']} players:** {r['bot_a']} - {r['bot_b']} "
                    f"= {_ci(r, 'mean_diff', 'lower', 'upper', '+.2f')} points in the "
                    f"same setups{wins}; {_ratio_words(r['variance_ratio'])}."
                )
            header = ["players", "difference", "setups", "mean [95% CI]", "Holm p"]
            parts.append(_md_table(prows, [*header, "variance ratio"]))
            all_paired.append(paired)
    strength, err = _try(lambda: analysis.strength_model(mixed, by="bot"))
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
        rep.table("bot_strength", strength)
        srows = [
            [str(r["bot"]), f"{r['n']:,}", _ci(r, "rating", "lower", "upper", "+.2f"),
             _pct(r["p_beat_average"])]
            for r in strength.iter_rows(named=True)
        ]  # fmt: skip
        parts.append(
            "Plackett-Luce strengths of the bots from every mixed game (log-strength, "
            "mean 0; 95% bootstrap over games):\n\n"
            + _md_table(srows, ["bot", "seats", "rating [95% CI]", "beats an average"])
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
        "strengths with 95% bootstrap intervals."
    )
    parts.append(rep.figure("bots", fig, caption))
    rep.section("Bots against each other", *parts)


def _robustness_section(rep: _Report, seat: pl.DataFrame | None) -> None:
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
                sig = (pl.col("svt_lower") > 0) | (pl.col("svt_upper") < 0)
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
            rows.append(
                [
                    f"{a} vs {b}",
                    estimate,
                    str(r["keys"]),
                    _fmt(r["spearman"], ".2f"),
                    f"{r['significant_a']} / {r['significant_b']}",
                    _fmt(r["sign_agreement"], "%"),
                    str(r["conflicts"]),
                ]
            )
            if estimate != "excess":
                continue
            either = max(r["significant_a"], r["significant_b"])
            signs = (
                f"{_fmt(r['sign_agreement'], '%')} of the effects significant under "
                f"either policy have the same sign under both, {r['conflicts']} "
                "conflict"
                if either
                else "no seat effect is significant under either policy"
            )
            rep.headlines.append(
                f"**Robustness ({a} vs {b}):** the seats' excess win rates have rank "
                f"correlation {_fmt(r['spearman'], '.2f')} over {r['keys']} "
                f"(players, seat) cells; {signs}."
            )
    rep.table("robustness", pl.concat(results))
    header = ["policies", "estimate", "cells", "Spearman", "significant (a / b)"]
    rep.section(
        "Robustness across bot policies",
        "The same seat table under each bot policy: do the conclusions survive a "
        "change of bot? Spearman's rank correlation of the estimates over "
        "(players, seat) cells, and the sign agreement of the effects that are "
        "significant under at least one policy (win rate: against 1/n after Holm; "
        "score vs table mean: its 95% interval excludes 0).",
        _md_table(rows, [*header, "same sign", "conflicts"]),
    )


def _multiplayer(rep: _Report, games: pl.DataFrame) -> None:
    mp = games.filter(pl.col("n_players") >= 2)
    if mp.height == 0:
        return
    mp = _with_policy(mp)
    homo = mp.filter(pl.col("n_bots") == 1)
    mixed = mp.filter(pl.col("n_bots") > 1)
    seat = _seat_section(rep, homo)
    if homo.height:
        many = homo["bot"].n_unique() > 1
        _label_balance(rep, homo, "corporation", "Corporations", many)
        _label_balance(rep, homo, "planet", "Planets", many)
        _interaction_section(rep, homo)
        _breakdown_section(rep, homo)
    _bot_section(rep, mixed)
    _robustness_section(rep, seat)


# ---------------------------------------------------------------- solo


def _has_deck(solo: pl.DataFrame) -> bool:
    if not all(c in solo.columns for c in DECK_COLUMNS):
        return False
    sums = solo.select(pl.sum_horizontal(*DECK_COLUMNS).alias("s"))["s"]
    return bool((sums == calibration.DECK_SIZE).all())


def _solo_summary(rep: _Report, solo: pl.DataFrame) -> None:
    summary = analysis.score_summary(solo, by=("bot",))
    quant = analysis.score_quantiles(solo, by=("bot",), quantiles=(0.1, 0.5, 0.9))
    rep.table("solo_scores", summary)
    rep.table("solo_quantiles", quant)
    deck = _has_deck(solo)
    published = TargetTable.published()
    rows = []
    for r in summary.iter_rows(named=True):
        sub = solo.filter(pl.col("bot") == r["bot"])
        q = quant.filter(pl.col("bot") == r["bot"])["value"].to_list()
        row = [str(r["bot"]), f"{r['n']:,}", _ci(r, "mean", "lower", "upper", ".2f")]
        row += [_fmt(r["sd"], ".1f"), " / ".join(_fmt(v, ".0f") for v in q)]
        if deck:
            o = calibration.outcomes(sub, tables=[published]).row(0, named=True)
            target = float(sub.select(published.expr()).to_series().mean())  # type: ignore[arg-type]
            row += [
                f"{target:.1f}",
                _ci(o, "success", "success_lower", "success_upper", "%"),
            ]
        rows.append(row)
    header = ["bot", "games", "mean score [95% CI]", "sd", "p10 / p50 / p90"]
    if deck:
        header += ["mean published target", "reaches target [95% CI]"]
    parts = [_md_table(rows, header)]
    if deck:
        greedy = summary.filter(pl.col("bot").cast(pl.String).str.starts_with("greedy"))
        weak = (
            f" The greedy bot averages {greedy['mean'][0]:.1f} points, far below the "
            "targets: absolute success rates measure this (weak) bot, not people; "
            "the differences between decks are what a target table must get right."
            if greedy.height
            else ""
        )
        parts.append(
            "Targets follow the rulebook's table (rules 10.2): 60, plus an "
            "adjustment per event colour by its count band." + weak
        )
    paired = analysis.paired_differences(solo, by="bot", group_col="group")
    if paired.height:
        rep.table("solo_bots_paired", paired)
        prows = []
        for r in paired.iter_rows(named=True):
            prows.append(
                [
                    f"{r['bot_a']} - {r['bot_b']}",
                    f"{r['groups']:,}",
                    _ci(r, "mean_diff", "lower", "upper", "+.2f"),
                    _fmt(r["variance_ratio"], ".2f"),
                ]
            )
            rep.headlines.append(
                f"**Solo bots:** {r['bot_a']} - {r['bot_b']} = "
                f"{_ci(r, 'mean_diff', 'lower', 'upper', '+.2f')} points on identical "
                f"setups ({_ratio_words(r['variance_ratio'])})."
            )
        header = ["difference", "games", "mean [95% CI]", "variance ratio"]
        parts.append(
            "Paired by game (same seed, same setups):\n\n" + _md_table(prows, header)
        )
    rep.section("Solo scores", *parts)


def _judge(r: dict[str, Any]) -> str:
    """Words for one term: whether the table over- or under-corrects it."""
    est, pub = float(r["estimate"]), float(r["published"])
    if r["drift_lower"] <= 0 <= r["drift_upper"]:
        return "consistent"
    if pub == 0:
        return "missing adjustment"
    if est * pub < 0 and (r["lower"] > 0 or r["upper"] < 0):
        return "wrong direction"
    return "over-corrects" if abs(pub) > abs(est) else "under-corrects"


def _linear_part(rep: _Report, solo: pl.DataFrame, suffix: str, who: str) -> str:
    lin, err = _try(lambda: calibration.colour_effects(solo, model="linear"))
    if lin is None:
        return f"Per-card model not fitted: {err}."
    rep.table(f"solo_colour_linear{suffix}", lin)
    rows = []
    words = []
    for r in lin.filter(pl.col("term") != "intercept").iter_rows(named=True):
        rows.append(
            [
                f"{r['colour']} (per card, replacing an orange one)",
                _ci(r, "estimate", "lower", "upper", "+.3f"),
                _fmt(r["published"], "+.3f"),
                _ci(r, "drift", "drift_lower", "drift_upper", "+.3f"),
                _judge(r),
            ]
        )
        words.append(
            f"{r['colour']} {_ci(r, 'estimate', 'lower', 'upper', '+.2f')} points "
            f"per card against the table's {r['published']:+.2f} ({_judge(r)})"
        )
    rep.headlines.append(
        f"**Event colours{who}, per card in place of an orange card:** "
        + "; ".join(words)
        + "."
    )
    header = ["term", "score effect [95% CI]", "table's effect", "drift [95% CI]"]
    return (
        "**Per card.** Score = a + b_green x green + b_red x red, with orange as "
        "the reference (a deck always holds 20 cards), next to the same slope fitted "
        "to the published targets. Drift = score effect - target effect: positive "
        "means decks rich in that colour are easier than the table intends.\n\n"
        + _md_table(rows, [*header, "verdict"])
    )


def _band_headlines(rep: _Report, band_fit: pl.DataFrame, who: str) -> None:
    for (colour,), part in (
        band_fit.filter(pl.col("term") != "intercept")
        .partition_by("colour", as_dict=True, maintain_order=True)
        .items()
    ):
        rs = list(part.iter_rows(named=True))
        off = [r for r in rs if r["drift_lower"] > 0 or r["drift_upper"] < 0]
        if not off:
            rep.headlines.append(
                f"**Table, {colour}{who}:** every band's adjustment is consistent "
                "with the scores (all drift intervals include 0)."
            )
            continue
        verdicts = " / ".join(sorted({_judge(r) for r in off}))
        spans = ", ".join(
            f"{r['band']} cards: table {r['published']:+.0f}, score "
            f"{_ci(r, 'estimate', 'lower', 'upper', '+.1f')}"
            for r in off
        )
        rep.headlines.append(
            f"**Table, {colour}{who}:** {verdicts} in {len(off)} of {len(rs)} bands "
            f"({spans})."
        )


def _calibration(
    rep: _Report, solo: pl.DataFrame, key: str, title: str
) -> pl.DataFrame | None:
    """The calibration section of one group; returns its band fit, if any."""
    published = TargetTable.published()
    suffix = f"_{_slug(key)}" if key else ""
    who = f" ({key})" if key else ""
    comp = calibration.deck_summary(solo)
    if comp.height < 3:
        return None  # one or two decks: the solo table already shows them
    bands = calibration.deck_summary(solo, level="bands")
    rep.table(f"solo_decks{suffix}", comp)
    rep.table(f"solo_deck_bands{suffix}", bands)
    parts = [
        f"{solo.height:,} solo games over {comp.height} deck compositions "
        f"({bands.height} band classes); per-composition and per-band scores, "
        f"targets and success: `solo_decks{suffix}.csv`, "
        f"`solo_deck_bands{suffix}.csv`.",
        _linear_part(rep, solo, suffix, who),
    ]
    fig, ax = plots.new_figure(6.4, 4.4)
    plots.plot_deck_means(ax, comp)
    parts.append(
        rep.figure(
            f"solo_deck_means{suffix}",
            fig,
            "Mean score against the published target, one point per deck "
            "composition (size: games; colour: red cards). A calibrated table puts "
            "the points on the slope-1 line.",
        )
    )
    band_fit, err = _try(lambda: calibration.colour_effects(solo, model="bands"))
    if band_fit is None:
        parts.append(
            f"Band-level model not fitted: {err}. Play random decks "
            "(`event_deck_mix='random'`) to fit and recalibrate the full table."
        )
        _ecdf_figure(rep, solo, published, [], suffix, parts)
        rep.section(title, *parts)
        return None
    rep.table(f"solo_colour_bands{suffix}", band_fit)
    _band_headlines(rep, band_fit, who)
    same_fit, same_err = _try(lambda: calibration.recalibrate(solo))
    if same_fit is None:  # e.g. no game reached the published target
        parts.append(
            f"Recalibration at the published success rate skipped: {same_err}."
        )
        same_fit = calibration.recalibrate(solo, success=0.5)
    same = same_fit
    par = calibration.recalibrate(solo, success=0.5)
    rep.table(f"solo_recalibrated{suffix}", same)
    rep.table(f"solo_recalibrated_par{suffix}", par)
    new = calibration.table_from_frame(same, label="recalibrated")
    new_par = calibration.table_from_frame(par, label="recalibrated, par")
    pub_par = calibration.rebase(published, solo, success=0.5, label="published, par")
    rows = []
    for r in band_fit.filter(pl.col("term") != "intercept").iter_rows(named=True):
        rec = same.filter(
            (pl.col("entry") == r["colour"]) & (pl.col("band") == r["band"])
        )["recalibrated"][0]
        rows.append(
            [
                r["colour"],
                r["band"],
                _fmt(r["published"], "+.0f"),
                _ci(r, "estimate", "lower", "upper", "+.1f"),
                _ci(r, "drift", "drift_lower", "drift_upper", "+.1f"),
                _fmt(rec, "+.0f"),
                _judge(r),
            ]
        )
    base = same.filter(pl.col("entry") == "base").row(0, named=True)
    par_base = par.filter(pl.col("entry") == "base")["recalibrated"][0]
    header = ["colour", "cards", "published", "score effect [95% CI]"]
    header += ["drift [95% CI]", "recalibrated", "verdict"]
    parts.append(
        "**Per band.** One effect per colour and count band beyond 0-2, the "
        "published table's own structure (each relative to 0-2 cards of that colour, "
        "the other colours' bands held fixed). The recalibrated column is the "
        f"fitted effect rounded to whole points; with base {base['recalibrated']:.0f} "
        "it keeps the published table's overall success rate for this bot "
        f"({_pct(base['success'])}); with base {par_base:.0f} the bot reaches the "
        "target half the time (par).\n\n" + _md_table(rows, header)
    )
    fig, ax = plots.new_figure(7.2, 4.2)
    plots.plot_adjustments(ax, same)
    parts.append(
        rep.figure(
            f"solo_adjustments{suffix}",
            fig,
            "Published adjustments (crosses, dashed), fitted score effects with 95% "
            "intervals (dots) and the recalibrated whole-point values (bars), per "
            "colour and card-count band.",
        )
    )
    parts.append(_outcomes_part(rep, solo, [published, new, pub_par, new_par], suffix))
    sp = {
        r["table"]: r
        for r in calibration.success_spread(
            calibration.outcomes(solo, tables=[pub_par, new_par], level="bands")
        ).iter_rows(named=True)
    }
    a, b = sp["published, par"], sp["recalibrated, par"]
    if a["decks"] >= 2:
        rep.headlines.append(
            f"**Fairness across decks{who}:** at par (base set so the bot succeeds "
            "half the time) success ranges over "
            f"{_pct(a['min_success'])}-{_pct(a['max_success'])} across deck band "
            f"classes with the published adjustments (flatness p="
            f"{_fmt(a['p_value'], 'p')}) and {_pct(b['min_success'])}-"
            f"{_pct(b['max_success'])} with the recalibrated ones (p="
            f"{_fmt(b['p_value'], 'p')})."
        )
    table_txt = "; ".join(
        f"{c} "
        + "/".join(
            f"{v:+.0f}" for v in same.filter(pl.col("entry") == c)["recalibrated"]
        )
        for c in calibration.COLOURS
    )
    rep.headlines.append(
        f"**Recalibrated table{who}** (bands 0-2/3-6/7-10/11-14/15+): {table_txt}; "
        f"base {base['recalibrated']:.0f} keeps this bot's overall success rate "
        f"({_pct(base['success'])}), base {par_base:.0f} makes it par."
    )
    _ecdf_figure(rep, solo, published, [pub_par, new_par], suffix, parts)
    rep.section(title, *parts)
    return band_fit


def _outcomes_part(
    rep: _Report, solo: pl.DataFrame, tables: list[TargetTable], suffix: str
) -> str:
    overall = calibration.outcomes(solo, tables=tables)
    per_band = calibration.outcomes(solo, tables=tables, level="bands")
    spread = calibration.success_spread(per_band)
    rep.table(f"solo_outcomes{suffix}", overall)
    rep.table(f"solo_outcomes_by_band{suffix}", per_band)
    rep.table(f"solo_success_spread{suffix}", spread)
    labels = [b.row for b in calibration.outcome_bands()]
    rows = []
    for r in overall.join(spread, on="table").iter_rows(named=True):
        spread_txt = (
            f"{_pct(r['min_success'])} - {_pct(r['max_success'])}"
            if r["decks"] >= 2
            else "too few games per class"
        )
        rows.append(
            [
                r["table"],
                f"{r['base']:.0f}" if "base" in r else "",
                _ci(r, "success", "success_lower", "success_upper", "%"),
                spread_txt,
                _fmt(r["p_value"], "p"),
                *[_pct(r[b]) for b in labels],
            ]
        )
    bases = {t.label: t.base for t in tables}
    for row in rows:
        row[1] = f"{bases[row[0]]:.0f}"
    header = ["table", "base", "success [95% CI]", "spread over decks", "flatness p"]
    return (
        "**Success and outcome rows.** The same games graded by each table (the "
        'outcome rows are the rulebook\'s, by score - target). "Spread" is the '
        "lowest and highest success rate over deck band classes with at least 20 "
        "games; the chi-square test asks whether success is flat across them (a "
        'calibrated table gives a large p). The "par" tables move the base so '
        "this bot succeeds half the time, where unequal decks show most.\n\n"
        + _md_table(rows, [*header, *labels])
    )


def _ecdf_figure(
    rep: _Report,
    solo: pl.DataFrame,
    published: TargetTable,
    tables: list[TargetTable],
    suffix: str,
    parts: list[str],
) -> None:
    """Score ECDFs of the fixed decks played; margins by red band under tables.

    A fixed deck is a composition holding at least 5% of the games (a grid
    cell, not a random draw); with two to eight of them, their score
    distributions are drawn against their targets.  With a table fitted from
    many decks, the margin distributions by red band under ``tables`` (best at
    one difficulty, e.g. both at par) show the calibration.
    """
    big = max(100, solo.height // 20)
    counts = solo.group_by(DECK_COLUMNS).len().filter(pl.col("len") >= big)
    if 2 <= counts.height <= 8:
        samples: dict[str, Any] = {}
        targets: dict[str, float] = {}
        for g, o, r, _ in counts.sort(DECK_COLUMNS).iter_rows():
            name = f"{g}/{o}/{r}"
            sub = solo.filter(
                (pl.col("deck_green") == g)
                & (pl.col("deck_orange") == o)
                & (pl.col("deck_red") == r)
            )
            samples[name] = sub["score"].to_numpy()
            targets[name] = published.target(g, o, r)
        fig, ax = plots.new_figure(6.8, 4.2)
        plots.plot_ecdf(ax, samples, targets=targets)
        ax.set_title("green/orange/red cards; dashed: published target")
        caption = (
            "Score distribution (ECDF) per fixed deck with its published target "
            "(dashed): where a curve crosses its target is the failure rate."
        )
        parts.append(rep.figure(f"solo_ecdf{suffix}", fig, caption))
    if len(tables) < 2:
        return
    fig = Figure(figsize=(5.0 * len(tables), 4.0), layout="constrained")
    order = published.band_labels()
    for i, table in enumerate(tables):
        ax = fig.add_subplot(1, len(tables), i + 1)
        graded = solo.with_columns(
            *calibration.deck_classes(published),
            margin=pl.col("score").cast(pl.Float64) - table.expr(),
        )
        samples = {
            f"red {b}": graded.filter(pl.col("band_red") == b)["margin"].to_numpy()
            for b in order
        }
        samples = {k: v for k, v in samples.items() if v.size}
        colours = dict(zip(samples, plots.shades("Reds", len(samples)), strict=True))
        plots.plot_ecdf(ax, samples, colours=colours, xlabel="score - target")
        ax.axvline(0, color="k", lw=1)
        ax.set_title(f"{table.label} table (base {table.base:.0f})")
    caption = (
        "Distribution of score minus target by number of red cards, under the "
        "published and the recalibrated adjustments, both with the base at par: "
        "under a calibrated table the curves cross the target line (0) at the "
        "same height."
    )
    parts.append(rep.figure(f"solo_margin_ecdf{suffix}", fig, caption))


def _solo_boards(rep: _Report, solo: pl.DataFrame) -> None:
    """Solo difficulty of each corporation and planet under the published table."""
    published = TargetTable.published()
    parts = []
    for column in ("corporation", "planet"):
        if solo[column].n_unique() < 2:
            continue
        by = ("bot", column)
        summary = analysis.score_summary(solo, by=by)
        reached = calibration.outcomes(solo, tables=[published], by=by)
        table = summary.join(reached.drop("table", "n"), on=list(by), how="left")
        rep.table(f"solo_by_{column}", table)
        rows = [
            [str(r["bot"]), str(r[column]), f"{r['n']:,}",
             _ci(r, "mean", "lower", "upper", ".2f"),
             _ci(r, "success", "success_lower", "success_upper", "%")]
            for r in table.sort("bot", "mean", descending=[False, True]).iter_rows(
                named=True
            )
        ]  # fmt: skip
        header = ["bot", column, "games", "mean score [95% CI]",
                  "reaches the published target [95% CI]"]  # fmt: skip
        parts.append(_md_table(rows, header))
    if parts:
        rep.section(
            "Solo difficulty by corporation and planet",
            "The same published target (rules 10.2) for every board: where the "
            "mean score and the success rate differ, the target is easier or "
            "harder with that corporation or planet.",
            *parts,
        )


def _solo(rep: _Report, games: pl.DataFrame) -> None:
    solo = games.filter(pl.col("n_players") == 1)
    if solo.height == 0:
        return
    _solo_summary(rep, solo)
    if not _has_deck(solo):
        return
    _solo_boards(rep, solo)
    # One calibration per bot: the target is for every board, so corporations
    # and planets are pooled here (their own difficulty is the section above).
    split = ["bot"] if solo["bot"].n_unique() > 1 else []
    if not split:
        _calibration(rep, solo, "", "Solo target calibration")
        return
    fits: dict[str, pl.DataFrame] = {}
    for key, part in solo.partition_by(
        split, as_dict=True, maintain_order=True
    ).items():
        name = " / ".join(str(k) for k in key)
        fit = _calibration(rep, part, name, f"Solo target calibration: {name}")
        if fit is not None:
            fits[name] = fit
    _calibration_robustness(rep, fits)


def _calibration_robustness(rep: _Report, fits: dict[str, pl.DataFrame]) -> None:
    """Whether the table's errors look the same for every bot (or board)."""
    if len(fits) < 2:
        return
    rows = []
    frames = []
    for a, b in combinations(fits, 2):
        ta, tb = (
            fits[k]
            .filter(pl.col("term") != "intercept")
            .with_columns(
                significant=(pl.col("drift_lower") > 0) | (pl.col("drift_upper") < 0)
            )
            for k in (a, b)
        )
        res = analysis.robustness(ta, tb, on=("term",), estimate="drift")
        r = res.row(0, named=True)
        frames.append(res.with_columns(a=pl.lit(a), b=pl.lit(b)))
        rows.append(
            [
                f"{a} vs {b}",
                str(r["keys"]),
                _fmt(r["spearman"], ".2f"),
                f"{r['significant_a']} / {r['significant_b']}",
                _fmt(r["sign_agreement"], "%"),
                str(r["conflicts"]),
            ]
        )
        rep.headlines.append(
            f"**Calibration robustness ({a} vs {b}):** the per-band drifts of the "
            f"published table have rank correlation {_fmt(r['spearman'], '.2f')}; "
            f"{_fmt(r['sign_agreement'], '%')} of the drifts significant for either "
            f"have the same sign for both, {r['conflicts']} conflict."
        )
    rep.table("solo_calibration_robustness", pl.concat(frames))
    header = ["groups", "bands", "Spearman", "significant (a / b)", "same sign"]
    rep.section(
        "Solo calibration: robustness",
        "Do two bots (or boards) find the same faults in the published table? The "
        "per-band drifts (score effect - table adjustment) compared between groups.",
        _md_table(rows, [*header, "conflicts"]),
    )


# ---------------------------------------------------------------- assembly


def _facts(infos: Sequence[RunInfo], anomalies: int, total: int) -> str:
    rows = []
    for i in infos:
        rows.append(
            [f"`{i.name}`", str(i.players), ", ".join(i.bots),
             f"{i.n_games:,}" if isinstance(i.n_games, int) else str(i.n_games),
             str(i.seed), str(i.group_size),
             _fmt(i.wall_time_s, ".1f") + " s" if i.wall_time_s else "–",
             _fmt(i.games_per_s, ",.0f") if i.games_per_s else "–"]
        )  # fmt: skip
    table = _md_table(rows, ["run", "players", "bots", "games", "seed", "group size",
                             "wall time", "games/s"])  # fmt: skip
    vkeys = [
        ("pu_sim", ("pu_sim",)),
        ("rules version", ("rules", "rules_version")),
        ("engine version", ("engine", "engine_version")),
        ("rules digest", ("rules_digest", "digest")),
        ("git revision", ("git_revision", "git_sha", "git")),
        ("uncommitted changes", ("git_dirty", "dirty")),
    ]
    lines = []
    for label, keys in vkeys:
        values = sorted({str(_get(i.versions, *keys)) for i in infos})
        shown = [
            v[:12] if label in ("rules digest", "git revision") else v for v in values
        ]
        lines.append(f"- {label}: {', '.join(shown)}")
    runner = sorted(
        {
            str(_get(i.manifest, "runner", default="pu_sim.simulation.runner"))
            for i in infos
        }
    )
    wall = sum(i.wall_time_s or 0.0 for i in infos)
    return "\n\n".join(
        [
            table,
            "\n".join(lines),
            f"Total simulation wall time {wall:.0f} s. Runner: {', '.join(runner)}. "
            f"{anomalies:,} of {total:,} seat rows came from anomalous games "
            "(status other than ok) and were left out.",
        ]
    )


def write_study_report(
    run_dirs: Sequence[Path], out_dir: Path, *, title: str | None = None
) -> Path:
    """Write one report over several run folders (their rows are pooled).

    Returns
    -------
    pathlib.Path
        The report folder.
    """
    run_dirs = [Path(d) for d in run_dirs]
    if not run_dirs:
        raise ValueError("no run folders to report on")
    infos = [run_info(d) for d in run_dirs]
    out_dir = Path(out_dir)
    for sub in ("figures", "tables"):
        if (out_dir / sub).is_dir():
            shutil.rmtree(out_dir / sub)  # stale files from an earlier report
    out_dir.mkdir(parents=True, exist_ok=True)
    games = load_runs(run_dirs)
    total = games.height
    ok = games.filter(pl.col("status") == "ok") if "status" in games.columns else games
    rep = _Report(out_dir)
    _solo(rep, ok)
    _multiplayer(rep, ok)
    if (
        len(run_dirs) == 1
        and (run_dirs[0] / "manifest.json").resolve()
        != (out_dir / "manifest.json").resolve()
    ):
        shutil.copyfile(run_dirs[0] / "manifest.json", out_dir / "manifest.json")
    elif len(run_dirs) > 1:
        study = {
            "study": infos[0].study,
            "title": title,
            "runs": [str(_relative(i.path, out_dir)) for i in infos],
        }
        (out_dir / "study.json").write_text(json.dumps(study, indent=2) + "\n")
    n_games = ok.select(pl.struct("run", "game_id").n_unique()).item()
    heading = title or f"{infos[0].study}: {out_dir.name}"
    text = [
        f"# {heading}",
        f"Generated by `pu_sim.report.reporting.write_report` from {len(infos)} run "
        f"folder(s), {n_games:,} games. Every number below is computed from the "
        "runs' data; re-run `python -m pu_sim.report.reporting <this folder>` to "
        "rebuild it without simulating.",
        "## Headline findings",
        "\n".join(f"- {h}" for h in rep.headlines) or "- (no analysable games)",
        *rep.sections,
        "## Runs and reproducibility",
        _facts(infos, total - ok.height, total),
        "## Files",
        "Figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in rep.figures)
        + "\n\nTables: " + ", ".join(f"[{Path(t).name}]({t})" for t in rep.tables),
    ]  # fmt: skip
    (out_dir / "README.md").write_text("\n\n".join(text) + "\n")
    return out_dir


def _relative(path: Path, start: Path) -> Path:
    try:
        return path.resolve().relative_to(start.resolve())
    except ValueError:
        return path


def write_report(run_dir: Path, out_dir: Path | None = None) -> Path:
    """Write the report of a run folder (or a study folder of runs).

    Parameters
    ----------
    run_dir
        A run folder (``manifest.json`` + ``data/``) or a folder holding run
        folders at any depth (a study).
    out_dir
        Where to write; default ``reports/<study>/<run name>/`` (relative to
        the working directory), the study and name coming from the manifest or
        else from the folder names.

    Returns
    -------
    pathlib.Path
        The report folder, holding ``README.md``, ``figures/`` and ``tables/``.
    """
    run_dir = Path(run_dir)
    runs = find_runs(run_dir)
    if not runs:
        raise FileNotFoundError(f"no run folders (manifest.json) in {run_dir}")
    meta_path = run_dir / "study.json"
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    if out_dir is None:
        if (run_dir / "manifest.json").is_file():
            info = run_info(run_dir)
            study, name = info.study, info.name
        else:
            study = str(meta.get("study") or run_dir.resolve().parent.name)
            name = run_dir.resolve().name
        out_dir = Path("reports") / study / name
    return write_study_report(runs, out_dir, title=meta.get("title"))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pu_sim.report.reporting RUN [--out DIR]``: rebuild a report."""
    parser = argparse.ArgumentParser(
        prog="python -m pu_sim.report.reporting",
        description="Write the report of a run or study folder (no simulation).",
    )
    parser.add_argument("run", type=Path, help="run folder or study folder")
    parser.add_argument("--out", type=Path, default=None, help="report folder")
    args = parser.parse_args(argv)
    try:
        out = write_report(args.run, args.out)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(out / "README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
