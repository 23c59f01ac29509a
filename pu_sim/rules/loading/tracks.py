"""Resource tracks: a space's tokens and a corporation's 16-space tracks.

A space is written as tokens (``"move:2 medal:1"``); :func:`parse_space` reads
one, :func:`read_track` a whole track with the checks that catch a token
copied onto the wrong track.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final, cast

from pu_sim.rules.gamedata import TRACKS, Space, Track
from pu_sim.rules.loading.checks import Node

__all__ = ["TRACK_LEN", "has_benefit", "parse_space", "read_track"]

TRACK_LEN: Final = 16
"""Spaces on a track: index 0 is the start, 15 the top."""

MAX_REPEATS: Final = 9
"""Most tokens of one kind on a space (the core keeps a space's fields in a
signed byte; the printed boards repeat a token twice at most)."""

_NUMBERED: Final[Mapping[str, tuple[int, int]]] = MappingProxyType(
    {"medal": (1, 20), "civ": (1, 4), "move": (1, 9), "tech": (1, 6)}
)
"""Numbered tokens and their allowed ranges."""


def parse_space(text: str) -> Space:
    """Parse a space written as tokens (``"move:2 medal:1"``); raise ValueError.

    Token vocabulary (corporations.md 0): ``medal:N civ:R synergy synergy:T
    biomass_patch rover move:N tech:L no_stop``.  ``synergy`` and
    ``biomass_patch`` may repeat (Flux's improved tracks give two).
    """
    numbers: dict[str, int] = {}
    flags: set[str] = set()
    synergy = patches = 0
    target = ""
    for token in text.split():
        name, sep, arg = token.partition(":")
        if name == "synergy":
            synergy += 1
            if sep:
                if arg not in TRACKS:
                    raise ValueError(f"unknown synergy target in {token!r}")
                if target:
                    raise ValueError(f"two targeted synergies in {text!r}")
                target = arg
        elif name == "biomass_patch" and not sep:
            patches += 1
        elif name in ("rover", "no_stop") and not sep:
            if name in flags:
                raise ValueError(f"token {name!r} twice in {text!r}")
            flags.add(name)
        elif name in _NUMBERED and sep:
            lo, hi = _NUMBERED[name]
            if not arg.isdigit() or not lo <= int(arg) <= hi:
                raise ValueError(f"bad value in {token!r} (expected {lo}..{hi})")
            if name in numbers:
                raise ValueError(f"token {name!r} twice in {text!r}")
            numbers[name] = int(arg)
        else:
            raise ValueError(f"unknown token {token!r}")
    if target and synergy != 1:
        raise ValueError(f"a targeted synergy cannot share its space: {text!r}")
    if synergy > MAX_REPEATS or patches > MAX_REPEATS:
        raise ValueError(
            f"at most {MAX_REPEATS} synergies and {MAX_REPEATS} biomass patches on "
            f"one space, got {synergy} and {patches}"
        )
    space = Space(
        medal=numbers.get("medal", 0),
        civ_rank=numbers.get("civ", 0),
        synergy=synergy,
        synergy_target=target,
        patches=patches,
        rover="rover" in flags,
        move=numbers.get("move", 0),
        tech_level=numbers.get("tech", 0),
        no_stop="no_stop" in flags,
    )
    if space.no_stop and has_benefit(space):
        raise ValueError(f"a no_stop space carries a benefit: {text!r}")
    return space


def has_benefit(space: Space) -> bool:
    """Tell whether entering the space claims anything (medals are not)."""
    return bool(
        space.civ_rank
        or space.synergy
        or space.patches
        or space.rover
        or space.move
        or space.tech_level
    )


_TRACK_ONLY_TOKENS: Final[Mapping[str, Callable[[Space], bool]]] = MappingProxyType(
    {
        "civ": lambda s: s.civ_rank > 0,
        "biomass": lambda s: s.patches > 0 or bool(s.synergy_target),
        "rover": lambda s: s.rover or s.move > 0,
        "tech": lambda s: s.tech_level > 0,
    }
)
"""Tokens printed only on one track (a token elsewhere is a transcription slip)."""


def read_track(
    node: Node, where: str, name: str, raw: object, beyond_top: object
) -> Track:
    """Read a 16-space track written as a list of token strings."""
    if not isinstance(raw, list) or len(raw) != TRACK_LEN:
        raise node.error(f"{where}.{name}: expected a list of {TRACK_LEN} spaces")
    spaces = []
    for i, text in enumerate(cast(list[object], raw)):
        if not isinstance(text, str):
            raise node.error(f"{where}.{name}[{i}]: expected a string of tokens")
        try:
            space = parse_space(text)
        except ValueError as exc:
            raise node.error(f"{where}.{name}[{i}]: {exc}") from None
        for owner, holds in _TRACK_ONLY_TOKENS.items():
            if owner != name and holds(space):
                raise node.error(
                    f"{where}.{name}[{i}]: {text!r} belongs on the {owner} track"
                )
        spaces.append(space)
    if spaces[0] != Space():
        raise node.error(f"{where}.{name}[0]: the start space must be blank")
    top: Space | None = None
    if beyond_top is not None:
        if not isinstance(beyond_top, str):
            raise node.error(f"{where}: rover_beyond_top must be a token string")
        try:
            top = parse_space(beyond_top)
        except ValueError as exc:
            raise node.error(f"{where}: rover_beyond_top: {exc}") from None
        if not top.move or top.medal or top.no_stop:
            raise node.error(f"{where}: rover_beyond_top must be movement only")
    return Track(spaces=tuple(spaces), beyond_top=top)
