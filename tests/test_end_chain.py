"""The greedy bot's endgame chain (`end_chain`, core/bots/greedy_end_chain.pxi): in the
last rounds each of greedy's best placements is followed through the remaining
depots' public tiles, each placement's pool played by greedy, and valued by the
score it ends with."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

import numpy as np
import pytest
from placement_positions import late_placements

from pu_sim import bots
from pu_sim._core import CONSTANTS
from pu_sim.lab import next_fit as nfv
from pu_sim.lab import probes
from pu_sim.lab.probes import values_after_redeals
from pu_sim.testing import ScenarioGame

MAX_ROUNDS = int(CONSTANTS["END_CHAIN_MAX_ROUNDS"])
TUNED = bots.PRESETS["greedy_tuned"]
KEPT = int(TUNED["look_width"])  # the chain starts from greedy's best look_width
CHAIN = TUNED["end_chain"]
# place_fit off, so the kept placements' other values are greedy's plain ones
PLAIN = bots.greedy("plain", **{**TUNED, "place_fit": 0.0, "end_chain": 0.0})
CHAINED = bots.greedy("chained", **{**TUNED, "place_fit": 0.0})
NO_CHAIN = bots.greedy("no_chain", **{**TUNED, "end_chain": 0.0})
# also without the depot lookahead: the values are greedy's plus the chain's
ONE_PLY = {**TUNED, "place_fit": 0.0, "next_fit": 0.0, "next_fit_deep": 0.0}
PLAIN_ONE_PLY = bots.greedy("plain_one_ply", **{**ONE_PLY, "end_chain": 0.0})
CHAINED_ONE_PLY = bots.greedy("chained_one_ply", **ONE_PLY)
# every depot the chain may visit, whatever the preset
LONGEST = bots.greedy("longest", **{**TUNED, "end_rounds": float(MAX_ROUNDS)})


def play_pool(game: ScenarioGame, bot: bots.BotSpec) -> None:
    """Play what the last placement gave (its pool) by greedy's choices as the
    chain does: greedy's best move, the first one offered on a tie."""
    state = game.state
    while True:
        if state.decision is None:
            if not state.resolve_pool():
                return
            continue
        moves = state.legal_moves()
        values = (
            np.asarray(probes.greedy_values(game, bot)) if len(moves) > 1 else [0.0]
        )
        state.apply_only(moves[int(np.argmax(values))])


def score_after(game: ScenarioGame, move: int, bot: bots.BotSpec) -> int:
    """The score (9.4) once `move` is placed and its pool played."""
    after = game.copy()
    after.state.apply_only(move)
    play_pool(after, bot)
    return score_now(after)


def score_now(game: ScenarioGame) -> int:
    game.state.score_now()
    return game.player(0)["score"]


def known_answer_cases(
    rounds_left: int,
    plain: bots.BotSpec,
    chained: bots.BotSpec,
    end_of: Callable[[ScenarioGame, int], int],
) -> int:
    """Assert, at every late placement of seeds 0-2 with `rounds_left` rounds
    to follow, that `chained` values the moves as `plain` does plus the
    preset's weight x (end_of(game, move) - its mean) on plain's best KEPT.
    Returns how many of those placements had ends that differ."""
    ends_differ = 0
    for seed in range(3):
        for game, left in late_placements(seed):
            if left != rounds_left:
                continue
            moves = game.legal_moves()
            values = np.asarray(probes.greedy_values(game, plain))
            kept = np.argsort(-values, kind="stable")[:KEPT]
            ends = np.array([end_of(game, moves[i]) for i in kept], float)
            expected = values.copy()
            expected[kept] += CHAIN * (ends - ends.mean())
            assert np.asarray(probes.greedy_values(game, chained)) == pytest.approx(
                expected, abs=1e-9
            )
            ends_differ += ends.std() > 0
    return ends_differ


def assert_reads_no_hidden_state(
    placements: Iterator[tuple[ScenarioGame, int]],
) -> None:
    """Redealing what the player cannot see leaves the longest chain's values
    unchanged at every placement it runs at (at least three)."""
    checked = 0
    for game, left in placements:
        if left > MAX_ROUNDS:
            continue
        values = probes.greedy_values(game, LONGEST)
        for redealt in values_after_redeals(game, LONGEST, range(2)):
            assert redealt == pytest.approx(values)
        checked += 1
    assert checked >= 3


def test_in_the_last_round_the_chain_is_the_score_each_placement_leaves():
    """No round follows the last one (9.1), so the chain only places the
    candidate and plays its pool: the KEPT best placements gain the preset's
    weight times the score they leave, less their mean."""
    ends_differ = known_answer_cases(0, PLAIN, CHAINED, partial(score_after, bot=PLAIN))
    assert ends_differ >= 1


def chained_end_value(game: ScenarioGame, move: int) -> int:
    """The chain's end value when one round follows: `move` placed and its
    pool played, the station turned (SS-6), greedy's best placement from the
    next depot in the last round (9.1) and its pool, then the score."""
    after = game.copy()
    state = after.state
    fields = state.game_fields()
    state.apply_only(move)
    play_pool(after, PLAIN_ONE_PLY)
    state.set_game_int("rotation", (fields["rotation"] + 5) % 6)
    state.set_game_int("round", fields["round"] + 1)
    state.set_game_int("last_round", 1)
    state.start_draft(0)
    if state.decision != "place":
        return score_now(after)
    best = int(np.argmax(probes.greedy_values(after, PLAIN_ONE_PLY)))  # first on a tie
    return score_after(after, state.legal_moves()[best], PLAIN_ONE_PLY)


def test_with_one_round_left_the_chain_adds_greedy_s_next_placement():
    """One round follows: each kept placement is followed by greedy's choice
    from the depot the station turns to, and valued by the score both leave
    with their pools played."""
    ends_differ = known_answer_cases(
        1, PLAIN_ONE_PLY, CHAINED_ONE_PLY, chained_end_value
    )
    assert ends_differ >= 1


LOOK_WIDTH = int(CONSTANTS["END_CHAIN_LOOK_WIDTH"])
# the chain's own moves: greedy's values without place_fit, and the next depot's
# tiles valued by the same greedy (next_fit_deep off), from its best two
CHAIN_PLAIN = bots.greedy("chain_plain", **{**PLAIN.params, "next_fit": 0.0})
LOOKING = bots.greedy("looking", **{**TUNED, "place_fit": 0.0})
LOOKING_NO_CHAIN = bots.greedy(
    "looking_no_chain", **{**LOOKING.params, "end_chain": 0.0}
)


def chain_move(game: ScenarioGame) -> int:
    """The chain's own placement: of greedy's best LOOK_WIDTH placements (plain
    values, the first on a tie), the best once next_fit x (the next depot's
    best value after it - their mean) is added; in the last round the best."""
    moves = game.legal_moves()
    values = np.asarray(probes.greedy_values(game, CHAIN_PLAIN))
    if game.fields()["last_round"]:
        return moves[int(np.argmax(values))]
    kept = np.argsort(-values, kind="stable")[:LOOK_WIDTH]
    ahead = [nfv.next_tiles_value(game, moves[i], CHAIN_PLAIN) for i in kept]
    ranked = values[kept]
    if all(v is not None for v in ahead):
        ranked = ranked + TUNED["next_fit"] * (np.array(ahead) - np.mean(ahead))
    return moves[int(kept[np.argmax(ranked)])]


def chain_end_value(game: ScenarioGame, move: int, rounds: int) -> int:
    """The chain's end value when `rounds` rounds follow: `move` placed and its
    pool played, then each round: the station turned (SS-6), a round counted
    off the event deck (the last once it is empty, 9.1 C), the chain's own move
    from the depot it brings and its pool; then the score."""
    after = game.copy()
    state = after.state
    state.apply_only(move)
    play_pool(after, CHAIN_PLAIN)
    for _ in range(rounds):
        fields = state.game_fields()
        state.set_game_int("rotation", (fields["rotation"] + 5) % 6)
        state.set_game_int("round", fields["round"] + 1)
        state.set_game_int("deck_pos", len(state.hidden_state()["revealed_events"]) + 1)
        if len(fields["deck"]) <= 1:
            state.set_game_int("last_round", 1)
        state.start_draft(0)
        if state.decision != "place":
            break
        state.apply_only(chain_move(after))
        play_pool(after, CHAIN_PLAIN)
    return score_now(after)


def test_the_chain_s_own_moves_look_one_depot_ahead_from_their_best_two():
    """Three rounds follow (so the first of the chain's own moves could see the
    depot after next): each of the KEPT kept placements is followed by the
    chain's own moves, which look ahead more cheaply than the bot (the next
    depot only, from their best LOOK_WIDTH placements, without place_fit);
    the chain adds its weight x (the end score - its mean) to the values the
    bot has without it."""
    assert LOOK_WIDTH == 2
    checked = ends_differ = 0
    for seed in range(3):
        for game, left in late_placements(seed):
            if left != 3:
                continue
            moves = game.legal_moves()
            plain = np.asarray(probes.greedy_values(game, CHAIN_PLAIN))
            kept = np.argsort(-plain, kind="stable")[:KEPT]
            ends = np.array([chain_end_value(game, moves[i], 3) for i in kept], float)
            added = (np.asarray(probes.greedy_values(game, LOOKING))
                     - np.asarray(probes.greedy_values(game, LOOKING_NO_CHAIN)))  # fmt: skip
            expected = np.zeros(len(moves))
            expected[kept] = CHAIN * (ends - ends.mean())
            assert added == pytest.approx(expected, abs=1e-9)
            checked += 1
            ends_differ += ends.std() > 0
    assert checked >= 2 and ends_differ >= 1


def test_the_chain_s_own_moves_play_without_the_learned_planet_value():
    """One-ply with the learned planet value on (the learned bot's setting when
    it used the chain, before its endgame rollouts): what the chain adds to
    each kept placement is what it adds with that value off, so the chain's
    own moves rank without it (as without place_fit), whatever the bot's
    ntuple weight."""
    # from all 12 kept placements, as the learned bot (with look_width 10 the
    # learned value would change which 10 the chain starts from)
    every = {**ONE_PLY, "look_width": 12.0}
    learned = {**every, "ntuple": bots.PRESETS["greedy_learned"]["ntuple"]}
    chained = bots.greedy("chained_learned", **learned)
    plain = bots.greedy("plain_learned", **{**learned, "end_chain": 0.0})
    chained_off = bots.greedy("chained_every", **every)
    plain_off = bots.greedy("plain_every", **{**every, "end_chain": 0.0})
    checked = differ = 0
    for seed in range(3):
        for game, left in late_placements(seed):
            if not 2 <= left <= 3:
                continue
            with_value = (np.asarray(probes.greedy_values(game, chained))
                          - np.asarray(probes.greedy_values(game, plain)))  # fmt: skip
            without = (np.asarray(probes.greedy_values(game, chained_off))
                       - np.asarray(probes.greedy_values(game, plain_off)))  # fmt: skip
            assert with_value == pytest.approx(without, abs=1e-9)
            checked += 1
            differ += np.ptp(without) > 0
    assert checked >= 4 and differ >= 2


def test_the_chain_never_reaches_the_depot_drafted_from_now():
    """Six depots: a seventh round would draft again from this round's depot,
    whose tiles below the tops are hidden, so an end_rounds above the cap
    plays as the cap."""
    beyond = bots.greedy("beyond", **{**TUNED, "end_rounds": MAX_ROUNDS + 3.0})
    assert MAX_ROUNDS == 5
    checked = 0
    for game, left in late_placements(4):
        if left > MAX_ROUNDS + 3:
            continue
        beyond_values = probes.greedy_values(game, beyond)
        assert beyond_values == probes.greedy_values(game, LONGEST)
        if left > MAX_ROUNDS:
            assert beyond_values == probes.greedy_values(game, NO_CHAIN)
            checked += 1
    assert checked >= 2


def test_the_chain_runs_only_in_the_preset_s_last_rounds():
    """The preset's end_rounds: values change only when at most that many rounds
    follow, and with end_rounds 2 only when at most 2 do."""
    short = bots.greedy("short", **{**TUNED, "end_rounds": 2.0})
    short_off = bots.greedy("short_off", **{**TUNED, "end_rounds": 2.0, "end_chain": 0})
    moved = {True: 0, False: 0}
    for game, left in late_placements(5):
        same = probes.greedy_values(game, "greedy_tuned") == probes.greedy_values(
            game, NO_CHAIN
        )
        if left > TUNED["end_rounds"]:
            assert same
        else:
            moved[True] += not same
        if left > 2:
            assert probes.greedy_values(game, short) == probes.greedy_values(
                game, short_off
            )
        else:
            moved[False] += probes.greedy_values(game, short) != probes.greedy_values(
                game, short_off
            )
    assert moved[True] >= 3 and moved[False] >= 1


@pytest.mark.parametrize("players", [2, 3])
def test_with_other_players_the_chain_stays_off(players):
    """SS-3: with 3+ players the commander picks the depots; SS-6: with 2 the
    other seat drafts from the depot three ahead this round.  The coming tiles
    are not known, so the chain stays off."""
    game = ScenarioGame(players=players, bots="greedy_tuned", seed=2)
    checked = 0
    while not game.is_terminal:
        late = len(game.fields()["deck"]) <= 2
        if late and game.decision == "place" and len(game.legal_moves()) > 1:
            assert probes.greedy_values(game, "greedy_tuned") == probes.greedy_values(
                game, NO_CHAIN
            )
            checked += 1
        game.step()
    assert checked >= 2


def test_search_rollouts_play_without_the_chain():
    """A rollout already plays the remaining rounds: the chain is dropped there."""
    names = list(bots.GREEDY_WEIGHTS)
    vector = bots.preset("greedy_tuned").rollout_vector()
    assert vector[names.index("end_chain")] == 0.0
    assert vector[names.index("next_fit")] == TUNED["next_fit"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_chain_reads_no_hidden_state(seed):
    """Redealing everything the player cannot see (the tiles below the stacks'
    tops, the event deck, the civ piles) leaves every late placement's values
    unchanged, with chains as long as the core allows.  (The depot lookahead's
    own placements once chained too, from a copy that had not counted the
    round off: one depot too far, into hidden tiles.)"""
    assert_reads_no_hidden_state(late_placements(seed))


@pytest.mark.parametrize(
    "corporation",
    ["cosmos_inc", "flux_industries", "horizon_group", "jump_drive", "makeshift",
     "oasis_ultd", "republic", "wormhole_corp"],
)  # fmt: skip
def test_the_chain_s_pools_read_no_hidden_state_for_any_corporation(corporation):
    """The chain plays each placement's pool, where corporations' powers act:
    none of them may let it see what the player cannot."""
    assert_reads_no_hidden_state(
        late_placements(7, corporations=corporation, planets="random")
    )
