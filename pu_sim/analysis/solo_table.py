"""The solo target table at the published difficulty: its shape and its level.

A target table answers two questions that a fit at one bot's strength mixes
up, so a recommendation keeps them apart:

* **Shape** (which deck compositions are easier or harder than others).  An
  entry of the published table is changed only when its refitted value
  (:func:`~pu_sim.analysis.solo_decks.fit_bands`) rounds to the same whole
  number, stably (:func:`~pu_sim.analysis.solo_fairness.rounding_stability`:
  at most 5% of cluster-bootstrap resamples of the setups round it
  otherwise), under every bot that judges it (the two strong bots).  An entry
  whose rounding flips under one of them, or that they round to different
  numbers, is *not settled* and keeps its published value (:func:`settle`).
* **Level** (how hard the game is).  The base of the proposed table is the
  whole number at which the anchor bot reaches the target as often as under
  the published table (:func:`proposed_table`), so the table changes shape,
  not difficulty; its average target over the compositions, weighted as the
  design deals them (:func:`average_target`), then stays near the published
  one.  How hard a table is at each bot's strength (success rate, mean
  margin, and the base at which that bot would reach it half the time) is
  reported apart (:func:`levels`), clustered by setup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.calibration import COLOURS, DECK_COLUMNS, TargetTable
from pu_sim.analysis.cluster_stats import FloatArray
from pu_sim.analysis.clusters import cluster_means
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.solo_decks import Target, target_values
from pu_sim.analysis.solo_fairness import with_success

CHANGE = "change"
"""Status of an entry that rounds stably to the same new value under every bot."""

UNCHANGED = "unchanged"
"""Status of an entry that rounds stably to its published value under every bot."""

NOT_SETTLED = "not settled"
"""Status of an entry whose rounding flips, or differs between the bots."""


def settle(
    stability: Mapping[str, pl.DataFrame], *, table: TargetTable | None = None
) -> pl.DataFrame:
    """Which entries of the table every bot's refit settles, and at what value.

    ``stability`` maps each judging bot to its
    :func:`~pu_sim.analysis.solo_fairness.rounding_stability` frame (banded
    model).  Per colour band above the first (0 by construction): ``change``
    when every bot's rounding is stable and all round to one value other
    than the published one; ``unchanged`` when they all round stably to the
    published value; else ``not settled`` (``proposed`` keeps the published
    value).  The base is not settled here: the level sets it.

    Returns
    -------
    polars.DataFrame
        ``entry, band, published, status, proposed, reason``.

    Examples
    --------
    >>> import polars as pl
    >>> table = TargetTable.published()
    >>> same = pl.DataFrame([{"entry": c, "band": b, "flip_share": 0.0,
    ...     "stable": True, "rounded": table.adjustments[c][i]}
    ...     for c in COLOURS for i, b in enumerate(table.band_labels()) if i])
    >>> settle({"a": same, "b": same})["status"].unique().to_list()
    ['unchanged']
    >>> up = 2 * (pl.col("entry") == "red")  # every red step 2 points milder
    >>> red = same.with_columns(rounded=pl.col("rounded") + up)
    >>> out = settle({"a": red, "b": red})
    >>> out.filter(pl.col("status") == "change")["proposed"].to_list()
    [-3.0, -5.0, -7.0, -9.0]
    >>> settle({"a": red, "b": same})["status"].value_counts(sort=True).rows()
    [('unchanged', 8), ('not settled', 4)]
    """
    if not stability:
        raise ValueError("settling the table needs at least one bot's refit")
    table = table or TargetTable.published()
    labels = table.band_labels()
    rows = []
    for colour in COLOURS:
        for b, band in enumerate(labels):
            if b == 0:
                continue
            fits = {bot: _entry(fr, colour, band) for bot, fr in stability.items()}
            published = float(table.adjustments[colour][b])
            status, proposed, reason = _verdict(fits, published)
            rows.append(
                {"entry": colour, "band": band, "published": published,
                 "status": status, "proposed": proposed, "reason": reason}
            )  # fmt: skip
    return pl.DataFrame(rows)


def _entry(frame: pl.DataFrame, colour: str, band: str) -> dict[str, object]:
    row = frame.filter((pl.col("entry") == colour) & (pl.col("band") == band))
    if row.height != 1:
        raise ValueError(f"the refit has no single row for {colour} {band}")
    return row.row(0, named=True)


def _verdict(
    fits: Mapping[str, Mapping[str, object]], published: float
) -> tuple[str, float, str]:
    """Status, proposed value and the reason, from each bot's rounding row."""
    unstable = [bot for bot, r in fits.items() if not r["stable"]]
    if unstable:
        flips = ", ".join(
            f"{bot} {float(fits[bot]['flip_share']):.0%}"  # type: ignore[arg-type]
            for bot in unstable
        )
        return NOT_SETTLED, published, f"unstable rounding: {flips} of resamples flip"
    values = {bot: float(r["rounded"]) for bot, r in fits.items()}  # type: ignore[arg-type]
    if len(set(values.values())) > 1:
        who = ", ".join(f"{bot} {v:+.0f}" for bot, v in values.items())
        return NOT_SETTLED, published, f"the bots round it differently ({who})"
    value = next(iter(values.values()))
    if value == published:
        return UNCHANGED, published, f"all round it to the published {value:+.0f}"
    return CHANGE, value, f"all round it to {value:+.0f}"


def average_target(target: Target, games: Frame) -> float:
    """The mean target over the games' deck compositions, each by its games.

    In a design that plays every composition equally often (or deals decks at
    random), this is the target a player meets on average.
    """
    counts = (
        games.lazy()
        .filter(pl.col("n_players") == 1)
        .group_by(DECK_COLUMNS)
        .len()
        .collect()
    )
    if counts.height == 0:
        raise ValueError("no solo games (n_players == 1) in the frame")
    values = target_values(target, counts.select(DECK_COLUMNS).to_numpy())
    weights = counts["len"].to_numpy().astype(np.float64)
    return float(values @ weights / weights.sum())


def success_rate(target: Target, games: Frame) -> float:
    """The share of solo games reaching ``target``."""
    df = games.lazy().filter(pl.col("n_players") == 1).collect()
    values = target_values(target, df.select(DECK_COLUMNS).to_numpy())
    return float(np.mean(df["score"].to_numpy() >= values))


def proposed_table(
    settled: pl.DataFrame,
    anchor: Frame,
    *,
    table: TargetTable | None = None,
    label: str = "proposed",
) -> TargetTable:
    """The published table with the settled changes, at the published difficulty.

    Every entry takes :func:`settle`'s ``proposed`` value; the base is then
    moved by whole points (:func:`~pu_sim.analysis.solo_fairness.with_success`)
    so that the ``anchor`` games (the anchor bot's) reach the new table as
    often as the published one.
    """
    table = table or TargetTable.published()
    adjustments = {c: list(table.adjustments[c]) for c in COLOURS}
    labels = table.band_labels()
    for r in settled.iter_rows(named=True):
        adjustments[r["entry"]][labels.index(r["band"])] = float(r["proposed"])
    shape = TargetTable(
        base=table.base,
        bands=table.bands,
        adjustments={c: tuple(v) for c, v in adjustments.items()},
        label=label,
    )
    success = success_rate(table, anchor)
    if not 0.0 < success < 1.0:
        return shape  # no level to keep: the anchor never (or always) succeeds
    return with_success(shape, anchor, success=success)


def rate_interval(
    means: pl.DataFrame, confidence: float = 0.95
) -> tuple[FloatArray, FloatArray]:
    """Wilson intervals of clustered success rates at their effective size.

    ``means`` is :func:`~pu_sim.analysis.clusters.cluster_means` of a 0/1
    value.  The effective number of games is ``n`` over the design effect
    ``(se / naive_se)^2`` (1 where either is 0 or missing): the clustered
    precision, with Wilson's behaviour near 0 and 1, where a t interval on a
    rate of 0 would shrink to a point.
    """
    n = means["n"].to_numpy().astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = (means["se"].to_numpy() / means["naive_se"].to_numpy()) ** 2
    deff = np.where(np.isfinite(deff) & (deff > 0), deff, 1.0)
    size = n / deff
    return stats.wilson_interval(means["mean"].to_numpy() * size, size, confidence)


def levels(
    games: Frame,
    *,
    targets: Sequence[Target],
    by: str = "bot",
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """How hard each target is at each bot's strength, clustered by setup.

    Per ``by`` group and target: the success rate (:func:`rate_interval`)
    and the mean margin (score - target) with cluster-robust intervals
    (``cluster``: the setup, so games on one board under many decks count as
    one draw of the boards), the average target, and ``par_base``: the base
    at which that bot would reach the target in half its games (the target's
    level for it; ``par_shift`` is its distance from the target's own base).

    Returns
    -------
    polars.DataFrame
        ``<by>, target, games, setups, success, success_lower, success_upper,
        margin, margin_lower, margin_upper, average_target, base, par_base,
        par_shift``.
    """
    df = games.lazy().filter(pl.col("n_players") == 1).collect()
    rows = []
    for target in targets:
        values = target_values(target, df.select(DECK_COLUMNS).to_numpy())
        graded = df.with_columns(
            _target=pl.Series(values),
            _hit=(pl.col("score") >= pl.Series(values)).cast(pl.Float64),
            _margin=pl.col("score").cast(pl.Float64) - pl.Series(values),
        )
        where = {"by": (by,), "cluster": cluster, "group_size": group_size,
                 "confidence": confidence}  # fmt: skip
        hit = cluster_means(graded, value="_hit", **where)  # type: ignore[arg-type]
        margin = cluster_means(graded, value="_margin", **where)  # type: ignore[arg-type]
        lower, upper = rate_interval(hit, confidence)
        for i, (h, m) in enumerate(
            zip(hit.iter_rows(named=True), margin.iter_rows(named=True), strict=True)
        ):
            part = graded.filter(pl.col(by) == h[by])
            par = with_success(target, part, success=0.5)
            rows.append(
                {by: str(h[by]), "target": target.label, "games": h["n"],
                 "setups": h["clusters"], "success": h["mean"],
                 "success_lower": lower[i], "success_upper": upper[i],
                 "margin": m["mean"], "margin_lower": m["lower"],
                 "margin_upper": m["upper"],
                 "average_target": float(part["_target"].mean()),  # type: ignore[arg-type]
                 "base": target.base, "par_base": par.base,
                 "par_shift": par.base - target.base}
            )  # fmt: skip
    return pl.DataFrame(rows)


__all__ = [
    "CHANGE",
    "NOT_SETTLED",
    "UNCHANGED",
    "average_target",
    "levels",
    "proposed_table",
    "rate_interval",
    "settle",
    "success_rate",
]
