"""Skill depth from mixed-skill tables: whether skill pays more with some boards.

Tables where every seat plays the same bot cannot measure skill: when the
player improves, so do the opponents (at 4 players every board scored lower
under the stronger of two bots).  So skill is measured as the Tabletop Games
balancing competition does, at tables that mix two levels: one *stronger*
seat among weaker ones, and the reverse, one *weaker* seat among stronger
ones.  For each board X (a corporation or a planet) at each player count:

* ``strong_rate``: the win rate of the lone stronger seat holding X;
* ``weak_rate``: the win rate of the lone weaker seat holding X;
* ``gap = strong_rate - weak_rate``: how much X's outcome depends on who
  plays it, in percentage points (what a designer reads);
* ``odds_ratio``: the lone stronger seat's odds of winning with X over the
  lone weaker seat's.  On the odds scale a board's own strength adds to both
  seats alike and cancels (in points it does not quite: a board that lifts a
  seat towards even odds widens any gap), so the question is asked there;
* ``excess_ratio``: X's odds ratio over the geometric mean of the count's
  boards' (each weighted alike): above 1 where skill pays more with X.

At 2 players a table of one stronger and one weaker seat is both kinds of
table at once, so both seats count.  Estimates are cell means of one least
squares fit per player count (cells: level x board), with CR1 cluster-robust
covariance over setups (a setup is replayed with the odd seat at every
position and the boards rotated) and Student's t with G - 1 degrees of
freedom, by statsmodels; the odds ratios' intervals by the delta method on
that covariance (statsmodels tests linear contrasts only).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
import statsmodels.api as sm
from scipy import stats as sps

from pu_sim.analysis import stats
from pu_sim.analysis.cluster_stats import dense_codes, t_limits
from pu_sim.analysis.clusters import WIN_SHARE, cluster_key, value_expr
from pu_sim.analysis.frame import Frame, game_keys
from pu_sim.analysis.replication import (
    MIN_HALF_SETUPS,
    confirmed,
    one_sided,
    setups_per_count,
    split_halves,
)

__all__ = ["gap_spread", "lone_seats", "mixed_skill", "skill_findings", "skill_order"]

LEVELS = ("strong", "weak")
"""The lone seat's level: the stronger bot among weaker ones, or the reverse."""


def lone_seats(games: Frame, strong: str, weak: str) -> pl.DataFrame:
    """The seats that are their game's only seat of their bot, in two-bot games.

    Adds ``level`` ("strong" for the lone ``strong`` bot, "weak" for the lone
    ``weak`` one) and ``win_share`` (1 for a sole winner, 1/k for k tied).
    """
    frame = games.lazy().collect()
    keys = game_keys(frame)
    bot = pl.col("bot").cast(pl.String)
    both = frame.filter(bot.is_in([strong, weak]).all().over(keys))
    return (
        both.with_columns(
            _copies=pl.len().over([*keys, bot]),
            win_share=value_expr(WIN_SHARE, keys),
            level=pl.when(bot == strong)
            .then(pl.lit("strong"))
            .otherwise(pl.lit("weak")),
        )
        .filter((pl.col("_copies") == 1) & (bot.n_unique().over(keys) == 2))
        .drop("_copies")
    )


def skill_order(games: Frame, bots: Sequence[str]) -> tuple[str, str]:
    """(stronger, weaker) of two bots by their lone seats' pooled win share.

    For mixed tables of a study without a declared ladder: the bot whose lone
    seats win a larger share (over its fair share 1/n) is the stronger.
    """
    a, b = bots
    seats = lone_seats(games, a, b)
    edge = seats.select(
        (pl.col("win_share") - 1.0 / pl.col("n_players")).alias("edge"), "level"
    )
    means = {
        level: float(edge.filter(pl.col("level") == level)["edge"].mean() or 0.0)  # type: ignore[arg-type]
        for level in LEVELS
    }
    return (a, b) if means["strong"] >= means["weak"] else (b, a)


def mixed_skill(
    games: Frame,
    *,
    strong: str,
    weak: str,
    by: str = "corporation",
    cluster: str | Sequence[str] | None = "group",
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Each board's win rates as the lone stronger and weaker seat, and the gap.

    Returns
    -------
    polars.DataFrame
        One row per player count and board: ``n_players, {by}, n_strong,
        n_weak, strong_rate, weak_rate, gap, odds_ratio, excess_ratio`` each
        rate, gap and ratio with its ``_lower``/``_upper`` limits, then
        ``p_value`` (two-sided t test of ``excess_ratio = 1``, unadjusted:
        the caller names the family) and ``clusters``.  A board missing
        either level at a count is left out of that count.
    """
    parts = [
        fitted.table(by, confidence).with_columns(n_players=pl.lit(n_players))
        for n_players, fitted in _fits(games, strong, weak, by, cluster)
    ]
    if not parts:
        return _empty(by)
    out = pl.concat(parts).select("n_players", pl.all().exclude("n_players"))
    return out.with_columns(pl.col(by).cast(games.lazy().collect_schema()[by]))


def skill_findings(
    games: Frame,
    *,
    strong: str,
    weak: str,
    by: str = "corporation",
    cluster: str | Sequence[str] = "group",
    confidence: float = 0.95,
) -> pl.DataFrame:
    """:func:`mixed_skill` on every setup, each finding checked on two halves.

    One question, one family: "does skill pay more or less with this board?"
    over every board and player count of the table (Holm, ``p_adjusted``).  A
    finding is ``declared`` on one half of the setups (Holm over the family)
    and ``replicated`` when the other half confirms it in the same direction
    (one-sided, Holm over the declared ones); ``excess_conf`` is the
    confirming half's excess ratio, the size to quote.  ``replicable`` is
    False when a half has fewer than :data:`MIN_HALF_SETUPS` setups at some
    count (then nothing is declared).
    """
    table = mixed_skill(
        games, strong=strong, weak=weak, by=by, cluster=cluster, confidence=confidence
    )
    table = table.with_columns(
        p_adjusted=pl.Series(stats.holm(table["p_value"].to_numpy()), dtype=pl.Float64)
    )
    keys = ["n_players", by]
    halves = split_halves(games, cluster=cluster)
    seats = [lone_seats(h, strong, weak) for h in halves]
    enough = all(
        s.height and setups_per_count(s, cluster, 1) >= MIN_HALF_SETUPS for s in seats
    )
    if not enough:
        return table.with_columns(
            excess_conf=pl.lit(None, pl.Float64), declared=pl.lit(False),
            replicated=pl.lit(False), replicable=pl.lit(False),
        )  # fmt: skip
    found, check = (
        mixed_skill(h, strong=strong, weak=weak, by=by, cluster=cluster) for h in halves
    )
    both = found.select(
        *keys, "excess_ratio",
        p_found=pl.Series(stats.holm(found["p_value"].to_numpy())),
    ).join(
        check.select(*keys, excess_conf="excess_ratio", p_check="p_value"),
        on=keys, how="left", maintain_order="left",
    )  # fmt: skip
    declared = (both["p_found"] < 1.0 - confidence).to_numpy()
    p_one = one_sided(
        np.log(both["excess_conf"].to_numpy()), both["p_check"].to_numpy(),
        np.sign(np.log(both["excess_ratio"].to_numpy())),
    )  # fmt: skip
    verdict = both.select(
        *keys, "excess_conf", declared=pl.Series(declared),
        replicated=pl.Series(confirmed(p_one, declared, 1.0 - confidence)),
    )  # fmt: skip
    return table.join(verdict, on=keys, how="left", maintain_order="left").with_columns(
        pl.col("declared", "replicated").fill_null(False), replicable=pl.lit(True)
    )


def gap_spread(
    games: Frame,
    *,
    strong: str,
    weak: str,
    by: str = "corporation",
    cluster: str | Sequence[str] | None = "group",
) -> pl.DataFrame:
    """Whether skill pays alike with every board: one Wald test per count.

    H0: every board's odds ratio is the same.  A joint F test of the ``k - 1``
    differences on the cluster-robust covariance, so the boards' shared
    games are accounted for (a heterogeneity test over separately estimated
    gaps, such as Cochran's Q, would treat them as independent).

    Returns
    -------
    polars.DataFrame
        ``n_players, boards, min_gap, max_gap, mean_gap`` (gaps in win rate),
        ``f, df_num, df_denom, p_value``.
    """
    rows = []
    for n_players, fitted in _fits(games, strong, weak, by, cluster):
        k = len(fitted.boards)
        log_ratio, cov = fitted.log_odds()
        step = np.eye(k)[1:] - np.eye(k)[:1]  # every board against the first
        diff = step @ log_ratio
        f = float(diff @ np.linalg.solve(step @ cov @ step.T, diff)) / (k - 1)
        gaps = fitted.gaps()
        rows.append({
            "n_players": n_players, "boards": k, "min_gap": float(gaps.min()),
            "max_gap": float(gaps.max()), "mean_gap": float(gaps.mean()),
            "f": f, "df_num": float(k - 1), "df_denom": fitted.df,
            "p_value": float(sps.f.sf(f, k - 1, fitted.df)),
        })  # fmt: skip
    return pl.DataFrame(rows)


@dataclass(frozen=True)
class _CountFit:
    """The cell-mean fit of one player count: cells (level, board), strong first."""

    boards: list[str]
    n: npt.NDArray[np.float64]  # lone seats per cell
    fit: Any  # statsmodels' results, cluster-robust over setups

    @property
    def df(self) -> float:
        """Degrees of freedom of every test: setups - 1."""
        return float(self.fit.df_resid_inference)

    def picks(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Rows picking each board's strong rate, and its weak rate."""
        eye = np.eye(len(self.boards))
        return np.hstack([eye, 0 * eye]), np.hstack([0 * eye, eye])

    def gaps(self) -> npt.NDArray[np.float64]:
        """Each board's strong rate minus its weak rate."""
        strong, weak = self.picks()
        return np.asarray((strong - weak) @ self.fit.params, dtype=np.float64)

    def log_odds(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each board's log odds ratio (strong over weak) and their covariance.

        The delta method on the cluster-robust covariance.  A rate of 0 or 1
        (a board that always or never won) is moved half a game inwards
        (``(n r + 1/2) / (n + 1)``), so its log odds stay finite.
        """
        k = len(self.boards)
        rate = (np.asarray(self.fit.params) * self.n + 0.5) / (self.n + 1.0)
        slope = 1.0 / (rate * (1.0 - rate))
        jac = np.hstack([np.diag(slope[:k]), -np.diag(slope[k:])])
        logit = np.log(rate / (1.0 - rate))
        return logit[:k] - logit[k:], jac @ np.asarray(self.fit.cov_params()) @ jac.T

    def table(self, by: str, confidence: float) -> pl.DataFrame:
        """One row per board: rates, gap, odds ratio and excess, with limits."""
        k = len(self.boards)
        columns: dict[str, npt.ArrayLike] = {}
        strong, weak = self.picks()
        for name, pick in (("strong", strong), ("weak", weak), ("gap", strong - weak)):
            test = self.fit.t_test(pick)
            low, high = np.asarray(test.conf_int(alpha=1.0 - confidence)).T
            columns["gap" if name == "gap" else f"{name}_rate"] = np.ravel(test.effect)
            if name != "gap":  # a rate's interval stays inside [0, 1]
                low, high = np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)
            columns[f"{name}_lower"], columns[f"{name}_upper"] = low, high
        log_ratio, cov = self.log_odds()
        centred = np.eye(k) - np.full((k, k), 1.0 / k)
        df = np.full(k, self.df)
        for name, est, var in (
            ("odds_ratio", log_ratio, cov),
            ("excess_ratio", centred @ log_ratio, centred @ cov @ centred.T),
        ):
            low, high, p = t_limits(est, np.sqrt(np.diag(var)), df, confidence)
            columns[name] = np.exp(est)
            columns[f"{name}_lower"] = np.exp(low)
            columns[f"{name}_upper"] = np.exp(high)
        columns["p_value"] = p
        return pl.DataFrame({
            by: self.boards, "n_strong": self.n[:k].astype(np.int64),
            "n_weak": self.n[k:].astype(np.int64), **columns,
            "clusters": np.full(k, int(self.df) + 1),
        })  # fmt: skip


def _fits(
    games: Frame, strong: str, weak: str, by: str, cluster: str | Sequence[str] | None
) -> list[tuple[int, _CountFit]]:
    """The fit of every player count that has two boards and three setups."""
    seats = lone_seats(games, strong, weak)
    if seats.height == 0:
        return []
    key, _ = cluster_key(seats.columns, cluster, 1)
    seats = seats.with_columns(_cluster=key, _board=pl.col(by).cast(pl.String))
    out = []
    for (n_players,), part in seats.partition_by("n_players", as_dict=True).items():
        fitted = _fit(part)
        if fitted is not None:
            out.append((int(n_players), fitted))
    return sorted(out, key=lambda kv: kv[0])


def _fit(part: pl.DataFrame) -> _CountFit | None:
    """Least squares of the win share on the cells (boards lacking a level out)."""
    cells = part.group_by("_board", "level").len()
    complete = cells.group_by("_board").agg(pl.col("level").n_unique() == 2)
    boards = sorted(complete.filter(pl.col("level"))["_board"].to_list())
    part = part.filter(pl.col("_board").is_in(boards))
    clusters = dense_codes(part["_cluster"])
    if len(boards) < 2 or (int(clusters.max()) + 1 if part.height else 0) < 3:
        return None
    index = {b: i for i, b in enumerate(boards)}
    column = part["_board"].replace_strict(index, return_dtype=pl.Int64).to_numpy()
    column = column + np.where(part["level"].to_numpy() == "weak", len(boards), 0)
    x = np.zeros((part.height, 2 * len(boards)))
    x[np.arange(part.height), column] = 1.0
    fit = sm.OLS(part["win_share"].to_numpy(), x).fit(
        cov_type="cluster", cov_kwds={"groups": clusters}, use_t=True
    )
    return _CountFit(boards, x.sum(axis=0), fit)


def _empty(by: str) -> pl.DataFrame:
    names = ["strong_rate", "strong_lower", "strong_upper", "weak_rate",
             "weak_lower", "weak_upper"]  # fmt: skip
    names += [f"{v}{s}" for v in ("gap", "odds_ratio", "excess_ratio")
              for s in ("", "_lower", "_upper")]  # fmt: skip
    return pl.DataFrame(
        schema={
            "n_players": pl.Int64,
            by: pl.String,
            "n_strong": pl.Int64,
            "n_weak": pl.Int64,
            **dict.fromkeys([*names, "p_value"], pl.Float64),
            "clusters": pl.Int64,
        }
    )
