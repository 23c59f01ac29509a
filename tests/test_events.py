"""The event deck (rules.md 3.6, 4.2, 9.1 C, 10.4; cards.md 2.2, 5): deck building,
every one of the 60 cards, round rules, and the end trigger."""

from __future__ import annotations

import pytest

import pu_sim
from pu_sim.rules import RuleOptions
from pu_sim.testing import (
    ScenarioGame,
    empty_drawing,
    find_placement,
    place_move,
    square_move,
    tile_id,
)

DONE = 0xFFFF
CIV, WATER, BIOMASS, ROVER, TECH = range(5)
COVERED: set[int] = set()


def covers(*cards: int):
    """Record which event cards a test checks (see the last test)."""
    COVERED.update(cards)
    return lambda test: test


def drawn(rules, covered=None, *, players=1, meteorites=(), lifepods=(), msym=(), **kw):
    game = ScenarioGame(players=players, bots="random", seed=0, **kw)
    rows = [list(r) for r in empty_drawing(rules.data.planets[0]).splitlines()]
    for (x, y), ch in (covered or {}).items():
        rows[y][x] = ch
    for x, y in lifepods:
        rows[y][x] = "o"
    for p in range(players):
        game.set_planet(
            p, "\n".join("".join(r) for r in rows), meteorites=meteorites,
            meteor_symbols=msym,
        )  # fmt: skip
        game.set_objectives(p, [])
    return game


def squares(rows):
    return {(x, y) for y in range(12) for x in range(12) if rows[y] >> x & 1}


# ---- deck building ---------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_deck_has_the_chosen_mix_and_no_solo_cards_in_multiplayer(rules, players):
    mix = (5, 8, 7)
    game = ScenarioGame(players=players, seed=players, options=RuleOptions(event_deck=True,
                                                                   event_deck_mix=mix))  # fmt: skip
    f = game.fields()
    deck = f["deck"] + ([f["event"]] if f["event"] else [])  # 2+ players: round 1 began
    assert len(deck) == 20 == len(set(deck))
    colours = [rules.data.events[e - 65].colour for e in deck]
    assert (
        colours.count("green"),
        colours.count("orange"),
        colours.count("red"),
    ) == mix
    solo_only = {e.id for e in rules.data.events if e.solo_only}
    if players > 1:
        assert not set(deck) & solo_only


def test_solo_uses_the_deck_by_default_and_multiplayer_does_not():
    assert ScenarioGame(players=1, seed=1).fields()["events_on"] == 1
    assert ScenarioGame(players=3, seed=1).fields()["events_on"] == 0
    assert ScenarioGame(
        players=3, seed=1, options=RuleOptions(event_deck=True)
    ).fields()["events_on"]
    assert not ScenarioGame(
        players=1, seed=1, options=RuleOptions(event_deck=False)
    ).fields()["events_on"]


@pytest.mark.parametrize(
    ("players", "mix", "message"),
    [
        (1, (7, 7, 7), "sums to 21"),
        (2, (17, 3, 0), "17 green cards, but only 16 exist with 2 player"),
        (4, (0, 1, 19), "19 red cards, but only 18"),
        (1, (7, 7, -1), "three counts >= 0"),
        (1, "lots", "event_deck_mix must be"),
    ],
)
def test_impossible_decks_are_clear_errors(players, mix, message):
    with pytest.raises(ValueError, match=message):
        pu_sim.simulate(1, players=players, options=RuleOptions(event_deck=True,
                                                                event_deck_mix=mix))  # fmt: skip


def test_a_solo_deck_may_hold_all_twenty_of_one_colour(rules):
    game = ScenarioGame(
        players=1, seed=2, options=RuleOptions(event_deck_mix=(20, 0, 0))
    )
    assert {rules.data.events[e - 65].colour for e in game.fields()["deck"]} == {
        "green"
    }


@pytest.mark.parametrize("mode", ["random", "bga_random"])
def test_random_mixes_follow_their_distribution(rules, mode):
    counts = []
    for i in range(150):
        f = ScenarioGame(players=2, seed=i, options=RuleOptions(event_deck=True,
                                                        event_deck_mix=mode)).fields()  # fmt: skip
        g, o, r = f["deck_counts"]
        counts.append((g, o, r))
        assert g <= 16 and o <= 20 and r <= 18
        if mode == "random":
            assert g + o + r == 20
        else:
            assert g <= 13 and o <= 13  # BGA draws both from 0..13
            assert len(f["deck"]) + (1 if f["event"] else 0) == g + o + r
    assert len(set(counts)) > 20  # genuinely varied
    if mode == "bga_random":
        assert any(sum(c) != 20 for c in counts)  # BGA's decks need not hold 20


# ---- the round ----------------------------------------------------------------------


def test_the_last_card_makes_its_round_the_last():
    frame = pu_sim.simulate(200, players=1, bots="greedy", seed=3)
    assert set(frame["end_trigger"]) <= {"events", "cannot_place", "depot_empty"}
    assert (frame["rounds"] <= 20).all()
    ends = frame.filter(frame["end_trigger"] == "events")
    assert ends.height > 0 and (ends["rounds"] == 20).all()


def test_milestones_reached_in_the_event_step_are_picked_before_drafting(rules):
    # rules.md 14.9
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 2})
    game.reveal_event(69)  # rover or civ up one
    assert game.decision == "track"
    game.apply(CIV)
    assert game.decision == "civ_pick"
    game.apply(game.legal_moves()[0])
    while game.decision not in ("place", None):
        game.apply(game.legal_moves()[0])
    assert game.decision == "place"


@pytest.mark.parametrize(
    ("option", "after"),
    [("round_end", "none"), ("next_event", "tile_cannot_cover_ice")],
)
def test_a_round_rule_ends_with_its_round_unless_the_bga_option(rules, option, after):
    # cards.md D6: in multiplayer without events the next round reveals nothing,
    # so what is in force at its start is what the last round left behind
    game = drawn(rules, {(5, 5): "c"}, players=3,
                 options=RuleOptions(event_round_rule_until=option))  # fmt: skip
    game.reveal_event(120)
    assert game.fields()["round_rule"] == "tile_cannot_cover_ice"
    start = game.fields()["round"]
    while game.fields()["round"] == start:
        game.step()
    assert game.fields()["round_rule"] == after


# ---- green cards -------------------------------------------------------------------------


@covers(68)
def test_68_three_spaces_up_claiming_nothing(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"biomass": 1})
    game.reveal_event(68)
    assert sorted(game.legal_moves()) == [CIV, WATER, BIOMASS]
    game.apply(
        BIOMASS
    )  # passes the synergy at 2 and lands on the patch at 4? no claims
    assert game.tracks(0)["biomass"] == 4
    assert game.player(0)["items"] == [] and game.decision != "patch"


@covers(69, 70, 71, 72, 73, 74, 75, 76, 77, 78)
@pytest.mark.parametrize("card", range(69, 79))
def test_advance_one_of_two_listed_trackers_claiming(rules, card):
    listed = rules.data.events[card - 65].immediate[0].params["tracks"]
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"tech": 2})
    game.reveal_event(card)
    assert sorted(game.legal_moves()) == sorted(["civ", "water", "biomass", "rover",
                                                 "tech"].index(t) for t in listed)  # fmt: skip
    pick = game.legal_moves()[0]
    game.apply(pick)
    assert game.player(0)["track"][pick] == (3 if pick == TECH else 1)


@covers(65)
def test_65_an_extra_rover_lands_on_the_tile_placed_this_round(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_rovers(0, [], in_supply=0)  # both rovers lost already
    game.reveal_event(65)
    assert [st for st, _, _ in game.player(0)["rovers"]].count(1) == 1
    tile = tile_id(rules, "domino", "civ", "energy")
    game.set_depot(0, tile, None)
    game.start_draft(0)
    o, x, y = find_placement(rules, tile, [(6, 5), (7, 5)])
    game.fields()  # the round rule is still in force during the draft
    game.state.set_round_rule("place_extra_rover_on_tile_placed_this_round")
    game.apply(place_move(0, o, x, y))
    while game.decision == "order":
        game.apply(game.legal_moves()[0])
    if game.decision == "energy":
        game.apply(game.legal_moves()[0])
    assert game.decision == "rover_place"
    assert sorted(game.legal_moves()) == [square_move(6, 5), square_move(7, 5)]


@covers(66)
def test_66_a_reserve_card_joins_each_pile(rules):
    game = drawn(rules, {(5, 5): "c"})
    before = game.fields()
    game.reveal_event(66)
    after = game.fields()
    for rank in range(4):
        assert len(after["piles"][rank]) == len(before["piles"][rank]) + 1
        assert len(after["reserve"][rank]) == len(before["reserve"][rank]) - 1


@covers(67)
def test_67_the_top_objective_joins_the_private_ones(rules):
    game = drawn(rules, {(5, 5): "c"})
    top = game.fields()["objective_deck"][0]
    game.reveal_event(67)
    assert game.player(0)["private_objectives"] == [top]


@covers(79)
def test_79_turn_the_station_so_any_depot_faces_you(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.reveal_event(79)
    assert game.decision == "rotation" and game.legal_moves() == [0, 1, 2, 3, 4, 5]
    game.apply(2)
    assert game.fields()["rotation"] == 2
    assert game.decision == "place"  # the round goes on from the chosen depot


@covers(80)
def test_80_a_biomass_patch(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.reveal_event(80)
    assert game.decision == "patch"


@covers(81, 84)
@pytest.mark.parametrize("card", [81, 84])
def test_synergy_boost_cards(rules, card):
    game = drawn(rules, {(5, 5): "c"})
    game.reveal_event(card)
    assert game.decision == "synergy" and len(game.legal_moves()) == 5


@covers(82)
def test_82_collect_a_lifepod_from_the_planet(rules):
    game = drawn(rules, {(5, 5): "c"}, lifepods=[(1, 4), (10, 4)])
    game.reveal_event(82)
    assert game.decision == "lifepod"
    game.apply(square_move(10, 4))
    assert game.player(0)["lifepods_collected"] == 1


@covers(83)
def test_83_collect_a_meteorite_from_the_planet(rules):
    met = [(5, 5), (6, 5)]
    game = drawn(rules, {c: "c" for c in met}, meteorites=met)
    game.reveal_event(83)
    assert game.decision == "collect_meteorite"
    game.apply(square_move(6, 5))
    info = game.player(0)
    assert info["meteorites_collected"] == 1 and squares(info["meteorite"]) == {(5, 5)}


# ---- orange and red: regressions ------------------------------------------------------------


@covers(85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 96)
@pytest.mark.parametrize("card", [*range(85, 95), 96])
def test_regress_one_listed_tracker_one_space(rules, card):
    listed = rules.data.events[card - 65].immediate[0].params["tracks"]
    names = ["civ", "water", "biomass", "rover", "tech"]
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, dict.fromkeys(names, 4))
    game.reveal_event(card)
    if len(listed) > 1:
        assert sorted(game.legal_moves()) == sorted(names.index(t) for t in listed)
        game.apply(names.index(listed[0]))
    assert sum(game.player(0)["track"]) == 5 * 4 - 1


@covers(105, 106)
@pytest.mark.parametrize(("card", "steps"), [(105, 2), (106, 3)])
def test_regress_any_tracker_by_the_full_amount_if_one_can(rules, card, steps):
    # cards.md 5: only trackers able to go the full amount may be chosen
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": steps, "water": steps - 1, "tech": 7})
    game.reveal_event(card)
    assert sorted(game.legal_moves()) == [CIV, TECH]
    game.apply(TECH)
    assert game.tracks(0)["tech"] == 7 - steps
    assert game.player(0)["tech_level"] == (2 if steps == 2 else 1)  # locks tech (2.4)


def test_regress_falls_back_to_what_the_trackers_can_do(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 1, "rover": 1})
    game.reveal_event(106)  # three spaces, but nobody is above 1
    assert sorted(game.legal_moves()) == [CIV, ROVER]
    game.apply(ROVER)
    assert game.tracks(0)["rover"] == 0


# ---- meteorites, lifepods, rovers ------------------------------------------------------------


@covers(95, 107)
@pytest.mark.parametrize("card", [95, 107])
def test_a_meteorite_lands_on_an_empty_meteor_symbol(rules, card):
    covered = {(5, 5): "c", (6, 5): "c", (7, 5): "c"}
    game = drawn(rules, covered, msym=[(5, 5), (6, 5)], meteorites=[(5, 5)])
    game.set_rovers(0, [(6, 5)], in_supply=1)
    game.reveal_event(card)
    info = game.player(0)
    assert squares(info["meteorite"]) == {(5, 5), (6, 5)}  # the only empty symbol
    assert info["rovers_lost"] == 1  # the rover on it is destroyed


def test_tech_5_makes_the_event_meteorite_optional(rules):
    game = drawn(rules, {(5, 5): "c"}, msym=[(5, 5)])
    game.set_tracks(0, {"tech": 14})
    game.reveal_event(95)
    assert game.decision == "meteor_symbol" and DONE in game.legal_moves()
    game.apply(DONE)
    assert squares(game.player(0)["meteorite"]) == set()


@covers(113)
def test_113_a_lifepod_on_the_planet_is_lost(rules):
    game = drawn(rules, {(5, 5): "c"}, lifepods=[(1, 4), (10, 4)])
    game.reveal_event(113)
    game.apply(square_move(1, 4))
    info = game.player(0)
    assert info["lifepods_lost"] == 1 and squares(info["lifepod"]) == {(10, 4)}


@covers(114, 115)
def test_114_115_a_collected_lifepod_or_meteorite_is_lost(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.state.set_player_int(0, "lifepods_collected", 2)
    game.state.set_player_int(0, "meteorites_collected", 4)
    game.reveal_event(114)
    game.reveal_event(115)
    info = game.player(0)
    assert (info["lifepods_collected"], info["lifepods_lost"]) == (1, 1)
    assert (info["meteorites_collected"], info["meteorites_destroyed"]) == (3, 1)


@covers(111)
def test_111_one_rover_is_lost_only_with_two_on_the_planet(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.reveal_event(111)
    assert game.player(0)["rovers_lost"] == 0  # a rover still in supply does not count
    game.set_rovers(0, [(5, 5), (6, 6)], in_supply=0)
    game.reveal_event(111)
    assert game.decision == "destroy_rover"
    game.apply(1)
    assert game.player(0)["rovers_lost"] == 1


@covers(112)
def test_112_one_random_card_leaves_each_pile(rules):
    game = drawn(rules, {(5, 5): "c"}, players=2)
    game.state.set_pile(4, [])
    before = game.fields()
    game.reveal_event(112)
    after = game.fields()
    for rank in range(3):
        assert len(after["piles"][rank]) == len(before["piles"][rank]) - 1
        assert len(after["reserve"][rank]) == len(before["reserve"][rank]) + 1
    assert after["piles"][3] == []  # an empty pile is skipped


@covers(110)
def test_110_discard_one_private_objective(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_objectives(0, [40, 50, 60])
    game.reveal_event(110)
    assert game.decision == "objective_discard"
    assert sorted(game.legal_moves()) == [40 - 37, 50 - 37, 60 - 37]
    game.apply(50 - 37)
    assert game.player(0)["private_objectives"] == [40, 60]


@covers(116)
def test_116_a_stack_of_the_facing_depot_leaves_unless_it_empties_the_depot(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.reveal_event(116)
    assert game.decision == "remove_stack" and game.legal_moves() == [0, 1]
    game.apply(1)
    assert game.state.depot_tiles(0)[1] is None
    # the other stack is now alone: removing it would end the game -> ignored
    game.reveal_event(116)
    assert game.decision != "remove_stack"
    assert game.state.depot_tiles(0)[0] is not None
    bga = drawn(rules, {(5, 5): "c"}, options=RuleOptions(event_may_empty_depot=True))
    bga.state.set_stack_pos(bga.state.depot_stack(bga.state.facing_depot(0), 1), 12)
    bga.reveal_event(116)
    assert bga.state.depot_tiles(0) == (None, None)


@covers(117, 118)
@pytest.mark.parametrize("card", [117, 118])
def test_synergy_or_peek(rules, card):
    game = drawn(rules, {(5, 5): "c"})
    game.reveal_event(card)
    assert game.decision == "choose_one" and game.legal_moves() == [0, 1]
    game.apply(1)
    assert game.player(0)["peeks"] == 1 and game.decision != "synergy"
    game.reveal_event(card)
    game.apply(0)
    assert game.decision == "synergy"


# ---- round rules ---------------------------------------------------------------------------------


@covers(97, 98, 99, 100, 101, 102)
@pytest.mark.parametrize(("card", "terrain"), [(97, "w"), (98, "b"), (99, "e"), (100, "r"),
                                               (101, "t"), (102, "c")])  # fmt: skip
def test_rovers_may_not_enter_the_banned_terrain(rules, card, terrain):
    game = drawn(
        rules, {(5, 5): "c", (6, 5): terrain, (5, 6): "w" if terrain != "w" else "c"}
    )
    game.set_rovers(0, [(5, 5)], in_supply=1)
    game.reveal_event(card)
    game.state.set_player_int(0, "move_budget", 2)
    game.give(0)
    moves = set(game.legal_moves())
    assert (0 << 8 | square_move(6, 5)) not in moves
    assert (0 << 8 | square_move(4, 5)) in moves  # uncovered land is never banned


@pytest.mark.parametrize("banned", [True, False])
def test_a_teleport_may_not_land_on_the_banned_terrain_either(rules, banned):
    # events 97-102 bar teleports too; without the event the square is open
    game = drawn(rules, {(5, 5): "c", (7, 5): "b"})
    game.set_rovers(0, [(5, 5)], in_supply=1)
    if banned:
        game.reveal_event(98)
    game.give(0, ("teleport", 0, 0, 0))
    assert game.decision == "teleport"
    targets = {m & 0xFF for m in game.legal_moves() if m != DONE}
    assert square_move(4, 5) in targets
    assert (square_move(7, 5) not in targets) is banned


@covers(103, 124)
@pytest.mark.parametrize("card", [103, 124])
def test_tiles_may_not_cover_the_edge_unless_nothing_else_fits(rules, card):
    game = drawn(rules, {(1, 5): "c"})
    tile = tile_id(rules, "domino", "civ", "energy")
    on_edge = find_placement(rules, tile, [(0, 6), (1, 6)])
    inside = find_placement(rules, tile, [(2, 5), (3, 5)])
    game.state.set_round_rule(
        rules.data.events[card - 65].round_rule.op
    )  # in force during the draft
    assert on_edge not in game.state.placements(0, tile)
    assert inside in game.state.placements(0, tile)
    # DR-4: when only edge squares remain, the rule is dropped for that player
    full = {
        c: "c" for c in rules.data.planets[0].grid_squares if c not in [(0, 5), (0, 6)]
    }
    game = drawn(rules, full)
    game.state.set_round_rule("tile_cannot_cover_edge")
    game.set_depot(0, tile, None)
    game.start_draft(0)
    assert game.decision == "place" and game.legal_moves()
    assert game.fields()["last_round"] == 0


@covers(104, 108)
@pytest.mark.parametrize("card", [104, 108])
def test_only_one_of_the_tiles_resources_counts(rules, card):
    game = drawn(rules, {(5, 5): "c"})
    game.state.set_round_rule("tile_resources_ignore_one")
    tile = tile_id(rules, "domino", "tech", "biomass")
    game.set_depot(0, tile, None)
    game.start_draft(0)
    o, x, y = find_placement(rules, tile, [(6, 5), (7, 5)])
    game.apply(place_move(0, o, x, y))
    assert game.decision == "keep_resource"
    game.apply(1)  # keep the biomass resolution
    assert game.tracks(0)["tech"] == 0 and game.tracks(0)["biomass"] == 1
    assert rules.data.events[card - 65].round_rule.op == "tile_resources_ignore_one"


@covers(109, 123)
@pytest.mark.parametrize("card", [109, 123])
def test_milestones_give_nothing_and_tech_stays_locked_until_reentered(rules, card):
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"civ": 2, "biomass": 2, "rover": 0, "tech": 2})
    game.state.set_round_rule(rules.data.events[card - 65].round_rule.op)
    for t in (CIV, BIOMASS, ROVER, TECH):
        game.give(0, ("advance", t, 1, 0))
    info = game.player(0)
    assert info["owed"] == [] and game.decision not in ("patch", "rover_place")
    assert info["tech_level"] == 1 and info["tech_suppressed"] == [1]
    assert not game.state.placements(0, tile_id(rules, "domino", "civ", "energy"))[0:0]
    game.state.set_round_rule("none")
    game.set_tracks(0, {"tech": 2})
    game.give(0, ("advance", TECH, 1, 0))  # entering the milestone again unlocks it
    assert game.player(0)["tech_suppressed"] == []


def test_tech_suppression_options(rules):
    for option, expected in (("none", []), ("until_reentered", [1])):
        game = drawn(
            rules, {(5, 5): "c"}, options=RuleOptions(event_tech_suppression=option)
        )
        game.set_tracks(0, {"tech": 2})
        game.state.set_round_rule("no_milestone_benefits")
        game.give(0, ("advance", TECH, 1, 0))
        assert game.player(0)["tech_suppressed"] == expected


@covers(119)
def test_119_no_square_may_touch_the_same_terrain(rules):
    game = drawn(rules, {(5, 5): "c", (5, 6): "e"})
    game.state.set_round_rule("tile_cannot_touch_same_terrain")
    tile = tile_id(rules, "domino", "civ", "energy")
    civ_next_to_civ = find_placement(rules, tile, [(6, 5), (7, 5)], part_a=[(6, 5)])
    energy_next_to_civ = find_placement(rules, tile, [(6, 5), (7, 5)], part_a=[(7, 5)])
    places = game.state.placements(0, tile)
    assert civ_next_to_civ not in places
    assert energy_next_to_civ in places


@covers(120, 121)
@pytest.mark.parametrize("card", [120, 121])
def test_no_tile_square_on_planetary_ice(rules, card):
    game = drawn(rules, {(3, 2): "c"})
    game.state.set_round_rule(rules.data.events[card - 65].round_rule.op)
    tile = tile_id(rules, "domino", "civ", "energy")
    onto_ice = find_placement(rules, tile, [(4, 2), (5, 2)])
    assert onto_ice not in game.state.placements(0, tile)


@covers(122)
def test_122_no_synergy_boosts_this_round(rules):
    game = drawn(rules, {(5, 5): "c"})
    game.set_tracks(0, {"biomass": 1})
    game.state.set_round_rule("no_synergy_boosts")
    game.give(0, ("advance", BIOMASS, 1, 0))  # biomass 2 is a synergy space
    assert game.decision != "synergy" and game.player(0)["items"] == []


def test_patches_ignore_event_tile_rules(rules):
    # rules.md 14.26
    game = drawn(rules, {(1, 5): "c"})
    game.state.set_round_rule("tile_cannot_cover_edge")
    assert (0, 5) in game.state.patch_squares(0)


def test_every_event_card_is_covered_by_a_test(rules):
    assert {e.id for e in rules.data.events} == COVERED
