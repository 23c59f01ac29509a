"""The output schema: one row per (game, seat), readable labels as Polars Enums.

The core fills a structured numpy array whose dtype is taken from its C record
struct; this module owns how that becomes a Polars frame (column order, dtypes,
labels).  Analyses depend on this schema, never on the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim._build_check import import_core
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


@functools.cache
def code_labels(enum_name: str) -> tuple[str, ...]:
    """Labels of a core enum's codes 0, 1, ..., named by the core's members.

    ``"Status"``: anything but "ok" is an anomaly worth a bug report;
    ``"EndTrigger"``: what ended the game.
    """
    core = import_core()
    labels = core.labels(getattr(core, enum_name))
    if list(labels) != list(range(len(labels))):
        raise ValueError(f"{enum_name} codes are not 0..{len(labels) - 1}")
    return tuple(labels.values())


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
    """The round score table of a batch (``analysis.feel.ROUND_SCORE_SCHEMA``).

    ``trace[i, r, p]`` is seat ``p``'s score after round ``r + 1`` of game
    ``first_game + i``, ``none`` where the game did not play that round; the
    table has one row per played (game, round, seat), in that order.
    """
    from pu_sim.analysis.feel import ROUND_SCORE_SCHEMA

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


def empty_records(dtype: np.dtype[np.void], n_rows: int) -> npt.NDArray[np.void]:
    """A zeroed record array for the core to fill."""
    return np.zeros(n_rows, dtype=dtype)
