"""``pu-sim balance``: successive halving over declared changes, confirmed held out.

The search (Jamieson and Talwalkar's successive halving, the racing idea of
Hyperband without its brackets): every candidate of the space plays a few
games, the best ``1/eta`` of them by the objective go on with ``eta`` times
the games, until ``best`` are left, which play one more, longest round.  All
candidates play the same games (one root seed and table: common random
numbers), so a candidate's objective is compared with the others' on the very
same setups, which is what makes a few hundred games enough to discard the
clearly worse ones.

Each candidate is a run folder under ``<runs>/candidates/<key>`` played by
:func:`pu_sim.run` (so through the same joblib or Dask backends as any run),
extended round by round: running the same command again replays nothing
that is on disk and takes the same decisions, so an interrupted search
resumes.  The best patches are written as variant files to
``out/patches/`` and each is confirmed on held-out setups (another seed) by
:func:`pu_sim.compare` against the published game, whose report (with the
cluster-aware intervals) lands in ``out/confirm/<key>``; ``out/README.md``
summarises the search.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl
from joblib import effective_n_jobs

from pu_sim.analysis.clusters import cluster_win_rates
from pu_sim.simulation.manifest import MANIFEST, read_manifest, write_report_manifest
from pu_sim.simulation.runfolder import find_run_folders, scan_run
from pu_sim.simulation.seeds import derive
from pu_sim.simulation.table import TableSetup
from pu_sim.variants.balance.objectives import check_objective, evaluate
from pu_sim.variants.balance.space import Candidate, SearchSpace, read_space
from pu_sim.variants.compare import Comparison, compare

__all__ = ["Evaluation", "SearchResult", "balance"]

HELD_OUT = "held_out"
"""The key the confirmation games' seed is derived by (setups never searched on)."""


@dataclass(frozen=True)
class Evaluation:
    """A candidate's objective after one round of the search."""

    round: int
    candidate: Candidate
    games: int
    value: float


@dataclass(frozen=True)
class SearchResult:
    """What :func:`balance` did: every round's evaluations and the best patches."""

    space: SearchSpace
    table: TableSetup
    evaluations: tuple[Evaluation, ...]
    best: tuple[Candidate, ...]
    patches: dict[str, Path] = field(default_factory=dict)
    confirmations: dict[str, Comparison] = field(default_factory=dict)
    out: Path | None = None
    held_out: dict[str, dict[str, float]] = field(default_factory=dict)
    """Each confirmed patch's objective on the held-out setups, by arm."""
    warnings: list[str] = field(default_factory=list)
    """What a reader must know before adopting a patch, one sentence each: the
    best missed the objective's target, or a patch did no better than the
    published game on the held-out setups (also at the top of the README)."""

    def ranking(self) -> pl.DataFrame:
        """Every evaluation: round, candidate, size, games, objective."""
        return pl.DataFrame(
            [
                {"round": e.round, "candidate": e.candidate.describe(),
                 "size": e.candidate.size, "games": e.games, "objective": e.value}
                for e in self.evaluations
            ]
        )  # fmt: skip


def balance(
    space: SearchSpace | str | os.PathLike[str],
    *,
    out: str | os.PathLike[str],
    runs_dir: str | os.PathLike[str] | None = None,
    n_jobs: int = -1,
    backend: str | None = None,
    scheduler: str | None = None,
    progress: bool | None = False,
    confirm: bool = True,
    command: str | None = None,
) -> SearchResult:
    """Search a declared space of changes for the patches that best meet its objective.

    Parameters
    ----------
    space
        A :class:`SearchSpace` or a search file's path (:mod:`.space`).
    out
        The search folder (patches, confirmation reports, the README); the
        same call resumes it.
    runs_dir
        Where the run folders go (default ``out/runs``): ``candidates/<key>``
        and ``confirm/<key>/<arm>``.
    n_jobs, backend, scheduler, progress
        As for :func:`pu_sim.run`.
    confirm
        Play the held-out confirmation of the best patches (default True).
    """
    if not isinstance(space, SearchSpace):
        space = read_space(space)
    check_objective(space.objective, space.source)
    if "variant" in space.table:
        raise ValueError(f"{space.source}: [table]: the table cannot set a variant")
    table = TableSetup(**space.table)
    folder = Path(out)
    runs = Path(runs_dir) if runs_dir is not None else folder / "runs"
    budget = space.budget
    workers = effective_n_jobs(n_jobs) if scheduler is None else 8
    run_args = {"n_jobs": n_jobs, "backend": backend, "scheduler": scheduler,
                "progress": progress, "workers": workers}  # fmt: skip
    survivors = space.candidates()
    games = _whole_groups(budget["first_games"], table.groups)
    evaluations: list[Evaluation] = []
    round_no = 0
    while True:
        scored = []
        for candidate in survivors:
            frame = _play(runs, table, candidate, games, budget["seed"], run_args)
            value = evaluate(frame, space.objective)
            evaluations.append(Evaluation(round_no, candidate, games, value))
            scored.append((value, candidate.size, candidate.key, candidate))
        scored.sort(key=lambda s: s[:3])
        if len(survivors) <= budget["best"]:
            break
        keep = max(budget["best"], math.ceil(len(survivors) / budget["eta"]))
        survivors = [s[3] for s in scored[:keep]]
        games = _whole_groups(games * budget["eta"], table.groups)
        round_no += 1
    best = tuple(_final_order(scored, space.objective.get("target")))
    result = SearchResult(space, table, tuple(evaluations), best, out=folder)
    for rank, candidate in enumerate(best, 1):
        if candidate.variant is None:
            continue
        path = folder / "patches" / f"{rank}-{candidate.key}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(candidate.variant.files[0].text)
        result.patches[candidate.key] = path
        if confirm:
            result.confirmations[candidate.key] = compare(
                candidate.variant, _whole_groups(budget["confirm_games"], table.groups),
                table, seed=derive(budget["seed"], HELD_OUT),
                out=folder / "confirm" / candidate.key,
                runs_dir=runs / "confirm" / candidate.key, n_jobs=n_jobs,
                backend=backend, scheduler=scheduler, progress=progress,
                command=command,
            )  # fmt: skip
    _judge(result, scored)
    _write_report(result, command, runs)
    return result


def _judge(
    result: SearchResult, scored: Sequence[tuple[float, float, str, Candidate]]
) -> None:
    """The held-out objectives, and a warning for each patch a reader should doubt.

    Lower is better: a patch that does not beat the published game on the
    held-out setups, or a best candidate that misses the target, is said so.
    """
    objective = result.space.objective
    target = objective.get("target")
    value = {s[2]: s[0] for s in scored}
    if target is not None and result.best:
        best = result.best[0]
        if value[best.key] > target:
            result.warnings.append(
                f"no candidate met the target ({target:g}): the best, "
                f"{best.describe()}, reached {value[best.key]:.2f} on the "
                "search's setups"
            )
    for key, comparison in result.confirmations.items():
        held = {
            arm: evaluate(games.lazy().collect(), objective)
            for arm, games in comparison.games.items()
        }
        result.held_out[key] = held
        published = held[comparison.baseline]
        patched = next(v for arm, v in held.items() if arm != comparison.baseline)
        if patched >= published:
            result.warnings.append(
                f"patch {key} does no better than the published game on the "
                f"held-out setups (objective {patched:.2f} against {published:.2f}; "
                "lower is better): do not adopt it on this evidence"
            )
        elif target is not None and patched > target:
            result.warnings.append(
                f"patch {key} misses the target ({target:g}) on the held-out "
                f"setups ({patched:.2f})"
            )


def _whole_groups(n: int, group: int) -> int:
    return -(-n // group) * group


def _batch(n_games: int, workers: int) -> int:
    """Batches small enough to keep every worker busy (results do not depend on it)."""
    return max(1, min(2000, -(-n_games // (2 * workers))))


def _play(
    runs: Path,
    table: TableSetup,
    candidate: Candidate,
    games: int,
    seed: int,
    run_args: dict[str, Any],
) -> pl.DataFrame:
    """A candidate's first ``games`` games, playing what its folder lacks."""
    from pu_sim.simulation.runner import run

    run_dir = runs / "candidates" / candidate.key
    n = games
    if (run_dir / MANIFEST).is_file():
        n = max(n, read_manifest(run_dir).n_games)  # never shorten a run
    args = dict(run_args)
    workers = args.pop("workers")
    run(
        n, dataclasses.replace(table, variant=candidate.variant), out=run_dir,
        seed=seed, batch_size=_batch(n, workers),
        metadata={"study": "balance", "name": candidate.key, "pairing": "balance"},
        **args,
    )  # fmt: skip
    return scan_run(run_dir).filter(pl.col("game_id") < games).collect()


def _final_order(
    scored: Sequence[tuple[float, float, str, Candidate]], target: float | None
) -> list[Candidate]:
    """The last round's candidates: those meeting the target by size, then the rest."""
    if target is None:
        return [s[3] for s in scored]
    meeting = sorted((s for s in scored if s[0] <= target), key=lambda s: (s[1], s[0]))
    rest = [s for s in scored if s[0] > target]
    return [s[3] for s in (*meeting, *rest)]


def _target_rates(comparison: Comparison, corporations: list[str] | None) -> list[str]:
    """Each target corporation's win rate against 1/n, published and patched."""
    lines = ["| corporation | arm | win rate - 1/n (pp) | games |", "|---|---|---|---|"]
    from pu_sim.rules import load_game_data

    names = {c.key: c.name for c in load_game_data().corporations}
    wanted = None if corporations is None else [names[k] for k in corporations]
    for arm, games in comparison.games.items():
        rates = cluster_win_rates(
            games.lazy().filter(pl.col("n_players") > 1).collect(),
            by=["corporation"], group_size=comparison.table.groups,
        )  # fmt: skip
        for row in rates.iter_rows(named=True):
            if wanted is not None and str(row["corporation"]) not in wanted:
                continue
            lines.append(
                f"| {row['corporation']} | {arm} | {row['excess'] * 100:+.1f} "
                f"[{row['lower'] * 100:+.1f}, {row['upper'] * 100:+.1f}] | "
                f"{row['n']:,} |"
            )
    return lines


def _write_report(result: SearchResult, command: str | None, runs: Path) -> None:
    """``out/README.md``, ``out/evaluations.csv`` and the report manifest."""
    if result.out is None:
        return
    space = result.space
    out = result.out
    out.mkdir(parents=True, exist_ok=True)
    ranking = result.ranking()
    ranking.write_csv(out / "evaluations.csv")
    lines = [
        f"# Balance search: {space.name}",
        "",
        *(f"**Warning:** {w[0].upper()}{w[1:]}." for w in result.warnings),
        *([""] if result.warnings else []),
        space.description,
        "",
        f"Command: `{command or 'pu_sim.variants.balance.balance(...)'}`",
        "",
        f"Objective: `{json.dumps(dict(space.objective))}` (lower is better). "
        f"Successive halving (eta {space.budget['eta']}) over "
        f"{len({e.candidate.key for e in result.evaluations if e.round == 0})} "
        f"candidates on common setups (seed {space.budget['seed']}); the best "
        f"{space.budget['best']} confirmed on held-out setups (seed "
        f"{derive(space.budget['seed'], HELD_OUT).label}, "
        f"{space.budget['confirm_games']:,} "
        "games per arm).",
        "",
        "## Rounds",
        "",
        "| round | candidate | size | games | objective |",
        "|---|---|---|---|---|",
    ]
    for row in ranking.sort("round", "objective").iter_rows(named=True):
        lines.append(
            f"| {row['round']} | {row['candidate']} | {row['size']:g} | "
            f"{row['games']:,} | {row['objective']:.2f} |"
        )
    lines += ["", "## Best patches", ""]
    corporations = space.objective.get("corporations")
    for rank, candidate in enumerate(result.best, 1):
        lines.append(f"{rank}. {candidate.describe()} (size {candidate.size:g})")
        if candidate.key in result.patches:
            patch = result.patches[candidate.key].relative_to(out).as_posix()
            lines.append(f"   variant file: `{patch}`")
        else:
            lines.append("   (the published game)")
    for key, comparison in result.confirmations.items():
        held = result.held_out[key]
        lines += [
            "",
            f"### Held out: {key}",
            "",
            "Objective on held-out setups: "
            + ", ".join(f"{arm} {value:.2f}" for arm, value in held.items()),
            "",
            *(_target_rates(comparison, corporations)
              if space.objective["kind"] == "win_gap" else []),
            "",
            f"Full comparison: `confirm/{key}/README.md`",
        ]  # fmt: skip
    from pu_sim.report.document import from_markdown, write_pages

    text = "\n".join(lines) + "\n"
    (out / "README.md").write_text(text)
    write_pages(from_markdown(text), out, markdown=False)
    write_report_manifest(
        out, study="balance", title=f"Balance search: {space.name}", command=command,
        config={"space": space.text, "source": space.source},
        runs=find_run_folders(runs) if runs.is_dir() else [],
        games=sum(e.games for e in result.evaluations),
        results={
            "warnings": result.warnings,
            "held_out": result.held_out,
            "best": [c.describe() for c in result.best],
            "patches": {k: str(p) for k, p in result.patches.items()},
            "evaluations": "evaluations.csv",
        },
    )  # fmt: skip
