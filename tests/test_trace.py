"""The move-by-move trace (`pu-sim play`): it never crashes, it tells the truth.

Every corporation and planet at 1-6 players, with bots that reach the rare
decisions (random) and the common ones (greedy): every decision is put into
words, the trace shows only events that happened, and the final scores it
prints are the scores the fast path records for the same game.
"""

from __future__ import annotations

import re

import pytest

import pu_sim
from pu_sim.game import Game
from pu_sim.rules import load_game_data

DATA = load_game_data()
CORPORATIONS = [c.key for c in DATA.corporations]
PLANETS = [p.key for p in DATA.planets]


def tables(players: int, bots: str) -> list[pu_sim.TableSetup]:
    """Tables whose first seat cycles through every corporation and planet."""
    out = []
    for i in range(max(len(CORPORATIONS), len(PLANETS))):
        corp = CORPORATIONS[i % len(CORPORATIONS)]
        planet = PLANETS[i % len(PLANETS)]
        out.append(
            pu_sim.TableSetup(
                players=players,
                corporations=[corp] + ["random"] * (players - 1),
                planets=[planet] + ["random"] * (players - 1),
                bots=bots,
            )
        )
    return out


def printed_scores(trace: list[str]) -> list[int]:
    return [int(re.match(r"score p\d+: score=(-?\d+)", line).group(1))  # type: ignore[union-attr]
            for line in trace if line.startswith("score p")]  # fmt: skip


def check_traces(table: pu_sim.TableSetup, seed: int, n_games: int) -> None:
    frame = pu_sim.simulate(n_games, table, seed=seed, n_jobs=1)
    for index in range(n_games):
        game = Game(table, seed=seed, game_index=index)
        trace = game.trace()
        recorded = frame.filter(frame["game_id"] == index).sort("seat")["score"]
        assert printed_scores(trace) == recorded.to_list(), (table, seed, index)
        events = [line for line in trace if " event " in line]
        if not table.options.uses_events(table.players):
            assert events == [], events[:1]
        for p in range(table.players):
            assert len(game.render(p).splitlines()) == 13


@pytest.mark.parametrize("players", range(1, 7))
def test_traces_of_every_corporation_and_planet(players):
    for k, table in enumerate(tables(players, "random")):
        check_traces(table, seed=100 * players + k, n_games=1)
    greedy = tables(players, "greedy")
    for k in range(0, len(greedy), 3):
        check_traces(greedy[k], seed=7 + k, n_games=1)


@pytest.mark.slow
@pytest.mark.parametrize("players", range(1, 7))
def test_traces_at_length(players):
    for bots in ("random", "greedy"):
        for k, table in enumerate(tables(players, bots)):
            check_traces(table, seed=1000 * players + k, n_games=4)


def test_jump_drive_lifepod_slots_are_named():
    # the trace crashed on Jump Drive's tech slots (a lifepod's place past the tracks)
    lines = Game(corporations="jump_drive", seed=1).trace()
    slots = [line for line in lines if "slot" in line]
    assert slots and all(re.search(r"the tech [A-F] slot", s) for s in slots), slots


def test_no_event_is_shown_when_the_deck_is_off():
    lines = Game(players=2, seed=3).trace()
    assert not [line for line in lines if " event " in line]
    solo = Game(players=1, seed=3).trace()
    assert sum(" event " in line for line in solo) >= 10


@pytest.mark.parametrize("players", range(1, 7))
def test_every_event_is_shown_once_in_its_own_round(players):
    """One line per reveal: the last round's card, still in view when the next
    round opens (before its card is drawn), is not shown again."""
    options = pu_sim.RuleOptions(event_deck=True)
    for seed in (2, 5):
        game = Game(players=players, options=options, bots="greedy", seed=seed)
        lines = game.trace()
        events = [re.match(r"r(\d+) event (\d+) ", line) for line in lines]
        shown = [(int(m[1]), int(m[2])) for m in events if m]
        rounds = {int(line[1:3]) for line in lines if re.match(r"r\d\d ", line)}
        rounds.discard(0)  # the set-up's decisions (solo objectives)
        cards = [card for _, card in shown]
        assert len(cards) == len(set(cards)), shown  # no card twice
        assert [r for r, _ in shown] == sorted(rounds), shown  # one per round
        assert game.fields()["round"] == max(rounds)
