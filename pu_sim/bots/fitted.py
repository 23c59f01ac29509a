"""The greedy bot's fitted tables: run-time data files, read and written here only.

Seven tables of measured or rollout-fitted numbers steer the greedy bot (the
track values, the placement values, the line and objective chances, the
objectives' base rates, the learned planet and rotation values); an eighth
is the policy bot's value network, learned by self-play.  Each is a
file pair in ``pu_sim/data/fitted/``:
``<name>.npz`` holds the arrays, ``<name>.toml`` says how they were made (the
command, the seed, the engine version, the date) and what every axis means.
The engine loads them into the compiled core at run time
(:func:`pu_sim.engine.load_rules`), so a refit writes files and needs no build.

Why one module: the layout of each table (its arrays, their axes and the core
constants that size them) is declared once, in :data:`TABLES`; loading checks
every file against it (one error naming the file, the array and the expected
and found shapes), writing checks the arrays before any file is touched.  The sizes the
core indexes by (its ``CONSTANTS``) come from the caller: this module is
pure data and never imports the core; the engine passes them whenever it
loads the tables to play (:mod:`pu_sim.engine.rules`, which also lowers them
to the core's layout), and the lab when it writes one.

The track table is keyed by corporation key (its ``corporations`` array), not
by the corporation count compiled into the core: a corporation without an
entry gets zeros, so its bot plays greedy's own values, and a new corporation
needs no refit before it can play.

Examples
--------
>>> from pu_sim.bots import fitted
>>> sorted(fitted.TABLES)[:3]
['line_chance', 'ntuple', 'objective_chance']
>>> len(fitted.TABLES)
8

Why long: most of it is the declared layout of the eight tables (:data:`TABLES`,
their arrays, axes and meanings), the one place every file is checked against.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

FITTED_DIR = Path(__file__).resolve().parents[1] / "data" / "fitted"
"""The packaged tables."""

KEYS = "corporations"
"""The array naming the rows of a keyed table (its first axis)."""

Floats = npt.NDArray[np.float64]


class FittedTableError(ValueError):
    """A fitted table file is missing, unreadable or not of its table's layout."""


@dataclass(frozen=True)
class Axis:
    """One axis of a table's array: its name and size.

    ``size`` is a number or the name of one of the core's ``CONSTANTS`` (plus
    ``extra``): the core indexes the array by it, so the file must agree.
    """

    name: str
    size: int | str
    extra: int = 0

    def expected(self, constants: Mapping[str, int] | None) -> int | None:
        """The size the core expects (None: a core size, and no sizes given)."""
        if isinstance(self.size, int):
            return self.size + self.extra
        if constants is None:
            return None
        return int(constants[self.size]) + self.extra


@dataclass(frozen=True)
class Layout:
    """What one table holds: its arrays' axes and what each axis means.

    A ``keyed`` table's arrays have one more, leading axis: one row per key
    of its :data:`KEYS` array (corporation keys).
    """

    description: str
    arrays: Mapping[str, tuple[Axis, ...]]
    axes: Mapping[str, str]
    keyed: bool = False

    def shape(
        self, array: str, constants: Mapping[str, int] | None
    ) -> tuple[int | None, ...]:
        """The expected shape of one array without the key axis (None: any size)."""
        return tuple(a.expected(constants) for a in self.arrays[array])


TABLES: Mapping[str, Layout] = {
    "track_fit": Layout(
        description=(
            "Rollout-fitted value of advancing a tracker at a choice among "
            "trackers, in greedy's units and relative to the other options: a "
            "cell per (track, tracker position, part of the game) plus, per "
            "track, a linear term in the player's context "
            "(pu_sim/core/bots/greedy_track_fit.pxi)."
        ),
        arrays={
            "cell": (
                Axis("track", "N_TRACKS"),
                Axis("position", "TRACK_FIT_POSITIONS"),
                Axis("phase", "TRACK_FIT_PHASES"),
            ),
            "context": (
                Axis("track", "N_TRACKS"),
                Axis("context", "TRACK_FIT_CONTEXT"),
            ),
        },
        axes={
            "corporation": "the corporation key in `corporations`; a corporation "
            "with no row plays greedy's own values (zeros)",
            "track": "civ, water, biomass, rover, tech",
            "position": "the tracker's position before the step (higher ones: "
            "the last)",
            "phase": "third of a 20-round game the round falls in",
            "context": "Game.track_context's entries: lifepods, lifepods within 2 "
            "and 4 squares of a rover, rovers on the planet and in supply, covered "
            "squares, civ cards, tech level, meteorites, lifepods collected, the "
            "five tracker positions",
        },
        keyed=True,
    ),
    "place_fit": Layout(
        description=(
            "Rollout-fitted value of a placement's afterstate features, in "
            "greedy's units and relative to greedy's best placement "
            "(pu_sim/core/bots/greedy_place_fit.pxi)."
        ),
        arrays={
            "values": (
                Axis("phase", "PLACE_FIT_PHASES"),
                Axis("feature", "N_PLACE_FEATURES"),
            )
        },
        axes={
            "phase": "part of the game, PLACE_FIT_ROUND_SPAN (4) rounds each, the "
            "last one open-ended",
            "feature": "Game.placement_features: size, regions, free_1, free_2_3, "
            "free_4_7, free_8, line_1, line_2, line_3_4",
        },
    ),
    "line_chance": Layout(
        description=(
            "Measured chance that a row or column scores its medal at the end "
            "(pu_sim/core/bots/greedy_placement.pxi line_chance_at)."
        ),
        arrays={
            "chance": (
                Axis("meteorite", 2),
                Axis("open", "LINE_CHANCE_SQUARES"),
                Axis("round", "LINE_CHANCE_ROUNDS", extra=1),
            )
        },
        axes={
            "meteorite": "0: the line holds no meteorite, 1: it holds one",
            "open": "open squares of the line 0..12",
            "round": "the round whose start the line is seen at, 1..20 (later "
            "rounds count as the last); the last entry is the game's end",
        },
    ),
    "objective_chance": Layout(
        description=(
            "Measured chance that a private objective card is met at the end "
            "(pu_sim/core/bots/greedy_objectives.pxi objective_chance_at)."
        ),
        arrays={
            "chance": (
                Axis("group", "OBJ_CHANCE_GROUPS"),
                Axis("missing", "OBJ_CHANCE_MISSING"),
                Axis("round", "OBJ_CHANCE_ROUNDS", extra=1),
            )
        },
        axes={
            "group": "3x3 rectangle, 2x5 rectangle, area with 6 icons, civ / "
            "water / biomass / rover / tech tracker at the top, 9 meteorites "
            "collected, no uncovered ice",
            "missing": "units the card still misses 0..15; 16: a rectangle with "
            "no free window left",
            "round": "the round whose start the card is seen at, 1..20 (later "
            "rounds count as the last); the last entry is the game's end",
        },
    ),
    "objective_rate": Layout(
        description=(
            "Measured share of games in which greedy_tuned met each private "
            "card it kept: the setup discard gives up the card least likely to "
            "pay (pu_sim/core/bots/greedy_objectives.pxi objective_prospect)."
        ),
        arrays={"rate": (Axis("card", "N_OBJECTIVES"),)},
        axes={"card": "objective card id - 37 (ids 37..64)"},
    ),
    "ntuple": Layout(
        description=(
            "Learned value of the planet a placement leaves, fitted within "
            "decisions to rollouts of greedy's best placements, in greedy's units: "
            "one entry per 3x3 window pattern (shared by the grid's 100 windows) "
            "and per row or column state "
            "(pu_sim/core/bots/greedy_ntuple.pxi, weight ntuple)."
        ),
        arrays={
            "window": (
                Axis("phase", "NTUPLE_PHASES"),
                Axis("pattern", "NTUPLE_PATTERNS"),
            ),
            "line": (
                Axis("phase", "NTUPLE_PHASES"),
                Axis("meteorite", 2),
                Axis("free", "NTUPLE_LINE_FREE"),
            ),
        },
        axes={
            "phase": "part of the game, NTUPLE_ROUND_SPAN (7) rounds each, the "
            "last one open-ended",
            "pattern": "a 3x3 window's covered or off-grid squares, bit 3 x row + "
            "column",
            "meteorite": "0: the line holds no meteorite, 1: it holds one (it "
            "cannot score, ME-2)",
            "free": "the line's free grid squares 0..12",
        },
    ),
    "rotation_round": Layout(
        description=(
            "Learned value of the commander's station rotation (3+ players), "
            "fitted within decisions to rollouts of its best rotations: per part of "
            "the game, coefficients of the depot rule's value (greedy's units), "
            "the commander's score once the round it deals is played out and "
            "the other players' mean score then "
            "(pu_sim/core/bots/greedy_rotation_round.pxi, weight rotation_round)."
        ),
        arrays={
            "coef": (
                Axis("round", "ROTATION_ROUND_BUCKETS"),
                Axis("feature", "ROTATION_ROUND_FEATURES"),
            )
        },
        axes={
            "round": "the round 1-5, 6-10, 11-14, 15-17, 18-19, 20+ (a game ends "
            "about round 20 at any player count)",
            "feature": "the depot rule's value (rotation_fit, rotation_deny), "
            "the commander's score after the round, the others' mean score after it",
        },
    ),
    "policy": Layout(
        description=(
            "The policy bot's value network, learned by temporal-difference "
            "self-play (pu_sim.lab.policy_td): a player's value is the score "
            "the game would give now plus one weight per active entry of these "
            "tables, each a tuple of generic features of the position "
            "(pu_sim/core/bots/policy_net.pxi).  In the core the tables follow "
            "one another in this order in one vector."
        ),
        arrays={
            "bias": (
                Axis("players", "POL_NP"),
                Axis("stage", "POL_STAGES"),
                Axis("corporation", "MAX_CORPS"),
                Axis("planet", "MAX_PLANETS"),
            ),
            "line": (
                Axis("stage", "POL_STAGES"),
                Axis("medals", "POL_MEDALS"),
                Axis("meteorite", 2),
                Axis("free", "POL_FREE"),
            ),
            "line_planet": (
                Axis("planet", "MAX_PLANETS"),
                Axis("line", "POL_LINES"),
                Axis("stage", "POL_STAGES"),
                Axis("meteorite", 2),
                Axis("free", "POL_FREE"),
            ),
            "window": (Axis("stage", "POL_STAGES"), Axis("pattern", "POL_PATTERNS")),
            "track": (
                Axis("corporation", "MAX_CORPS"),
                Axis("track", "N_TRACKS"),
                Axis("position", "POL_POS"),
                Axis("pending", "POL_PEND"),
                Axis("stage", "POL_STAGES"),
            ),
            "tech": (
                Axis("corporation", "MAX_CORPS"),
                Axis("tech_level", "POL_TECH"),
                Axis("stage", "POL_STAGES"),
            ),
            "choice": (
                Axis("corporation", "MAX_CORPS"),
                Axis("stage", "POL_STAGES"),
                Axis("synergy", "POL_SYN"),
                Axis("energy", "POL_ENERGY"),
                Axis("other_choices", "POL_OTHER"),
            ),
            "rover": (
                Axis("stage", "POL_STAGES"),
                Axis("target", "POL_TARGETS"),
                Axis("distance", "POL_DIST"),
                Axis("movement", "POL_MOVE"),
            ),
            "rovers": (
                Axis("stage", "POL_STAGES"),
                Axis("on_planet", "POL_ROVERS"),
                Axis("in_supply", "POL_ROVERS"),
                Axis("lifepods", "POL_PODS"),
            ),
            "meteorites": (
                Axis("stage", "POL_STAGES"),
                Axis("collected", "POL_MET_HELD"),
                Axis("on_planet", "POL_MET_LEFT"),
            ),
            "civ": (Axis("card", "POL_CARDS"), Axis("stage", "POL_STAGES")),
            "owed": (Axis("stage", "POL_STAGES"), Axis("owed", "POL_OWED")),
            "objective": (
                Axis("objective", "N_OBJECTIVES"),
                Axis("progress", "POL_PROGRESS"),
                Axis("stage", "POL_STAGES"),
            ),
            "neighbour": (
                Axis("objective", "N_OBJECTIVES"),
                Axis("difference", "POL_DIFF"),
                Axis("stage", "POL_STAGES"),
            ),
            "items": (
                Axis("item", "POL_ITEM_KINDS"),
                Axis("count", "POL_ITEM_COUNT"),
                Axis("stage", "POL_STAGES"),
            ),
            "corporation": (
                Axis("corporation", "MAX_CORPS"),
                Axis("stage", "POL_STAGES"),
                Axis("stored", "POL_STORED"),
                Axis("counter", "POL_EXTRA"),
            ),
            "used_game": (
                Axis("corporation", "MAX_CORPS"),
                Axis("stage", "POL_STAGES"),
                Axis("used", "POL_USED"),
            ),
            "used_round": (
                Axis("corporation", "MAX_CORPS"),
                Axis("stage", "POL_STAGES"),
                Axis("used", "POL_USED"),
            ),
            "ice": (
                Axis("planet", "MAX_PLANETS"),
                Axis("stage", "POL_STAGES"),
                Axis("open_ice", "POL_ICE"),
            ),
            "makeshift": (
                Axis("track", "N_TRACKS"),
                Axis("column", "POL_COLS"),
                Axis("position", "POL_POS"),
                Axis("stage", "POL_STAGES"),
            ),
            "stakes": (
                Axis("stage", "POL_STAGES"),
                Axis("rover_distance", "POL_DIST"),
                Axis("movement", "POL_MOVE"),
                Axis("stake", "POL_STAKE"),
            ),
            "pods": (
                Axis("track", "N_TRACKS"),
                Axis("position", "POL_POS"),
                Axis("ahead", "POL_AHEAD"),
                Axis("stage", "POL_STAGES"),
            ),
        },
        axes={
            "players": "solo, 2 players, 3 or more",
            "stage": "part of the game: rounds 1-3, 4-6, 7-9, 10-12, 13-15, 16-17, "
            "18-19, 20 and later",
            "corporation": "the corporation's id (its place in corporations.toml)",
            "planet": "the planet's id (its place in planets.toml)",
            "medals": "the line's medals 0..3",
            "meteorite": "0: the line holds no meteorite, 1: it holds one",
            "free": "the line's free grid squares 0..12",
            "line": "rows 0..11, then columns 0..11",
            "pattern": "a 3x3 window's squares covered or off the grid, bit 3 x row "
            "+ column (every window of the grid reads the same entry)",
            "track": "civ, water, biomass, rover, tech",
            "position": "the tracker's position (Oasis' water: its path step)",
            "pending": "advances waiting in the pool for that tracker, 0..3",
            "tech_level": "the tech level in force 0..7",
            "synergy": "synergy boosts waiting in the pool 0..3",
            "energy": "energy choices waiting 0..3",
            "other_choices": "other track choices waiting 0..2",
            "target": "0: lifepods, 1: meteorites (each rover on the planet reads "
            "both); Horizon Group reads 2 in place of 1 for a rover carrying a "
            "meteorite (its walk to a rover icon, where it delivers) and 3 for the "
            "others (their walk to a meteorite no rover carries)",
            "distance": "a rover's walk to the nearest target 0..8, 9: none within 8",
            "movement": "rover movement the player may still spend 0..5",
            "on_planet": "rovers (meteorites) on the planet",
            "in_supply": "rovers on the corporation board",
            "lifepods": "lifepods left on the planet 0..9",
            "collected": "meteorites collected 0..11",
            "card": "civ card id 1..36 (0 unused), one entry per card held",
            "owed": "civ picks owed, 0..2 of each rank, rank 1 the lowest digit "
            "(base 3)",
            "objective": "objective card id - 37, one entry per private card kept "
            "(neighbour: per card beside the player)",
            "progress": "how far the card is from met 0..15, 16: out of reach "
            "(policy_net.pxi pol_objective_progress)",
            "difference": "the player's measure minus the other's, -4..4 (the "
            "better direction first)",
            "item": "pending item kind (IT_*), one entry per kind waiting",
            "count": "items of that kind waiting 1..3",
            "stored": "biomass patches stored 0..3",
            "counter": "the corporation's own counter (Cosmos: lifepods on tracks, "
            "Jump Drive: on tech slots, Flux: token track + 1, Wormhole: patches "
            "on tiles)",
            "used": "activated powers used this game (this round), bit = tech level",
            "open_ice": "printed ice squares still uncovered 0..15",
            "column": "Makeshift: the column a tracker stands on",
            "rover_distance": "one entry per meteorite on the planet: the nearest "
            "rover's walk to it 0..8, 9: none within 8",
            "stake": "the free squares of the fuller of the meteorite's row and "
            "column 0..5, 6: more",
            "ahead": "Cosmos: lifepods on the track above its tracker 0..3 (one "
            "entry per track with one; the tracker jumps them)",
        },
    ),
}
"""Every fitted table's layout, by name (the file stem)."""


POLICY_TABLES = frozenset({"policy"})
"""The tables the policy bot reads (core/bots/policy*.pxi); no greedy or search
code reads them, so a run of greedy bots does not depend on them."""


@dataclass(frozen=True)
class Provenance:
    """How a table was made, for its TOML file.

    ``command`` re-creates the table (``--write``); ``report`` is the report
    folder that holds its measurement; ``created`` defaults to today.
    """

    command: str
    seed: int | None = None
    engine_version: int | None = None
    report: str | None = None
    created: str | None = None
    notes: str | None = None


@dataclass(frozen=True)
class FittedTable:
    """One table: its arrays (a keyed table's keys included) and its metadata."""

    name: str
    arrays: Mapping[str, npt.NDArray[Any]]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def __getitem__(self, array: str) -> npt.NDArray[Any]:
        return self.arrays[array]

    def rows(self) -> dict[str, int]:
        """A keyed table's key -> row index (empty for other tables)."""
        if KEYS not in self.arrays:
            return {}
        return {str(k): i for i, k in enumerate(self.arrays[KEYS])}


@dataclass(frozen=True)
class FittedTables(Mapping[str, FittedTable]):
    """Every table of one folder, with the digest of their arrays."""

    folder: Path
    tables: Mapping[str, FittedTable]
    digest: str

    def __getitem__(self, name: str) -> FittedTable:
        return self.tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)

    def read_by(self, kinds: Iterable[str]) -> list[str]:
        """The tables bots of these kinds read, sorted.

        The policy bot reads only its network, greedy and search every other
        table, random none; any other kind (a Python bot's seat) is taken to
        read every table.
        """
        out: set[str] = set()
        for kind in kinds:
            if kind == "policy":
                out |= POLICY_TABLES & set(self.tables)
            elif kind in ("greedy", "search"):
                out |= set(self.tables) - POLICY_TABLES
            elif kind != "random":
                out |= set(self.tables)
        return sorted(out)

    def digest_of(self, names: Iterable[str]) -> str:
        """The digest of these tables' arrays alone (as :attr:`digest` is of all)."""
        return tables_digest({name: self.tables[name] for name in names})


# --------------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------------


def check_arrays(
    name: str,
    arrays: Mapping[str, npt.ArrayLike],
    where: str,
    constants: Mapping[str, int] | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """The arrays of table ``name`` as numpy arrays, or one clear error.

    Every array of the layout must be there (and no other), of the shape the
    core expects, finite; a keyed table's keys must be distinct strings, one
    per row.  ``where`` names the file in the error.
    """
    if name not in TABLES:
        raise FittedTableError(f"{where}: no fitted table is called {name!r}")
    layout = TABLES[name]
    expected = set(layout.arrays) | ({KEYS} if layout.keyed else set())
    if set(arrays) != expected:
        missing = sorted(expected - set(arrays))
        extra = sorted(set(arrays) - expected)
        raise FittedTableError(
            f"{where}: arrays {sorted(arrays)}, expected {sorted(expected)}"
            + (f" (missing {missing})" if missing else "")
            + (f" (unexpected {extra})" if extra else "")
        )
    out: dict[str, npt.NDArray[Any]] = {}
    lead: tuple[int, ...] = ()
    if layout.keyed:
        keys = np.asarray(arrays[KEYS])
        if keys.ndim != 1 or keys.dtype.kind != "U":
            raise FittedTableError(
                f"{where}: array {KEYS!r} must be one row of strings, found "
                f"shape {keys.shape} of {keys.dtype}"
            )
        if len(set(keys.tolist())) != len(keys):
            raise FittedTableError(f"{where}: array {KEYS!r} repeats a key")
        out[KEYS] = keys
        lead = (len(keys),)
    for array in layout.arrays:
        values = np.asarray(arrays[array])
        want = lead + layout.shape(array, constants)
        if len(values.shape) != len(want) or any(
            w is not None and w != v for w, v in zip(want, values.shape, strict=True)
        ):
            raise FittedTableError(
                f"{where}: array {array!r} has shape {values.shape}, expected {want}"
                + (f" (one row per entry of {KEYS!r})" if layout.keyed else "")
            )
        if values.dtype.kind not in "fiu":
            raise FittedTableError(
                f"{where}: array {array!r} holds {values.dtype}, expected numbers"
            )
        values = values.astype(np.float64)
        if not np.isfinite(values).all():
            raise FittedTableError(f"{where}: array {array!r} holds non-finite values")
        out[array] = values
    return out


# --------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------


def load_table(
    name: str,
    folder: str | Path | None = None,
    constants: Mapping[str, int] | None = None,
) -> FittedTable:
    """Read and check one table from ``folder`` (default: the packaged ones).

    ``constants``: the core's sizes to check the shapes against (see
    :func:`check_arrays`).
    """
    base = Path(FITTED_DIR if folder is None else folder)
    npz, toml = base / f"{name}.npz", base / f"{name}.toml"
    for path in (npz, toml):
        if not path.is_file():
            raise FittedTableError(f"{path}: file not found")
    try:
        with np.load(npz, allow_pickle=False) as data:
            raw = {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise FittedTableError(f"{npz}: unreadable ({exc})") from None
    try:
        meta = tomllib.loads(toml.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise FittedTableError(f"{toml}: invalid TOML ({exc})") from None
    if meta.get("table") != name:
        raise FittedTableError(f"{toml}: describes table {meta.get('table')!r}")
    return FittedTable(name, check_arrays(name, raw, str(npz), constants), meta)


def load_fitted(
    folder: str | Path | None = None, constants: Mapping[str, int] | None = None
) -> FittedTables:
    """Every table of :data:`TABLES` from ``folder`` (default: the packaged ones)."""
    base = Path(FITTED_DIR if folder is None else folder)
    tables = {name: load_table(name, base, constants) for name in TABLES}
    return FittedTables(folder=base, tables=tables, digest=tables_digest(tables))


def tables_digest(tables: Mapping[str, FittedTable]) -> str:
    """SHA-256 over the tables' arrays (names, dtypes, shapes, values).

    Over the values, not the files: the same numbers give the same digest
    whatever the archive's timestamps or the metadata's wording.
    """
    h = hashlib.sha256()
    for name in sorted(tables):
        for array in sorted(tables[name].arrays):
            values = np.ascontiguousarray(tables[name].arrays[array])
            h.update(f"{name}/{array}/{values.dtype.str}/{values.shape}".encode())
            h.update(values.tobytes())
    return h.hexdigest()


# --------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------


def rounded(values: npt.ArrayLike, decimals: int = 4) -> Floats:
    """Values as their ``decimals``-place decimal text reads back.

    The tables store exactly these doubles (the core's generated source once
    held them as such literals), so a refit writes what a reader of the
    report's numbers would type.
    """
    arr = np.asarray(values, dtype=np.float64)
    flat = [float(f"{v:.{decimals}f}") for v in arr.ravel().tolist()]
    return np.asarray(flat, dtype=np.float64).reshape(arr.shape)


def write_table(
    name: str,
    arrays: Mapping[str, npt.ArrayLike],
    provenance: Provenance,
    folder: str | Path | None = None,
    constants: Mapping[str, int] | None = None,
) -> Path:
    """Check and write ``<name>.npz`` and ``<name>.toml``; returns the npz path.

    Nothing is written unless every array fits the table's layout (with the
    core's sizes when ``constants`` are given: the lab always gives them).
    """
    base = Path(FITTED_DIR if folder is None else folder)
    checked = check_arrays(name, arrays, f"{name} (to write)", constants)
    base.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez(buffer, **checked)  # type: ignore[arg-type]
    npz = base / f"{name}.npz"
    npz.write_bytes(buffer.getvalue())
    (base / f"{name}.toml").write_text(metadata_text(name, checked, provenance))
    return npz


def metadata_text(
    name: str, arrays: Mapping[str, npt.NDArray[Any]], provenance: Provenance
) -> str:
    """The TOML describing a table: how it was made, its arrays, its axes."""
    layout = TABLES[name]
    created = provenance.created or dt.date.today().isoformat()
    lines = [
        f"# How {name}.npz was made and what its axes mean (pu_sim.bots.fitted).",
        f"table = {_toml(name)}",
        f"description = {_toml(layout.description)}",
        f"command = {_toml(provenance.command)}",
    ]
    if provenance.seed is not None:
        lines.append(f"seed = {provenance.seed}")
    if provenance.engine_version is not None:
        lines.append(f"engine_version = {provenance.engine_version}")
    lines.append(f"created = {_toml(created)}")
    if provenance.report is not None:
        lines.append(f"report = {_toml(provenance.report)}")
    if provenance.notes is not None:
        lines.append(f"notes = {_toml(provenance.notes)}")
    if layout.keyed:
        keys = [str(k) for k in arrays[KEYS]]
        lines.append(f"{KEYS} = [{', '.join(_toml(k) for k in keys)}]")
    for array, axes in layout.arrays.items():
        names = (["corporation"] if layout.keyed else []) + [a.name for a in axes]
        lines += [
            "",
            f"[arrays.{array}]",
            f"shape = [{', '.join(str(n) for n in arrays[array].shape)}]",
            f"axes = [{', '.join(_toml(n) for n in names)}]",
        ]
    lines += ["", "[axes]"]
    lines += [f"{axis} = {_toml(meaning)}" for axis, meaning in layout.axes.items()]
    return "\n".join(lines) + "\n"


def _toml(text: str) -> str:
    """A TOML basic string."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
