"""Over-the-air updates: signed releases from a feed, installed side by side, switched when idle.

The pieces, each in its own module and each owning one thing:

- ``version``: the running release's version (cheap: the wire and the status use it).
- ``keys``: the release public keys this build trusts.
- ``verify``: SHA256SUMS and its detached Ed25519 signature (checking, and signing for
  maintainers).
- ``feed``: reading a releases feed (the common code-hosting releases API shape) and
  downloading a release's assets.
- ``install``: a verified wheel into its own versioned folder with its own venv.
- ``switch``: the ``current`` and ``previous`` links and the record of what is on trial.
- ``rollback``: watching a restarted release and switching back when it fails.
- ``apply``: the whole ``tablebox update`` flow that ties them together.
- ``task``: the daemon's daily check (and, with ``update = "apply-when-idle"``, the trigger).

Nothing in this package decides anything about a table; it only asks the daemon, over the
control socket, whether anyone is playing.
"""

from __future__ import annotations


class UpdateError(Exception):
    """An update cannot go on; ``str(e)`` is one line for a person, and nothing was changed
    that a later run cannot finish or undo."""
