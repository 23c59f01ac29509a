"""Bot specs and the named presets: names, weights, and that tuning paid off."""

from __future__ import annotations

import numpy as np
import pytest

import pu_sim
from pu_sim import bots
from pu_sim.analysis import stats
from pu_sim.bots import GREEDY_WEIGHTS, POLICY_PARAMS, PRESET_KINDS, PRESETS
from pu_sim.cli import main
from pu_sim.lab.tuning import TUNED_WEIGHTS


@pytest.mark.parametrize("name", [n for n in PRESETS if n not in PRESET_KINDS])
def test_presets_parse_to_greedy_specs_with_every_weight_named(name):
    spec = bots.parse(name)
    assert spec.kind == "greedy" and spec.label == name
    # by name: the tuned ones and the fitted track values' scale, the later
    # features greedy_tuned's rollout fit weighs and the fitted placement
    # values' scale; never noise
    later = {"line_chance", "regress_reclaim", "regress_delay", "early"}
    later |= {"objective_chance", "neighbour", "place_fit", "next_fit", "next_fit_deep"}
    later |= {"end_chain", "end_rounds", "look_width", "rotation_fit", "rotation_deny"}
    later |= {"rotation_deny_players"}
    named = {*TUNED_WEIGHTS, "track_fit"} | later
    # the learned values
    named |= (
        {
            "ntuple",
            "rotation_round",
            "end_redeals",
            "end_other_rounds",
            "ntuple_players",
        }
        if name == "greedy_learned"
        else set()
    )
    assert set(PRESETS[name]) == named
    assert set(spec.params) == set(GREEDY_WEIGHTS)
    assert all(spec.params[w] >= 0 for w in PRESETS[name])
    assert spec.params["track_fit"] > 0
    assert spec.params["noise"] == 0.0  # a deterministic bot
    assert spec.vector()[: len(GREEDY_WEIGHTS)].tolist() == [
        spec.params[w] for w in GREEDY_WEIGHTS
    ]
    assert spec != bots.greedy(name)  # the weights differ from the defaults


@pytest.mark.parametrize("name", list(PRESET_KINDS))
def test_presets_of_another_kind_parse_to_that_kind_with_its_settings(name):
    spec = bots.parse(name)
    assert spec.kind == PRESET_KINDS[name] and spec.label == name
    assert set(spec.params) == set(POLICY_PARAMS)
    assert set(PRESETS[name]) <= set(POLICY_PARAMS)
    assert bots.parse(f"{name}:rotation=0").params["rotation"] == 0.0


def test_unknown_names_list_the_valid_bots_and_presets():
    with pytest.raises(
        ValueError, match=r"unknown bot 'genius'; valid bots: .*greedy_tuned"
    ):
        bots.parse("genius")
    with pytest.raises(
        ValueError, match=r"unknown preset 'greedy'; valid presets: .*greedy_tuned"
    ):
        bots.preset("greedy")
    assert {"random", "greedy", "search", "policy", *PRESETS} == set(bots.BOT_NAMES)


def test_a_renamed_preset_names_its_new_name():
    """greedy_fast grew endgame rollouts and was renamed: the old name is not
    silently played, its one-line error names the new one."""
    assert "greedy_fast" not in bots.BOT_NAMES and "greedy_learned" in PRESETS
    for call in (bots.parse, bots.preset):
        with pytest.raises(
            ValueError, match=r"renamed 'greedy_learned'.*use 'greedy_learned'"
        ):
            call("greedy_fast")
    assert all("\n" not in why for why in bots.RENAMED_PRESETS.values())


@pytest.mark.parametrize("name", list(bots.RETIRED_PRESETS))
def test_retired_presets_say_why_and_where_their_weights_are(name):
    """A retired name is not silently played as something else: the error names
    the replacement, and the weights it points to are in the committed table."""
    import csv
    from pathlib import Path

    assert name not in PRESETS and name not in bots.BOT_NAMES
    for call in (bots.parse, bots.preset):
        with pytest.raises(ValueError, match=r"retired.*use 'greedy_tuned'"):
            call(name)
    assert bots.RETIRED_WEIGHTS in bots.RETIRED_PRESETS[name]
    table = Path(__file__).resolve().parents[1] / bots.RETIRED_WEIGHTS
    rows = list(csv.DictReader(table.read_text().splitlines()))
    assert {r["weight"] for r in rows} == set(TUNED_WEIGHTS)
    assert all(float(r[name]) > 0 for r in rows)


def test_the_cli_plays_a_preset(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["simulate", "--games", "3", "--players", "2", "--out", str(out)]
    assert main([*args, "--bots", "greedy_tuned,greedy"]) == 0
    assert "greedy_tuned" in capsys.readouterr().out


def test_greedy_tuned_beats_the_default_in_solo_on_fixed_seeds():
    """Regression: the shipped weights must keep their edge (paired, 400 games)."""
    kw = dict(players=1, seed=424242, n_jobs=2)
    default = pu_sim.simulate(400, bots="greedy", **kw)["score"].to_numpy()
    tuned = pu_sim.simulate(400, bots="greedy_tuned", **kw)["score"].to_numpy()
    diff = tuned.astype(float) - default
    lower, _ = stats.mean_interval(diff.mean(), diff.std(ddof=1), diff.size)
    assert float(lower) > 0, (diff.mean(), float(lower))
    assert np.median(tuned) > np.median(default)


def test_the_tuning_record_and_its_weights_table_agree():
    """The committed tuning study's manifest holds the weights its table shows
    (the retired presets' weights among them); greedy_tuned went on from its
    column by rollout fits (tests/test_fit_greedy.py: the latest refit started
    from the preset)."""
    import csv
    from pathlib import Path

    from pu_sim.simulation.manifest import read_report_manifest

    report = Path(__file__).resolve().parents[1] / bots.RETIRED_WEIGHTS
    rows = list(csv.DictReader(report.read_text().splitlines()))
    record = read_report_manifest(report.parents[1]).to_json()["results"]
    assert record["config"]["weights"] == list(TUNED_WEIGHTS)
    for name, weights in record["weights"].items():
        table = {r["weight"]: float(r[name]) for r in rows}
        assert table == pytest.approx(weights, rel=1e-3), name
    assert set(bots.RETIRED_PRESETS) < set(record["weights"])
