"""The version of the tablebox that is running, read once from its installed metadata.

Owns only that string. It is sent in the welcome (clients reload the web page when it changes)
and in the control socket's status (the updater checks that a restart brought the new
release up). Must never import anything heavy: the protocol session imports it.
"""

from __future__ import annotations

import functools
from importlib import metadata


@functools.cache
def version() -> str:
    try:
        return metadata.version("tablebox")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0+unknown"
