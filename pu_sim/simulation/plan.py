"""A plan: the table, the root seed and the variant of a run, lowered once.

Every entry point that plays games (:func:`pu_sim.simulate`,
:func:`pu_sim.run`, :class:`pu_sim.Game`, ``evaluate_bots``,
:func:`pu_sim.compare`, the balance search, the studies) takes a
:class:`Plan` or builds one from its arguments (:func:`plan_of`): the
:class:`~pu_sim.simulation.table.TableSetup` is validated and lowered to the
core's table spec here, once, and the variant travels inside the table only.
A plan is small and picklable, so a worker thread, process or cluster node
receives it whole and loads the compiled rules itself (cached per process).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, Unpack

from pu_sim.engine import Rules, load_rules
from pu_sim.rules.variant import Variant
from pu_sim.simulation.checks import check_seed
from pu_sim.simulation.seeds import DEFAULT_SEED, KeyPart, RootSeed, SeedLike
from pu_sim.simulation.table import TableArgs, TableSetup, table_of

if TYPE_CHECKING:
    from pu_sim.bots.python import Bot


class _Unset:
    """The default of a ``seed`` argument: not given (see :func:`plan_of`)."""

    def __repr__(self) -> str:
        return f"default ({DEFAULT_SEED})"


UNSET: Final = _Unset()
"""``seed`` not given: :data:`~pu_sim.simulation.seeds.DEFAULT_SEED` for a
new plan; a resumed run keeps its recorded seed."""

SeedArg = SeedLike | _Unset
"""What an entry point's ``seed`` argument takes."""


@dataclass(frozen=True)
class Plan:
    """Who plays what, from which seed: everything a run's games depend on.

    Build one with :meth:`of` (a table or its fields, and a seed).  ``spec``
    is the core's table spec, lowered from the table when the plan is made;
    ``variant`` is the table's (None: the published game).
    """

    table: TableSetup
    seed: RootSeed
    spec: Mapping[str, Any] = field(compare=False, repr=False)

    @classmethod
    def of(
        cls,
        table: TableSetup | None = None,
        *,
        seed: SeedLike = DEFAULT_SEED,
        **table_args: Unpack[TableArgs],
    ) -> Plan:
        """The plan of a table (or its fields as keywords) and a root seed."""
        check_seed(seed)
        table = table_of(table, table_args)
        spec = table.lower(load_rules(variant=table.variant).data)
        return cls(table=table, seed=RootSeed.from_seed(seed), spec=spec)

    @property
    def variant(self) -> Variant | None:
        """The variant every game plays (None: the published game)."""
        return self.table.variant

    @property
    def players(self) -> int:
        """Players at the table."""
        return self.table.players

    @property
    def rules(self) -> Rules:
        """The compiled rules of the plan's variant (cached per process)."""
        return load_rules(variant=self.variant)

    @property
    def key(self) -> tuple[int, int]:
        """The 128-bit root key the core seeds every game from."""
        return (self.seed.k0, self.seed.k1)

    @property
    def bot_labels(self) -> list[str]:
        """The labels of the table's bots, as the result frame's ``bot`` Enum."""
        return list(self.spec["bot_labels"])

    @property
    def python_bots(self) -> dict[int, Bot]:
        """The seats a Python bot plays, by seat (empty: all core bots)."""
        return self.table.python_seats()

    def child(self, *key: KeyPart) -> Plan:
        """The same table with the seed derived at ``key`` (independent setups)."""
        return replace(self, seed=self.seed.child(*key))

    def with_seed(self, seed: SeedLike) -> Plan:
        """The same table with another root seed."""
        return replace(self, seed=RootSeed.from_seed(seed))


def plan_of(
    table: TableSetup | Plan | None, seed: SeedArg, table_args: TableArgs
) -> Plan:
    """The plan of an entry point's arguments: a plan, or a table and a seed.

    A :class:`Plan` carries its own seed and table, so neither ``seed`` nor
    table keywords may come beside it.
    """
    if isinstance(table, Plan):
        if not isinstance(seed, _Unset):
            raise TypeError(
                "give the seed in the plan or as seed=, not both "
                f"(the plan's seed is {table.seed.label})"
            )
        if table_args:
            raise TypeError(
                "give the table in the plan or as keywords "
                f"({', '.join(sorted(table_args))}), not both"
            )
        return table
    root = DEFAULT_SEED if isinstance(seed, _Unset) else seed
    return Plan.of(table, seed=root, **table_args)
