"""Frames nested thousands of levels deep (far under the 64 KiB limit), against a daemon
subprocess over TCP, WebSocket and the control socket.

Each one is refused with a code (``too_deep``; ``bad_request`` on the control socket) that
names the request it answers when the frame had an id, the connection carries on (a ping or a
``status`` still answers), and 50 of them leave at most one line in the daemon's log and
never a traceback. (msgspec and ``json`` recurse into nesting and raise ``RecursionError``;
before the explicit limit each frame ended its connection with no code and logged one.)
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hostd.protocol import codes
from tests.hostd.chaos import WsLine, http_port
from tests.hostd.helpers import DaemonProcess, short_dir, start_process
from tests.hostd.test_fuzz import Line

LEVELS = 5000
FRAMES = 50  # per transport

# (frame, the id its rejection must name)
DEEP: list[tuple[bytes, int | None]] = [
    (b"[" * LEVELS + b"]" * LEVELS, None),
    (b'{"a":' * LEVELS + b"1" + b"}" * LEVELS, None),
    (b'{"type":"intent","id":77,"table":"1","version":1,"action":'
     + b"[" * LEVELS + b"]" * LEVELS + b"}", 77),
    (b'{"type":"ping","x":' + b'{"id":1,"a":' * 2000 + b"0" + b"}" * 2000
     + b',"id":78}', 78),  # an "id" deep inside is not the request's
]


@pytest.fixture(scope="module")
def daemon() -> Iterator[DaemonProcess]:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        quiet(d)
        yield d
    finally:
        d.kill()


def log_lines(d: DaemonProcess) -> list[str]:
    return d.output().splitlines()


def quiet(d: DaemonProcess) -> None:
    """Wait until start-up has been logged (the ready line, then the banner after it)."""
    deadline = time.monotonic() + 20
    seen = -1
    while "daemon_ready" not in d.output() or len(log_lines(d)) != seen:
        assert time.monotonic() < deadline, d.output()
        seen = len(log_lines(d))
        time.sleep(0.2)


def flood(c: Line) -> None:
    """Send FRAMES deep frames, each followed by a ping: exactly one rejection each, with
    its code and id, and the link still answering."""
    c.send_obj({"type": "hello", "id": 1})
    for i in range(FRAMES):
        frame, want_re = DEEP[i % len(DEEP)]
        assert len(frame) < 64 * 1024
        c.send(frame)
        got = c.until_pong()
        assert got is not None, f"the link died after deep frame {i}"
        rejected = [(m["code"], m["re"]) for m in got if m["type"] == "rejected"]
        assert rejected == [(codes.TOO_DEEP, want_re)], (i, got)


@pytest.mark.parametrize("transport", ["tcp", "websocket", "control"])
def test_deep_frames_are_refused_with_a_code_and_logged_once(daemon: DaemonProcess,
                                                             transport: str) -> None:
    before = len(log_lines(daemon))
    if transport == "control":
        control_flood(daemon)
    else:
        c = Line(daemon.tcp_port) if transport == "tcp" else WsLine(http_port(daemon))
        try:
            flood(c)
        finally:
            c.close()
    new = log_lines(daemon)[before:]
    text = "\n".join(new)
    assert "Traceback" not in text and "RecursionError" not in text, text
    noisy = [line for line in new if '"level":"debug"' not in line.replace(" ", "")]
    assert len(noisy) <= 1, noisy
    assert not any('"level":"error"' in line.replace(" ", "") for line in new), new


def control_flood(d: DaemonProcess) -> None:
    """The control socket: each deep request is one ``bad_request`` line (with ``re`` when it
    had an id), and the same connection still answers ``status``."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        s.connect(str(d.control))
        reader = s.makefile("rb")
        for i in range(FRAMES):
            deep = b'{"op":"status","id":%d,"x":' % i + b"[" * LEVELS + b"]" * LEVELS + b"}"
            s.sendall(deep + b"\n")
            answer: dict[str, Any] = json.loads(reader.readline())
            assert answer["ok"] is False and answer["code"] == "bad_request", answer
            assert answer["re"] == i and "nests" in answer["error"]
            s.sendall(json.dumps({"op": "status", "id": 1000 + i}).encode() + b"\n")
            status = json.loads(reader.readline())
            assert status["ok"] is True and status["re"] == 1000 + i
