"""The load generator plays as its docstring says: paced seats wait their delay, idle seats
ping, an intent refused for pace is sent again, unreachable seats are counted as errors, and
a broken stdin ends it with a message, not a traceback. Against the real floor server
(``bench.floor``) on loopback, or nothing.
"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bench import host, loadgen


@contextlib.contextmanager
def floor(*extra: str) -> Iterator[host.Server]:
    server = host.start_floor(500, *extra)
    try:
        yield server
    finally:
        server.stop(signal.SIGKILL)


def job(server: host.Server, tables: int, transports: tuple[str, ...], delay: float
        ) -> dict[str, Any]:
    return {"tcp_port": server.tcp_port, "http_port": server.http_port, "delay": delay,
            "tables": [{"id": f"F{i}", "code": f"F{i}", "transports": list(transports)}
                       for i in range(tables)]}


def play(spec: dict[str, Any], lead: float, seconds: float) -> dict[str, Any]:
    """One loadgen in this process: the start line is already waiting on its stdin."""
    stdin = loadgen.Stdin()
    player = loadgen.Player(spec, stdin)
    start = time.monotonic() + lead
    stdin.buf = json.dumps({"start": start, "end": start + seconds}).encode() + b"\n"
    return loadgen.run(player)


def test_paced_seats_move_a_delay_after_their_turn_begins() -> None:
    with floor() as server:
        out = play(job(server, 2, host.MIXED, 0.25), 0.3, 1.5)
    moves = len(out["own"]["tcp"]) + len(out["own"]["websocket"])
    # each table moves at most once per 250 ms: 6 or 7 times in 1.5 s, not hundreds
    assert 4 <= moves <= 2 * 7, out
    assert out["own"]["tcp"] and out["own"]["websocket"]
    assert len(out["last"]) == moves and out["missing"] == 0
    assert out["error_count"] == 0 and out["rejects"] == {}
    assert out["states"] >= 4 * moves and out["state_bytes"] > 400 * out["states"]


def test_seats_with_nothing_to_do_ping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loadgen, "PING_EVERY", 0.2)
    with floor() as server:
        out = play(job(server, 1, ("tcp", "websocket") * 2, 60.0), 0.0, 1.0)
    assert out["own"] == {"tcp": [], "websocket": []}, "a seat moved before its delay"
    assert out["pings"] >= 4 * 3 and out["error_count"] == 0, out


def test_an_intent_refused_for_pace_is_sent_again() -> None:
    # Every third intent that would be accepted is refused ``rate_limited``: without a retry
    # the table stops at the first one, its seat waiting for ever.
    with floor("--refuse-every", "3") as server:
        out = play(job(server, 1, host.MIXED, 0.0), 0.2, 1.0)
    moves = len(out["own"]["tcp"]) + len(out["own"]["websocket"])
    assert out["rejects"].get("rate_limited", 0) >= 5 and moves >= 10, out
    assert out["error_count"] == 0, out


def loadgen_process() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "bench.loadgen"], cwd=host.ROOT,
                            env=host.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)


def test_unreachable_seats_are_errors_and_the_run_still_reports() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens on it
    spec = {"tcp_port": port, "http_port": port, "delay": 0.0,
            "tables": [{"id": "T", "code": "T", "transports": list(host.MIXED)}]}
    p = loadgen_process()
    try:
        assert p.stdin is not None and p.stdout is not None
        p.stdin.write(json.dumps(spec).encode() + b"\n")
        p.stdin.flush()
        assert json.loads(p.stdout.readline()) == {"ready": 0}
        now = time.monotonic()
        p.stdin.write(json.dumps({"start": now, "end": now + 0.1}).encode() + b"\n")
        p.stdin.flush()
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    summary = json.loads(out)
    assert summary["error_count"] == 4 and "ConnectionRefusedError" in summary["errors"][0]
    assert p.returncode == 0 and err == b""


def test_stdin_closed_before_the_start_line_ends_it_with_a_message() -> None:
    with floor() as server:
        p = loadgen_process()
        try:
            assert p.stdin is not None and p.stdout is not None
            p.stdin.write(json.dumps(job(server, 1, host.MIXED, 0.0)).encode() + b"\n")
            p.stdin.flush()
            assert json.loads(p.stdout.readline()) == {"ready": 4}
            out, err = p.communicate(timeout=20)  # closes stdin first
        finally:
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert p.returncode == 1 and out == b""
    assert b"no start line" in err and b"Traceback" not in err
