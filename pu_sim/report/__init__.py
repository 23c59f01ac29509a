"""Reports: figures and tables a designer reads, written into report folders.

* :mod:`pu_sim.report.reporting`: run folders turned into a report folder
  (:func:`~pu_sim.report.reporting.write_report`); which sections it gets.
* :mod:`pu_sim.report.sections`: the sections, one module per family.
* :mod:`pu_sim.report.runs`: run folders as a report reads them.
* :mod:`pu_sim.report.page`: the report page under construction.
* :mod:`pu_sim.report.document`: the finished report, one model for both
  renderers; its Markdown (``README.md``).
* :mod:`pu_sim.report.html`: its self-contained web page (``index.html``).
* :mod:`pu_sim.report.markdown`: tables, numbers and intervals as text.
* :mod:`pu_sim.report.plots`: matplotlib helpers drawing on a caller's Axes.
* :mod:`pu_sim.report.manifest`: a report folder's manifest, one shape for all.
"""
