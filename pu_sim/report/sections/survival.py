"""Which of a weaker bot's balance findings survive at strength.

A study's skill ladder plays weaker bots (greedy, random) on the same setups
as the strong policies.  A designer who read an older report played by a weak
bot needs to know which of its findings still stand: here every effect that
is significant under a weaker bot (win rate - 1/n, Holm-adjusted over its
table) is set beside the verdict of the two strong policies.  It *survives*
when the strong verdict is robust in the same direction, is *contradicted*
when the strong bots disagree with each other or find the opposite, and is
*not confirmed* when they do not show it (unresolved).  Robust findings the
weaker bot missed are listed too.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from pu_sim import analysis
from pu_sim.report.markdown import fmt, md_table
from pu_sim.report.page import Page
from pu_sim.report.policies import Policies
from pu_sim.report.sections.verdicts import CLUSTER

__all__ = ["survival_section", "survival_table"]


def survival_table(weak: pl.DataFrame, verdicts: pl.DataFrame) -> pl.DataFrame:
    """The weaker bot's significant findings and the strong verdict on each.

    ``weak`` holds one-bot games of the weaker bot; ``verdicts`` is the study's
    :func:`~pu_sim.analysis.verdicts.verdict_table` (primary ``a``, second
    ``b``).  Returns ``n_players, kind, name, win_pp_weak, win_lower_weak,
    win_upper_weak, significant_weak, win_pp_a, win_pp_b, label, status``
    where ``status`` is ``survives``, ``contradicted``, ``not confirmed`` or
    ``missed`` (robust at strength, not significant under the weaker bot).
    """
    own = analysis.verdict_table(weak, weak, cluster=CLUSTER, replicate=False).select(
        "n_players",
        "kind",
        "name",
        win_pp_weak="win_pp_a",
        win_lower_weak="win_lower_a",
        win_upper_weak="win_upper_a",
        significant_weak=pl.col("label") == "robust",  # significant, as a == b
    )
    joined = own.join(
        verdicts.select("n_players", "kind", "name", "win_pp_a", "win_pp_b", "label"),
        on=["n_players", "kind", "name"],
        maintain_order="left",
    )
    same = pl.col("win_pp_weak").sign() == pl.col("win_pp_a").sign()
    robust = pl.col("label") == "robust"
    significant = pl.col("significant_weak")
    status = (
        pl.when(significant & robust & same)
        .then(pl.lit("survives"))
        .when(significant & pl.col("label").is_in(["unresolved", "not replicated"]))
        .then(pl.lit("not confirmed"))
        .when(significant)
        .then(pl.lit("contradicted"))
        .when(robust)
        .then(pl.lit("missed"))
        .otherwise(None)
    )
    return (
        joined.with_columns(status=status)
        .filter(pl.col("status").is_not_null())
        .sort(
            "n_players",
            "status",
            pl.col("win_pp_weak").abs(),
            descending=[False, False, True],
        )
    )


def survival_section(
    page: Page, homo: pl.DataFrame, verdicts: pl.DataFrame, policies: Policies
) -> None:
    """One table and one headline per weaker ladder bot with multiplayer games."""
    strong = {policies.primary, policies.second}
    if policies.primary is None or policies.second is None:
        return
    bot = pl.col("bot").cast(pl.String)
    for weak_name in policies.ladder:
        if weak_name in strong:
            continue
        weak = homo.filter(bot == weak_name)
        counts = set(weak["n_players"].unique().to_list()) & set(
            verdicts["n_players"].unique().to_list()
        )
        if not counts:
            continue
        table = survival_table(weak.filter(pl.col("n_players").is_in(counts)), verdicts)
        slug = weak_name.replace(" ", "_")
        page.table(f"survival_{slug}", table)
        a, b = policies.primary, policies.second
        page.headlines.append(_headline(table, weak_name, a, b, sorted(counts)))
        rows = [_row(r) for r in table.iter_rows(named=True)]
        header = [
            "players", "kind", "name", weak_name, a, b, "strong verdict", "status",
        ]  # fmt: skip
        games = weak.select(pl.col("game_id").n_unique()).item()
        page.section(
            f"Findings of {weak_name} at strength ({a}, {b})",
            f"{weak_name} played {games:,} games of the same setups at "
            f"{', '.join(map(str, sorted(counts)))} players. Every win-rate effect "
            f"significant under {weak_name} (Holm over its table) beside the "
            f"verdict of {a} and {b}: it **survives** when both strong bots find "
            "it in the same direction (robust), is **contradicted** when they "
            "disagree with each other or find the opposite, and **not "
            "confirmed** when they do not show it (unresolved: often the second "
            f"bot's few games); **missed**: robust at strength, not significant "
            f"under {weak_name}. "
            "Effects in percentage points of win rate - 1/n, 95% intervals "
            "clustered by setup.",
            md_table(rows, header),
        )


def _row(r: dict[str, Any]) -> list[str]:
    weak = (
        f"{fmt(r['win_pp_weak'], '+.1f')} [{fmt(r['win_lower_weak'], '+.1f')}, "
        f"{fmt(r['win_upper_weak'], '+.1f')}]"
    )
    return [
        str(r["n_players"]), str(r["kind"]), str(r["name"]), weak,
        fmt(r["win_pp_a"], "+.1f"), fmt(r["win_pp_b"], "+.1f"), str(r["label"]),
        f"**{r['status']}**",
    ]  # fmt: skip


def _headline(table: pl.DataFrame, weak: str, a: str, b: str, counts: list[int]) -> str:
    def names(status: str) -> str:
        part = table.filter(pl.col("status") == status)
        items = [
            f"{r['name']} at {r['n_players']}p ({weak} "
            f"{fmt(r['win_pp_weak'], '+.1f')} pp, {a} {fmt(r['win_pp_a'], '+.1f')})"
            for r in part.iter_rows(named=True)
        ]
        return "; ".join(items) if items else "none"

    significant = int(table["significant_weak"].sum())
    return (
        f"**Findings of {weak} at strength** ({', '.join(map(str, counts))} "
        f"players; {significant} significant under {weak}): survive under {a} and "
        f"{b}: {names('survives')}. Contradicted: {names('contradicted')}. "
        f"Not confirmed: {names('not confirmed')}. Missed by {weak}: "
        f"{names('missed')}."
    )
