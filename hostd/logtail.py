"""Reading the structured log back for ``tablebox logs``: sources, filters, follow.

Owns where the log is read from (the journal through ``journalctl -o json`` when the service
is installed under systemd, else the rotated JSON file that ``hostd.logs`` writes), turning
each entry into one event dict (the daemon's JSON, or a stand-in for a line that is not, such
as systemd's own "Started ..." or a crash before logging was up), and which events an
operator asked for (``--table``, ``--level``, ``--since``).

It only reads: never writes, truncates or rotates a log, and never shows more than the log
already holds (redaction happened when the event was written).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

UNIT = "tablebox.service"
LEVEL_ORDER = {"debug": 0, "info": 1, "warning": 2, "error": 3, "critical": 4}
# journald PRIORITY (syslog) back to our level names
PRIORITY_LEVEL = {0: "critical", 1: "critical", 2: "critical", 3: "error", 4: "warning",
                  5: "info", 6: "info", 7: "debug"}
SINCE_HELP = ('an ISO time ("2025-05-01 18:30", local unless it has an offset), a span back '
              'from now ("90s", "10m", "2h", "3d"), "today" or "yesterday"')
_SPAN = re.compile(r"(\d+)\s*([smhd])")
_SPAN_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}


def parse_since(text: str, now: datetime | None = None) -> datetime:
    """An aware datetime for ``--since``; ValueError names the forms allowed."""
    now = now or datetime.now(UTC)
    t = text.strip().lower()
    local_now = now.astimezone()
    midnight = local_now.replace(hour=0, minute=0, second=0, microsecond=0)
    if t == "today":
        return midnight
    if t == "yesterday":
        return midnight - timedelta(days=1)
    span = _SPAN.fullmatch(t)
    if span:
        return now - timedelta(**{_SPAN_UNITS[span.group(2)]: int(span.group(1))})
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--since {text!r}: use {SINCE_HELP}") from None
    return when.astimezone() if when.tzinfo is None else when


def event_time(event: dict[str, Any]) -> datetime | None:
    ts = event.get("timestamp")
    if not isinstance(ts, str):
        return None
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00"))
    except ValueError:
        return None


@dataclass(frozen=True)
class Filter:
    table: str | None = None
    level: str | None = None  # the least severe level shown
    since: datetime | None = None

    def matches(self, event: dict[str, Any]) -> bool:
        if self.table is not None and str(event.get("table", "")) != self.table:
            return False
        if self.level is not None:
            have = LEVEL_ORDER.get(str(event.get("level", "info")), 1)
            if have < LEVEL_ORDER[self.level]:
                return False
        if self.since is not None:
            when = event_time(event)
            if when is None or when < self.since:
                return False
        return True


def _stand_in(text: str, level: str = "info", timestamp: str | None = None,
              logger: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"timestamp": timestamp, "level": level, "event": text}
    if logger:
        event["logger"] = logger
    return event


def parse_line(line: str) -> dict[str, Any] | None:
    """A line of the log file as an event (None for a blank line)."""
    line = line.strip()
    if not line:
        return None
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        return _stand_in(line)
    return event if isinstance(event, dict) else _stand_in(line)


def from_journal(entry: dict[str, Any]) -> dict[str, Any]:
    """A ``journalctl -o json`` entry as an event: our JSON line, or a stand-in for others."""
    message = entry.get("MESSAGE", "")
    if isinstance(message, list):  # journald gives non-UTF-8 messages as a byte array
        message = bytes(b & 0xFF for b in message if isinstance(b, int)).decode("utf-8",
                                                                                 "replace")
    message = str(message)
    if message.startswith("{"):
        try:
            event = json.loads(message)
            if isinstance(event, dict):
                return event
        except json.JSONDecodeError:
            pass
    try:
        level = PRIORITY_LEVEL[int(entry.get("PRIORITY", 6))]
    except (ValueError, KeyError):
        level = "info"
    timestamp = None
    try:
        usec = int(entry["__REALTIME_TIMESTAMP"])
        timestamp = datetime.fromtimestamp(usec / 1e6, UTC).isoformat().replace("+00:00", "Z")
    except (KeyError, ValueError):
        pass
    return _stand_in(message, level, timestamp, entry.get("SYSLOG_IDENTIFIER") or "systemd")


# -- sources ----------------------------------------------------------------------------------------
def service_in_journal() -> bool:
    """The service is installed under a running systemd, so its log is the journal."""
    if not Path("/run/systemd/system").is_dir() or not shutil.which("journalctl"):
        return False
    if not shutil.which("systemctl"):
        return False
    out = subprocess.run(["systemctl", "show", "--property=LoadState", "--value", UNIT],
                         capture_output=True, text=True, check=False, timeout=10)
    return out.stdout.strip() == "loaded"


def read_journal(follow: bool, since: datetime | None) -> Iterator[dict[str, Any]]:
    cmd = ["journalctl", "--unit", UNIT, "--output", "json", "--no-pager", "--quiet"]
    if since is not None:
        cmd.append(f"--since=@{int(since.timestamp())}")
    if follow:
        cmd.append("--follow")
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, encoding="utf-8",
                          errors="replace") as proc:
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                try:
                    entry = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if isinstance(entry, dict):
                    yield from_journal(entry)
        finally:
            proc.terminate()


def log_files(path: Path) -> list[Path]:
    """The current file and its rotated backups, oldest first."""
    backups = []
    for p in path.parent.glob(path.name + ".*"):
        suffix = p.name[len(path.name) + 1:]
        if suffix.isdigit():
            backups.append((int(suffix), p))
    return [p for _, p in sorted(backups, reverse=True)] + ([path] if path.exists() else [])


def read_file(path: Path, follow: bool, poll: float = 0.2,
              stop: Callable[[], bool] = lambda: False) -> Iterator[dict[str, Any]]:
    """Every event in the file and its backups; with ``follow``, then new ones as they come,
    across rotations (the file is renamed away and a new one begins)."""
    files = log_files(path)
    for p in files[:-1] if path.exists() else files:
        yield from _events(p)
    if not follow:
        if path.exists():
            yield from _events(path)
        return
    current: IO[str] | None = None
    inode = None
    pending = ""
    while not stop():
        if current is not None:
            chunk = current.read()
            if chunk:
                pending += chunk
                *complete, pending = pending.split("\n")
                for line in complete:
                    event = parse_line(line)
                    if event is not None:
                        yield event
                continue
        try:
            st: os.stat_result | None = path.stat()
        except FileNotFoundError:
            st = None
        if st is not None and (current is None or st.st_ino != inode):
            # new or rotated: the old file was read to its end above; go on with the new one
            if current is not None:
                current.close()
            current = path.open(encoding="utf-8", errors="replace")
            inode = os.fstat(current.fileno()).st_ino
            pending = ""
            continue
        time.sleep(poll)
    if current is not None:
        current.close()


def _events(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8", errors="replace") as f:
        for line in f:
            event = parse_line(line)
            if event is not None:
                yield event
