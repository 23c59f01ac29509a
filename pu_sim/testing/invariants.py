"""Invariant checks for result frames, usable from tests and experiments.

Every game the engine plays must satisfy these, whatever the bots did: the
score is the sum of its categories, nothing was placed twice on a square,
every token is accounted for, trackers stay on their tracks.  A failure is a
rules bug; :func:`frame_violations` names the rule and the offending rows.
"""

from __future__ import annotations

import polars as pl

from pu_sim.rules.gamedata import GameData, Planet
from pu_sim.simulation.frames import SCORE_PARTS


def _planet_bonus_max(planet: Planet) -> int:
    """The most a planet's own scoring (cities, sub-planets) can pay."""
    cities = sum(row.count("C") for row in planet.grid)
    subplanets = len({ch for row in planet.subplanet_map for ch in row if ch.isdigit()})
    return planet.city_medals * cities + planet.subplanet_bonus * subplanets


def _corporation_facts(data: GameData) -> pl.DataFrame:
    names = [c.name for c in data.corporations]
    return pl.DataFrame(
        {
            "corporation": names,
            "_water_top": [
                len(c.water_path) - 1 if c.water_path else 15 for c in data.corporations
            ],
        }
    ).with_columns(pl.col("corporation").cast(pl.Enum(names)))


def _planet_counts(data: GameData) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "planet": [p.name for p in data.planets],
            "_grid": [len(p.grid_squares) for p in data.planets],
            "_lifepods": [len(p.lifepods) for p in data.planets],
            "_line_medals": [
                sum(p.row_medals) + sum(p.col_medals) for p in data.planets
            ],
            "_bonus_max": [_planet_bonus_max(p) for p in data.planets],
            "_restricted": [bool(p.restrictions) for p in data.planets],
            "_waiver": [p.adjacency_waiver for p in data.planets],
        }
    ).with_columns(pl.col("planet").cast(pl.Enum([p.name for p in data.planets])))


def frame_violations(frame: pl.DataFrame, data: GameData) -> pl.DataFrame:
    """Rows breaking an invariant, with an ``invariant`` column naming it.

    Why long: one expression per invariant, listed together so the whole set reads
    in one place.

    An empty result means every checked invariant holds.
    """
    df = frame.join(_planet_counts(data), on="planet", how="left").join(
        _corporation_facts(data), on="corporation", how="left"
    )
    parts = pl.sum_horizontal(*[pl.col(c) for c in SCORE_PARTS])
    tracks = ["track_civ", "track_water", "track_biomass", "track_rover", "track_tech"]
    checks: dict[str, pl.Expr] = {
        "status is ok": pl.col("status") == "ok",
        "score is the sum of its categories": pl.col("score") == parts,
        "objectives are private plus neighbour medals": pl.col("score_objectives")
        == pl.col("score_private") + pl.col("score_neighbour"),
        "trackers stay on their track (0..15; Oasis water path 0..23)": (
            pl.all_horizontal(
                *[pl.col(t).is_between(0, 15) for t in tracks if t != "track_water"]
            )
            & pl.col("track_water").is_between(0, pl.col("_water_top"))
        ),
        "no square is covered twice": (
            pl.col("tile_squares")
            + pl.col("patches_placed")
            - pl.col("patches_on_tiles")
            + pl.col("uncovered")
            == pl.col("_grid")
        ),
        "every lifepod is collected, lost or left": (
            pl.col("lifepods_collected")
            + pl.col("lifepods_lost")
            + pl.col("lifepods_left")
            == pl.col("_lifepods")
        ),
        "every meteorite is collected, destroyed or left": (
            pl.col("meteorites_collected")
            + pl.col("meteorites_destroyed")
            + pl.col("meteorites_left")
            == pl.col("meteorites_placed")
        ),
        "lifepods in the scoring area score one medal each": pl.col("score_lifepods")
        == pl.col("lifepods_collected") - pl.col("lifepods_on_board"),
        "meteorites score one medal per three": pl.col("score_meteorites")
        == pl.col("meteorites_collected") // 3,
        "every round takes a tile": (
            pl.col("tiles_placed") + pl.col("tiles_unplaced") >= pl.col("rounds")
        ),
        "a tile goes unplaced only in the last round": pl.col("tiles_unplaced") <= 1,
        "rank is 1..players and won means rank 1": (
            pl.col("rank").is_between(1, pl.col("n_players"))
            & (pl.col("won") == (pl.col("rank") == 1))
        ),
        "the game ended by a trigger": pl.col("end_trigger") != "none",
        "a planet's lines score at most their medals": (
            pl.col("score_planet") - pl.col("score_planet_bonus")
        ).is_between(0, pl.col("_line_medals")),
        "a planet's own bonus stays within what it offers": pl.col(
            "score_planet_bonus"
        ).is_between(0, pl.col("_bonus_max")),
        "planet rules are dropped only on planets that have them": pl.col("_restricted")
        | (pl.col("placements_relaxed") == 0),
        "the adjacency waiver only on Lacuna/Oblivion with 2+ players": (
            pl.col("waiver_used") == 0
        )
        | (pl.col("_waiver") & (pl.col("n_players") >= 2)),
    }
    bad = [
        df.filter(~expr).with_columns(pl.lit(name).alias("invariant"))
        for name, expr in checks.items()
    ]
    game_checks = df.group_by("game_id").agg(
        (pl.col("rank") == 1).any().alias("has_winner"),
        (
            pl.col("score").max() == pl.col("score").filter(pl.col("rank") == 1).max()
        ).alias("winner_has_top_score"),
    )
    for name, col in (
        ("every game has a winner", "has_winner"),
        ("the winner has the top score", "winner_has_top_score"),
    ):
        ids = game_checks.filter(~pl.col(col))["game_id"]
        bad.append(
            df.filter(pl.col("game_id").is_in(ids.implode())).with_columns(
                pl.lit(name).alias("invariant")
            )
        )
    out = pl.concat(bad, how="vertical_relaxed")
    return out.drop("_grid", "_lifepods")
