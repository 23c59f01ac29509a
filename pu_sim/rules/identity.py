"""What identifies the rules a game was played under: a version and a digest.

``RULES_VERSION`` is bumped by hand whenever the rules' behaviour changes (not
when code is only refactored; pgx's meaning); :func:`rules_digest` hashes the
data files.  Both go into every run manifest, and golden traces fail when
behaviour moves without a bump.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pu_sim.rules.loading import DATA_DIR

RULES_VERSION = 3
"""Hand-bumped integer: the game's behaviour changed (pgx's meaning)."""


def rules_digest(data_dir: Path = DATA_DIR) -> str:
    """SHA-256 over the data files (names and contents), for manifests."""
    h = hashlib.sha256()
    for path in sorted(data_dir.glob("*.toml")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()
