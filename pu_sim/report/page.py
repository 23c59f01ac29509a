"""A report page under construction: headlines, sections, figures and tables.

``opening`` holds what comes before the headlines (warnings, the one-look
verdict table); ``sections`` what follows them.

Sections add to a :class:`Page`: a table is written to ``tables/<name>.csv`` at
once, a figure to ``figures/<name>.png``; the assembly
(:mod:`pu_sim.report.reporting`) makes it a
:class:`~pu_sim.report.document.Document` and writes its ``README.md`` and
``index.html`` last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl
from matplotlib.figure import Figure

from pu_sim.report import plots

__all__ = ["Page", "attempt"]


@dataclass
class Page:
    """The report being written into the folder ``out``."""

    out: Path
    opening: list[str] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)

    def table(self, name: str, frame: pl.DataFrame) -> str:
        """Write ``tables/<name>.csv`` (labels as text); return its relative path."""
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
        """Write ``figures/<name>.png``; return the Markdown showing it."""
        plots.save(fig, self.out / "figures" / f"{name}.png")
        rel = f"figures/{name}.png"
        self.figures.append(rel)
        return f"![{caption}]({rel})\n\n*{caption}*"

    def section(self, title: str, *parts: str) -> None:
        """Add a ``## title`` section made of the non-empty ``parts``."""
        self.sections.append("\n\n".join([f"## {title}", *[p for p in parts if p]]))


def attempt(fn: Callable[[], pl.DataFrame]) -> tuple[pl.DataFrame | None, str | None]:
    """Run a fit that may refuse its data: (frame, None), or (None, the reason).

    A model that cannot be fitted (too few decks, labels that never meet) is
    a sentence in the report, not a failed report.
    """
    try:
        return fn(), None
    except ValueError as exc:
        return None, str(exc)
