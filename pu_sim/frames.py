"""The output schema: one row per (game, seat), readable labels as Polars Enums.

The core fills a structured numpy array whose dtype is taken from its C record
struct; this module owns how that becomes a Polars frame (column order, dtypes,
labels).  Analyses depend on this schema, never on the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.gamedata import GameData

LEADING_COLUMNS = (
    "game_id", "seat", "n_players", "corporation", "planet", "bot", "score", "rank",
    "won", "score_planet", "score_tracks", "score_lifepods", "score_meteorites",
    "score_civ", "score_objectives", "rounds", "status",
)  # fmt: skip
"""The columns every result frame starts with, in this order."""

SCORE_PARTS = (
    "score_planet", "score_tracks", "score_lifepods", "score_meteorites",
    "score_civ", "score_objectives",
)  # fmt: skip
"""The score categories; ``score`` is their sum."""

STATUS_LABELS = (
    "ok", "turn_limit", "decision_limit", "pool_overflow", "bad_move",
    "no_legal_move", "bad_setup",
)  # fmt: skip
"""Game status by code: anything but "ok" is an anomaly worth a bug report."""

END_TRIGGER_LABELS = ("none", "cannot_place", "depot_empty", "events")


def corporation_enum(data: GameData) -> pl.Enum:
    """Corporation labels (printed names) in id order."""
    return pl.Enum([c.name for c in sorted(data.corporations, key=lambda c: c.id)])


def planet_enum(data: GameData) -> pl.Enum:
    """Planet labels (printed names) in id order."""
    return pl.Enum([p.name for p in sorted(data.planets, key=lambda p: p.id)])


def to_frame(
    records: npt.NDArray[np.void], data: GameData, bot_labels: Sequence[str]
) -> pl.DataFrame:
    """Turn core records into the result frame (codes replaced by labels)."""
    frame = pl.DataFrame(records)
    corp_names = [c.name for c in sorted(data.corporations, key=lambda c: c.id)]
    planet_names = [p.name for p in sorted(data.planets, key=lambda p: p.id)]
    labels = list(bot_labels)

    def label(col: str, names: Sequence[str]) -> pl.Expr:
        mapping = dict(enumerate(names))
        return pl.col(col).replace_strict(mapping, return_dtype=pl.Enum(list(names)))

    frame = frame.with_columns(
        label("corporation", corp_names),
        label("planet", planet_names),
        label("bot", labels),
        label("status", STATUS_LABELS),
        label("end_trigger", END_TRIGGER_LABELS),
        pl.col("won").cast(pl.Boolean),
    )
    rest = [c for c in frame.columns if c not in LEADING_COLUMNS]
    return frame.select(*LEADING_COLUMNS, *rest)


def empty_records(dtype: np.dtype[np.void], n_rows: int) -> npt.NDArray[np.void]:
    """A zeroed record array for the core to fill."""
    return np.zeros(n_rows, dtype=dtype)
