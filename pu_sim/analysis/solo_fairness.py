"""Whether a solo target is fair per deck, out of sample, and stably rounded.

A target rule (the published ``TargetTable``, a refitted banded table, a
:class:`~pu_sim.analysis.solo_decks.CardFormula`) is fair when every deck
composition gives the same chance of reaching it.  Here:

* :func:`fairness`: per composition the success rate ``score >= target``;
  their spread over compositions with the sampling noise taken out (method
  of moments: variance of the rates minus the noise of that variance,
  :class:`RateNoise`, clustered by setup: when every deck is played on the
  same setups the rates err together, about 0.25 correlated in the
  calibration study, and independent binomial noise would take away spread
  that is real), and the 10th-90th percentiles of the rates shrunk toward
  their mean by that noise (empirical Bayes; the raw percentiles are given
  too, and are wider by noise alone);
* :func:`with_success`: the same rule at another difficulty (its base moved
  by whole points), since spreads compare only at equal overall success;
* :func:`holdout`: fit on some setups, judge on the others (:class:`HoldOut`
  keeps the rules so fitted: the ones to quote);
* :func:`rounding_stability`: refit on cluster-bootstrap resamples of the
  setups, round each entry, and report how often its rounding differs from
  the point estimate's: an entry whose rounding flips in more than
  ``max_flip`` (default 5%) of resamples is not ``stable``, and a printed
  table must say so.

Why long: the fairness measure, its clustered noise, the held-out test and
the rounding bootstrap judge one thing (a target rule on paired setups) and
share its reading of the frame and its setups.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

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
    target_misfit,
    target_values,
)

T = TypeVar("T", bound=Target)

DEFAULT_ROUNDING_BOOTSTRAP = 200
"""Resamples for rounding stability: a 5% flip share is known to +-1.5 points."""


def _solo(
    games: Frame, cluster: str | Sequence[str] | None = None, group_size: int = 1
) -> pl.DataFrame:
    """Solo rows: score, deck and ``_setup``, the cluster's code.

    The cluster is ``cluster`` (column names) or by default the setup group
    ``game_id // group_size`` within ``run``; a frame without ``game_id``
    counts every row as its own setup.
    """
    lazy = games.lazy()
    names = lazy.collect_schema().names()
    columns: list[str] = []
    if cluster is None and "game_id" not in names:
        key = pl.int_range(pl.len())
    else:
        key, columns = cluster_key(names, cluster, group_size)
    df = (
        lazy.select("n_players", "score", *DECK_COLUMNS, *dict.fromkeys(columns))
        .filter(pl.col("n_players") == 1)
        .with_columns(_key=key)
        .collect()
    )
    if df.height == 0:
        raise ValueError("no solo games (n_players == 1) in the frame")
    return df.with_columns(_setup=pl.Series(dense_codes(df["_key"]))).drop("_key")


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


@dataclass(frozen=True)
class RateNoise:
    """Composition success rates and the noise in their spread, by setup.

    ``cov`` is the rates' cluster-robust covariance over setups (``C``; a
    setup's games under different decks may be correlated, as when the same
    boards are played under every deck), not formed as a matrix: ``noise``
    is the expected variance over compositions of their sampling errors,
    ``(trace(C) - sum(C) / D) / (D - 1)``; ``own`` each composition's noise
    about the mean rate, ``C_dd - 2 (C 1)_d / D + sum(C) / D^2``; and
    ``correlation`` the errors' mean correlation between two compositions,
    ``(sum(C) - trace(C)) / ((D - 1) trace(C))``.  With every setup under
    one deck (independent games) ``C`` is diagonal, ``C_dd = p(1-p)/(n-1)``
    and ``noise`` the binomial noise; shared setups correlate the rates, so
    less of their spread is noise.
    """

    rates: FloatArray
    games: FloatArray
    noise: float
    own: FloatArray
    correlation: float

    @classmethod
    def read(cls, df: pl.DataFrame) -> RateNoise:
        """From rows of ``_setup`` (code), ``_deck`` (code 0..D-1), ``_hit`` (0/1)."""
        setup = df["_setup"].to_numpy().astype(np.int64)
        deck = df["_deck"].to_numpy().astype(np.int64)
        hit = df["_hit"].to_numpy().astype(np.float64)
        n_decks = int(deck.max()) + 1
        n = np.bincount(deck, minlength=n_decks).astype(np.float64)
        p = np.bincount(deck, hit, n_decks) / n
        # per (setup, deck) cell: the residual sum over its games, / n_d
        cell, first = np.unique(setup * n_decks + deck, return_index=True)
        resid = np.bincount(
            np.searchsorted(cell, setup * n_decks + deck), hit - p[deck], cell.size
        )
        cell_deck = cell % n_decks
        setups = np.bincount(cell_deck, minlength=n_decks).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            factor = np.where(setups > 1, setups / (setups - 1), 0.0)
        r = resid / n[cell_deck] * np.sqrt(factor[cell_deck])
        per_setup = np.bincount(setup[first], r)  # S_g = sum_d R_gd
        trace = float(r @ r)
        total = float(per_setup @ per_setup)
        diag = np.bincount(cell_deck, r * r, n_decks)
        row = np.bincount(cell_deck, r * per_setup[setup[first]], n_decks)
        d = float(n_decks)
        noise = (trace - total / d) / (d - 1) if n_decks > 1 else math.nan
        correlation = (
            (total - trace) / ((d - 1) * trace) if n_decks > 1 and trace > 0
            else math.nan
        )  # fmt: skip
        own = diag - 2 * row / d + total / d**2
        return cls(p, n, noise, np.asarray(own, np.float64), correlation)


def fairness(
    games: Frame,
    *,
    targets: Sequence[Target],
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
) -> pl.DataFrame:
    """How much the success rate varies over deck compositions, noise removed.

    Per target: the overall success rate; ``raw_sd``, the standard deviation
    of the per-composition rates; ``noise_sd``, the part sampling noise
    explains (:class:`RateNoise`: clustered by setup, so decks played on the
    same setups, whose rates err together, are not credited with independent
    noise; with independent games it is the binomial root mean of
    ``p(1-p)/(n-1)``); ``spread``, the rest (``sqrt(max(0, raw^2 -
    noise^2))``): how unfair the rule is.  ``p10`` and ``p90`` are
    percentiles of the rates shrunk toward their mean (weights ``spread^2 /
    (spread^2 + own noise)``), ``raw_p10`` and ``raw_p90`` of the raw rates;
    ``setup_correlation`` is the mean correlation of two compositions'
    errors (0 with independent games).  Compositions count equally.

    Returns
    -------
    polars.DataFrame
        ``target, compositions, games, setups, success, raw_sd, noise_sd,
        spread, setup_correlation, p10, p90, raw_p10, raw_p90``.
    """
    df = _solo(games, cluster, group_size)
    decks = df.select(DECK_COLUMNS).unique().sort(DECK_COLUMNS)
    df = df.join(
        decks.with_row_index("_deck"), on=list(DECK_COLUMNS), maintain_order="left"
    )
    rows = []
    for target in targets:
        hits = _with_targets(df, target).select(
            "_setup", "_deck", _hit=pl.col("score") >= pl.col("_target")
        )
        rates = RateNoise.read(hits)
        p, n = rates.rates, rates.games
        raw = float(np.var(p, ddof=1)) if p.size > 1 else math.nan
        noise = max(rates.noise, 0.0) if math.isfinite(rates.noise) else 0.0
        tau2 = max(0.0, raw - noise) if math.isfinite(raw) else math.nan
        pbar = float(p.mean())
        with np.errstate(divide="ignore", invalid="ignore"):
            own = np.maximum(rates.own, 0.0)
            shrink = tau2 / (tau2 + own) if tau2 > 0 else 0.0 * n
        shrunk = pbar + (p - pbar) * np.nan_to_num(shrink, nan=1.0)
        rows.append(
            {
                "target": target.label,
                "compositions": int(p.size),
                "games": int(n.sum()),
                "setups": df["_setup"].n_unique(),
                "success": float(p @ n / n.sum()),
                "raw_sd": math.sqrt(raw) if math.isfinite(raw) else math.nan,
                "noise_sd": math.sqrt(noise),
                "spread": math.sqrt(tau2) if math.isfinite(tau2) else math.nan,
                "setup_correlation": rates.correlation,
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


@dataclass(frozen=True)
class HoldOut:
    """Target rules fitted on some setups and judged on the others.

    ``formula_fit`` is :func:`~pu_sim.analysis.solo_decks.fit_formula` on
    the fit part alone (its intervals are the fit part's); ``rules`` are the
    published table, the banded refit and the per-card formula, each fitted
    there and moved to the overall success rate ``success`` on the fit part;
    ``fairness`` (:func:`fairness` on each part, ``sample`` "fit" or "held
    out") and ``misfit`` (:func:`~pu_sim.analysis.solo_decks.target_misfit`
    on the held-out part) judge them.  A rule to quote is one of these: what
    was fitted on the fit part is what the held-out part tested.
    """

    fit_setups: int
    held_setups: int
    formula_fit: pl.DataFrame
    rules: tuple[Target, ...]
    success: float
    fairness: pl.DataFrame
    misfit: pl.DataFrame

    @property
    def formula(self) -> CardFormula:
        """The per-card formula fitted on the fit part, at ``success``."""
        rule = self.rules[2]
        assert isinstance(rule, CardFormula)
        return rule

    @property
    def held_out(self) -> dict[str, dict[str, object]]:
        """Each rule's held-out fairness and misfit row, by its label."""
        miss = {r["target"]: r for r in self.misfit.iter_rows(named=True)}
        return {
            r["target"]: {**r, "misfit_sd": miss[r["target"]]["misfit_sd"],
                          "mean_gap": miss[r["target"]]["mean_gap"]}
            for r in self.fairness.filter(pl.col("sample") == "held out")
            .iter_rows(named=True)
        }  # fmt: skip


def holdout(
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
) -> HoldOut:
    """The published, refitted banded and per-card rules, fitted and held out.

    The banded table and the per-card formula are fitted on the fit part of
    :func:`split_setups`; all three rules are moved (:func:`with_success`, on
    the fit part) to one overall success rate, ``success`` or by default the
    published table's own rate there; then :func:`fairness` is measured on
    both parts (noise clustered by setup) and the misfit on the held-out
    part.  A rule that only looks fair where it was fitted loses its edge on
    the held-out games.
    """
    published = table or TargetTable.published()
    where: dict[str, Any] = {"cluster": cluster, "group_size": group_size}
    fit, held = split_setups(games, test_share=test_share, seed=seed, **where)
    bands = table_from_frame(
        fit_bands(fit, table=published, weights=weights, reference=reference, **where),
        label="banded refit",
    )
    formula_fit = fit_formula(fit, weights=weights, reference=reference, **where)
    if success is None:
        per = success_by_deck(fit, targets=[published])
        wins = per["success"].to_numpy() * per["n"].to_numpy()
        success = float(wins.sum() / per["n"].to_numpy().sum())
    rules = tuple(
        with_success(rule, fit, success=success)
        for rule in (published, bands, CardFormula.from_fit(formula_fit))
    )
    judged = pl.concat(
        [
            fairness(part, targets=rules, **where).select(
                pl.lit(name).alias("sample"), pl.all()
            )
            for name, part in (("fit", fit), ("held out", held))
        ]
    )
    misfit = target_misfit(held, targets=rules, reference=reference, **where)
    setups = dict(judged.select("sample", "setups").iter_rows())
    return HoldOut(
        fit_setups=int(setups["fit"]),
        held_setups=int(setups["held out"]),
        formula_fit=formula_fit,
        rules=rules,
        success=success,
        fairness=judged,
        misfit=misfit,
    )


def holdout_fairness(games: Frame, **options: Any) -> pl.DataFrame:
    """:func:`holdout`'s fairness frame: ``sample``, then :func:`fairness`' columns."""
    return holdout(games, **options).fairness


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
