"""Turn run folders into a report a designer reads top to bottom.

A report folder holds ``README.md`` (headline findings in words, computed from
the data; the tables; links to the figures; the runs' key facts), the same
as one self-contained web page (``index.html``, :mod:`pu_sim.report.html`),
``figures/*.png``, ``tables/*.csv`` and ``manifest.json`` (the report manifest,
one shape for every study).  It only *reads* run folders (``manifest.json`` +
``data/*.parquet``), so re-plotting never re-simulates, and a report folder
names its runs, so it rebuilds from itself::

    python -m pu_sim.report reports/seat_order/40000-games-seed-1

A report covers one run or a study (a folder of run folders): solo rows get
the target-score calibration, multiplayer rows the balance analyses, and a
study with both gets both.  Anomalous games (``status != "ok"``) are counted
and left out.  This module writes the report; the sections it writes, in
order, are registered in :mod:`pu_sim.report.registry` and written by
:mod:`pu_sim.report.sections`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.report import plots
from pu_sim.report.document import Document, write_pages
from pu_sim.report.page import Page
from pu_sim.report.policies import find_policies
from pu_sim.report.registry import SECTIONS, ReportContext, Section
from pu_sim.report.runs import load_round_scores, load_runs, run_info
from pu_sim.report.sections.runs import runs_facts
from pu_sim.report.sections.warnings import warnings_section
from pu_sim.simulation.manifest import (
    MANIFEST,
    ReportManifest,
    read_report_manifest,
    write_report_manifest,
)
from pu_sim.simulation.runfolder import (
    IncompleteRunError,
    check_run,
    find_run_folders,
    is_run_folder,
)

__all__ = ["main", "write_report", "write_study_report"]


def _rebuild_words(out_dir: Path, run_dirs: Sequence[Path], command: str | None) -> str:
    """How to rebuild the report, and how to replay its runs when they are gone."""
    inside = all(_is_below(d, out_dir) for d in run_dirs)
    text = (
        "Rebuild this report without simulating with "
        f"`python -m pu_sim.report {_rebuild_path(out_dir)}`"
        + (
            " (it reads the run folders under `runs/` beside it, which are not "
            "committed)"
            if inside
            else ""
        )
    )
    if command and not command.startswith("python -m pu_sim.report"):
        text += f"; `{command}` plays every game again (same seeds, same games)"
    return text + "."


def _is_below(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _rebuild_path(out_dir: Path) -> str:
    """The report folder as the rebuild command names it (relative when it can)."""
    try:
        return str(out_dir.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(out_dir)


def _with_policy(mp: pl.DataFrame) -> pl.DataFrame:
    """Add ``n_bots`` and ``policy`` (the sorted bot labels at the table).

    The games keep their order (later sections split them in order of first
    appearance); a join does not keep it unless asked.
    """
    gk = ["run", "game_id"]
    pol = mp.group_by(gk).agg(
        n_bots=pl.col("bot").n_unique(),
        policy=pl.col("bot").cast(pl.String).unique().sort().str.join(" vs "),
    )
    return mp.join(pol, on=gk, maintain_order="left")


def write_study_report(
    run_dirs: Sequence[Path],
    out_dir: Path,
    *,
    title: str | None = None,
    study: str | None = None,
    command: str | None = None,
    config: Any = None,
    results: Mapping[str, Any] | None = None,
    sections: Sequence[Section] = SECTIONS,
    agree_with: Sequence[Path] = (),
    allow_incomplete: bool = False,
) -> Path:
    """Write one report over several run folders (their rows are pooled).

    Besides ``README.md``, ``figures/`` and ``tables/`` the folder gets the
    report manifest (:mod:`pu_sim.report.manifest`): ``study`` (default: the
    first run's), ``title``, the ``command`` that made it, ``config`` (default:
    each run's configuration by run name), the runs, and under ``results``
    the headline findings and the files, plus the caller's ``results``.
    ``sections`` are written in order (default: every registered section,
    :data:`pu_sim.report.registry.SECTIONS`), after the warnings.
    ``agree_with``: other studies' report folders whose verdicts this one's
    are compared with (kept in the manifest, so a rebuild compares again).  A
    run with games missing or damaged is refused (:class:`IncompleteRunError`)
    unless ``allow_incomplete``; then the report's first lines say so.

    Returns
    -------
    pathlib.Path
        The report folder.
    """
    run_dirs = [Path(d) for d in run_dirs]
    if not run_dirs:
        raise ValueError("no run folders to report on")
    out_dir = Path(out_dir)
    if is_run_folder(out_dir):
        raise ValueError(
            f"{out_dir} is a run folder: write its report into another folder"
            f" (both keep a {MANIFEST})"
        )
    infos = [run_info(d) for d in run_dirs]
    incomplete = _incomplete(infos, allow_incomplete)
    # read first: damaged data leaves no empty folder
    games = load_runs(run_dirs, allow_incomplete=allow_incomplete)
    for sub in ("figures", "tables"):
        if (out_dir / sub).is_dir():
            shutil.rmtree(out_dir / sub)  # stale files from an earlier report
    out_dir.mkdir(parents=True, exist_ok=True)
    total = games.height
    ok = games.filter(pl.col("status") == "ok") if "status" in games.columns else games
    ok = _with_policy(ok)
    policies = find_policies(infos, ok)
    page = Page(out_dir)
    confounded, set_aside = warnings_section(page, infos)
    ctx = ReportContext(
        games=ok, infos=infos, policies=policies,
        round_scores=lambda: load_round_scores(
            run_dirs, allow_incomplete=allow_incomplete
        ),
        set_aside=list(set_aside), confounded=list(confounded),
        agree_with=[Path(p) for p in agree_with],
    )  # fmt: skip
    owners = _write_sections(page, ctx, sections)
    n_games = ok.select(pl.struct("run", "game_id").n_unique()).item()
    study = study or infos[0].study
    heading = title or f"{study}: {out_dir.name}"
    doc = Document(
        title=heading,
        intro=[
            *incomplete,
            f"Generated by `pu_sim.report.reporting.write_report` from {len(infos)} "
            f"run folder(s), {n_games:,} games"
            + (f", {policies.words()}" if policies.primary else "")
            + ". Every number below is computed from the runs' data. "
            + _rebuild_words(out_dir, run_dirs, command),
        ],
        body=[*page.opening, *page.sections],
        headlines=page.headlines,
        targets=_targets(owners, len(page.opening)),
        headlines_at=len(page.opening),
        provenance=_provenance(page, infos, total - ok.height, total),
    )
    write_pages(doc, out_dir)
    (out_dir / "study.json").unlink(missing_ok=True)  # the manifest's forerunner
    if config is None:  # plain runs: each run's own configuration
        config = {i.name: i.manifest.config.to_json() for i in infos}
    write_report_manifest(
        out_dir,
        study=study,
        title=heading,
        command=command,
        config=config,
        runs=run_dirs,
        games=n_games,
        wall_time_s=round(sum(i.wall_time_s or 0.0 for i in infos), 3),
        results={
            **(results or {}),
            "headlines": page.headlines,
            "design": ctx.design,
            "agree_with": [str(p) for p in agree_with],
            "anomalous_rows": total - ok.height,
            "incomplete": incomplete,
            "figures": page.figures,
            "tables": page.tables,
        },
    )
    return out_dir


def _write_sections(
    page: Page, ctx: ReportContext, sections: Sequence[Section]
) -> list[tuple[str, int]]:
    """Write the sections in order; each headline's block: (part, index).

    A headline belongs to the first block its section added to the page's
    ``opening`` or ``sections`` (``("", -1)``: none), so the web page links
    each finding to its table and figure.
    """
    owners: list[tuple[str, int]] = []
    with plots.report_style():
        for section in sections:
            marks = len(page.headlines), len(page.opening), len(page.sections)
            ctx.results[section.name] = section.write(page, ctx)
            owner = (
                ("opening", marks[1]) if len(page.opening) > marks[1]
                else ("sections", marks[2]) if len(page.sections) > marks[2]
                else ("", -1)
            )  # fmt: skip
            owners += [owner] * (len(page.headlines) - marks[0])
    return owners


def _targets(owners: Sequence[tuple[str, int]], n_opening: int) -> list[int | None]:
    """Each headline's block as an index in the body (opening, then sections)."""
    return [
        None if part == "" else i + (n_opening if part == "sections" else 0)
        for part, i in owners
    ]


def _provenance(
    page: Page, infos: Sequence[Any], anomalous: int, total: int
) -> list[str]:
    """The page's last sections: the runs and how to reproduce them, the files."""
    return [
        "## Runs and reproducibility\n\n" + runs_facts(infos, anomalous, total),
        "## Files\n\n"
        + "Figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in page.figures)
        + "\n\nTables: " + ", ".join(f"[{Path(t).name}]({t})" for t in page.tables),
    ]  # fmt: skip


def _incomplete(infos: Sequence[Any], allow: bool) -> list[str]:
    """The report's first lines when a run is incomplete; refused unless allowed."""
    checks = [check_run(i.path, i.manifest) for i in infos]
    problems = [c for c in checks if not c.complete]
    if problems and not allow:
        raise IncompleteRunError(
            problems[0], problems[0].problem() + " (or report on what is there with "
            "--allow-incomplete, allow_incomplete=True in Python)",
        )  # fmt: skip
    return [
        f"**Written from an incomplete run.** {c.problem()}. Every number below "
        f"covers only the {c.games:,} games that read back whole; rebuild this "
        "report once the run is complete."
        for c in problems
    ]


def write_report(
    run_dir: Path, out_dir: Path | None = None, *, allow_incomplete: bool = False
) -> Path:
    """Write (or rebuild) the report of a run folder, a study, or a report folder.

    Parameters
    ----------
    run_dir
        A run folder (``manifest.json`` + ``data/``), a folder holding run
        folders at any depth (a study), or a report folder: a folder with a
        report manifest is rebuilt from the runs it lists (and any run below
        it) with its study, title, command and configuration.
    out_dir
        Where to write; default: a report folder itself, else
        ``reports/<study>/<run name>/`` (relative to the working directory),
        the study and name coming from the run's manifest or else from the
        folder names.

    allow_incomplete
        Report on a run with games missing or damaged (refused otherwise);
        the report's first lines say what is left out.

    Returns
    -------
    pathlib.Path
        The report folder, holding ``README.md``, ``figures/``, ``tables/`` and
        its ``manifest.json``.
    """
    run_dir = Path(run_dir)
    runs, previous = _runs_to_report(run_dir)
    if not runs:
        raise FileNotFoundError(f"no run folders (manifest.json) in {run_dir}")
    command = (previous.command if previous else None) or " ".join(
        ["python -m pu_sim.report", str(run_dir)]
        + ([] if out_dir is None else ["--out", str(out_dir)])
    )
    if out_dir is None and previous:
        out_dir = run_dir  # a report folder rebuilds in place
    elif out_dir is None:
        if runs == [run_dir]:
            info = run_info(run_dir)
            study, name = info.study, info.name
        else:
            study = previous.study if previous else run_dir.resolve().parent.name
            name = run_dir.resolve().name
        out_dir = Path("reports") / study / name
    return write_study_report(
        runs,
        out_dir,
        title=previous.title if previous else None,
        study=previous.study if previous else None,
        command=command,
        config=previous.config if previous else None,
        results=previous.results if previous else None,
        agree_with=(previous.results or {}).get("agree_with", []) if previous else (),
        allow_incomplete=allow_incomplete,
    )


def _runs_to_report(folder: Path) -> tuple[list[Path], ReportManifest | None]:
    """The runs a folder's report covers, and its report manifest (None if none).

    A report folder's runs are the ones its manifest lists, in that order,
    then any other run folder below it.
    """
    found = find_run_folders(folder)
    if found == [folder] or not (folder / MANIFEST).is_file():
        return found, None
    previous = read_report_manifest(folder)
    listed = [folder / run for run in previous.runs]
    missing = [str(run) for run in listed if not is_run_folder(run)]
    if missing:
        raise FileNotFoundError(
            f"{folder}: the report's run folder(s) {', '.join(missing)} are gone"
        )
    known = {run.resolve() for run in listed}
    return listed + [run for run in found if run.resolve() not in known], previous


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pu_sim.report FOLDER [--out DIR]``: rebuild a report."""
    parser = argparse.ArgumentParser(
        prog="python -m pu_sim.report",
        description="Write the report of a run, study or report folder "
        "(no simulation).",
    )
    parser.add_argument("run", type=Path, help="run, study or report folder")
    parser.add_argument("--out", type=Path, default=None, help="report folder")
    parser.add_argument(
        "--allow-incomplete", action="store_true",
        help="report on runs with games missing or damaged (said at the top)",
    )  # fmt: skip
    parser.add_argument(
        "--page-only", action="store_true",
        help="write only index.html from the folder's README.md (a report whose "
        "runs are not kept, e.g. the benchmark's or the lab's)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.page_only:
        return _page_only(args.run)
    try:
        out = write_report(args.run, args.out, allow_incomplete=args.allow_incomplete)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(out / "README.md")
    print(out / "index.html")
    return 0


def _page_only(folder: Path) -> int:
    """``--page-only``: the web page of a report folder from its README alone."""
    from pu_sim.report.document import from_markdown, write_pages

    readme = folder / "README.md"
    if not readme.is_file():
        print(f"error: {folder} has no README.md to make a page of", file=sys.stderr)
        return 2
    print(write_pages(from_markdown(readme.read_text()), folder, markdown=False))
    return 0
