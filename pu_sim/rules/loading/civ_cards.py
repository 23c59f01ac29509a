"""``civ_cards.toml``: the 36 civilisation cards, 9 per rank.

A card's timing (taken at once, or scored at the end of the game) must agree
with when its effects act.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal, cast

from pu_sim.rules.gamedata import CivCard, DataError
from pu_sim.rules.loading.checks import check_ids, check_top_level, entries
from pu_sim.rules.loading.effects import read_effects

__all__ = ["N_CIV_CARDS", "N_CIV_PER_RANK", "load_civ_cards"]

N_CIV_CARDS: Final = 36
N_CIV_PER_RANK: Final = 9

_CIV_WHEN: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {
        "immediate": frozenset({"on_take"}),
        "end_of_game": frozenset({"end_of_game_step", "final_scoring"}),
    }
)
"""When a card of each timing may act."""


def load_civ_cards(data: Mapping[str, object]) -> tuple[CivCard, ...]:
    """Read the 36 civ cards, 9 per rank."""
    file = "civ_cards.toml"
    check_top_level(file, data, {"card"})
    cards = []
    for node in entries(file, data, "card", "civ card"):
        cid = node.get_int("id", lo=1)
        node.rename(f"civ card {cid}")
        name = node.get_str("name")
        rank = node.get_int("rank", lo=1, hi=4)
        timing = node.get_str("timing", choices=_CIV_WHEN)
        text = node.get_str("text")
        effects = read_effects(node, "effects", "civ")
        for effect in effects:
            if effect.when not in _CIV_WHEN[timing]:
                raise node.error(f"a {timing} card cannot act {effect.when!r}")
        node.done()
        cards.append(
            CivCard(
                id=cid,
                name=name,
                rank=rank,
                timing=cast(Literal["immediate", "end_of_game"], timing),
                text=text,
                effects=effects,
            )
        )
    check_ids(file, "civ card", [c.id for c in cards], range(1, N_CIV_CARDS + 1))
    for rank, count in sorted(Counter(c.rank for c in cards).items()):
        if count != N_CIV_PER_RANK:
            raise DataError(f"{file}: rank {rank} has {count} cards, expected 9")
    return tuple(sorted(cards, key=lambda c: c.id))
