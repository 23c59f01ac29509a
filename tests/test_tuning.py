"""The cross-entropy search and the fitness plumbing, without long simulations."""

from __future__ import annotations

import numpy as np
import pytest

from pu_sim import bots
from pu_sim.bots import GREEDY_WEIGHTS
from pu_sim.lab import tuning


def concave(optimum: np.ndarray, scales: np.ndarray):
    """A concave quadratic with its maximum 0 at ``optimum``."""

    def objective(x: np.ndarray, generation: int) -> np.ndarray:
        return -(((x - optimum) / scales) ** 2).sum(axis=1)

    return objective


def test_cem_finds_the_maximum_of_a_concave_quadratic():
    optimum = np.array([0.8, -0.5, 0.2, 1.1, -1.3])
    result = tuning.cross_entropy(
        concave(optimum, np.array([1.0, 0.5, 2.0, 1.0, 0.3])),
        np.zeros(5), np.ones(5), generations=40, population=30,
        rng=np.random.default_rng(3),
    )  # fmt: skip
    assert np.allclose(result.mean, optimum, atol=0.05)
    assert len(result.history) == 40
    # the distribution narrows as it converges
    assert result.sd.max() < 0.2 < result.history[0].sd.min()


def test_cem_stays_in_the_box_and_finds_a_maximum_on_its_edge():
    result = tuning.cross_entropy(
        concave(np.array([3.0, 0.0]), np.ones(2)), np.zeros(2), np.ones(2),
        generations=30, population=20, rng=np.random.default_rng(1),
        lower=-1.0, upper=1.0,
    )  # fmt: skip
    assert all(np.all(np.abs(g.samples) <= 1.0) for g in result.history)
    assert result.mean[0] == pytest.approx(1.0, abs=0.05)
    assert result.mean[1] == pytest.approx(0.0, abs=0.1)


def test_cem_tolerates_noise_in_the_objective():
    rng = np.random.default_rng(7)
    clean = concave(np.array([0.5, -0.5]), np.ones(2))

    def noisy(x: np.ndarray, g: int) -> np.ndarray:
        return clean(x, g) + 0.05 * rng.standard_normal(len(x))

    result = tuning.cross_entropy(
        noisy, np.zeros(2), np.ones(2), generations=40, population=30,
        rng=np.random.default_rng(2),
    )  # fmt: skip
    assert np.allclose(result.mean, [0.5, -0.5], atol=0.15)


def test_cem_update_moves_towards_the_elite():
    samples = np.array([[0.0], [1.0], [2.0], [3.0]])
    fitness = np.array([0.0, 1.0, 3.0, 2.0])
    mean, sd, elite = tuning.cem_update(
        np.zeros(1), np.ones(1), samples, fitness, elite_frac=0.5, smoothing=1.0
    )
    assert list(elite) == [2, 3]
    assert mean[0] == pytest.approx(2.5) and sd[0] == pytest.approx(0.5)
    half, _, _ = tuning.cem_update(
        np.zeros(1), np.ones(1), samples, fitness, elite_frac=0.5, smoothing=0.5
    )
    assert half[0] == pytest.approx(1.25)
    with pytest.raises(ValueError, match="smoothing"):
        tuning.cem_update(np.zeros(1), np.ones(1), samples, fitness, smoothing=0.0)
    with pytest.raises(ValueError, match="fitness shape"):
        tuning.cem_update(np.zeros(1), np.ones(1), samples, fitness[:2])


def test_cem_is_reproducible_from_its_generator():
    def run() -> np.ndarray:
        return tuning.cross_entropy(
            concave(np.ones(3), np.ones(3)), np.zeros(3), np.ones(3),
            generations=5, population=8, rng=np.random.default_rng(11),
        ).mean  # fmt: skip

    assert np.array_equal(run(), run())


def test_log_weights_round_trip_around_the_defaults():
    assert "noise" not in tuning.TUNED_WEIGHTS
    zero = tuning.weights_from_theta(np.zeros(len(tuning.TUNED_WEIGHTS)))
    assert zero == {n: GREEDY_WEIGHTS[n] for n in tuning.TUNED_WEIGHTS}
    theta = np.linspace(-1.0, 1.0, len(tuning.TUNED_WEIGHTS))
    back = tuning.theta_from_weights(tuning.weights_from_theta(theta))
    assert np.allclose(back, theta, atol=1e-3)
    with pytest.raises(ValueError, match="values for"):
        tuning.weights_from_theta([0.0])


def test_win_share_splits_ties_and_sums_to_one_per_game():
    import polars as pl

    games = pl.DataFrame(
        {"game_id": [0, 0, 0, 1, 1, 1], "won": [True, False, False, True, True, False]}
    )
    assert tuning.win_share(games).to_list() == [1.0, 0.0, 0.0, 0.5, 0.5, 0.0]


def test_the_default_bot_has_no_multiplayer_edge_by_symmetry():
    """Rotating one default seat among default seats gives exactly 1/4."""
    fit = tuning.GreedyFitness(solo_games=4, multi_games=3, n_jobs=1)
    fitness, solo, share = fit.score(bots.greedy(), 5)
    assert share == pytest.approx(0.25)
    assert fitness == pytest.approx(solo)
    seats = tuning.rotated_seats(bots.random(), bots.greedy(), 4)
    assert [[b.kind for b in s].index("random") for s in seats] == [0, 1, 2, 3]
