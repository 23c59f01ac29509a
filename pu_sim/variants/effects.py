"""A variant's effect against the baseline, on common random numbers, with honest CIs.

Every arm of a comparison plays the same games: the same root seed and table,
so game ``i`` of every arm deals the same setup (boards, tiles, events,
seats); only the rules differ.  A corporation's change in win rate is then
measured inside shared setups, where the setup's luck cancels.  The unit of
independence is the setup (``game_id // group_size``, shared by every arm),
so the intervals are :func:`pu_sim.analysis.clusters.cluster_difference`'s
cluster-robust ones (CR1, the covariance between the arms included), and
every p-value of a comparison is adjusted together (Holm by default).

Per arm, player count, kind (corporation, planet, or ``all`` for the whole
table) and name, the metrics are

* ``win_pp``: change in win rate, percentage points (a tie split between the
  tied winners; multiplayer);
* ``success_pp``: change in the solo success rate (score at least the solo
  target), percentage points (solo);
* ``score``: change in mean final score, points;
* ``rounds``: change in game length, rounds (``all`` only).

``unpaired_games`` is what pairing saves: the games per arm an unpaired
design (independent games for each arm) would need for the same interval,
``games * (naive_se / se)^2``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import numpy as np
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.clusters import WIN_SHARE, Method, cluster_difference
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.stats import Correction

__all__ = ["COLUMNS", "METRICS", "effect_table", "stack_arms"]

METRICS: Final = ("win_pp", "success_pp", "score", "rounds")
"""The metrics of an effect table, in display order."""

ALL: Final = "all"
"""The kind of the rows about the whole table (every seat)."""

NEEDED: Final = ("game_id", "n_players", "corporation", "planet", "won", "score",
                 "solo_target", "rounds")  # fmt: skip
"""The columns a comparison reads from each arm's games."""

COLUMNS: Final = ("arm", "n_players", "kind", "name", "metric", "change", "lower",
                  "upper", "se", "p_value", "p_adjusted", "significant", "setups",
                  "games", "unpaired_games")  # fmt: skip
"""The columns of :func:`effect_table`."""


def stack_arms(games: Mapping[str, Frame], *, group_size: int = 1) -> pl.DataFrame:
    """One frame of every arm's games: ``run`` (the arm) and ``setup`` added.

    ``setup`` is ``game_id // group_size``: the same number in every arm for
    the same dealt setup, which is what pairs the arms.
    """
    if group_size < 1:
        raise ValueError(f"group_size must be >= 1, got {group_size}")
    parts = []
    for arm, frame in games.items():
        part = frame.lazy().select(*NEEDED).collect()
        parts.append(
            part.with_columns(
                run=pl.lit(arm),
                setup=(pl.col("game_id") // group_size).cast(pl.Int64),
                success=(pl.col("score") >= pl.col("solo_target")).cast(pl.Float64),
                corporation=pl.col("corporation").cast(pl.String),
                planet=pl.col("planet").cast(pl.String),
            )
        )
    return pl.concat(parts)


def effect_table(
    games: Mapping[str, Frame],
    *,
    baseline: str,
    group_size: int = 1,
    kinds: Sequence[str] = ("corporation", "planet"),
    confidence: float = 0.95,
    correction: Correction = "holm",
    method: Method = "cr1",
) -> pl.DataFrame:
    """Every arm's change against ``baseline``: one row per metric and label.

    ``games`` maps an arm's name to its games (all arms played with one seed
    and table); ``group_size`` is the table's paired group (1 if unpaired).
    Returns the columns of :data:`COLUMNS` (module docstring), p-values
    adjusted by ``correction`` over every row.
    """
    if baseline not in games:
        raise ValueError(f"no games for the baseline arm {baseline!r}")
    stacked = stack_arms(games, group_size=group_size)
    solo = stacked.filter(pl.col("n_players") == 1)
    multi = stacked.filter(pl.col("n_players") > 1)
    rows: list[pl.DataFrame] = []
    for arm in games:
        if arm == baseline:
            continue
        for kind in (*kinds, ALL):
            within = () if kind == ALL else (kind,)
            plan: list[tuple[pl.DataFrame, str, str, float]] = [
                (multi, WIN_SHARE, "win_pp", 100.0),
                (solo, "success", "success_pp", 100.0),
                (stacked, "score", "score", 1.0),
            ]
            if kind == ALL:
                plan = [(stacked, "score", "score", 1.0),
                        (stacked, "rounds", "rounds", 1.0)]  # fmt: skip
            for frame, value, metric, scale in plan:
                if frame.height == 0:
                    continue
                args = (arm, baseline, kind, within, value, metric, scale)
                rows.append(_rows(frame, *args, confidence, method))
    if not rows:
        return pl.DataFrame(schema=dict.fromkeys(COLUMNS, pl.Float64))
    table = pl.concat(rows, how="diagonal_relaxed")
    adjusted = stats.adjust(table["p_value"].to_numpy(), correction)
    alpha = 1.0 - confidence
    table = table.with_columns(
        p_adjusted=pl.Series(adjusted),
        significant=pl.Series(np.nan_to_num(adjusted, nan=1.0) < alpha),
    )
    order = {m: i for i, m in enumerate(METRICS)}
    return table.select(*COLUMNS).sort(
        pl.col("arm"), pl.col("n_players"), pl.col("metric").replace_strict(order),
        pl.col("kind"), pl.col("change"), descending=[False, False, False, False, True],
    )  # fmt: skip


def _rows(
    frame: pl.DataFrame,
    arm: str,
    baseline: str,
    kind: str,
    within: tuple[str, ...],
    value: str,
    metric: str,
    scale: float,
    confidence: float,
    method: Method,
) -> pl.DataFrame:
    """One metric's rows for one arm and kind."""
    diff = cluster_difference(
        frame, by="run", a=arm, b=baseline, within=within, value=value,
        cluster="setup", confidence=confidence, method=method,
    )  # fmt: skip
    name = pl.col(kind).cast(pl.String) if within else pl.lit(ALL)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = (diff["naive_se"].to_numpy() / diff["se"].to_numpy()) ** 2
    games = frame.filter(pl.col("run") == arm).group_by(
        "n_players", *within
    ).agg(games=pl.col("game_id").n_unique())  # fmt: skip
    return (
        diff.with_columns(_gain=pl.Series(gain))
        .join(games, on=["n_players", *within], how="left", maintain_order="left")
        .select(
            arm=pl.lit(arm), n_players="n_players", kind=pl.lit(kind), name=name,
            metric=pl.lit(metric), change=pl.col("difference") * scale,
            lower=pl.col("lower") * scale, upper=pl.col("upper") * scale,
            se=pl.col("se") * scale, p_value="p_value", setups="clusters",
            games="games",
            unpaired_games=(pl.col("games") * pl.col("_gain")).round(0),
        )
    )  # fmt: skip
