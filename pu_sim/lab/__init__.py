"""The bot lab: measuring and fitting what the bots know, and how strong they are.

Bot development, not the product: nothing else in ``pu_sim`` imports it (the
layer contract checks), and it may use every layer below it (simulation,
analysis, reports, the study harness).

The scripts under ``experiments/bots/`` are thin: a Config and a ``main()``
over these modules, which hold the logic (and its tests).

* :mod:`~pu_sim.lab.probes`: what a bot makes of a position, and rollouts.
* :mod:`~pu_sim.lab.common`: flags from a Config, the report folder
  and its manifest, paired differences, games in one core call.
* Fitted tables (:mod:`pu_sim.bots.fitted` writes them):
  :mod:`~pu_sim.lab.track_values` (``track_fit``),
  :mod:`~pu_sim.lab.placement_values` (``place_fit``),
  :mod:`~pu_sim.lab.line_chances` (``line_chance``),
  :mod:`~pu_sim.lab.objective_chances` (``objective_chance``),
  :mod:`~pu_sim.lab.objective_rates` (``objective_rate``), over
  :mod:`~pu_sim.lab.chance_tables` (counting at round starts) and
  :mod:`~pu_sim.lab.rollouts` (rollout values of greedy's options).
* Weights: :mod:`~pu_sim.lab.tuning` (cross-entropy search and its
  fitness), :mod:`~pu_sim.lab.tuned_greedy` (the tuning study; its
  words in :mod:`~pu_sim.lab.tuned_greedy_report`),
  :mod:`~pu_sim.lab.weights` (a rollout fit of the weights),
  :mod:`~pu_sim.lab.next_fit` (the next-tile lookahead's weight).
* The search bot and the bots' strength:
  :mod:`~pu_sim.lab.search_by_decision`,
  :mod:`~pu_sim.lab.search_gap`,
  :mod:`~pu_sim.lab.search_strength`,
  :mod:`~pu_sim.lab.ladder` (its words in
  :mod:`~pu_sim.lab.ladder_report`).
* The policy bot (another family than greedy): :mod:`~pu_sim.lab.policy_td`
  learns its network by self-play and measures it.
* The corporations' powers: :mod:`~pu_sim.lab.power_use` (how often
  each is used), :mod:`~pu_sim.lab.paired_builds` (a valuation
  change's effect, the same games under two builds).
"""
