"""Whether two studies give the same verdicts on the rows they share.

Two studies of one design on independent setups (the main study and the
corporation and planet balance study, say) estimate the same quantities;
their verdicts may still differ where one is larger and resolves an effect
the other leaves open.  :func:`compare_verdicts` joins their one-look tables
(:func:`pu_sim.analysis.verdicts.verdict_table`) on the shared rows and sorts
each into one of :data:`AGREEMENT`:

* ``same label``: the two labels are equal;
* ``resolution``: the labels differ, but neither contradicts the other: the
  two studies' estimates under each policy differ by no more than chance
  allows (a z test of the two independent estimates, Holm over every shared
  row and policy), so one study resolved what the other did not;
* ``contradiction``: the labels point in opposite directions, or an
  estimate differs between the studies beyond chance.  A contradiction means
  the studies do not measure the same thing: a design difference to name,
  or a defect.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats as sps

from pu_sim.analysis import stats

__all__ = ["AGREEMENT", "compare_verdicts"]

AGREEMENT = ("same label", "resolution", "contradiction")

KEYS = ["n_players", "kind", "name"]
DIRECTIONAL = ("robust", "bot-dependent")
"""Labels that state a direction (the sign of the primary policy's estimate)."""


def _se(lower: pl.Expr, upper: pl.Expr) -> pl.Expr:
    """A 95% interval's standard error (normal: the tables have many setups)."""
    return (upper - lower) / (2.0 * float(sps.norm.ppf(0.975)))


def compare_verdicts(
    ours: pl.DataFrame, theirs: pl.DataFrame, alpha: float = 0.05
) -> pl.DataFrame:
    """The shared rows of two verdict tables, each sorted into :data:`AGREEMENT`.

    Returns
    -------
    polars.DataFrame
        ``n_players, kind, name, label, label_other, win_pp_a, win_pp_a_other,
        win_pp_b, win_pp_b_other, p_a, p_b, agreement``: ``p_a``/``p_b`` the
        Holm-adjusted p-value that policy a's (b's) estimate is the same in
        both studies.
    """
    cols = ["label", "win_pp_a", "win_lower_a", "win_upper_a", "win_pp_b",
            "win_lower_b", "win_upper_b"]  # fmt: skip
    both = ours.select(*KEYS, *cols).join(
        theirs.select(*KEYS, *[pl.col(c).alias(f"{c}_other") for c in cols]),
        on=KEYS, how="inner", maintain_order="left",
    )  # fmt: skip
    if both.height == 0:
        return both.with_columns(
            p_a=pl.lit(None, pl.Float64), p_b=pl.lit(None, pl.Float64),
            agreement=pl.lit(None, pl.String),
        ).select(*KEYS, "label", "label_other", "p_a", "p_b", "agreement")  # fmt: skip
    raw = []
    for side in ("a", "b"):
        est = f"win_pp_{side}"
        z = both.select(
            (pl.col(est) - pl.col(f"{est}_other"))
            / (
                _se(pl.col(f"win_lower_{side}"), pl.col(f"win_upper_{side}")) ** 2
                + _se(pl.col(f"win_lower_{side}_other"),
                      pl.col(f"win_upper_{side}_other")) ** 2
            ).sqrt()
        ).to_series().to_numpy()  # fmt: skip
        raw.append(2.0 * sps.norm.sf(np.abs(z)))
    adjusted = stats.holm(np.concatenate(raw))
    p_a, p_b = adjusted[: both.height], adjusted[both.height :]
    label, other = (both[c].cast(pl.String) for c in ("label", "label_other"))
    directional = label.is_in(DIRECTIONAL) & other.is_in(DIRECTIONAL)
    opposite = directional & (both["win_pp_a"].sign() != both["win_pp_a_other"].sign())
    differs = pl.Series((np.nan_to_num(p_a, nan=1.0) < alpha)
                        | (np.nan_to_num(p_b, nan=1.0) < alpha))  # fmt: skip
    agreement = np.where(
        (opposite | differs).to_numpy(), "contradiction",
        np.where((label == other).to_numpy(), "same label", "resolution"),
    )  # fmt: skip
    return both.select(
        *KEYS, label=label, label_other=other,
        win_pp_a="win_pp_a", win_pp_a_other="win_pp_a_other",
        win_pp_b="win_pp_b", win_pp_b_other="win_pp_b_other",
        p_a=pl.Series(p_a), p_b=pl.Series(p_b),
        agreement=pl.Series(agreement, dtype=pl.Enum(list(AGREEMENT))),
    )  # fmt: skip
