"""The runs section: which run folders the numbers come from, and how to redo them."""

from __future__ import annotations

from collections.abc import Sequence

from pu_sim.report.markdown import fmt, md_table
from pu_sim.report.runs import RunInfo, get

__all__ = ["runs_facts"]


def runs_facts(infos: Sequence[RunInfo], anomalies: int, total: int) -> str:
    """Each run's key facts, the versions that played, time and anomalies."""
    rows = []
    for i in infos:
        rows.append(
            [f"`{i.name}`", str(i.players), ", ".join(i.bots),
             f"{i.n_games:,}" if isinstance(i.n_games, int) else str(i.n_games),
             str(i.seed), str(i.group_size),
             fmt(i.wall_time_s, ".1f") + " s" if i.wall_time_s else "–",
             fmt(i.games_per_s, ",.0f") if i.games_per_s else "–"]
        )  # fmt: skip
    table = md_table(rows, ["run", "players", "bots", "games", "seed", "group size",
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
        values = sorted({str(get(i.versions, *keys)) for i in infos})
        shown = [
            v[:12] if label in ("rules digest", "git revision") else v for v in values
        ]
        lines.append(f"- {label}: {', '.join(shown)}")
    runner = sorted(
        {
            str(get(i.manifest, "runner", default="pu_sim.simulation.runner"))
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
