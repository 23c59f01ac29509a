"""Strength ratings from finishing orders: Plackett-Luce, Bradley-Terry, Elo.

Unlike raw win rates, a strength model uses the whole finishing order and
accounts for whom each label met; :func:`to_elo` puts its log-strengths on the
Elo scale, :func:`head_to_head` counts who finished ahead of whom.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.cluster_stats import dense_codes
from pu_sim.analysis.clusters import cluster_key
from pu_sim.analysis.frame import (
    Frame,
    collect_columns,
    game_keys,
    label_order,
    significance_level,
)

__all__ = ["ELO_PER_LOG_STRENGTH", "head_to_head", "strength_model", "to_elo"]


def _centre(gamma: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Log-strengths with mean 0 over the labels that have a positive strength."""
    with np.errstate(divide="ignore"):
        log = np.log(gamma)
    finite = np.isfinite(log)
    return np.asarray(log - log[finite].mean(), dtype=np.float64)


def _pl_fit(
    orders: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]],
    k: int,
    start: npt.NDArray[np.float64] | None,
    max_iter: int,
    tol: float,
    prior: float,
) -> npt.NDArray[np.float64]:
    """Hunter's (2004) MM iterations for Plackett-Luce; returns log-strengths.

    ``orders`` holds, per table size, the distinct finishing orders (rows of
    label indices, winner first) and their weights.  A label may appear
    several times in one order; the minorization is the same.  ``prior``
    virtual games against an average opponent (strength 1), half of them won,
    keep the estimate finite for a label that never wins or never loses.
    """
    wins = np.full(k, prior / 2.0)
    for items, weight in orders:
        n = items.shape[1]
        wins += np.bincount(items[:, :-1].ravel(), np.repeat(weight, n - 1), k)

    def update(gamma: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        denom = np.zeros(k)
        for items, weight in orders:
            g = gamma[items]
            remaining = np.cumsum(g[:, ::-1], axis=1)[:, ::-1][:, :-1]
            inv = np.cumsum(1.0 / remaining, axis=1)
            per = np.concatenate([inv, inv[:, -1:]], axis=1) * weight[:, None]
            denom += np.bincount(items.ravel(), per.ravel(), k)
        denom += prior / (gamma + 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return _centre(np.where(denom > 0, wins / denom, 0.0))

    return _iterate(update, k, start, max_iter, tol)


def _bt_fit(
    wins: npt.NDArray[np.float64],
    start: npt.NDArray[np.float64] | None,
    max_iter: int,
    tol: float,
    prior: float,
) -> npt.NDArray[np.float64]:
    """Hunter's (2004) MM for Bradley-Terry on a wins matrix; log-strengths.

    ``prior`` as in :func:`_pl_fit`.
    """
    k = wins.shape[0]
    met = wins + wins.T
    total = wins.sum(axis=1) + prior / 2.0

    def update(gamma: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        with np.errstate(divide="ignore", invalid="ignore"):
            denom = np.sum(met / (gamma[:, None] + gamma[None, :]), axis=1)
            denom += prior / (gamma + 1.0)
            return _centre(np.where(denom > 0, total / denom, 0.0))

    return _iterate(update, k, start, max_iter, tol)


def _iterate(
    update: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]],
    k: int,
    start: npt.NDArray[np.float64] | None,
    max_iter: int,
    tol: float,
) -> npt.NDArray[np.float64]:
    """Apply an MM update (strengths -> new log-strengths) until it settles.

    Starts from ``start`` (else all 0) and stops after ``max_iter`` steps or
    when no finite log-strength moves by ``tol`` or more.
    """
    log_gamma = np.zeros(k) if start is None else start.copy()
    for _ in range(max_iter):
        new = update(np.exp(log_gamma))
        change = np.nanmax(np.abs(np.where(np.isfinite(new), new - log_gamma, 0.0)))
        log_gamma = new
        if change < tol:
            break
    return log_gamma


def _connected(pairs: npt.NDArray[np.int64], k: int) -> bool:
    """Whether labels meeting in games form one connected comparison graph."""
    parent = list(range(k))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b in pairs:
        parent[find(int(a))] = find(int(b))
    return len({find(i) for i in range(k)}) == 1


def strength_model(
    games: Frame,
    *,
    by: str = "corporation",
    model: Literal["plackett_luce", "bradley_terry"] = "plackett_luce",
    confidence: float = 0.95,
    n_boot: int = 200,
    seed: int = 0,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    prior: float = 1.0,
    max_iter: int = 5000,
    tol: float = 1e-10,
) -> pl.DataFrame:
    """One strength rating per label from finishing orders, with bootstrap CIs.

    Why long: the fit, the cluster bootstrap and the output table share one
    comparison matrix and one set of labels; apart they would pass both around.

    ``"plackett_luce"`` models a whole finishing order as picking the winner
    with probability proportional to strength, then the runner-up among the
    rest, and so on; ``"bradley_terry"`` uses every pair of seats of a game as
    a head-to-head result (ties count half each).  Both are fitted by Hunter's
    MM algorithm and pool all player counts.  Unlike raw win rates they use the
    whole order and account for whom each label met.  The (rare) ties in a
    finishing order are broken at random for Plackett-Luce (seeded).

    ``prior`` adds that many virtual games per label against an opponent of
    average strength, half of them won: a weak pull towards the average that
    keeps ratings finite when a label never wins (or never loses) in a sample,
    e.g. the random bot against greedy ones; it is negligible against
    thousands of real games.  ``prior=0`` is pure maximum likelihood.

    Ratings are log-strengths centred to mean 0; ``p_beat_average`` is the
    chance of finishing ahead of an opponent of average strength (0.5 is
    average).  Intervals are percentile bootstraps over clusters: whole
    clusters are drawn with replacement, so the dependence inside one stays.
    ``cluster`` names the column(s) identifying one, as in
    :mod:`pu_sim.analysis.clusters`; by default it is the setup group
    ``game_id // group_size`` (within ``run``), with ``group_size=1`` the game
    itself.  A paired design plays one setup once per seat, so its games share
    the setup's luck and are not independent: resampling games there would
    make the intervals too narrow, so pass the setup (``cluster="group"``).
    Every game must lie in one cluster.

    Returns
    -------
    polars.DataFrame
        ``{by}, n, rating, lower, upper, p_beat_average``.

    Raises
    ------
    ValueError
        When the labels never meet each other in one connected graph of games
        (the ratings would not be identified).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1, 2, 2], "bot": ["a", "b"] * 3,
    ...     "rank": [1, 2, 1, 2, 2, 1]})
    >>> fit = strength_model(df, by="bot", model="bradley_terry", n_boot=0, prior=0)
    >>> round(fit["p_beat_average"][0], 3)  # a won 2 of 3: strengths 2:1
    0.586
    """
    alpha = significance_level(confidence)
    if model not in ("plackett_luce", "bradley_terry"):
        raise ValueError(
            f"model must be 'plackett_luce' or 'bradley_terry', got {model!r}"
        )
    gk = game_keys(games)
    names = games.lazy().collect_schema().names()
    key, key_columns = cluster_key(names, cluster, group_size)
    df = collect_columns(games, [*gk, by, "rank", *key_columns]).with_columns(
        _cluster=key
    )
    labels_frame = (
        df.select(pl.col(by))
        .unique()
        .with_columns(_c=label_order(by, df.schema[by]))
        .sort("_c")
        .select(by)
    )
    k = labels_frame.height
    index = {v: i for i, v in enumerate(labels_frame[by].to_list())}
    counts = df.group_by(by).agg(n=pl.len().cast(pl.Int64))
    base = labels_frame.join(counts, on=by, maintain_order="left")
    if k < 2:
        return base.with_columns(
            rating=pl.lit(0.0), lower=pl.lit(0.0), upper=pl.lit(0.0),
            p_beat_average=pl.lit(0.5),
        )  # fmt: skip
    rng = np.random.default_rng(seed)
    # A random key under the rank breaks ties at random (Plackett-Luce).
    games_lists = (
        df.with_columns(
            _item=pl.col(by).replace_strict(index, return_dtype=pl.Int64),
            _u=pl.Series(rng.random(df.height)),
        )
        .sort([*gk, "rank", "_u"])
        .group_by(gk, maintain_order=True)
        .agg(
            pl.col("_item"), pl.col("rank").cast(pl.Int64), _n=pl.len(),
            _cluster=pl.col("_cluster").first(),
            _clusters=pl.col("_cluster").n_unique(),
        )
    )  # fmt: skip
    if games_lists.height and games_lists["_clusters"].max() != 1:
        raise ValueError(f"a game's seats lie in different clusters ({cluster})")
    games_lists = games_lists.with_columns(
        _code=pl.Series(dense_codes(games_lists["_cluster"]))
    )
    samples: list[
        tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]
    ] = []
    pairs_seen = [np.zeros((0, 2), dtype=np.int64)]
    for size in sorted(set(games_lists["_n"].to_list())):
        if size < 2:
            continue
        sub = games_lists.filter(pl.col("_n") == size)
        items = np.asarray(sub["_item"].to_list(), dtype=np.int64)
        ranks = np.asarray(sub["rank"].to_list(), dtype=np.int64)
        codes = sub["_code"].to_numpy().astype(np.int64)
        informative = (items != items[:, :1]).any(axis=1)  # one label only: no info
        items, ranks = items[informative], ranks[informative]
        if items.size:
            samples.append((items, ranks, codes[informative]))
            a, b = np.triu_indices(size, 1)
            pairs_seen.append(np.stack([items[:, a].ravel(), items[:, b].ravel()], 1))
    if not samples or not _connected(np.concatenate(pairs_seen), k):
        raise ValueError(
            f"the {by} labels do not all meet in games (comparison graph not "
            "connected): their strengths are not identified"
        )
    # The bootstrap draws the clusters of informative games with replacement;
    # a game weighs as often as its cluster was drawn.
    _, game_cluster = np.unique(
        np.concatenate([c for *_, c in samples]), return_inverse=True
    )
    n_clusters = int(game_cluster.max()) + 1

    def resampled_games() -> npt.NDArray[np.float64]:
        drawn = rng.integers(0, n_clusters, n_clusters)
        times = np.bincount(drawn, minlength=n_clusters).astype(np.float64)
        return np.asarray(times[game_cluster], dtype=np.float64)

    boots: list[npt.NDArray[np.float64]] = []
    if model == "plackett_luce":
        uniq, where = [], []
        for items, _, _ in samples:
            rows, inverse, w = np.unique(
                items, axis=0, return_inverse=True, return_counts=True
            )
            uniq.append((rows.astype(np.int64), w.astype(np.float64)))
            where.append(inverse.ravel())
        fit = _pl_fit(uniq, k, None, max_iter, tol, prior)
        starts = np.cumsum([0, *(len(inv) for inv in where)])
        for _ in range(n_boot):
            gw = resampled_games()
            resampled = [
                (rows, np.bincount(inv, gw[a:b], rows.shape[0]).astype(np.float64))
                for (rows, _), inv, a, b in zip(
                    uniq, where, starts[:-1], starts[1:], strict=True
                )
            ]
            boots.append(_pl_fit(resampled, k, fit, max_iter, tol, prior))
    else:
        winner, loser, tie, game = [], [], [], []
        offset = 0
        for items, ranks, _ in samples:
            a, b = np.triu_indices(items.shape[1], 1)
            winner.append(items[:, a].ravel())  # sorted by rank: a finished ahead
            loser.append(items[:, b].ravel())
            tie.append((ranks[:, a] == ranks[:, b]).ravel())
            game.append(np.repeat(np.arange(items.shape[0]) + offset, a.size))
            offset += items.shape[0]
        wi, lj = np.concatenate(winner), np.concatenate(loser)
        ti, gi = np.concatenate(tie), np.concatenate(game)
        keep = wi != lj
        wi, lj, ti, gi = wi[keep], lj[keep], ti[keep], gi[keep]

        def matrix(game_weight: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
            w = game_weight[gi]
            credit = np.where(ti, 0.5 * w, w)
            m = np.bincount(wi * k + lj, credit, k * k).astype(np.float64)
            m += np.bincount(lj * k + wi, np.where(ti, 0.5 * w, 0.0), k * k)
            return np.asarray(m.reshape(k, k), dtype=np.float64)

        fit = _bt_fit(matrix(np.ones(offset)), None, max_iter, tol, prior)
        for _ in range(n_boot):
            boots.append(_bt_fit(matrix(resampled_games()), fit, max_iter, tol, prior))
    if boots:
        arr = np.stack(boots)
        lower = np.quantile(arr, alpha / 2, axis=0)
        upper = np.quantile(arr, 1 - alpha / 2, axis=0)
    else:
        lower = upper = np.full(k, np.nan)
    strength = np.exp(fit)
    return base.with_columns(
        rating=pl.Series(fit),
        lower=pl.Series(lower),
        upper=pl.Series(upper),
        p_beat_average=pl.Series(strength / (strength + 1.0)),
    )


ELO_PER_LOG_STRENGTH = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-strength: a gap of 400 Elo is odds of 10:1."""


def to_elo(ratings: pl.DataFrame) -> pl.DataFrame:
    """Add ``elo``, ``elo_lower``, ``elo_upper`` to a :func:`strength_model` frame.

    The Bradley-Terry/Plackett-Luce odds of finishing ahead are the strength
    ratio, which is Elo's logistic with base 10 and scale 400, so Elo =
    ``400 / ln 10`` x log-strength (about 173.7 per unit); centred like the
    ratings (mean 0 over the labels).

    >>> fit = pl.DataFrame({"bot": ["a", "b"], "rating": [math.log(10) / 2,
    ...     -math.log(10) / 2], "lower": [0.0, -2.0], "upper": [2.0, 0.0]})
    >>> to_elo(fit)["elo"].round(6).to_list()  # 10:1 odds
    [200.0, -200.0]
    """
    return ratings.with_columns(
        (pl.col(c) * ELO_PER_LOG_STRENGTH).alias(name)
        for c, name in (("rating", "elo"), ("lower", "elo_lower"),
                        ("upper", "elo_upper"))
    )  # fmt: skip


def head_to_head(
    games: Frame, *, by: str = "bot", confidence: float = 0.95
) -> pl.DataFrame:
    """How often label ``a`` finished ahead of label ``b`` when both played.

    Every pair of seats of a game holding two different labels is one
    comparison (one per game when each label has one seat).  ``ahead`` counts
    the comparisons ``a`` won (lower rank), ``ties`` the equal ranks;
    ``share = (ahead + ties / 2) / n`` with a Wilson interval (ties count half).
    Both orders of every pair are returned, so ``share(a, b) + share(b, a) = 1``.

    Returns
    -------
    polars.DataFrame
        ``a, b, n, ahead, ties, share, lower, upper`` sorted by ``a, b``.

    Examples
    --------
    >>> df = pl.DataFrame({"game_id": [0, 0, 1, 1], "bot": ["x", "y"] * 2,
    ...     "rank": [1, 2, 2, 2]})
    >>> head_to_head(df).select("a", "b", "share").rows()
    [('x', 'y', 0.75), ('y', 'x', 0.25)]
    """
    significance_level(confidence)
    gk = game_keys(games)
    df = collect_columns(games, [*gk, by, "rank"]).with_columns(
        pl.col(by).cast(pl.String), pl.col("rank").cast(pl.Int64)
    )
    left = df.rename({by: "a", "rank": "_ra"})
    right = df.rename({by: "b", "rank": "_rb"})
    pairs = left.join(right, on=gk, maintain_order="left").filter(
        pl.col("a") != pl.col("b")
    )
    table = (
        pairs.group_by("a", "b")
        .agg(
            n=pl.len().cast(pl.Int64),
            ahead=(pl.col("_ra") < pl.col("_rb")).sum().cast(pl.Int64),
            ties=(pl.col("_ra") == pl.col("_rb")).sum().cast(pl.Int64),
        )
        .sort("a", "b")
        .with_columns(share=(pl.col("ahead") + pl.col("ties") / 2) / pl.col("n"))
    )
    successes = (table["ahead"] + table["ties"] / 2).to_numpy().astype(float)
    lo, hi = stats.wilson_interval(
        successes, table["n"].to_numpy().astype(float), confidence
    )
    return table.with_columns(lower=pl.Series(lo), upper=pl.Series(hi))
