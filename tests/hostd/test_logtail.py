"""`tablebox logs`: reading back what the real pipeline wrote, filtering, and following a file
across rotations in a separate process."""

from __future__ import annotations

import io
import json
import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from hostd import logs, logtail
from hostd.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _reset() -> Iterator[None]:
    yield
    logs.reset()


def _write_log(path: Path, n: int = 40, file_bytes: int = 64 * 1024) -> None:
    logs.configure("debug", mode="json", stream=io.StringIO(), file=path,
                   file_bytes=file_bytes, file_backups=5)
    log = logs.get_logger("hostd.tables")
    for i in range(n):
        table = "t1" if i % 2 else "t2"
        level = ("debug", "info", "warning", "error")[i % 4]
        getattr(log, level)("step_committed", table=table, n=i, pad="x" * 3000)


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _json_lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line]


def test_reads_every_rotated_file_in_order(tmp_path: Path) -> None:
    path = tmp_path / "tablebox.log"
    _write_log(path)
    assert len(logtail.log_files(path)) > 1  # the events span rotated backups
    code, out = _cli("logs", "--file", str(path), "--json")
    assert code == 0
    assert [e["n"] for e in _json_lines(out)] == list(range(40))


def test_filters_by_table_level_and_since(tmp_path: Path) -> None:
    path = tmp_path / "tablebox.log"
    _write_log(path, n=20)
    code, out = _cli("logs", "--file", str(path), "--json", "--table", "t1", "--level",
                     "warning")
    assert code == 0
    got = _json_lines(out)
    assert got and all(e["table"] == "t1" and e["level"] in ("warning", "error") for e in got)
    assert [e["n"] for e in got] == [n for n in range(20) if n % 2 and n % 4 in (2, 3)]

    boundary = datetime.now(UTC)
    time.sleep(0.01)
    logs.get_logger("x").info("late_event", table="t9")
    code, out = _cli("logs", "--file", str(path), "--json", "--since", boundary.isoformat())
    assert code == 0
    assert [e["event"] for e in _json_lines(out)] == ["late_event"]
    code, out = _cli("logs", "--file", str(path), "--json", "--since", "1m", "--table", "t9")
    assert [e["event"] for e in _json_lines(out)] == ["late_event"]


def test_pretty_by_default(tmp_path: Path) -> None:
    path = tmp_path / "tablebox.log"
    _write_log(path, n=4)
    code, out = _cli("logs", "--file", str(path), "--level", "error")
    assert code == 0
    (line,) = out.splitlines()
    assert "step_committed" in line and "table=t1" in line and "[error" in line
    assert not line.startswith("{")
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", line)  # local time, to the second


def test_a_line_that_is_not_json_is_still_shown(tmp_path: Path) -> None:
    path = tmp_path / "tablebox.log"
    path.write_text('Traceback (most recent call last):\n{"event":"x_done","level":"info"}\n')
    code, out = _cli("logs", "--file", str(path), "--json")
    assert code == 0
    assert [e["event"] for e in _json_lines(out)] == [
        "Traceback (most recent call last):", "x_done"]


def test_bad_since_and_missing_file_are_one_line(tmp_path: Path) -> None:
    code, out = _cli("logs", "--file", str(tmp_path / "t.log"), "--since", "last tuesday")
    assert code == 1 and "--since 'last tuesday': use an ISO time" in out
    code, out = _cli("logs", "--file", str(tmp_path / "t.log"))
    assert code == 1 and "no log at" in out and "Traceback" not in out


def test_parse_since() -> None:
    now = datetime(2025, 5, 1, 18, 30, tzinfo=UTC)
    assert logtail.parse_since("90s", now) == now - timedelta(seconds=90)
    assert logtail.parse_since("2h", now) == now - timedelta(hours=2)
    assert logtail.parse_since("3d", now) == now - timedelta(days=3)
    assert logtail.parse_since("2025-05-01T12:00:00+02:00", now) == datetime(
        2025, 5, 1, 10, tzinfo=UTC)
    naive = logtail.parse_since("2025-05-01 12:00", now)
    assert naive.tzinfo is not None and naive.replace(tzinfo=None) == datetime(2025, 5, 1, 12)
    today = logtail.parse_since("today", now)
    assert today <= now and (today.hour, today.minute) == (0, 0)
    assert logtail.parse_since("yesterday", now) == today - timedelta(days=1)
    with pytest.raises(ValueError, match="a span back from now"):
        logtail.parse_since("soon", now)


def test_journal_entries_become_events() -> None:
    ours = {"MESSAGE": '{"timestamp":"2025-05-01T18:30:00Z","level":"warning",'
                       '"event":"seat_dropped","table":"t1"}', "PRIORITY": "4"}
    assert logtail.from_journal(ours)["event"] == "seat_dropped"
    systemd = {"MESSAGE": "Started tablebox.service - tablebox.", "PRIORITY": "6",
               "__REALTIME_TIMESTAMP": "1746124200000000", "SYSLOG_IDENTIFIER": "systemd"}
    event = logtail.from_journal(systemd)
    assert event == {"timestamp": "2025-05-01T18:30:00Z", "level": "info",
                     "event": "Started tablebox.service - tablebox.", "logger": "systemd"}
    crash = {"MESSAGE": list(b"Fatal Python error: \xff"), "PRIORITY": "3"}
    event = logtail.from_journal(crash)
    assert event["level"] == "error" and event["event"].startswith("Fatal Python error")
    assert logtail.Filter(level="error").matches(event)
    assert not logtail.Filter(since=datetime(2030, 1, 1, tzinfo=UTC)).matches(event)


def _readline(proc: subprocess.Popen[bytes], timeout: float = 10.0) -> dict:
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    buf = b""
    deadline = time.monotonic() + timeout
    while not buf.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        assert ready, f"no line within {timeout}s (got {buf!r})"
        chunk = os.read(fd, 1)
        assert chunk, "the follower exited"
        buf += chunk
    return json.loads(buf)


def test_follow_across_rotation(tmp_path: Path) -> None:
    path = tmp_path / "tablebox.log"
    logs.configure("info", mode="json", stream=io.StringIO(), file=path,
                   file_bytes=64 * 1024, file_backups=3)
    log = logs.get_logger("x")
    log.info("before_follow", n=-1)
    with subprocess.Popen(
            [sys.executable, "-m", "hostd.cli", "logs", "-f", "--json", "--file", str(path)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        try:
            assert _readline(proc)["event"] == "before_follow"
            seen = []
            for i in range(16):  # ~9 KB each: rotates at 64 KiB, twice
                log.info("followed", n=i, pad="y" * 9000)
                seen.append(_readline(proc)["n"])
            assert seen == list(range(16))
            assert (tmp_path / "tablebox.log.2").exists()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
