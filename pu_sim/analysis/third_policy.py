"""A third opinion beside the verdicts: what a policy of another family reads.

The verdict labels (:mod:`pu_sim.analysis.verdicts`) come from two policies.
When both share one hand-written valuation (greedy_tuned and greedy_learned),
a finding they agree on may be their valuation's, not the game's.  A third
policy of another family plays (some of) the same setups, and each row of the
verdict table gets its reading, :data:`READINGS` with the meanings of
:data:`GLOSSARY`.  The reading sits beside the label and never changes it:
whether a third policy is strong enough to vote is the study's call, not this
table's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from pu_sim.analysis.clusters import DEFAULT_BOOTSTRAP, Method
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.stats import Correction
from pu_sim.analysis.verdicts import policy_rows

__all__ = ["GLOSSARY", "READINGS", "Reading", "third_opinion"]

READINGS = ("agrees", "same sign", "opposite sign", "opposes")
Reading = pl.Enum(list(READINGS))
"""The third policy's readings, in this order (a Polars Enum)."""

GLOSSARY: dict[str, str] = {
    "agrees": "the third policy's win rate differs from 1/n in the direction the "
    "primary policy's does, significantly (95%, Holm over the third policy's "
    "table)",
    "same sign": "its estimate points the primary policy's way, not significantly",
    "opposite sign": "its estimate does not point the primary policy's way (the "
    "other way, or exactly 0), not significantly",
    "opposes": "it differs from 1/n significantly in the other direction (Holm "
    "over its table): the finding does not hold under the third policy",
}
"""What each reading means, as reports print it (one source)."""


def readings(
    primary: Sequence[float], third: Sequence[float], significant: Sequence[bool]
) -> list[str]:
    """Each row's reading from the primary's estimate and the third's.

    A third estimate of exactly 0 (or a missing one) reads as the opposite
    sign: it does not point the primary policy's way.

    Examples
    --------
    >>> a, c = [2.0, 2.0, 2.0, -1.0], [1.0, 0.5, -3.0, 0.2]
    >>> readings(a, c, [True, False, True, False])
    ['agrees', 'same sign', 'opposes', 'opposite sign']
    """
    a = np.sign(np.asarray(primary, dtype=np.float64))
    c = np.sign(np.nan_to_num(np.asarray(third, dtype=np.float64)))
    sig = np.asarray(significant, dtype=np.bool_)
    same = (a * c) > 0
    out: list[str] = np.where(
        same,
        np.where(sig, "agrees", "same sign"),
        np.where(sig, "opposes", "opposite sign"),
    ).tolist()
    return out


def third_opinion(
    table: pl.DataFrame,
    games_c: Frame,
    *,
    kinds: Sequence[str] = ("corporation", "planet"),
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    correction: Correction = "holm",
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
) -> pl.DataFrame:
    """The verdict table with the third policy's win rates and readings.

    ``table`` is :func:`~pu_sim.analysis.verdicts.verdict_table`'s (its
    ``win_pp_a`` gives the direction); ``games_c`` are the third policy's
    games, clustered by setup like the others'.  Rows the third policy did
    not play keep nulls and no reading.

    Returns
    -------
    polars.DataFrame
        ``table`` plus ``win_pp_c, win_lower_c, win_upper_c, third`` (Enum
        :data:`Reading`), in ``table``'s order.
    """
    keys = ["n_players", "kind", "name"]
    rows = policy_rows(
        games_c, kinds, 1.0 - confidence, correction, cluster=cluster,
        group_size=group_size, confidence=confidence, method=method,
        n_boot=n_boot, seed=seed,
    )  # fmt: skip
    joined = table.join(
        rows.select(
            *keys,
            win_pp_c="win_pp",
            win_lower_c="win_lower",
            win_upper_c="win_upper",
            sig_c="sig_win",
        ),
        on=keys,
        how="left",
        maintain_order="left",
    )
    read = readings(
        joined["win_pp_a"].to_list(),
        joined["win_pp_c"].to_list(),
        joined["sig_c"].fill_null(False).to_list(),
    )
    played = joined["win_pp_c"].is_not_null()
    return joined.drop("sig_c").with_columns(
        third=pl.when(played).then(pl.Series(read, dtype=Reading))
    )
