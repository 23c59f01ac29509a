"""Flag values checked as argparse parses them, so errors name the flag."""

from __future__ import annotations

import argparse
from collections.abc import Callable


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


SEED = int_in(0, None, "must be a non-negative integer")
GAMES = int_in(1, None, "must be a positive integer")
BATCH = int_in(1, 999_999, "must be an integer 1..999999")
PLAYERS = int_in(1, 6, "must be an integer 1..6")
INDEX = int_in(0, 2**62 - 1, "must be an integer 0..4611686018427387903")
