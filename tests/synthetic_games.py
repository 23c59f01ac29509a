"""Synthetic result frames with known effects, in the schema of pu_sim.simulation.frames.

Analyses are tested on these: the data are generated from a known model, so a
correct analysis must recover the model's numbers.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import polars as pl

from pu_sim.simulation.frames import SCORE_PARTS, schema_facts
from pu_sim.simulation.manifest import RUN_FORMAT as FORMAT
from pu_sim.simulation.manifest import sha256_of
from pu_sim.simulation.seeds import RootSeed

CORPS = ["Alpha Corp", "Beta Corp", "Gamma Corp", "Delta Corp"]
PLANETS = ["North", "South", "East"]


def _parts(score: np.ndarray, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Split scores into the six categories (planet takes the remainder)."""
    out = {}
    rest = score.copy()
    for part in SCORE_PARTS[1:]:
        v = np.minimum(rng.integers(0, 8, score.size), np.maximum(rest, 0))
        out[part] = v
        rest = rest - v
    out["score_planet"] = rest
    return out


def multiplayer_frame(
    n_games: int,
    n_players: int,
    *,
    corporations: Sequence[str] = CORPS,
    planets: Sequence[str] = PLANETS,
    corp_effect: dict[str, float] | None = None,
    planet_effect: dict[str, float] | None = None,
    seat_effect: Sequence[float] | None = None,
    setup_sd: float = 0.0,
    noise_sd: float = 5.0,
    group_size: int = 1,
    bot: str = "greedy",
    seed: int = 0,
) -> pl.DataFrame:
    """Games whose scores are 40 + effects (+ a shared setup effect) + noise.

    Corporations and planets are dealt without repeats per game (rotated over
    the seats inside a group of ``group_size`` games, like the paired design);
    ``setup_sd`` adds one random effect per group to every seat, which is what
    pairing cancels.
    """
    rng = np.random.default_rng(seed)
    corp_effect = corp_effect or {}
    planet_effect = planet_effect or {}
    seat_effect = list(seat_effect or [0.0] * n_players)
    rows = []
    for g in range(n_games):
        group = g // group_size
        grng = np.random.default_rng([seed, group])
        corps = grng.choice(len(corporations), n_players, replace=False)
        plans = grng.choice(len(planets), n_players, replace=n_players > len(planets))
        shared = grng.normal(0, setup_sd) if setup_sd else 0.0
        shift = g % group_size % n_players
        for seat in range(n_players):
            c = corporations[corps[(seat + shift) % n_players]]
            p = planets[plans[(seat + shift) % n_players]]
            mean = 40 + corp_effect.get(c, 0) + planet_effect.get(p, 0)
            mean += seat_effect[seat] + shared
            rows.append((g, seat, c, p, round(mean + rng.normal(0, noise_sd))))
    df = pl.DataFrame(
        rows, schema=["game_id", "seat", "corporation", "planet", "score"], orient="row"
    )
    return _finish(df, n_players, corporations, planets, bot, rng)


def _finish(
    df: pl.DataFrame,
    n_players: int,
    corporations: Sequence[str],
    planets: Sequence[str],
    bot: str,
    rng: np.random.Generator,
) -> pl.DataFrame:
    score = df["score"].to_numpy()
    parts = _parts(score, rng)
    return df.with_columns(
        pl.col("game_id").cast(pl.UInt64),
        pl.col("seat").cast(pl.UInt8),
        n_players=pl.lit(n_players, pl.UInt8),
        corporation=pl.col("corporation").cast(pl.Enum(list(corporations))),
        planet=pl.col("planet").cast(pl.Enum(list(planets))),
        bot=pl.lit(bot).cast(pl.Enum([bot])),
        score=pl.col("score").cast(pl.Int16),
        rank=pl.col("score")
        .rank("min", descending=True)
        .over("game_id")
        .cast(pl.UInt8),
        **{k: pl.Series(v).cast(pl.Int16) for k, v in parts.items()},
        status=pl.lit("ok").cast(pl.Enum(["ok", "turn_limit"])),
        deck_green=pl.lit(0, pl.UInt8),
        deck_orange=pl.lit(0, pl.UInt8),
        deck_red=pl.lit(0, pl.UInt8),
    ).with_columns(won=pl.col("rank") == 1)


def all_decks() -> list[tuple[int, int, int]]:
    """Every (green, orange, red) composition of a 20-card deck."""
    return [(g, 20 - g - r, r) for g in range(21) for r in range(21 - g)]


def solo_frame(
    n_games: int,
    mean: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    *,
    sd: float | Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] = 6.0,
    decks: Sequence[tuple[int, int, int]] | None = None,
    corporation: str = "Alpha Corp",
    bot: str = "greedy",
    seed: int = 0,
) -> pl.DataFrame:
    """Solo games with decks drawn uniformly from ``decks`` (default: all 231)
    and scores ``round(mean(g, o, r) + sd * normal)``."""
    rng = np.random.default_rng(seed)
    pool = np.array(decks or all_decks())
    picks = pool[rng.integers(0, len(pool), n_games)]
    g, o, r = picks[:, 0], picks[:, 1], picks[:, 2]
    spread = sd(g, o, r) if callable(sd) else sd
    score = np.round(mean(g, o, r) + spread * rng.normal(size=n_games)).astype(int)
    df = pl.DataFrame(
        {
            "game_id": np.arange(n_games),
            "seat": 0,
            "corporation": corporation,
            "planet": "North",
            "score": score,
        }
    )
    return _finish(df, 1, [corporation], PLANETS, bot, rng).with_columns(
        deck_green=pl.Series(g).cast(pl.UInt8),
        deck_orange=pl.Series(o).cast(pl.UInt8),
        deck_red=pl.Series(r).cast(pl.UInt8),
    )


def write_run(
    path: Path,
    frame: pl.DataFrame,
    *,
    study: str = "synthetic",
    pairing: str | None = None,
    **config: object,
) -> Path:
    """A run folder (manifest + one Parquet part) in the runner's format.

    The manifest holds the keys reports read; ``config`` adds to (or replaces)
    the run's configuration, e.g. ``group_size``.
    """
    n_games = int(frame["game_id"].n_unique())
    part = f"data/part-000000000000-{n_games:06d}.parquet"
    (path / "data").mkdir(parents=True, exist_ok=True)
    frame.write_parquet(path / part)
    schema, enums = schema_facts(frame)
    manifest = {
        "format": FORMAT,
        "status": "complete",
        "n_games": n_games,
        "completed_games": n_games,
        "batch_size": n_games,
        "config": {
            "players": int(frame["n_players"][0]),
            "corporations": ["random"],
            "planets": ["random"],
            "bots": [{"kind": "greedy", "label": "greedy", "params": {}}],
            "options": {},
            "unique_asymmetric": True,
            "group_size": 1,
            "seed": 1,
            **config,
        },
        "table": {},
        "seed": RootSeed.from_seed(1).record(),
        "versions": {"pu_sim": "test", "rules": 0, "engine": 0},
        "git": None,
        "schema": schema,
        "enums": enums,
        "parts": [
            {
                "file": part,
                "first_game": 0,
                "n_games": n_games,
                "rows": frame.height,
                "sha256": sha256_of((path / part).read_bytes()),
            },
        ],
        "wall_time_s": 1.0,
        "games_per_s": 100.0,
        "metadata": {"study": study, "name": path.name, "pairing": pairing},
    }
    (path / "manifest.json").write_text(json.dumps(manifest))
    return path
