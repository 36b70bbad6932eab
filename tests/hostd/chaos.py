"""Shared pieces of the chaos tests: blocking peers that misbehave, and the daemon's footprint.

``WsLine`` is ``test_fuzz.Line`` over WebSocket (a raw socket: the upgrade, then frames built
by ``bench.lean``), so a test can send exactly the bytes it means, mangled frames included.
``stuck`` opens a connection with a tiny receive buffer that will never be read: the peer
that stopped reading. ``footprint`` is what "bounded" is measured in: the daemon's resident
memory, open file descriptors and connections.
"""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from typing import Any

from bench import lean
from bench.host import fd_count, rss_mb
from hostd.control import request
from tests.hostd.helpers import DaemonProcess
from tests.hostd.test_fuzz import Line


def http_port(d: DaemonProcess) -> int:
    """The WebSocket port (the control socket answers before the HTTP port listens)."""
    deadline = time.monotonic() + 20
    while True:
        listening = request(d.control, "status")["listening"]
        if "http" in listening:
            return int(listening["http"]["port"])
        assert time.monotonic() < deadline, "the HTTP port never listened"
        time.sleep(0.05)


class WsLine(Line):
    """A blocking WebSocket connection: text frames in and out, or raw bytes."""

    def __init__(self, port: int, *, sock: socket.socket | None = None) -> None:
        self.sock = sock or socket.create_connection(("127.0.0.1", port), timeout=5)
        self.next_id = 1000
        upgrade, accept = lean.ws_upgrade("127.0.0.1", port)
        self.sock.sendall(upgrade)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(65536)
            assert chunk, "closed during the upgrade"
            data += chunk
        head, rest = data.split(b"\r\n\r\n", 1)
        assert lean.ws_accepted(head, accept), head
        self.parser = lean.WsParser(rest)
        self.pending: list[tuple[int, bytes]] = []
        self.close_code: int | None = None

    def send(self, frame: bytes) -> None:
        self.sock.sendall(lean.ws_frame(frame))

    def send_raw(self, data: bytes) -> None:
        self.sock.sendall(data)

    def message(self) -> tuple[int, bytes] | None:
        """The next whole message (opcode, payload); None once the link is closed."""
        while not self.pending:
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                return None
            if not chunk:
                return None
            self.pending += self.parser.feed(chunk)
        return self.pending.pop(0)

    def read(self) -> dict[str, Any] | None:
        while True:
            got = self.message()
            if got is None:
                return None
            opcode, payload = got
            if opcode == 0x8:
                self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 \
                    else 1005
                return None
            if opcode == 0x1:
                msg: dict[str, Any] = json.loads(payload)
                return msg


def stuck(port: int, first: list[bytes], *, ws: bool = False) -> socket.socket:
    """A connection that sends ``first`` (frames) and then never reads again.

    Its receive buffer is made tiny before connecting, so the daemon's sends back up fast.
    """
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(5)
    s.connect(("127.0.0.1", port))
    if ws:
        line = WsLine(port, sock=s)
        for f in first:
            line.send(f)
    else:
        s.sendall(b"".join(f + b"\n" for f in first))
    return s


@dataclass(frozen=True)
class Footprint:
    rss_mb: float
    fds: int
    connections: int


def footprint(d: DaemonProcess) -> Footprint:
    return Footprint(rss_mb(d.proc.pid), fd_count(d.proc.pid),
                     int(request(d.control, "status")["connections"]))
