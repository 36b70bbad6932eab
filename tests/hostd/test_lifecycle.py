"""The daemon's life as systemd sees it: `tablebox serve` in a subprocess on loopback ports,
with a real notify socket, stdout connected "to the journal", and a config file in its
ConfigurationDirectory.

Checks READY only once the listeners answer, WATCHDOG pings and STATUS from the event loop,
SIGTERM: STOPPING, every client told `bye` (bye.restarting), exit 0 well inside the unit's
TimeoutStopSec; one JSON line per event with a syslog priority and no token anywhere in the
output or the log file; and after the restart the same seat resumes with its token.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hostd import config as cfg
from hostd import doctor, service
from hostd.control import request
from tests.hostd.helpers import LAUNCH, ROOT, short_dir


@dataclass
class Boot:
    proc: subprocess.Popen[bytes]
    notify: socket.socket
    out: list[bytes] = field(default_factory=list)
    reader: threading.Thread | None = None
    messages: list[str] = field(default_factory=list)

    def datagram(self, want: str, timeout: float) -> str:
        """The next notify message containing ``want`` (all are kept in ``messages``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {want!r} in {timeout}s; got {self.messages}")
            self.notify.settimeout(left)
            try:
                msg = self.notify.recv(4096).decode()
            except TimeoutError:
                continue
            self.messages.append(msg)
            if want in msg.split("\n") or any(f.startswith(want) for f in msg.split("\n")):
                return msg

    def stdout(self) -> str:
        assert self.reader is not None
        self.reader.join(timeout=10)
        return b"".join(self.out).decode("utf-8", "replace")


@pytest.fixture
def workdir() -> Iterator[Path]:
    d = short_dir()  # Unix socket paths must stay under 108 bytes
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def boot(d: Path, tag: str) -> Boot:
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(d / f"notify-{tag}"))
    r, w = os.pipe()
    st = os.fstat(w)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NOTIFY_SOCKET": str(d / f"notify-{tag}"),
           "JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}", "WATCHDOG_USEC": "1000000",
           "CONFIGURATION_DIRECTORY": str(d / "etc"), "INVOCATION_ID": "0" * 32}
    args = [sys.executable, "-c", LAUNCH, "serve", "--bind", "127.0.0.1", "--tcp-port", "0",
            "--http-port", "0", "--data-dir", str(d / "data"), "--control", str(d / "c.sock"),
            "--no-mdns", "--no-bluetooth"]
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=w, stderr=w)
    os.close(w)
    b = Boot(proc, notify)

    def drain() -> None:
        with os.fdopen(r, "rb") as f:
            for chunk in iter(lambda: f.read(4096), b""):
                b.out.append(chunk)

    b.reader = threading.Thread(target=drain, daemon=True)
    b.reader.start()
    return b


def stop(b: Boot) -> None:
    if b.proc.poll() is None:
        b.proc.kill()
        b.proc.wait(10)
    b.notify.close()


class Line:
    """A blocking NDJSON client on TCP."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""

    def send(self, **msg: Any) -> None:
        self.sock.sendall(json.dumps(msg).encode() + b"\n")

    def recv(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                msg = json.loads(line)
                if msg["type"] == kind:
                    return msg
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError(f"closed before a {kind!r}")
            self.buf += chunk

    def close(self) -> None:
        self.sock.close()


def test_sigterm_the_instant_ready_arrives_is_a_clean_stop(workdir: Path) -> None:
    """systemd may stop a unit the moment it is READY: the signal must find the daemon's own
    handler (STOPPING, exit 0), not Python's default one (killed by the signal)."""
    (workdir / "etc").mkdir()
    (workdir / "etc" / "config.toml").write_text("ai_speed = 0\n")
    b = boot(workdir, "r")
    try:
        b.datagram("READY=1", timeout=60)
        b.proc.send_signal(signal.SIGTERM)
        code = b.proc.wait(timeout=service.STOP_TIMEOUT)
        assert code == 0, (code, b.stdout()[-2000:])
        b.datagram("STOPPING=1", timeout=5)
    finally:
        stop(b)


def test_ready_watchdog_sigterm_bye_and_resume(workdir: Path) -> None:
    (workdir / "etc").mkdir()
    (workdir / "etc" / "config.toml").write_text('box_name = "Lifecycle"\nai_speed = 0\n'
                                                 "grace_seconds = 30\n")
    first = boot(workdir, "1")
    try:
        ready = first.datagram("READY=1", timeout=60)
        # READY means every listener is up: the control socket and TCP answer at once
        status = request(workdir / "c.sock", "status", timeout=5)
        assert status["box"] == "Lifecycle"  # read from the ConfigurationDirectory file
        assert "STATUS=" in ready and "tables" in ready and "connections" in ready
        tcp_port = int(status["listening"]["tcp"]["port"])
        table = request(workdir / "c.sock", "tables.new", game="toy", players=2)
        client = Line(tcp_port)
        client.send(type="hello", client="lifecycle-test")
        assert client.recv("welcome")["box"] == "Lifecycle"
        client.send(type="join", code=table["code"], name="Ana")
        joined = client.recv("joined")
        token, seat = joined["token"], joined["seat"]
        client.recv("state")

        # the event loop pings the watchdog (WATCHDOG_USEC=1s: every half second)
        first.datagram("WATCHDOG=1", timeout=5)
        first.datagram("WATCHDOG=1", timeout=5)
        status_line = first.datagram("STATUS=", timeout=10)
        assert re.search(r"\d+ tables? playing", status_line) and "1 connections" in (
            status_line + "".join(first.messages))

        # a drain shows in the status systemd displays
        request(workdir / "c.sock", "drain", wait=False)
        assert first.datagram("STATUS=draining:", timeout=5).startswith("STATUS=draining: 1 tables")

        # while it runs: doctor sees its ports as ours and a sound database
        loaded = cfg.load(flags={"bind": "127.0.0.1", "tcp_port": tcp_port, "http_port": 0,
                                 "data_dir": workdir / "data", "control": workdir / "c.sock",
                                 "mdns": False, "bluetooth": False}, environ={})
        checks = {c.name: c for c in doctor.diagnose(loaded)}
        assert checks["daemon"].status == "ok" and "1 connections" in checks["daemon"].detail
        assert checks["TCP port"].detail == f"{tcp_port} is held by the running tablebox daemon"
        assert checks["database"].status == "ok", checks["database"]

        t0 = time.monotonic()
        first.proc.send_signal(signal.SIGTERM)
        first.datagram("STOPPING=1", timeout=10)
        bye = client.recv("bye", timeout=service.STOP_TIMEOUT)
        assert bye["reason"]["key"] == "bye.restarting"
        code = first.proc.wait(timeout=service.STOP_TIMEOUT)
        took = time.monotonic() - t0
        client.close()
        assert code == 0
        assert took < service.STOP_TIMEOUT / 2, f"stopping took {took:.1f}s"
    finally:
        stop(first)

    out = first.stdout()
    events = []
    for line in out.splitlines():
        if line.startswith("tablebox: "):  # the CLI's own start-up notes
            continue
        m = re.fullmatch(r"<([0-7])>(\{.*\})", line)
        assert m, f"not a journal line: {line!r}"
        event = json.loads(m.group(2))
        assert {"timestamp", "level", "event"} <= set(event)
        assert int(m.group(1)) == {"debug": 7, "info": 6, "warning": 4, "error": 3,
                                   "critical": 2}[event["level"]]
        events.append(event["event"])
    assert events[0] == "config_loaded" and "config.toml" in out.split("\n", 1)[0]
    assert "daemon_ready" in events and "daemon_stopped" in events
    log_file = (workdir / "data" / "tablebox.log").read_text()
    assert "daemon_stopped" in log_file
    assert token not in out and token not in log_file

    # after the restart the same person comes back to the same seat with the token
    second = boot(workdir, "2")
    try:
        second.datagram("READY=1", timeout=60)
        status = request(workdir / "c.sock", "status", timeout=5)
        assert status["restored"] >= 1
        client = Line(int(status["listening"]["tcp"]["port"]))
        client.send(type="hello")
        client.recv("welcome")
        client.send(type="resume", token=token)
        again = client.recv("joined")
        assert (again["table"], again["seat"]) == (joined["table"], seat)
        assert client.recv("state")["table"] == joined["table"]
        client.close()
        second.proc.send_signal(signal.SIGTERM)
        assert second.proc.wait(timeout=service.STOP_TIMEOUT) == 0
    finally:
        stop(second)


@pytest.mark.parametrize(("text", "key"), [
    ("tcp_port = 70000\n", "tcp_port must be an integer 0-65535"),
    ('log_level = "loud"\n', "log_level must be one of"),
    ('bind = "box.local"\n', "bind must be an IP address"),
    ("tcp_prot = 1\n", "unknown key 'tcp_prot' (did you mean 'tcp_port'?)"),
])
def test_a_bad_config_stops_start_up_with_one_line(workdir: Path, text: str, key: str) -> None:
    (workdir / "etc").mkdir()
    (workdir / "etc" / "config.toml").write_text(text)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CONFIGURATION_DIRECTORY": str(workdir / "etc")}
    out = subprocess.run([sys.executable, "-m", "hostd.cli", "serve", "--data-dir",
                          str(workdir / "data"), "--no-mdns", "--no-bluetooth"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stdout == ""
    (line,) = out.stderr.splitlines()
    assert line.startswith(f"Error: {workdir / 'etc' / 'config.toml'}: ") and key in line
    assert not (workdir / "data").exists()  # nothing was started or created
