"""Studies: the main job and the plumbing the study scripts share.

* :mod:`pu_sim.studies.main`: ``pu-sim study``, the main study and its report.
* :mod:`pu_sim.studies.script`: the flags, configs and run folders of the
  scripts under ``experiments/``.
"""
