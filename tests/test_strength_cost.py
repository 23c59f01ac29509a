"""What the learned bot's parts cost and buy (pu_sim.lab.strength_cost): each
variant is one change, plays as greedy_learned where it cannot act, and the
report judges strength by the stated tolerances."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim.lab import strength_cost as sc
from pu_sim.simulation.manifest import read_report_manifest

script = load("bots/strength_cost")
LEARNED = bots.parse(sc.REFERENCE)


@pytest.mark.parametrize("name", list(sc.VARIANTS))
def test_each_variant_changes_one_weight_of_greedy_learned(name):
    changed = {k for k, v in sc.variant(name).params.items() if v != LEARNED.params[k]}
    assert changed == set(sc.VARIANTS[name][1])
    assert sc.variant(name).label == name


@pytest.mark.parametrize("name", list(sc.VARIANTS))
def test_a_variant_plays_as_greedy_learned_where_it_cannot_act(name):
    """The report leaves a setting out only where the games are the same."""
    acts = sc.VARIANTS[name][2]
    for where, players in ((sc.SOLO, 1), (sc.MULTI, 4)):
        if where in acts:
            continue
        ours = sc.seat_scores([sc.variant(name)] * players, 3, 7, 1)
        theirs = sc.seat_scores([LEARNED] * players, 3, 7, 1)
        assert np.array_equal(ours, theirs), (name, where)


def test_a_seat_among_its_own_kind_beats_half_of_its_opponents():
    """Every cyclic seat order of the same bots plays the same games, so the
    share is exactly even, with no spread over setups."""
    assert sc.share_among(LEARNED, LEARNED, 4, 3, 11, 1) == (0.5, 0.0)


@pytest.mark.parametrize(
    ("solo", "share", "same"),
    [
        (-0.2, 0.49, True),
        (-0.21, 0.5, False),
        (0.0, 0.489, False),
        (None, 0.49, True),
        (-0.2, None, True),
    ],
)
def test_same_strength_is_within_both_tolerances(solo, share, same):
    row = {}
    if solo is not None:
        row["solo"] = {"diff": solo, "half_width": 0.1}
    if share is not None:
        row["share"] = {"ahead": share, "half_width": 0.01}
    assert sc.same_strength(row) is same


def test_smoke_run_writes_a_report(tmp_path):
    assert script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1"]) == 0
    (folder,) = (tmp_path / "bots" / "strength_cost").iterdir()
    assert (folder / "index.html").is_file()
    assert (folder / "figures" / "strength_cost.png").is_file()
    results = read_report_manifest(folder).to_json()["results"]
    rows = {r["variant"]: r for r in results["rows"]}
    assert set(rows) == {*sc.VARIANTS, "greedy_tuned"}
    for name, row in rows.items():
        acts = set(row["acts"])
        assert ("solo" in row) == (sc.SOLO in acts), name
        assert ("share" in row) == (sc.MULTI in acts), name
        assert set(row["speed"]) == acts
    text = (folder / "README.md").read_text()
    assert all(f"| {name} |" in text for name in rows)
