"""Paired comparisons: label differences inside setups that share their luck.

With ``TableSetup(group_size=k)`` consecutive blocks of games share one setup
(common random numbers), so two labels compared inside a block see the same
station, civ piles and deck; the difference cancels that luck, and
:func:`paired_differences` says how many games pairing saved.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.frame import (
    Frame,
    collect_columns,
    label_order,
    significance_level,
)
from pu_sim.analysis.stats import Correction

__all__ = ["add_group", "paired_differences"]


def add_group(games: Frame, *, group_size: int = 1) -> pl.DataFrame:
    """Add the paired-design ``group`` column: ``game_id // group_size``.

    With ``TableSetup(group_size=k)`` consecutive blocks of ``k`` games share
    one setup (station, civ piles, deck) and rotate the boards one seat per
    game; the block is the unit of pairing.

    Examples
    --------
    >>> import polars as pl
    >>> games = pl.DataFrame({"game_id": [0, 1, 2, 3]})
    >>> add_group(games, group_size=2)["group"].to_list()
    [0, 0, 1, 1]
    """
    if group_size < 1:
        raise ValueError(f"group_size must be >= 1, got {group_size}")
    return (
        games.lazy()
        .with_columns(group=(pl.col("game_id") // group_size).cast(pl.UInt64))
        .collect()
    )


def paired_differences(
    games: Frame,
    *,
    by: str = "corporation",
    value: str = "score",
    group_size: int = 1,
    group_col: str | None = None,
    confidence: float = 0.95,
    correction: Correction = "holm",
) -> pl.DataFrame:
    """Within-setup differences between labels, and what pairing saves.

    For every setup group (``game_id // group_size``, or ``group_col``) and
    every pair of labels ``a < b`` present in it, ``d = mean(value | a) -
    mean(value | b)`` inside the group.  The mean of ``d`` over groups has a
    t interval and a p-value (adjusted over the table).  Because both labels
    saw the same station, civ piles and deck, the setup's luck cancels in
    ``d``; ``variance_ratio`` is the variance an unpaired comparison (the same
    per-group means, treated as independent samples) would have, divided by
    the paired variance: an unpaired study needs ``variance_ratio`` times as
    many games for the same interval width.

    Groups are also split by ``run`` when the frame has that column, unless
    ``group_col`` is given (runs with one seed share setups game by game, so a
    caller may pair across them on purpose).

    Returns
    -------
    polars.DataFrame
        ``n_players, {by}_a, {by}_b, groups, mean_diff, lower, upper, p_value,
        p_adjusted, significant, paired_se, unpaired_se, variance_ratio``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1, 2, 2], "n_players": [2] * 6,
    ...     "seat": [0, 1] * 3, "score": [10, 8, 30, 27, 20, 19]})
    >>> paired_differences(df, by="seat").select("seat_a", "seat_b", "mean_diff")
    shape: (1, 3)
    ┌────────┬────────┬───────────┐
    │ seat_a ┆ seat_b ┆ mean_diff │
    │ ---    ┆ ---    ┆ ---       │
    │ i64    ┆ i64    ┆ f64       │
    ╞════════╪════════╪═══════════╡
    │ 0      ┆ 1      ┆ 2.0       │
    └────────┴────────┴───────────┘
    """
    alpha = significance_level(confidence)
    names = games.lazy().collect_schema().names()
    if group_col is None:
        extra = ["run"] if "run" in names else []
        df = collect_columns(games, ["game_id", "n_players", by, value, *extra])
        if group_size < 1:
            raise ValueError(f"group_size must be >= 1, got {group_size}")
        df = df.with_columns(_group=pl.col("game_id") // group_size)
        gkeys = [*extra, "_group"]
    else:
        df = collect_columns(games, [group_col, "n_players", by, value])
        gkeys = [group_col]
    dtype = df.schema[by]
    cells = (
        df.group_by(["n_players", *gkeys, by])
        .agg(m=pl.col(value).cast(pl.Float64).mean())
        .with_columns(label_order=label_order(by, dtype))
    )
    a = cells.rename({by: f"{by}_a", "m": "m_a", "label_order": "_code_a"})
    b = cells.rename({by: f"{by}_b", "m": "m_b", "label_order": "_code_b"})
    pairs = (
        a.join(b, on=["n_players", *gkeys], maintain_order="left")
        .filter(pl.col("_code_a") < pl.col("_code_b"))
        .with_columns(d=pl.col("m_a") - pl.col("m_b"))
    )
    keys = ["n_players", f"{by}_a", f"{by}_b"]
    out = (
        pairs.group_by(keys)
        .agg(
            groups=pl.len().cast(pl.Int64),
            mean_diff=pl.col("d").mean(),
            sd=pl.col("d").std(),
            var_a=pl.col("m_a").var(),
            var_b=pl.col("m_b").var(),
            _ca=pl.col("_code_a").first(),
            _cb=pl.col("_code_b").first(),
        )
        .sort("n_players", "_ca", "_cb")
    )
    g = out["groups"].to_numpy().astype(np.float64)
    mean = out["mean_diff"].to_numpy()
    sd = out["sd"].to_numpy()
    lower, upper = stats.mean_interval(mean, sd, g, confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        paired_se = sd / np.sqrt(g)
        unpaired_var = (out["var_a"].to_numpy() + out["var_b"].to_numpy()) / g
        ratio = unpaired_var / paired_se**2
    p = stats.t_test(mean, paired_se, g - 1)
    adjusted = stats.adjust(p, correction)
    return out.select(
        *keys,
        "groups",
        "mean_diff",
        lower=pl.Series(lower),
        upper=pl.Series(upper),
        p_value=pl.Series(p),
        p_adjusted=pl.Series(adjusted),
        significant=pl.Series(adjusted < alpha),
        paired_se=pl.Series(paired_se),
        unpaired_se=pl.Series(np.sqrt(unpaired_var)),
        variance_ratio=pl.Series(ratio),
    )
