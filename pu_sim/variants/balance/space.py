"""A balance search's declared space: which numbers may move, by how much, toward what.

A search file is TOML::

    [search]
    name = "cosmos-wormhole-4p"
    description = "Smallest change bringing Cosmos and Wormhole to a fair 4p win rate"

    [table]                       # TableSetup's fields: what every candidate plays
    players = 4
    corporations = "random"
    bots = "greedy_tuned"
    paired = true

    [objective]                   # pu_sim.variants.balance.objectives
    kind = "win_gap"
    corporations = ["cosmos_inc", "wormhole_corp"]
    target = 2.0                  # percentage points: good enough

    [budget]                      # successive halving (pu_sim.variants.balance.search)
    candidates = 27               # candidates drawn (all if the grid is smaller)
    first_games = 200             # games per candidate in the first round
    eta = 3                       # keep 1/eta, eta times the games, per round
    confirm_games = 4000          # held-out games of each best patch
    best = 2                      # patches written and confirmed
    seed = 1

    [[change]]
    name = "cosmos_water_top"
    at = "corporation.cosmos_inc.tracks.water.15"    # a variant's address
    template = "medal:{}"         # how a value is written there (default: as is)
    published = 10
    values = [8, 9, 10, 11, 12]

A change's ``published`` value is checked against the data (the variant
writing it must give the published game back), and every value is checked by
the variant loader before anything plays.  A candidate is one value per
change; its *size* is the sum of ``|value - published|`` over the changes, so
among candidates that meet the objective's target the smallest change wins.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pu_sim.rules import DataError, Variant, load_game_data
from pu_sim.rules.loading.checks import describe

__all__ = ["Candidate", "Change", "SearchSpace", "read_space", "variant_text"]

_BUDGET = {"candidates": 27, "first_games": 200, "eta": 3, "confirm_games": 4000,
           "best": 2, "seed": 1}  # fmt: skip


@dataclass(frozen=True)
class Change:
    """One number that may move: where it is written and the values it may take."""

    name: str
    at: str
    published: int | float
    values: tuple[int | float, ...]
    template: str = "{}"

    def written(self, value: int | float) -> object:
        """The value as the data file writes it (through the template)."""
        if self.template == "{}":
            return value
        return self.template.format(value)


@dataclass(frozen=True)
class Candidate:
    """One point of the space: a value per change, and its variant."""

    values: tuple[tuple[str, int | float], ...]
    size: float
    variant: Variant | None
    """None for the published game (every value at its published one)."""

    @property
    def key(self) -> str:
        """A stable folder-safe name: ``published`` or the values joined."""
        if self.variant is None:
            return "published"
        return "_".join(f"{n}-{v:g}" for n, v in self.values)

    def describe(self) -> str:
        """The values in words (``cosmos_water_top=12, ...``)."""
        return ", ".join(f"{n}={v:g}" for n, v in self.values)


@dataclass(frozen=True)
class SearchSpace:
    """A parsed search file (module docstring)."""

    source: str
    name: str
    description: str
    table: Mapping[str, Any]
    objective: Mapping[str, Any]
    budget: Mapping[str, int]
    changes: tuple[Change, ...]
    text: str = field(repr=False, default="")

    def candidate(self, values: Sequence[int | float]) -> Candidate:
        """The candidate giving each change the value at the same position."""
        pairs = tuple((c.name, v) for c, v in zip(self.changes, values, strict=True))
        size = float(
            sum(abs(v - c.published) for c, v in zip(self.changes, values, strict=True))
        )
        if size == 0:
            return Candidate(pairs, 0.0, None)
        text = variant_text(
            f"{self.name}:" + ",".join(f"{n}={v:g}" for n, v in pairs),
            f"{self.name}: " + ", ".join(f"{n} = {v:g}" for n, v in pairs),
            {c.at: c.written(v) for c, v in zip(self.changes, values, strict=True)
             if v != c.published},
        )  # fmt: skip
        return Candidate(pairs, size, Variant.from_text(text, f"{self.source}"))

    def candidates(self) -> list[Candidate]:
        """The candidates of the search: the published game first, then a sample.

        Every combination when there are at most ``budget.candidates`` of them;
        otherwise a seeded sample of that many (without the published one).
        """
        grid = list(itertools.product(*(c.values for c in self.changes)))
        published = tuple(c.published for c in self.changes)
        others = [g for g in grid if g != published]
        limit = self.budget["candidates"]
        if len(others) > limit:
            rng = np.random.default_rng(self.budget["seed"])
            picked = rng.choice(len(others), size=limit, replace=False)
            others = [others[i] for i in sorted(picked)]
        return [self.candidate(published), *(self.candidate(g) for g in others)]


def variant_text(name: str, description: str, changes: Mapping[str, object]) -> str:
    """A variant file setting each address (``corporation.x.tracks.water.15``)."""
    tables: dict[str, dict[str, object]] = {}
    for address, value in changes.items():
        parts = address.split(".")
        if len(parts) < 2:
            raise ValueError(f"address {address!r} needs a section and a key")
        tables.setdefault(".".join(parts[:-1]), {})[parts[-1]] = value
    lines = ["[variant]", f"name = {json.dumps(name)}",
             f"description = {json.dumps(description)}"]  # fmt: skip
    for table, keys in tables.items():
        # a list index is written as a table key: { 15 = "medal:12" }
        lines += ["", f"[{'.'.join(map(_toml_key, table.split('.')))}]"]
        lines += [f"{_toml_key(key)} = {_toml_value(value)}"
                  for key, value in keys.items()]  # fmt: skip
    return "\n".join(lines) + "\n"


def _toml_key(part: str) -> str:
    """One part of an address as a TOML key: bare when it can be, else quoted."""
    return part if re.fullmatch(r"[A-Za-z0-9_-]+", part) else json.dumps(part)


def _toml_value(value: object) -> str:
    """A scalar or list as TOML (JSON's strings, numbers and arrays are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in a variant")


def read_space(path: str | os.PathLike[str]) -> SearchSpace:
    """Read and check a search file; errors name the file and the entry."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise DataError(f"{p}: search file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{p.name}: invalid TOML: {exc}") from None
    return parse_space(data, p.name, text)


def parse_space(data: Mapping[str, Any], source: str, text: str = "") -> SearchSpace:
    """A search space from parsed TOML (``source`` names it in errors)."""
    known = {"search", "table", "objective", "budget", "change"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise DataError(
            f"{source}: unknown section(s) {unknown}; valid: {', '.join(sorted(known))}"
        )
    meta = _table(source, "search", data.get("search", {}))
    budget = dict(_BUDGET)
    for key, value in _table(source, "budget", data.get("budget", {})).items():
        if key not in _BUDGET:
            raise DataError(
                f"{source}: [budget]: unknown key {key!r}; valid keys: "
                + ", ".join(_BUDGET)
            )
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise DataError(
                f"{source}: [budget.{key}]: expected a positive integer, got "
                f"{describe(value)}"
            )
        budget[key] = value
    if budget["eta"] < 2:
        raise DataError(f"{source}: [budget.eta]: must be at least 2")
    raw_changes = data.get("change", [])
    if not isinstance(raw_changes, list) or not raw_changes:
        raise DataError(f"{source}: declare at least one [[change]]")
    changes = tuple(_change(source, i, c) for i, c in enumerate(raw_changes))
    names = [c.name for c in changes]
    if len(set(names)) != len(names):
        raise DataError(f"{source}: [[change]] names must be unique: {names}")
    _check_addresses(source, changes)
    space = SearchSpace(
        source=source, name=str(meta.get("name", Path(source).stem)),
        description=str(meta.get("description", "")),
        table=_table(source, "table", data.get("table", {})),
        objective=_table(source, "objective", data.get("objective", {})),
        budget=budget, changes=changes, text=text,
    )  # fmt: skip
    _check_published(space)
    return space


def _table(source: str, name: str, value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise DataError(f"{source}: [{name}]: expected a table, got {describe(value)}")
    return value


def _change(source: str, i: int, raw: object) -> Change:
    """One [[change]] entry, checked (its values by the variant loader)."""
    entry = _table(source, f"change {i}", raw)
    where = f"{source}: [[change]] {entry.get('name', i)!r}"
    valid = {"name", "at", "published", "values", "template"}
    for key in entry:
        if key not in valid:
            raise DataError(
                f"{where}: unknown key {key!r}; valid keys: {', '.join(sorted(valid))}"
            )
    for key in ("name", "at", "published", "values"):
        if key not in entry:
            raise DataError(f"{where}: missing key {key!r}")
    values = entry["values"]
    if (
        not isinstance(values, list)
        or not values
        or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in values
        )
    ):
        raise DataError(f"{where}: values must be a non-empty list of numbers")
    template = entry.get("template", "{}")
    if not isinstance(template, str) or template.count("{}") != 1:
        raise DataError(f"{where}: template must be a string holding one {{}}")
    change = Change(
        name=str(entry["name"]), at=str(entry["at"]), published=entry["published"],
        values=tuple(values), template=template,
    )  # fmt: skip
    if change.published not in change.values:
        raise DataError(f"{where}: the published value must be one of the values")
    for value in change.values:
        text = variant_text("check", "", {change.at: change.written(value)})
        Variant.from_text(text, f"{source} change {change.name}={value:g}")
    return change


def _check_addresses(source: str, changes: Sequence[Change]) -> None:
    """One change per address: two at one (or one inside another) are refused.

    A candidate's variant sets each address once, so of two changes at one
    address only the last would play, under both changes' names.
    """
    for i, a in enumerate(changes):
        for b in changes[i + 1 :]:
            if (
                a.at == b.at
                or b.at.startswith(a.at + ".")
                or a.at.startswith(b.at + ".")
            ):
                where = a.at if a.at == b.at else f"{a.at} and {b.at}"
                raise DataError(
                    f"{source}: [[change]] {a.name!r} and {b.name!r} both set "
                    f"{where}: a candidate would play only one of them under both "
                    "names; give each address one change"
                )


def _check_published(space: SearchSpace) -> None:
    """Every change's ``published`` value is what the published data holds."""
    published = load_game_data()
    for change in space.changes:
        text = variant_text("check", "", {change.at: change.written(change.published)})
        data = Variant.from_text(text, space.source).game_data()
        if data != published:
            raise DataError(
                f"{space.source}: [[change]] {change.name!r}: published = "
                f"{change.published!r} is not what the data holds at {change.at}"
            )
