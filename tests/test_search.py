"""The search bot: legal complete games, determinism, no peeking, and strength."""

from __future__ import annotations

from collections import Counter

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import pu_sim
from pu_sim import _core, bots
from pu_sim.game import Game
from pu_sim.lab import probes
from pu_sim.rules import RuleOptions
from pu_sim.testing import frame_violations

QUICK = bots.search(budget=2, width=2)  # the cheapest real search


def test_search_spec_fills_its_documented_slots():
    b = bots.search(budget=12, width=3, minor=0.25, line_complete=2.0)
    v = b.vector()
    # the slots' names against the core's: tests/test_names.py
    assert v[_core.S_BUDGET] == 12 and v[_core.S_WIDTH] == 3
    assert v[_core.S_MINOR] == 0.25
    assert v[0] == 2.0  # greedy weights in greedy's slots
    assert np.array_equal(b.rollout_vector(), bots.greedy(line_complete=2.0).vector())
    assert np.array_equal(bots.random().rollout_vector(), bots.greedy().vector())
    assert bots.parse("search") == bots.search()
    with pytest.raises(ValueError, match="budget"):
        bots.search(budget=-1)
    with pytest.raises(ValueError, match="width"):
        bots.search(width=0)
    with pytest.raises(ValueError, match="minor"):
        bots.search(minor=-0.5)
    with pytest.raises(ValueError, match="unknown greedy weight"):
        bots.search(depth=3)


def test_a_search_table_needs_rollout_params(rules):
    from pu_sim.simulation.table import TableSetup

    spec = TableSetup(players=1, bots=QUICK).lower(rules.data)
    del spec["rollout_params"]
    out = np.zeros(1, dtype=_core.RECORD_DTYPE)
    with pytest.raises(ValueError, match="rollout_params"):
        _core.play_batch(rules.core, spec, 1, 2, 0, out)


@pytest.mark.parametrize("players", [1, 2, 4])
@pytest.mark.parametrize("boards", ["base", "all"])
def test_search_games_finish_ok(players, boards, rules):
    kw = {"corporations": "random", "planets": "random"} if boards == "all" else {}
    seats = [bots.search("seeker", budget=2, width=2)] + ["greedy"] * (players - 1)
    frame = pu_sim.simulate(3 if players < 4 else 2, players=players, bots=seats,
                            seed=11, **kw)  # fmt: skip
    assert frame["status"].unique().to_list() == ["ok"]
    assert frame.filter(pl.col("seat") == 0)["bot"].unique().to_list() == ["seeker"]
    assert frame_violations(frame, rules.data).is_empty()  # every frame invariant


@pytest.mark.parametrize("players", [1, 2])
def test_every_search_move_is_legal(players):
    game = Game(players=players, bots=[QUICK] * players, seed=4,
                corporations="random", planets="random")  # fmt: skip
    n = 0
    while not game.is_terminal:
        legal = game.legal_moves()
        move = game.bot_move()
        assert move in legal
        game.apply(move)
        n += 1
    assert game.status == "ok" and n > 50


def test_search_results_do_not_depend_on_workers_or_batches():
    kw = dict(players=2, bots=[QUICK, "greedy"], planets="random", seed=99)
    base = pu_sim.simulate(6, n_jobs=1, batch_size=6, **kw)
    assert_frame_equal(base, pu_sim.simulate(6, n_jobs=2, batch_size=2, **kw))
    assert_frame_equal(base, pu_sim.simulate(6, n_jobs=1, batch_size=4, **kw))


@pytest.mark.parametrize("spec", [bots.search(budget=0), bots.search(width=1)])
@pytest.mark.parametrize("players", [1, 3])
def test_no_budget_or_width_one_plays_exactly_greedy(spec, players):
    kw = dict(players=players, planets="random", seed=20240611)
    a = pu_sim.simulate(6, bots=spec, **kw).drop("bot")
    b = pu_sim.simulate(6, bots="greedy", **kw).drop("bot")
    assert_frame_equal(a, b)
    known = pu_sim.simulate(3, bots=spec, seed=20240611)["score"].to_list()
    assert known == [43, 48, 49]  # greedy's known answer (test_determinism.py)


MAJOR = {
    "place",
    "no_place",
    "meteor_symbol",
    "energy",
    "synergy",
    "track",
    "direction",
    "flux_track",
    "branch",
}  # placements and track choices


def _off_greedy_decisions(bot: bots.BotSpec, seed: int) -> list[str]:
    """Decisions of one solo game where `bot` played none of greedy's best moves."""
    game = Game(players=1, bots=bot, seed=seed, corporations="random", planets="random")
    off = []
    while not game.is_terminal:
        moves, move = game.legal_moves(), game.bot_move()
        values = np.asarray(probes.greedy_values(game, bot))
        if values[moves.index(move)] < values.max():
            off.append(game.decision)
        game.apply(move)
    return off


@pytest.mark.parametrize("seed", [3, 4])
def test_minor_zero_searches_only_placements_and_track_choices(seed):
    off = _off_greedy_decisions(bots.search(budget=4, minor=0), seed)
    assert off and set(off) <= MAJOR
    everywhere = _off_greedy_decisions(bots.search(budget=4), seed)
    assert set(everywhere) - MAJOR  # the full search departs from greedy elsewhere too


# ---- determinization: the search bot's view of the game -------------------------


def _mid_draft_game() -> Game:
    """3 players with private objectives, stopped in round 3's draft after the
    first drafter took a tile (so a stack top is hidden, rules-13.13)."""
    options = RuleOptions(private_objectives=True, event_deck=True)
    game = Game(players=3, bots="greedy", seed=8, options=options)
    while True:
        s = game.state
        if (s.game_fields()["round"] >= 3 and s.hidden_state()["unseen_tops"]
                and s.stage == "draft" and s.decision == "place"):  # fmt: skip
            return game
        game.step()


def _public(state: _core.GameState, seat: int) -> dict:
    """What `seat` may know: the state minus every hidden order and hand."""
    g = state.game_fields()
    h = state.hidden_state()
    hidden = h["unseen_tops"]
    own = state.facing_depot(seat)
    own_stacks = {state.depot_stack(own, 0), state.depot_stack(own, 1)}
    tops = [
        st[0] if st and (not (hidden >> s) & 1 or s in own_stacks) else "hidden"
        for s, st in enumerate(g["stacks"])
    ]
    players = []
    for p in range(g["n_players"]):
        f = state.player_fields(p)
        if p != seat:
            for key in ("private_objectives", "dealt_objectives", "private_met"):
                f[key] = len(f[key])
        players.append(f)
    for key in ("piles", "reserve", "deck", "objective_deck"):
        g[key] = [len(x) if isinstance(x, list) else 1 for x in g[key]]
    g["stacks"] = [Counter(st) for st in g["stacks"]]  # multiset: public
    return {
        "game": g,
        "tops": tops,
        "revealed": h["revealed_events"],
        "players": players,
    }


def test_determinization_keeps_public_state_and_reshuffles_hidden_order():
    game = _mid_draft_game()
    s = game.state
    seat = s.decider
    before = s.game_fields()
    stacks_before = s.hidden_state()["stacks"]
    changed: Counter[str] = Counter()
    for seed in range(8):
        d = s.determinized(seat, seed)
        assert _public(d, seat) == _public(s, seat)
        after = d.game_fields()
        for r in range(4):  # face-down civ cards are redealt within their rank
            assert Counter(after["piles"][r] + after["reserve"][r]) == Counter(
                before["piles"][r] + before["reserve"][r]
            )
        changed["stacks"] += d.hidden_state()["stacks"] != stacks_before
        changed["piles"] += after["piles"] != before["piles"]
        changed["deck"] += after["deck"] != before["deck"]
        changed["objectives"] += after["objective_deck"] != before["objective_deck"]
        opponents = [p for p in range(3) if p != seat]
        changed["private"] += any(
            d.player_fields(p)["private_objectives"]
            != s.player_fields(p)["private_objectives"]
            for p in opponents
        )
        assert d.legal_moves() == s.legal_moves()  # the decision itself is public
    assert set(changed) == {"stacks", "piles", "deck", "objectives", "private"}
    assert min(changed.values()) >= 4, changed  # most seeds change every part
    assert s.game_fields() == before  # the real game is untouched


def test_determinization_draws_events_the_player_has_not_seen():
    game = _mid_draft_game()
    s = game.state
    revealed = set(s.hidden_state()["revealed_events"])
    pool = set()
    for seed in range(30):
        deck = s.determinized(s.decider, seed).game_fields()["deck"]
        assert not revealed & set(deck)
        pool |= set(deck)
    assert len(pool) > len(s.game_fields()["deck"])  # not only the real deck's cards


def test_a_rollout_is_reproducible_and_leaves_the_game_alone():
    """Game.rollout (the experiments' option values): same stream, same score;
    other streams redeal the hidden state; the real game does not move."""
    game = Game(players=1, bots="greedy_tuned", seed=8)
    while game.decision != "place":
        game.step()
    before, moves = game.fields(), game.legal_moves()
    scores = [probes.rollout(game, moves[0], stream) for stream in range(8)]
    assert probes.rollout(game, moves[0], 3) == scores[3]
    assert len(set(scores)) > 1  # the redealt stacks and events differ
    assert game.fields() == before and game.legal_moves() == moves
    finished = game.copy()
    finished.state = game.state.determinized(0, 5)
    finished.apply(moves[0])
    finished.play()
    assert finished.scores()[0]["score"] == scores[5]
    # the experiments' option value: the mean over consecutive streams
    assert probes.rollout_value(game, moves[0], 4, 2) == float(np.mean(scores[2:6]))


# ---- strength ---------------------------------------------------------------------


def test_search_beats_greedy_in_paired_solo_games():
    seed, n = 123, 60
    greedy = pu_sim.simulate(n, bots="greedy", seed=seed)["score"].to_numpy()
    search = pu_sim.simulate(n, bots=bots.search(budget=4, width=2), seed=seed)
    diff = search["score"].to_numpy() - greedy  # same setup per game_id: paired
    half = 1.96 * diff.std(ddof=1) / np.sqrt(n)
    print(f"search - greedy: {diff.mean():+.2f} +/- {half:.2f} medals (95%, n={n})")
    assert diff.mean() - half > 0


def test_strength_script_smoke_run(tmp_path):
    from experiment_scripts import load

    module = load("bots/search_strength")
    assert module.main(["--smoke", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "bots" / "search_strength" / "smoke" / "README.md").read_text()
    assert "| search-2x4 | 2 | 4 |" in text and "| greedy | 0 | 1 |" in text
    assert "| 2 | 4 vs 2 |" in text and "Two players, search (2x2)" in text
