"""Reports: figures and tables a designer reads, written into report folders.

* :mod:`pu_sim.report.plots`: matplotlib helpers drawing on a caller's Axes.
* :mod:`pu_sim.report.reporting`: run folders turned into a report folder.
"""
