"""The flags every command and study shares, each defined once.

``pu-sim`` (:mod:`pu_sim.cli`), the main study, the designer studies under
``experiments/`` and the bot lab's scripts build their parsers from these:
one ``--seed`` (its default :data:`~pu_sim.simulation.seeds.DEFAULT_SEED`,
shown in ``--help``), one ``--jobs``, one ``--variant``, one ``--bot`` and
``--second``; values are checked as they are parsed, so a bad value gets one
line naming the flag (``argument --seed: must be a non-negative integer``).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from pu_sim.simulation.seeds import DEFAULT_SEED


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors and negative values accepted after flags.

    argparse takes ``--deck -1,11,10`` for a flag without its value; treating
    every ``-<digit>...`` token as a value lets the value's own check name
    what is wrong with it.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._negative_number_matcher = re.compile(r"^-\d[\d,.]*$")

    def error(self, message: str) -> NoReturn:
        """One line: what was wrong, and where to look."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")

    def parse_known_args(  # type: ignore[override]
        self, args: Any = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """Parse, remembering which flags were given (:func:`given`).

        A flag given twice with different values (``--events --no-events``,
        ``--players 2 --players 3``) is a contradiction: refused, naming both,
        instead of the last one winning silently.  Repeatable flags
        (``action="append"``) are not affected.
        """
        for action in self._actions:
            _remembered(action)
        return super().parse_known_args(args, namespace)


GIVEN = "_flags_given"
"""The namespace attribute holding the flags given, by destination."""

_REMEMBERING: dict[type, type] = {}


def _remembered(action: argparse.Action) -> None:
    """Make ``action`` record its flag in the namespace when it is given."""
    kind = type(action)
    if kind in _REMEMBERING.values() or isinstance(
        action, argparse._SubParsersAction | argparse._HelpAction
    ):
        return
    if kind not in _REMEMBERING:
        _REMEMBERING[kind] = type(f"Remembered{kind.__name__}", (kind,), {
            "__call__": _remember_call,
        })  # fmt: skip
    action.__class__ = _REMEMBERING[kind]


def _remember_call(
    self: argparse.Action,
    parser: argparse.ArgumentParser,
    namespace: argparse.Namespace,
    values: Any,
    option_string: str | None = None,
) -> None:
    """Record the flag; refuse a second one setting the same value differently."""
    seen: dict[str, list[tuple[str, Any]]] = namespace.__dict__.setdefault(GIVEN, {})
    here = (option_string or self.dest, values)
    earlier = seen.setdefault(self.dest, [])
    repeatable = isinstance(self, argparse._AppendAction | argparse._CountAction)
    if earlier and not repeatable and earlier[0] != here:
        joiner = " " if self.nargs not in (None, "?") else ","
        parser.error(
            f"{_shown(*earlier[0], joiner)} contradicts {_shown(*here, joiner)} "
            "(give one of them)"
        )
    earlier.append(here)
    original: Any = super(type(self), self)  # the action's own class
    original.__call__(parser, namespace, values, option_string)


def _shown(flag: str, values: Any, joiner: str) -> str:
    """A flag as it was written (its value, if it takes one)."""
    if values is None or values == []:
        return flag
    if isinstance(values, list | tuple):
        return f"{flag} {joiner.join(map(str, values))}"
    return f"{flag} {values}"


def given(args: argparse.Namespace) -> dict[str, list[str]]:
    """The flags given on the command line, by destination (``{"players": [...]}``)."""
    seen = getattr(args, GIVEN, {})
    return {dest: [flag for flag, _ in entries] for dest, entries in seen.items()}


def int_in(lo: int, hi: int | None, what: str) -> Callable[[str], int]:
    """An argparse type: an integer in [lo, hi], the message saying which."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what}, got {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"{what}, got {text!r}")
        return value

    return parse


def jobs(text: str) -> int:
    """--jobs: a non-zero integer (-1: all cores)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value == 0:
        raise argparse.ArgumentTypeError(
            f"must be a non-zero integer (-1: all cores), got {text!r}"
        )
    return value


def finite(text: str) -> float:
    """A number (not nan or inf: a study's share or weight must be a number)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


SEED = int_in(0, None, "must be a non-negative integer")
GAMES = int_in(1, None, "must be a positive integer")
BATCH = int_in(1, 999_999, "must be an integer 1..999999")
PLAYERS = int_in(1, 6, "must be an integer 1..6")
INDEX = int_in(0, 2**62 - 1, "must be an integer 0..4611686018427387903")


def bot(text: str) -> str:
    """--bot / --second: a bot name or spec string, checked by :func:`bots.parse`."""
    from pu_sim.bots import parse

    try:
        parse(text)
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_seed(parser: Any, default: int = DEFAULT_SEED) -> None:
    """``--seed``: the root seed, its default shown."""
    parser.add_argument(
        "--seed", type=SEED, default=default, help=f"root seed ({default})"
    )


def add_jobs(parser: Any) -> None:
    """``--jobs``: parallel workers."""
    parser.add_argument(
        "--jobs", type=jobs, default=-1, help="parallel workers (-1 = all cores)"
    )


def add_variant(parser: Any) -> None:
    """``--variant FILE``, repeatable (every command that plays games)."""
    parser.add_argument(
        "--variant", type=Path, action="append", default=[], metavar="FILE",
        help="play a variant of the game: a TOML file of changes to the published "
        "data (repeatable, applied in order; docs/variants.md)",
    )  # fmt: skip


def add_policies(parser: Any, bot_default: str, second_default: str) -> None:
    """``--bot`` (every seat's bot) and ``--second`` (the policy that checks it)."""
    parser.add_argument(
        "--bot", type=bot, default=None,
        help=f"the bot at every seat ({bot_default}); a name or spec string, e.g. "
        "greedy, 'search:budget=8' (`pu-sim list bots`)",
    )  # fmt: skip
    parser.add_argument(
        "--second", type=bot, default=None,
        help=f"the second policy, of another style, that checks the findings "
        f"({second_default}; the other of the two when --bot names it)",
    )  # fmt: skip
