"""A corporation's rules live in its room, reached through the named hooks.

The engine rooms (``core/engine/``) play the standard board and never test a
corporation; each corporation room (``core/corporations/<key>.pxi``) holds that
board's rules and names no other corporation; ``core/corporations/hooks.pxi``
dispatches between them, and docs/architecture.md lists its hooks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pu_sim

CORE = Path(pu_sim.__file__).parent / "core"
ENGINE = CORE / "engine"
CORPORATIONS = CORE / "corporations"
HOOKS = CORPORATIONS / "hooks.pxi"
SHARED = CORPORATIONS / "shared.pxi"
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"

CORP_TEST = re.compile(r"\.corp\s*[!=]=|==\s*CORP_\w+")
FUNCTION = re.compile(r"^cdef [^(=]*?\b(\w+)\(", re.M)
DOC_NAMES = {  # how docs/architecture.md's hook table names each corporation
    "CORP_UC": "Universal Coalition",
    "CORP_COSMOS": "Cosmos",
    "CORP_FLUX": "Flux",
    "CORP_HORIZON": "Horizon",
    "CORP_JUMP": "Jump Drive",
    "CORP_MAKESHIFT": "Makeshift",
    "CORP_OASIS": "Oasis",
    "CORP_REPUBLIC": "Republic",
    "CORP_WORMHOLE": "Wormhole",
}


def corp_constants() -> dict[int, str]:
    """Corporation id -> its CORP_* constant, as the engine's defs declare them."""
    defs = (ENGINE / "defs.pxi").read_text()
    return {int(i): name for name, i in re.findall(r"\b(CORP_\w+) = (\d+)", defs)}


def rooms() -> list[Path]:
    return sorted(set(CORPORATIONS.glob("*.pxi")) - {HOOKS, SHARED})


def hooks() -> dict[str, str]:
    """Each hook's name -> its source (signature, docstring, dispatch)."""
    blocks = re.split(r"\n(?=cdef )", HOOKS.read_text())
    found = {}
    for block in blocks:
        m = FUNCTION.match(block)
        if m:
            found[m.group(1)] = block
    return found


def hook_implementers(source: str) -> list[str]:
    return re.findall(r"\.corp == (CORP_\w+)", source)


@pytest.mark.parametrize("path", sorted(ENGINE.glob("*.pxi")), ids=lambda p: p.name)
def test_engine_rooms_test_no_corporation(path):
    text = path.read_text()
    assert not CORP_TEST.search(text), f"{path.name} tests a corporation: use a hook"
    if path.name != "defs.pxi":  # where the ids are declared
        assert "CORP_" not in text, f"{path.name} names a corporation"
    room_functions = {
        name for room in rooms() for name in FUNCTION.findall(room.read_text())
    }
    called = set(re.findall(r"\b(\w+)\(", text))
    assert not called & room_functions, (
        f"{path.name} calls a corporation room directly: {sorted(called & room_functions)}"
    )


def test_every_corporation_has_its_room(rules):
    keys = {c.key for c in rules.data.corporations}
    assert {room.stem for room in rooms()} == keys
    core = (Path(pu_sim.__file__).parent / "_core.pyx").read_text()
    for key in keys:
        assert f'include "core/corporations/{key}.pxi"' in core


def test_rooms_name_only_their_own_corporation(rules):
    constant = corp_constants()
    for corp in rules.data.corporations:
        text = (CORPORATIONS / f"{corp.key}.pxi").read_text()
        assert not CORP_TEST.search(text), f"{corp.key} tests a corporation"
        assert set(re.findall(r"\bCORP_\w+", text)) <= {constant[corp.id]}, corp.key


def test_hooks_dispatch_on_the_corporation_only():
    found = hooks()
    assert len(found) > 40
    for name, source in found.items():
        assert name.startswith("corp_"), name
        assert source.startswith("cdef inline "), f"{name}: keep the dispatch inline"
        docstrings = re.findall(r'"""(.*?)"""', source, re.S)
        assert len(docstrings) == 1 and "\n" not in docstrings[0], (
            f"{name}: one one-line docstring"
        )
        implementers = hook_implementers(source)
        assert implementers, f"{name} dispatches to no room"
        assert len(implementers) == len(set(implementers)), f"{name}: one line per room"
        assert set(implementers) <= set(corp_constants().values())


def test_architecture_lists_every_hook_and_who_implements_it():
    rows = re.findall(
        r"^\| `(corp_\w+)` \|[^|]*\| ([^|]*) \|$", ARCHITECTURE.read_text(), re.M
    )
    documented = {name: sorted(who.strip().split(", ")) for name, who in rows}
    expected = {
        name: sorted(DOC_NAMES[c] for c in hook_implementers(source))
        for name, source in hooks().items()
    }
    assert documented == expected
