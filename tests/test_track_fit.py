"""The rollout-fitted track values: the player's context, the fit, the core's
tables, the greedy's use of them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load

from pu_sim import bots
from pu_sim._core import CONSTANTS
from pu_sim.bots import fitted
from pu_sim.engine import load_rules
from pu_sim.lab import probes
from pu_sim.lab import track_values as tv
from pu_sim.rules.gamedata import TRACKS
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.testing import ScenarioGame, marked_drawing

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "bots" / "track_values" / "400-games-seed-79"


def committed() -> dict:
    """The committed fit's numbers (its report manifest's results)."""
    return read_report_manifest(REPORT).to_json()["results"]


def context_reference(game: ScenarioGame, p: int = 0) -> dict[str, float]:
    """track_context recomputed from the player's public fields."""
    pl = game.player(p)
    rovers = [(x, y) for status, x, y in pl["rovers"] if status == 2]
    pods = [(x, y) for y in range(12) for x in range(12) if pl["lifepod"][y] >> x & 1]
    near = [min([abs(px - x) + abs(py - y) for x, y in rovers] or [99])
            for px, py in pods]  # fmt: skip
    count = sum(bin(r).count("1") for r in pl["occ"])
    out = {
        "lifepods": len(pods),
        "lifepods_near_2": sum(d <= 2 for d in near),
        "lifepods_near_4": sum(d <= 4 for d in near),
        "rovers_on_planet": len(rovers),
        "rovers_in_supply": sum(1 for status, _, _ in pl["rovers"] if status == 1),
        "covered": count,
        "civ_cards": len(pl["civ_cards"]),
        "tech_level": pl["tech_level"],
        "meteorites": sum(bin(r).count("1") for r in pl["meteorite"]),
        "lifepods_collected": pl["lifepods_collected"],
    }
    out.update({f"{t}_position": pos for t, pos in game.tracks(p).items()})
    return out


def test_context_names_match_the_core():
    assert len(tv.CONTEXT) == CONSTANTS["TRACK_FIT_CONTEXT"]
    assert CONSTANTS["TRACK_FIT_POSITIONS"] == tv.POSITIONS
    assert CONSTANTS["TRACK_FIT_PHASES"] == tv.PHASES
    assert CONSTANTS["TRACK_FIT_ROUNDS"] == tv.ROUNDS


def test_known_answer_lifepods_near_the_rovers():
    """Lifepods 1, 3 and 6 squares from the nearest rover; one more covered
    square, two meteorites, a rover in supply."""
    game = ScenarioGame(players=1, bots="random", seed=0)
    planet = game.planet_of(0)
    marks = {(5, 5): "o", (7, 6): "o", (11, 5): "o", (4, 4): "c"}
    game.set_planet(0, marked_drawing(planet, marks), meteorites=((0, 5), (1, 5)))
    game.set_rovers(0, [(4, 5)], in_supply=1)
    game.set_tracks(0, {"civ": 2, "water": 7, "biomass": 0, "rover": 3, "tech": 5})
    got = dict(zip(tv.CONTEXT, probes.track_context(game, 0), strict=True))
    assert got == {
        "lifepods": 3, "lifepods_near_2": 1, "lifepods_near_4": 2,
        "rovers_on_planet": 1, "rovers_in_supply": 1, "covered": 1,
        "civ_cards": 0, "tech_level": got["tech_level"], "meteorites": 2,
        "lifepods_collected": 0, "civ_position": 2, "water_position": 7,
        "biomass_position": 0, "rover_position": 3, "tech_position": 5,
    }  # fmt: skip
    assert got == context_reference(game)


@pytest.mark.parametrize(
    ("corporation", "planet"),
    [("universal_coalition", "ksb_4156"), ("cosmos_inc", "petra"),
     ("makeshift", "oblivion"), ("republic", "random")],
)  # fmt: skip
def test_context_equals_the_reference_through_whole_games(corporation, planet):
    """At every track choice of two games the core's context is the reference's."""
    checked = 0
    for index in range(2):
        game = ScenarioGame(players=1, corporations=corporation, planets=planet,
                    bots="greedy_tuned", seed=17, game_index=index)  # fmt: skip
        while not game.is_terminal:
            if game.decision in tv.CHOICES:
                got = dict(zip(tv.CONTEXT, probes.track_context(game, 0), strict=True))
                assert got == context_reference(game)
                checked += 1
            game.apply(game.bot_move())
    assert checked >= 10


def random_records(rng: np.random.Generator, n: int, cell: np.ndarray,
                   context: np.ndarray, coef: float) -> list[dict]:  # fmt: skip
    """Decisions whose rollout values follow a known table (in greedy units)."""
    records = []
    for _ in range(n):
        tracks = list(rng.choice(5, size=rng.integers(2, 6), replace=False))
        ctx = [float(v) for v in rng.integers(0, 10, len(tv.CONTEXT))]
        rnd = int(rng.integers(1, 21))
        pos = [int(p) for p in rng.integers(0, 16, len(tracks))]
        greedy = list(rng.normal(0, 1, len(tracks)))
        value = [50 + coef * (greedy[i] + cell[t, pos[i], tv.phase(rnd)]
                              + context[t] @ ctx) + rng.normal(0, 0.2)
                 for i, t in enumerate(tracks)]  # fmt: skip
        records.append({"game": 0, "round": rnd, "track": tracks, "pos": pos,
                        "context": ctx, "greedy": greedy, "value": value})  # fmt: skip
    return records


def test_fit_recovers_known_track_values():
    """Rollout values made from a known table (plus noise) give it back: the
    greedy coefficient and, within fresh decisions, the options' differences."""
    rng = np.random.default_rng(3)
    cell = rng.normal(0, 1, (5, 16, 3))
    context = rng.normal(0, 0.1, (5, len(tv.CONTEXT)))
    got = tv.fit(random_records(rng, 30_000, cell, context, 0.3))
    assert got["greedy_coef"] == pytest.approx(0.3, abs=0.02)
    beta = tv.table_vector(got)
    worst = 0.0
    for r in random_records(rng, 300, cell, context, 0.3):
        fitted = np.array([tv.features(r, i) @ beta for i in range(len(r["track"]))])
        truth = np.array([cell[t, r["pos"][i], tv.phase(r["round"])]
                          + context[t] @ r["context"]
                          for i, t in enumerate(r["track"])])  # fmt: skip
        d = (fitted - fitted.mean()) - (truth - truth.mean())
        worst = max(worst, float(np.abs(d).max()))
    assert worst < 0.25


def test_a_greedy_value_that_predicts_nothing_learns_nothing():
    """Greedy's value falling as the rollouts rise: no units, an all-0 table."""
    rng = np.random.default_rng(4)
    records = random_records(rng, 500, np.zeros((5, 16, 3)), np.zeros((5, 15)), 0.3)
    for r in records:
        r["greedy"] = [-g for g in r["greedy"]]
    got = tv.fit(records)
    assert got["greedy_coef"] < 0
    assert not tv.table_vector(got).any()


def test_the_track_table_is_the_committed_fit():
    """pu_sim/data/fitted/track_fit is exactly what the report's fit writes."""
    report = committed()
    keys = [c.key for c in load_rules().data.corporations]
    table = fitted.load_table("track_fit")
    expected = tv.table_arrays(report, keys)
    assert set(table.arrays) == set(expected)
    for name, values in expected.items():
        assert np.array_equal(table[name], values), name
    rows = table.rows()
    for r in report["held_out"]:
        # a corporation whose fit chose worse on its held-out games has no row
        assert (r["corporation"] in rows) == tv.helps(r)
    base = next(r for r in report["held_out"]
                if r["corporation"] == tv.BASE_CORPORATION)  # fmt: skip
    assert tv.helps(base)


def test_greedy_adds_the_scaled_table_to_track_choices():
    """At a track choice each option's value moves by track_fit x (its cell +
    its context terms . the player's context)."""
    table = committed()["tables"]["universal_coalition"]
    base = bots.greedy("a", **{**bots.PRESETS["greedy_tuned"], "track_fit": 0.0})
    fitted = bots.greedy("b", **{**bots.PRESETS["greedy_tuned"], "track_fit": 2.5})
    game = ScenarioGame(players=1, bots=base, seed=5)
    checked = 0
    while not game.is_terminal and checked < 8:
        if game.decision in tv.CHOICES:
            before, after = (
                probes.greedy_values(game, base),
                probes.greedy_values(game, fitted),
            )
            pos, rnd = game.tracks(0), game.fields()["round"]
            ctx = np.array(probes.track_context(game, 0))
            for i, move in enumerate(game.legal_moves()):
                track = game.describe(move).split()[-1]
                t = TRACKS.index(track)
                entry = (table["cell"][t][min(pos[track], 15)][tv.phase(rnd)]
                         + np.dot(table["context"][t], ctx))  # fmt: skip
                assert after[i] - before[i] == pytest.approx(2.5 * entry, abs=1e-2)
            checked += 1
        game.apply(game.bot_move())
    assert checked >= 3


def test_smoke_run_writes_a_report_and_a_table_only_where_told(tmp_path):
    """A smoke run never writes the packaged tables (Session.write_table,
    tests/test_fitting_common.py); given a folder, it writes a table that loads."""
    packaged = fitted.load_fitted().digest
    args = ["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write",
            "--corporations", "universal_coalition", "--tables",
            str(tmp_path / "fitted")]  # fmt: skip
    assert load("bots/track_values").main(args) == 0
    out = tmp_path / "bots" / "track_values" / "smoke"
    data = read_report_manifest(out).to_json()["results"]
    fit = data["tables"]["universal_coalition"]
    assert np.shape(fit["cell"]) == (5, 16, 3)
    assert np.shape(fit["context"]) == (5, len(tv.CONTEXT))
    assert "| universal_coalition |" in (out / "README.md").read_text()
    assert fitted.load_fitted().digest == packaged
    written = fitted.load_table("track_fit", tmp_path / "fitted")
    assert set(written.rows()) <= {"universal_coalition"}
    assert written.meta["command"].startswith("python experiments/bots/track_values.py")
    assert written.meta["report"] == out.as_posix()
