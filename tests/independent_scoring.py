"""An independent, slow scorer written from the rules reference, not the engine.

Final scoring (rules.md 9.4) from a player's end position, category by category:

* planet (A): complete rows and columns (non-grid cells ignored; on Petra open
  currents count as covered unless the option says not, planets.md 3.11), zero
  for a line holding a meteorite; plus each planet's own extra: Gaia's two
  medals per uncovered city (3.4; a patch covers one unless the option says
  not), Cerberus' two per completely covered sub-planet (3.2; or BGA's boxes);
* tracks (B), per corporation (corporations.md 2.7 and section 3): the last
  medal printed at or below the tracker (Jump Drive's tech medals decrease, so
  "last" not "largest"); Cosmos skips spaces under its lifepods; Oasis scores
  its water tracker by the water medals along its path; Makeshift scores each
  tracker by the column it stands on, and with tech 5 (a tracker at or above
  the tech column's fifth milestone) as if it stood where the highest tracker
  of its column stands; Wormhole's medals sit between its biomass levels;
* lifepods and meteorites (C): one medal per lifepod in the scoring area (Cosmos'
  lifepods on tracks and Jump Drive's in tech slots score nothing), one per
  three collected meteorites;
* civ cards (D): fixed medals, Sustainable Living Act (one per patch on the
  planet), Space Citizen Decree (one more per scoring lifepod, or per collected
  one), the Meteorite Repo set (one more per three meteorites per card) and the
  Commerce Agreement ladder 1/3/6/10.

Everything is read from :mod:`pu_sim.rules.gamedata` (checked against the
reference in test_game_data.py) and the player's record; nothing calls the
engine's scoring.  Objectives (E, F) have their own independent reading in
test_objectives.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pu_sim.rules import RuleOptions
from pu_sim.rules.gamedata import TRACKS, Corporation, GameData, Planet, Track

Cell = tuple[int, int]


def cells_of(rows: Iterable[int]) -> set[Cell]:
    """The squares set in 12 row masks."""
    return {(x, y) for y, row in enumerate(rows) for x in range(12) if row >> x & 1}


# ---- A: the planet -------------------------------------------------------------


def line_medals(
    planet: Planet,
    covered: set[Cell],
    meteorites: set[Cell],
    options: RuleOptions | None = None,
) -> int:
    """Complete rows and columns without a meteorite (rules.md 9.4 A)."""
    options = options or RuleOptions()
    done = set(covered)
    if planet.currents_count_covered and options.petra_currents_count_covered:
        done |= {c for c in planet.grid_squares if planet.grid[c[1]][c[0]] in "EQ"}
    total = 0
    for axis, medals in ((1, planet.row_medals), (0, planet.col_medals)):
        for line in range(12):
            squares = [c for c in planet.grid_squares if c[axis] == line]
            if not squares or not all(c in done for c in squares):
                continue
            if any(m[axis] == line for m in meteorites):
                continue
            total += medals[line]
    return total


def subplanet_squares(planet: Planet, options: RuleOptions) -> list[set[Cell]]:
    """Cerberus' three sub-planets, or the boxes BGA's code checks."""
    if options.cerberus_bonus_region == "bga_boxes":
        # a box's cells that are not grid squares count as covered (BGA's check)
        grid = set(planet.grid_squares)
        return [
            grid & {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)}
            for x0, x1, y0, y1 in planet.bga_subplanet_boxes
        ]
    digits = sorted({ch for row in planet.subplanet_map for ch in row if ch.isdigit()})
    return [
        {
            (x, y)
            for y, row in enumerate(planet.subplanet_map)
            for x, ch in enumerate(row)
            if ch == d
        }
        for d in digits
    ]


def planet_bonus(
    planet: Planet,
    covered: set[Cell],
    patches: set[Cell],
    options: RuleOptions | None = None,
) -> int:
    """A planet's own extra medals: Gaia's cities, Cerberus' sub-planets."""
    options = options or RuleOptions()
    medals = 0
    if planet.city_medals:
        cover = covered if options.gaia_city_covered_by_patch else covered - patches
        cities = [c for c in planet.grid_squares if planet.grid[c[1]][c[0]] == "C"]
        medals += planet.city_medals * sum(c not in cover for c in cities)
    if planet.subplanet_bonus:
        for region in subplanet_squares(planet, options):
            if region <= covered:
                medals += planet.subplanet_bonus
    return medals


# ---- B: the tracks -------------------------------------------------------------


def last_medal(medals: Iterable[int], position: int) -> int:
    """The medal printed on the highest space at or below `position` (0 if none)."""
    best = 0
    for i, medal in enumerate(medals):
        if i > position:
            break
        if medal:
            best = medal
    return best


def track_medal(track: Track, position: int, covered: int = 0) -> int:
    """A tracker's medal: the last one at or below it not under a lifepod."""
    medals = [0 if covered >> i & 1 else s.medal for i, s in enumerate(track.spaces)]
    return last_medal(medals, position)


def makeshift_tech_5(corp: Corporation, info: Mapping[str, Any]) -> bool:
    """Tech 5 is on while a tracker stands at or above the tech column's 5th milestone."""
    at = next(i for i, s in enumerate(corp.tracks["tech"].spaces) if s.tech_level == 5)
    tech = TRACKS.index("tech")
    return any(
        col == tech and row >= at
        for col, row in zip(info["col"], info["track"], strict=True)
    )


def tracker_medals(
    corp: Corporation, info: Mapping[str, Any], options: RuleOptions | None = None
) -> list[int]:
    """Each of the five trackers' end medals (rules.md 9.4 B, corporations.md)."""
    options = options or RuleOptions()
    out = []
    for t, name in enumerate(TRACKS):
        pos = info["track"][t]
        if corp.key == "oasis_ultd" and name == "water":
            medal = last_medal(corp.water_path_medals, pos)
            if medal == 9 and options.oasis_row11_medal == 8:
                medal = 8  # BGA's code
        elif corp.key == "makeshift":
            col = info["col"][t]
            if makeshift_tech_5(corp, info):
                pos = max(
                    row
                    for c, row in zip(info["col"], info["track"], strict=True)
                    if c == col
                )
            medal = track_medal(corp.tracks[TRACKS[col]], pos)
        elif corp.key == "cosmos_inc":
            medal = track_medal(corp.tracks[name], pos, covered=info["pod_on"][t])
        else:
            medal = track_medal(corp.tracks[name], pos)
        out.append(medal)
    return out


# ---- C and D: tokens and civ cards -------------------------------------------------


def scoring_lifepods(info: Mapping[str, Any]) -> int:
    """Collected lifepods in the scoring area (not on Cosmos tracks or Jump slots)."""
    return int(
        info["lifepods_collected"] - info["pods_on_tracks"] - info["pods_on_slots"]
    )


def civ_medals(
    data: GameData, info: Mapping[str, Any], options: RuleOptions | None = None
) -> int:
    """End-game civ cards (cards.md 4), from the cards' effects in the data."""
    options = options or RuleOptions()
    medals = repo = commerce = 0
    commerce_ladder: tuple[int, ...] = ()
    for card_id in info["civ_cards"]:
        card = data.civ_cards[card_id - 1]
        assert card.id == card_id
        for effect in card.effects:
            if effect.when != "final_scoring":
                continue
            if effect.op == "score_medals":
                medals += int(effect.params["medals"])
            elif effect.op == "score_per_count":
                count = effect.params["count"]
                if count == "biomass_patches_on_planet":
                    medals += len(cells_of(info["patch"]))
                elif options.space_citizen_decree_counts == "all_collected":
                    medals += info["lifepods_collected"]
                else:
                    medals += scoring_lifepods(info)
            elif effect.op == "set_collection_meteorite_repo":
                repo += 1
            elif effect.op == "set_collection_commerce_agreement":
                commerce += 1
                commerce_ladder = tuple(effect.params["total_medals"])
    # n Meteorite Repo cards: (1 + n) medals per three; the base one is category C
    medals += repo * (info["meteorites_collected"] // 3)
    if commerce:
        medals += commerce_ladder[min(commerce, len(commerce_ladder) - 1)]
    return medals


def score(
    data: GameData, info: Mapping[str, Any], options: RuleOptions | None = None
) -> dict[str, int]:
    """The categories A-D of a player's record, as the player fields name them."""
    planet = data.planets[info["planet"]]
    corp = data.corporations[info["corp"]]
    covered = cells_of(info["occ"])
    patches = cells_of(info["patch"])
    meteorites = cells_of(info["meteorite"])
    bonus = planet_bonus(planet, covered, patches, options)
    return {
        "score_planet": line_medals(planet, covered, meteorites, options) + bonus,
        "score_planet_bonus": bonus,
        "score_tracks": sum(tracker_medals(corp, info, options)),
        "score_lifepods": scoring_lifepods(info),
        "score_meteorites": info["meteorites_collected"] // 3,
        "score_civ": civ_medals(data, info, options),
    }
