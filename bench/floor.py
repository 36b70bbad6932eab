"""The floor: a bare trio server that answers the benchmark clients like the daemon, doing nothing else.

Run by ``bench.host`` as ``python -m bench.floor --payload BYTES``; prints
``{"tcp": PORT, "http": PORT}`` once both listen on 127.0.0.1 and serves until killed.

It speaks just enough of the protocol for ``bench.loadgen``: ``hello`` gets ``welcome``,
``join`` (the table is made on first use) gets ``joined`` and a state, ``ping`` gets
``pong``, and an ``intent`` at the current version from the seat to act bumps the version,
passes the turn to the next seat and sends a state of ``--payload`` bytes to each of the
four seats (the mover's with ``re``), or ``rejected``. No rules, no storage, no checks
beyond those: it is the cost of the transports (NDJSON over TCP; WebSocket under the same
hypercorn as the daemon), msgspec and trio, so the daemon's figures can be read as ratios
to it. Each connection has a bounded outbox drained by one sender task, as in the daemon.

``--refuse-every N`` answers every Nth intent that would be accepted with ``rate_limited``
(naming it), as a box whose limiter drops requests would: the load generator's tests use
it to check that a seat retries such an intent instead of waiting for ever.
"""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import msgspec
import trio
from hypercorn.config import Config as HypercornConfig
from hypercorn.trio import serve

OUTBOX = 64


class In(msgspec.Struct):
    type: str
    id: int | None = None
    code: str = ""
    seat: int | None = None
    table: str = ""
    version: int = -1


decode = msgspec.json.Decoder(In).decode


class Conn:
    def __init__(self) -> None:
        self.send, self.recv = trio.open_memory_channel[bytes](OUTBOX)
        self.dead = False

    def push(self, frame: bytes) -> None:
        if self.dead:
            return
        try:
            self.send.send_nowait(frame)
        except trio.WouldBlock:
            self.dead = True  # a peer that does not read is dropped, as by the daemon
            self.send.close()
        except trio.ClosedResourceError:
            self.dead = True


class FloorTable:
    def __init__(self, tid: str, pad: bytes) -> None:
        self.id = tid
        self.version = 1
        self.turn = 0
        self.seats: list[Conn | None] = [None] * 4
        self.pad = pad

    def frame(self, seat: int, re: int | None) -> bytes:
        legal = b'[{"type":"play","card":"AS"},{"type":"play","card":"KH"}]' \
            if seat == self.turn else b"[]"
        return (b'{"type":"state","re":%s,"table":"%s","game":"floor","version":%d,"seat":%d,'
                b'"view":{"type":"floor_view","pad":"%s"},"legal":%s,"to_act":[%d],'
                b'"status":"playing"}' % (b"null" if re is None else b"%d" % re,
                                          self.id.encode(), self.version, seat, self.pad,
                                          legal, self.turn))


class Floor:
    def __init__(self, payload: int, refuse_every: int = 0) -> None:
        # The padding makes a whole state frame about ``payload`` bytes.
        self.pad = b"x" * max(0, payload - 230)
        self.tables: dict[str, FloorTable] = {}
        self.refuse_every = refuse_every
        self.acceptable = 0  # intents that would have been accepted, for ``refuse_every``

    def handle(self, conn: Conn, seats: dict[str, int], raw: bytes) -> None:
        try:
            m = decode(raw)
        except msgspec.DecodeError:
            conn.push(b'{"type":"rejected","re":null,"code":"bad_message"}')
            return
        if m.type == "intent":
            t = self.tables.get(m.table)
            if t is None or seats.get(m.table) != t.turn or m.version != t.version:
                conn.push(b'{"type":"rejected","re":%d,"code":"stale_version"}' % (m.id or 0))
                return
            self.acceptable += 1
            if self.refuse_every and self.acceptable % self.refuse_every == 0:
                conn.push(b'{"type":"rejected","re":%d,"code":"rate_limited"}' % (m.id or 0))
                return
            t.version += 1
            t.turn = (t.turn + 1) % 4
            for i, c in enumerate(t.seats):
                if c is not None:
                    c.push(t.frame(i, m.id if c is conn else None))
        elif m.type == "ping":
            conn.push(b'{"type":"pong","re":%d}' % (m.id or 0))
        elif m.type == "hello":
            conn.push(b'{"type":"welcome","re":%d,"protocol":2}' % (m.id or 0))
        elif m.type == "join":
            t = self.tables.get(m.code)
            if t is None:
                t = self.tables[m.code] = FloorTable(m.code, self.pad)
            seat = m.seat or 0
            t.seats[seat] = conn
            seats[t.id] = seat
            conn.push(b'{"type":"joined","re":%d,"table":"%s","seat":%d,"token":"t"}'
                      % (m.id or 0, t.id.encode(), seat))
            conn.push(t.frame(seat, None))


async def tcp_session(floor: Floor, stream: trio.SocketStream) -> None:
    conn = Conn()
    seats: dict[str, int] = {}

    async def sender() -> None:
        async with conn.recv:
            async for frame in conn.recv:
                batch = [frame]
                while len(batch) < 64:
                    try:
                        batch.append(conn.recv.receive_nowait())
                    except (trio.WouldBlock, trio.EndOfChannel):
                        break
                await stream.send_all(b"\n".join(batch) + b"\n")

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(sender)
            rest = b""
            while True:
                data = await stream.receive_some(1 << 16)
                if not data:
                    break
                lines = (rest + data).split(b"\n")
                rest = lines.pop()
                for line in lines:
                    floor.handle(conn, seats, line)
            nursery.cancel_scope.cancel()
    except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass  # the client went away (the benchmark ends by killing its clients)


def ws_app(floor: Floor) -> Callable[[Any, Any, Any], Awaitable[None]]:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                msg = await receive()
                if msg["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif msg["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "websocket":
            await send({"type": "http.response.start", "status": 404, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        conn = Conn()
        seats: dict[str, int] = {}

        async def sender() -> None:
            async with conn.recv:
                async for frame in conn.recv:
                    await send({"type": "websocket.send", "text": frame.decode()})

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(sender)
                while True:
                    msg = await receive()
                    if msg["type"] != "websocket.receive":
                        break
                    text = msg.get("text")
                    floor.handle(conn, seats, text.encode() if text is not None else b"")
                nursery.cancel_scope.cancel()
        except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    return app


async def main_async(payload: int, refuse_every: int = 0) -> None:
    floor = Floor(payload, refuse_every)
    hc = HypercornConfig()
    hc.bind = ["127.0.0.1:0"]
    hc.accesslog = None
    hc.errorlog = logging.getLogger("floor.hypercorn")
    hc.errorlog.setLevel(logging.WARNING)
    hc.websocket_ping_interval = None
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, partial(tcp_session, floor), 0,
                                                host="127.0.0.1"))
        tcp_port = listeners[0].socket.getsockname()[1]
        binds = await nursery.start(partial(serve, ws_app(floor), hc))
        http_port = int(binds[0].rsplit(":", 1)[1])
        print(json.dumps({"tcp": tcp_port, "http": http_port}), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(prog="bench.floor")
    ap.add_argument("--payload", type=int, default=2048, help="bytes of each state frame")
    ap.add_argument("--refuse-every", type=int, default=0,
                    help="answer every Nth acceptable intent rate_limited (0: never)")
    args = ap.parse_args()
    trio.run(main_async, args.payload, args.refuse_every)


if __name__ == "__main__":
    main()
