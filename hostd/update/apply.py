"""``tablebox update``: check the feed, apply the newest release when the box is idle, roll back.

Owns the order of an update, each step refusing with one line and leaving the box as it was:
fetch the feed; download into a scratch folder; verify the signature and every checksum
(``verify``); install side by side (``install``); run ``tablebox doctor`` from the new
environment; check the schema rule (``info``); wait until no person is playing (the control
socket's ``tables.list``, then ``drain``); record the trial, switch the links (``switch``);
restart and watch (``rollback``), rolling back by itself with the reason.

One update at a time (a lock file in the releases folder). Talks only to the feed, the control
socket and the restart command. Never decides anything about a table.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hostd.update import UpdateError, feed, info, install, keys, rollback, switch, verify
from hostd.update.version import version as running_version

Say = rollback.Say


@dataclass(frozen=True)
class Options:
    releases: Path
    feed: str
    control: Path
    restart_command: str
    start_timeout: float = 90.0
    trial_window: float = 60.0
    config_file: Path | None = None  # handed to the new release's doctor
    wait: bool = True  # wait for idle (False: switch now, even mid-game)
    idle_timeout: float | None = None
    allow_irreversible: bool = False
    auto: bool = False  # started by the daemon: skip releases that were rolled back before
    poll: float = 1.0


def installed_version(releases: Path) -> str:
    """The version the box runs: the ``current`` link, else this process's own."""
    return switch.linked(releases, "current") or running_version()


def check(url: str, releases: Path) -> dict[str, Any]:
    """What ``update --check`` prints: installed, newest and its notes, whether it is newer."""
    found = feed.fetch(url)
    have = installed_version(releases)
    top = feed.newest(found)
    refused = switch.read_state(releases).get("refused") or {}
    return {"installed": have, "feed": url, "checked_at": time.time(),
            "newest": top.to_json() if top else None,
            "available": bool(top and feed.newer(top.version, have)),
            "refused": refused.get(top.version) if top else None}


@contextlib.contextmanager
def locked(releases: Path) -> Iterator[None]:
    try:
        releases.mkdir(parents=True, exist_ok=True)
        f = (releases / ".lock").open("a")
    except OSError as e:
        raise UpdateError(f"cannot write {releases}: {e.strerror} (run it as root?)") from None
    with f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UpdateError(f"another update is running on {releases}") from None
        yield


def _current_info(releases: Path) -> dict[str, Any]:
    cur = switch.linked(releases, "current")
    found = install.complete(releases / cur) if cur else None
    return found or info.describe()


def check_schema(current: dict[str, Any], new: dict[str, Any], allow: bool) -> None:
    lo, hi = new.get("reads", [new["schema"]] * 2)
    if not lo <= current["schema"] <= hi:
        raise UpdateError(f"refused: release {new['version']} cannot open this box's database "
                          f"(schema {current['schema']})")
    clo, chi = current.get("reads", [current["schema"]] * 2)
    if not clo <= new["schema"] <= chi and not allow:
        raise UpdateError(
            f"waiting for the operator: release {new['version']} migrates the database to "
            f"schema {new['schema']}, which {current['version']} cannot open, so it could not "
            "be rolled back; to go ahead: tablebox update --apply --allow-irreversible")


def run_doctor(folder: Path, config_file: Path | None) -> None:
    """``tablebox doctor`` from the new environment: it must run and every check must run."""
    cmd = [str(folder / "venv" / "bin" / "tablebox"), "doctor", "--json"]
    if config_file is not None:
        cmd += ["--config", str(config_file)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env,
                             check=False)
        report = json.loads(out.stdout)
    except (OSError, subprocess.TimeoutExpired, ValueError):
        raise UpdateError(f"refused: `tablebox doctor` does not run from {folder.name}") from None
    broken = [c["detail"] for c in report.get("checks", []) if c.get("name") == "doctor"]
    if broken:
        raise UpdateError(f"refused: the new release's doctor broke: {broken[0]}")


def wait_idle(opts: Options, say: Say) -> float:
    """Block until no person is playing, then drain; the seconds waited."""
    t0 = time.monotonic()
    told = False
    drained = False
    while True:
        try:
            tables = rollback.ask(opts.control, "tables.list")
        except Exception:  # no daemon: nobody is playing
            return time.monotonic() - t0
        busy = rollback.busy_tables(tables)
        if not busy and not drained:
            rollback.ask(opts.control, "drain", wait=False)  # no new joins from here on
            drained = True
            continue  # someone may have sat down just before the drain: look again
        if not busy:
            return time.monotonic() - t0
        if not told:
            say(f"waiting: a person is playing at table {', '.join(busy)}")
            told = True
        if opts.idle_timeout is not None and time.monotonic() - t0 > opts.idle_timeout:
            raise UpdateError(f"gave up after {opts.idle_timeout:g} s: people are still "
                              f"playing at table {', '.join(busy)}")
        time.sleep(opts.poll)


def _download_verified(release: feed.Release, scratch: Path) -> tuple[feed.Downloaded, str]:
    got = feed.download(release, scratch)
    digest = verify.check_release(got.wheel, got.sums, got.sig, keys.trusted())
    for extra in got.extra:
        verify.check_release(extra, got.sums, got.sig, keys.trusted())
    return got, digest


def apply(opts: Options, say: Say) -> dict[str, Any]:
    """Bring the box to the newest release; the report (``rolled_back`` says how it ended)."""
    timings: dict[str, float] = {}
    with locked(opts.releases):
        switch.tidy(opts.releases)
        t = time.perf_counter()
        found = feed.fetch(opts.feed)
        have = installed_version(opts.releases)
        release = feed.newest(found)
        if release is None or not feed.newer(release.version, have):
            return {"changed": False, "installed": have, "newest":
                    release.version if release else None}
        refused = (switch.read_state(opts.releases).get("refused") or {}).get(release.version)
        if refused and opts.auto:
            return {"changed": False, "installed": have, "newest": release.version,
                    "skipped": f"{release.version} was rolled back before: {refused['reason']}"}
        say(f"installed {have}; newest {release.version}: downloading")
        scratch = Path(tempfile.mkdtemp(prefix=".download-", dir=opts.releases))
        try:
            got, digest = _download_verified(release, scratch)
            timings["download_verify"] = time.perf_counter() - t
            t = time.perf_counter()
            folder, record = install.install(got.wheel, opts.releases, sha256=digest,
                                             find_links=scratch)
            timings["install"] = time.perf_counter() - t
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        switch.failpoint("installed")
        say(f"installed {release.version} in {folder} ({timings['install']:.1f} s)")
        t = time.perf_counter()
        run_doctor(folder, opts.config_file)
        timings["doctor"] = time.perf_counter() - t
        check_schema(_current_info(opts.releases), record, opts.allow_irreversible)
        timings["wait_idle"] = wait_idle(opts, say) if opts.wait else 0.0
        t = time.perf_counter()
        old = switch.linked(opts.releases, "current")
        switch.write_state(opts.releases, trial={"version": release.version, "from": old,
                                                 "since": time.time()})
        switch.failpoint("trial")
        switch.switch(opts.releases, release.version)
        if old is None:
            # The box's first release: nothing to roll back to, so the operator points the
            # service at it (docs/operations.md, "Updates") and starts it, not this run.
            switch.write_state(opts.releases, trial=None, last_update={
                "from": None, "to": release.version, "at": time.time()})
            return {"changed": True, "first": True, "from": have, "to": release.version,
                    "rolled_back": False, "running": have,
                    "seconds": {k: round(v, 2) for k, v in timings.items()}}
        say(f"switched to {release.version}; restarting")
        why = rollback.watch(opts.control, release.version, opts.restart_command,
                             opts.start_timeout, opts.trial_window, say)
        timings["switch_restart_trial"] = time.perf_counter() - t
        report: dict[str, Any] = {"changed": True, "from": old, "to": release.version,
                                  "seconds": {k: round(v, 2) for k, v in timings.items()}}
        if why:
            if old is None:
                raise UpdateError(f"release {release.version} {why}, and there is no previous "
                                  "release to go back to")
            now = rollback.roll_back(opts.releases, opts.control, release.version, why,
                                     opts.restart_command, opts.start_timeout, say)
            return {**report, "rolled_back": True, "running": now, "reason": why}
        switch.write_state(opts.releases, trial=None, last_update={
            "from": old, "to": release.version, "at": time.time()})
        switch.tidy(opts.releases)
        return {**report, "rolled_back": False, "running": release.version}


def roll_back_by_hand(opts: Options, say: Say) -> dict[str, Any]:
    with locked(opts.releases):
        prev = switch.linked(opts.releases, "previous")
        if prev is None:
            raise UpdateError("nothing to roll back to: no previous release is installed")
        if opts.wait:
            wait_idle(opts, say)
        was = switch.linked(opts.releases, "current")
        now = rollback.roll_back(opts.releases, opts.control, str(was), "rolled back by hand",
                                 opts.restart_command, opts.start_timeout, say, by_hand=True)
        return {"changed": True, "from": was, "to": now, "rolled_back": True}
