"""The policy network's tables rescaled by a direct search on its play.

TD(lambda) self-play learns values that agree with the play that made them:
the one-ply policy that believes open lines are worth keeping open keeps
them open, and its games confirm it (docs/bots.md, "A policy learned from
outcomes").  More TD learning returns to that fixed point.  A search on the
play itself can leave it: one scale per table (and, in the fine stage, per
part of the game for the tables that read it), searched by CMA-ES (Hansen's
``cma``; the hybrid of evolution and TD learning for n-tuple networks is
Szubert, Jaskowski and Krawiec 2009) to maximise the one-ply policy's mean
solo score on random boards.  The values stay the network's: each weight is
multiplied, none is written by hand, no greedy code is read.

Each candidate plays the same ``games`` seeds of its generation (common
random numbers), each generation new ones derived from the seed, so the
result is a pure function of the weights and the flags, whatever ``jobs``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pu_sim import bots
from pu_sim.bots import fitted
from pu_sim.engine import core
from pu_sim.lab.common import game_scores
from pu_sim.simulation.seeds import SeedLike, derive

Floats = npt.NDArray[np.float64]

STAGED = ("line", "line_planet", "window", "bias", "track", "objective", "civ", "owed")
"""Tables the fine stage scales per part of the game (the planet's tables,
whose worth moves most between the opening and the end, and the largest
others); the coarse stage splits only the planet's three in pairs of parts."""

COARSE_STAGED = ("line", "line_planet", "window")

UNSCALED = ("neighbour",)
"""Tables solo play never reads (the neighbour objectives' standings): a solo
search would move their scale at random, and with it the play at the table
(one such drift, x1.5, cost 5-7 points of share among greedy_learned seats at
3 and 4 players), so they keep TD's values."""


@dataclass(frozen=True)
class Group:
    """The entries one scale multiplies: a table, or one part of the game of it."""

    table: str
    stage: int | None = None  # None: the whole table
    stages: int = 1  # parts of the game the group spans from `stage`


def groups(fine: bool) -> list[Group]:
    """The scales of a stage, every table but UNSCALED once (coarse 30, fine 77)."""
    layout = fitted.TABLES["policy"]
    n_stages = int(core.constants()["POL_STAGES"])
    out: list[Group] = []
    for table in layout.arrays:
        if table in UNSCALED:
            continue
        split = STAGED if fine else COARSE_STAGED
        if table not in split:
            out.append(Group(table))
            continue
        width = 1 if fine else 2
        out += [Group(table, s, width) for s in range(0, n_stages, width)]
    return out


def scaled(weights: Floats, scales: Sequence[Group], x: Sequence[float]) -> Floats:
    """``weights`` with each group's entries multiplied by its scale in ``x``."""
    from pu_sim.lab.policy_td import arrays  # here: policy_td imports this module

    out = np.array(weights, np.float64)
    tables = arrays(out)  # views into out
    axes = fitted.TABLES["policy"].arrays
    for group, factor in zip(scales, x, strict=True):
        table = tables[group.table]
        if group.stage is None:
            table *= factor
            continue
        axis = [a.name for a in axes[group.table]].index("stage")
        index: list[slice] = [slice(None)] * table.ndim
        index[axis] = slice(group.stage, group.stage + group.stages)
        table[tuple(index)] *= factor
    return out


def solo_mean(weights: Floats, seed: SeedLike, games: int, jobs: int) -> float:
    """The one-ply policy's mean solo score on random boards with ``weights``."""
    from pu_sim.lab.policy_td import tables_with  # here: policy_td imports this module

    with tempfile.TemporaryDirectory() as tmp:  # a new folder: rules are cached by path
        tables = tables_with(weights, Path(tmp))
        spec = [bots.parse("policy_td:roll=0")]
        return float(game_scores(spec, games, seed, jobs, tables, "random").mean())


def search(
    weights: Floats,
    fine: bool,
    generations: int,
    seed: int,
    games: int,
    jobs: int,
    log: Callable[[str], None] | None = None,
) -> Floats:
    """One stage: CMA-ES over the stage's scales from 1; the weights at its mean.

    Coarse: full covariance, 10 candidates, step 0.25.  Fine: 77 scales, so
    a diagonal covariance (sep-CMA), 16 candidates, step 0.1.
    """
    import cma  # type: ignore[import-untyped]

    scales = groups(fine)
    stage = "fine" if fine else "coarse"
    sampler = derive(seed, "policy_td", "tune", stage, "sampler").k0 % 2**31 + 1
    es = cma.CMAEvolutionStrategy(
        np.ones(len(scales)), 0.1 if fine else 0.25,
        {"popsize": 16 if fine else 10, "seed": sampler,
         "verbose": -9, "CMA_diagonal": fine},
    )  # fmt: skip
    for g in range(generations):
        games_seed = derive(seed, "policy_td", "tune", stage, g)
        xs = es.ask()
        means = [solo_mean(scaled(weights, scales, x), games_seed, games, jobs)
                 for x in xs]  # fmt: skip
        es.tell(xs, [-m for m in means])
        if log is not None:
            log(f"{stage} {g + 1:3d}/{generations}  best {max(means):6.2f}  "
                f"mean {np.mean(means):6.2f}  step {es.sigma:.3f}")  # fmt: skip
    return scaled(weights, scales, es.mean)


def tune(
    weights: Floats,
    generations: tuple[int, int],
    seed: int,
    games: int,
    jobs: int,
    log: Callable[[str], None] | None = None,
) -> Floats:
    """The coarse stage's generations, then the fine stage's from its result."""
    coarse, fine = generations
    if coarse:
        weights = search(weights, False, coarse, seed, games, jobs, log)
    if fine:
        weights = search(weights, True, fine, seed, games, jobs, log)
    return weights
