"""The report of a comparison: a one-look table, a figure, the numbers and a manifest.

``out/README.md`` says what was compared (each variant's name, digest and
changes), which of the bots' knowledge is of the published game, and per arm
and player count one table: every corporation and planet's change in win rate
(percentage points) and score with their intervals, a mark on the changes
that survive the multiple-comparison correction, and what an unpaired design
would have cost.  ``effects.csv`` has every row; ``compare.json`` the command,
the table, the arms with their variants' full texts and digests, and the run
folders; ``figures/win-<arm>.png`` the forest plot of the win-rate changes.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pu_sim.report import plots
from pu_sim.report.document import from_markdown, write_pages
from pu_sim.simulation.manifest import write_report_manifest

if TYPE_CHECKING:
    from pu_sim.variants.compare import Comparison

__all__ = ["one_look", "write_comparison"]


def _interval(row: dict[str, Any], digits: int) -> str:
    """``+1.2 [-0.3, +2.7]*``: the change, its interval, a mark if significant."""
    if row["change"] is None or math.isnan(row["change"]):
        return "n/a"
    mark = "*" if row["significant"] else ""
    return (
        f"{row['change']:+.{digits}f} [{row['lower']:+.{digits}f}, "
        f"{row['upper']:+.{digits}f}]{mark}"
    )


def one_look(effects: pl.DataFrame, arm: str, n_players: int) -> list[str]:
    """The one-look markdown table of one arm at one player count."""
    part = effects.filter(arm=arm, n_players=n_players)
    rate = "success_pp" if n_players == 1 else "win_pp"
    rate_title = "solo success (pp)" if n_players == 1 else "win rate (pp)"
    lines = [
        f"| kind | name | {rate_title} | score (points) | games |",
        "|---|---|---|---|---|",
    ]
    keys = part.filter(pl.col("kind") != "all").select("kind", "name").unique(
        maintain_order=True
    )  # fmt: skip
    order = part.filter(metric=rate).select("kind", "name", "change")
    keys = keys.join(
        order, on=["kind", "name"], how="left", maintain_order="left"
    ).sort("kind", "change", descending=[False, True], nulls_last=True)
    for kind, name, _ in keys.iter_rows():
        cells = []
        for metric in (rate, "score"):
            rows = part.filter(kind=kind, name=name, metric=metric).to_dicts()
            cells.append(_interval(rows[0], 1) if rows else "")
        games = int(part.filter(kind=kind, name=name)["games"].max() or 0)  # type: ignore[arg-type]
        lines.append(f"| {kind} | {name} | {cells[0]} | {cells[1]} | {games:,} |")
    for metric, label in (("score", "mean score (points)"), ("rounds", "rounds")):
        rows = part.filter(kind="all", metric=metric).to_dicts()
        if rows:
            lines.append(
                f"| all | {label} | | {_interval(rows[0], 2)} | {rows[0]['games']:,} |"
            )
    return lines


def _pairing_line(effects: pl.DataFrame, arm: str, n_games: int) -> str:
    """What an unpaired design would have cost for this arm's rows."""
    part = effects.filter(arm=arm).filter(
        pl.col("unpaired_games").is_finite() & (pl.col("games") > 0)
    )
    if part.height == 0:
        return "Pairing: no row had a finite interval."
    ratio = float((part["unpaired_games"] / part["games"]).median() or 1.0)  # type: ignore[arg-type]
    return (
        f"Pairing: the median row would need {ratio:.1f}x its games under an "
        f"unpaired design (independent games per arm) for the same interval; "
        f"here about {ratio * n_games:,.0f} games per arm instead of "
        f"{n_games:,}."
    )


def _figure(effects: pl.DataFrame, arm: str, n_players: int, path: Path) -> Path | None:
    """Forest plot of the win-rate (or solo success) changes of one arm."""
    metric = "success_pp" if n_players == 1 else "win_pp"
    part = effects.filter(arm=arm, n_players=n_players, metric=metric).filter(
        pl.col("kind") != "all"
    )
    if part.height == 0:
        return None
    part = part.sort("kind", "change", descending=[False, False])
    with plots.report_style():
        fig, ax = plots.new_figure(6.4, 0.3 * part.height + 1.4)
        plots.plot_forest(
            ax, part, label=["kind", "name"], estimate="change", reference=0.0,
            significant="significant",
            xlabel=f"change against the baseline, percentage points ({n_players} "
            "players)",
        )  # fmt: skip
        ax.set_title(f"{arm}: filled = significant after correction")
        return plots.save(fig, path)


def write_comparison(
    comparison: Comparison, out: Path, *, command: str | None = None
) -> Path:
    """Write the comparison's report into ``out`` (created); returns ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    effects = comparison.effects
    effects.write_csv(out / "effects.csv")
    command = command or " ".join(["python", *sys.argv])
    table = comparison.table
    lines = [
        "# Variant comparison",
        "",
        f"Command: `{command}`",
        "",
        f"Every arm played the same {comparison.n_games:,} games (root seed "
        f"{comparison.seed}, common random numbers: game i deals the same setup in "
        f"every arm) at {table.players} player(s), bots {table.bots}, corporations "
        f"{table.corporations}, planets {table.planets}, paired group "
        f"{table.groups}.  Baseline: **{comparison.baseline}**.",
        "",
        f"Changes are arm minus baseline with {comparison.confidence:.0%} "
        "cluster-robust intervals (CR1; the cluster is the setup shared by every "
        f"arm); `*` marks a change significant after the {comparison.correction} "
        "correction over every row of every arm.",
        "",
    ]
    for arm, variant in comparison.arms.items():
        if arm == comparison.baseline:
            continue
        lines += [f"## {arm}", ""]
        if variant is not None:
            about = f": {variant.description}" if variant.description else "."
            lines += [
                f"Variant `{variant.name}` (digest `{variant.short_digest}`){about}",
                "",
            ]
            lines += ["Changes:", ""]
            lines += [f"- {c}" for c in comparison.changes(arm)] or ["- none"]
            lines.append("")
            knowledge = comparison.knowledge(arm)
            lines += [
                "Bot knowledge: the greedy bot's fitted tables were made on the "
                "published game and are not refitted for a variant."
                + (" Directly affected:" if knowledge else ""),
                "",
            ]
            lines += [f"- {k}" for k in knowledge]
            lines.append("")
        for n_players in sorted(set(effects.filter(arm=arm)["n_players"].to_list())):
            lines += [f"### {n_players} player(s)", ""]
            lines += one_look(effects, arm, n_players)
            lines.append("")
            figure = _figure(
                effects, arm, n_players, out / "figures" / f"win-{arm}-{n_players}p.png"
            )
            if figure is not None:
                lines += [f"![{arm}]({figure.relative_to(out).as_posix()})", ""]
        lines += [_pairing_line(effects, arm, comparison.n_games), ""]
    text = "\n".join(lines)
    (out / "README.md").write_text(text)
    write_pages(from_markdown(text), out, markdown=False)
    write_report_manifest(
        out, study="compare", title=f"Comparison: {', '.join(comparison.arms)}",
        command=command, games=comparison.n_games * len(comparison.arms),
        runs=list(comparison.runs.values()),
        config={
            "n_games": comparison.n_games, "seed": comparison.seed.label,
            "baseline": comparison.baseline,
            "table": {
                "players": table.players, "corporations": table.corporations,
                "planets": table.planets, "bots": str(table.bots),
                "group_size": table.groups,
            },
            "confidence": comparison.confidence,
            "correction": comparison.correction,
        },
        results={
            "arms": {arm: None if v is None else v.manifest()
                     for arm, v in comparison.arms.items()},
            "effects": "effects.csv",
        },
    )  # fmt: skip
    return out
