"""Turn run folders into a report a designer reads top to bottom.

A report folder holds ``README.md`` (headline findings in words, computed from
the data; the tables; links to the figures; the runs' key facts),
``figures/*.png`` and ``tables/*.csv``.  It only *reads* run folders
(``manifest.json`` + ``data/*.parquet``), so re-plotting never re-simulates::

    python -m pu_sim.report.reporting reports/seat_order/40000-games-seed-1

A report covers one run or a study (a folder of run folders): solo rows get
the target-score calibration, multiplayer rows the balance analyses, and a
study with both gets both.  Anomalous games (``status != "ok"``) are counted
and left out.  This module decides which sections a report gets and writes
it; the sections are in :mod:`pu_sim.report.sections`.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from pu_sim.report.page import Page
from pu_sim.report.runs import load_runs, run_info
from pu_sim.report.sections.boards import (
    breakdown_section,
    interaction_section,
    label_balance,
)
from pu_sim.report.sections.bots import bot_section, robustness_section
from pu_sim.report.sections.calibration import (
    calibration_robustness,
    calibration_section,
)
from pu_sim.report.sections.runs import runs_facts
from pu_sim.report.sections.seats import seat_section
from pu_sim.report.sections.solo import has_deck, solo_boards, solo_summary
from pu_sim.simulation.runfolder import find_run_folders

__all__ = ["main", "write_report", "write_study_report"]


def _with_policy(mp: pl.DataFrame) -> pl.DataFrame:
    """Add ``n_bots`` and ``policy`` (the sorted bot labels at the table)."""
    gk = ["run", "game_id"]
    pol = mp.group_by(gk).agg(
        n_bots=pl.col("bot").n_unique(),
        policy=pl.col("bot").cast(pl.String).unique().sort().str.join(" vs "),
    )
    return mp.join(pol, on=gk)


def _multiplayer(page: Page, games: pl.DataFrame) -> None:
    """The multiplayer sections: one-bot games for balance, mixed ones for bots."""
    mp = games.filter(pl.col("n_players") >= 2)
    if mp.height == 0:
        return
    mp = _with_policy(mp)
    homo = mp.filter(pl.col("n_bots") == 1)
    mixed = mp.filter(pl.col("n_bots") > 1)
    seat = seat_section(page, homo)
    if homo.height:
        many = homo["bot"].n_unique() > 1
        label_balance(page, homo, "corporation", "Corporations", many)
        label_balance(page, homo, "planet", "Planets", many)
        interaction_section(page, homo)
        breakdown_section(page, homo)
    bot_section(page, mixed)
    robustness_section(page, seat)


def _solo(page: Page, games: pl.DataFrame) -> None:
    """The solo sections: scores, boards, then one calibration per bot."""
    solo = games.filter(pl.col("n_players") == 1)
    if solo.height == 0:
        return
    solo_summary(page, solo)
    if not has_deck(solo):
        return
    solo_boards(page, solo)
    # One calibration per bot: the target is for every board, so corporations
    # and planets are pooled here (their own difficulty is the section above).
    split = ["bot"] if solo["bot"].n_unique() > 1 else []
    if not split:
        calibration_section(page, solo, "", "Solo target calibration")
        return
    fits: dict[str, pl.DataFrame] = {}
    for key, part in solo.partition_by(
        split, as_dict=True, maintain_order=True
    ).items():
        name = " / ".join(str(k) for k in key)
        fit = calibration_section(page, part, name, f"Solo target calibration: {name}")
        if fit is not None:
            fits[name] = fit
    calibration_robustness(page, fits)


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
    page = Page(out_dir)
    _solo(page, ok)
    _multiplayer(page, ok)
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
        "\n".join(f"- {h}" for h in page.headlines) or "- (no analysable games)",
        *page.sections,
        "## Runs and reproducibility",
        runs_facts(infos, total - ok.height, total),
        "## Files",
        "Figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in page.figures)
        + "\n\nTables: " + ", ".join(f"[{Path(t).name}]({t})" for t in page.tables),
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
    runs = find_run_folders(run_dir)
    if not runs:
        raise FileNotFoundError(f"no run folders (manifest.json) in {run_dir}")
    meta_path = run_dir / "study.json"
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    if out_dir is None:
        if runs == [run_dir]:
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
