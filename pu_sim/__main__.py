"""``python -m pu_sim``: the ``pu-sim`` command."""

from pu_sim.cli import main

raise SystemExit(main())
