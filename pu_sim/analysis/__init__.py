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

# Honest verdicts: cluster-aware intervals, labels under two policies, skill
# depth, game feel, solo deck calibration.
from pu_sim.analysis.cells import cell_effects as cell_effects
from pu_sim.analysis.cluster_stats import cluster_ols as cluster_ols
from pu_sim.analysis.cluster_stats import design_effect as design_effect
from pu_sim.analysis.cluster_stats import linear_contrast as linear_contrast
from pu_sim.analysis.clusters import cluster_difference as cluster_difference
from pu_sim.analysis.clusters import cluster_means as cluster_means
from pu_sim.analysis.clusters import cluster_win_rates as cluster_win_rates
from pu_sim.analysis.feel import comeback_decisiveness as comeback_decisiveness
from pu_sim.analysis.feel import comeback_summary as comeback_summary
from pu_sim.analysis.feel import game_length as game_length
from pu_sim.analysis.feel import lead_change_summary as lead_change_summary
from pu_sim.analysis.feel import lead_changes as lead_changes
from pu_sim.analysis.feel import margin_summary as margin_summary
from pu_sim.analysis.feel import short_cuts as short_cuts
from pu_sim.analysis.feel import short_endings as short_endings
from pu_sim.analysis.feel import validate_round_scores as validate_round_scores
from pu_sim.analysis.feel import victory_margins as victory_margins
from pu_sim.analysis.rankings import rank_agreement as rank_agreement
from pu_sim.analysis.skill import gain_spread as gain_spread
from pu_sim.analysis.skill import skill_gains as skill_gains
from pu_sim.analysis.skill import skill_matrix as skill_matrix
from pu_sim.analysis.solo_decks import CardFormula as CardFormula
from pu_sim.analysis.solo_decks import deck_effects as deck_effects
from pu_sim.analysis.solo_decks import fit_bands as fit_bands
from pu_sim.analysis.solo_decks import fit_formula as fit_formula
from pu_sim.analysis.solo_decks import target_misfit as target_misfit
from pu_sim.analysis.solo_fairness import fairness as fairness
from pu_sim.analysis.solo_fairness import holdout_fairness as holdout_fairness
from pu_sim.analysis.solo_fairness import rounding_stability as rounding_stability
from pu_sim.analysis.solo_fairness import split_setups as split_setups
from pu_sim.analysis.solo_fairness import success_by_deck as success_by_deck
from pu_sim.analysis.solo_fairness import with_success as with_success
from pu_sim.analysis.third_policy import third_opinion as third_opinion
from pu_sim.analysis.verdicts import finding_labels as finding_labels
from pu_sim.analysis.verdicts import judge_findings as judge_findings
from pu_sim.analysis.verdicts import verdict_table as verdict_table
