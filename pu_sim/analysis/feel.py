"""Game feel: how close games are, how often the lead changes, when they end.

Two inputs.  The result frame (one row per (game, seat)) gives each game's
final scores, ``rounds`` and ``end_trigger`` (``cannot_place``: a player could
not place a tile, 9.1 A; ``depot_empty``, 9.1 B; ``events``: the event deck's
last card, 9.1 C).  The *round score table* gives each seat's score after
every round, for lead changes; its schema is the run folder's
(:data:`pu_sim.simulation.frames.ROUND_SCORE_SCHEMA`, checked by
:func:`validate_round_scores`):

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

An *early ending* is a game over before round ``full_rounds`` (default 20:
with the 20-card event deck the last card comes in round 20, so only triggers
A and B can end a game sooner).  Some 4-player games with a Cerberus seat end
in rounds 3-7 because that player fills a sub-planet and cannot place:
:func:`early_endings` by planet present shows it.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from pu_sim.analysis import stats
from pu_sim.analysis.frame import Frame
from pu_sim.simulation.frames import ROUND_SCORE_SCHEMA

_RANGES = {
    "game_id": (0, 2**64 - 1),
    "round": (1, 255),
    "seat": (0, 255),
    "score": (-(2**15), 2**15 - 1),
}

FULL_ROUNDS = 20
"""Rounds of a game that runs to the end of the 20-card event deck."""

ANY_CAUSE = "any"


def _game_keys(frame: Frame) -> list[str]:
    names = frame.lazy().collect_schema().names()
    return ["run", "game_id"] if "run" in names else ["game_id"]


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
    round_scores: Frame, *, confidence: float = 0.95
) -> pl.DataFrame:
    """Lead changes per player count: mean (t interval), none, most.

    Returns
    -------
    polars.DataFrame
        ``n_players, games, mean, lower, upper, share_none, max``.
    """
    per_game = lead_changes(round_scores)
    return _summarise(per_game, "lead_changes", confidence).rename(
        {"share_zero": "share_none"}
    )


def _summarise(per_game: pl.DataFrame, value: str, confidence: float) -> pl.DataFrame:
    v = pl.col(value).cast(pl.Float64)
    out = (
        per_game.group_by("n_players")
        .agg(
            games=pl.len().cast(pl.Int64),
            mean=v.mean(),
            _sd=v.std(),
            median=v.median(),
            p10=v.quantile(0.1, "nearest"),
            p90=v.quantile(0.9, "nearest"),
            share_zero=(v == 0).mean(),
            max=v.max(),
        )
        .sort("n_players")
    )
    lo, hi = stats.mean_interval(
        out["mean"].to_numpy(), out["_sd"].to_numpy(), out["games"].to_numpy(),
        confidence,
    )  # fmt: skip
    return out.select(
        "n_players", "games", "mean", lower=pl.Series(lo), upper=pl.Series(hi),
        median="median", p10="p10", p90="p90", share_zero="share_zero", max="max",
    )  # fmt: skip


# --------------------------------------------------------------------------------
# From the result frame: margins, length, early endings
# --------------------------------------------------------------------------------


def victory_margins(games: Frame) -> pl.DataFrame:
    """Margin of victory of each multiplayer game: 1st minus 2nd score.

    Returns
    -------
    polars.DataFrame
        ``[run,] game_id, n_players, margin`` (0 when first place is shared).

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
    return (
        games.lazy()
        .select(*gk, "n_players", "score")
        .filter(pl.col("n_players") >= 2)
        .group_by(gk)
        .agg(pl.col("n_players").first(), margin=top.get(0) - top.get(1))
        .sort(gk)
        .collect()
    )


def margin_summary(games: Frame, *, confidence: float = 0.95) -> pl.DataFrame:
    """Margins of victory per player count: mean (t interval), spread, ties.

    Returns
    -------
    polars.DataFrame
        ``n_players, games, mean, lower, upper, median, p10, p90,
        share_tied, max``.
    """
    out = _summarise(victory_margins(games), "margin", confidence)
    return out.rename({"share_zero": "share_tied"})


def _per_game(games: Frame, columns: Sequence[str]) -> pl.DataFrame:
    """One row per game: its keys, ``n_players, rounds, end_trigger``, columns."""
    gk = _game_keys(games)
    return (
        games.lazy()
        .group_by(gk)
        .agg(
            pl.col("n_players").first(),
            pl.col("rounds").first(),
            pl.col("end_trigger").first().cast(pl.String),
            *(pl.col(c).unique() for c in columns),
        )
        .collect()
    )


def game_length(games: Frame, *, full_rounds: int = FULL_ROUNDS) -> pl.DataFrame:
    """Rounds played, by player count and end trigger.

    Returns
    -------
    polars.DataFrame
        ``n_players, end_trigger, games, share, mean_rounds, min_rounds,
        median_rounds, max_rounds, early``: ``share`` of the player count's
        games, ``early`` the games over before round ``full_rounds``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"game_id": [0, 1, 2], "n_players": [1] * 3,
    ...     "rounds": [20, 20, 7], "end_trigger": ["events", "events",
    ...     "cannot_place"]})
    >>> game_length(df).select("end_trigger", "games", "early").rows()
    [('cannot_place', 1, 1), ('events', 2, 0)]
    """
    df = _per_game(games, [])
    rounds = pl.col("rounds").cast(pl.Float64)
    return (
        df.group_by("n_players", "end_trigger")
        .agg(
            games=pl.len().cast(pl.Int64),
            mean_rounds=rounds.mean(),
            min_rounds=rounds.min(),
            median_rounds=rounds.median(),
            max_rounds=rounds.max(),
            early=(pl.col("rounds") < full_rounds).sum().cast(pl.Int64),
        )
        .with_columns(share=pl.col("games") / pl.col("games").sum().over("n_players"))
        .select(
            "n_players", "end_trigger", "games", "share", "mean_rounds",
            "min_rounds", "median_rounds", "max_rounds", "early",
        )
        .sort("n_players", "end_trigger")
    )  # fmt: skip


def early_endings(
    games: Frame,
    *,
    by: str | None = None,
    full_rounds: int = FULL_ROUNDS,
    confidence: float = 0.95,
) -> pl.DataFrame:
    """How often games end before round ``full_rounds``, by cause and label.

    With ``by=None``, per player count; with ``by="planet"`` (or
    ``"corporation"``), per player count and label *present* at the table: a
    game counts once for every distinct label among its seats, so a rate is
    "of the games with a Cerberus seat, how many ended early".  ``cause`` is
    the end trigger of the early games, with ``"any"`` for all of them;
    ``rate`` is ``early / games`` with a Wilson interval, and ``rate_without``
    the same cause's rate in the player count's games without the label.

    Returns
    -------
    polars.DataFrame
        ``n_players, [by,] cause, games, early, rate, lower, upper,
        rate_without`` (``rate_without`` only with ``by``).
    """
    labels = [by] if by else []
    df = _per_game(games, labels)
    if by:
        df = df.explode(by)
    keys = ["n_players", *labels]
    games_per = df.group_by(keys).agg(games=pl.len().cast(pl.Int64))
    early = df.filter(pl.col("rounds") < full_rounds)
    causes = pl.concat(
        [
            early.group_by(keys)
            .agg(early=pl.len())
            .with_columns(cause=pl.lit(ANY_CAUSE)),
            early.group_by([*keys, "end_trigger"])
            .agg(early=pl.len())
            .rename({"end_trigger": "cause"}),
        ],
        how="diagonal",
    )
    grid = games_per.join(
        pl.DataFrame({"cause": [ANY_CAUSE, *sorted(set(early["end_trigger"]))]}),
        how="cross",
    )
    out = grid.join(
        causes, on=[*keys, "cause"], how="left", maintain_order="left"
    ).with_columns(pl.col("early").fill_null(0).cast(pl.Int64))
    lo, hi = stats.wilson_interval(
        out["early"].to_numpy(), out["games"].to_numpy(), confidence
    )
    out = out.with_columns(
        rate=pl.col("early") / pl.col("games"), lower=pl.Series(lo), upper=pl.Series(hi)
    )
    if by:
        totals = _totals(df, early)
        out = (
            out.join(
                totals, on=["n_players", "cause"], how="left", maintain_order="left"
            )
            .with_columns(
                rate_without=(pl.col("_all_early") - pl.col("early"))
                / (pl.col("_all_games") - pl.col("games"))
            )
            .drop("_all_early", "_all_games")
        )
    cause_order = pl.col("cause") != ANY_CAUSE
    return out.sort([*keys, cause_order, "cause"]).select(
        *keys, "cause", *(c for c in out.columns if c not in (*keys, "cause"))
    )


def _totals(df: pl.DataFrame, early: pl.DataFrame) -> pl.DataFrame:
    """Per player count and cause: all games and early games (distinct games)."""
    gk = [c for c in ("run", "game_id") if c in df.columns]
    games = df.unique(gk).group_by("n_players").agg(_all_games=pl.len())
    once = early.unique(gk)
    per_cause = pl.concat(
        [
            once.group_by("n_players")
            .agg(_all_early=pl.len())
            .with_columns(cause=pl.lit(ANY_CAUSE)),
            once.group_by("n_players", "end_trigger")
            .agg(_all_early=pl.len())
            .rename({"end_trigger": "cause"}),
        ],
        how="diagonal",
    )
    return games.join(per_cause, on="n_players", maintain_order="left").with_columns(
        pl.col("_all_games", "_all_early").cast(pl.Float64)
    )


__all__ = [
    "ANY_CAUSE",
    "FULL_ROUNDS",
    "ROUND_SCORE_SCHEMA",
    "early_endings",
    "game_length",
    "lead_change_summary",
    "lead_changes",
    "margin_summary",
    "validate_round_scores",
    "victory_margins",
]
