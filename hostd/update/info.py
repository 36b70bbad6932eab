"""What a release is, as the release itself says it: ``python -m hostd.update.info`` prints
``{"version", "schema", "reads"}`` as one JSON line.

Owns the per-release schema record: ``schema`` is the database schema this release migrates
to when it starts; ``reads`` is the inclusive range of schemas its store can open. The updater
switches to a new release only if the current one could still open the new one's database
(``new.schema`` within ``current.reads``): a migration that cannot be rolled back waits for the
operator. Must never migrate, open the database or touch the network.
"""

from __future__ import annotations

import json
from typing import Any

from hostd.store import SCHEMA_VERSION
from hostd.update.version import version

SCHEMA = SCHEMA_VERSION
# The store opens only its own schema today; a release whose store learns to open the next one
# (say, an added column it ignores) widens this, which is what makes that migration reversible.
READS = (SCHEMA_VERSION, SCHEMA_VERSION)


def describe() -> dict[str, Any]:
    return {"version": version(), "schema": SCHEMA, "reads": list(READS)}


if __name__ == "__main__":
    print(json.dumps(describe()))
