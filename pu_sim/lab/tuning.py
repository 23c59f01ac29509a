"""Tune the greedy bot's weights by simulation: a cross-entropy method.

The optimiser is plain numpy and knows nothing about games
(:func:`cross_entropy`, tested on toy objectives); the game side is
:class:`GreedyFitness`, which scores a population of weight vectors on common
random numbers: every candidate of a generation plays the same seeded solo
setups and the same seeded 4-player setups, so the noise they share cancels
when the generation is ranked.

Weights are searched on a log scale around the defaults,
``weight = default * exp(theta)`` with ``theta`` in a box, so every weight
keeps its sign and the search treats 0.1 and 1.0 alike.

Examples
--------
>>> import numpy as np
>>> result = cross_entropy(lambda x, g: -((x - 0.3) ** 2).sum(axis=1),
...                        np.zeros(2), np.ones(2), generations=30,
...                        population=40, rng=np.random.default_rng(0))
>>> bool(np.allclose(result.mean, 0.3, atol=0.05))
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import polars as pl

from pu_sim import bots
from pu_sim.bots import GREEDY_WEIGHTS, BotSpec
from pu_sim.rules import RuleOptions
from pu_sim.simulation.in_memory import simulate
from pu_sim.simulation.seeds import SeedLike

FloatArray = npt.NDArray[np.float64]
Objective = Callable[[FloatArray, int], FloatArray]
"""Fitness of a population ``(n, d)`` in generation ``g``: shape ``(n,)``."""

COUNTS = ("look_width", "rotation_width", "ntuple_players")
"""Greedy weights that are counts (of placements, of rotations), not values."""

TUNED_WEIGHTS: tuple[str, ...] = tuple(
    w for w in GREEDY_WEIGHTS if GREEDY_WEIGHTS[w] > 0 and w not in COUNTS
)
"""The weights the search moves on a log scale around their defaults: those with a
positive default but the counts (``COUNTS``).
``noise`` stays 0 (a deterministic bot); ``track_fit`` is set by the presets from
a paired sweep (experiments/bots/track_values.py fits the table it scales); the
zero-default weights added later (``line_chance``, ``regress_*``, ``early``,
``objective_chance``) are fitted by experiments/bots/fit_greedy.py, and
``neighbour`` is set by hand (solo fits cannot see neighbour cards)."""


# --------------------------------------------------------------------------------
# The optimiser
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Generation:
    """One generation: the sampling distribution and how its samples scored."""

    mean: FloatArray
    sd: FloatArray
    samples: FloatArray
    fitness: FloatArray
    elite: npt.NDArray[np.intp]


@dataclass(frozen=True)
class CEMResult:
    """The final distribution (its mean is the answer) and every generation."""

    mean: FloatArray
    sd: FloatArray
    history: list[Generation] = field(default_factory=list)


def cem_update(
    mean: FloatArray,
    sd: FloatArray,
    samples: FloatArray,
    fitness: FloatArray,
    *,
    elite_frac: float = 0.25,
    smoothing: float = 0.7,
    min_sd: float = 0.02,
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.intp]]:
    """One cross-entropy step: refit a diagonal Gaussian to the elite samples.

    The new mean and sd move a ``smoothing`` share of the way to the elite's
    mean and sd, which keeps a noisy ranking from collapsing the search in one
    generation; ``min_sd`` keeps it exploring.  Returns the new mean, the new
    sd and the indices of the elite (best first).
    """
    if not 0.0 < elite_frac <= 1.0:
        raise ValueError(f"elite_frac must be in (0, 1], got {elite_frac}")
    if not 0.0 < smoothing <= 1.0:
        raise ValueError(f"smoothing must be in (0, 1], got {smoothing}")
    n = samples.shape[0]
    if fitness.shape != (n,):
        raise ValueError(f"fitness shape {fitness.shape} for {n} samples")
    n_elite = max(2, math.ceil(elite_frac * n)) if n >= 2 else 1
    elite = np.argsort(-fitness, kind="stable")[:n_elite]
    e = samples[elite]
    new_mean = (1.0 - smoothing) * mean + smoothing * e.mean(axis=0)
    new_sd = (1.0 - smoothing) * sd + smoothing * e.std(axis=0)
    return new_mean, np.maximum(new_sd, min_sd), elite


def cross_entropy(
    objective: Objective,
    mean: FloatArray,
    sd: FloatArray,
    *,
    generations: int,
    population: int,
    rng: np.random.Generator,
    lower: FloatArray | float = -np.inf,
    upper: FloatArray | float = np.inf,
    elite_frac: float = 0.25,
    smoothing: float = 0.7,
    min_sd: float = 0.02,
    callback: Callable[[Generation], None] | None = None,
) -> CEMResult:
    """Maximise ``objective`` with the cross-entropy method (diagonal Gaussian).

    Each generation draws ``population`` samples, clipped to the box
    ``[lower, upper]``, calls ``objective(samples, generation)`` once (so it
    can play all of them on the same seeds) and refits the distribution to
    the elite with :func:`cem_update`.  The answer is the final mean, not the
    best sample: the best of a noisy generation is biased upwards.
    """
    if generations < 1 or population < 2:
        raise ValueError("need generations >= 1 and population >= 2")
    mean = np.asarray(mean, dtype=np.float64).copy()
    sd = np.asarray(sd, dtype=np.float64).copy()
    history: list[Generation] = []
    for g in range(generations):
        samples = mean + sd * rng.standard_normal((population, mean.size))
        samples = np.clip(samples, lower, upper)
        fitness = np.asarray(objective(samples, g), dtype=np.float64)
        new_mean, new_sd, elite = cem_update(
            mean, sd, samples, fitness,
            elite_frac=elite_frac, smoothing=smoothing, min_sd=min_sd,
        )  # fmt: skip
        gen = Generation(mean, sd, samples, fitness, elite)
        history.append(gen)
        if callback is not None:
            callback(gen)
        mean, sd = np.clip(new_mean, lower, upper), new_sd
    return CEMResult(mean, sd, history)


# --------------------------------------------------------------------------------
# Weights <-> search space
# --------------------------------------------------------------------------------


def weights_from_theta(
    theta: Sequence[float] | FloatArray, names: Sequence[str] = TUNED_WEIGHTS
) -> dict[str, float]:
    """Greedy weights ``default * exp(theta)`` (rounded to 4 significant digits)."""
    if len(theta) != len(names):
        raise ValueError(f"{len(theta)} values for {len(names)} weights")
    return {
        n: float(f"{GREEDY_WEIGHTS[n] * math.exp(float(t)):.4g}")
        for n, t in zip(names, theta, strict=True)
    }


def theta_from_weights(
    weights: Mapping[str, float], names: Sequence[str] = TUNED_WEIGHTS
) -> FloatArray:
    """The inverse of :func:`weights_from_theta` (defaults for unnamed weights)."""
    return np.array(
        [math.log(weights.get(n, GREEDY_WEIGHTS[n]) / GREEDY_WEIGHTS[n]) for n in names]
    )


# --------------------------------------------------------------------------------
# The game side: fitness on common random numbers
# --------------------------------------------------------------------------------


def win_share(games: pl.DataFrame) -> pl.Series:
    """Each seat's share of its game's win: ties split, so a fair seat gets 1/n."""
    return (
        games.select(
            pl.col("won").cast(pl.Float64)
            / pl.col("won").cast(pl.Float64).sum().over("game_id")
        )
        .to_series()
        .alias("win_share")
    )


def rotated_seats(
    candidate: BotSpec, field: BotSpec, players: int
) -> list[list[BotSpec]]:
    """One seating per seat: the candidate there, the field everywhere else."""
    return [
        [candidate if s == k else field for s in range(players)] for k in range(players)
    ]


@dataclass(frozen=True, kw_only=True)
class GreedyFitness:
    """Solo score plus multiplayer strength of greedy weight vectors.

    ``fitness = mean solo score + multi_weight * (win share - 1/players)``,
    where the win share is the candidate seat's share of wins against
    ``players - 1`` default-greedy seats, averaged over the ``players``
    seatings of the candidate on the same seeded setups (so seat order
    cancels).  With ``multi_weight`` 0 or ``multi_games`` 0 it is the solo
    score alone; with ``solo_games`` 0 the multiplayer term alone.

    ``corporation`` and ``planet`` are the candidate's boards (solo and its
    multiplayer seat); the field's are ``field_corporations`` and
    ``field_planets`` (``"random"`` draws them per game).
    """

    solo_games: int
    multi_games: int
    players: int = 4
    multi_weight: float = 10.0
    corporation: str = "universal_coalition"
    planet: str = "ksb_4156"
    field_corporations: str = "universal_coalition"
    field_planets: str = "ksb_4156"
    options: RuleOptions = field(default_factory=RuleOptions)
    field_bot: BotSpec = field(default_factory=bots.greedy)
    names: tuple[str, ...] = TUNED_WEIGHTS
    n_jobs: int = 2

    def solo(self, bot: BotSpec, seed: SeedLike) -> pl.DataFrame:
        """The bot's solo games on this seed."""
        return simulate(
            self.solo_games, players=1, corporations=self.corporation,
            planets=self.planet, bots=bot, seed=seed, n_jobs=self.n_jobs,
            options=self.options,
        )  # fmt: skip

    def multi(self, bot: BotSpec, seed: SeedLike) -> pl.DataFrame:
        """The bot's seat in every seating, with ``win_share`` and ``seating``."""
        parts = []
        for k, seats in enumerate(rotated_seats(bot, self.field_bot, self.players)):
            corps = [self.corporation if s == k else self.field_corporations
                     for s in range(self.players)]  # fmt: skip
            planets = [self.planet if s == k else self.field_planets
                       for s in range(self.players)]  # fmt: skip
            games = simulate(
                self.multi_games, players=self.players, corporations=corps,
                planets=planets, bots=seats, seed=seed, n_jobs=self.n_jobs,
                options=self.options,
            )  # fmt: skip
            parts.append(
                games.with_columns(win_share(games), seating=pl.lit(k))
                .filter(pl.col("seat") == k)
            )  # fmt: skip
        return pl.concat(parts)

    def score(self, bot: BotSpec, seed: SeedLike) -> tuple[float, float, float]:
        """(fitness, mean solo score, win share) of one bot on one seed."""
        solo = float(self.solo(bot, seed)["score"].mean()) if self.solo_games else 0.0  # type: ignore[arg-type]
        share = 1.0 / self.players
        if self.multi_games and self.multi_weight:
            share = float(self.multi(bot, seed)["win_share"].mean())  # type: ignore[arg-type]
        return solo + self.multi_weight * (share - 1.0 / self.players), solo, share

    def bot(
        self, theta: Sequence[float] | FloatArray, label: str = "candidate"
    ) -> BotSpec:
        """The greedy bot of a point of the search space."""
        return bots.greedy(label, **weights_from_theta(theta, self.names))
