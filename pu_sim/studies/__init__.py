"""Studies: the main job and the harness every study script shares.

* :mod:`pu_sim.studies.main`: ``pu-sim study``, the main study and its report.
* :mod:`pu_sim.studies.harness`: the flags, configs, seeds, run folders and
  report manifests of every study (the main study, ``experiments/*.py`` and the
  bot lab's ``experiments/bots/*.py``).
* :mod:`pu_sim.studies.flags`: the flags every command and study shares.
"""
