"""Robustness: whether two tables of the same effects (e.g. under two bots) agree.

A balance finding that flips when the bot changes says more about the bot than
about the game; :func:`robustness` measures the agreement of two tables over
their shared keys.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.frame import Frame, collect_columns

__all__ = ["robustness", "robustness_detail"]


def robustness(
    table_a: Frame,
    table_b: Frame,
    *,
    on: Sequence[str],
    estimate: str = "excess",
    significant: str = "significant",
) -> pl.DataFrame:
    """Whether two balance tables (e.g. under two bot policies) agree.

    Joins the tables on ``on`` and summarises agreement: the Spearman rank
    correlation of ``estimate``; how many keys are significant in each table;
    ``sign_agreement``, the share of keys significant in at least one table
    whose estimates have the same sign in both; and ``conflicts``, keys
    significant in both tables with opposite signs (the strongest kind of
    disagreement).

    Returns
    -------
    polars.DataFrame
        One row: ``keys, spearman, significant_a, significant_b,
        significant_both, sign_agreement, conflicts``.

    Examples
    --------
    >>> import polars as pl
    >>> a = pl.DataFrame({"seat": [0, 1, 2], "excess": [0.05, -0.01, -0.04],
    ...     "significant": [True, False, True]})
    >>> b = a.with_columns(pl.col("excess") * 2)
    >>> robustness(a, b, on=["seat"]).select("spearman", "sign_agreement")
    shape: (1, 2)
    ┌──────────┬────────────────┐
    │ spearman ┆ sign_agreement │
    │ ---      ┆ ---            │
    │ f64      ┆ f64            │
    ╞══════════╪════════════════╡
    │ 1.0      ┆ 1.0            │
    └──────────┴────────────────┘
    """
    joined = robustness_detail(
        table_a, table_b, on=on, estimate=estimate, significant=significant
    )
    ea = joined[f"{estimate}_a"].to_numpy()
    eb = joined[f"{estimate}_b"].to_numpy()
    sa = joined[f"{significant}_a"].to_numpy().astype(bool)
    sb = joined[f"{significant}_b"].to_numpy().astype(bool)
    same = np.sign(ea) == np.sign(eb)
    either = sa | sb
    both = sa & sb
    return pl.DataFrame(
        {
            "keys": [joined.height],
            "spearman": [stats.spearman(ea, eb)],
            "significant_a": [int(sa.sum())],
            "significant_b": [int(sb.sum())],
            "significant_both": [int(both.sum())],
            "sign_agreement": [
                float(same[either].mean()) if either.any() else math.nan
            ],
            "conflicts": [int((both & ~same).sum())],
        }
    )


def robustness_detail(
    table_a: Frame,
    table_b: Frame,
    *,
    on: Sequence[str],
    estimate: str = "excess",
    significant: str = "significant",
) -> pl.DataFrame:
    """The per-key join behind :func:`robustness` (suffixes ``_a`` and ``_b``)."""
    cols = [*on, estimate, significant]
    a = collect_columns(table_a, cols).rename(
        {estimate: f"{estimate}_a", significant: f"{significant}_a"}
    )
    b = collect_columns(table_b, cols).rename(
        {estimate: f"{estimate}_b", significant: f"{significant}_b"}
    )
    return (
        a.join(b, on=list(on), nulls_equal=True, maintain_order="left")
        .with_columns(
            agree=pl.col(f"{estimate}_a").sign() == pl.col(f"{estimate}_b").sign()
        )
        .sort(list(on))
    )
