"""sd_notify against a real AF_UNIX datagram socket, by path and in the abstract namespace."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hostd import notify


class Listener:
    def __init__(self, sock: socket.socket, address: str) -> None:
        self.sock = sock
        self.address = address  # as $NOTIFY_SOCKET spells it

    def receive(self) -> str:
        return self.sock.recv(4096).decode("utf-8")

    def nothing_waiting(self) -> bool:
        self.sock.setblocking(False)
        try:
            self.sock.recv(4096)
        except BlockingIOError:
            return True
        finally:
            self.sock.settimeout(5)
        return False


@pytest.fixture(params=["path", "abstract"])
def listener(request: pytest.FixtureRequest, tmp_path: Path,
             monkeypatch: pytest.MonkeyPatch) -> Iterator[Listener]:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.settimeout(5)
    if request.param == "path":
        address = str(tmp_path / "notify")
        s.bind(address)
    else:
        name = f"tablebox-test-{uuid.uuid4().hex}"
        s.bind("\0" + name)
        address = "@" + name
    monkeypatch.setenv("NOTIFY_SOCKET", address)
    with s:
        yield Listener(s, address)


def test_each_message(listener: Listener) -> None:
    assert notify.ready("2 tables, 3 connections")
    assert listener.receive() == "READY=1\nSTATUS=2 tables, 3 connections"
    assert notify.status("draining: 1 table playing")
    assert listener.receive() == "STATUS=draining: 1 table playing"
    assert notify.watchdog()
    assert listener.receive() == "WATCHDOG=1"
    assert notify.stopping("stopping: telling 3 clients")
    assert listener.receive() == "STOPPING=1\nSTATUS=stopping: telling 3 clients"
    assert notify.ready()
    assert listener.receive() == "READY=1"
    assert listener.nothing_waiting()


def test_without_a_socket_nothing_is_sent(listener: Listener,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET")
    assert not notify.ready()
    assert not notify.notify()
    assert listener.nothing_waiting()


def test_a_dead_socket_never_raises(tmp_path: Path) -> None:
    assert not notify.notify("READY=1", environ={"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert not notify.notify("READY=1", environ={"NOTIFY_SOCKET": "@no-such-abstract-name-x"})


@pytest.mark.skipif(shutil.which("systemd-notify") is None, reason="systemd-notify not installed")
def test_same_bytes_as_systemd_notify(listener: Listener) -> None:
    # systemd's own client, as the reference for the wire format
    # --no-block: no barrier round trip, which needs a real manager on the other side
    subprocess.run(["systemd-notify", "--no-block", "--ready", "--status=1 table"], check=True,
                   env={**os.environ, "NOTIFY_SOCKET": listener.address}, timeout=10)
    theirs = listener.receive()
    notify.ready("1 table")
    ours = listener.receive()
    # systemd-notify may add MAINPID=; every field we send must be there, in order.
    assert [f for f in theirs.split("\n") if not f.startswith("MAINPID=")] == ours.split("\n")


def test_watchdog_interval() -> None:
    pid = str(os.getpid())
    assert notify.watchdog_interval({}) is None
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": pid}) == 15.0
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert notify.watchdog_interval({"WATCHDOG_USEC": "100"}) == 0.5
    # meant for another process (the watchdog was asked of a parent)
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert notify.watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
