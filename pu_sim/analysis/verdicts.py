"""Verdicts a designer can act on: which findings hold under two strong policies.

A balance finding measured with one bot may be the bot's, not the game's, and
a finding declared on the sample that found it overstates it (the winner's
curse).  So the same setups are played by two policies, and every finding is
declared on one half of the setups and confirmed on the other half
(:func:`verdict_table`).  Each row gets one label, whose meaning is
:data:`GLOSSARY` (reports print it from there):

* ``"robust"``: significant under both policies in the same direction on the
  discovery half (Holm over each policy's table), and again on the
  confirmation half (one-sided, in that direction, Holm over the declared
  findings);
* ``"bot-dependent"``: the policies point in opposite directions on the
  discovery half (both significant with opposite signs, or one significant
  while the other's estimate has the opposite sign and its interval excludes
  the first's), and their paired difference (the same setups, so the test is
  on the paired design) holds on the confirmation half;
* ``"not replicated"``: declared robust or bot-dependent on the discovery
  half, not confirmed on the other;
* ``"unresolved"``: anything else.

Beside the label, ``size_differs`` flags rows whose effect differs in size
between the policies beyond their paired interval (all setups, Holm over the
table): a robust finding whose size depends on the bot.  Rank agreement is
:mod:`pu_sim.analysis.rankings`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.cluster_stats import (
    FloatArray,
    t_limits,
)
from pu_sim.analysis.clusters import (
    DEFAULT_BOOTSTRAP,
    SCORE_VS_TABLE,
    WIN_SHARE,
    Method,
    cluster_frame,
    cluster_means,
    cluster_win_rates,
    label_order,
)
from pu_sim.analysis.frame import Frame
from pu_sim.analysis.rankings import shared_label_sums
from pu_sim.analysis.replication import (
    MIN_HALF_SETUPS,
    confirmed,
    one_sided,
    setups_per_count,
    split_halves,
)
from pu_sim.analysis.stats import Correction

LABELS = ("robust", "bot-dependent", "not replicated", "unresolved")
Label = pl.Enum(list(LABELS))
"""The verdict labels, in this order (a Polars Enum)."""

GLOSSARY: dict[str, str] = {
    "robust": "significant under both policies in the same direction on one half "
    "of the setups (Holm over each policy's table), and confirmed in that "
    "direction on the other half under both (one-sided, Holm over the declared "
    "findings): a finding of the game",
    "bot-dependent": "the two policies point in opposite directions on one half of "
    "the setups (both significant with opposite signs, or one significant while "
    "the other's estimate has the opposite sign and its interval excludes the "
    "first's), and their paired difference holds on the other half: a finding "
    "about the bots, not the game",
    "not replicated": "declared robust or bot-dependent on one half of the setups, "
    "not confirmed on the other: a lead to test on more games",
    "unresolved": "neither: no finding (too small to see with these games, or seen "
    "by one policy only)",
    "size differs": "the effect's size differs between the two policies beyond "
    "their paired interval over all setups (Holm over the table); shown beside "
    "any label",
}
"""What each verdict label means, as reports print it (one source)."""

Disagreement = Literal["difference", "interval"]


# --------------------------------------------------------------------------------
# The label rule
# --------------------------------------------------------------------------------


def _excludes_zero(lower: FloatArray, upper: FloatArray) -> npt.NDArray[np.bool_]:
    return np.asarray((lower > 0) | (upper < 0), dtype=np.bool_)


def finding_labels(
    estimate_a: npt.ArrayLike,
    lower_a: npt.ArrayLike,
    upper_a: npt.ArrayLike,
    estimate_b: npt.ArrayLike,
    lower_b: npt.ArrayLike,
    upper_b: npt.ArrayLike,
    *,
    significant_a: npt.ArrayLike | None = None,
    significant_b: npt.ArrayLike | None = None,
) -> list[str]:
    """Declare each finding robust, bot-dependent or unresolved (on one sample).

    ``robust``: significant under both, same sign.  ``bot-dependent``:
    opposite signs, and either both significant or one significant while the
    other's interval excludes the significant estimate.  ``significant_*``
    default to "the interval excludes 0"; pass flags from adjusted p-values
    to respect a multiple-comparison correction.  (Replication on other
    setups is :func:`verdict_table`'s.)

    Examples
    --------
    >>> a = [2.0] * 4, [1.0] * 4, [3.0] * 4  # estimate, lower, upper: significant
    >>> b = [1.5, -2.0, -0.5, 0.5], [0.5, -3.0, -1.6, -1.0], [2.5, -1.0, 0.6, 2.0]
    >>> finding_labels(*a, *b)
    ['robust', 'bot-dependent', 'bot-dependent', 'unresolved']
    """
    ea, la, ua, eb, lb, ub = (
        np.asarray(v, dtype=np.float64).ravel()
        for v in (estimate_a, lower_a, upper_a, estimate_b, lower_b, upper_b)
    )
    sa = _flags(significant_a, la, ua)
    sb = _flags(significant_b, lb, ub)
    same = np.sign(ea) == np.sign(eb)
    opposite = (np.sign(ea) * np.sign(eb)) < 0
    b_excludes_a = (ea < lb) | (ea > ub)
    a_excludes_b = (eb < la) | (eb > ua)
    robust = sa & sb & same
    dependent = opposite & (
        (sa & sb) | (sa & ~sb & b_excludes_a) | (sb & ~sa & a_excludes_b)
    )
    labels: list[str] = np.where(
        robust, "robust", np.where(dependent, "bot-dependent", "unresolved")
    ).tolist()
    return labels


def _flags(
    given: npt.ArrayLike | None, lower: FloatArray, upper: FloatArray
) -> npt.NDArray[np.bool_]:
    if given is None:
        return _excludes_zero(lower, upper)
    return np.asarray(given, dtype=np.bool_).ravel()


def judge_findings(
    table_a: Frame,
    table_b: Frame,
    *,
    on: Sequence[str],
    estimate: str = "excess",
    lower: str = "lower",
    upper: str = "upper",
    significant: str | None = None,
) -> pl.DataFrame:
    """Join two effect tables (one per policy) on ``on`` and label every row.

    The tables are e.g. :func:`~pu_sim.analysis.clusters.cluster_win_rates`
    under each policy.  ``significant`` names a boolean column to use instead
    of "the interval excludes 0" (e.g. one set from adjusted p-values).

    Returns
    -------
    polars.DataFrame
        ``*on``, then ``estimate, lower, upper`` (and ``significant``) with
        suffixes ``_a`` and ``_b``, and ``label`` (Enum :data:`Label`).
    """
    cols = [estimate, lower, upper, *([significant] if significant else [])]
    a = table_a.lazy().select(*on, *cols).collect()
    b = table_b.lazy().select(*on, *cols).collect()
    joined = a.join(
        b, on=list(on), suffix="_b", nulls_equal=True, maintain_order="left"
    ).rename({c: f"{c}_a" for c in cols})
    labels = finding_labels(
        joined[f"{estimate}_a"], joined[f"{lower}_a"], joined[f"{upper}_a"],
        joined[f"{estimate}_b"], joined[f"{lower}_b"], joined[f"{upper}_b"],
        significant_a=joined[f"{significant}_a"] if significant else None,
        significant_b=joined[f"{significant}_b"] if significant else None,
    )  # fmt: skip
    return joined.with_columns(label=pl.Series(labels, dtype=Label)).sort(
        label_order(joined, on)
    )


# --------------------------------------------------------------------------------
# The one-look table: declared on one half of the setups, confirmed on the other
# --------------------------------------------------------------------------------


def bot_differences(
    games_a: Frame,
    games_b: Frame,
    *,
    by: Sequence[str],
    value: str = WIN_SHARE,
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Each label's effect under policy a minus under policy b, on paired setups.

    Both policies played the same setups, so the difference's error is the
    spread over setups of the per-setup difference of the two estimates'
    linearised contributions (CR1, ``G - 1`` degrees of freedom, G the setups
    of either): positive correlation between the policies, the usual case,
    narrows it.  The fair share ``1/n`` cancels, so ``value`` is compared raw.

    Returns
    -------
    polars.DataFrame
        ``n_players, *by, difference, se, lower, upper, p_value, clusters``.
    """
    df_a, df_b = (
        cluster_frame(
            games, labels=by, value=value, cluster=cluster, group_size=group_size
        )
        for games in (games_a, games_b)
    )
    frames = []
    for n_players in sorted(set(df_a["n_players"]) & set(df_b["n_players"])):
        part_a = df_a.filter(pl.col("n_players") == n_players)
        part_b = df_b.filter(pl.col("n_players") == n_players)
        labels, sums_a, sums_b, _ = shared_label_sums(part_a, part_b, by)
        g = sums_a.sums.shape[0]
        resid = []
        for sums in (sums_a, sums_b):
            n = sums.counts.sum(0)
            with np.errstate(divide="ignore", invalid="ignore"):
                resid.append(sums.cluster_residuals() / n)
        diff = sums_a.means() - sums_b.means()
        with np.errstate(invalid="ignore"):
            se = np.sqrt(g / max(g - 1, 1) * ((resid[0] - resid[1]) ** 2).sum(0))
        lo, hi, p = t_limits(diff, se, np.full(diff.shape, g - 1.0), confidence)
        frames.append(
            labels.drop("_label").with_columns(
                n_players=pl.lit(n_players, df_a.schema["n_players"]),
                difference=pl.Series(diff),
                se=pl.Series(se),
                lower=pl.Series(lo),
                upper=pl.Series(hi),
                p_value=pl.Series(p),
                clusters=pl.lit(g, pl.Int64),
            )
        )
    keys = ["n_players", *by]
    if not frames:
        return pl.DataFrame(schema={k: df_a.schema[k] for k in keys})
    out = pl.concat(frames, how="diagonal_relaxed")
    return out.select(*keys, pl.exclude(keys)).sort(label_order(out, keys))


_MEASURES = (("label", "win", "win_pp", WIN_SHARE),
             ("score_label", "score", "score", SCORE_VS_TABLE))  # fmt: skip
"""(label column, prefix, estimate column, value) of each verdict."""


def policy_rows(
    games: Frame, kinds: Sequence[str], alpha: float, correction: Correction, **kw: Any
) -> pl.DataFrame:
    """One policy's effects (win pp, score points), their p and Holm flags."""
    parts = []
    for kind in kinds:
        wins = cluster_win_rates(games, by=[kind], **kw)
        score = cluster_means(games, by=[kind], value=SCORE_VS_TABLE, **kw).filter(
            pl.col("n_players") >= 2
        )
        parts.append(_one_look_rows(wins, score, kind))
    table = pl.concat(parts)
    return table.with_columns(
        sig_win=pl.Series(stats.adjust(table["p_win"], correction) < alpha),
        sig_score=pl.Series(stats.adjust(table["p_score"], correction) < alpha),
    )


def _two_policies(
    games_a: Frame, games_b: Frame, kinds: Sequence[str], alpha: float,
    correction: Correction, **kw: Any,
) -> pl.DataFrame:  # fmt: skip
    """Both policies' rows joined on (n_players, kind, name), suffixed a and b."""
    keys = ["n_players", "kind", "name"]
    tables = []
    for suffix, games in (("a", games_a), ("b", games_b)):
        table = policy_rows(games, kinds, alpha, correction, **kw)
        tables.append(
            table.rename({c: f"{c}_{suffix}" for c in table.columns if c not in keys})
        )
    return tables[0].join(tables[1], on=keys, maintain_order="left")


def _differences(
    games_a: Frame, games_b: Frame, kinds: Sequence[str], value: str, **kw: Any
) -> pl.DataFrame:
    """Paired differences a - b of every row, keyed like the one-look table."""
    frames = []
    for kind in kinds:
        table = bot_differences(games_a, games_b, by=[kind], value=value, **kw)
        frames.append(
            table.filter(pl.col("n_players") >= 2).select(
                "n_players",
                kind=pl.lit(kind),
                name=pl.col(kind).cast(pl.String),
                difference="difference",
                diff_lower="lower",
                diff_upper="upper",
                diff_p="p_value",
            )
        )
    return pl.concat(frames)


def verdict_table(
    games_a: Frame,
    games_b: Frame,
    *,
    kinds: Sequence[str] = ("corporation", "planet"),
    cluster: str | Sequence[str] | None = None,
    group_size: int = 1,
    confidence: float = 0.95,
    correction: Correction = "holm",
    method: Method = "cr1",
    n_boot: int = DEFAULT_BOOTSTRAP,
    seed: int = 0,
    replicate: bool = True,
) -> pl.DataFrame:
    """The designer's one-look table: every corporation and planet, two policies.

    Per player count (multiplayer) and label kind, each label's win rate
    minus 1/n in percentage points (``win_pp``) and its score against its
    game's mean (``score``, points), each with a cluster interval under policy
    a (``games_a``, the primary one) and policy b, over every setup.  The
    verdicts (``label`` on the win rate, ``score_label`` on the score; their
    meanings are :data:`GLOSSARY`) are declared on one half of the setups
    (``declared``, :func:`finding_labels` with Holm over each policy's table)
    and confirmed on the other (:func:`split_halves`); ``win_conf_a`` and
    ``win_conf_b`` are the confirmation half's estimates, free of the
    winner's curse of the half that declared them.  ``size_differs`` flags a
    paired difference between the policies (all setups, Holm over the
    table).  ``replicate=False`` declares on every setup and confirms nothing.
    Sorted by player count, kind, then ``win_pp_a`` from strongest to weakest.

    Returns
    -------
    polars.DataFrame
        ``n_players, kind, name, win_pp_a, win_lower_a, win_upper_a, win_pp_b,
        win_lower_b, win_upper_b, label, declared, win_conf_a, win_conf_b,
        size_differs, win_diff, win_diff_lower, win_diff_upper, score_a,
        score_lower_a, score_upper_a, score_b, score_lower_b, score_upper_b,
        score_label, score_declared, score_size_differs``.
    """
    alpha = 1.0 - confidence
    kw: dict[str, Any] = dict(cluster=cluster, group_size=group_size,
                              confidence=confidence)  # fmt: skip
    est = dict(kw, method=method, n_boot=n_boot, seed=seed)
    keys = ["n_players", "kind", "name"]
    full = _two_policies(games_a, games_b, kinds, alpha, correction, **est)
    halves = [split_halves(g, cluster=cluster, group_size=group_size)
              for g in (games_a, games_b)]  # fmt: skip
    replicate = replicate and all(
        setups_per_count(half, cluster, group_size) >= MIN_HALF_SETUPS
        for pair in halves
        for half in pair
    )
    if replicate:
        (disc_a, conf_a), (disc_b, conf_b) = halves
        disc = _two_policies(disc_a, disc_b, kinds, alpha, correction, **est)
        conf = _two_policies(conf_a, conf_b, kinds, alpha, correction, **est)
        full = full.join(
            disc.select(*keys, *[pl.col(c).alias(f"d_{c}") for c in disc.columns
                                if c not in keys]),
            on=keys, how="left", maintain_order="left",
        ).join(
            conf.select(*keys, *[pl.col(c).alias(f"c_{c}") for c in conf.columns
                                if c not in keys]),
            on=keys, how="left", maintain_order="left",
        )  # fmt: skip
    columns: dict[str, pl.Series] = {}
    for label, prefix, estimate, value in _MEASURES:
        diffs = _differences(games_a, games_b, kinds, value, **kw)
        full = full.join(
            diffs.rename({c: f"{prefix}_{c}" for c in diffs.columns if c not in keys}),
            on=keys, how="left", maintain_order="left",
        )  # fmt: skip
        p_diff = np.nan_to_num(full[f"{prefix}_diff_p"].to_numpy(), nan=1.0)
        columns[f"{'' if prefix == 'win' else 'score_'}size_differs"] = pl.Series(
            stats.adjust(p_diff, correction) < alpha
        )
        src = "d_" if replicate else ""
        parts = (f"{estimate}_a", f"{prefix}_lower_a", f"{prefix}_upper_a",
                 f"{estimate}_b", f"{prefix}_lower_b", f"{prefix}_upper_b")  # fmt: skip
        declared = np.asarray(
            finding_labels(
                *(full[f"{src}{c}"] for c in parts),
                significant_a=full[f"{src}sig_{prefix}_a"],
                significant_b=full[f"{src}sig_{prefix}_b"],
            )
        )
        final = declared.copy()
        if replicate:
            final = _replicated(full, declared, prefix, estimate, alpha, correction,
                                games=(conf_a, conf_b), kinds=kinds, kw=kw)  # fmt: skip
        columns[label] = pl.Series(final, dtype=Label)
        columns[f"{'' if prefix == 'win' else 'score_'}declared"] = pl.Series(
            declared, dtype=Label
        )
        if prefix == "win":
            for side in ("a", "b"):
                columns[f"win_conf_{side}"] = (
                    full[f"c_win_pp_{side}"]
                    if replicate
                    else pl.Series([None] * full.height, dtype=pl.Float64)
                )
    kind_order = pl.col("kind").replace_strict(
        {k: i for i, k in enumerate(kinds)}, return_dtype=pl.Int64
    )
    return (
        full.with_columns(**columns)
        .sort([pl.col("n_players"), kind_order, pl.col("win_pp_a")],
              descending=[False, False, True])
        .select(
            "n_players", "kind", "name", "win_pp_a", "win_lower_a", "win_upper_a",
            "win_pp_b", "win_lower_b", "win_upper_b", "label", "declared",
            "win_conf_a", "win_conf_b", "size_differs",
            (pl.col("win_difference") * 100).alias("win_diff"),
            pl.col("win_diff_lower") * 100, pl.col("win_diff_upper") * 100,
            "score_a", "score_lower_a", "score_upper_a", "score_b", "score_lower_b",
            "score_upper_b", "score_label", "score_declared", "score_size_differs",
        )
    )  # fmt: skip


def _replicated(
    full: pl.DataFrame,
    declared: npt.NDArray[np.str_],
    prefix: str,
    estimate: str,
    alpha: float,
    correction: Correction,
    *,
    games: tuple[pl.DataFrame, pl.DataFrame],
    kinds: Sequence[str],
    kw: dict[str, Any],
) -> npt.NDArray[np.str_]:
    """The final labels: a declared finding stays only if the other half confirms it."""
    robust = declared == "robust"
    dependent = declared == "bot-dependent"
    sign_a = np.sign(full[f"d_{estimate}_a"].to_numpy())
    sign_b = np.sign(full[f"d_{estimate}_b"].to_numpy())
    ok = np.ones(full.height, dtype=np.bool_)
    for side, sign in (("a", sign_a), ("b", sign_b)):
        p_one = one_sided(
            full[f"c_{estimate}_{side}"].to_numpy(),
            full[f"c_p_{prefix}_{side}"].to_numpy(),
            sign,
        )
        ok &= confirmed(p_one, robust, alpha, correction)
    value = WIN_SHARE if prefix == "win" else SCORE_VS_TABLE
    keys = ["n_players", "kind", "name"]
    conf = full.select(keys).join(
        _differences(*games, kinds, value, **kw),
        on=keys,
        how="left",
        maintain_order="left",
    )
    diff_sign = np.sign(
        full[f"d_{estimate}_a"].to_numpy() - full[f"d_{estimate}_b"].to_numpy()
    )
    p_diff = one_sided(
        conf["difference"].to_numpy(), conf["diff_p"].to_numpy(), diff_sign
    )
    dependent_ok = confirmed(p_diff, dependent, alpha, correction)
    return np.where(
        robust & ok, "robust",
        np.where(dependent & dependent_ok, "bot-dependent",
                 np.where(robust | dependent, "not replicated", "unresolved")),
    )  # fmt: skip


def _one_look_rows(wins: pl.DataFrame, score: pl.DataFrame, kind: str) -> pl.DataFrame:
    """One policy's rows of the one-look table for one label kind."""
    name = pl.col(kind).cast(pl.String).alias("name")
    return wins.select(
        "n_players", pl.lit(kind).alias("kind"), name,
        win_pp=pl.col("excess") * 100, win_lower=pl.col("lower") * 100,
        win_upper=pl.col("upper") * 100, p_win=pl.col("p_value"),
    ).join(
        score.select(
            "n_players", name, score=pl.col("mean"), score_lower=pl.col("lower"),
            score_upper=pl.col("upper"), p_score=pl.col("p_value"),
        ),
        on=["n_players", "name"], maintain_order="left",
    )  # fmt: skip
