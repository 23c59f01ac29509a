"""Bot development: measuring and fitting what the greedy bot knows.

The scripts under ``experiments/bots/`` are thin: a Config and a ``main()``
over these modules, which hold the logic (and its tests).

* :mod:`~pu_sim.bots.fitting.common`: flags from a Config, the report folder
  and its manifest, paired differences, games in one core call.
* Fitted tables (:mod:`pu_sim.bots.fitted` writes them):
  :mod:`~pu_sim.bots.fitting.track_values` (``track_fit``),
  :mod:`~pu_sim.bots.fitting.placement_values` (``place_fit``),
  :mod:`~pu_sim.bots.fitting.line_chances` (``line_chance``),
  :mod:`~pu_sim.bots.fitting.objective_chances` (``objective_chance``),
  :mod:`~pu_sim.bots.fitting.objective_rates` (``objective_rate``), over
  :mod:`~pu_sim.bots.fitting.chance_tables` (counting at round starts) and
  :mod:`~pu_sim.bots.fitting.rollouts` (rollout values of greedy's options).
* Weights: :mod:`~pu_sim.bots.fitting.tuning` (cross-entropy search and its
  fitness), :mod:`~pu_sim.bots.fitting.tuned_greedy` (the tuning study; its
  words in :mod:`~pu_sim.bots.fitting.tuned_greedy_report`),
  :mod:`~pu_sim.bots.fitting.weights` (a rollout fit of the weights),
  :mod:`~pu_sim.bots.fitting.next_fit` (the next-tile lookahead's weight).
* The search bot and the bots' strength:
  :mod:`~pu_sim.bots.fitting.search_by_decision`,
  :mod:`~pu_sim.bots.fitting.search_gap`,
  :mod:`~pu_sim.bots.fitting.search_strength`,
  :mod:`~pu_sim.bots.fitting.ladder` (its words in
  :mod:`~pu_sim.bots.fitting.ladder_report`).
* The corporations' powers: :mod:`~pu_sim.bots.fitting.power_use` (how often
  each is used), :mod:`~pu_sim.bots.fitting.paired_builds` (a valuation
  change's effect, the same games under two builds).
"""
