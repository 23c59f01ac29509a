"""Small pieces several report sections use alike."""

from __future__ import annotations

from typing import Any

import polars as pl

from pu_sim.report.markdown import fmt

__all__ = ["agreement_cells", "excludes_zero", "main_bot", "median_ratio"]


def main_bot(games: pl.DataFrame) -> Any:
    """The bot that played the most seats (the first label among equals)."""
    return games["bot"].mode().sort()[0]


def played_by(games: pl.DataFrame) -> str:
    """The bots whose games a frame holds, for a caption ("greedy_tuned, greedy")."""
    return ", ".join(str(b) for b in games["bot"].unique(maintain_order=True))


def median_ratio(paired: pl.DataFrame) -> float:
    """The median paired/unpaired variance ratio of a paired comparison."""
    return float(paired["variance_ratio"].median())  # type: ignore[arg-type]


def excludes_zero(lower: str, upper: str) -> pl.Expr:
    """Whether an interval lies wholly above or below zero (a clear effect)."""
    return (pl.col(lower) > 0) | (pl.col(upper) < 0)


def agreement_cells(r: dict[str, Any]) -> list[str]:
    """Table cells of a robustness row: keys, Spearman, significant, agreement."""
    return [
        str(r["keys"]),
        fmt(r["spearman"], ".2f"),
        f"{r['significant_a']} / {r['significant_b']}",
        fmt(r["sign_agreement"], "%"),
        str(r["conflicts"]),
    ]
