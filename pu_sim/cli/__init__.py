"""The ``pu-sim`` command: play games, run the main study, report, replay, list.

* :mod:`pu_sim.cli.parser`: every subcommand and flag.
* :mod:`pu_sim.cli.table_flags`: the table on the command line (seats, pools,
  bots with settings, rule options).
* :mod:`pu_sim.cli.commands`: what each subcommand does.
* :mod:`pu_sim.cli.listing`: ``pu-sim list``.
"""

from pu_sim.cli.main import main

__all__ = ["main"]
