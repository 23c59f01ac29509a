"""What a balance search minimises: one number per candidate's games (lower is better).

An objective is the ``[objective]`` table of a search file, ``kind`` naming
one of :data:`OBJECTIVES`:

``win_gap``
    The largest distance of a corporation's win rate from a fair ``1/n``, in
    percentage points, over ``corporations`` (default: every corporation that
    played).  A tie's win is split between the tied winners.
``score_gap``
    The largest distance of a corporation's mean score from its games' mean
    score, points, over ``corporations``.
``game_length``
    The distance of the mean game length from ``rounds`` (a target), rounds.

``target`` (optional) is what counts as good enough: among the candidates
whose objective meets it, the search prefers the smallest change.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

import polars as pl

from pu_sim.rules import DataError, load_game_data

__all__ = ["OBJECTIVES", "check_objective", "evaluate"]


def _corporation_names(objective: Mapping[str, Any]) -> list[str] | None:
    """Display names of the objective's corporations (None: every one)."""
    keys = objective.get("corporations")
    if keys is None:
        return None
    names = {c.key: c.name for c in load_game_data().corporations}
    return [names[k] for k in keys]


def _per_corporation(games: pl.DataFrame, objective: Mapping[str, Any]) -> pl.DataFrame:
    """Win share and score against the table, per corporation."""
    frame = games.filter(pl.col("n_players") > 1).with_columns(
        share=pl.col("won").cast(pl.Float64)
        / pl.col("won").cast(pl.Float64).sum().over("game_id").clip(1.0),
        vs_table=pl.col("score") - pl.col("score").mean().over("game_id"),
        corporation=pl.col("corporation").cast(pl.String),
    )
    names = _corporation_names(objective)
    if names is not None:
        frame = frame.filter(pl.col("corporation").is_in(names))
    return frame.group_by("corporation").agg(
        win=pl.col("share").mean(),
        vs_table=pl.col("vs_table").mean(),
        fair=1.0 / pl.col("n_players").first().cast(pl.Float64),
    )


def _win_gap(games: pl.DataFrame, objective: Mapping[str, Any]) -> float:
    table = _per_corporation(games, objective)
    return float(((table["win"] - table["fair"]).abs() * 100).max() or 0.0)  # type: ignore[arg-type]


def _score_gap(games: pl.DataFrame, objective: Mapping[str, Any]) -> float:
    table = _per_corporation(games, objective)
    return float(table["vs_table"].abs().max() or 0.0)  # type: ignore[arg-type]


def _game_length(games: pl.DataFrame, objective: Mapping[str, Any]) -> float:
    mean = games.group_by("game_id").agg(pl.col("rounds").first())["rounds"].mean()
    return abs(float(mean) - float(objective["rounds"]))  # type: ignore[arg-type]


OBJECTIVES: Final[Mapping[str, Callable[[pl.DataFrame, Mapping[str, Any]], float]]] = {
    "win_gap": _win_gap,
    "score_gap": _score_gap,
    "game_length": _game_length,
}
"""Every objective kind, by name (module docstring)."""

_KEYS: Final = {
    "win_gap": {"kind", "corporations", "target"},
    "score_gap": {"kind", "corporations", "target"},
    "game_length": {"kind", "rounds", "target"},
}


def check_objective(objective: Mapping[str, Any], source: str) -> None:
    """One line naming the search file and the key for a bad objective."""
    kind = str(objective.get("kind"))
    if kind not in OBJECTIVES:
        raise DataError(
            f"{source}: [objective.kind]: {objective.get('kind')!r} is not an "
            "objective; valid: " + ", ".join(OBJECTIVES)
        )
    for key in objective:
        if key not in _KEYS[kind]:
            raise DataError(
                f"{source}: [objective]: unknown key {key!r} for {kind}; valid keys: "
                + ", ".join(sorted(_KEYS[kind]))
            )
    if kind == "game_length" and not isinstance(objective.get("rounds"), int | float):
        raise DataError(f"{source}: [objective.rounds]: a target number of rounds")
    keys = objective.get("corporations")
    if keys is not None:
        valid = [c.key for c in load_game_data().corporations]
        if not isinstance(keys, list) or not keys:
            raise DataError(f"{source}: [objective.corporations]: a list of keys")
        for key in keys:
            if key not in valid:
                raise DataError(
                    f"{source}: [objective.corporations]: unknown corporation "
                    f"{key!r}; valid: {', '.join(valid)}"
                )


def evaluate(games: pl.DataFrame, objective: Mapping[str, Any]) -> float:
    """The objective's value on a candidate's games (lower is better)."""
    return OBJECTIVES[objective["kind"]](games, objective)
