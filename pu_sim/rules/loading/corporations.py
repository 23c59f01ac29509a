"""``corporations.toml``: the 9 corporation boards, their techs and special rules.

A board is its five tracks (:mod:`pu_sim.rules.loading.tracks`), checked
against its rover count, civ milestones and tech levels; plus the geometry a
few corporations add (Oasis's water path, Wormhole's biomass levels, improved
tracks, neighbouring columns) and their effects
(:mod:`pu_sim.rules.loading.effects`).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import TRACKS, Corporation, Space, Tech, Track
from pu_sim.rules.loading.checks import (
    Node,
    check_ids,
    check_top_level,
    check_unique_keys,
    describe,
    entries,
)
from pu_sim.rules.loading.effects import read_effects
from pu_sim.rules.loading.tracks import TRACK_LEN, has_benefit, read_track

__all__ = ["load_corporations"]


_TECH_LIMITS: Final = (
    "passive",
    "once_per_round",
    "once_per_game",
    "round_start",
    "game_end",
)
_PATH_LEN: Final = 24  # Oasis water path steps 0..23 (corporations.md 3.7)


def _corporation(node: Node) -> Corporation:
    """Read one corporation board, its techs, special rules and geometry."""
    cid = node.get_int("id", lo=0)
    key = node.get_key("corporation")
    name = node.get_str("name")
    playable = node.get_bool("playable")
    complexity = node.get_int("complexity", lo=1, hi=5)
    rovers = node.get_int("rovers", lo=1)
    tech_slots = node.get_int("tech_slots", default=0, lo=0)

    tracks_raw = node.get_table("tracks")
    if set(tracks_raw) != set(TRACKS):
        raise node.error(
            f"tracks must be exactly {', '.join(TRACKS)}; got {sorted(tracks_raw)}"
        )
    beyond = node.raw("rover_beyond_top")
    tracks = {
        t: read_track(
            node, "tracks", t, tracks_raw[t], beyond if t == "rover" else None
        )
        for t in TRACKS
    }

    milestones = sum(s.rover for s in tracks["rover"].spaces)
    if milestones != rovers:
        raise node.error(
            f"rovers = {rovers} but the rover track has {milestones} rover milestones"
        )
    ranks = [s.civ_rank for s in tracks["civ"].spaces if s.civ_rank]
    if not ranks or ranks[0] != 1 or ranks != sorted(ranks) or ranks[-1] != 4:
        raise node.error(f"civ milestone ranks {ranks} must rise from 1 to 4")
    levels = [s.tech_level for s in tracks["tech"].spaces if s.tech_level]

    improved: dict[str, Track] = {}
    if node.has("improved_tracks"):
        sub = node.child("improved_tracks", node.get_table("improved_tracks"))
        for t in TRACKS:
            if sub.has(t):
                raw_beyond = sub.raw("rover_beyond_top") if t == "rover" else None
                improved[t] = read_track(
                    node, "improved_tracks", t, sub.raw(t), raw_beyond
                )
        sub.done()
        if not improved:
            raise node.error("improved_tracks is empty")

    techs = []
    for i, raw in enumerate(node.get_list("tech")):
        techs.append(_tech(node.child(f"tech #{i + 1}", raw)))
    if [t.level for t in techs] != list(range(1, len(techs) + 1)):
        raise node.error(
            f"tech levels {[t.level for t in techs]} must be 1..n in order"
        )
    if tech_slots:
        if levels:
            raise node.error("a board with tech slots has no tech milestones")
        if len(techs) != tech_slots:
            raise node.error(f"{tech_slots} tech slots but {len(techs)} techs")
    elif levels != list(range(1, len(techs) + 1)):
        raise node.error(
            f"tech milestones {levels} must unlock levels 1..{len(techs)} in order"
        )

    special = (
        read_effects(node, "special_rules", "corporation", allow_empty=True)
        if node.has("special_rules")
        else ()
    )

    water_path: tuple[tuple[str, int], ...] = ()
    water_medals: tuple[int, ...] = ()
    if node.has("water_path"):
        water_path, water_medals = _water_path(node, tracks)
    elif any(s.no_stop for s in tracks["water"].spaces):
        raise node.error("no_stop water spaces need a water_path")

    levels_out: tuple[tuple[Space, Space, int], ...] = ()
    if node.has("biomass_levels"):
        levels_out = _biomass_levels(node, tracks["biomass"])
    elif any(s.no_stop for s in tracks["biomass"].spaces):
        raise node.error("no_stop biomass spaces need biomass_levels")
    for t in ("civ", "rover", "tech"):
        if any(s.no_stop for s in tracks[t].spaces):
            raise node.error(f"the {t} track cannot have no_stop spaces")

    neighbours: list[tuple[str, str]] = []
    for pair in node.get_list("column_neighbours", default=[]):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not all(p in TRACKS for p in pair)
            or pair[0] == pair[1]
        ):
            raise node.error(f"column_neighbours: bad pair {describe(pair)}")
        neighbours.append((cast(str, pair[0]), cast(str, pair[1])))
    if len({frozenset(p) for p in neighbours}) != len(neighbours):
        raise node.error("column_neighbours lists a pair twice")
    node.done()
    return Corporation(
        id=cid,
        key=key,
        name=name,
        playable=playable,
        complexity=complexity,
        rovers=rovers,
        tracks=MappingProxyType(tracks),
        techs=tuple(techs),
        special_rules=special,
        improved_tracks=MappingProxyType(improved),
        water_path=water_path,
        water_path_medals=water_medals,
        biomass_levels=levels_out,
        tech_slots=tech_slots,
        column_neighbours=tuple(neighbours),
    )


def _tech(node: Node) -> Tech:
    """Read one tech level; its limit must agree with when its effects act."""
    level = node.get_int("level", lo=1, hi=6)
    node.rename(f"{node.entry.rsplit(': ', 1)[0]}: tech {level}")
    label = node.get_str("label", default="")
    text = node.get_str("text")
    limit = node.get_str("limit", choices=_TECH_LIMITS)
    effects = read_effects(node, "effects", "corporation")
    whens = {e.when for e in effects}
    for limit_name, when in (
        ("round_start", "round_start"),
        ("game_end", "end_of_game"),
    ):
        if (limit == limit_name) != (when in whens):
            raise node.error(
                f"limit {limit!r} and effects 'when' {sorted(whens)} disagree"
            )
    node.done()
    return Tech(
        level=level,
        text=text,
        limit=cast(
            Literal[
                "passive", "once_per_round", "once_per_game", "round_start", "game_end"
            ],
            limit,
        ),
        effects=effects,
        label=label,
    )


def _water_path(
    node: Node, tracks: Mapping[str, Track]
) -> tuple[tuple[tuple[str, int], ...], tuple[int, ...]]:
    """Read Oasis's 24-step water path; derive the water medal at each step."""
    steps: list[tuple[str, int]] = []
    for i, raw in enumerate(node.get_list("water_path")):
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or raw[0] not in TRACKS
            or not isinstance(raw[1], int)
            or isinstance(raw[1], bool)
            or not 0 <= raw[1] < TRACK_LEN
        ):
            raise node.error(
                f"water_path[{i}]: expected [track, row 0..15], got {describe(raw)}"
            )
        steps.append((cast(str, raw[0]), raw[1]))
    if len(steps) != _PATH_LEN:
        raise node.error(f"water_path has {len(steps)} steps, expected {_PATH_LEN}")
    if steps[0] != ("water", 0) or steps[-1] != ("water", TRACK_LEN - 1):
        raise node.error("water_path must run from water row 0 to water row 15")
    if len(set(steps)) != len(steps):
        raise node.error("water_path visits a space twice")
    for i, ((t0, r0), (t1, r1)) in enumerate(itertools.pairwise(steps)):
        if abs(TRACKS.index(t0) - TRACKS.index(t1)) > 1 or abs(r0 - r1) != 1:
            raise node.error(
                f"water_path step {i} -> {i + 1} ({t0} {r0} -> {t1} {r1}) is not a move"
                " to a neighbouring row of the same or a neighbouring track"
            )
    water = tracks["water"].spaces
    on_path = {row for t, row in steps if t == "water"}
    stops = {row for row, s in enumerate(water) if not s.no_stop}
    if on_path != stops:
        raise node.error(
            f"water rows on the path {sorted(on_path)} must be exactly the rows"
            f" without no_stop {sorted(stops)}"
        )
    for t, row in steps:
        if tracks[t].spaces[row].no_stop:
            raise node.error(f"water_path steps onto the no_stop space {t} {row}")
    medals = tuple(water[row].medal if t == "water" else 0 for t, row in steps)
    return tuple(steps), medals


def _biomass_levels(node: Node, track: Track) -> tuple[tuple[Space, Space, int], ...]:
    """Read Wormhole's levels 0..5 as (option A, option B, medal at the level)."""
    raw = node.get_list("biomass_levels")
    pairs: list[tuple[int, int]] = []
    for i, item in enumerate(raw):
        a, b = node.item_ints(
            f"biomass_levels[{i}]",
            item,
            lo=0,
            hi=TRACK_LEN - 1,
            expected="expected [index A, index B]",
            length=2,
        )
        pairs.append((a, b))
    if not pairs or pairs[0] != (0, 0):
        raise node.error("biomass_levels must start with the start space [0, 0]")
    used = {0}
    for i, (a, b) in enumerate(pairs[1:], start=1):
        if b != a + 1 or a in used or b in used:
            raise node.error(
                f"biomass_levels[{i}]: a level is two adjacent fresh spaces"
            )
        used |= {a, b}
    stops = {i for i, s in enumerate(track.spaces) if not s.no_stop}
    if used != stops:
        raise node.error(
            f"biomass_levels cover {sorted(used)}; the spaces without no_stop"
            f" are {sorted(stops)}"
        )
    sbp = track.score_by_position
    out = []
    for a, b in pairs:
        if sbp[a] != sbp[b]:
            raise node.error(f"the two halves {a}/{b} of a level score differently")
        if a and not (has_benefit(track.spaces[a]) and has_benefit(track.spaces[b])):
            raise node.error(f"level {a}/{b}: both halves must offer a benefit")
        out.append((track.spaces[a], track.spaces[b], sbp[a]))
    return tuple(out)


def load_corporations(data: Mapping[str, object]) -> tuple[Corporation, ...]:
    """Read all 9 corporations, by id."""
    file = "corporations.toml"
    check_top_level(file, data, {"corporation"})
    corps = [
        _corporation(node) for node in entries(file, data, "corporation", "corporation")
    ]
    check_ids(file, "corporation", [c.id for c in corps], range(len(corps)))
    check_unique_keys(file, "corporation", [c.key for c in corps])
    return tuple(sorted(corps, key=lambda c: c.id))
