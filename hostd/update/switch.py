"""The ``current`` and ``previous`` links of the releases folder, and ``state.json`` beside them.

Owns the one operation that changes which release the box runs: a link is replaced by making
the new symlink under a temporary name and ``os.replace``-ing it over the old one, then
syncing the folder, so at every instant (a ``kill -9`` or a power cut included) ``current``
names exactly one complete release. ``previous`` is moved first, so it never loses the release
that ran before. ``state.json`` records the trial of a newly switched release, the last
rollback and the versions refused, so the daemon's task does not retry a release that failed.

Only ever points a link at a folder whose ``RELEASE.json`` exists. Never installs, never
restarts, never deletes the release that ``current`` or ``previous`` names.

``$TABLEBOX_UPDATE_KILL_AT`` (tests only) names a step at which this process kills itself
with SIGKILL, to show that every step leaves a box that starts.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import time
from pathlib import Path
from typing import Any

from hostd.update import UpdateError
from hostd.update.install import _write_json, complete, folder

STATE = "state.json"
LINKS = ("current", "previous")
KILL_ENV = "TABLEBOX_UPDATE_KILL_AT"


def failpoint(step: str) -> None:
    if os.environ.get(KILL_ENV) == step:
        os.kill(os.getpid(), signal.SIGKILL)


def linked(releases: Path, name: str) -> str | None:
    """The version ``name`` ("current" or "previous") points at, if it is a complete release."""
    try:
        target = os.readlink(releases / name)
    except OSError:
        return None
    version = Path(target).name
    return version if complete(releases / version) is not None else None


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def point(releases: Path, name: str, version: str) -> None:
    """Atomically make link ``name`` point at release ``version`` (relative, so the folder
    can move)."""
    if complete(folder(releases, version)) is None:
        raise UpdateError(f"release {version} is not completely installed")
    tmp = releases / f".{name}.tmp"
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    os.symlink(version, tmp)
    failpoint(f"{name}-tmp")
    os.replace(tmp, releases / name)
    _fsync_dir(releases)
    failpoint(name)


def switch(releases: Path, new: str) -> str | None:
    """Make ``new`` current and the old current previous; the old current version."""
    old = linked(releases, "current")
    if old == new:
        return old
    if old is not None:
        point(releases, "previous", old)
    point(releases, "current", new)
    return old


def swap(releases: Path) -> tuple[str, str]:
    """Roll back: ``previous`` becomes ``current`` and the other way round; (now, was)."""
    cur, prev = linked(releases, "current"), linked(releases, "previous")
    if prev is None or cur is None:
        raise UpdateError("nothing to roll back to: no previous release is installed")
    point(releases, "current", prev)
    point(releases, "previous", cur)
    return prev, cur


# -- state.json ---------------------------------------------------------------------------------
def read_state(releases: Path) -> dict[str, Any]:
    try:
        data = json.loads((releases / STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_state(releases: Path, **changes: Any) -> dict[str, Any]:
    state = {**read_state(releases), **changes}
    _write_json(releases / STATE, state)
    return state


def refuse(releases: Path, version: str, reason: str) -> None:
    """Remember that ``version`` failed, so that automatic updates skip it."""
    state = read_state(releases)
    refused = dict(state.get("refused") or {})
    refused[version] = {"reason": reason, "at": time.time()}
    write_state(releases, refused=refused)


def installed(releases: Path) -> list[str]:
    if not releases.is_dir():
        return []
    return sorted(p.name for p in releases.iterdir()
                  if p.is_dir() and not p.is_symlink() and complete(p) is not None)


def tidy(releases: Path, keep: int = 3) -> list[str]:
    """Remove unfinished installs, stray temporary links, and complete releases beyond the
    newest ``keep`` (never ``current`` or ``previous``); the folders removed."""
    removed: list[str] = []
    if not releases.is_dir():
        return removed
    for name in LINKS:
        with contextlib.suppress(FileNotFoundError):
            (releases / f".{name}.tmp").unlink()
    pinned = {linked(releases, n) for n in LINKS} - {None}
    done = []
    for p in releases.iterdir():
        if p.is_symlink() or not p.is_dir() or p.name.startswith("."):
            continue
        info = complete(p)
        if info is None:
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p.name)
        elif p.name not in pinned:
            done.append((float(info.get("installed_at", 0)), p))
    spare = max(0, keep - len(pinned))
    for _, p in sorted(done, reverse=True)[spare:]:
        shutil.rmtree(p, ignore_errors=True)
        removed.append(p.name)
    return removed
