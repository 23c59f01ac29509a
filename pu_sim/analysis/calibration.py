"""Solo target-score calibration: whether the event-deck table sets fair targets.

In solo play the target score is 60 plus one adjustment per event colour,
chosen by how many cards of that colour the 20-card deck holds (rules 10.2):
red (harmful) cards lower the target, green (helpful) ones raise it.  A table
is *calibrated* when the chance of reaching the target is the same whatever
the deck.  This module measures how scores move with the deck composition,
compares that with the published adjustments, and fits a recalibrated table
with the same band structure that equalises the success probability.

Everything here is about one player (``n_players == 1``) and reads the
``deck_green``, ``deck_orange``, ``deck_red`` and ``score`` columns.  Scores
measure the bot that played: a weak bot scores below every target, so absolute
success rates describe the bot, while the *differences* between decks (the
colour effects) are what the table must get right.

The module stays whole past 600 lines on purpose: it is one chain (the table,
the scores by deck, the colour effects fitted in the table's band structure,
the recalibrated table, the outcomes graded under each table), and every link
reads the same :class:`TargetTable` bands and deck classes.

Why long: the target table, its deck classes, the colour
effects, the recalibration and the outcome rows are one model of one table.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl
import scipy.stats as sps
import statsmodels.api as sm

from pu_sim.analysis import stats
from pu_sim.analysis.frame import Frame, collect_columns
from pu_sim.rules.gamedata import GameData, SoloOutcomeBand

COLOURS = ("green", "orange", "red")
DECK_COLUMNS = ("deck_green", "deck_orange", "deck_red")
DECK_SIZE = 20


# --------------------------------------------------------------------------------
# The target table
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetTable:
    """A solo target table: base plus one adjustment per colour and count band.

    Parameters
    ----------
    base
        Target before adjustments (the rulebook's 60).
    bands
        Inclusive ``(low, high)`` card-count ranges, the same for every colour.
    adjustments
        Colour -> one adjustment per band.
    label
        Name used in reports (``"published"``, ``"recalibrated"``).

    Examples
    --------
    >>> table = TargetTable.published()
    >>> table.target(green=9, orange=3, red=8)
    58.0
    """

    base: float
    bands: tuple[tuple[int, int], ...]
    adjustments: Mapping[str, tuple[float, ...]]
    label: str = "published"

    def __post_init__(self) -> None:
        if set(self.adjustments) != set(COLOURS):
            raise ValueError(f"adjustments need the colours {COLOURS}")
        for colour, values in self.adjustments.items():
            if len(values) != len(self.bands):
                raise ValueError(
                    f"{colour}: {len(values)} adjustments for {len(self.bands)} bands"
                )
        frozen = MappingProxyType({c: tuple(self.adjustments[c]) for c in COLOURS})
        object.__setattr__(self, "adjustments", frozen)

    @classmethod
    def published(cls, data: GameData | None = None) -> TargetTable:
        """The rulebook's table (``pu_sim/data/events.toml``)."""
        if data is None:
            from pu_sim.rules.loading import load_game_data

            data = load_game_data()
        return cls(
            base=float(data.solo_target_base),
            bands=tuple(tuple(b) for b in data.solo_target_bands),  # type: ignore[misc]
            adjustments={
                c: tuple(float(v) for v in data.solo_target_adjustments[c])
                for c in COLOURS
            },
        )

    def band_of(self, count: int) -> int:
        """Index of the band holding ``count`` cards."""
        for i, (low, high) in enumerate(self.bands):
            if low <= count <= high:
                return i
        raise ValueError(f"no band holds {count} cards")

    def band_labels(self) -> list[str]:
        """Band names as printed: ``"0-2"``, ..., ``"15+"``."""
        out = [f"{low}-{high}" for low, high in self.bands]
        if self.bands[-1][1] >= DECK_SIZE:
            out[-1] = f"{self.bands[-1][0]}+"
        return out

    def target(self, green: int, orange: int, red: int) -> float:
        """The target of one deck composition."""
        total = self.base
        for colour, count in zip(COLOURS, (green, orange, red), strict=True):
            total += self.adjustments[colour][self.band_of(count)]
        return total

    def expr(self) -> pl.Expr:
        """Polars expression of the target from the ``deck_*`` columns."""
        total: pl.Expr = pl.lit(self.base, pl.Float64)
        for colour, column in zip(COLOURS, DECK_COLUMNS, strict=True):
            term: pl.Expr = pl.lit(math.nan, pl.Float64)
            for (low, high), value in zip(
                self.bands, self.adjustments[colour], strict=True
            ):
                term = (
                    pl.when(pl.col(column).is_between(low, high))
                    .then(pl.lit(value, pl.Float64))
                    .otherwise(term)
                )
            total = total + term
        return total

    def to_frame(self) -> pl.DataFrame:
        """Long format: ``entry`` ("base" or a colour), band, low, high, value."""
        labels = self.band_labels()
        rows: list[dict[str, object]] = [
            {"entry": "base", "band": None, "low": None, "high": None,
             "value": self.base},
        ]  # fmt: skip
        for colour in COLOURS:
            for i, (low, high) in enumerate(self.bands):
                rows.append(
                    {"entry": colour, "band": labels[i], "low": low, "high": high,
                     "value": self.adjustments[colour][i]}
                )  # fmt: skip
        return pl.DataFrame(rows, schema=_TABLE_SCHEMA)


_TABLE_SCHEMA = {
    "entry": pl.String, "band": pl.String, "low": pl.Int64, "high": pl.Int64,
    "value": pl.Float64,
}  # fmt: skip


def outcome_bands(data: GameData | None = None) -> tuple[SoloOutcomeBand, ...]:
    """The rulebook's outcome rows by ``score - target`` (worst first)."""
    if data is None:
        from pu_sim.rules.loading import load_game_data

        data = load_game_data()
    return data.solo_outcome_bands


def _band_expr(margin: pl.Expr, bands: Sequence[SoloOutcomeBand]) -> pl.Expr:
    """The outcome row label of a margin."""
    out: pl.Expr = pl.lit(None, pl.String)
    for band in bands:
        low = band.min_diff if band.min_diff is not None else -(10**6)
        high = band.max_diff if band.max_diff is not None else 10**6
        out = (
            pl.when(margin.is_between(low, high)).then(pl.lit(band.row)).otherwise(out)
        )
    return out.cast(pl.Enum([b.row for b in bands]))


# --------------------------------------------------------------------------------
# Descriptives by deck
# --------------------------------------------------------------------------------


def _groups(
    df: pl.DataFrame, by: Sequence[str]
) -> list[tuple[tuple[object, ...], pl.DataFrame]]:
    """``(key, part)`` per group of ``by`` (one group when ``by`` is empty)."""
    if not by:
        return [((), df)]
    parts = df.partition_by(list(by), as_dict=True, maintain_order=True)
    return sorted(parts.items(), key=lambda kv: str(kv[0]))


def _solo(games: Frame, extra: Sequence[str]) -> pl.DataFrame:
    """Solo rows with the deck counts and the requested columns."""
    cols = ["n_players", "score", *DECK_COLUMNS, *extra]
    df = collect_columns(games, cols).filter(pl.col("n_players") == 1)
    bad = df.filter(pl.sum_horizontal(*DECK_COLUMNS) != DECK_SIZE)
    if bad.height:
        raise ValueError(
            f"{bad.height} solo rows have no 20-card event deck (deck columns do not "
            "sum to 20): calibration needs games played with the event deck"
        )
    return df


def deck_classes(table: TargetTable | None = None) -> list[pl.Expr]:
    """Band label columns ``band_green``, ``band_orange``, ``band_red``."""
    table = table or TargetTable.published()
    labels = table.band_labels()
    out = []
    for colour, column in zip(COLOURS, DECK_COLUMNS, strict=True):
        expr: pl.Expr = pl.lit(None, pl.String)
        for (low, high), label in zip(table.bands, labels, strict=True):
            expr = (
                pl.when(pl.col(column).is_between(low, high))
                .then(pl.lit(label))
                .otherwise(expr)
            )
        out.append(expr.cast(pl.Enum(labels)).alias(f"band_{colour}"))
    return out


def deck_summary(
    games: Frame,
    *,
    by: Sequence[str] = (),
    level: Literal["composition", "bands"] = "composition",
    table: TargetTable | None = None,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Scores, targets and success per deck composition (or per band class).

    ``level="composition"`` groups by the exact ``(green, orange, red)``
    counts; ``"bands"`` by the table's band of each colour, the finest
    distinction a band table can make.  Success is ``score >= target`` under
    ``table`` (default: published), with a Wilson interval; ``mean_margin``
    is the mean of ``score - target`` with a t interval.  If the table were
    calibrated, success and mean margin would be flat across rows.

    Returns
    -------
    polars.DataFrame
        ``*by, <deck keys>, n, mean, sd, lower, upper, target, mean_margin,
        margin_lower, margin_upper, success, success_lower, success_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 4, "score": [50, 60, 40, 44],
    ...     "deck_green": [7, 7, 0, 0], "deck_orange": [7, 7, 10, 10],
    ...     "deck_red": [6, 6, 10, 10]})
    >>> deck_summary(df).select("deck_red", "mean", "target", "success")
    shape: (2, 4)
    ┌──────────┬──────┬────────┬─────────┐
    │ deck_red ┆ mean ┆ target ┆ success │
    │ ---      ┆ ---  ┆ ---    ┆ ---     │
    │ i64      ┆ f64  ┆ f64    ┆ f64     │
    ╞══════════╪══════╪════════╪═════════╡
    │ 10       ┆ 42.0 ┆ 51.0   ┆ 0.0     │
    │ 6        ┆ 55.0 ┆ 59.0   ┆ 0.5     │
    └──────────┴──────┴────────┴─────────┘
    """
    table = table or TargetTable.published()
    df = (
        _solo(games, by)
        .with_columns(*deck_classes(table), _target=table.expr())
        .with_columns(
            _margin=pl.col("score").cast(pl.Float64) - pl.col("_target"),
            _success=pl.col("score").cast(pl.Float64) >= pl.col("_target"),
        )
    )
    if level == "composition":
        deck_keys = list(DECK_COLUMNS)
    elif level == "bands":
        deck_keys = [f"band_{c}" for c in COLOURS]
    else:
        raise ValueError(f"level must be 'composition' or 'bands', got {level!r}")
    keys = [*by, *deck_keys]
    out = (
        df.group_by(keys)
        .agg(
            n=pl.len().cast(pl.Int64),
            mean=pl.col("score").cast(pl.Float64).mean(),
            sd=pl.col("score").cast(pl.Float64).std(),
            target=pl.col("_target").mean(),
            mean_margin=pl.col("_margin").mean(),
            _margin_sd=pl.col("_margin").std(),
            _wins=pl.col("_success").sum().cast(pl.Int64),
        )
        .sort(keys)
    )
    n = out["n"].to_numpy()
    lo, hi = stats.mean_interval(
        out["mean"].to_numpy(), out["sd"].to_numpy(), n, confidence
    )
    mlo, mhi = stats.mean_interval(
        out["mean_margin"].to_numpy(), out["_margin_sd"].to_numpy(), n, confidence
    )
    wins = out["_wins"].to_numpy()
    slo, shi = stats.wilson_interval(wins, n, confidence)
    return out.select(
        *keys,
        "n",
        "mean",
        "sd",
        lower=pl.Series(lo),
        upper=pl.Series(hi),
        target=pl.col("target"),
        mean_margin=pl.col("mean_margin"),
        margin_lower=pl.Series(mlo),
        margin_upper=pl.Series(mhi),
        success=pl.Series(wins / n),
        success_lower=pl.Series(slo),
        success_upper=pl.Series(shi),
    )


# --------------------------------------------------------------------------------
# Colour effects: regression of score on the deck
# --------------------------------------------------------------------------------


def _design(
    df: pl.DataFrame, model: Literal["linear", "bands"], table: TargetTable
) -> tuple[npt.NDArray[np.float64], list[str], list[str], list[int]]:
    """Design matrix, term names, colours and band index of each column."""
    counts = df.select(DECK_COLUMNS).to_numpy().astype(np.float64)
    if model == "linear":
        # Orange is the reference: counts sum to 20, so one colour is implied.
        x = np.column_stack([np.ones(df.height), counts[:, 0], counts[:, 2]])
        return x, ["intercept", "green", "red"], ["", "green", "red"], [-1, -1, -1]
    if model != "bands":
        raise ValueError(f"model must be 'linear' or 'bands', got {model!r}")
    labels = table.band_labels()
    cols = [np.ones(df.height)]
    names, colours, bands = ["intercept"], [""], [-1]
    for j, colour in enumerate(COLOURS):
        for b, (low, high) in enumerate(table.bands):
            if b == 0:
                continue  # band 0 is the reference, as in the published table
            cols.append(((counts[:, j] >= low) & (counts[:, j] <= high)).astype(float))
            names.append(f"{colour} {labels[b]}")
            colours.append(colour)
            bands.append(b)
    return np.column_stack(cols), names, colours, bands


def _ols(
    x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], names: Sequence[str]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """OLS coefficients and heteroskedasticity-robust (HC1) standard errors.

    HC1 (statsmodels) because the score's spread may depend on the deck (red events add
    variance); the classic formula would then misstate the intervals.
    """
    n, p = x.shape
    rank = np.linalg.matrix_rank(x)
    if rank < p:
        empty = [names[j] for j in range(p) if not x[:, j].any()]
        hint = f" (never observed: {', '.join(empty)})" if empty else ""
        raise ValueError(
            "the deck compositions in the data do not identify every term of the "
            f"model{hint}; play decks covering every band of every colour "
            "(e.g. event_deck_mix='random') or use model='linear'"
        )
    if n <= p:
        raise ValueError(f"{n} games cannot fit {p} terms")
    fit = sm.OLS(y, x).fit(cov_type="HC1")
    return np.asarray(fit.params, dtype=np.float64), np.asarray(
        fit.bse, dtype=np.float64
    )


def colour_effects(
    games: Frame,
    *,
    model: Literal["linear", "bands"] = "linear",
    by: Sequence[str] = (),
    table: TargetTable | None = None,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """How each event colour moves the score, next to what the table assumes.

    ``"linear"``: ``score = a + b_green * green + b_red * red`` with orange as
    the reference (the counts sum to 20), so ``b_green`` is the effect of
    swapping one orange card for a green one.  ``"bands"``: one term per colour
    and count band beyond the first, the published table's own structure.

    ``published`` is the same term for the published target (for bands, the
    table's value; for the linear model, the target's least-squares slope over
    the same games).  ``drift = estimate - published`` is the term's effect on
    ``score - target``: 0 when the table is calibrated; positive when the
    colour helps the player more than the table charges for it, i.e. decks rich
    in that colour are easier than intended.  Intervals use robust (HC1)
    standard errors.

    Returns
    -------
    polars.DataFrame
        ``*by, term, colour, band, estimate, se, lower, upper, published,
        drift, drift_lower, drift_upper``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 4, "score": [40, 42, 50, 53],
    ...     "deck_green": [0, 0, 10, 10], "deck_orange": [20, 10, 10, 0],
    ...     "deck_red": [0, 10, 0, 10]})
    >>> fit = colour_effects(df)
    >>> [round(v, 2) for v in fit["estimate"].to_list()]
    [39.75, 1.05, 0.25]
    """
    alpha = 1.0 - confidence
    table = table or TargetTable.published()
    df = _solo(games, by).with_columns(_target=table.expr())
    z = stats.normal_quantile(1.0 - alpha / 2.0)
    frames = []
    for key, part in _groups(df, by):
        x, names, colours, bands = _design(part, model, table)
        y = part["score"].to_numpy().astype(np.float64)
        beta, se = _ols(x, y, names)
        if model == "linear":
            target = part["_target"].to_numpy()
            published = np.linalg.lstsq(x, target, rcond=None)[0]
        else:
            published = np.array(
                [table.base]
                + [
                    table.adjustments[c][b]
                    for c, b in zip(colours[1:], bands[1:], strict=True)
                ]
            )
        labels = table.band_labels()
        frame = pl.DataFrame(
            {
                "term": names,
                "colour": colours,
                "band": [labels[b] if b >= 0 else "" for b in bands],
                "estimate": beta,
                "se": se,
                "lower": beta - z * se,
                "upper": beta + z * se,
                "published": published,
                "drift": beta - published,
                "drift_lower": beta - z * se - published,
                "drift_upper": beta + z * se - published,
            }
        )
        for name, value in zip(by, key, strict=True):
            frame = frame.with_columns(pl.lit(value).cast(df.schema[name]).alias(name))
        frames.append(frame.select(*by, *frame.columns[: len(frame.columns) - len(by)]))
    return pl.concat(frames)


# --------------------------------------------------------------------------------
# Recalibration
# --------------------------------------------------------------------------------


def _quantile_regression(
    x: npt.NDArray[np.float64],
    y: npt.NDArray[np.float64],
    tau: float,
    max_iter: int = 500,
    tol: float = 1e-7,
) -> npt.NDArray[np.float64]:
    """Linear quantile regression by MM (Hunter and Lange 2000).

    Each step is a weighted least-squares problem (weights ``1/(eps+|r|)``)
    that majorizes the check loss; ``eps`` is small relative to the score
    scale, so the fit equals the exact quantile regression to well under a
    point.
    """
    eps = 1e-3 * max(float(np.std(y)), 1e-6)
    beta = np.linalg.lstsq(x, y, rcond=None)[0]
    shift = (2.0 * tau - 1.0) * x.sum(axis=0)
    for _ in range(max_iter):
        w = 1.0 / (eps + np.abs(y - x @ beta))
        new = np.linalg.solve((x * w[:, None]).T @ x, (x * w[:, None]).T @ y + shift)
        if np.max(np.abs(new - beta)) < tol:
            return np.asarray(new, dtype=np.float64)
        beta = new
    return np.asarray(beta, dtype=np.float64)


def _base_for(
    scores: npt.NDArray[np.float64], offsets: npt.NDArray[np.float64], success: float
) -> float:
    """The whole-number base whose success rate is closest to ``success``.

    Success is ``score >= base + offset``; ties go to the harder base.
    """
    need = np.sort(scores - offsets)
    candidates = np.unique(np.floor(need))
    rates = 1.0 - np.searchsorted(need, candidates, side="left") / need.size
    best = np.argmin(np.abs(rates - success) - 1e-12 * candidates)
    return float(candidates[best])


def recalibrate(
    games: Frame,
    *,
    success: float | None = None,
    by: Sequence[str] = (),
    method: Literal["mean", "quantile"] = "mean",
    table: TargetTable | None = None,
    integer: bool = True,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """A recalibrated table (same bands) giving one success rate for every deck.

    The per-band adjustments are fitted from the scores (``method="mean"``:
    least squares, a location shift per band; ``"quantile"``: quantile
    regression at ``1 - success``, which equalises the success probability
    directly even when decks change the score's spread), rounded to whole
    points like the published table when ``integer``.  Then the base is the
    whole number whose overall success rate is closest to ``success``: by
    default the rate the published table gives this bot on these decks, so the
    new table is as hard on average but fair across decks.

    Returns
    -------
    polars.DataFrame
        ``*by, entry, band, low, high, published, estimate, lower, upper,
        recalibrated, success``: ``entry`` is ``"base"`` or a colour;
        ``estimate`` is the unrounded fitted adjustment (for the base: the
        unrounded intercept) with its interval (``"mean"`` only).

    Examples
    --------
    >>> import numpy as np, polars as pl
    >>> rng = np.random.default_rng(0)
    >>> green = rng.integers(0, 21, 4000)
    >>> red = (rng.random(4000) * (21 - green)).astype(int)
    >>> score = 50 - 4 * (red >= 3) + rng.integers(-5, 6, 4000)
    >>> df = pl.DataFrame({"n_players": 1, "deck_green": green,
    ...     "deck_orange": 20 - green - red, "deck_red": red, "score": score})
    >>> fit = recalibrate(df, success=0.5)
    >>> fit.filter(entry="red")["recalibrated"].to_list()
    [0.0, -4.0, -4.0, -4.0, -4.0]
    """
    table = table or TargetTable.published()
    df = _solo(games, by).with_columns(_target=table.expr())
    groups = df.partition_by(list(by), as_dict=True, maintain_order=True) if by else {
        (): df
    }  # fmt: skip
    z = stats.normal_quantile(0.5 + confidence / 2.0)
    labels = table.band_labels()
    frames = []
    for key, part in sorted(groups.items(), key=lambda kv: str(kv[0])):
        y = part["score"].to_numpy().astype(np.float64)
        p_star = (
            float(np.mean(y >= part["_target"].to_numpy()))
            if success is None
            else success
        )
        if not 0.0 < p_star < 1.0:
            raise ValueError(
                f"success probability must be in (0, 1), got {p_star} (the published "
                "table's success rate when not given)"
            )
        x, _, colours, bands = _design(part, "bands", table)
        if method == "mean":
            beta, se = _ols(x, y, _design(part, "bands", table)[1])
        elif method == "quantile":
            _ols(x, y, _design(part, "bands", table)[1])  # identifiability check
            beta = _quantile_regression(x, y, 1.0 - p_star)
            se = np.full(beta.shape, np.nan)
        else:
            raise ValueError(f"method must be 'mean' or 'quantile', got {method!r}")
        adj = np.round(beta[1:]) if integer else beta[1:]
        offsets = x[:, 1:] @ adj
        base = (
            _base_for(y, offsets, p_star)
            if integer
            else float(np.quantile(y - offsets, 1.0 - p_star))
        )
        rows: list[dict[str, object]] = [
            {"entry": "base", "band": None, "low": None, "high": None,
             "published": table.base, "estimate": float(beta[0]),
             "lower": float(beta[0] - z * se[0]), "upper": float(beta[0] + z * se[0]),
             "recalibrated": base, "success": p_star},
        ]  # fmt: skip
        index = {(c, b): j for j, (c, b) in enumerate(zip(colours, bands, strict=True))}
        for colour in COLOURS:
            for b, (low, high) in enumerate(table.bands):
                j = index.get((colour, b))
                est = 0.0 if j is None else float(beta[j])
                half = 0.0 if j is None else float(z * se[j])
                rows.append(
                    {"entry": colour, "band": labels[b], "low": low, "high": high,
                     "published": table.adjustments[colour][b], "estimate": est,
                     "lower": est - half, "upper": est + half,
                     "recalibrated": 0.0 if j is None else float(adj[j - 1]),
                     "success": p_star}
                )  # fmt: skip
        frame = pl.DataFrame(rows, schema=_RECAL_SCHEMA)
        for name, value in zip(by, key, strict=True):
            frame = frame.with_columns(pl.lit(value).cast(df.schema[name]).alias(name))
        frames.append(frame.select(*by, *_RECAL_SCHEMA))
    return pl.concat(frames)


_RECAL_SCHEMA = {
    "entry": pl.String, "band": pl.String, "low": pl.Int64, "high": pl.Int64,
    "published": pl.Float64, "estimate": pl.Float64, "lower": pl.Float64,
    "upper": pl.Float64, "recalibrated": pl.Float64, "success": pl.Float64,
}  # fmt: skip


def table_from_frame(
    frame: pl.DataFrame,
    *,
    column: str = "recalibrated",
    label: str = "recalibrated",
    bands: tuple[tuple[int, int], ...] | None = None,
) -> TargetTable:
    """A :class:`TargetTable` from one group of :func:`recalibrate`'s output."""
    base_rows = frame.filter(pl.col("entry") == "base")
    if base_rows.height != 1:
        raise ValueError("the frame must hold exactly one table (filter by group)")
    if bands is None:
        rows = frame.filter(pl.col("entry") == COLOURS[0]).sort("low")
        bands = tuple(zip(rows["low"].to_list(), rows["high"].to_list(), strict=True))
    adjustments = {
        c: tuple(frame.filter(pl.col("entry") == c).sort("low")[column].to_list())
        for c in COLOURS
    }
    return TargetTable(
        base=float(base_rows[column][0]),
        bands=bands,
        adjustments=adjustments,
        label=label,
    )


# --------------------------------------------------------------------------------
# Success and outcome bands under several tables
# --------------------------------------------------------------------------------


def outcomes(
    games: Frame,
    *,
    tables: Sequence[TargetTable],
    by: Sequence[str] = (),
    level: Literal["overall", "bands", "composition"] = "overall",
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Success rate and outcome-row frequencies of the same games under tables.

    The rulebook grades a solo game by ``score - target`` into rows from
    "-15" (critical failure) to "+15"; success is reaching the target.  The
    same games are graded by each table, so differences are the tables'
    alone.  ``level`` splits by deck band class or exact composition; for
    those, ``spread`` in :func:`success_spread` tests whether success is flat.

    Returns
    -------
    polars.DataFrame
        ``table, *by, <deck keys>, n, success, success_lower, success_upper``
        and one share column per outcome row (``"-15"`` ... ``"+15"``).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"n_players": [1] * 4, "score": [48, 59, 65, 80],
    ...     "deck_green": [7] * 4, "deck_orange": [7] * 4, "deck_red": [6] * 4})
    >>> out = outcomes(df, tables=[TargetTable.published()])  # target 59
    >>> out.select("success", "-15", "target", "+5", "+15").row(0)
    (0.75, 0.25, 0.25, 0.25, 0.25)
    """
    bands = outcome_bands()
    row_labels = [b.row for b in bands]
    df = _solo(games, by)
    if level == "overall":
        deck_keys: list[str] = []
    elif level == "bands":
        deck_keys = [f"band_{c}" for c in COLOURS]
        df = df.with_columns(*deck_classes(tables[0] if tables else None))
    elif level == "composition":
        deck_keys = list(DECK_COLUMNS)
    else:
        raise ValueError(
            f"level must be 'overall', 'bands' or 'composition', got {level!r}"
        )
    keys = [*by, *deck_keys]
    frames = []
    for table in tables:
        graded = df.with_columns(
            _margin=pl.col("score").cast(pl.Float64) - table.expr()
        ).with_columns(_row=_band_expr(pl.col("_margin"), bands))
        shares = [(pl.col("_row") == r).mean().alias(r) for r in row_labels]
        agg = graded.group_by(keys or [pl.lit(0).alias("_all")]).agg(
            *shares,
            n=pl.len().cast(pl.Int64),
            _wins=(pl.col("_margin") >= 0).sum().cast(pl.Int64),
        )
        agg = agg.sort(keys) if keys else agg.drop("_all")
        n = agg["n"].to_numpy()
        wins = agg["_wins"].to_numpy()
        lo, hi = stats.wilson_interval(wins, n, confidence)
        agg = agg.with_columns(
            table=pl.lit(table.label),
            success=pl.Series(wins / n),
            success_lower=pl.Series(lo),
            success_upper=pl.Series(hi),
        )
        frames.append(
            agg.select(
                "table",
                *keys,
                "n",
                "success",
                "success_lower",
                "success_upper",
                *row_labels,
            )
        )
    return pl.concat(frames)


def success_spread(per_deck: pl.DataFrame, *, by: Sequence[str] = ()) -> pl.DataFrame:
    """Is success flat across decks?  A chi-square test per table (and group).

    Takes :func:`outcomes` at ``level="bands"`` or ``"composition"`` and tests
    homogeneity of the success rate across its deck rows (2 x K table).  Rows
    with fewer than 20 games are pooled out, since the chi-square approximation
    needs expected counts of a few games.

    Returns
    -------
    polars.DataFrame
        ``table, *by, decks, min_success, max_success, chi2, df, p_value``.

    Examples
    --------
    >>> import polars as pl
    >>> per_deck = pl.DataFrame({"table": ["t", "t"], "n": [100, 100],
    ...     "success": [0.5, 0.5]})
    >>> success_spread(per_deck).select("decks", "chi2", "p_value").row(0)
    (2, 0.0, 1.0)
    """
    rows = []
    keys = ["table", *by]
    for key, part in per_deck.partition_by(
        keys, as_dict=True, maintain_order=True
    ).items():
        part = part.filter(pl.col("n") >= 20)
        n = part["n"].to_numpy().astype(np.float64)
        rates = part["success"].to_numpy()
        wins = rates * n
        total_rate = wins.sum() / n.sum() if n.sum() else math.nan
        # Pearson's chi-square of homogeneity on the decks' 2 x k table of
        # successes and failures (no success or no failure at all: no spread)
        chi2 = (
            float(
                sps.chi2_contingency(
                    np.vstack([wins, n - wins]), correction=False
                ).statistic
            )
            if 0.0 < total_rate < 1.0 and part.height > 1
            else 0.0
        )
        dof = max(part.height - 1, 0)
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "decks": part.height,
                "min_success": float(np.min(rates)) if rates.size else math.nan,
                "max_success": float(np.max(rates)) if rates.size else math.nan,
                "chi2": chi2,
                "df": dof,
                "p_value": stats.chi2_sf(chi2, dof) if dof else math.nan,
            }
        )
    return pl.DataFrame(rows)


def rebase(
    table: TargetTable, games: Frame, *, success: float, label: str
) -> TargetTable:
    """The same adjustments with the base moved to a chosen overall success rate.

    Comparing two tables' fairness across decks is only meaningful at equal
    overall difficulty; this puts the published adjustments at any difficulty
    (e.g. ``success=0.5``: "par" for the bot that played).
    """
    df = _solo(games, [])
    offsets = (df.select(table.expr()).to_series().to_numpy() - table.base).astype(
        float
    )
    base = _base_for(df["score"].to_numpy().astype(float), offsets, success)
    return TargetTable(
        base=base, bands=table.bands, adjustments=table.adjustments, label=label
    )
