"""Playing games: the table, the parallel runs, the run folder and its frames.

* :mod:`pu_sim.simulation.table`: :class:`TableSetup`, who plays what.
* :mod:`pu_sim.simulation.in_memory`: :func:`simulate`, games into one frame.
* :mod:`pu_sim.simulation.runner`: :func:`run`, games into a resumable folder.
* :mod:`pu_sim.simulation.runfolder`: the run folder on disk (manifest, parts).
* :mod:`pu_sim.simulation.frames`: the output schema.
* :mod:`pu_sim.simulation.provenance`: versions, git revision, machine.
"""
