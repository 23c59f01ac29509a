"""``pu-sim balance``: search declared changes for the patch that meets an objective.

* :mod:`~pu_sim.variants.balance.space`: the search file (which numbers may
  move, by how much; the table, objective and budget) and its candidates.
* :mod:`~pu_sim.variants.balance.objectives`: what is minimised.
* :mod:`~pu_sim.variants.balance.search`: successive halving on common random
  numbers, the best patches as variant files, confirmed held out.
"""

from pu_sim.variants.balance.search import SearchResult, balance
from pu_sim.variants.balance.space import SearchSpace, read_space

__all__ = ["SearchResult", "SearchSpace", "balance", "read_space"]
