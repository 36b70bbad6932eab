"""The daemon's side of updates: a trio task that checks the feed on a clock.

With ``update = "check"`` it fetches the feed at start and every ``update_interval`` seconds,
logs ``update_available`` when a newer release is listed, and keeps the last result on the hub
(``status`` shows it, so ``tablebox doctor`` does). With ``update = "apply-when-idle"`` it also
waits, once a newer release is there, until no person is playing, and then runs
``update_apply_command``: the updater runs OUTSIDE the daemon (under systemd, its own unit),
because it must outlive the restart it causes and watch the new release come up.

Never installs, switches or restarts anything itself; talks only to the feed URL, and not even
there when the build trusts no release key; a failure is
logged and retried at the next tick, never raised into the daemon.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from typing import Any

import msgspec
import trio

from hostd.config import Config
from hostd.logs import get_logger
from hostd.update import UpdateError, apply, keys, rollback

log = get_logger(__name__)


def _check(config: Config) -> dict[str, Any]:
    try:
        return apply.check(config.update_feed, config.releases_dir)
    except UpdateError as e:
        return {"feed": config.update_feed, "checked_at": time.time(), "error": str(e)}


def _idle(hub: Any) -> bool:
    tables = [msgspec.to_builtins(t) for t in hub.list_tables()]
    return not rollback.busy_tables(tables)


def _launch(command: str) -> None:
    # A session of its own: the updater must not die with the daemon it restarts.
    subprocess.Popen(shlex.split(command), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


async def run_updates(config: Config, hub: Any, *,
                      task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
    task_status.started()
    if config.update == "off":
        return
    try:
        has_key = bool(keys.trusted())
    except UpdateError:
        has_key = False
    if not has_key:
        # No release key in this build (or a broken override): every release would be refused,
        # so asking the feed would only send traffic for nothing. Say so once.
        log.warning("updates_unavailable", reason="no trusted release key in this build")
        hub.update_check = {"feed": config.update_feed, "error": "no trusted release key"}
        return
    launched: set[str] = set()
    # Not at the very start: a box restarting in a loop must not hammer the feed.
    await trio.sleep(min(60.0, config.update_interval))
    while True:
        result = await trio.to_thread.run_sync(_check, config)
        hub.update_check = result
        newest = (result.get("newest") or {}).get("version")
        if result.get("error"):
            log.warning("update_check_failed", error=result["error"])
        elif result.get("available"):
            log.info("update_available", installed=result["installed"], newest=newest)
        if (config.update == "apply-when-idle" and result.get("available")
                and not result.get("refused") and newest not in launched):
            while not _idle(hub):
                await trio.sleep(5.0)
            log.info("update_apply_started", newest=newest, command=config.update_apply_command)
            try:
                await trio.to_thread.run_sync(_launch, config.update_apply_command)
                launched.add(str(newest))
            except OSError as e:
                log.warning("update_apply_failed", error=str(e))
        await trio.sleep(config.update_interval)
