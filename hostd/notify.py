"""sd_notify in a few lines: READY, STATUS, WATCHDOG, STOPPING to systemd's notify socket.

One datagram per call to ``$NOTIFY_SOCKET`` (a leading ``@`` is the abstract namespace).
Without the variable (not under systemd) every call does nothing. Never raises: a lost
notification must not take the daemon down.
"""

from __future__ import annotations

import os
import socket


def notify(*fields: str, environ: dict[str, str] | None = None) -> bool:
    """Send ``fields`` ("READY=1", ...) as one message; True if a datagram was sent."""
    env = os.environ if environ is None else environ
    path = env.get("NOTIFY_SOCKET")
    if not path or not fields:
        return False
    address = "\0" + path[1:] if path.startswith("@") else path
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
            s.connect(address)
            s.sendall("\n".join(fields).encode("utf-8"))
    except OSError:
        return False
    return True


def ready(status: str = "") -> bool:
    return notify("READY=1", *([f"STATUS={status}"] if status else []))


def status(text: str) -> bool:
    return notify(f"STATUS={text}")


def watchdog() -> bool:
    return notify("WATCHDOG=1")


def stopping(status: str = "") -> bool:
    return notify("STOPPING=1", *([f"STATUS={status}"] if status else []))


def watchdog_interval(environ: dict[str, str] | None = None) -> float | None:
    """Seconds between WATCHDOG=1 pings (half of WATCHDOG_USEC), or None when not asked."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC")
    pid = env.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return max(0.5, int(usec) / 2_000_000)
    except ValueError:
        return None
