"""The runs section: which run folders the numbers come from, and how to redo them."""

from __future__ import annotations

from collections.abc import Sequence

from pu_sim.report.markdown import fmt, md_table
from pu_sim.report.runs import RunInfo

__all__ = ["RUNNER", "runs_facts"]

RUNNER = "pu_sim.simulation.runner"
"""What plays every run a report reads (run manifests are its)."""


MAX_RUN_ROWS = 40
"""Above this many runs the table has one row per kind of run (players, bots,
seed, group size), so a study of hundreds of runs stays readable."""


def _rate(games_per_s: float) -> str:
    """Games per second: whole numbers, two decimals for a slow bot's."""
    return fmt(games_per_s, ",.0f" if games_per_s >= 10 else ".2f")


def _run_table(infos: Sequence[RunInfo]) -> str:
    """One row per run, or per kind of run when there are many."""
    if len(infos) <= MAX_RUN_ROWS:
        rows = [
            [f"`{i.name}`", str(i.players), ", ".join(i.bots),
             f"{i.n_games:,}" if isinstance(i.n_games, int) else str(i.n_games),
             str(i.seed), str(i.group_size),
             fmt(i.wall_time_s, ".1f") + " s" if i.wall_time_s else "–",
             _rate(i.games_per_s) if i.games_per_s else "–"]
            for i in infos
        ]  # fmt: skip
        return md_table(rows, ["run", "players", "bots", "games", "seed",
                               "group size", "wall time", "games/s"])  # fmt: skip
    kinds: dict[tuple[str, str, str, str], list[RunInfo]] = {}
    for i in infos:
        key = (str(i.players), ", ".join(i.bots), str(i.seed), str(i.group_size))
        kinds.setdefault(key, []).append(i)
    rows = []
    for (players, bots, seed, group), runs in kinds.items():
        games = sum(i.n_games for i in runs if isinstance(i.n_games, int))
        wall = sum(i.wall_time_s or 0.0 for i in runs)
        last = f" ... `{runs[-1].name}`" if len(runs) > 1 else ""
        names = f"`{runs[0].name}`{last}"
        rows.append(
            [names, f"{len(runs):,}", players, bots, f"{games:,}", seed, group,
             f"{wall:.1f} s", _rate(games / wall) if wall else "–"]
        )  # fmt: skip
    header = ["runs", "count", "players", "bots", "games", "seed", "group size",
              "wall time", "games/s"]  # fmt: skip
    return (
        f"{len(infos):,} runs, one row per kind (each run's facts are in its "
        "`manifest.json`):\n\n" + md_table(rows, header)
    )


def runs_facts(infos: Sequence[RunInfo], anomalies: int, total: int) -> str:
    """Each run's key facts, the versions that played, time and anomalies."""
    table = _run_table(infos)
    versions = [
        ("pu_sim", "pu_sim"),
        ("rules version", "rules"),
        ("engine version", "engine"),
        ("rules digest", "rules_digest"),
        ("git revision", "git_revision"),
        ("uncommitted changes", "git_dirty"),
    ]
    lines = []
    for label, key in versions:
        values = sorted({str(i.versions.get(key)) for i in infos})
        shown = [
            v[:12] if label in ("rules digest", "git revision") else v for v in values
        ]
        lines.append(f"- {label}: {', '.join(shown)}")
    wall = sum(i.wall_time_s or 0.0 for i in infos)
    return "\n\n".join(
        [
            table,
            "\n".join(lines),
            f"Total simulation wall time {wall:.0f} s. Runner: {RUNNER}. "
            f"{anomalies:,} of {total:,} seat rows came from anomalous games "
            "(status other than ok) and were left out.",
        ]
    )
