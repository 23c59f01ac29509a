"""The learned rotation value (`rotation_round`; core/bots/greedy_rotation_round.pxi),
re-derived through the engine's public API: each kept rotation's round played
out on the bot's redeal, scored as the game then stands, weighed by the
fitted table's row for the round."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from experiment_scripts import load
from rotation_positions import rotation_decisions

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.lab import rotation_round as rr
from pu_sim.simulation.in_memory import play_range
from pu_sim.simulation.manifest import read_report_manifest
from pu_sim.simulation.plan import Plan
from pu_sim.simulation.table import TableSetup

LEARNED = rr.learned_bot()
RULE = rr.rule_bot()
TABLE = fitted.load_table("rotation_round")["coef"]


def round_played_out(game: Game, rotation: int, seed: int) -> tuple[float, float]:
    """The commander's score and the others' mean once the round `rotation`
    deals is played by the seats' bots on the redeal `seed`."""
    p, players = game.decider, len(game.scores())
    state = game.state.determinized(p, seed)
    round_ = game.fields()["round"]
    state.apply(rotation)
    while not state.is_terminal and state.game_fields()["round"] == round_:
        state.apply(state.bot_move())
    state.score_now()
    scores = [state.player_fields(q)["score"] for q in range(players)]
    return scores[p], float(np.mean([s for q, s in enumerate(scores) if q != p]))


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_a_rotations_round_is_played_out_on_the_bots_redeal(players, seed):
    for game in rotation_decisions(players, seed, LEARNED, 6):
        reading = game.state.rotation_round_outcomes(RULE.vector())
        expected = [
            round_played_out(game, m, reading["seed"]) for m in game.legal_moves()
        ]
        assert np.allclose(reading["outcomes"], expected)


@pytest.mark.parametrize("width", [rr.WIDTH, 1, 2, 6])
def test_the_learned_value_weighs_the_rule_and_the_round_by_the_tables_row(width):
    """The rule's best `rotation_width` rotations are valued by the table's row
    for the round; the others rank below them, in the rule's order."""
    learned = bots.greedy("w", **{**bots.PRESETS["greedy_learned"],
                                  "rotation_width": float(width)})  # fmt: skip
    checked = set()
    for game in rotation_decisions(3, 3, LEARNED, 20):
        rule = np.asarray(probes.greedy_values(game, RULE))
        reading = game.state.rotation_round_outcomes(RULE.vector())
        row = (
            int(np.searchsorted(rr.BUCKET_STARTS, game.fields()["round"], "right")) - 1
        )
        assert reading["bucket"] == row
        values = np.asarray(probes.greedy_values(game, learned))
        kept = rr.top_moves(rule, width)
        assert len(kept) == min(width, len(rule))
        for i in kept:
            features = [rule[i], *reading["outcomes"][i]]
            assert values[i] == pytest.approx(float(np.dot(TABLE[row], features)))
        rest = np.setdiff1d(np.arange(len(rule)), kept)
        if not len(rest):
            checked.add(row)
            continue
        assert values[rest].max() < values[kept].min()
        assert (np.argsort(-values[rest], kind="stable").tolist()
                == np.argsort(-rule[rest], kind="stable").tolist())  # fmt: skip
        checked.add(row)
    assert len(checked) >= 4  # most of the table's rows were read


def test_reading_the_learned_value_draws_nothing_from_the_game():
    game = rotation_decisions(3, 4, LEARNED, 3)[-1]
    untouched = game.copy()
    probes.greedy_values(game, LEARNED)
    game.state.rotation_round_outcomes(RULE.vector())
    game.play()
    untouched.play()
    assert game.scores() == untouched.scores()


@pytest.mark.parametrize("players", [1, 2])
def test_solo_and_two_player_games_are_played_as_without_it(players):
    """The commander turns the station only with 3+ players (SS-3)."""

    def scores(bot: bots.BotSpec) -> np.ndarray:
        plan = Plan.of(TableSetup(players=players, bots=bot), seed=5)
        return np.asarray(play_range(plan, 0, 12)["score"])

    assert np.array_equal(scores(LEARNED), scores(RULE))


def test_the_learned_value_changes_three_player_play():
    plans = [Plan.of(TableSetup(players=3, bots=b), seed=5) for b in (LEARNED, RULE)]
    a, b = (np.asarray(play_range(p, 0, 6)["score"]) for p in plans)
    assert not np.array_equal(a, b)


def test_the_fit_recovers_known_coefficients_within_decisions():
    """Rollout values made from known coefficients per part of the game, plus
    a level per decision the fit must ignore: the fit gives them back."""
    rng = np.random.default_rng(7)
    truth = rng.normal(0, 1, (len(rr.BUCKET_STARTS), len(rr.FEATURES)))
    records = []
    for game in range(400):
        for b in range(len(rr.BUCKET_STARTS)):
            x = rng.normal(0, 3, (rr.WIDTH, len(rr.FEATURES)))
            y = x @ truth[b] + rng.normal(0, 5) + rng.normal(0, 0.1, rr.WIDTH)
            records.append({"game": game, "bucket": b, "features": x.tolist(),
                            "value": y.tolist()})  # fmt: skip
    coef = rr.fit(records, ridge=1e-6)
    assert np.allclose(coef, truth, atol=0.02)
    held = rr.held_out(records, coef)
    assert all(r["gain"] >= 0 and r["decisions"] == 100 for r in held["buckets"])
    assert held["per_game"] > 0


REPORT = Path(__file__).resolve().parents[1] / "reports" / "bots" / "rotation_round"


def test_the_packaged_table_is_the_reports_fit():
    """pu_sim/data/fitted/rotation_round is the fit the committed report
    measured, and there one learned seat beat more than half of its
    greedy_learned and greedy_tuned opponents (95% interval above 50%)."""
    (run,) = sorted(REPORT.iterdir())
    reported = fitted.load_table("rotation_round", run / "table")
    assert np.array_equal(TABLE, reported["coef"])
    rows = read_report_manifest(run).to_json()["results"]["paired"]
    assert len(rows) == 3
    assert all(r["ahead"] - r["half_width"] > 0.5 for r in rows)


def test_smoke_run_writes_a_report_and_leaves_the_packaged_table(tmp_path):
    packaged = fitted.load_fitted().digest
    script = load("bots/rotation_round")
    assert (
        script.main(["--smoke", "--out", str(tmp_path), "--jobs", "1", "--write"]) == 0
    )
    out = tmp_path / "bots" / "rotation_round" / "smoke"
    results = read_report_manifest(out).to_json()["results"]
    assert results["decisions"] >= 4 * 15  # every commander's rotation of 4 games
    assert [r["players"] for r in results["paired"]] == [3, 3, 4]
    assert all(0 <= r["ahead"] <= 1 for r in results["paired"])
    assert (out / "figures" / "rotation_round.png").is_file()
    assert fitted.load_table("rotation_round", out / "table")["coef"].shape == (6, 3)
    assert fitted.load_fitted().digest == packaged


def test_search_rollouts_turn_the_station_by_the_depot_rule():
    """A rollout plays a greedy_learned seat without the learned rotation value
    (its round play-outs would multiply a rollout's cost), as greedy_learned
    without it otherwise."""
    vector = bots.parse("greedy_learned").rollout_vector()
    assert np.array_equal(vector, RULE.rollout_vector())
    assert vector[list(bots.GREEDY_WEIGHTS).index("rotation_round")] == 0.0
