"""Chaos: thousands of connections opened and closed, half-open ones, writers at a byte a second.

While a table is played at full speed and another client pings all the time, the daemon
gets: thousands of TCP connections that close at once, after ``hello``, with a reset, or in
the middle of a line; WebSocket upgrades that finish or stop half way; connections that
open and then say nothing (half-open: the peer is gone or silent), on both ports; and slow
writers sending a byte a second (a frame that never ends, an HTTP upgrade that never ends).
The daemon must stay responsive (every ping answered, the table moving) and bounded: the
silent and slow connections are closed by its timeouts (``dead_after``, hypercorn's own
limits), after which its connections, file descriptors and memory are back where they were.
"""

from __future__ import annotations

import contextlib
import itertools
import random
import socket
import struct
import time
from typing import Any

import pytest
import trio

from bench import lean
from clients.client import Client, connect
from hostd.control import request
from hostd.protocol.messages import DEAD_AFTER
from tests.hostd.chaos import Footprint, footprint, http_port
from tests.hostd.helpers import DaemonProcess, short_dir, start_process
from tests.hostd.test_chaos_slow_reader import Players

HELLO = b'{"type":"hello","id":1}\n'
CLOSE_WITHIN = DEAD_AFTER + 20.0  # the silent and slow ones are closed by then
MAX_PING_SECONDS = 3.0  # liveness, not speed
RSS_GROWTH_MB = 60.0


async def churn_tcp(port: int, i: int) -> None:
    s = await trio.open_tcp_stream("127.0.0.1", port)
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        how = i % 4
        if how == 1:  # a proper hello, its welcome read, then gone
            await s.send_all(HELLO)
            await s.receive_some(65536)
        elif how == 2:  # hello, then a reset instead of a close
            await s.send_all(HELLO)
            s.socket.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        elif how == 3:  # half a line
            await s.send_all(b'{"type":"hel')
    await s.aclose()


async def churn_ws(port: int, i: int) -> None:
    s = await trio.open_tcp_stream("127.0.0.1", port)
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        upgrade, _ = lean.ws_upgrade("127.0.0.1", port)
        if i % 2:
            await s.send_all(upgrade[:len(upgrade) // 2])  # stops half way through
        else:
            await s.send_all(upgrade + lean.ws_frame(HELLO.strip()))
            await s.receive_some(65536)
    await s.aclose()


async def hold_silent(port: int, first: bytes, held: list[trio.SocketStream]) -> None:
    s = await trio.open_tcp_stream("127.0.0.1", port)
    if first:
        await s.send_all(first)
    held.append(s)


async def slow_writer(port: int, data: bytes, closed: list[bool], i: int) -> None:
    """A byte a second until the daemon closes the connection (bounded by CLOSE_WITHIN)."""
    s = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        with trio.move_on_after(CLOSE_WITHIN):
            for b in itertools.cycle(data):
                await s.send_all(bytes([b]))
                with trio.move_on_after(1.0):
                    if not await s.receive_some(65536):
                        closed[i] = True  # the daemon closed it
                        return
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        closed[i] = True
    finally:
        with contextlib.suppress(Exception):
            await s.aclose()


async def closed_by_daemon(s: trio.SocketStream) -> bool:
    """Read until EOF (True) or until nothing more comes for a while (False)."""
    try:
        with trio.move_on_after(5):
            while await s.receive_some(65536):
                pass
            return True
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        return True
    return False


async def scenario(d: DaemonProcess, churn: int, silent: int, slow: int) -> dict[str, Any]:
    t = request(d.control, "tables.new", game="euchre", players=4, ai="random")
    web = http_port(d)
    players = Players()
    pings: list[float] = []
    samples: list[Footprint] = []
    async with contextlib.AsyncExitStack() as stack:
        seated: list[Client] = []
        for seat in range(4):
            c = await stack.enter_async_context(connect(port=d.tcp_port))
            await c.join(t["code"], f"P{seat}", seat)
            seated.append(c)
        pinger = await stack.enter_async_context(connect(port=d.tcp_port))
        healthy = 5
        async with trio.open_nursery() as nursery:
            for seat, c in enumerate(seated):
                nursery.start_soon(players.seat, c, t["id"], seat, random.Random(seat))

            async def ping_forever() -> None:
                while True:
                    t0 = time.monotonic()
                    with trio.fail_after(30):
                        await pinger.ping()
                    pings.append(time.monotonic() - t0)
                    await trio.sleep(0.05)

            async def sample_forever() -> None:
                while True:
                    samples.append(await trio.to_thread.run_sync(footprint, d))
                    await trio.sleep(0.5)

            nursery.start_soon(ping_forever)
            await trio.sleep(0.5)
            base = footprint(d)
            v0 = request(d.control, "tables.show", table=t["id"])["version"]
            nursery.start_soon(sample_forever)

            held: list[trio.SocketStream] = []
            slow_closed = [False] * (2 * slow)
            async with trio.open_nursery() as quiet:
                # The silent and the slow, opened first and kept while the churn goes on.
                for i in range(silent):
                    kind = i % 4
                    first = b"" if kind in (0, 2) else HELLO
                    if kind == 3:
                        upgrade, _ = lean.ws_upgrade("127.0.0.1", web)
                        first = upgrade  # a WebSocket that never says anything
                    await hold_silent(d.tcp_port if kind < 2 else web, first, held)
                for i in range(slow):
                    # A line that never ends (a byte a second, never a newline).
                    quiet.start_soon(slow_writer, d.tcp_port, HELLO.strip(), slow_closed, i)
                    upgrade, _ = lean.ws_upgrade("127.0.0.1", web)
                    quiet.start_soon(slow_writer, web, upgrade, slow_closed, slow + i)
                limiter = trio.CapacityLimiter(50)

                async def one(fn: Any, port: int, i: int) -> None:
                    async with limiter:
                        await fn(port, i)

                async with trio.open_nursery() as burst:
                    for i in range(churn):
                        burst.start_soon(one, churn_tcp, d.tcp_port, i)
                        if i % 5 == 0:
                            burst.start_soon(one, churn_ws, web, i)
                v_churned = request(d.control, "tables.show", table=t["id"])["version"]
                churned_at = footprint(d)
                # Now the timeouts: every silent and slow connection must be closed.
                with trio.fail_after(CLOSE_WITHIN):
                    while footprint(d).connections > healthy:
                        await trio.sleep(0.5)
            silent_closed = [await closed_by_daemon(s) for s in held]
            for s in held:
                await s.aclose()
            await trio.sleep(1.0)  # the last closes reach the daemon
            after = footprint(d)
            v1 = request(d.control, "tables.show", table=t["id"])["version"]
            nursery.cancel_scope.cancel()
    return {"base": base, "after": after, "churned_at": churned_at, "samples": samples,
            "pings": pings, "versions": (v0, v_churned, v1), "silent_closed": silent_closed,
            "slow_closed": slow_closed, "players": players}


def run(churn: int, silent: int, slow: int) -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        r = trio.run(scenario, d, churn, silent, slow)
        base: Footprint = r["base"]
        after: Footprint = r["after"]
        v0, v_churned, v1 = r["versions"]
        assert v_churned > v0 + 20 and v1 > v_churned, f"the table stalled: {r['versions']}"
        assert max(r["pings"]) < MAX_PING_SECONDS, max(r["pings"])
        assert r["players"].slowest < MAX_PING_SECONDS, r["players"].slowest
        assert all(r["silent_closed"]), (
            f"{r['silent_closed'].count(False)} silent connections were never closed")
        assert all(r["slow_closed"]), (
            f"{r['slow_closed'].count(False)} slow writers were never closed")
        peak = max(s.rss_mb for s in r["samples"])
        assert peak - base.rss_mb < RSS_GROWTH_MB, (base, peak)
        assert max(s.fds for s in r["samples"]) <= base.fds + silent + 2 * slow + 120
        assert after.connections == base.connections, (base, after)
        assert after.fds <= base.fds + 2, (base, after)
        assert d.proc.poll() is None
    finally:
        d.kill()


def test_thousands_of_connections_half_open_and_slow_writers() -> None:
    run(churn=2000, silent=100, slow=20)


@pytest.mark.slow
def test_tens_of_thousands_of_connections_half_open_and_slow_writers() -> None:
    run(churn=20000, silent=1000, slow=200)


@pytest.mark.parametrize("after", [b"x", lean.ws_frame(HELLO.strip()), b"GET / HTTP/1.1\r\n\r\n"],
                         ids=["a byte", "a frame", "a second request"])
def test_bytes_right_after_a_websocket_upgrade_end_only_that_connection(after: bytes) -> None:
    """hypercorn issue 225: trailing data on an upgrade request crashed the whole server."""
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        port = http_port(d)
        for _ in range(3):
            upgrade, _ = lean.ws_upgrade("127.0.0.1", port)
            with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                s.sendall(upgrade + after)
                with contextlib.suppress(OSError):
                    while s.recv(65536):
                        pass
        time.sleep(0.5)
        assert d.proc.poll() is None, "the daemon died"
        assert request(d.control, "status")["connections"] == 0
        ok = socket.create_connection(("127.0.0.1", d.tcp_port), timeout=5)
        ok.sendall(HELLO)
        assert b'"welcome"' in ok.recv(65536)
        ok.close()
    finally:
        d.kill()
