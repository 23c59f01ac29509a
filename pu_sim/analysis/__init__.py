"""Analyses of result frames: pure Polars functions with honest intervals.

* :mod:`pu_sim.analysis.balance`: win rates, score summaries and quantiles,
  balance and corporation x planet tables, where the points come from.
* :mod:`pu_sim.analysis.seats`: the seat (turn order) effect.
* :mod:`pu_sim.analysis.paired`: paired comparisons inside shared setups.
* :mod:`pu_sim.analysis.strength`: Plackett-Luce / Bradley-Terry strengths,
  Elo, head to head.
* :mod:`pu_sim.analysis.robustness`: whether two tables (two bots) agree.
* :mod:`pu_sim.analysis.frame`: what every analysis does to its input frame.
* :mod:`pu_sim.analysis.calibration`: the solo target-score table.
* :mod:`pu_sim.analysis.stats`: intervals, tests and corrections.

The functions of the first five are re-exported here (``analysis.win_rates``).
Nothing here imports the compiled core: analyses run on any saved frame.
"""

from pu_sim.analysis.balance import (
    balance_table,
    interaction_table,
    score_breakdown,
    score_quantiles,
    score_summary,
    win_rates,
)
from pu_sim.analysis.frame import Frame, game_keys
from pu_sim.analysis.paired import add_group, paired_differences
from pu_sim.analysis.robustness import robustness, robustness_detail
from pu_sim.analysis.seats import seat_effect
from pu_sim.analysis.strength import (
    ELO_PER_LOG_STRENGTH,
    head_to_head,
    strength_model,
    to_elo,
)

__all__ = [
    "ELO_PER_LOG_STRENGTH",
    "Frame",
    "add_group",
    "balance_table",
    "game_keys",
    "head_to_head",
    "interaction_table",
    "paired_differences",
    "robustness",
    "robustness_detail",
    "score_breakdown",
    "score_quantiles",
    "score_summary",
    "seat_effect",
    "strength_model",
    "to_elo",
    "win_rates",
]
