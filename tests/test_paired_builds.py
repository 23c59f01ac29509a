"""Paired comparison of two builds: known answers on hand-made games, one real game."""

from __future__ import annotations

import polars as pl
import pytest

from pu_sim.lab import paired_builds


def games(scores: list[int]) -> pl.DataFrame:
    n = len(scores)
    return pl.DataFrame(
        {"game_id": list(range(n)), "score": scores,
         **{c: [0] * n for c in paired_builds.COLUMNS if c != "score"}}
    )  # fmt: skip


def test_compare_gives_the_paired_difference_and_its_interval():
    out = paired_builds.compare(games([10, 20, 30, 40]), games([11, 20, 33, 40]))
    score = out.filter(pl.col("column") == "score").row(0, named=True)
    assert score["difference"] == pytest.approx(1.0)
    # differences 1, 0, 3, 0: sd sqrt(2), half-width 1.96 sqrt(2) / 2
    assert score["ci95"] == pytest.approx(1.96 * 2**0.5 / 2)
    assert score["games_changed"] == 0.5
    assert out.filter(pl.col("column") == "won")["difference"].item() == 0


def test_compare_refuses_different_games():
    with pytest.raises(ValueError, match="different games"):
        paired_builds.compare(games([1, 2]), games([1, 2, 3]))


def test_the_same_build_plays_the_same_games():
    one = paired_builds.play_seat("cosmos_inc", players=2, games=8, n_jobs=1)
    two = paired_builds.play_seat("cosmos_inc", players=2, games=8, n_jobs=2)
    assert one.height == 8 and one.equals(two)
    diff = paired_builds.compare(one, two)
    assert (diff["difference"] == 0).all() and (diff["games_changed"] == 0).all()
