"""The direct search of the policy network's table scales (pu_sim.lab.policy_scales)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pu_sim.bots import fitted
from pu_sim.engine import core
from pu_sim.lab import policy_scales, policy_td


def _numbered() -> np.ndarray:
    """A network whose every weight is different (and not 0)."""
    return np.arange(1, core.constants()["POLICY_N"] + 1, dtype=np.float64)


@pytest.mark.parametrize("fine", [False, True])
def test_every_weight_but_the_unscaled_tables_belongs_to_exactly_one_scale(fine):
    scales = policy_scales.groups(fine)
    assert len(scales) == (77 if fine else 30)
    seen = np.zeros(core.constants()["POLICY_N"])
    base = _numbered()
    for k in range(len(scales)):
        x = np.ones(len(scales))
        x[k] = 2.0
        seen += policy_scales.scaled(base, scales, x) != base
    unscaled = np.zeros_like(seen, dtype=bool)
    for name, table in policy_td.arrays(unscaled).items():
        table[...] = name in policy_scales.UNSCALED
    assert unscaled.any()
    assert (seen[~unscaled] == 1).all() and (seen[unscaled] == 0).all()


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_a_scale_multiplies_its_table_in_its_parts_of_the_game_only(data):
    fine = data.draw(st.booleans())
    scales = policy_scales.groups(fine)
    k = data.draw(st.integers(0, len(scales) - 1))
    factor = data.draw(st.floats(-3, 3).filter(lambda f: abs(f - 1) > 1e-3))
    x = np.ones(len(scales))
    x[k] = factor
    base = _numbered()
    before = policy_td.arrays(base)
    after = policy_td.arrays(policy_scales.scaled(base, scales, x))
    group = scales[k]
    for table, values in after.items():
        if table != group.table:
            assert (values == before[table]).all()
            continue
        moved = values != before[table]
        np.testing.assert_allclose(values[moved], factor * before[table][moved])
        if group.stage is None:
            assert moved.all()
        else:
            axis = [a.name for a in fitted.TABLES["policy"].arrays[table]].index(
                "stage"
            )
            stages = np.moveaxis(moved, axis, 0)
            span = range(group.stage, group.stage + group.stages)
            assert all(
                stages[s].all() if s in span else not stages[s].any()
                for s in range(stages.shape[0])
            )


def test_the_search_is_seeded_and_the_same_whatever_the_workers():
    """A few generations on a few games: the same weights on 1 and 2 workers, moved."""
    net = np.load(fitted.FITTED_DIR / "policy.npz")
    weights = np.concatenate(
        [net[name].ravel() for name in fitted.TABLES["policy"].arrays]
    )
    one = policy_scales.tune(weights, (1, 1), 7, 6, 1)
    two = policy_scales.tune(weights, (1, 1), 7, 6, 2)
    assert one.tolist() == two.tolist()
    assert not np.array_equal(one, weights)
    assert policy_scales.tune(weights, (1, 1), 8, 6, 1).tolist() != one.tolist()
