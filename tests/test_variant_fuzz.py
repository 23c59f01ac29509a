"""A variant is untrusted data: random variants are refused in one line or play.

Hypothesis writes variant files that change any number, flag or word of the
published data (by the addresses a designer would use) to values near the
published ones, far from them, of other types, or taken from elsewhere in the
data.  Each is either refused with one line naming the file (a
:class:`~pu_sim.rules.DataError`, before anything plays), or its rules compile
and games with it play to an end on the fast path (a recorded anomaly is a
status, never a crash): every value that reaches the compiled core has been
range-checked against the core's tables at load.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import pu_sim
from pu_sim.engine import load_rules
from pu_sim.rules import DataError, Variant
from pu_sim.rules.loading import read_raw
from pu_sim.rules.loading.overrides import ENTRY_KEYS, FROZEN_KEYS, SECTIONS
from pu_sim.simulation.plan import Plan
from pu_sim.variants.balance.space import variant_text

Leaf = tuple[str, object]


def _leaves(value: object, address: str, name: str) -> Iterator[Leaf]:
    """Every scalar of the published data with the address a variant gives it."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in FROZEN_KEYS:
                yield from _leaves(item, f"{address}.{key}", key)
    elif isinstance(value, list):
        entry_key = ENTRY_KEYS.get(name)
        for i, item in enumerate(value):
            label = (
                str(item[entry_key])
                if entry_key and isinstance(item, dict) and entry_key in item
                else str(i)
            )
            yield from _leaves(item, f"{address}.{label}", name)
    else:
        yield address, value


RAW = read_raw()
LEAVES: list[Leaf] = [
    leaf
    for file in RAW.values()
    for section, data in file.items()
    if section in SECTIONS
    for leaf in _leaves(data, section, section)
]
BY_SECTION: dict[str, list[Leaf]] = {}
for _leaf in LEAVES:
    BY_SECTION.setdefault(_leaf[0].split(".")[0], []).append(_leaf)
STRINGS = sorted({v for _, v in LEAVES if isinstance(v, str)})
TOKENS = sorted({t for v in STRINGS for t in v.split()} | {"medal:20", "move:9"})
"""Words of the data's strings (a track space's tokens, say), to write many of."""


def _vocabulary(address: str) -> list[str]:
    """The tokens written at addresses like this one (a track's spaces, say)."""
    parts = address.split(".")
    shape = [p if not p.isdigit() else "#" for p in parts]
    return sorted({
        token
        for other, value in LEAVES
        if isinstance(value, str)
        and [p if not p.isdigit() else "#" for p in other.split(".")][-2:] == shape[-2:]
        for token in value.split()
    })  # fmt: skip


def _near(address: str, value: object, go_wild: bool) -> st.SearchStrategy[Any]:
    """Values for one leaf: plausible (near it, its own vocabulary), or wild (at
    the edges of the core's types, far off, or of another type)."""
    wrong = st.one_of(st.booleans(), st.integers(-3, 40), st.sampled_from(STRINGS))
    if isinstance(value, bool):
        plausible: st.SearchStrategy[Any] = st.booleans()
        wild: st.SearchStrategy[Any] = wrong
    elif isinstance(value, int):
        plausible = st.integers(min(value, max(0, value - 2)), value + 3)
        edges = st.sampled_from([0, -1, 7, 8, 9, 16, 17, 127, 128, 255, 256, 2**31])
        wild = st.one_of(st.integers(value, value + 300), edges, wrong)
    elif isinstance(value, float):
        plausible = st.floats(min(value, max(0.0, value - 2)), value + 3)
        wild = st.one_of(st.floats(-1e3, 1e3), st.integers(-5, 50), wrong)
    else:
        words = _vocabulary(address) or TOKENS
        plausible = st.lists(st.sampled_from(words), min_size=1, max_size=3).map(
            " ".join
        )
        many = st.lists(st.sampled_from(words), min_size=1, max_size=200).map(" ".join)
        wild = st.one_of(many, st.sampled_from(STRINGS), st.text(max_size=12), wrong)
    return st.one_of(plausible, wild) if go_wild else plausible


@st.composite
def variants(draw: st.DrawFn) -> dict[str, object]:
    """One to three changed leaves (distinct addresses); most variants plausible."""
    leaf = st.sampled_from(sorted(BY_SECTION)).flatmap(
        lambda section: st.sampled_from(BY_SECTION[section])
    )  # every section as likely, however many values it holds
    picked = draw(st.lists(leaf, min_size=1, max_size=3, unique_by=lambda x: x[0]))
    go_wild = draw(st.sampled_from([False, False, True]))
    return {address: draw(_near(address, value, go_wild)) for address, value in picked}


def _tables(changes: dict[str, object]) -> list[dict[str, Any]]:
    """Tables that seat every changed corporation and planet, with events on."""
    corps = sorted({a.split(".")[1] for a in changes if a.startswith("corporation.")})
    planets = sorted({a.split(".")[1] for a in changes if a.startswith("planet.")})
    events = pu_sim.RuleOptions(event_deck=True)
    tables: list[dict[str, Any]] = []
    for corp in corps or ["random"]:
        for planet in planets or ["random"]:
            tables.append({"players": 1, "corporations": corp, "planets": planet})
            tables.append({"players": 3, "corporations": [corp, "random", "random"],
                           "planets": [planet, "random", "random"],
                           "options": events})  # fmt: skip
    return tables[:4]


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(changes=variants())
@example(changes={"planet.k_aax.row_medals.0": 256})  # a byte's worth, plus one
@example(changes={"corporation.cosmos_inc.tracks.water.15": "synergy " * 130})
@example(changes={"card.12.effects.0.count": 300})
@example(changes={"corporation.horizon_group.rovers": 4})  # a valid one plays
def test_a_random_variant_is_refused_in_one_line_or_plays(changes):
    try:
        text = variant_text("fuzz", "", changes)
    except TypeError:  # a value TOML cannot write (never reaches a file)
        event("unwritable")
        return
    refused = _refusal(Variant.from_text, text, "fuzz.toml")
    if not isinstance(refused, Exception):
        refused = _refusal(load_rules, variant=refused)
    if isinstance(refused, Exception):
        event("refused")
        assert isinstance(refused, DataError), refused
        assert "\n" not in str(refused) and str(refused).startswith("fuzz.toml")
        return
    event("played")
    variant = Variant.from_text(text, "fuzz.toml")
    for i, table in enumerate(_tables(changes)):
        plan = _refusal(Plan.of, variant=variant, seed=i, **table)
        if isinstance(plan, Exception):  # a table the variant makes impossible
            assert isinstance(plan, ValueError) and "\n" not in str(plan)
            continue
        games = pu_sim.simulate(2, plan, n_jobs=1)
        assert games.height == 2 * table["players"]


def _refusal(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """What ``call`` returned, or the exception it raised."""
    try:
        return call(*args, **kwargs)
    except Exception as exc:
        return exc


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"corporation.cosmos_inc.rovers": 9}, "rovers"),
        ({"corporation.cosmos_inc.rovers": 200}, "rovers"),
        ({"station.stack_size": 13}, "stack_size"),
        ({"corporation.cosmos_inc.tracks.water.15": "medal:1 " + "synergy " * 130},
         "water"),
    ],
)  # fmt: skip
def test_values_beyond_the_cores_tables_are_refused(changes, words):
    text = variant_text("big", "", changes)
    with pytest.raises(DataError) as info:
        load_rules(variant=Variant.from_text(text, "big.toml"))
    message = str(info.value)
    assert message.startswith("big.toml") and words in message and "\n" not in message
