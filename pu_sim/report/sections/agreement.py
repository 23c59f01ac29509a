"""Agreement with other studies: the same verdict on every row they share.

A study names other reports (``agree_with``); for each, its one-look table
is compared row by row with this report's (:mod:`pu_sim.analysis.agreement`)
and the two designs are set side by side from their manifests, so a
difference between the studies is either explained by their designs or shown
as a contradiction.  A missing or unreadable report is said, never skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import polars as pl

from pu_sim.analysis.agreement import compare_verdicts
from pu_sim.report.markdown import fmt, md_table, slug
from pu_sim.report.page import Page
from pu_sim.simulation.manifest import ManifestError, read_report_manifest

__all__ = ["agreement_section", "design_facts"]

VERDICTS = Path("tables") / "verdicts.csv"


def design_facts(
    policies: Sequence[str], games_per_count: Mapping[int, int]
) -> dict[str, Any]:
    """What another study needs to compare designs (kept in the report manifest)."""
    return {
        "policies": list(policies),
        "games_per_count": {str(n): g for n, g in sorted(games_per_count.items())},
    }


def _design_words(design: Mapping[str, Any] | None) -> str:
    if not design:
        return "design not recorded"
    counts = design.get("games_per_count") or {}
    sizes = sorted(set(counts.values()))
    size = (
        f"{sizes[0]:,} games per player count" if len(sizes) == 1
        else "games per player count " + ", ".join(
            f"{n}p {g:,}" for n, g in counts.items())
    )  # fmt: skip
    return f"{' and '.join(design.get('policies') or ['no policy'])}, {size}"


def agreement_section(
    page: Page,
    verdicts: pl.DataFrame | None,
    others: Sequence[Path],
    design: Mapping[str, Any],
) -> list[pl.DataFrame]:
    """One comparison per other report; returns the comparison tables."""
    if verdicts is None or not others:
        return []
    tables, parts = [], []
    for folder in others:
        folder = Path(folder)
        try:
            other = read_report_manifest(folder)
            theirs = pl.read_csv(folder / VERDICTS)
        except (ManifestError, OSError, pl.exceptions.PolarsError) as exc:
            note = (
                f"**Agreement with {folder}:** not checked: {exc}. Write that "
                "study's report (or drop it from `agree_with`) and rebuild this one."
            )
            page.opening.append(f"> {note}")
            parts.append(note)
            continue
        table = compare_verdicts(verdicts, theirs)
        tables.append(table)
        page.table(f"agreement_{slug(other.study)}", table)
        counts = dict.fromkeys(("same label", "resolution", "contradiction"), 0)
        counts.update(
            {str(k): int(v) for k, v in table["agreement"].value_counts().rows()}
        )
        other_design = (other.results or {}).get("design")
        same = (
            "the same bots"
            if other_design and other_design.get("policies") == design["policies"]
            else "other bots"
        )
        page.headlines.append(
            f"**Agreement with {other.title}:** of the {table.height} rows both "
            f"one-look tables hold, {counts['same label']} get the same label, "
            f"{counts['resolution']} are resolved by one study only (their "
            f"estimates within chance of each other) and {counts['contradiction']} "
            "contradict."
        )
        differing = table.filter(pl.col("agreement") != "same label")
        rows = [
            [str(r["n_players"]), r["kind"], r["name"], r["label"],
             r["label_other"], fmt(r["win_pp_a"], "+.1f"),
             fmt(r["win_pp_a_other"], "+.1f"), fmt(r["p_a"], "p"),
             str(r["agreement"])]
            for r in differing.iter_rows(named=True)
        ]  # fmt: skip
        header = ["players", "kind", "name", "label here", "label there",
                  "win pp here (a)", "win pp there (a)", "Holm p (a)",
                  "agreement"]  # fmt: skip
        parts.append(
            f"**{other.title}** (`{folder}`) against this study. Designs: this "
            f"study {_design_words(design)}; that one "
            f"{_design_words(other_design)}; {same}, each on its own setups "
            "(their seeds derive from the study's name, so no setup is shared). "
            "A row is *resolved by one study only* when the labels differ but "
            "each policy's two estimates differ by no more than chance allows (z "
            "test of two independent estimates, Holm over every shared row and "
            "policy): the larger study resolves more. A *contradiction* is "
            "opposite directions or estimates that differ beyond chance."
        )
        if rows:
            parts.append(md_table(rows, header))
    page.section("Agreement with other studies", *parts)
    return tables
