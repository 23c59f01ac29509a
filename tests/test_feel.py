"""Game feel on hand-made score traces and game tables."""

from __future__ import annotations

import polars as pl
import pytest

from pu_sim.analysis import feel


def trace(game_id: int, rounds: list[list[int]]) -> pl.DataFrame:
    """A round score table of one game: ``rounds[r][seat]`` is the score."""
    rows = [
        (game_id, r + 1, seat, score)
        for r, scores in enumerate(rounds)
        for seat, score in enumerate(scores)
    ]
    return pl.DataFrame(
        rows, schema=["game_id", "round", "seat", "score"], orient="row"
    )


# ---------------------------------------------------------------- the schema


def test_a_valid_table_comes_back_in_the_schema_sorted():
    table = trace(3, [[1, 2], [5, 4]]).reverse()
    out = feel.validate_round_scores(table)
    assert out.schema == pl.Schema(feel.ROUND_SCORE_SCHEMA)
    assert out["round"].to_list() == [1, 1, 2, 2]
    with_run = feel.validate_round_scores(table.with_columns(run=pl.lit("x")))
    assert "run" in with_run.columns


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.drop("seat"), "lacks column"),
        (lambda t: t.with_columns(pl.col("score").cast(pl.Float64)), "integers"),
        (lambda t: t.with_columns(score=pl.lit(None, pl.Int64)), "nulls"),
        (lambda t: t.with_columns(pl.col("round") - 1), "outside 1..255"),
        (lambda t: pl.concat([t, t.head(1)]), "two rows for round 1, seat 0"),
        (lambda t: t.filter(pl.col("round") != 2), "without a gap"),
        (lambda t: t.filter(~((pl.col("round") == 3) & (pl.col("seat") == 1))),
         "lacks a seat"),
    ],
)  # fmt: skip
def test_bad_tables_are_refused_with_a_reason(change, message):
    table = trace(7, [[1, 2], [3, 4], [5, 6]])
    with pytest.raises(ValueError, match=message):
        feel.validate_round_scores(change(table))


# ---------------------------------------------------------------- lead changes


@pytest.mark.parametrize(
    ("rounds", "changes", "leader"),
    [
        ([[5, 3], [6, 6], [7, 9], [12, 10]], 2, 0),  # a tie passes nothing on
        ([[5, 3], [6, 6], [9, 7]], 0, 0),  # lead lost to a tie and regained
        ([[4, 4], [4, 6], [8, 7]], 1, 0),  # the first sole leader is no change
        ([[1, 2, 3], [4, 2, 3], [4, 9, 3], [4, 9, 9]], 2, None),  # ends tied
        ([[2, 1]], 0, 0),
    ],
)
def test_lead_changes_known_traces(rounds, changes, leader):
    out = feel.lead_changes(trace(0, rounds)).row(0, named=True)
    assert out["lead_changes"] == changes
    assert out["final_leader"] == leader
    assert out["rounds"] == len(rounds) and out["n_players"] == len(rounds[0])


def test_lead_change_summary_per_player_count():
    table = pl.concat([
        trace(0, [[5, 3], [6, 6], [7, 9], [12, 10]]),  # 2 changes
        trace(1, [[5, 3], [6, 2]]),  # none
        trace(2, [[1, 2, 3], [4, 2, 3]]),  # 3 players, 1 change
    ])  # fmt: skip
    out = feel.lead_change_summary(table)
    assert out["n_players"].to_list() == [2, 3]
    assert out["games"].to_list() == [2, 1]
    assert out["mean"].to_list() == [1.0, 1.0]
    assert out["share_none"].to_list() == [0.5, 0.0]


# ---------------------------------------------------------------- from the result frame


def games_table(
    spec: list[tuple[int, int, int, str, list[str], list[int]]],
) -> pl.DataFrame:
    """Rows per seat from (game, n_players, rounds, trigger, planets, scores)."""
    rows = [
        (g, seat, n, planet, score, rounds, trigger)
        for g, n, rounds, trigger, planets, scores in spec
        for seat, (planet, score) in enumerate(zip(planets, scores, strict=True))
    ]
    return pl.DataFrame(
        rows,
        schema=["game_id", "seat", "n_players", "planet", "score", "rounds",
                "end_trigger"],
        orient="row",
    )  # fmt: skip


GAMES = games_table([
    (0, 2, 20, "events", ["North", "South"], [50, 44]),
    (1, 2, 5, "cannot_place", ["Cerberus", "South"], [30, 30]),
    (2, 2, 6, "cannot_place", ["Cerberus", "Cerberus"], [28, 35]),
    (3, 2, 18, "depot_empty", ["North", "East"], [61, 40]),
    (4, 1, 20, "events", ["North"], [58]),
])  # fmt: skip


def test_victory_margins_first_minus_second():
    out = feel.victory_margins(GAMES)
    assert out["margin"].to_list() == [6, 0, 7, 21]  # the solo game has none
    summary = feel.margin_summary(GAMES).row(0, named=True)
    assert summary["games"] == 4 and summary["mean"] == 8.5
    assert summary["share_tied"] == 0.25 and summary["max"] == 21


def test_game_length_by_player_count_and_trigger():
    out = feel.game_length(GAMES)
    assert out.select("n_players", "end_trigger", "games", "share", "early").rows() == [
        (1, "events", 1, 1.0, 0),
        (2, "cannot_place", 2, 0.5, 2),
        (2, "depot_empty", 1, 0.25, 1),
        (2, "events", 1, 0.25, 0),
    ]
    cannot = out.filter(pl.col("end_trigger") == "cannot_place").row(0, named=True)
    assert cannot["mean_rounds"] == 5.5 and cannot["min_rounds"] == 5


def test_early_endings_by_cause():
    out = feel.early_endings(GAMES).filter(pl.col("n_players") == 2)
    assert out.select("cause", "games", "early", "rate").rows() == [
        ("any", 4, 3, 0.75),
        ("cannot_place", 4, 2, 0.5),
        ("depot_empty", 4, 1, 0.25),
    ]
    assert (out["lower"] <= out["rate"]).all() and (out["rate"] <= out["upper"]).all()


def test_early_endings_by_planet_present():
    """Cerberus sits in games 1 and 2 (twice in game 2: counted once), both
    ended early by cannot_place; the other two games: one early (depot)."""
    out = feel.early_endings(GAMES, by="planet").filter(pl.col("n_players") == 2)
    cerberus = out.filter(pl.col("planet") == "Cerberus")
    assert cerberus.select(
        "cause", "games", "early", "rate", "rate_without"
    ).rows() == [
        ("any", 2, 2, 1.0, 0.5),
        ("cannot_place", 2, 2, 1.0, 0.0),
        ("depot_empty", 2, 0, 0.0, 0.5),
    ]
    north = out.filter((pl.col("planet") == "North") & (pl.col("cause") == "any"))
    assert north.select("games", "early", "rate_without").row(0) == (2, 1, 1.0)


def test_no_early_endings_at_a_shorter_full_length():
    out = feel.early_endings(GAMES, full_rounds=5)
    assert out["early"].sum() == 0
