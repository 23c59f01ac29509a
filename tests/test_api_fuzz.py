"""The API's arguments, fuzzed: every call plays or says in one line what is wrong.

Hypothesis draws each argument of ``simulate``, ``TableSetup``, ``RuleOptions``
and ``Game`` from good values and from what users get wrong (strings for
booleans, floats and bools for counts, nan, negative and huge numbers,
numpy scalars, lists for tuples, unknown names, None).  A call either plays
(the frame has a row per game and seat) or raises ``ValueError`` or
``TypeError`` with one line; never another exception, never a traceback from
deep inside numpy, polars or the core.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import pu_sim
from pu_sim.game import Game
from pu_sim.rules import RuleOptions

WRONG = st.one_of(
    st.none(), st.booleans(), st.sampled_from(["", "no", "false", "true", "1", "x"]),
    st.floats(allow_nan=True, allow_infinity=True), st.integers(-(2**70), 2**70),
    st.lists(st.integers(-2, 30), max_size=4), st.just({}),
    st.builds(np.int64, st.integers(-5, 30)),
)  # fmt: skip
"""Values a user passes by mistake, for any argument."""

NAMES = st.sampled_from(["random", "cosmos_inc", "Gaia", "gaia", "ksb_4156",
                         "Horizon Group", "nope", "wormhole_corp", "K-273"])  # fmt: skip
BOTS = st.sampled_from(["random", "greedy", "genius", "greedy:line_complete=2",
                        "random:x=1", "python:nowhere:Bot"])  # fmt: skip


def either(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly good values, sometimes a mistake."""
    return st.one_of(good, good, WRONG)


def seats(names: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """One entry for all seats, a list of one per seat, or a pool."""
    return st.one_of(names, st.lists(names, min_size=1, max_size=4),
                     st.lists(st.tuples(names, names), min_size=1, max_size=2))  # fmt: skip


OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "event_deck": either(st.sampled_from([None, True, False])),
        "event_deck_mix": either(
            st.one_of(st.sampled_from(["random", "bga_random", (7, 7, 6), (5, 8, 7)]),
                      st.tuples(*[st.integers(-1, 21)] * 3))
        ),
        "private_objectives": either(st.booleans()),
        "civ_pick_timing": either(st.sampled_from(["end_of_round", "on_milestone"])),
        "interior_shift": either(st.sampled_from([None, 0, 3, 5, 6])),
        "oasis_row11_medal": either(st.sampled_from([8, 9, 10])),
        "station_interior_slots": either(st.none()),
    },
)  # fmt: skip


def one_line(exc: BaseException) -> None:
    assert isinstance(exc, ValueError | TypeError), repr(exc)
    text = str(exc)
    assert text and "\n" not in text, repr(exc)


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(options=OPTIONS)
def test_rule_options_are_made_or_refused_in_one_line(options):
    try:
        made = RuleOptions(**options)
    except Exception as exc:
        one_line(exc)
        return
    assert hash(made) == hash(RuleOptions(**made.as_dict()))  # a frozen value
    mix = made.event_deck_mix  # checked when made, not when a table is built
    assert mix in ("random", "bga_random") or (
        isinstance(mix, tuple) and len(mix) == 3 and sum(mix) == 20
        and all(type(c) is int and c >= 0 for c in mix)
    ), mix  # fmt: skip
    for name in ("event_deck", "private_objectives"):
        assert getattr(made, name) in (None, True, False), name


def mostly(common: list[Any], other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A common value three times in four, else something rarer."""
    return st.one_of(st.sampled_from(common), st.sampled_from(common),
                     st.sampled_from(common), other)  # fmt: skip


GOOD = {
    "n_games": st.integers(0, 4),
    "players": st.integers(1, 6),
    "corporations": mostly(["random", "universal_coalition"], seats(NAMES)),
    "planets": mostly(["random", "Gaia", "ksb_4156"], seats(NAMES)),
    "bots": mostly(["random", "greedy"], seats(BOTS)),
    "group_size": mostly([None, 1], st.sampled_from([2, 3])),
    "paired": mostly([False], st.just(True)),
    "unique_asymmetric": st.booleans(),
    "seed": st.integers(0, 2**64),
    "batch_size": st.integers(1, 3),
}
"""Each argument of simulate with values a user means."""


@st.composite
def calls(draw: st.DrawFn) -> dict[str, Any]:
    """simulate's arguments: good ones, and none, one or two mistakes."""
    args = {name: draw(good) for name, good in GOOD.items()}
    wrong = draw(st.lists(st.sampled_from(sorted(GOOD)), max_size=2, unique=True))
    for name in wrong:
        args[name] = draw(WRONG)
    args["options"] = draw(OPTIONS)
    return args


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(args=calls())
@example(args={"n_games": 2, "players": 2, "paired": "no", "options": {}})
@example(args={"n_games": 2, "players": 1, "unique_asymmetric": "false",
               "options": {"event_deck_mix": (9, 9, 9)}})  # fmt: skip
def test_simulate_plays_or_refuses_in_one_line(args):
    options = args.pop("options")
    try:
        frame = pu_sim.simulate(args.pop("n_games"), options=RuleOptions(**options),
                                n_jobs=1, **args)  # fmt: skip
    except Exception as exc:
        event(f"refused: {type(exc).__name__}")
        one_line(exc)
        return
    event("played")
    assert isinstance(args.get("paired", False), bool)
    assert isinstance(args.get("unique_asymmetric", True), bool)
    assert frame.height % int(args.get("players", 1)) == 0
    assert frame["status"].is_not_null().all()


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(
    players=either(st.integers(1, 4)),
    seed=either(st.integers(0, 2**63)),
    game_index=either(st.integers(0, 2**62)),
    moves=st.lists(either(st.integers(-3, 5000)), max_size=4),
)
def test_game_plays_or_refuses_in_one_line(players, seed, game_index, moves):
    try:
        game = Game(players=players, bots="random", seed=seed, game_index=game_index)
    except Exception as exc:
        one_line(exc)
        return
    for move in moves:
        legal = game.legal_moves()
        refused = outcome(game.apply, move)
        if isinstance(refused, Exception):
            one_line(refused)
            is_move = isinstance(move, int) and not isinstance(move, bool)
            assert not (is_move and move in legal), (move, refused)
    game.play()
    assert game.is_terminal
    refused = outcome(game.apply, 0)
    assert isinstance(refused, ValueError) and "the game is over" in str(refused)


def outcome(call: Any, *args: Any) -> Any:
    """What ``call`` returned, or the exception it raised."""
    try:
        return call(*args)
    except Exception as exc:
        return exc
