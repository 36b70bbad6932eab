"""Chaos: clients that stop reading (their TCP buffers fill) while tables play at full speed.

Two tables (Euchre and President) are played by four people each as fast as the daemon
answers, rematching at every end. Then twenty watchers (ten over TCP, ten over WebSocket)
open with a tiny receive buffer, ask to spectate the Euchre table and never read again. The
daemon must go on answering both tables (neither stalls, no move waits long), keep its memory
bounded while their outboxes fill, and drop every one of them: the connection is gone from
``status``, its file descriptor is closed, and the peer finds its socket closed.
"""

from __future__ import annotations

import contextlib
import random
import socket
import time
from functools import partial
from typing import Any

import trio

from clients.client import Client, ClientError, connect
from hostd.control import request
from tests.hostd.chaos import Footprint, footprint, http_port, stuck
from tests.hostd.helpers import DaemonProcess, short_dir, start_process

STUCK = 20
DROP_WITHIN = 30.0  # seconds: bound on the wait for every stuck reader to be dropped
MAX_INTENT_SECONDS = 3.0  # liveness, not speed: no move waits this long for its answer
RSS_GROWTH_MB = 40.0


class Players:
    """Four people per table, each moving at once when its turn comes; rematch at the end."""

    def __init__(self) -> None:
        self.slowest = 0.0
        self.moves = 0

    async def seat(self, c: Client, table: str, seat: int, rng: random.Random) -> None:
        while True:
            s = await c.wait_state(table, lambda s: bool(s.legal) or s.status == "finished",
                                   timeout=30)
            since = c.seq
            try:
                if s.status == "finished":
                    await c.rematch(table)
                    await c.changed(since)
                    continue
                t0 = time.monotonic()
                await c.intent(table, s.version, rng.choice(s.legal), seat=seat)
                self.slowest = max(self.slowest, time.monotonic() - t0)
                self.moves += 1
            except ClientError:
                # Refused (another seat moved first): the newer state may be here already.
                await c.changed(since)


def drained_and_closed(sock: socket.socket) -> bool:
    """Read what the kernel buffered for ``sock``; True if the daemon closed it (EOF/RST)."""
    sock.settimeout(5)
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            if not sock.recv(1 << 20):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


async def scenario(d: DaemonProcess) -> dict[str, Any]:
    tables = [request(d.control, "tables.new", game=g, players=4, ai="random")
              for g in ("euchre", "president")]
    players = Players()
    samples: list[Footprint] = []
    async with contextlib.AsyncExitStack() as stack:
        seated: list[tuple[Client, str, int]] = []
        for t in tables:
            for seat in range(4):
                c = await stack.enter_async_context(connect(port=d.tcp_port))
                await c.join(t["code"], f"P{seat}", seat)
                seated.append((c, t["id"], seat))
        async with trio.open_nursery() as nursery:
            for i, (c, tid, seat) in enumerate(seated):
                nursery.start_soon(players.seat, c, tid, seat, random.Random(i))
            await trio.sleep(1.0)
            base = footprint(d)
            versions0 = [request(d.control, "tables.show", table=t["id"])["version"]
                         for t in tables]
            hello = b'{"type":"hello","id":1}'
            watch = b'{"type":"spectate","id":2,"table":"%s"}' % tables[0]["id"].encode()
            port = http_port(d)
            socks = [await trio.to_thread.run_sync(
                partial(stuck, port if ws else d.tcp_port, [hello, watch], ws=ws))
                for ws in [False] * (STUCK // 2) + [True] * (STUCK // 2)]
            t0 = time.monotonic()
            with trio.fail_after(DROP_WITHIN):
                while True:
                    samples.append(await trio.to_thread.run_sync(footprint, d))
                    if samples[-1].connections <= base.connections and len(samples) > 3:
                        break
                    await trio.sleep(0.2)
            dropped_after = time.monotonic() - t0
            versions1 = [request(d.control, "tables.show", table=t["id"])["version"]
                         for t in tables]
            await trio.sleep(0.5)  # the tables keep going after the drops as well
            versions2 = [request(d.control, "tables.show", table=t["id"])["version"]
                         for t in tables]
            after = footprint(d)
            nursery.cancel_scope.cancel()
    closed = [await trio.to_thread.run_sync(drained_and_closed, s) for s in socks]
    for s in socks:
        s.close()
    return {"base": base, "after": after, "samples": samples, "closed": closed, "players": players,
            "versions": (versions0, versions1, versions2), "dropped_after": dropped_after}


def test_clients_that_stop_reading_are_dropped_without_slowing_anyone() -> None:
    tmp = short_dir()
    d = start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "0")
    try:
        r = trio.run(scenario, d)
        base: Footprint = r["base"]
        v0, v1, v2 = r["versions"]
        assert all(b > a + 20 for a, b in zip(v0, v1, strict=True)), (
            f"a table stalled while readers were stuck: {v0} -> {v1}")
        assert all(b > a for a, b in zip(v1, v2, strict=True)), (v1, v2)
        assert r["players"].slowest < MAX_INTENT_SECONDS, r["players"].slowest
        assert all(r["closed"]), f"{r['closed'].count(False)} stuck sockets were never closed"
        peak = max(s.rss_mb for s in r["samples"])
        assert peak - base.rss_mb < RSS_GROWTH_MB, (base, peak)
        after: Footprint = r["after"]
        assert after.connections == base.connections
        assert after.fds <= base.fds + 2, (base, after)  # every dropped socket was closed
        assert d.proc.poll() is None
    finally:
        d.kill()
