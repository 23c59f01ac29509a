"""Skill depth on synthetic levels with known gains."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from synthetic_games import multiplayer_frame

from pu_sim.analysis import skill

GAINS = {"Horizon": 9.0, "Coalition": 15.0}


def two_levels(n_setups: int, noise: float, seed: int = 0) -> pl.DataFrame:
    """Solo setups (each with one corporation and a luck of its own) played by
    a weak and a strong bot in two runs with the same seeds (same game_id)."""
    rng = np.random.default_rng(seed)
    corps = list(GAINS)
    rows = []
    for setup in range(n_setups):
        corp = corps[setup % 2]
        luck = rng.normal(0, 8)
        for run, bot, gain in (("w", "weak", 0.0), ("s", "strong", GAINS[corp])):
            score = 45 + luck + gain + rng.normal(0, noise)
            rows.append((run, setup, 1, corp, bot, score))
    return pl.DataFrame(
        rows, schema=["run", "game_id", "n_players", "corporation", "bot", "score"],
        orient="row",
    )  # fmt: skip


def test_gains_are_exact_without_noise_and_paired_by_the_setup():
    df = two_levels(40, noise=0.0)
    out = skill.skill_gains(df, low="weak", high="strong", cluster="game_id")
    got = dict(zip(out["corporation"], out["gain"], strict=True))
    assert got == pytest.approx(GAINS)
    assert out["se"].to_numpy() == pytest.approx([0.0, 0.0], abs=1e-9)
    assert out["paired_clusters"].to_list() == [20, 20]
    assert (
        out["low"].to_list() == ["weak"] * 2 and out["high"].to_list() == ["strong"] * 2
    )


def test_pairing_narrows_the_gain_and_the_default_key_does_not_pair_runs():
    df = two_levels(400, noise=2.0, seed=1)
    paired = skill.skill_gains(df, low="weak", high="strong", cluster="game_id")
    unpaired = skill.skill_gains(df, low="weak", high="strong")  # run in the key
    assert unpaired["paired_clusters"].to_list() == [0, 0]
    assert (paired["se"] < unpaired["se"] / 3).all()
    assert (paired["design_effect"] < 0.2).all()
    for row in paired.iter_rows(named=True):
        assert abs(row["gain"] - GAINS[row["corporation"]]) < 4 * row["se"]


def test_skill_matrix_orders_levels_weakest_first():
    df = two_levels(40, noise=0.0)
    out = skill.skill_matrix(df, levels=["weak", "strong"], value="score",
                             cluster="game_id")  # fmt: skip
    assert out["bot"].cast(pl.String).to_list() == ["weak", "strong"] * 2
    wide = out.pivot("bot", index="corporation", values="mean")
    gains = wide.select("corporation", gain=pl.col("strong") - pl.col("weak"))
    assert dict(gains.iter_rows()) == pytest.approx(GAINS)
    with pytest.raises(ValueError, match="no games of level"):
        skill.skill_matrix(df, levels=["weak", "expert"])
    with pytest.raises(ValueError, match="distinct"):
        skill.skill_matrix(df, levels=["weak", "weak"])


def test_skill_matrix_of_win_rates_in_multiplayer():
    weak = multiplayer_frame(600, 2, bot="weak", seed=1)
    strong = multiplayer_frame(600, 2, bot="strong", corp_effect={"Alpha Corp": 6},
                               seed=2)  # fmt: skip
    df = pl.concat(
        [
            f.with_columns(pl.col("bot").cast(pl.String), run=pl.lit(name))
            for name, f in (("w", weak), ("s", strong))
        ]
    )
    out = skill.skill_matrix(df, levels=["weak", "strong"]).filter(
        pl.col("corporation") == "Alpha Corp"
    )
    rates = dict(zip(out["bot"].cast(pl.String), out["mean"], strict=True))
    assert rates["strong"] > rates["weak"] + 0.15


def test_gain_spread_by_hand():
    """Gains 9 and 15 with se 1: weighted mean 12, Q = 9 + 9 = 18 on 1 df; the
    true spread solves (Q - df) / (sum w - sum w^2 / sum w) = 17 -> sqrt 17."""
    gains = pl.DataFrame({"n_players": [1, 1], "gain": [9.0, 15.0], "se": [1.0, 1.0]})
    row = skill.gain_spread(gains).row(0, named=True)
    assert row["mean_gain"] == 12.0 and row["q"] == 18.0 and row["df"] == 1
    assert row["spread"] == pytest.approx(17**0.5)
    assert row["p_value"] == pytest.approx(2.2090496998585e-05)
    alike = pl.DataFrame({"n_players": [1, 1], "gain": [9.0, 9.5], "se": [1.0, 1.0]})
    assert skill.gain_spread(alike)["spread"][0] == 0.0  # Q below its df: no spread
