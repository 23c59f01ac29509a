"""The output schema: one row per (game, seat), readable labels as Polars Enums.

The core fills a structured numpy array whose dtype is taken from its C record
struct; this module owns how that becomes a Polars frame (column order, dtypes,
labels).  Analyses depend on this schema, never on the engine.  It also owns
the round score table's schema (:data:`ROUND_SCORE_SCHEMA`), which
:mod:`pu_sim.analysis.feel` checks and reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.engine import core
from pu_sim.rules.gamedata import GameData

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


ROUND_SCORE_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.UInt64(),
    "round": pl.UInt8(),
    "seat": pl.UInt8(),
    "score": pl.Int16(),
}
"""The round score table's columns and dtypes (plus an optional ``run``)."""


def code_labels(enum_name: str) -> tuple[str, ...]:
    """Labels of a core enum's codes 0, 1, ..., named by the core's members.

    ``"Status"``: anything but "ok" is an anomaly worth a bug report;
    ``"EndTrigger"``: what ended the game.
    """
    return core.labels(enum_name)


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
        label("status", code_labels("Status")),
        label("end_trigger", code_labels("EndTrigger")),
        pl.col("won").cast(pl.Boolean),
    )
    frame = frame.with_columns(
        *[
            _card_list(col, _max_bits(frame[col]))
            for col in ("private_cards", "private_met", "neighbour_cards")
        ]
    ).with_columns(*solo_target_columns(data))
    rest = [c for c in frame.columns if c not in LEADING_COLUMNS]
    return frame.select(*LEADING_COLUMNS, *rest)


def _max_bits(masks: pl.Series) -> int:
    """The most bits set in any of the masks (0 for none)."""
    most = masks.bitwise_count_ones().max()
    return int(most) if isinstance(most, int) else 0


def _card_list(col: str, max_cards: int) -> pl.Expr:
    """A 28-bit objective mask as the list of objective card ids (37..64).

    Peels off the lowest set bit ``max_cards`` times (the most bits any row
    has) rather than testing all 28 bits: the result frame is built for every
    batch, so this is on the runner's hot path.
    """
    mask = pl.col(col).cast(pl.Int64)
    cards = [pl.lit(None, pl.UInt8)]
    for _ in range(max_cards):
        lowest = (mask.bitwise_trailing_zeros() + 37).cast(pl.UInt8)
        cards.append(pl.when(mask != 0).then(lowest))
        mask = mask & (mask - 1)
    return pl.concat_list(cards).list.drop_nulls().alias(col)


def solo_target(data: GameData, green: int, orange: int, red: int) -> int:
    """Rules 10.2: 60 plus one adjustment per colour by its count band.

    >>> from pu_sim.rules.loading import load_game_data
    >>> solo_target(load_game_data(), green=9, orange=3, red=8)
    58
    """
    target = data.solo_target_base
    for colour, count in (("green", green), ("orange", orange), ("red", red)):
        for band, (low, high) in enumerate(data.solo_target_bands):
            if low <= count <= high:
                target += data.solo_target_adjustments[colour][band]
    return target


def solo_target_columns(data: GameData) -> list[pl.Expr]:
    """Solo columns: target, margin (score - target) and outcome band.

    Only for solo games with the event deck; null otherwise, because the target
    depends on the deck's colours.
    """
    is_solo = (pl.col("n_players") == 1) & (
        pl.col("deck_green") + pl.col("deck_orange") + pl.col("deck_red") > 0
    )
    adjust = pl.lit(data.solo_target_base, pl.Int16)
    for colour in ("green", "orange", "red"):
        count = pl.col(f"deck_{colour}")
        term = pl.lit(0, pl.Int16)
        for index, (low, high) in enumerate(data.solo_target_bands):
            value = data.solo_target_adjustments[colour][index]
            term = (
                pl.when(count.is_between(low, high))
                .then(pl.lit(value, pl.Int16))
                .otherwise(term)
            )
        adjust = adjust + term
    target = pl.when(is_solo).then(adjust).otherwise(None).cast(pl.Int16)
    margin = (pl.col("score").cast(pl.Int16) - target).alias("solo_margin")
    labels = [outcome.row for outcome in data.solo_outcome_bands]
    band_expr = pl.lit(None, pl.String)
    for outcome in data.solo_outcome_bands:
        low = outcome.min_diff if outcome.min_diff is not None else -1000
        high = outcome.max_diff if outcome.max_diff is not None else 1000
        band_expr = (
            pl.when(margin.is_between(low, high))
            .then(pl.lit(outcome.row))
            .otherwise(band_expr)
        )
    return [
        target.alias("solo_target"),
        margin,
        band_expr.cast(pl.Enum(labels)).alias("solo_band"),
    ]


def round_score_frame(
    trace: npt.NDArray[np.int16], first_game: int, none: int
) -> pl.DataFrame:
    """The round score table of a batch (:data:`ROUND_SCORE_SCHEMA`).

    ``trace[i, r, p]`` is seat ``p``'s score after round ``r + 1`` of game
    ``first_game + i``, ``none`` where the game did not play that round; the
    table has one row per played (game, round, seat), in that order.
    """
    game, rnd, seat = np.nonzero(trace != none)
    return pl.DataFrame(
        {
            "game_id": game.astype(np.uint64) + np.uint64(first_game),
            "round": (rnd + 1).astype(np.uint8),
            "seat": seat.astype(np.uint8),
            "score": trace[game, rnd, seat],
        },
        schema=ROUND_SCORE_SCHEMA,
    )


def empty_frame(data: GameData, bot_labels: Sequence[str]) -> pl.DataFrame:
    """A zero-row result frame: the schema of every batch of a table."""
    return to_frame(core.empty_records(0), data, bot_labels)


def frame_of_schema(
    schema: Sequence[Sequence[str]], enums: Mapping[str, Sequence[str]]
) -> pl.DataFrame:
    """A zero-row frame of a schema a run manifest recorded (no core needed).

    ``schema``: (column, dtype name) pairs as :func:`schema_facts` records
    them; ``enums``: each Enum column's labels.
    """
    columns: dict[str, pl.DataType] = {}
    for name, dtype in schema:
        if name in enums:
            columns[name] = pl.Enum(list(enums[name]))
        elif dtype.startswith("List("):
            columns[name] = pl.List(_simple_dtype(dtype[5:-1]))
        else:
            columns[name] = _simple_dtype(dtype)
    return pl.DataFrame(schema=columns)


def _simple_dtype(name: str) -> pl.DataType:
    """A non-nested Polars dtype by its printed name (``UInt64``, ``Boolean``)."""
    dtype = getattr(pl, name, None)
    if not (isinstance(dtype, type) and issubclass(dtype, pl.DataType)):
        raise ValueError(f"a run manifest's schema names an unknown dtype {name!r}")
    return dtype()


def schema_facts(frame: pl.DataFrame) -> tuple[list[list[str]], dict[str, list[str]]]:
    """A frame's schema as JSON: (name, dtype) pairs and each Enum's labels."""
    schema = [[name, str(dtype)] for name, dtype in frame.schema.items()]
    enums = {
        name: list(dtype.categories)
        for name, dtype in frame.schema.items()
        if isinstance(dtype, pl.Enum)
    }
    return schema, enums
