"""Seat order: what turn order (and the first commander) is worth.

Seat 0 is the first commander (rules ST-10).  With every seat played by the
same bot, the only difference between seats is the turn order.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pu_sim.analysis.balance import balance_table, mean_columns, win_rates
from pu_sim.analysis.frame import Frame, collect_columns, game_keys
from pu_sim.analysis.stats import Correction

__all__ = ["seat_effect"]


def seat_effect(
    games: Frame,
    *,
    by: Sequence[str] = (),
    confidence: float = 0.95,
    correction: Correction = "holm",
) -> pl.DataFrame:
    """Seat (turn order) advantage per player count; seat 0 is the first commander.

    Win rate per seat against 1/n (Wilson, adjusted p-values), mean score, mean
    rank, and ``score_vs_table``: the seat's score minus its own game's mean
    score, averaged over games.  The last one is paired within each game, so
    the game's luck cancels and it is far more precise than comparing raw
    means.  ``by`` adds groupings (e.g. ``("bot",)`` when runs use different
    bot policies).

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, seat, n, win_rate, lower, upper, expected, excess,
        p_adjusted, significant, mean_score, score_lower, score_upper,
        score_vs_table, svt_lower, svt_upper, mean_rank``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "n_players": [2] * 4,
    ...     "seat": [0, 1, 0, 1], "won": [True, False, True, False],
    ...     "score": [12, 10, 31, 29], "rank": [1, 2, 1, 2]})
    >>> seat_effect(df).select("seat", "win_rate", "score_vs_table")
    shape: (2, 3)
    ┌──────┬──────────┬────────────────┐
    │ seat ┆ win_rate ┆ score_vs_table │
    │ ---  ┆ ---      ┆ ---            │
    │ i64  ┆ f64      ┆ f64            │
    ╞══════╪══════════╪════════════════╡
    │ 0    ┆ 1.0      ┆ 1.0            │
    │ 1    ┆ 0.0      ┆ -1.0           │
    └──────┴──────────┴────────────────┘
    """
    gk = game_keys(games)
    labels = [*by, "seat"]
    df = collect_columns(
        games, [*gk, "n_players", *labels, "won", "score", "rank"]
    ).filter(pl.col("n_players") >= 2)
    df = df.with_columns(
        vs_table=pl.col("score").cast(pl.Float64)
        - pl.col("score").cast(pl.Float64).mean().over(gk)
    )
    keys = ["n_players", *labels]
    table = balance_table(df, by=labels, confidence=confidence, correction=correction)
    wins = win_rates(df, by=labels, confidence=confidence, correction=correction)
    vs = mean_columns(
        df, labels, "vs_table", ("score_vs_table", "svt_lower", "svt_upper"), confidence
    )
    return (
        table.join(
            wins.select(*keys, "expected"),
            on=keys,
            nulls_equal=True,
            maintain_order="left",
        )
        .join(vs, on=keys, nulls_equal=True, maintain_order="left")
        .select(
            *keys,
            "n",
            "win_rate",
            "lower",
            "upper",
            "expected",
            "excess",
            "p_adjusted",
            "significant",
            "mean_score",
            "score_lower",
            "score_upper",
            "score_vs_table",
            "svt_lower",
            "svt_upper",
            "mean_rank",
        )
        .sort(keys)
    )
