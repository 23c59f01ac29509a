"""Analyses of result frames: pure Polars functions with honest intervals.

* :mod:`pu_sim.analysis.balance`: win rates, score summaries, balance tables,
  seat effects, bot strength.
* :mod:`pu_sim.analysis.calibration`: the solo target-score table.
* :mod:`pu_sim.analysis.stats`: intervals, tests and corrections.

Nothing here imports the compiled core: analyses run on any saved frame.
"""
