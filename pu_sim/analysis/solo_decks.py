"""Solo deck effects measured within setups, and the target fits built on them.

The calibration study plays the same setup (corporation, planet, tiles,
objectives: one cluster key, by default ``game_id // group_size``) under many
event-deck compositions, so a deck's effect is a difference *within* setups,
free of the setups' luck.  :func:`deck_effects` estimates every composition's
mean score difference against a reference deck (the balanced 7/7/6 by
default) by the two-way fixed-effects regression ``score = setup + deck``:
with every setup played under every deck this is exactly the mean paired
difference; with a balanced incomplete design it still compares decks only
inside setups.  Its CR1 covariance treats the setup as the cluster (the setup
effects are nested in the clusters and not counted in the small-sample factor,
as in Stata's ``xtreg, fe``), so all of a setup's games may be correlated.

Two target shapes are fitted to the composition means by least squares (each
composition weighted equally by default: fairness is judged per composition):

* :func:`fit_bands`: the published table's shape (one step per colour and
  count band) with the steps refitted; :func:`~pu_sim.analysis.calibration.
  table_from_frame` turns the result into a ``TargetTable``;
* :func:`fit_formula`: ``target = base + a_green * green + a_red * red``
  (:class:`CardFormula`).  There is no orange term: with 20 cards ``orange =
  20 - green - red``, so a linear orange term is exactly absorbed by the base
  and the two slopes (``a_green`` is the effect of swapping an orange card
  for a green one).  Orange could only earn a place non-linearly;
  :func:`target_misfit` measures whether any shape leaves such a pattern
  (the composition means' spread around the target beyond their noise).

Interval bounds of fitted entries come from the composition means' CR1
covariance (``se`` of ``P @ means``, ``P`` the least-squares projection), so
the base's interval includes how the level of play varies between setups.

Why long: the paired-deck design (its deck classes, the band and card
formulas, their fits and held-out tests) is one model over one design matrix.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol

import numpy as np
import numpy.typing as npt
import polars as pl
from scipy import stats as sps

from pu_sim.analysis.calibration import COLOURS, DECK_COLUMNS, DECK_SIZE, TargetTable
from pu_sim.analysis.cluster_stats import FloatArray, IntArray, dense_codes
from pu_sim.analysis.clusters import CLUSTER, VALUE, cluster_frame
from pu_sim.analysis.frame import Frame

REFERENCE_DECK = (7, 7, 6)
"""The balanced deck (green, orange, red) the effects are measured against."""

Weights = Literal["equal", "games"]


class Target(Protocol):
    """A solo target rule: a dataclass with a base and a target per composition."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def base(self) -> float: ...  # noqa: D102

    @property
    def label(self) -> str: ...  # noqa: D102

    def target(self, green: int, orange: int, red: int) -> float: ...  # noqa: D102


@dataclass(frozen=True)
class CardFormula:
    """Per-card target ``base + green * n_green + red * n_red``, to whole points.

    ``orange`` is accepted and ignored (it is ``20 - green - red``).

    Examples
    --------
    >>> CardFormula(base=50.0, green=1.2, red=-0.5).target(10, 4, 6)
    59.0
    """

    base: float
    green: float
    red: float
    label: str = "per-card formula"

    def target(self, green: int, orange: int, red: int) -> float:
        """The whole-point target of one composition (halves round up)."""
        return float(math.floor(self.base + self.green * green + self.red * red + 0.5))

    @classmethod
    def from_fit(
        cls,
        fit: pl.DataFrame,
        *,
        column: str = "estimate",
        label: str = "per-card formula",
    ) -> CardFormula:
        """The formula from :func:`fit_formula`'s ``term`` rows."""
        value = dict(zip(fit["term"].to_list(), fit[column].to_list(), strict=True))
        return cls(
            base=float(value["base"]),
            green=float(value["green"]),
            red=float(value["red"]),
            label=label,
        )


# --------------------------------------------------------------------------------
# The paired design
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairedDesign:
    """Solo games as setups x decks: the fixed-effects estimator's statistics.

    ``counts[g, d]`` and ``sums[g, d]`` are the games and total score of deck
    ``d`` in setup ``g``; ``rows`` hold each game's setup, deck and score (for
    residuals).  :meth:`solve` takes optional setup weights, which is how the
    cluster bootstrap refits without touching the frame.
    """

    decks: IntArray
    counts: FloatArray
    sums: FloatArray
    reference: int
    row_setup: IntArray
    row_deck: IntArray
    row_score: FloatArray

    @classmethod
    def read(
        cls,
        games: Frame,
        *,
        reference: tuple[int, int, int] = REFERENCE_DECK,
        cluster: str | Sequence[str] | None = None,
        group_size: int = 1,
    ) -> PairedDesign:
        """From a result frame's solo rows (``n_players == 1``)."""
        df = cluster_frame(
            games, labels=DECK_COLUMNS, value="score", cluster=cluster,
            group_size=group_size,
        ).filter(pl.col("n_players") == 1)  # fmt: skip
        if df.height == 0:
            raise ValueError("no solo games (n_players == 1) in the frame")
        if df.select(pl.sum_horizontal(*DECK_COLUMNS) != DECK_SIZE).to_series().any():
            raise ValueError(
                "some solo rows have no 20-card event deck (deck columns do not sum "
                "to 20): deck effects need games played with the event deck"
            )
        decks = df.select(DECK_COLUMNS).unique().sort(DECK_COLUMNS)
        deck_rows = decks.rows()
        if tuple(reference) not in deck_rows:
            raise ValueError(f"the reference deck {reference} was never played")
        coded = df.join(
            decks.with_row_index("_deck"), on=list(DECK_COLUMNS), maintain_order="left"
        )
        setup = dense_codes(coded[CLUSTER])
        deck = coded["_deck"].to_numpy().astype(np.int64)
        score = coded[VALUE].to_numpy().astype(np.float64)
        shape = (int(setup.max()) + 1, decks.height)
        cell = setup * shape[1] + deck
        size = shape[0] * shape[1]
        return cls(
            decks=decks.to_numpy().astype(np.int64),
            counts=np.bincount(cell, minlength=size).astype(np.float64).reshape(shape),
            sums=np.bincount(cell, score, size).astype(np.float64).reshape(shape),
            reference=deck_rows.index(tuple(reference)),
            row_setup=setup,
            row_deck=deck,
            row_score=score,
        )

    @property
    def n_setups(self) -> int:
        """G, the number of setups (clusters)."""
        return int(self.counts.shape[0])

    def _normal_equations(
        self, weights: FloatArray | None
    ) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
        w = np.ones(self.n_setups) if weights is None else weights
        m = self.counts.sum(1)
        n = w @ self.counts
        scaled = self.counts * (w / m)[:, None]
        a = np.diag(n) - scaled.T @ self.counts
        b = w @ self.sums - scaled.T @ self.sums.sum(1)
        keep = n > 0
        keep[self.reference] = False
        return a, b, keep

    def solve(self, weights: FloatArray | None = None) -> FloatArray:
        """Deck effects against the reference (0), NaN for decks not played.

        Raises ``ValueError`` when the played decks are not all linked to the
        reference through shared setups (their effects are not identified).
        """
        a, b, keep = self._normal_equations(weights)
        beta = np.full(self.decks.shape[0], np.nan)
        beta[self.reference] = 0.0
        try:
            beta[keep] = np.linalg.solve(a[np.ix_(keep, keep)], b[keep])
        except np.linalg.LinAlgError as error:
            raise ValueError(
                "some deck compositions share no setup with the others, so their "
                "effects are not identified: play each setup under several decks"
            ) from error
        return beta

    def level(self, beta: FloatArray, weights: FloatArray | None = None) -> float:
        """Mean score net of deck effects: an average setup's reference score."""
        w = np.ones(self.n_setups) if weights is None else weights
        row_w = w[self.row_setup]
        net = self.row_score - np.nan_to_num(beta)[self.row_deck]
        return float(row_w @ net / row_w.sum())

    def _influence(self, beta: FloatArray) -> tuple[FloatArray, float]:
        """Each setup's pull on the effects (G x D, reference 0), CR1 factor.

        The effects' error is ``sum_g (A^-1 r_g)`` with ``r_g`` the setup's
        per-deck residual sums (within-setup residuals sum to 0 per setup).
        """
        a, _, keep = self._normal_equations(None)
        b = np.nan_to_num(beta)
        m = self.counts.sum(1)
        setup_mean = self.sums.sum(1) / m
        fitted_mean = (self.counts @ b) / m
        resid = (
            self.row_score
            - setup_mean[self.row_setup]
            - (b[self.row_deck] - fitted_mean[self.row_setup])
        )
        g, d = self.counts.shape
        cell = self.row_setup * d + self.row_deck
        scores = np.bincount(cell, resid, g * d).reshape(g, d)[:, keep]
        influence = np.zeros((g, d))
        influence[:, keep] = scores @ np.linalg.inv(a[np.ix_(keep, keep)])
        n_rows, k = self.row_score.size, int(keep.sum())
        factor = g / (g - 1) * (n_rows - 1) / max(n_rows - k, 1) if g > 1 else np.nan
        return influence, factor

    def covariance(self, beta: FloatArray) -> FloatArray:
        """CR1 covariance of the effects, setups as clusters (reference row 0)."""
        influence, factor = self._influence(beta)
        return np.asarray(factor * influence.T @ influence, np.float64)

    def mean_covariance(self, beta: FloatArray) -> FloatArray:
        """CR1 covariance of the composition means ``level + effect``.

        ``mean = ybar + (I - 1 n' / N) effect`` with ``n`` the games per deck,
        so a setup's pull on the means adds its pull on the overall mean
        ``ybar`` to its pull on the effects, net of their game-weighted mean.
        """
        influence, factor = self._influence(beta)
        n = self.counts.sum(0)
        total = n.sum()
        ybar = self.sums.sum() / total
        level_pull = (self.sums.sum(1) - self.counts.sum(1) * ybar) / total
        pull = level_pull[:, None] + influence - (influence @ n / total)[:, None]
        return np.asarray(factor * pull.T @ pull, np.float64)


def deck_effects(
    games: Frame,
    *,
    reference: tuple[int, int, int] = REFERENCE_DECK,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Each deck composition's score effect against ``reference``, within setups.

    Returns
    -------
    polars.DataFrame
        ``deck_green, deck_orange, deck_red, n, setups, effect, se, lower,
        upper, mean, raw_mean``: ``effect`` with its CR1 t interval (G - 1
        degrees of freedom), ``mean`` the composition's mean on an average
        setup (level + effect), ``raw_mean`` the plain mean of its games.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 1, 2, 3], "n_players": [1] * 4,
    ...     "deck_green": [7, 9, 7, 9], "deck_orange": [7, 5, 7, 5],
    ...     "deck_red": [6] * 4, "score": [50, 53, 40, 43]})
    >>> deck_effects(df, group_size=2).select("deck_green", "effect", "mean").rows()
    [(7, 0.0, 45.0), (9, 3.0, 48.0)]
    """
    design = PairedDesign.read(
        games, reference=reference, cluster=cluster, group_size=group_size
    )
    beta = design.solve()
    se = np.sqrt(np.clip(np.diag(design.covariance(beta)), 0, None))
    q = _t_quantile(confidence, design.n_setups - 1)
    n = design.counts.sum(0)
    decks = pl.DataFrame(design.decks, schema=list(DECK_COLUMNS), orient="row")
    return decks.with_columns(
        n=pl.Series(n.astype(np.int64)),
        setups=pl.Series((design.counts > 0).sum(0).astype(np.int64)),
        effect=pl.Series(beta),
        se=pl.Series(se),
        lower=pl.Series(beta - q * se),
        upper=pl.Series(beta + q * se),
        mean=pl.Series(design.level(beta) + beta),
        raw_mean=pl.Series(design.sums.sum(0) / n),
    )


# --------------------------------------------------------------------------------
# Fits on the composition means
# --------------------------------------------------------------------------------


def band_design(
    decks: IntArray, table: TargetTable
) -> tuple[FloatArray, list[tuple[str, str | None]]]:
    """Intercept plus one dummy per colour and band above the first (reference).

    Returns the design and each column's ``(entry, band label)``.
    """
    labels = table.band_labels()
    cols = [np.ones(decks.shape[0])]
    terms: list[tuple[str, str | None]] = [("base", None)]
    for j, colour in enumerate(COLOURS):
        for b, (low, high) in enumerate(table.bands):
            if b:
                in_band = (decks[:, j] >= low) & (decks[:, j] <= high)
                cols.append(in_band.astype(np.float64))
                terms.append((colour, labels[b]))
    return np.column_stack(cols), terms


def formula_design(decks: IntArray) -> tuple[FloatArray, list[tuple[str, str | None]]]:
    """Intercept, green count, red count; and the terms ``base, green, red``."""
    x = np.column_stack([np.ones(decks.shape[0]), decks[:, 0], decks[:, 2]])
    return x.astype(np.float64), [("base", None), ("green", None), ("red", None)]


def target_design(
    decks: IntArray, model: Literal["bands", "formula"], table: TargetTable
) -> tuple[FloatArray, list[tuple[str, str | None]]]:
    """The least-squares design of a target shape over deck compositions."""
    if model == "bands":
        return band_design(decks, table)
    if model == "formula":
        return formula_design(decks)
    raise ValueError(f"model must be 'bands' or 'formula', got {model!r}")


def projection(x: FloatArray, weights: FloatArray) -> FloatArray:
    """``P = (X'WX)^-1 X'W``: coefficients = ``P @ means`` (weighted least squares)."""
    if np.linalg.matrix_rank(x * np.sqrt(weights)[:, None]) < x.shape[1]:
        raise ValueError(
            "the played deck compositions do not identify every term of the target "
            "(some colour band never played, or too few compositions)"
        )
    xw = x * weights[:, None]
    return np.asarray(np.linalg.solve(x.T @ xw, xw.T), np.float64)


def composition_weights(design: PairedDesign, weights: Weights) -> FloatArray:
    """Least-squares weights: each composition once, or by its games."""
    if weights == "equal":
        return np.ones(design.decks.shape[0])
    if weights == "games":
        return np.asarray(design.counts.sum(0), np.float64)
    raise ValueError(f"weights must be 'equal' or 'games', got {weights!r}")


def _fitted(
    games: Frame,
    model: Literal["bands", "formula"],
    table: TargetTable,
    reference: tuple[int, int, int],
    cluster: str | Sequence[str] | None,
    group_size: int,
    weights: Weights,
) -> tuple[PairedDesign, FloatArray, FloatArray, list[tuple[str, str | None]]]:
    """Design, coefficients, their CR1 se, and the terms."""
    design = PairedDesign.read(
        games, reference=reference, cluster=cluster, group_size=group_size
    )
    beta = design.solve()
    x, terms = target_design(design.decks, model, table)
    p = projection(x, composition_weights(design, weights))
    coef = p @ (design.level(beta) + beta)
    # clipped: an exact fit's variance may round to a tiny negative number
    se = np.sqrt(np.clip(np.diag(p @ design.mean_covariance(beta) @ p.T), 0, None))
    return design, coef, se, terms


def fit_bands(
    games: Frame,
    *,
    table: TargetTable | None = None,
    reference: tuple[int, int, int] = REFERENCE_DECK,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    weights: Weights = "equal",
    step: float = 1.0,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """The banded table refitted to the composition means (least squares).

    ``base`` is the fitted score of a deck in every colour's first band (so the
    table aims at the mean score: about half the games reach it); use
    :func:`~pu_sim.analysis.solo_fairness.with_success` to move the base to
    another difficulty.  ``recalibrated`` is each entry rounded to ``step``.

    Returns
    -------
    polars.DataFrame
        ``entry, band, low, high, published, estimate, se, lower, upper,
        recalibrated``, one row per base and colour band (first bands are 0 by
        construction), as :func:`~pu_sim.analysis.calibration.table_from_frame`
        reads it.
    """
    table = table or TargetTable.published()
    design, coef, se, terms = _fitted(
        games, "bands", table, reference, cluster, group_size, weights
    )
    q = _t_quantile(confidence, design.n_setups - 1)
    labels = table.band_labels()
    index = {term: i for i, term in enumerate(terms)}
    rows: list[dict[str, object]] = [
        {"entry": "base", "band": None, "low": None, "high": None,
         "published": table.base, "estimate": coef[0], "se": se[0]},
    ]  # fmt: skip
    for colour in COLOURS:
        for b, (low, high) in enumerate(table.bands):
            i = index.get((colour, labels[b]))
            rows.append(
                {"entry": colour, "band": labels[b], "low": low, "high": high,
                 "published": table.adjustments[colour][b],
                 "estimate": 0.0 if i is None else coef[i],
                 "se": 0.0 if i is None else se[i]}
            )  # fmt: skip
    out = pl.DataFrame(rows, schema=_FIT_SCHEMA)
    return out.with_columns(
        lower=pl.col("estimate") - q * pl.col("se"),
        upper=pl.col("estimate") + q * pl.col("se"),
        recalibrated=pl.Series(round_to_step(out["estimate"].to_numpy(), step)),
    )


def round_to_step(x: npt.ArrayLike, step: float) -> FloatArray:
    """Round to a multiple of ``step``, halves up (as a printed table would)."""
    if not step > 0:
        raise ValueError(f"step must be positive, got {step}")
    return np.asarray(np.floor(np.asarray(x, np.float64) / step + 0.5) * step)


def _t_quantile(confidence: float, df: int) -> float:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(sps.t.ppf(0.5 + confidence / 2.0, df)) if df > 0 else math.nan


_FIT_SCHEMA = {
    "entry": pl.String, "band": pl.String, "low": pl.Int64, "high": pl.Int64,
    "published": pl.Float64, "estimate": pl.Float64, "se": pl.Float64,
}  # fmt: skip


def fit_formula(
    games: Frame,
    *,
    reference: tuple[int, int, int] = REFERENCE_DECK,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    weights: Weights = "equal",
    confidence: float = 0.95,
) -> pl.DataFrame:
    """The per-card formula ``base + a_green * green + a_red * red``, fitted.

    Returns
    -------
    polars.DataFrame
        ``term`` (base, green, red), ``estimate, se, lower, upper``;
        :meth:`CardFormula.from_fit` makes the target rule.

    Examples
    --------
    >>> import polars as pl
    >>> decks = [(7, 7, 6), (10, 4, 6), (7, 5, 8)]
    >>> df = pl.DataFrame([(s * 3 + i, 1, *d, 40 + 10 * s + 1.2 * d[0] - 0.5 * d[2])
    ...     for s in range(3) for i, d in enumerate(decks)], orient="row",
    ...     schema=["game_id", "n_players", *DECK_COLUMNS, "score"])
    >>> fit = fit_formula(df, group_size=3)
    >>> [round(v, 6) for v in fit["estimate"]]
    [50.0, 1.2, -0.5]
    """
    design, coef, se, _ = _fitted(
        games, "formula", TargetTable.published(), reference, cluster, group_size,
        weights,
    )  # fmt: skip
    q = _t_quantile(confidence, design.n_setups - 1)
    return pl.DataFrame(
        {"term": ["base", "green", "red"], "estimate": coef, "se": se,
         "lower": coef - q * se, "upper": coef + q * se}
    )  # fmt: skip


def target_values(target: Target, decks: IntArray) -> FloatArray:
    """The targets of deck compositions (rows of green, orange, red)."""
    return np.array([target.target(int(g), int(o), int(r)) for g, o, r in decks])


def target_misfit(
    games: Frame,
    *,
    targets: Sequence[Target],
    reference: tuple[int, int, int] = REFERENCE_DECK,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
) -> pl.DataFrame:
    """How far the composition means stray from each target's shape, in points.

    ``gap = mean - target`` per composition; a target of the right shape
    leaves the gaps flat (one difficulty for every deck).  ``raw_sd`` is the
    gaps' standard deviation over compositions, ``noise_sd`` the part the
    estimates' own sampling error explains (the expected variance over
    compositions of correlated errors with the effects' CR1 covariance ``C``:
    ``(trace(C) - sum(C) / D) / (D - 1)``), and ``misfit_sd`` the rest:
    ``sqrt(max(0, raw^2 - noise^2))``.

    Returns
    -------
    polars.DataFrame
        ``target, compositions, mean_gap, raw_sd, noise_sd, misfit_sd``.
    """
    design = PairedDesign.read(
        games, reference=reference, cluster=cluster, group_size=group_size
    )
    beta = design.solve()
    means = design.level(beta) + beta
    cov = design.covariance(beta)
    d = cov.shape[0]
    noise = float((np.trace(cov) - cov.sum() / d) / (d - 1)) if d > 1 else math.nan
    rows = []
    for target in targets:
        gap = means - target_values(target, design.decks)
        raw = float(np.var(gap, ddof=1))
        misfit = math.sqrt(max(0.0, raw - noise))
        rows.append(
            {"target": target.label, "compositions": gap.size,
             "mean_gap": float(gap.mean()), "raw_sd": math.sqrt(raw),
             "noise_sd": math.sqrt(noise), "misfit_sd": misfit}
        )  # fmt: skip
    return pl.DataFrame(rows)


__all__ = [
    "REFERENCE_DECK",
    "CardFormula",
    "PairedDesign",
    "Target",
    "band_design",
    "composition_weights",
    "deck_effects",
    "fit_bands",
    "fit_formula",
    "formula_design",
    "projection",
    "round_to_step",
    "target_design",
    "target_misfit",
    "target_values",
]
