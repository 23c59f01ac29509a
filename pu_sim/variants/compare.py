"""Play the baseline and one or more variants on the same setups, and compare them.

:func:`compare` is ``pu-sim compare`` in Python: every arm (the baseline, then
each variant) plays ``n_games`` games with one root seed and one table, so
game ``i`` of every arm deals the same setup (common random numbers) and the
arms differ only by their rules.  With ``out`` each arm is a resumable run
folder (``out/runs/<arm>``, through :func:`pu_sim.run` and its joblib or
Dask backends) and the report is written to ``out``; without it the games
stay in memory.  The effects are :func:`pu_sim.variants.effects.effect_table`'s.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Unpack

import polars as pl
from joblib import effective_n_jobs

from pu_sim.analysis.clusters import Method
from pu_sim.analysis.stats import Correction
from pu_sim.rules.variant import Variant, VariantChoice, as_variant
from pu_sim.simulation.plan import UNSET, Plan, SeedArg, plan_of
from pu_sim.simulation.seeds import DEFAULT_BATCH_SIZE, RootSeed
from pu_sim.simulation.table import TableArgs, TableSetup
from pu_sim.variants.effects import effect_table
from pu_sim.variants.knowledge import changes, published_knowledge

__all__ = ["PUBLISHED", "Comparison", "compare"]

PUBLISHED = "published"
"""The baseline arm's name when the table plays the published game."""


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` played and measured.

    Attributes
    ----------
    arms
        Arm name -> its variant (None: the published game); the baseline first.
    baseline
        The baseline arm's name.
    table, n_games, seed
        The table every arm played, games per arm and the shared root seed.
    games
        Arm name -> its games (a frame, or a run folder's lazy scan).
    effects
        The effect table (:func:`pu_sim.variants.effects.effect_table`).
    runs
        Arm name -> its run folder (empty when played in memory).
    confidence, correction
        The interval level and the multiple-comparison correction used.
    """

    arms: Mapping[str, Variant | None]
    baseline: str
    table: TableSetup
    n_games: int
    seed: RootSeed
    games: Mapping[str, pl.DataFrame | pl.LazyFrame]
    effects: pl.DataFrame
    runs: Mapping[str, Path] = field(default_factory=dict)
    confidence: float = 0.95
    correction: str = "holm"

    def changes(self, arm: str) -> list[str]:
        """What an arm's variant changes, one line per component."""
        variant = self.arms[arm]
        return [] if variant is None else [str(c) for c in changes(variant)]

    def knowledge(self, arm: str) -> list[str]:
        """Which of the bots' fitted knowledge is of the published game (per arm)."""
        variant = self.arms[arm]
        return [] if variant is None else published_knowledge(variant)

    def write(self, out: str | Path, *, command: str | None = None) -> Path:
        """Write the report (README, effect table, figure, manifest) to ``out``."""
        from pu_sim.variants.compare_report import write_comparison

        return write_comparison(self, Path(out), command=command)


def compare(
    variants: VariantChoice | Sequence[VariantChoice],
    n_games: int,
    table: TableSetup | Plan | None = None,
    *,
    seed: SeedArg = UNSET,
    out: str | Path | None = None,
    runs_dir: str | Path | None = None,
    n_jobs: int = -1,
    batch_size: int | None = None,
    backend: str | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    kinds: Sequence[str] = ("corporation", "planet"),
    confidence: float = 0.95,
    correction: Correction = "holm",
    method: Method = "cr1",
    command: str | None = None,
    **table_args: Unpack[TableArgs],
) -> Comparison:
    r"""Compare variants with the baseline on common random numbers.

    Parameters
    ----------
    variants
        One variant or a list of them, each an arm: a :class:`Variant`, a
        variant file's path, or a list of paths (one variant of several files).
    n_games
        Games per arm.
    table, **table_args
        The table every arm plays (:class:`pu_sim.TableSetup` or its fields);
        its own ``variant``, if any, is the baseline (default: the published
        game).  ``paired=True`` also rotates the boards through the seats
        inside each arm.
    seed
        The root seed every arm shares (what makes the setups common).
    out
        A folder: each arm becomes a resumable run folder ``out/runs/<arm>``
        and the report is written to ``out``.  None plays in memory and
        writes nothing (:meth:`Comparison.write` writes the report later).
    runs_dir
        Where the arms' run folders go instead (``runs_dir/<arm>``), e.g. a
        git-ignored folder while the report goes to ``reports/``.
    n_jobs, batch_size, backend, scheduler, progress
        As for :func:`pu_sim.run`; ``batch_size`` None splits each arm into
        batches that keep every worker busy (results never depend on it).
    kinds, confidence, correction, method
        The labels compared (corporation, planet), the interval level, the
        p-value adjustment over every row (``holm``, ``bh``, ``bonferroni``,
        ``none``) and the interval method (``cr1`` or ``bootstrap``).

    Examples
    --------
    >>> import pu_sim
    >>> from pu_sim.rules import Variant
    >>> richer = Variant.from_text(
    ...     '[corporation.cosmos_inc.tracks]\nwater = { 15 = "medal:14" }\n')
    >>> result = pu_sim.compare(richer, 4, players=2, bots="random", paired=True,
    ...     corporations=["cosmos_inc", "universal_coalition"], seed=1, n_jobs=1)
    >>> list(result.arms)
    ['published', 'variant']
    """
    _check_statistics(kinds, confidence, correction, method)  # before any game
    plan = plan_of(table, seed, table_args)
    base = plan.table
    arms = _arms(base.variant, _variant_list(variants))
    base.check_games(n_games)
    if batch_size is None:
        workers = effective_n_jobs(n_jobs) if scheduler is None else 8
        batch_size = max(1, min(DEFAULT_BATCH_SIZE, -(-n_games // (2 * workers))))
    games: dict[str, pl.DataFrame | pl.LazyFrame] = {}
    runs: dict[str, Path] = {}
    for name, variant in arms.items():
        arm = Plan.of(dataclasses.replace(base, variant=variant), seed=plan.seed)
        if out is None:
            from pu_sim.simulation.in_memory import simulate

            games[name] = simulate(
                n_games, arm, n_jobs=n_jobs, batch_size=batch_size, backend=backend
            )  # fmt: skip
            continue
        from pu_sim.simulation.runner import run

        folder = Path(runs_dir if runs_dir is not None else Path(out) / "runs") / name
        result = run(
            n_games, arm, out=folder, n_jobs=n_jobs,
            batch_size=batch_size, backend=backend, scheduler=scheduler,
            progress=progress,
            metadata={"study": "compare", "name": name, "pairing": "compare"},
        )  # fmt: skip
        runs[name] = folder
        games[name] = result.scan()
    baseline = next(iter(arms))
    effects = effect_table(
        games, baseline=baseline, group_size=base.groups, kinds=kinds,
        confidence=confidence, correction=correction, method=method,
    )  # fmt: skip
    comparison = Comparison(
        arms=arms, baseline=baseline, table=base, n_games=n_games, seed=plan.seed,
        games=games, effects=effects, runs=runs, confidence=confidence,
        correction=correction,
    )  # fmt: skip
    if out is not None:
        comparison.write(out, command=command)
    return comparison


def _check_statistics(
    kinds: Sequence[str], confidence: float, correction: str, method: str
) -> None:
    """The statistics' arguments, checked before any game is played."""
    if (
        isinstance(confidence, bool)
        or not isinstance(confidence, int | float)
        or not 0.0 < confidence < 1.0
    ):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    for name, value, valid in (
        ("correction", correction, typing.get_args(Correction)),
        ("method", method, typing.get_args(Method)),
    ):
        if value not in valid:
            raise ValueError(f"{name} must be one of {', '.join(valid)}, got {value!r}")
    if (
        isinstance(kinds, str)
        or not kinds
        or any(k not in ("corporation", "planet") for k in kinds)
    ):
        raise ValueError(
            f"kinds must be a list of 'corporation' and 'planet', got {kinds!r}"
        )


def _variant_list(
    variants: VariantChoice | Sequence[VariantChoice],
) -> list[Variant]:
    """Each arm's variant (a bare path or Variant is one arm)."""
    if isinstance(variants, Variant | str | Path):
        items: list[Any] = [variants]
    else:
        items = list(variants)  # type: ignore[arg-type]
    if not items:
        raise ValueError("compare needs at least one variant")
    out = []
    for item in items:
        variant = as_variant(item)
        if variant is None:
            raise ValueError("a variant arm cannot be empty")
        out.append(variant)
    return out


def _arms(
    baseline: Variant | None, variants: Sequence[Variant]
) -> dict[str, Variant | None]:
    """Arm names (folder-safe, unique) -> variants; the baseline first."""
    arms: dict[str, Variant | None] = {
        PUBLISHED if baseline is None else _slug(baseline.name): baseline
    }
    for variant in variants:
        if variant in arms.values():
            raise ValueError(f"variant {variant} is given twice (or is the baseline)")
        name = _slug(variant.name)
        if name in arms:
            name = f"{name}-{variant.short_digest}"
        arms[name] = variant
    return arms


def _slug(name: str) -> str:
    """A name usable as a folder and a label."""
    return re.sub(r"[^A-Za-z0-9_.+-]+", "-", name).strip("-") or "variant"
