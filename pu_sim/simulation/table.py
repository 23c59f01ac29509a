"""Who plays what: a validated description of the games of one run.

A :class:`TableSetup` says how many players sit at the table, which
corporations and planets each seat may get (a fixed one, or a pool drawn
uniformly per game), which bot answers each seat's decisions and the rule
options.  It validates every name against the game data (an unknown name lists
the valid ones) and every combination (an impossible setup says why), then
lowers itself to the small spec the core reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np

from pu_sim import bots as bots_mod
from pu_sim.bots import BotSpec
from pu_sim.bots.python import PREFIX, Bot, bot_label, load_bot
from pu_sim.engine.flags import deck_spec, option_flags
from pu_sim.rules import RuleOptions
from pu_sim.rules.gamedata import GameData
from pu_sim.rules.validation import Contradiction, check_bool, is_int
from pu_sim.rules.variant import Variant, VariantChoice, as_variant

SeatChoice = str | Sequence[str]
"""One name, ``"random"`` (every playable one), or a sequence of names (a pool)."""

BotChoice = str | BotSpec | Bot
"""A bot by name (``"greedy"``, a preset, ``"search"``), a :class:`BotSpec`, or a
bot written in Python (:class:`pu_sim.bots.python.Bot`, played on the slow path)."""

PYTHON_STAND_IN = "greedy"
"""The core bot that stands in for a Python bot's seat in the core's table spec:
never asked to decide there, it is how a looking-ahead core bot (search, the
endgame rollouts) models that seat's play."""


class TableArgs(TypedDict, total=False):
    """The fields of :class:`TableSetup`, as keywords of every entry point.

    :func:`pu_sim.simulate`, :func:`pu_sim.run`, :class:`pu_sim.Game` and the
    CLI take either a ``table=TableSetup(...)`` or these keywords, with the
    defaults of :class:`TableSetup` (one place).
    """

    players: int
    corporations: SeatChoice | Sequence[SeatChoice]
    planets: SeatChoice | Sequence[SeatChoice]
    bots: BotChoice | Sequence[BotChoice]
    options: RuleOptions
    unique_asymmetric: bool
    group_size: int | None
    paired: bool
    variant: VariantChoice | None


def table_of(table: TableSetup | None, args: TableArgs) -> TableSetup:
    """The table of an entry point: the one given, or one built from keywords."""
    if table is not None:
        if args:
            raise TypeError(
                "give the table as table=TableSetup(...) or as keywords "
                f"({', '.join(sorted(args))}), not both"
            )
        if not isinstance(table, TableSetup):
            raise TypeError(f"table must be a TableSetup, got {type(table).__name__}")
        return table
    unknown = set(args) - set(TableArgs.__annotations__)
    if unknown:
        raise TypeError(
            f"unknown table argument(s) {', '.join(sorted(unknown))}; valid: "
            + ", ".join(TableArgs.__annotations__)
        )
    fields: dict[str, Any] = dict(args)  # a variant may be given by its path
    return TableSetup(**fields)


def _name_index(kind: str, items: Sequence[tuple[str, str, int]]) -> dict[str, int]:
    """Every accepted spelling of a board: its key and its display name."""
    index: dict[str, int] = {}
    for key, name, i in items:
        for spelling in (key, name, name.lower(), _slug(name)):
            index.setdefault(spelling, i)
    return index


def _slug(name: str) -> str:
    """A display name as a key would spell it ("K-273" -> "k_273")."""
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")


def _resolve(
    kind: str,
    choice: SeatChoice,
    items: Sequence[tuple[str, str, int]],
    playable: Sequence[str],
) -> list[int]:
    """Ids a seat may receive; clear errors for unknown or unplayable names.

    A board is named by its key (``horizon_group``) or its display name
    (``"Horizon Group"``, any case).
    """
    index = _name_index(kind, items)
    key_of = {i: key for key, _, i in items}
    if isinstance(choice, str):
        pool = sorted(playable) if choice == "random" else [choice]
    elif isinstance(choice, list | tuple) and all(isinstance(c, str) for c in choice):
        pool = list(choice)
    else:
        raise TypeError(
            f"a seat's {kind} is a name, 'random' or a list of names, got {choice!r}"
        )
    if not pool:
        raise ValueError(f"a seat's {kind} pool is empty")
    ids = []
    for name in pool:
        i = index.get(name) if isinstance(name, str) else None
        if i is None:
            i = index.get(name.lower()) if isinstance(name, str) else None
        if i is None:
            raise ValueError(
                f"unknown {kind} {name!r}; valid {kind}s: "
                + ", ".join(f"{key} ({display})" for key, display, _ in items)
                + " or 'random'"
            )
        if key_of[i] not in playable:
            raise ValueError(
                f"{kind} {name!r} is not playable yet: its special rules are not "
                f"implemented in the engine; playable: {', '.join(sorted(playable))}"
            )
        ids.append(i)
    return ids


def check_names(kind: str, choice: SeatChoice, data: GameData) -> None:
    """Refuse an unknown or unplayable board name (``kind``: corporation, planet).

    ``choice`` is a name, ``"random"`` or a pool of names, as a seat takes it;
    the error lists the valid names.  For callers that check names before a
    table is built (the study harness).
    """
    boards = data.corporations if kind == "corporation" else data.planets
    playable = (
        data.playable_corporations if kind == "corporation" else data.playable_planets
    )
    _resolve(kind, choice, [(b.key, b.name, b.id) for b in boards], playable)


@dataclass(frozen=True, kw_only=True)
class TableSetup:
    """The table of every game in a run: the one description every entry point takes.

    Parameters
    ----------
    players
        Number of players, 1..6 (default 1: solo).
    corporations, planets
        One entry per seat, or a single entry for every seat.  An entry is a
        key (``"horizon_group"``) or display name (``"Horizon Group"``),
        ``"random"`` or a sequence of them (a pool drawn from uniformly per
        game).  Default: the base game's Universal Coalition on KSB-4156.
    bots
        One bot per seat or one for all: a :class:`BotSpec`, a name
        (``"random"``, ``"greedy"``, a preset such as ``"greedy_tuned"``,
        ``"search"``), or a bot written in Python
        (:class:`pu_sim.bots.python.Bot`: the table then plays on the slow
        path).  Default ``"greedy"``.
    options
        Rule options (:class:`pu_sim.rules.RuleOptions`).
    unique_asymmetric
        Each asymmetric corporation or planet board appears at most once per
        game, as with the physical boards (the symmetric sides are on every
        board and may repeat).
    group_size, paired
        Paired design: consecutive groups of ``group_size`` games share one
        setup (station, civ piles, objectives, event deck) with the boards
        rotated one seat per game.  ``paired=True`` is ``group_size=players``:
        every group plays each rotation once, so seat and board effects cancel
        within it.  A run's game count must be a multiple of the group size.
    variant
        A variant of the game (:class:`pu_sim.rules.Variant`, a variant file's
        path, or paths applied in order); None plays the published game.  Its
        rule options are set over ``options``.
    """

    players: int = 1
    corporations: SeatChoice | Sequence[SeatChoice] = "universal_coalition"
    planets: SeatChoice | Sequence[SeatChoice] = "ksb_4156"
    bots: BotChoice | Sequence[BotChoice] = "greedy"
    options: RuleOptions = field(default_factory=RuleOptions)
    unique_asymmetric: bool = True
    group_size: int | None = None
    paired: bool = False
    variant: Variant | None = None

    def __post_init__(self) -> None:
        if self.options is None:  # the usual "use the defaults" of Python APIs
            object.__setattr__(self, "options", RuleOptions())
        for name in ("paired", "unique_asymmetric"):  # "no" is not False
            object.__setattr__(self, name, check_bool(getattr(self, name), name))
        object.__setattr__(self, "variant", as_variant(self.variant))
        object.__setattr__(self, "bots", _python_bots_built(self.bots))

    @property
    def rule_options(self) -> RuleOptions:
        """The options the games play with: ``options``, then the variant's."""
        if self.variant is None:
            return self.options
        return self.variant.apply_options(self.options)

    @property
    def groups(self) -> int:
        """Games per paired group (1: every game has its own setup)."""
        if self.paired:
            if self.group_size is not None and self.group_size != self.players:
                raise ValueError(
                    f"paired=True sets group_size to the player count "
                    f"({self.players}); got group_size={self.group_size} too"
                )
            return self.players
        if self.group_size is None:
            return 1
        if not is_int(self.group_size) or self.group_size < 1:
            raise ValueError(
                f"group_size must be an integer >= 1, got {self.group_size!r}"
            )
        return int(self.group_size)

    def check_games(self, n_games: int) -> None:
        """Refuse a game count that leaves a paired group incomplete."""
        if n_games % self.groups:
            raise ValueError(
                f"n_games ({n_games}) must be a multiple of group_size "
                f"({self.groups}) so that every paired group is complete"
            )

    def per_seat(self, value: object, what: str) -> list[object]:
        """Broadcast a single entry to every seat, or check one entry per seat."""
        if isinstance(value, (str, BotSpec, Bot)):
            return [value] * self.players
        if not isinstance(value, list | tuple):
            raise TypeError(
                f"{what} must be one entry for all seats or a list with one per "
                f"seat, got {value!r}"
            )
        values: list[object] = list(value)
        if len(values) == 1:
            return values * self.players
        if len(values) != self.players:
            raise ValueError(
                f"{what}: got {len(values)} entries for {self.players} players "
                "(give one per seat, or one for all)"
            )
        return values

    def seat_bots(self) -> list[BotSpec]:
        """The core bot of every seat (a Python bot's seat: its stand-in)."""
        return [
            bots_mod.parse(PYTHON_STAND_IN if isinstance(b, Bot) else b)  # type: ignore[arg-type]
            for b in self.per_seat(self.bots, "bots")
        ]

    def python_seats(self) -> dict[int, Bot]:
        """The seats a bot written in Python plays, by seat."""
        return {
            seat: bot
            for seat, bot in enumerate(self.per_seat(self.bots, "bots"))
            if isinstance(bot, Bot)
        }

    def seat_labels(self) -> list[str]:
        """Every seat's bot label as result frames show it."""
        python = self.python_seats()
        core = [b.label for b in self.seat_bots()]
        labels = [
            bot_label(python[s]) if s in python else core[s] for s in range(len(core))
        ]
        clash = {bot_label(b) for b in python.values()} & {
            core[s] for s in range(len(core)) if s not in python
        }
        if clash:
            raise ValueError(
                "a Python bot is named like a core bot at the table "
                f"({', '.join(sorted(clash))}): give it another name (its `name`)"
            )
        return labels

    def lower(self, data: GameData) -> dict[str, object]:
        """Validate against the game data and build the core's table spec."""
        if not is_int(self.players) or not 1 <= self.players <= 6:
            raise ValueError(f"players must be an integer 1..6, got {self.players!r}")
        if not isinstance(self.options, RuleOptions):
            raise TypeError(
                f"options must be a RuleOptions, got {type(self.options).__name__}"
            )
        groups = self.groups
        options = self.rule_options
        if self.players == 1 and options.private_objectives:
            raise Contradiction(
                "private_objectives=True (the multiplayer private-objective module)",
                "players=1",
                "a solo game always draws 4 objectives and keeps 3",
            )
        corps = [(c.key, c.name, c.id) for c in data.corporations]
        planets = [(p.key, p.name, p.id) for p in data.planets]
        corp_ids = {c.key: c.id for c in data.corporations}
        planet_ids = {p.key: p.id for p in data.planets}
        corp_pools = [
            _resolve("corporation", c, corps, data.playable_corporations)  # type: ignore[arg-type]
            for c in self.per_seat(self.corporations, "corporations")
        ]
        planet_pools = [
            _resolve("planet", p, planets, data.playable_planets)  # type: ignore[arg-type]
            for p in self.per_seat(self.planets, "planets")
        ]
        if self.unique_asymmetric:
            _check_unique(corp_pools, "corporation", 0, corp_ids)
            _check_unique(planet_pools, "planet", 0, planet_ids)
        seat_bots = self.seat_bots()
        seat_labels = self.seat_labels()
        labels = sorted(set(seat_labels))
        deck_mode, deck_mix = (0, (0, 0, 0))
        if options.uses_events(self.players):
            deck_mode, deck_mix = deck_spec(options, data, self.players)
        return {
            "n_players": self.players,
            "corp_pool": [sum(1 << i for i in pool) for pool in corp_pools],
            "planet_pool": [sum(1 << i for i in pool) for pool in planet_pools],
            "unique_asymmetric": int(self.unique_asymmetric),
            "bot_kind": [bots_mod.BOT_KINDS.index(b.kind) for b in seat_bots],
            "bot_label": [labels.index(label) for label in seat_labels],
            "bot_labels": labels,
            "bot_params": np.stack([b.vector() for b in seat_bots]),
            "rollout_params": np.stack([b.rollout_vector() for b in seat_bots]),
            "options": option_flags(options),
            "shift": -1 if options.interior_shift is None else options.interior_shift,
            "rotation": -1
            if options.initial_rotation is None
            else options.initial_rotation,
            "group_size": groups,
            "stack_shape": options.stack_shapes(data),
            "events_on": int(options.uses_events(self.players)),
            "deck_random": deck_mode,
            "deck_mix": deck_mix,
            "neighbour_objectives": int(options.neighbour_objectives),
            "private_module": int(options.private_objectives),
        }


def _python_bots_built(
    bots: BotChoice | Sequence[BotChoice],
) -> BotChoice | Sequence[BotChoice]:
    """Bots with every ``python:module:Class`` name built into its Python bot."""
    if isinstance(bots, str):
        return load_bot(bots) if bots.startswith(PREFIX) else bots
    if isinstance(bots, list | tuple) and any(
        isinstance(b, str) and b.startswith(PREFIX) for b in bots
    ):
        return [load_bot(b) if isinstance(b, str) and b.startswith(PREFIX) else b
                for b in bots]  # fmt: skip
    return bots


def _check_unique(
    pools: list[list[int]], kind: str, symmetric_id: int, names: dict[str, int]
) -> None:
    """Every seat can still get a board when asymmetric boards are unique."""
    key_of = {i: k for k, i in names.items()}
    fixed = [p[0] for p in pools if len(p) == 1 and p[0] != symmetric_id]
    dupes = sorted({key_of[i] for i in fixed if fixed.count(i) > 1})
    if dupes:
        raise ValueError(
            f"impossible setup: asymmetric {kind}(s) {', '.join(dupes)} fixed on "
            "several seats, but each board exists once (pass unique_asymmetric=False "
            "to allow it)"
        )
    union = set().union(*pools)
    if symmetric_id not in union and len(union) < len(pools):
        raise ValueError(
            f"impossible setup: {len(pools)} seats draw from only {len(union)} "
            f"distinct asymmetric {kind}s and each board exists once"
        )
