"""The sections of a report, one module per family.

* :mod:`~pu_sim.report.sections.seats`: seat order and the first commander.
* :mod:`~pu_sim.report.sections.boards`: corporation and planet balance, their
  interaction, where the points come from.
* :mod:`~pu_sim.report.sections.bots`: bots against each other, and whether
  findings survive a change of bot.
* :mod:`~pu_sim.report.sections.solo`: solo scores, by bot and by board.
* :mod:`~pu_sim.report.sections.calibration`: the solo target table's calibration.
* :mod:`~pu_sim.report.sections.runs`: the runs and how to reproduce them.

Each section adds headlines, tables, figures and text to a
:class:`~pu_sim.report.page.Page`; :mod:`pu_sim.report.reporting` decides
which sections a report gets.
"""
