"""After a switch: restart the service, watch the new release come up, and undo it if not.

Owns the restart (an operator-configured command, ``systemctl restart tablebox`` by default,
which for a ``Type=notify`` unit returns once the new process said READY=1 or failed), the
readiness check (the control socket answers ``status`` with the new version), the trial
window (the same process must still answer when the window ends; a new pid means it died and
was restarted) and the rollback itself: swap the links back, remember the version as refused
with its reason, restart again, and check the old release came back.

Never installs, never downloads; speaks only to the control socket and the restart command.
"""

from __future__ import annotations

import shlex
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hostd.update import UpdateError, switch

Say = Callable[[str], None]


def busy_tables(tables: list[dict[str, Any]]) -> list[str]:
    """Ids of the tables where a person sits, connected, in a game being played."""
    return [str(t["id"]) for t in tables if t.get("status") == "playing" and any(
        s.get("controller") == "human" and s.get("connected") and not s.get("covered")
        for s in t.get("seats") or [])]


def ask(control: Path, op: str, timeout: float = 5.0, **args: Any) -> Any:
    from hostd.control import request

    return request(control, op, timeout=timeout, **args)


def status(control: Path) -> dict[str, Any] | None:
    from hostd.control import ControlError

    try:
        found = ask(control, "status")
    except (ControlError, OSError, ValueError):
        return None
    return found if isinstance(found, dict) else None


def restart(command: str, timeout: float) -> str:
    """Run the restart command; "" on success, else why it failed (one line)."""
    argv = shlex.split(command)
    if not argv:
        return "no restart command is configured (update_restart_command)"
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError:
        return f"{argv[0]} is not installed"
    except subprocess.TimeoutExpired:
        return f"`{command}` did not finish within {timeout:.0f} s"
    if out.returncode != 0:
        lines = (out.stderr or out.stdout).strip().splitlines()
        return f"`{command}` failed: {lines[-1] if lines else f'exit {out.returncode}'}"
    return ""


def wait_up(control: Path, version: str, timeout: float) -> dict[str, Any] | None:
    """The status of a daemon of ``version`` once it answers, or None after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        s = status(control)
        if s is not None and s.get("version") == version:
            return s
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.1)


def trial(control: Path, pid: int, window: float) -> str:
    """Watch the daemon ``pid`` for ``window`` seconds; "" if it lasted, else why not."""
    deadline = time.monotonic() + window
    while True:
        s = status(control)
        if s is not None and s.get("pid") != pid:
            return f"exited within {window:g} s of its start (it was restarted as pid {s.get('pid')})"
        if time.monotonic() >= deadline:
            if s is None:
                return f"exited within {window:g} s of its start (the control socket is gone)"
            return ""
        time.sleep(0.2)


def watch(control: Path, version: str, restart_command: str, start_timeout: float,
          window: float, say: Say) -> str:
    """Restart into ``version`` and watch it; "" when it is up and stayed up, else why not."""
    why = restart(restart_command, start_timeout + 30)
    switch.failpoint("restarted")
    if why:
        return why
    s = wait_up(control, version, start_timeout)
    if s is None:
        return f"did not report ready within {start_timeout:g} s"
    say(f"release {version} is up (pid {s.get('pid')}); watching it for {window:g} s")
    return trial(control, int(s.get("pid") or 0), window)


def roll_back(releases: Path, control: Path, failed: str, reason: str, restart_command: str,
              start_timeout: float, say: Say, by_hand: bool = False) -> str:
    """Switch back to the previous release and restart it; the version running now."""
    now, was = switch.swap(releases)
    if not by_hand:
        switch.refuse(releases, failed, reason)
    switch.write_state(releases, trial=None, last_rollback={
        "from": was, "to": now, "reason": reason, "at": time.time(), "by_hand": by_hand})
    say(f"rolling back to {now}: release {was} {reason}")
    why = restart(restart_command, start_timeout + 30)
    if why:
        raise UpdateError(f"rolled back the links to {now}, but the restart failed: {why}")
    if wait_up(control, now, start_timeout) is None:
        raise UpdateError(f"rolled back to {now}, but it did not report ready within "
                          f"{start_timeout:g} s either: see the service's log")
    return now
