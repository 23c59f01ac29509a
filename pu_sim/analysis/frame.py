"""The result frame as every analysis reads it: its columns, its games, its labels.

Analyses accept a ``DataFrame`` or a ``LazyFrame`` (:data:`Frame`); they select
only the columns they need before collecting, identify a game by ``game_id``
(and ``run`` when a frame pools several runs), and order labels as their Enum
declares them.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

__all__ = [
    "Frame",
    "collect_columns",
    "game_keys",
    "label_order",
    "significance_level",
]

Frame = pl.DataFrame | pl.LazyFrame
"""What every analysis accepts."""


def collect_columns(games: Frame, columns: Sequence[str]) -> pl.DataFrame:
    """Select the needed columns (existing ones only) and collect."""
    lazy = games.lazy()
    names = lazy.collect_schema().names()
    missing = [c for c in columns if c not in names and c != "run"]
    if missing:
        raise ValueError(f"the frame lacks column(s) {missing}; it has {names}")
    keep = list(dict.fromkeys(c for c in columns if c in names))
    return lazy.select(keep).collect()


def game_keys(games: Frame) -> list[str]:
    """Columns identifying one game: ``game_id``, plus ``run`` when present."""
    names = games.lazy().collect_schema().names()
    return ["run", "game_id"] if "run" in names else ["game_id"]


def label_order(column: str, dtype: pl.DataType) -> pl.Expr:
    """A sortable code of a label column (Enum/Categorical by their order)."""
    if isinstance(dtype, (pl.Enum, pl.Categorical)):
        return pl.col(column).to_physical()
    return pl.col(column)


def significance_level(confidence: float) -> float:
    """``1 - confidence``, after checking that the level is a probability."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return 1.0 - confidence
