"""The table on the command line: players, boards, bots and rule options.

``pu-sim simulate`` and ``pu-sim play`` share these flags, and turn them into
the same :class:`pu_sim.TableSetup` the Python API takes, with its defaults.

Seats and pools: a comma separates seats, ``+`` joins the boards of one seat's
pool (drawn from per game), and one entry serves every seat::

    --corporations cosmos_inc,random          two seats: Cosmos, any
    --corporations "cosmos_inc+wormhole_corp" every seat draws one of the two
    --planets "K-273,Gaia"                    display names work as keys do

Bots take settings after a colon: ``--bots search:budget=64:width=2``.
Rule options: ``--rules bga`` picks a profile, ``--option NAME=VALUE``
(repeatable) sets any option of :class:`pu_sim.RuleOptions` over it.
A variant of the game: ``--variant FILE`` (repeatable, applied in order; see
:mod:`pu_sim.rules.variant`).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from typing import Any

from pu_sim.simulation.table import TableSetup
from pu_sim.studies.flags import PLAYERS, add_variant, int_in

MULTIPLAYER_MODULES = {"private_objectives": True, "neighbour_objectives": True}
"""Options that switch on a multiplayer module: asked for in a solo game, refused."""

SEATS_HELP = (
    "comma separates seats, + joins a seat's pool, one entry serves every seat; "
    "keys or display names"
)


def seats(value: str) -> list[str | list[str]] | str:
    """A seat list: ``a,b`` per seat, ``a+b`` a pool, one entry for all."""
    entries = [v.strip() for v in value.split(",")]
    if any(not e for e in entries):
        raise argparse.ArgumentTypeError(f"empty seat in {value!r}")
    out: list[str | list[str]] = []
    for entry in entries:
        pool = [v.strip() for v in entry.replace("|", "+").split("+")]
        if any(not p for p in pool):
            raise argparse.ArgumentTypeError(f"empty pool member in {value!r}")
        out.append(pool[0] if len(pool) == 1 else pool)
    if len(out) == 1 and isinstance(out[0], str):
        return out[0]
    return out


def bot_list(value: str) -> list[str] | str:
    """Bots per seat, comma-separated; settings after colons (search:budget=64)."""
    entries = [v.strip() for v in value.split(",")]
    if any(not e for e in entries):
        raise argparse.ArgumentTypeError(f"empty bot in {value!r}")
    return entries[0] if len(entries) == 1 else entries


def deck(value: str) -> tuple[int, int, int] | str:
    """``--deck``: G,O,R counts, random or bga_random."""
    if value in ("random", "bga_random"):
        return value
    try:
        counts = tuple(int(v) for v in value.split(","))
    except ValueError:
        counts = ()
    if len(counts) != 3:
        raise argparse.ArgumentTypeError(
            f"--deck takes G,O,R (three counts), random or bga_random, not {value!r}"
        )
    if min(counts) < 0:
        raise argparse.ArgumentTypeError(
            f"--deck counts must be non-negative, got {value!r}"
        )
    return counts[0], counts[1], counts[2]


def option_setting(value: str) -> tuple[str, object]:
    """``--option NAME=VALUE``: a rule option and its value, checked by name."""
    from pu_sim.rules import RuleOptions

    name, sep, text = value.partition("=")
    name = name.strip().replace("-", "_")
    choices = RuleOptions.choices()
    if not sep:
        raise argparse.ArgumentTypeError(f"--option takes NAME=VALUE, got {value!r}")
    if name not in choices:
        raise argparse.ArgumentTypeError(
            f"unknown rule option {name!r} in {value!r}; valid: {', '.join(choices)} "
            "(`pu-sim list options` shows their values)"
        )
    try:
        return name, RuleOptions.parse(name, text.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--option {exc}") from None


def add_table_arguments(parser: argparse.ArgumentParser, *, play: bool) -> None:
    """Players, boards, bots, pairing and rule options (simulate and play)."""
    from pu_sim.bots import BOT_NAMES

    table = TableSetup()  # the defaults: TableSetup's own, never restated
    parser.add_argument(
        "--players", type=PLAYERS, default=table.players,
        help=f"players, 1-6 ({table.players})",
    )  # fmt: skip
    parser.add_argument(
        "--corporations", type=seats, default=table.corporations,
        help=f"corporation per seat: {SEATS_HELP}, or 'random' "
        f"(default {table.corporations}; `pu-sim list corporations`)",
    )  # fmt: skip
    parser.add_argument(
        "--planets", type=seats, default=table.planets,
        help=f"planet per seat: {SEATS_HELP}, or 'random' "
        f"(default {table.planets}; `pu-sim list planets`)",
    )  # fmt: skip
    parser.add_argument(
        "--bots", type=bot_list, default=table.bots,
        help=f"bot per seat, comma-separated, or one for all: {', '.join(BOT_NAMES)}"
        "; settings after colons, e.g. search:budget=64:width=2; a bot written "
        "in Python as python:module:Class "
        f"(default {table.bots}; `pu-sim list bots`)",
    )  # fmt: skip
    parser.add_argument(
        "--paired", action="store_true",
        help="paired design: groups of PLAYERS games share one setup, the boards "
        "rotated one seat per game"
        + ("" if play else " (--games must be a multiple of --players)"),
    )  # fmt: skip
    parser.add_argument(
        "--group-size", type=int_in(1, None, "must be a positive integer"),
        default=None, metavar="K",
        help="paired groups of K games sharing one setup (default 1; --paired: "
        "the player count)",
    )  # fmt: skip
    rules = parser.add_argument_group("rules")
    rules.add_argument(
        "--rules", choices=("default", "bga"), default="default",
        help="rule profile: the reference's recommendations (default) or Board "
        "Game Arena's choices (RuleOptions.bga()); the options below override it",
    )  # fmt: skip
    rules.add_argument(
        "--option", type=option_setting, action="append", default=[],
        metavar="NAME=VALUE",
        help="set any rule option (repeatable), e.g. --option "
        "civ_pick_timing=on_milestone (`pu-sim list options`)",
    )  # fmt: skip
    add_variant(rules)
    rules.add_argument(
        "--events", action=argparse.BooleanOptionalAction, default=None,
        help="use the event deck (default: the rulebook's, on in solo only)",
    )  # fmt: skip
    rules.add_argument(
        "--deck", type=deck, default=None, metavar="G,O,R|random|bga_random",
        help="event deck colours: green,orange,red counts summing to 20, "
        "'random' or 'bga_random' (implies --events; default 7,7,6)",
    )  # fmt: skip
    rules.add_argument(
        "--private-objectives", action="store_true",
        help="multiplayer private-objective module (deal 2, keep 1)",
    )  # fmt: skip


def variant_from(args: argparse.Namespace) -> Any:
    """The variant of the --variant files (None: the published game), checked."""
    from pu_sim.rules import Variant

    files = getattr(args, "variant", [])
    return Variant.read(*files) if files else None


def option_variant(name: str, value: object) -> Any:
    """A variant setting one rule option (``--option-variant NAME=VALUE``)."""
    from pu_sim.rules import Variant

    if value is None:
        raise ValueError(
            f"--option-variant {name}=none: a variant cannot unset an option "
            "(compare against the default by leaving it out of the baseline)"
        )
    text = json.dumps(list(value) if isinstance(value, tuple) else value)
    return Variant.from_text(
        f'[variant]\nname = "{name}={_plain(value)}"\n[options]\n{name} = {text}\n',
        f"option-{name}.toml",
    )


def _plain(value: object) -> str:
    """An option value as the command line writes it."""
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_sources(
    args: argparse.Namespace, variant: Any = None
) -> list[tuple[str, str, object]]:
    """Every rule option the flags set: (the flag as written, option, value).

    ``--events``, ``--deck``, ``--private-objectives``, each ``--option`` and
    the ``--variant`` files' ``[options]``, in that order; ``--rules`` is the
    profile they all override, not one of them.
    """
    out: list[tuple[str, str, object]] = []
    if args.events is not None:
        out.append(("--events" if args.events else "--no-events", "event_deck",
                    args.events))  # fmt: skip
    if args.deck is not None:
        written = (
            ",".join(map(str, args.deck)) if isinstance(args.deck, tuple) else args.deck
        )
        out.append((f"--deck {written}", "event_deck", True))
        out.append((f"--deck {written}", "event_deck_mix", args.deck))
    if args.private_objectives:
        out.append(("--private-objectives", "private_objectives", True))
    for name, value in args.option:
        out.append((f"--option {name}={_plain(value)}", name, value))
    if variant is not None:
        files = " ".join(f"--variant {f.name}" for f in variant.files)
        out += [(files, name, value) for name, value in variant.options.items()]
    return out


def options_from(args: argparse.Namespace, variant: Any = None) -> Any:
    """Rule options from --rules, the shortcuts and every --option.

    Two flags (or a flag and a ``--variant`` file) setting one option to
    different values contradict each other: refused, naming both.
    """
    from pu_sim.rules import RuleOptions
    from pu_sim.rules.validation import first_conflict

    sources = option_sources(args, variant)
    conflict = first_conflict(sources)
    if conflict is not None:
        raise conflict
    options = RuleOptions.bga() if args.rules == "bga" else RuleOptions()
    changes: dict[str, Any] = {name: value for source, name, value in sources
               if not source.startswith("--variant")}  # fmt: skip
    return replace(options, **changes)


def table_from(args: argparse.Namespace) -> TableSetup:
    """The TableSetup the flags describe (TableSetup's defaults where unset)."""
    from pu_sim.rules.validation import Contradiction
    from pu_sim.studies.flags import given

    variant = variant_from(args)
    if args.players == 1:
        players = "--players 1" + ("" if "players" in given(args) else " (the default)")
        for source, name, value in option_sources(args, variant):
            if name in MULTIPLAYER_MODULES and MULTIPLAYER_MODULES[name] == value:
                raise Contradiction(
                    source, players, f"{name} is a multiplayer module, and a solo "
                    "game plays its own objectives (draw 4, keep 3)",
                )  # fmt: skip
    return TableSetup(
        players=args.players, corporations=args.corporations, planets=args.planets,
        bots=args.bots, options=options_from(args, variant),
        group_size=args.group_size, paired=args.paired, variant=variant,
    )  # fmt: skip
