"""One plan and one seed contract for every entry point."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim.game import Game
from pu_sim.simulation.plan import UNSET, Plan, plan_of
from pu_sim.simulation.seeds import DEFAULT_SEED, RootSeed, derive, key_number


def test_every_entry_point_defaults_to_one_seed(tmp_path):
    default = pu_sim.simulate(3, players=2)
    assert_frame_equal(default, pu_sim.simulate(3, players=2, seed=DEFAULT_SEED))
    result = pu_sim.run(3, out=tmp_path / "run", players=2)
    assert result.manifest.to_json()["config"]["seed"] == DEFAULT_SEED
    assert_frame_equal(result.scan().collect(), default)
    game = Game(players=2, game_index=1)
    game.play()
    assert [s["score"] for s in game.scores()] == (
        default.filter(game_id=1).sort("seat")["score"].to_list()
    )


def test_a_plan_plays_as_its_table_and_seed():
    plan = Plan.of(players=3, bots="greedy", corporations="random", seed=7)
    assert_frame_equal(
        pu_sim.simulate(4, plan),
        pu_sim.simulate(4, players=3, bots="greedy", corporations="random", seed=7),
    )
    with pytest.raises(TypeError, match="seed in the plan or as seed=, not both"):
        pu_sim.simulate(4, plan, seed=7)
    with pytest.raises(TypeError, match="table in the plan or as keywords"):
        plan_of(plan, UNSET, {"players": 2})


def test_child_seeds_are_stable_and_independent():
    root = RootSeed.from_seed(7)
    assert root.child("main", 4) == derive(7, "main", 4)
    assert root.child("main", 4).child("x") == root.child("main", 4, "x")
    keys = {
        (s.k0, s.k1)
        for s in (root, root.child("main", 4), root.child("main", 5),
                  root.child("balance", 4), RootSeed.from_seed(8))
    }  # fmt: skip
    assert len(keys) == 5
    a = pu_sim.simulate(4, players=2, seed=root.child("main", 4))
    b = pu_sim.simulate(4, players=2, seed=root.child("main", 5))
    assert a["score"].to_list() != b["score"].to_list()


def test_a_plans_child_keeps_the_table_and_derives_the_seed():
    plan = Plan.of(players=3, bots="greedy", corporations="random", seed=7)
    child = plan.child("main", 4)
    assert child.table == plan.table
    assert child.seed == RootSeed.from_seed(7).child("main", 4) != plan.seed


@given(st.integers(0, 2**63), st.lists(st.integers(0, 2**31) | st.text(), max_size=3))
def test_a_derived_seed_is_numpys_spawned_sequence(entropy, path):
    child = derive(entropy, *path)
    ss = np.random.SeedSequence(entropy, spawn_key=tuple(key_number(k) for k in path))
    assert [child.k0, child.k1] == [int(v) for v in ss.generate_state(2, np.uint64)]
    assert child.spawn_key == tuple(ss.spawn_key)


@pytest.mark.parametrize("bad", [-1, 1.5, True, None])
def test_bad_seed_keys_are_refused(bad):
    with pytest.raises(ValueError, match="a seed key is a name or an integer >= 0"):
        key_number(bad)  # type: ignore[arg-type]


def test_a_derived_seed_resumes_from_its_manifest(tmp_path):
    seed = derive(3, "study", 2)
    pu_sim.run(4, out=tmp_path, players=2, seed=seed, batch_size=2)
    again = pu_sim.run(6, out=tmp_path, players=2, batch_size=2)  # seed not given
    assert (again.games_resumed, again.games_played) == (4, 2)
    assert_frame_equal(again.scan().collect(), pu_sim.simulate(6, players=2, seed=seed))
    with pytest.raises(ValueError, match="seed"):
        pu_sim.run(6, out=tmp_path, players=2, seed=3)
