"""What the learned bot's parts cost and buy (pu_sim.lab.strength_cost): each
variant is one change, plays as greedy_learned where it cannot act, and the
report judges strength by the stated tolerances."""

from __future__ import annotations

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim.lab import strength_cost as sc
from pu_sim.lab.common import game_scores, share_row
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
        ours = game_scores([sc.variant(name)] * players, 3, 7, 1, boards="random")
        theirs = game_scores([LEARNED] * players, 3, 7, 1, boards="random")
        assert np.array_equal(ours, theirs), (name, where)


@pytest.mark.parametrize("boards", ["base", "random"])
def test_a_seat_among_its_own_kind_beats_half_of_its_opponents(boards):
    """Every cyclic seat order of the same bots plays the same games, so the
    share is exactly even, with no spread over setups."""
    row = share_row(LEARNED, LEARNED, 4, 3, 11, 1, boards=boards)
    assert row["ahead"] == pytest.approx(0.5)
    assert row["half_width"] == pytest.approx(0.0, abs=1e-12)


def test_random_boards_deal_other_corporations_than_the_base_game():
    seats = [bots.parse("greedy")] * 2
    base = game_scores(seats, 4, 3, 1, boards="base")
    drawn = game_scores(seats, 4, 3, 1, boards="random")
    assert base.shape == drawn.shape == (4, 2) and not np.array_equal(base, drawn)


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
