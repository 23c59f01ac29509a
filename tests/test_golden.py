"""Golden traces: every decision of a few seeded games (OpenSpiel playthroughs).

A trace changes only when the rules or the bots change.  Regenerate on purpose,
together with a RULES_VERSION or ENGINE_VERSION bump:
``PU_SIM_REGENERATE_GOLDEN=1 pytest tests/test_golden.py`` (``make golden``).
The greedy_tuned and search traces also change with greedy_tuned's preset or a
fitted table: regenerate only those then (the reports measured with the preset
are re-run in the same change).  They pin the tuned bots' games across machines
and builds, as the default greedy's traces pin the engine's.  The policy_td
traces change with its network (pu_sim/data/fitted/policy.npz): regenerate them
when it is re-learned.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from pu_sim import _core
from pu_sim.game import Game
from pu_sim.rules import RULES_VERSION

GOLDEN = Path(__file__).parent / "golden"

CASES = {
    "solo_greedy_tuned_seed11": dict(players=1, bots="greedy_tuned", seed=11),
    "two_search_greedy_tuned_seed12": dict(
        players=2, bots=["search", "greedy_tuned"], seed=12
    ),
    "three_greedy_tuned_seed13": dict(players=3, bots="greedy_tuned", seed=13),
    "three_greedy_learned_seed14": dict(players=3, bots="greedy_learned", seed=14),
    "four_greedy_tuned_seed16": dict(players=4, bots="greedy_tuned", seed=16),
    "four_greedy_learned_seed17": dict(players=4, bots="greedy_learned", seed=17),
    "solo_greedy_learned_seed15": dict(players=1, bots="greedy_learned", seed=15),
    "solo_policy_td_seed18": dict(
        players=1, bots="policy_td", seed=18, corporations="random", planets="random"
    ),
    "four_policy_td_seed19": dict(
        players=4,
        bots=["policy_td", "greedy_learned", "policy_td", "greedy_learned"],
        seed=19,
        corporations="random",
        planets="random",
    ),
    "solo_greedy_seed1": dict(players=1, bots="greedy", seed=1),
    "solo_random_seed4": dict(players=1, bots="random", seed=4),
    "two_random_seed2": dict(players=2, bots="random", seed=2),
    "four_greedy_seed3": dict(players=4, bots="greedy", seed=3),
    "four_greedy_planets_seed5": dict(
        players=4,
        bots="greedy",
        seed=5,
        planets=["pajitnov", "gaia", "petra", "tartarus"],
    ),
    "three_random_planets_seed6": dict(
        players=3, bots="random", seed=6, planets=["lacuna", "k_aax", "cerberus"]
    ),
    "solo_greedy_arashi_seed7": dict(
        players=1, bots="greedy", seed=7, planets="arashi"
    ),
    "two_greedy_planets_seed8": dict(
        players=2, bots="greedy", seed=8, planets=["k_273", "persephone"]
    ),
    "two_random_planets_seed9": dict(
        players=2, bots="random", seed=9, planets=["oblivion", "charybdis"]
    ),
}


def make_trace(**kwargs) -> str:
    game = Game(**kwargs)
    lines = [
        f"# pu_sim golden trace: {kwargs}",
        f"# RULES_VERSION={RULES_VERSION} ENGINE_VERSION={_core.ENGINE_VERSION}",
        *game.trace(),
    ]
    for p in range(kwargs["players"]):
        lines.append(f"planet p{p}:")
        lines.append(game.render(p))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_trace(name):
    path = GOLDEN / f"{name}.txt"
    trace = make_trace(**CASES[name])
    if os.environ.get("PU_SIM_REGENERATE_GOLDEN") == "1":
        path.write_text(trace)
    expected = path.read_text()
    if trace != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), trace.splitlines(True), "golden", "now", n=2
            )
        )
        pytest.fail(
            f"{name} changed (bump a version and run `make golden`):\n{diff[:4000]}"
        )


def test_trace_reads_like_a_game():
    trace = make_trace(**CASES["solo_greedy_seed1"])
    assert "place #" in trace and "score p0: score=" in trace
