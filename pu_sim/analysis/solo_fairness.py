"""Whether a solo target is fair per deck, out of sample, and stably rounded.

A target rule (the published ``TargetTable``, a refitted banded table, a
:class:`~pu_sim.analysis.solo_decks.CardFormula`) is fair when every deck
composition gives the same chance of reaching it.  Here:

* :func:`fairness`: per composition the success rate ``score >= target``;
  their spread over compositions with the binomial noise taken out (method
  of moments: variance of the rates minus the mean of ``p(1-p)/(n-1)``), and
  the 10th-90th percentiles of the rates shrunk toward their mean by that
  noise (empirical Bayes; the raw percentiles are given too, and are wider
  by noise alone);
* :func:`with_success`: the same rule at another difficulty (its base moved
  by whole points), since spreads compare only at equal overall success;
* :func:`holdout_fairness`: fit on some setups, judge on the others;
* :func:`rounding_stability`: refit on cluster-bootstrap resamples of the
  setups, round each entry, and report how often its rounding differs from
  the point estimate's: an entry whose rounding flips in more than
  ``max_flip`` (default 5%) of resamples is not ``stable``, and a printed
  table must say so.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Literal, TypeVar

import numpy as np
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.calibration import DECK_COLUMNS, TargetTable, table_from_frame
from pu_sim.analysis.cluster_stats import FloatArray, bootstrap_weights, dense_codes
from pu_sim.analysis.clusters import cluster_key
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.solo_decks import (
    REFERENCE_DECK,
    CardFormula,
    PairedDesign,
    Target,
    Weights,
    composition_weights,
    fit_bands,
    fit_formula,
    projection,
    round_to_step,
    target_design,
    target_values,
)

T = TypeVar("T", bound=Target)

DEFAULT_ROUNDING_BOOTSTRAP = 200
"""Resamples for rounding stability: a 5% flip share is known to +-1.5 points."""


def _solo(games: Frame) -> pl.DataFrame:
    df = (
        games.lazy()
        .select("n_players", "score", *DECK_COLUMNS)
        .filter(pl.col("n_players") == 1)
        .collect()
    )
    if df.height == 0:
        raise ValueError("no solo games (n_players == 1) in the frame")
    return df


def _with_targets(df: pl.DataFrame, target: Target) -> pl.DataFrame:
    decks = df.select(DECK_COLUMNS).unique()
    values = target_values(target, decks.to_numpy())
    return df.join(
        decks.with_columns(_target=pl.Series(values)),
        on=list(DECK_COLUMNS),
        maintain_order="left",
    )


# --------------------------------------------------------------------------------
# Success per composition
# --------------------------------------------------------------------------------


def success_by_deck(
    games: Frame, *, targets: Sequence[Target], confidence: float = 0.95
) -> pl.DataFrame:
    """Success rate at each target for every deck composition (Wilson CIs).

    Returns
    -------
    polars.DataFrame
        ``target, deck_green, deck_orange, deck_red, target_score, n,
        success, lower, upper``.
    """
    df = _solo(games)
    frames = []
    for target in targets:
        per = (
            _with_targets(df, target)
            .group_by(DECK_COLUMNS)
            .agg(
                target_score=pl.col("_target").first(),
                n=pl.len().cast(pl.Int64),
                _wins=(pl.col("score") >= pl.col("_target")).sum().cast(pl.Int64),
            )
            .sort(DECK_COLUMNS)
        )
        lo, hi = stats.wilson_interval(
            per["_wins"].to_numpy(), per["n"].to_numpy(), confidence
        )
        frames.append(
            per.select(
                pl.lit(target.label).alias("target"), *DECK_COLUMNS, "target_score",
                "n", success=pl.col("_wins") / pl.col("n"), lower=pl.Series(lo),
                upper=pl.Series(hi),
            )
        )  # fmt: skip
    return pl.concat(frames)


def fairness(games: Frame, *, targets: Sequence[Target]) -> pl.DataFrame:
    """How much the success rate varies over deck compositions, noise removed.

    Per target: the overall success rate; ``raw_sd``, the standard deviation
    of the per-composition rates; ``noise_sd``, the part binomial noise
    explains (root mean of ``p(1-p)/(n-1)``); ``spread``, the rest
    (``sqrt(max(0, raw^2 - noise^2))``): how unfair the rule is.  ``p10`` and
    ``p90`` are percentiles of the rates shrunk toward their mean (weights
    ``spread^2 / (spread^2 + pbar(1-pbar)/n)``), ``raw_p10`` and ``raw_p90``
    of the raw rates.  Compositions count equally.

    Returns
    -------
    polars.DataFrame
        ``target, compositions, games, success, raw_sd, noise_sd, spread,
        p10, p90, raw_p10, raw_p90``.
    """
    rows = []
    per = success_by_deck(games, targets=targets)
    for target in targets:
        part = per.filter(pl.col("target") == target.label)
        n = part["n"].to_numpy().astype(np.float64)
        p = part["success"].to_numpy().astype(np.float64)
        ok = n > 1
        raw = float(np.var(p, ddof=1)) if p.size > 1 else math.nan
        noise = float(np.mean(p[ok] * (1 - p[ok]) / (n[ok] - 1))) if ok.any() else 0.0
        tau2 = max(0.0, raw - noise) if math.isfinite(raw) else math.nan
        pbar = float(p.mean())
        with np.errstate(divide="ignore", invalid="ignore"):
            shrink = tau2 / (tau2 + pbar * (1 - pbar) / n) if tau2 > 0 else 0.0 * n
        shrunk = pbar + (p - pbar) * np.nan_to_num(shrink, nan=1.0)
        rows.append(
            {
                "target": target.label,
                "compositions": int(p.size),
                "games": int(n.sum()),
                "success": float(p @ n / n.sum()),
                "raw_sd": math.sqrt(raw) if math.isfinite(raw) else math.nan,
                "noise_sd": math.sqrt(noise),
                "spread": math.sqrt(tau2) if math.isfinite(tau2) else math.nan,
                "p10": float(np.quantile(shrunk, 0.1)),
                "p90": float(np.quantile(shrunk, 0.9)),
                "raw_p10": float(np.quantile(p, 0.1)),
                "raw_p90": float(np.quantile(p, 0.9)),
            }
        )
    return pl.DataFrame(rows)


def with_success(
    target: T, games: Frame, *, success: float, label: str | None = None
) -> T:
    """The same rule with its base moved by whole points to a success rate.

    The shift ``k`` makes the share of ``games`` with ``score >= target + k``
    closest to ``success`` (ties: the smaller shift), so rules compare at
    equal overall difficulty.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 4, "score": [50, 55, 60, 65],
    ...     "deck_green": [7] * 4, "deck_orange": [7] * 4, "deck_red": [6] * 4})
    >>> with_success(CardFormula(50.0, 0.0, 0.0), df, success=0.5).base
    56.0
    """
    if not 0.0 < success < 1.0:
        raise ValueError(f"success must be in (0, 1), got {success}")
    df = _with_targets(_solo(games), target)
    need = np.sort(df["score"].to_numpy() - df["_target"].to_numpy())
    candidates = np.arange(math.floor(need[0]), math.ceil(need[-1]) + 2)
    rates = 1.0 - np.searchsorted(need, candidates, side="left") / need.size
    best = int(np.lexsort((np.abs(candidates), np.abs(rates - success)))[0])
    shift = float(candidates[best])
    changes: dict[str, object] = {"base": target.base + shift}
    if label is not None:
        changes["label"] = label
    return dataclasses.replace(target, **changes)


# --------------------------------------------------------------------------------
# Out of sample
# --------------------------------------------------------------------------------


def split_setups(
    games: Frame,
    *,
    test_share: float = 0.5,
    seed: int = 0,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Split a frame by whole setups: (fit part, held-out part), seeded.

    A setup's games all go to one side, so the held-out games share no board
    with the fitted ones.
    """
    if not 0.0 < test_share < 1.0:
        raise ValueError(f"test_share must be in (0, 1), got {test_share}")
    df = games.lazy().collect()
    key, _ = cluster_key(df.columns, cluster, group_size)
    codes = dense_codes(df.select(key).to_series())
    n_setups = int(codes.max()) + 1
    held = np.random.default_rng(seed).permutation(n_setups)[
        : max(1, round(test_share * n_setups))
    ]
    is_held = np.isin(codes, held)
    return df.filter(pl.Series(~is_held)), df.filter(pl.Series(is_held))


def holdout_fairness(
    games: Frame,
    *,
    table: TargetTable | None = None,
    success: float | None = None,
    test_share: float = 0.5,
    seed: int = 0,
    reference: tuple[int, int, int] = REFERENCE_DECK,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    weights: Weights = "equal",
) -> pl.DataFrame:
    """Fairness of the published, refitted banded and per-card rules, held out.

    The banded table and the per-card formula are fitted on the fit part of
    :func:`split_setups`; all three rules are moved (:func:`with_success`, on
    the fit part) to one overall success rate, ``success`` or by default the
    published table's own rate there; then :func:`fairness` is measured on
    both parts.  A rule that only looks fair where it was fitted loses its
    edge on the held-out games.

    Returns
    -------
    polars.DataFrame
        ``sample`` ("fit" or "held out"), then :func:`fairness`' columns.
    """
    published = table or TargetTable.published()
    fit, held = split_setups(
        games, test_share=test_share, seed=seed, cluster=cluster, group_size=group_size
    )
    bands = table_from_frame(
        fit_bands(
            fit, table=published, weights=weights, reference=reference,
            cluster=cluster, group_size=group_size,
        ),
        label="banded refit",
    )  # fmt: skip
    formula = CardFormula.from_fit(
        fit_formula(
            fit, weights=weights, reference=reference, cluster=cluster,
            group_size=group_size,
        )
    )  # fmt: skip
    if success is None:
        per = success_by_deck(fit, targets=[published])
        wins = per["success"].to_numpy() * per["n"].to_numpy()
        success = float(wins.sum() / per["n"].to_numpy().sum())
    rules: list[Target] = [
        with_success(rule, fit, success=success) for rule in (published, bands, formula)
    ]
    return pl.concat(
        [
            fairness(part, targets=rules).select(pl.lit(name).alias("sample"), pl.all())
            for name, part in (("fit", fit), ("held out", held))
        ]
    )


# --------------------------------------------------------------------------------
# Rounding stability
# --------------------------------------------------------------------------------


def rounding_stability(
    games: Frame,
    *,
    model: Literal["bands", "formula"] = "bands",
    table: TargetTable | None = None,
    step: float = 1.0,
    max_flip: float = 0.05,
    n_boot: int = DEFAULT_ROUNDING_BOOTSTRAP,
    seed: int = 0,
    confidence: float = 0.95,
    reference: tuple[int, int, int] = REFERENCE_DECK,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    weights: Weights = "equal",
) -> pl.DataFrame:
    """How often each fitted entry would round differently on other setups.

    The fit (:func:`~pu_sim.analysis.solo_decks.fit_bands` or
    :func:`~pu_sim.analysis.solo_decks.fit_formula`) is repeated on
    ``n_boot`` cluster-bootstrap resamples of the setups; each entry is
    rounded to ``step`` and compared with the rounding of the point estimate.

    Returns
    -------
    polars.DataFrame
        ``entry, band, estimate, rounded, lower, upper, flip_share, stable,
        resamples``: ``lower``/``upper`` the bootstrap percentile interval,
        ``flip_share`` the share of resamples rounding differently, ``stable``
        whether that share is at most ``max_flip``.  First bands (0 by
        construction) are not listed.
    """
    if n_boot < 2 or not 0.0 <= max_flip < 1.0:
        raise ValueError(
            f"need n_boot >= 2 and max_flip in [0, 1): {n_boot}, {max_flip}"
        )
    design = PairedDesign.read(
        games, reference=reference, cluster=cluster, group_size=group_size
    )
    x, names = target_design(design.decks, model, table or TargetTable.published())
    w = composition_weights(design, weights)
    p = projection(x, w)
    beta = design.solve()
    point = p @ (design.level(beta) + beta)
    boots = _refits(design, x, w, p, n_boot, seed)
    if boots.shape[0] == 0:
        raise ValueError("no bootstrap resample of the setups could be refitted")
    rounded = round_to_step(point, step)
    flips = (round_to_step(boots, step) != rounded).mean(0)
    alpha = 1.0 - confidence
    lo, hi = np.quantile(boots, [alpha / 2, 1 - alpha / 2], axis=0)
    return pl.DataFrame(
        {
            "entry": [n[0] for n in names], "band": [n[1] for n in names],
            "estimate": point, "rounded": rounded, "lower": lo, "upper": hi,
            "flip_share": flips, "stable": np.asarray(flips <= max_flip),
            "resamples": [boots.shape[0]] * point.size,
        }
    )  # fmt: skip


def _refits(
    design: PairedDesign,
    x: FloatArray,
    w: FloatArray,
    p: FloatArray,
    n_boot: int,
    seed: int,
) -> FloatArray:
    """Fitted coefficients on cluster-bootstrap resamples (rows), seeded."""
    out = []
    rng = np.random.default_rng(seed)
    for chunk in bootstrap_weights(design.n_setups, n_boot, rng):
        for setup_w in chunk:
            try:
                beta = design.solve(setup_w)
            except ValueError:
                continue  # a resample that leaves a deck unlinked: not refittable
            means = design.level(beta, setup_w) + beta
            ok = np.isfinite(means)
            if ok.all():
                out.append(p @ means)
            elif ok.sum() > x.shape[1]:
                try:
                    out.append(projection(x[ok], w[ok]) @ means[ok])
                except ValueError:
                    continue  # a resample whose decks leave a term unidentified
    return np.asarray(out, dtype=np.float64).reshape(len(out), x.shape[1])
