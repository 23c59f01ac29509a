"""Analyses of result frames: pure Polars functions with honest intervals.

* :mod:`pu_sim.analysis.balance`: win rates, score summaries, balance tables,
  seat effects, bot strength.
* :mod:`pu_sim.analysis.calibration`: the solo target-score table.
* :mod:`pu_sim.analysis.stats`: intervals, tests and corrections.

Nothing here imports the compiled core: analyses run on any saved frame.
"""

# Honest verdicts: cluster-aware intervals, labels under two policies, skill
# depth, game feel, solo deck calibration.
from pu_sim.analysis.cluster_stats import cluster_ols as cluster_ols
from pu_sim.analysis.cluster_stats import design_effect as design_effect
from pu_sim.analysis.cluster_stats import linear_contrast as linear_contrast
from pu_sim.analysis.clusters import cluster_difference as cluster_difference
from pu_sim.analysis.clusters import cluster_means as cluster_means
from pu_sim.analysis.clusters import cluster_win_rates as cluster_win_rates
from pu_sim.analysis.feel import early_endings as early_endings
from pu_sim.analysis.feel import game_length as game_length
from pu_sim.analysis.feel import lead_change_summary as lead_change_summary
from pu_sim.analysis.feel import lead_changes as lead_changes
from pu_sim.analysis.feel import margin_summary as margin_summary
from pu_sim.analysis.feel import validate_round_scores as validate_round_scores
from pu_sim.analysis.feel import victory_margins as victory_margins
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
from pu_sim.analysis.verdicts import cell_effects as cell_effects
from pu_sim.analysis.verdicts import finding_labels as finding_labels
from pu_sim.analysis.verdicts import judge_findings as judge_findings
from pu_sim.analysis.verdicts import rank_agreement as rank_agreement
from pu_sim.analysis.verdicts import verdict_table as verdict_table
