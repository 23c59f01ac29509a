"""The commander's rotation valued by the depots it deals (`rotation_fit`,
`rotation_deny`; core/bots/greedy_rotation.pxi), re-derived through the
engine's public API: every rotation applied to a copy of the game, each
player's best placement from the depot in front of it valued by greedy."""

from __future__ import annotations

import numpy as np
import pytest
from rotation_positions import rotation_decisions

import pu_sim
from pu_sim import bots
from pu_sim._core import CONSTANTS
from pu_sim.game import Game
from pu_sim.lab import probes

DENY_WIDTH = int(CONSTANTS["ROTATION_DENY_WIDTH"])
# greedy_tuned with the rotation valued by its tiles' sketch (as before the
# rule), a deny counted at every player count
TUNED = {
    **bots.PRESETS["greedy_tuned"],
    "rotation_fit": 0.0,
    "rotation_deny": 0.0,
    "rotation_deny_players": 0.0,
}
# the depots' placements are valued without the placement re-rankings
DEPOT = bots.greedy("depot", **{**TUNED, "place_fit": 0.0, "ntuple": 0.0})


def depot_values(game: Game, rotation: int) -> dict[int, float]:
    """Each player's best placement value from the depot `rotation` deals it
    (0 when it cannot place), read as the draft comes round to it."""
    after = game.copy()
    after.apply(rotation)
    players = len(game.scores())
    out: dict[int, float] = {}
    while len(out) < players and not after.is_terminal:
        if after.decision == "rotation":
            break
        if after.decision == "place" and after.decider not in out:
            out[after.decider] = max(probes.greedy_values(after, DEPOT))
        after.apply(after.bot_move())
    return {q: out.get(q, 0.0) for q in range(players)}


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_rotation_fit_values_a_rotation_by_the_commanders_depot(players, seed):
    bot = bots.greedy("fit", **{**TUNED, "rotation_fit": 1.0})
    for game in rotation_decisions(players, seed, bot)[:8]:
        p = game.decider
        values = probes.greedy_values(game, bot)
        expected = [depot_values(game, r)[p] for r in game.legal_moves()]
        assert np.allclose(values, expected)


def test_rotation_deny_takes_off_the_others_mean_for_the_best_two():
    """The commander's best DENY_WIDTH rotations count the other players' mean
    depot value x deny; the others rank below them, in their own order."""
    deny = 0.5
    bot = bots.greedy("deny", **{**TUNED, "rotation_fit": 1.0, "rotation_deny": deny})
    checked = 0
    for game in rotation_decisions(3, 3, bot)[:8]:
        p = game.decider
        values = np.asarray(probes.greedy_values(game, bot))
        by_rotation = [depot_values(game, r) for r in game.legal_moves()]
        own = np.array([v[p] for v in by_rotation])
        kept = np.argsort(-own, kind="stable")[:DENY_WIDTH]
        for r in kept:
            others = [v for q, v in by_rotation[r].items() if q != p]
            assert values[r] == pytest.approx(own[r] - deny * np.mean(others))
        rest = np.setdiff1d(np.arange(len(own)), kept)
        assert values[rest].max() < values[kept].min()
        assert (
            np.argsort(-values[rest], kind="stable").tolist()
            == np.argsort(-own[rest], kind="stable").tolist()
        )
        checked += 1
    assert checked >= 3


def test_the_commanders_choice_changes_only_where_rotations_are_chosen():
    """On, it changes which rotation the commander plays somewhere; in the
    2-player variant the station turns by itself (SS-6), so those games are
    the same with or without it (in solo one event lets the player turn it,
    SS-7)."""
    on = bots.greedy("fit", **{**TUNED, "rotation_fit": 1.0, "rotation_deny": 1.0})
    off = bots.greedy("off", **TUNED)
    a = pu_sim.simulate(6, players=2, bots=on, seed=4)
    b = pu_sim.simulate(6, players=2, bots=off, seed=4)
    assert a["score"].to_list() == b["score"].to_list()
    changed = 0
    for game in rotation_decisions(3, 5, off)[:10]:
        plain = probes.greedy_values(game, off)
        fitted = probes.greedy_values(game, on)
        changed += int(np.argmax(plain) != np.argmax(fitted))
    assert changed >= 1


@pytest.mark.parametrize(
    ("players", "upto", "denied"), [(3, 3, True), (4, 3, False), (4, 4, True)]
)
def test_the_deny_counts_only_up_to_its_player_count(players, upto, denied):
    """rotation_deny_players: the deny counts with at most that many players;
    above it the commander values the rotations as without the deny."""
    weights = {**TUNED, "rotation_fit": 1.0, "rotation_deny": 1.0}
    capped = bots.greedy("capped", **{**weights, "rotation_deny_players": float(upto)})
    plain = bots.greedy("plain", **{**weights, "rotation_deny": 0.0})
    every = bots.greedy("every", **weights)
    differs = 0
    for game in rotation_decisions(players, 11, capped)[:8]:
        values = probes.greedy_values(game, capped)
        assert values == probes.greedy_values(game, every if denied else plain)
        differs += int(values != probes.greedy_values(game, plain if denied else every))
    assert differs >= 1


def test_greedy_tuned_and_greedy_learned_deny_at_3_players_only():
    for name in ("greedy_tuned", "greedy_learned"):
        params = bots.parse(name).params
        assert params["rotation_deny"] > 0 and params["rotation_deny_players"] == 3


@pytest.mark.parametrize(("players", "deny"), [(3, 1.0), (4, 0.0), (4, 1.0)])
def test_pruned_choice_is_the_choice_valuing_every_depot(players, deny):
    """Choosing, the commander's depots are pruned against the rotations kept so
    far; scoring mode values every depot exactly.  The rotation played is the
    best of the exact values (ties: the first)."""
    bot = bots.greedy("fit", **{**TUNED, "rotation_fit": 1.0, "rotation_deny": deny})
    decisions = 0
    for seed in range(6, 10):
        for game in rotation_decisions(players, seed, bot):
            exact = np.asarray(probes.greedy_values(game, bot))
            assert game.bot_move() == game.legal_moves()[int(np.argmax(exact))]
            decisions += 1
    assert decisions >= 40
