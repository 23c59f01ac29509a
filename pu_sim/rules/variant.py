"""A variant of the game: a small TOML file of changes to the published data.

A designer's "what if this track scored more?" is a variant file::

    [variant]
    name = "cosmos-water-12"
    description = "Cosmos Inc.: the water track's top space scores 12, not 10"

    [corporation.cosmos_inc.tracks]
    water = { 15 = "medal:12" }

    [options]                       # rule options, as --option sets them
    civ_pick_timing = "on_milestone"

The changes are addressed by the names the data files use
(:mod:`pu_sim.rules.loading.overrides` says how), merged into a copy of the
published data and read by the same loader (every check of the packaged files
holds), then compiled into a new rules object
(:func:`pu_sim.engine.load_rules` with ``variant=``).  A variant is identified
by the digest of its text, not its file name: a run folder keeps the full text
and the digest, so a run replays and resumes only with the very same variant,
under any file name.  An empty variant file (or one with neither a change
nor a ``[variant]`` table naming it) is refused: it would play the published
game without a word.

Several files make one variant, applied in order (a later file's change wins).
"""

from __future__ import annotations

import functools
import hashlib
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from pu_sim.rules.gamedata import DataError, GameData
from pu_sim.rules.loading.checks import describe
from pu_sim.rules.loading.load import assemble, read_raw
from pu_sim.rules.loading.overrides import apply_overrides
from pu_sim.rules.options import OptionValue, RuleOptions

__all__ = ["Variant", "VariantChoice", "VariantFile", "as_variant", "identity"]

META: Final = "variant"
"""The table of a variant's name and description."""

OPTIONS: Final = "options"
"""The table of a variant's rule options."""


@dataclass(frozen=True)
class VariantFile:
    """One variant file as read: its name (for errors and reports) and full text.

    Two files are equal when their texts are: the name only labels the file.
    """

    name: str = field(compare=False)
    text: str

    @property
    def digest(self) -> str:
        """SHA-256 of the text: the file's identity in manifests."""
        return hashlib.sha256(self.text.encode()).hexdigest()

    def parse(self) -> dict[str, Any]:
        """The file's TOML; a syntax error names the file."""
        try:
            return tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise DataError(f"{self.name}: invalid TOML: {exc}") from None


@dataclass(frozen=True)
class Variant:
    """Changes to the published game: one or more variant files, in order.

    Build one with :meth:`read` (files), :meth:`from_text` or :func:`as_variant`
    (anything a ``variant=`` argument accepts).  Reading checks everything:
    a bad variant raises :class:`~pu_sim.rules.gamedata.DataError` with one
    line naming the file, the entry and the key, before anything plays.
    Two variants are equal when their texts are.
    """

    files: tuple[VariantFile, ...]
    name: str = field(compare=False)
    description: str = field(compare=False, default="")
    options: Mapping[str, OptionValue] = field(compare=False, default_factory=dict)

    @classmethod
    def read(cls, *paths: str | os.PathLike[str]) -> Variant:
        """The variant of one or more files (applied in order)."""
        files = []
        for path in paths:
            p = Path(path)
            try:
                text = p.read_text(encoding="utf-8")
            except FileNotFoundError:
                raise DataError(f"{p}: variant file not found") from None
            except (OSError, UnicodeDecodeError) as exc:
                raise DataError(f"{p}: cannot read the variant file: {exc}") from None
            files.append(VariantFile(p.name, text))
        return cls.of_files(files)

    @classmethod
    def from_text(cls, text: str, name: str = "variant.toml") -> Variant:
        """The variant of one file's text (``name`` labels it in errors)."""
        return cls.of_files([VariantFile(name, text)])

    @classmethod
    def of_files(cls, files: Sequence[VariantFile]) -> Variant:
        """The variant of these files, checked (see the class docstring)."""
        if not files:
            raise ValueError("a variant needs at least one file")
        names, descriptions = [], []
        options: dict[str, OptionValue] = {}
        for file in files:
            data = file.parse()
            meta = _meta(file, data.get(META, {}))
            names.append(meta.get("name") or Path(file.name).stem)
            if meta.get("description"):
                descriptions.append(meta["description"])
            options.update(_options(file, data.get(OPTIONS, {})))
            _check_changes_something(file, data)
        variant = cls(
            files=tuple(files), name="+".join(names),
            description=" ".join(descriptions), options=options,
        )  # fmt: skip
        variant.game_data()  # every check now: nothing half-runs
        return variant

    @property
    def digest(self) -> str:
        """SHA-256 over the files' texts, in order: the variant's identity.

        The file names are not part of it: a renamed file is the same variant
        (its runs resume), an edited one is not.
        """
        h = hashlib.sha256()
        for file in self.files:
            h.update(file.digest.encode() + b"\0")
        return h.hexdigest()

    def named_digest(self) -> str:
        """The digest older run folders recorded (over the names and the texts)."""
        h = hashlib.sha256()
        for file in self.files:
            h.update(file.name.encode() + b"\0" + file.text.encode() + b"\0")
        return h.hexdigest()

    @property
    def short_digest(self) -> str:
        """The digest's first 12 hex digits (labels, messages)."""
        return self.digest[:12]

    def __hash__(self) -> int:
        return hash(self.digest)

    def overrides(self) -> list[tuple[str, dict[str, Any]]]:
        """Each file's data changes (name, tables), without meta and options."""
        out = []
        for file in self.files:
            data = file.parse()
            out.append(
                (file.name, {k: v for k, v in data.items() if k not in (META, OPTIONS)})
            )
        return out

    def game_data(self) -> GameData:
        """The published data with this variant's changes, validated (cached)."""
        return _game_data(self)

    def apply_options(self, options: RuleOptions) -> RuleOptions:
        """``options`` with this variant's rule options set over them."""
        changes: dict[str, Any] = dict(self.options)
        return replace(options, **changes) if changes else options

    def manifest(self) -> dict[str, Any]:
        """What a run folder records: the name, digest and every file's full text."""
        return {
            "name": self.name,
            "digest": self.digest,
            "files": [
                {"name": f.name, "digest": f.digest, "text": f.text} for f in self.files
            ],
        }

    @classmethod
    def from_manifest(cls, record: Mapping[str, Any]) -> Variant:
        """The variant a run folder recorded (:meth:`manifest`), checked again."""
        files = [VariantFile(f["name"], f["text"]) for f in record["files"]]
        variant = cls.of_files(files)
        if record.get("digest") not in (variant.digest, variant.named_digest()):
            raise DataError(
                f"variant {record.get('name')!r}: its recorded text does not match "
                "its recorded digest (the manifest was edited)"
            )
        return variant

    def __str__(self) -> str:
        return f"{self.name} ({self.short_digest})"


VariantChoice = Variant | str | os.PathLike[str] | Sequence[str | os.PathLike[str]]
"""What a ``variant=`` argument takes: a Variant, a file path, or paths in order."""


def as_variant(choice: VariantChoice | None) -> Variant | None:
    """The variant a ``variant=`` argument names (None: the published game)."""
    if choice is None or isinstance(choice, Variant):
        return choice
    if isinstance(choice, str | os.PathLike):
        return Variant.read(choice)
    if isinstance(choice, list | tuple) and all(
        isinstance(c, str | os.PathLike) for c in choice
    ):
        return Variant.read(*choice) if choice else None
    raise TypeError(
        f"variant must be a Variant, a file path or a list of paths, got {choice!r}"
    )


def _check_changes_something(file: VariantFile, data: Mapping[str, Any]) -> None:
    """Refuse a file that would play the published game without a word.

    A file changes data or options, or is an identity variant on purpose: a
    ``[variant]`` table naming it and nothing else (an A/A check, which
    ``compare`` reports as no change).  An empty file, or one with neither
    changes nor a named ``[variant]`` table, is refused.
    """
    options = data.get(OPTIONS)
    meta = data.get(META)
    if any(k not in (META, OPTIONS) for k in data) or options:
        return
    if isinstance(meta, dict) and meta.get("name"):
        return  # an identity variant, named: the published game on purpose
    if not data:
        what = "is empty"
    elif META not in data:
        what = f"changes nothing and has no [{META}] table (is it a variant file?)"
    else:
        what = f"changes nothing and its [{META}] table names nothing"
    raise DataError(
        f"{file.name}: the variant {what}: it would play the published game; give "
        "it a change (docs/variants.md), or leave the variant out to play the "
        "published game"
    )


def identity(record: Mapping[str, Any] | None) -> str | None:
    """The content digest of a variant a run folder recorded (None: published).

    Older run folders recorded a digest over the file names too; this one is
    recomputed from the recorded texts, so a renamed file is the same variant.
    """
    if record is None:
        return None
    h = hashlib.sha256()
    for f in record.get("files") or ():
        h.update(hashlib.sha256(str(f.get("text")).encode()).hexdigest().encode())
        h.update(b"\0")
    return h.hexdigest()


def _meta(file: VariantFile, meta: object) -> dict[str, str]:
    """The ``[variant]`` table: an optional name and description."""
    if not isinstance(meta, dict):
        raise DataError(
            f"{file.name}: [{META}]: expected a table, got {describe(meta)}"
        )
    for key, value in meta.items():
        if key not in ("name", "description"):
            raise DataError(
                f"{file.name}: [{META}]: unknown key {key!r}; valid keys: "
                "description, name"
            )
        if not isinstance(value, str):
            raise DataError(
                f"{file.name}: [{META}.{key}]: expected a string, got {describe(value)}"
            )
    return meta


def _options(file: VariantFile, table: object) -> dict[str, OptionValue]:
    """The ``[options]`` table: rule options by name, checked like --option."""
    if not isinstance(table, dict):
        raise DataError(
            f"{file.name}: [{OPTIONS}]: expected a table, got {describe(table)}"
        )
    choices = RuleOptions.choices()
    out: dict[str, OptionValue] = {}
    for name, value in table.items():
        if name not in choices:
            raise DataError(
                f"{file.name}: [{OPTIONS}]: unknown rule option {name!r}; valid: "
                + ", ".join(choices)
            )
        value = tuple(value) if isinstance(value, list) else value
        try:
            change: dict[str, Any] = {name: value}
            replace(RuleOptions(), **change)
        except (TypeError, ValueError) as exc:
            raise DataError(f"{file.name}: [{OPTIONS}.{name}]: {exc}") from None
        out[name] = value
    return out


@functools.lru_cache(maxsize=32)
def _game_data(variant: Variant) -> GameData:
    """The variant's data, merged and read (once per variant and process)."""
    raw = read_raw()
    for name, changes in variant.overrides():
        raw = apply_overrides(raw, changes, name)
    try:
        return assemble(raw)
    except DataError as exc:
        files = " + ".join(f.name for f in variant.files)
        raise DataError(f"{files}: {exc}") from None
