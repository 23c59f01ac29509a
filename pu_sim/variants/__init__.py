"""Designer what-ifs: play variants of the game and measure what they change.

* :mod:`pu_sim.variants.compare`: :func:`compare`, the baseline and variants
  played on common random numbers (``pu-sim compare``).
* :mod:`pu_sim.variants.effects`: the changes with cluster-aware intervals.
* :mod:`pu_sim.variants.compare_report`: the one-look table, figure and manifest.
* :mod:`pu_sim.variants.knowledge`: what a variant changes, and which of the
  bots' fitted knowledge is of the published game.
* :mod:`pu_sim.variants.balance`: ``pu-sim balance``, a search over declared
  changes for the variant that best meets an objective.

A variant itself is :class:`pu_sim.rules.Variant` (read and checked by the
rules' loader).
"""
