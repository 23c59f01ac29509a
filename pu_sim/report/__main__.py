"""``python -m pu_sim.report FOLDER [--out DIR]``: write or rebuild a report.

``FOLDER`` is a run folder, a study folder of runs, or a report folder (which
rebuilds from the runs its manifest lists); nothing is simulated.
"""

from pu_sim.report.reporting import main

raise SystemExit(main())
