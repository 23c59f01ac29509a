"""Game feel: how close games are, how the lead moves, how long they run.

Two inputs.  The result frame (one row per (game, seat)) gives each game's
final scores, ``rounds`` and ``end_trigger`` (``cannot_place``: a player could
not place a tile, rules 9.1 A; ``depot_empty``, 9.1 B; ``events``: the event
deck's last card, 9.1 C).  The *round score table* gives each seat's score
after every round, for lead changes, comebacks and the decisive round; its
schema is the run folder's (:data:`pu_sim.simulation.frames.ROUND_SCORE_SCHEMA`,
checked by :func:`validate_round_scores`):

=========  =======  ==========================================================
column     dtype    meaning
=========  =======  ==========================================================
game_id    UInt64   the game, as in the result frame
round      UInt8    1, 2, ... up to the game's last round, with no gap
seat       UInt8    0 .. n_players - 1, every seat in every round
score      Int16    the seat's score at the end of that round, counted as it
                    would be if the game ended then
=========  =======  ==========================================================

plus an optional ``run`` column (String) when several runs are concatenated,
as in the result frame.  One row per (game, round, seat).

*Short* games are relative to their player count: a game has no fixed full
length (without the event deck a game ends when a player cannot place or a
depot empties, rules 9.1), so a fixed round (the 20 of the solo deck) says
little at 4 players, where a quarter of the games pass it.  Every term is
defined once, in :data:`GLOSSARY`, which reports print.

Intervals treat a *setup* as the unit: in the paired design the games of one
setup (the result frame's ``group``) share a station, civ piles and deck, so
they are alike; every summary takes ``cluster`` (default ``"group"``) and
gives cluster-robust (CR1) t intervals over it
(:func:`pu_sim.analysis.clusters.cluster_means`), every game its own cluster
when the frame lacks the column.  The round score table has no ``group``: the
summaries that read it take ``setups``, a frame naming each game's setup (the
result frame will do).

Why long: the three readings of a game (margins and length from the result
frame, lead changes and the winner's path from the round scores) share one
notion of a game, a setup and a clustered summary; split, each would restate
them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import polars as pl

from pu_sim.analysis import clusters, stats
from pu_sim.analysis.frame import Frame, label_order, significance_level
from pu_sim.simulation.frames import ROUND_SCORE_SCHEMA

_RANGES = {
    "game_id": (0, 2**64 - 1),
    "round": (1, 255),
    "seat": (0, 255),
    "score": (-(2**15), 2**15 - 1),
}

SHORT_SHARE = 0.10
"""The share of each player count's games meant by *short* (as near as whole
rounds allow)."""

SETUP = "group"
"""The column naming a game's setup: the unit of every interval here."""

ANY_CAUSE = "any"

GLOSSARY: dict[str, str] = {
    "margin of victory": "the winner's final score minus the runner-up's "
    "(0 when first place is shared)",
    "lead change": "a round whose sole leader (the one seat with the top score "
    "after that round, scores counted as if the game ended then) differs from "
    "the last sole leader before it; the first sole leader is no change and a "
    "shared top score changes nothing",
    "short": "a game over in round t or earlier, where t (the *short cut*) is "
    "set per player count so that the share of that count's games over by "
    f"round t comes as close to {SHORT_SHARE:.0%} as whole rounds allow (ties: "
    "the smaller share); a short game is among the shortest tenth or so of its "
    "own player count, not shorter than a fixed number of rounds",
    "winner": "the seat with the sole top score after the last round; games "
    "tied for first on points (decided by the tie-breaks) are left out of the "
    "comeback and the decisive round",
    "comeback": "how far the eventual winner trailed at its worst: the largest "
    "gap, over the rounds, between the leader's score and the winner's after a "
    "round (points; 0 when it was never behind), and the first round it was "
    "that far behind",
    "decisive round": "the round from which the winner was the sole leader "
    "after every round to the end (1: it led throughout), also as a share of "
    "the game's rounds (100%: it took the lead for good in the last round)",
    "led throughout": "the winner was the sole leader after every round "
    "(decisive round 1, so comeback 0)",
}
"""Every term of the feel analysis and what it means (reports print these)."""

MEASURES: dict[str, str] = {
    "comeback": "points",
    "behind": "share of games",
    "comeback_round": "round",
    "decisive_round": "round",
    "decisive_share": "share of the game",
    "led_throughout": "share of games",
}
"""The measures of :func:`comeback_summary`, in order, and their units:
``behind`` is the share of games whose winner trailed at some point,
``comeback_round`` the round of its worst deficit (games it trailed in)."""

_SHARES = ("behind", "decisive_share", "led_throughout")


def _game_keys(frame: Frame) -> list[str]:
    names = frame.lazy().collect_schema().names()
    return ["run", "game_id"] if "run" in names else ["game_id"]


# --------------------------------------------------------------------------------
# Clustered summaries
# --------------------------------------------------------------------------------


def _cluster_of(frame: pl.DataFrame, cluster: str | None) -> str | None:
    """The cluster column to use: ``cluster`` if the frame has it, else None."""
    return cluster if cluster is not None and cluster in frame.columns else None


def _clustered(
    per_game: pl.DataFrame,
    value: str,
    *,
    by: Sequence[str] = (),
    cluster: str | None,
    confidence: float,
) -> pl.DataFrame:
    """Mean of ``value`` per player count (and ``by``) with a CR1 interval.

    ``n_players, *by, clusters, mean, lower, upper, p_value, design_effect``.
    """
    rows = per_game.filter(pl.col(value).is_not_null())
    if rows.height == 0:
        keys = {c: per_game.schema[c] for c in ("n_players", *by)}
        floats = ["mean", "lower", "upper", "p_value", "design_effect"]
        return pl.DataFrame(
            schema=keys | {"clusters": pl.Int64} | dict.fromkeys(floats, pl.Float64)
        ).select("n_players", *by, "clusters", *floats)
    out = clusters.cluster_means(
        rows,
        by=by,
        value=value,
        cluster=_cluster_of(rows, cluster),
        confidence=confidence,
    )
    return out.select(
        "n_players", *by, "clusters", "mean", "lower", "upper", "p_value",
        "design_effect",
    )  # fmt: skip


def _summarise(
    per_game: pl.DataFrame,
    value: str,
    *,
    cluster: str | None,
    confidence: float,
    share: bool = False,
) -> pl.DataFrame:
    """Per player count: games, clustered mean and interval, spread, zeros, max.

    ``share`` marks a value in [0, 1] (its interval is clipped there).
    """
    v = pl.col(value).cast(pl.Float64)
    rows = per_game.filter(pl.col(value).is_not_null())
    spread = rows.group_by("n_players").agg(
        games=pl.len().cast(pl.Int64),
        median=v.median(),
        p10=v.quantile(0.1, "nearest"),
        p90=v.quantile(0.9, "nearest"),
        share_zero=(v == 0).mean(),
        max=v.max(),
    )
    means = _clustered(rows, value, cluster=cluster, confidence=confidence)
    out = spread.join(means, on="n_players", how="left", maintain_order="left").sort(
        "n_players"
    )
    if share:
        out = out.with_columns(pl.col("lower", "upper").clip(0.0, 1.0))
    return out.select(
        "n_players", "games", pl.col("clusters").cast(pl.Int64), "mean", "lower",
        "upper", "median", "p10", "p90", "share_zero", "max", "design_effect",
    )  # fmt: skip


def _attach_setups(
    per_game: pl.DataFrame, setups: Frame | None, cluster: str | None
) -> pl.DataFrame:
    """Add each game's setup (``cluster`` column of ``setups``) to ``per_game``.

    Refuses games that ``setups`` does not name: a game without a setup
    would silently fall into one shared cluster.
    """
    if setups is None or cluster is None:
        return per_game
    gk = _game_keys(per_game)
    names = setups.lazy().collect_schema().names()
    missing = [c for c in (*gk, cluster) if c not in names]
    if missing:
        raise ValueError(f"setups lacks column(s) {missing}; it has {names}")
    key = setups.lazy().select(*gk, cluster).unique().collect()
    key = key.with_columns(pl.col("game_id").cast(pl.UInt64))
    if key.select(pl.struct(gk).is_duplicated().any()).item():
        raise ValueError(f"setups gives some game two values of {cluster!r}")
    out = per_game.with_columns(pl.col("game_id").cast(pl.UInt64)).join(
        key,
        on=gk,
        how="left",
        maintain_order="left",
    )
    lost = out.filter(pl.col(cluster).is_null())
    if lost.height:
        raise ValueError(
            f"game {lost['game_id'][0]} of the round score table has no "
            f"{cluster!r} in setups"
        )
    return out


# --------------------------------------------------------------------------------
# The round score table
# --------------------------------------------------------------------------------


def validate_round_scores(table: Frame) -> pl.DataFrame:
    """Check a round score table and return it in :data:`ROUND_SCORE_SCHEMA`.

    Refuses (``ValueError`` naming the first bad game) missing or non-integer
    columns, nulls, values out of range, duplicate (game, round, seat) rows,
    rounds that do not run 1, 2, ... without a gap, and rounds missing a seat
    the game has elsewhere.  Returns the table sorted by game, round, seat.

    Examples
    --------
    >>> import polars as pl
    >>> t = pl.DataFrame({"game_id": [0, 0, 0, 0], "round": [1, 1, 2, 2],
    ...     "seat": [0, 1, 0, 1], "score": [3, 5, 9, 8]})
    >>> validate_round_scores(t).schema["score"]
    Int16
    """
    df = table.lazy().collect()
    missing = [c for c in ROUND_SCORE_SCHEMA if c not in df.columns]
    if missing:
        raise ValueError(f"the round score table lacks column(s) {missing}")
    for name in ROUND_SCORE_SCHEMA:
        if not df.schema[name].is_integer():
            raise ValueError(
                f"column {name!r} must hold integers, not {df.schema[name]}"
            )
        if df[name].null_count():
            raise ValueError(f"column {name!r} has {df[name].null_count()} nulls")
    for name, bounds in _RANGES.items():
        out = df.filter(~pl.col(name).is_between(*bounds))
        if out.height:
            raise ValueError(
                f"column {name!r} outside {bounds[0]}..{bounds[1]} in game "
                f"{out['game_id'][0]}"
            )
    gk = _game_keys(df)
    df = df.with_columns(pl.col(c).cast(t) for c, t in ROUND_SCORE_SCHEMA.items())
    duplicated = df.filter(pl.struct(*gk, "round", "seat").is_duplicated())
    if duplicated.height:
        raise ValueError(
            f"game {duplicated['game_id'][0]} has two rows for round "
            f"{duplicated['round'][0]}, seat {duplicated['seat'][0]}"
        )
    shape = df.group_by(gk).agg(
        rows=pl.len(),
        rounds=pl.col("round").n_unique(),
        last=pl.col("round").max(),
        seats=pl.col("seat").n_unique(),
    )
    gaps = shape.filter(pl.col("rounds") != pl.col("last"))
    if gaps.height:
        raise ValueError(
            f"game {gaps['game_id'][0]}: rounds must run 1..{gaps['last'][0]} "
            f"without a gap, found {gaps['rounds'][0]} distinct rounds"
        )
    holes = shape.filter(pl.col("rows") != pl.col("rounds") * pl.col("seats"))
    if holes.height:
        raise ValueError(
            f"game {holes['game_id'][0]}: some round lacks a seat the game has "
            "elsewhere (every seat needs a score in every round)"
        )
    extra = [c for c in df.columns if c not in ROUND_SCORE_SCHEMA and c != "run"]
    return df.drop(extra).sort([*gk, "round", "seat"])


def lead_changes(round_scores: Frame) -> pl.DataFrame:
    """How often the lead changed hands in each game.

    After each round the leader is the seat with the highest score.  A round
    whose top score is shared has no sole leader and changes nothing; a lead
    change is a round whose sole leader differs from the last sole leader
    before it (so a lead lost to a tie and regained is no change, and a lead
    passing through a tie to another seat is one).  The first sole leader is
    not a change.

    Returns
    -------
    polars.DataFrame
        ``[run,] game_id, n_players, rounds, lead_changes, final_leader``
        (``final_leader`` is null when the last round's top score is shared).

    Examples
    --------
    >>> import polars as pl
    >>> t = pl.DataFrame({"game_id": [0] * 8, "round": [1, 1, 2, 2, 3, 3, 4, 4],
    ...     "seat": [0, 1] * 4, "score": [5, 3, 6, 6, 7, 9, 12, 10]})
    >>> lead_changes(t).select("lead_changes", "final_leader").row(0)
    (2, 0)
    """
    df = validate_round_scores(round_scores)
    gk = _game_keys(df)
    top = pl.col("score") == pl.col("score").max().over([*gk, "round"])
    per_round = (
        df.with_columns(_top=top)
        .group_by([*gk, "round"])
        .agg(
            _sole=pl.when(pl.col("_top").sum() == 1)
            .then(pl.col("seat").filter(pl.col("_top")).first())
            .otherwise(None),
            _seats=pl.len(),
        )
        .sort([*gk, "round"])
        .with_columns(_held=pl.col("_sole").forward_fill().over(gk))
        .with_columns(_before=pl.col("_held").shift(1).over(gk))
    )
    change = (pl.col("_sole") != pl.col("_before")) & pl.col("_before").is_not_null()
    return (
        per_round.group_by(gk, maintain_order=True)
        .agg(
            n_players=pl.col("_seats").first().cast(pl.UInt8),
            rounds=pl.col("round").max(),
            lead_changes=change.fill_null(False).sum().cast(pl.Int64),
            final_leader=pl.col("_sole").last(),
        )
        .sort(gk)
    )


def lead_change_summary(
    round_scores: Frame,
    *,
    setups: Frame | None = None,
    cluster: str | None = SETUP,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Lead changes per player count: mean (interval over setups), none, most.

    ``setups`` names each game's setup (column ``cluster``; the result frame
    will do); without it every game is its own cluster.

    Returns
    -------
    polars.DataFrame
        ``n_players, games, clusters, mean, lower, upper, median, p10, p90,
        share_none, max, design_effect``.
    """
    per_game = _attach_setups(lead_changes(round_scores), setups, cluster)
    return _summarise(
        per_game, "lead_changes", cluster=cluster, confidence=confidence
    ).rename({"share_zero": "share_none"})


def comeback_decisiveness(round_scores: Frame) -> pl.DataFrame:
    """The eventual winner's path: its worst deficit and its decisive round.

    The winner is the seat with the sole top score after the last round
    (null when that score is shared: the comeback and decisive round are
    then null too).  After each round its deficit is the leader's score
    minus its own (0 when it leads or shares the lead); ``comeback`` is the
    largest deficit and ``comeback_round`` the first round it was reached
    (null when the comeback is 0).  ``decisive_round`` is the first round
    from which the winner is the sole leader after every round to the end
    (1 when it led throughout), ``decisive_share`` that round over the
    game's rounds.

    Returns
    -------
    polars.DataFrame
        ``[run,] game_id, n_players, rounds, winner, comeback,
        comeback_round, decisive_round, decisive_share``.

    Examples
    --------
    >>> import polars as pl
    >>> t = pl.DataFrame({"game_id": [0] * 6, "round": [1, 1, 2, 2, 3, 3],
    ...     "seat": [0, 1] * 3, "score": [9, 2, 12, 14, 15, 20]})
    >>> comeback_decisiveness(t).select("winner", "comeback", "comeback_round",
    ...     "decisive_round").row(0)
    (1, 7, 1, 2)
    """
    df = validate_round_scores(round_scores)
    gk = _game_keys(df)
    at_round = [*gk, "round"]
    score = pl.col("score").cast(pl.Int64)
    df = df.with_columns(
        _top=score.max().over(at_round),
        _n_top=(score == score.max().over(at_round)).sum().over(at_round),
        _last=pl.col("round").max().over(gk),
    )
    games = df.group_by(gk).agg(
        n_players=pl.col("seat").n_unique().cast(pl.UInt8),
        rounds=pl.col("round").max(),
    )
    winners = df.filter(
        (pl.col("round") == pl.col("_last"))
        & (score == pl.col("_top"))
        & (pl.col("_n_top") == 1)
    ).select(*gk, winner="seat")
    path = df.join(winners, left_on=[*gk, "seat"], right_on=[*gk, "winner"])
    deficit = pl.col("_top") - score
    sole = (deficit == 0) & (pl.col("_n_top") == 1)
    rnd = pl.col("round").cast(pl.Int64)
    per_game = path.group_by(gk).agg(
        winner=pl.col("seat").first(),
        comeback=deficit.max(),
        comeback_round=pl.when(deficit.max() > 0)
        .then(rnd.filter(deficit == deficit.max()).min())
        .otherwise(None),
        decisive_round=rnd.filter(~sole).max().fill_null(0) + 1,
    )
    return (
        games.join(per_game, on=gk, how="left", maintain_order="left")
        .with_columns(
            decisive_share=pl.col("decisive_round") / pl.col("rounds").cast(pl.Float64)
        )
        .select(
            *gk,
            "n_players",
            "rounds",
            "winner",
            "comeback",
            "comeback_round",
            "decisive_round",
            "decisive_share",
        )
        .sort(gk)
    )


def comeback_summary(
    round_scores: Frame,
    *,
    setups: Frame | None = None,
    cluster: str | None = SETUP,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """Comeback and decisive round per player count (multiplayer games).

    One row per player count and measure (:data:`MEASURES`): the mean over
    the games with a sole winner with a cluster-robust interval over setups
    (``setups`` as in :func:`lead_change_summary`), and the spread.
    ``comeback_round`` is over the games whose winner trailed; shares'
    intervals are clipped to [0, 1]; ``tied`` counts the player count's
    games left out because first place was shared on points.

    Returns
    -------
    polars.DataFrame
        ``n_players, measure, games, clusters, mean, lower, upper, median,
        p10, p90, max, design_effect, tied``.
    """
    per_game = _attach_setups(
        comeback_decisiveness(round_scores).filter(pl.col("n_players") >= 2),
        setups,
        cluster,
    )
    tied = per_game.group_by("n_players").agg(
        tied=pl.col("winner").is_null().sum().cast(pl.Int64)
    )
    decided = per_game.filter(pl.col("winner").is_not_null()).with_columns(
        behind=(pl.col("comeback") > 0).cast(pl.Float64),
        led_throughout=(pl.col("decisive_round") == 1).cast(pl.Float64),
    )
    frames = []
    for measure in MEASURES:
        out = _summarise(
            decided, measure, cluster=cluster, confidence=confidence,
            share=measure in _SHARES,
        )  # fmt: skip
        frames.append(out.with_columns(measure=pl.lit(measure)))
    order = pl.col("measure").replace_strict(
        {m: i for i, m in enumerate(MEASURES)}, return_dtype=pl.Int64
    )
    return (
        pl.concat(frames, how="vertical_relaxed")
        .join(tied, on="n_players", how="left", maintain_order="left")
        .sort("n_players", order)
        .select(
            "n_players",
            "measure",
            "games",
            "clusters",
            "mean",
            "lower",
            "upper",
            "median",
            "p10",
            "p90",
            "max",
            "design_effect",
            "tied",
        )
    )


# --------------------------------------------------------------------------------
# From the result frame: margins, length, short games
# --------------------------------------------------------------------------------


def _per_game(games: Frame, columns: Sequence[str] = ()) -> pl.DataFrame:
    """One row per game: its keys, ``n_players``, ``[group]``, the columns' values.

    ``columns`` are taken from the game's first row, except the names in
    ``columns`` ending with ``[]`` (e.g. ``"planet[]"``): those are the list
    of the game's distinct values.  Refuses a frame whose game keys pool
    several games (more rows than seats: runs concatenated without ``run``).
    """
    lazy = games.lazy()
    names = lazy.collect_schema().names()
    gk = _game_keys(lazy)
    first = [c for c in columns if not c.endswith("[]")]
    lists = [c[:-2] for c in columns if c.endswith("[]")]
    extra = [SETUP] if SETUP in names else []
    missing = sorted({"n_players", *first, *lists} - set(names))
    if missing:
        raise ValueError(f"the frame lacks column(s) {missing}; it has {names}")
    out = (
        lazy.group_by(gk)
        .agg(
            pl.col("n_players").first(),
            *(pl.col(c).first() for c in [*extra, *first]),
            *(pl.col(c).drop_nulls().unique() for c in lists),
            _rows=pl.len(),
        )
        .collect()
    )
    if (out["_rows"] > out["n_players"].cast(pl.Int64)).any():
        raise ValueError(
            f"some games have more rows than seats: {gk} does not identify a "
            "game (concatenated runs need a 'run' column)"
        )
    return out.drop("_rows").sort(gk)


def victory_margins(games: Frame) -> pl.DataFrame:
    """Margin of victory of each multiplayer game: 1st minus 2nd score.

    Returns
    -------
    polars.DataFrame
        ``[run,] game_id, n_players, [group,] margin`` (0 when first place is
        shared; ``group`` when the frame has it).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 0, 0], "n_players": [3] * 3,
    ...     "score": [50, 58, 41]})
    >>> victory_margins(df)["margin"].to_list()
    [8]
    """
    gk = _game_keys(games)
    top = pl.col("score").cast(pl.Int64).sort(descending=True)
    margins = (
        games.lazy()
        .filter(pl.col("n_players") >= 2)
        .group_by(gk)
        .agg(margin=top.get(0) - top.get(1))
        .collect()
    )
    return (
        _per_game(games.lazy().filter(pl.col("n_players") >= 2))
        .join(margins, on=gk, maintain_order="left")
        .sort(gk)
    )


def margin_summary(
    games: Frame, *, cluster: str | None = SETUP, confidence: float = 0.95
) -> pl.DataFrame:
    """Margins of victory per player count: mean (interval over setups), ties.

    Returns
    -------
    polars.DataFrame
        ``n_players, games, clusters, mean, lower, upper, median, p10, p90,
        share_tied, max, design_effect``.
    """
    out = _summarise(
        victory_margins(games), "margin", cluster=cluster, confidence=confidence
    )
    return out.rename({"share_zero": "share_tied"})


def _cuts(per_game: pl.DataFrame, share: float) -> pl.DataFrame:
    """``n_players, cut``: the round whose cumulative share is nearest ``share``.

    A candidate cut is the last round before the next round a game ended in
    (or the last round played): rounds no game ended in add nothing, so the
    cut is named by the latest round of the games it counts.
    """
    if not 0.0 < share < 1.0:
        raise ValueError(f"share must be in (0, 1), got {share}")
    rounds = pl.col("rounds").cast(pl.Int64)
    dist = (
        per_game.group_by("n_players", rounds.alias("_r"))
        .agg(k=pl.len())
        .sort("n_players", "_r")
        .with_columns(
            at=pl.col("k").cum_sum().over("n_players")
            / pl.col("k").sum().over("n_players"),
            cut=(pl.col("_r").shift(-1).over("n_players") - 1).fill_null(pl.col("_r")),
        )
    )
    none = dist.group_by("n_players").agg(cut=pl.col("_r").min() - 1, at=pl.lit(0.0))
    # Rounded, so that two cuts equally far from ``share`` tie exactly.
    distance = (pl.col("at") - share).abs().round(12)
    return (
        pl.concat([none, dist.select("n_players", "cut", "at")], how="vertical")
        .sort("n_players", distance, "cut")
        .group_by("n_players", maintain_order=True)
        .first()
        .select("n_players", "cut")
    )


def _with_short(per_game: pl.DataFrame, share: float) -> pl.DataFrame:
    """``per_game`` with its player count's ``cut`` and the ``short`` flag."""
    return per_game.join(
        _cuts(per_game, share), on="n_players", maintain_order="left"
    ).with_columns(short=pl.col("rounds").cast(pl.Int64) <= pl.col("cut"))


def short_cuts(games: Frame, *, share: float = SHORT_SHARE) -> pl.DataFrame:
    """Each player count's short cut and how many of its games are short.

    The cut ``t`` is the round count at which the share of the player
    count's games over by round ``t`` is nearest ``share`` (ties: the
    smaller share; ``t`` is one below the shortest game when even the
    shortest round holds too many games, and of the rounds that count the
    same games the latest is named).  A game is *short* when it ends in
    round ``t`` or earlier.  Rounds are whole numbers, so ``share_short``
    misses ``share`` by at most half the share of games ending in one round.

    Returns
    -------
    polars.DataFrame
        ``n_players, games, cut, short, share_short``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": range(10), "n_players": [1] * 10,
    ...     "rounds": [12] + [20] * 9})
    >>> short_cuts(df).select("cut", "short", "share_short").row(0)
    (19, 1, 0.1)
    """
    df = _with_short(_per_game(games, ["rounds"]), share)
    return (
        df.group_by("n_players", "cut")
        .agg(games=pl.len().cast(pl.Int64), short=pl.col("short").sum().cast(pl.Int64))
        .with_columns(share_short=pl.col("short") / pl.col("games"))
        .select("n_players", "games", "cut", "short", "share_short")
        .sort("n_players")
    )


def game_length(games: Frame, *, share: float = SHORT_SHARE) -> pl.DataFrame:
    """Rounds played, by player count and end trigger, and the short games.

    Returns
    -------
    polars.DataFrame
        ``n_players, end_trigger, games, share, mean_rounds, min_rounds,
        median_rounds, max_rounds, cut, short``: ``share`` of the player
        count's games, ``cut`` its short cut and ``short`` the trigger's games
        over in round ``cut`` or earlier (:func:`short_cuts`).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": range(10), "n_players": [1] * 10,
    ...     "rounds": [7] + [20] * 9,
    ...     "end_trigger": ["cannot_place"] + ["events"] * 9})
    >>> game_length(df).select("end_trigger", "games", "cut", "short").rows()
    [('cannot_place', 1, 19, 1), ('events', 9, 19, 0)]
    """
    df = _with_short(_per_game(games, ["rounds", "end_trigger"]), share)
    rounds = pl.col("rounds").cast(pl.Float64)
    return (
        df.with_columns(pl.col("end_trigger").cast(pl.String))
        .group_by("n_players", "end_trigger")
        .agg(
            games=pl.len().cast(pl.Int64),
            mean_rounds=rounds.mean(),
            min_rounds=rounds.min(),
            median_rounds=rounds.median(),
            max_rounds=rounds.max(),
            cut=pl.col("cut").first(),
            short=pl.col("short").sum().cast(pl.Int64),
        )
        .with_columns(share=pl.col("games") / pl.col("games").sum().over("n_players"))
        .select(
            "n_players", "end_trigger", "games", "share", "mean_rounds",
            "min_rounds", "median_rounds", "max_rounds", "cut", "short",
        )
        .sort("n_players", "end_trigger")
    )  # fmt: skip


def short_endings(
    games: Frame,
    *,
    by: str | None = None,
    share: float = SHORT_SHARE,
    cluster: str | None = SETUP,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """How often games are short (:func:`short_cuts`), by cause or by label.

    With ``by=None``, per player count and ``cause``: the end trigger of the
    short games, ``"any"`` for all of them; ``rate`` is the share of the
    player count's games that are short by that cause.

    With ``by="planet"`` (or ``"corporation"``), per player count and label
    *present* at the table (a game counts once for every distinct label
    among its seats): ``rate`` among the games with the label,
    ``rate_without`` among the player count's games without it, and their
    ``difference`` with its interval and two-sided p-value.  The table is
    one family of tests ("does this label at the table change how often games
    are short?"): ``p_adjusted`` is Holm over every row with a p-value, and
    ``significant`` is ``p_adjusted < 1 - confidence``.

    Every interval is cluster-robust over setups (``cluster``; each game its
    own cluster when the frame lacks the column), rates clipped to [0, 1].

    Returns
    -------
    polars.DataFrame
        With ``by=None``: ``n_players, cause, cut, games, short, rate, lower,
        upper, clusters, design_effect``.  With ``by``: ``n_players, {by},
        cut, games, short, rate, lower, upper, rate_without, difference,
        diff_lower, diff_upper, p_value, p_adjusted, significant, clusters,
        design_effect``.
    """
    alpha = significance_level(confidence)
    labels = [f"{by}[]"] if by else []
    df = _with_short(_per_game(games, ["rounds", "end_trigger", *labels]), share)
    if by is None:
        return _by_cause(df, cluster, confidence)
    return _by_label(df, by, cluster, confidence, alpha)


def _by_cause(df: pl.DataFrame, cluster: str | None, confidence: float) -> pl.DataFrame:
    trigger = pl.col("end_trigger").cast(pl.String)
    causes = [ANY_CAUSE, *sorted(df.filter("short")["end_trigger"].cast(pl.String)
                                 .unique().to_list())]  # fmt: skip
    long = pl.concat(
        [
            df.with_columns(
                cause=pl.lit(c),
                _v=(pl.col("short") & ((trigger == c) | (c == ANY_CAUSE))).cast(
                    pl.Float64
                ),
            )
            for c in causes
        ]
    )
    counts = long.group_by("n_players", "cause").agg(
        cut=pl.col("cut").first(),
        games=pl.len().cast(pl.Int64),
        short=pl.col("_v").sum().cast(pl.Int64),
    )
    means = _clustered(
        long, "_v", by=("cause",), cluster=cluster, confidence=confidence
    )
    order = pl.col("cause").replace_strict(
        {c: i for i, c in enumerate(causes)}, return_dtype=pl.Int64
    )
    return (
        counts.join(means, on=["n_players", "cause"], maintain_order="left")
        .with_columns(pl.col("lower", "upper").clip(0.0, 1.0))
        .sort("n_players", order)
        .select(
            "n_players",
            "cause",
            "cut",
            "games",
            "short",
            rate="mean",
            lower="lower",
            upper="upper",
            clusters=pl.col("clusters").cast(pl.Int64),
            design_effect="design_effect",
        )
    )


def _by_label(
    df: pl.DataFrame, by: str, cluster: str | None, confidence: float, alpha: float
) -> pl.DataFrame:
    if df.height == 0:
        floats = ["rate", "lower", "upper", "rate_without", "difference",
                  "diff_lower", "diff_upper", "p_value", "p_adjusted"]  # fmt: skip
        listed = df.schema[by]
        label = listed.inner if isinstance(listed, pl.List) else listed
        return pl.DataFrame(
            schema={"n_players": df.schema["n_players"], by: label}
            | {"cut": pl.Int64, "games": pl.Int64, "short": pl.Int64}
            | dict.fromkeys(floats, pl.Float64)
            | {"significant": pl.Boolean, "clusters": pl.Int64}
            | {"design_effect": pl.Float64}
        )
    gk = _game_keys(df)
    present = df.select(*gk, by).explode(by).drop_nulls(by).unique()
    values = df.select("n_players", by).explode(by).drop_nulls(by).unique()
    long = (
        df.drop(by)
        .join(values, on="n_players", maintain_order="left")
        .join(present.with_columns(_present=pl.lit(1, pl.Int8)), on=[*gk, by],
              how="left", maintain_order="left")
        .with_columns(pl.col("_present").fill_null(0), _v=pl.col("short").cast(
            pl.Float64))
    )  # fmt: skip
    key = _cluster_of(long, cluster)
    diffs = clusters.cluster_difference(
        long, by="_present", a=1, b=0, within=(by,), value="_v", cluster=key,
        confidence=confidence,
    ).select(
        "n_players", by, "difference", diff_lower="lower", diff_upper="upper",
        p_value="p_value",
    )  # fmt: skip
    with_label = long.filter(pl.col("_present") == 1)
    means = _clustered(
        with_label, "_v", by=(by,), cluster=cluster, confidence=confidence
    ).drop("p_value")  # the test is of the difference, below
    totals = df.group_by("n_players").agg(
        _all=pl.len(), _all_short=pl.col("short").sum()
    )
    out = (
        with_label.group_by("n_players", by)
        .agg(
            cut=pl.col("cut").first(),
            games=pl.len().cast(pl.Int64),
            short=pl.col("short").sum().cast(pl.Int64),
        )
        .join(means, on=["n_players", by], maintain_order="left")
        .join(diffs, on=["n_players", by], how="left", maintain_order="left")
        .join(totals, on="n_players", maintain_order="left")
        .with_columns(
            rate_without=(pl.col("_all_short") - pl.col("short"))
            / (pl.col("_all") - pl.col("games")),
            lower=pl.col("lower").clip(0.0, 1.0),
            upper=pl.col("upper").clip(0.0, 1.0),
            diff_lower=pl.col("diff_lower").clip(-1.0, 1.0),
            diff_upper=pl.col("diff_upper").clip(-1.0, 1.0),
        )
    )
    out = out.sort("n_players", label_order(by, out.schema[by]))
    adjusted = stats.holm(out["p_value"].fill_null(np.nan).to_numpy())
    return out.with_columns(
        p_adjusted=pl.Series(adjusted),
        significant=pl.Series(np.nan_to_num(adjusted, nan=1.0) < alpha),
    ).select(
        "n_players", by, "cut", "games", "short", rate="mean", lower="lower",
        upper="upper", rate_without="rate_without", difference="difference",
        diff_lower="diff_lower", diff_upper="diff_upper", p_value="p_value",
        p_adjusted="p_adjusted", significant="significant",
        clusters=pl.col("clusters").cast(pl.Int64), design_effect="design_effect",
    )  # fmt: skip


__all__ = [
    "ANY_CAUSE",
    "GLOSSARY",
    "MEASURES",
    "ROUND_SCORE_SCHEMA",
    "SETUP",
    "SHORT_SHARE",
    "comeback_decisiveness",
    "comeback_summary",
    "game_length",
    "lead_change_summary",
    "lead_changes",
    "margin_summary",
    "short_cuts",
    "short_endings",
    "validate_round_scores",
    "victory_margins",
]
