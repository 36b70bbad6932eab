"""The floor: a bare trio server that answers the benchmark clients like the daemon, doing nothing else.

Run by ``bench.host`` as ``python -m bench.floor --payload BYTES [--patch BYTES]``; prints
``{"tcp": PORT, "http": PORT}`` once both listen on 127.0.0.1 and serves until killed.

It speaks just enough of the protocol for ``bench.loadgen``: ``hello`` gets ``welcome``,
``join`` (the table is made on first use) gets ``joined`` and a state, ``ping`` gets
``pong``, and an ``intent`` at the current version from the seat to act bumps the version,
passes the turn to the next seat and tells each of the four seats (the mover's with ``re``),
or answers ``rejected``. What it tells them is what a protocol 2 daemon sends: a connection's
first state is a full ``state`` of ``--payload`` bytes; after it, with ``--patch``, each move
is a ``patch`` frame of about that many bytes from the version the seat holds (it sets the
legal list, ``to_act`` and a padding string in the view, so the clients apply real patches,
as they do the daemon's); without ``--patch`` every move is a full state again (protocol 1).
No rules, no storage, no checks beyond those: it is the cost of the transports (NDJSON over
TCP; WebSocket read by wsproto and written as whole text frames, as the daemon serves
``/ws``), msgspec and trio, so the daemon's figures can be read as ratios to it. Each
connection has a bounded outbox drained by one sender task.

``--refuse-every N`` answers every Nth intent that would be accepted with ``rate_limited``
(naming it), as a box whose limiter drops requests would: the load generator's tests use
it to check that a seat retries such an intent instead of waiting for ever.
"""

from __future__ import annotations

import argparse
import json
from functools import partial

import msgspec
import trio
from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Request, TextMessage

OUTBOX = 64
_LEGAL = b'[{"type":"play","card":"AS"},{"type":"play","card":"KH"}]'


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
    def __init__(self, tid: str, pad: bytes, patch_pad: bytes | None) -> None:
        self.id = tid
        self.version = 1
        self.turn = 0
        self.seats: list[Conn | None] = [None] * 4
        self.pad = pad
        self.patch_pad = patch_pad

    def frame(self, seat: int, re: int | None) -> bytes:
        legal = _LEGAL if seat == self.turn else b"[]"
        return (b'{"type":"state","re":%s,"table":"%s","game":"floor","version":%d,"seat":%d,'
                b'"view":{"type":"floor_view","pad":"%s"},"legal":%s,"to_act":[%d],'
                b'"status":"playing"}' % (b"null" if re is None else b"%d" % re,
                                          self.id.encode(), self.version, seat, self.pad,
                                          legal, self.turn))

    def patch(self, seat: int, re: int | None, pad: bytes) -> bytes:
        """The move as a patch from the version before (every seat is sent every version)."""
        legal = _LEGAL if seat == self.turn else b"[]"
        return (b'{"type":"patch","re":%s,"table":"%s","base":%d,"version":%d,"ops":['
                b'["set",["legal"],%s],["set",["to_act"],[%d]],["set",["view","pad"],"%s"]]}'
                % (b"null" if re is None else b"%d" % re, self.id.encode(), self.version - 1,
                   self.version, legal, self.turn, pad))

    def update(self, seat: int, re: int | None) -> bytes:
        if self.patch_pad is None:
            return self.frame(seat, re)
        # Alternate two paddings so the padding really changes (a patch that set the same
        # string would be one a daemon never sends).
        pad = self.patch_pad if self.version % 2 else self.patch_pad.replace(b"x", b"y")
        return self.patch(seat, re, pad)


def _pad(target: int, template: bytes) -> bytes:
    return b"x" * max(0, target - len(template))


class Floor:
    def __init__(self, payload: int, refuse_every: int = 0, patch: int = 0) -> None:
        # The padding makes a whole state frame about ``payload`` bytes, a patch ``patch``.
        probe = FloorTable("F000", b"", None)
        self.pad = _pad(payload, probe.frame(1, None))
        self.patch_pad = _pad(patch, probe.patch(1, None, b"")) if patch else None
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
                    c.push(t.update(i, m.id if c is conn else None))
        elif m.type == "ping":
            conn.push(b'{"type":"pong","re":%d}' % (m.id or 0))
        elif m.type == "sync":
            t = self.tables.get(m.table)
            if t is not None and m.table in seats:
                conn.push(t.frame(seats[m.table], m.id))
        elif m.type == "hello":
            conn.push(b'{"type":"welcome","re":%d,"protocol":2}' % (m.id or 0))
        elif m.type == "join":
            t = self.tables.get(m.code)
            if t is None:
                t = self.tables[m.code] = FloorTable(m.code, self.pad, self.patch_pad)
            seat = m.seat or 0
            t.seats[seat] = conn
            seats[t.id] = seat
            conn.push(b'{"type":"joined","re":%d,"table":"%s","seat":%d,"token":"t"}'
                      % (m.id or 0, t.id.encode(), seat))
            conn.push(t.frame(seat, None))


async def _sender(conn: Conn, stream: trio.SocketStream, wrap: bool) -> None:
    async with conn.recv:
        async for frame in conn.recv:
            batch = [frame]
            while len(batch) < 64:
                try:
                    batch.append(conn.recv.receive_nowait())
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
            data = b"".join(map(_text_frame, batch)) if wrap else b"\n".join(batch) + b"\n"
            await stream.send_all(data)


async def tcp_session(floor: Floor, stream: trio.SocketStream) -> None:
    conn = Conn()
    seats: dict[str, int] = {}
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_sender, conn, stream, False)
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


def _text_frame(payload: bytes) -> bytes:
    """A whole unmasked text frame, as the daemon writes them (hostd/transports/websocket)."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


async def ws_session(floor: Floor, stream: trio.SocketStream) -> None:
    """A WebSocket at any path: wsproto reads the upgrade and the client's frames."""
    ws = WSConnection(ConnectionType.SERVER)
    conn = Conn()
    seats: dict[str, int] = {}
    parts: list[str] = []
    try:
        async with trio.open_nursery() as nursery:
            accepted = False
            while True:
                data = await stream.receive_some(1 << 16)
                if not data:
                    break
                ws.receive_data(data)
                for event in ws.events():
                    if isinstance(event, Request) and not accepted:
                        await stream.send_all(ws.send(AcceptConnection()))
                        accepted = True
                        nursery.start_soon(_sender, conn, stream, True)
                    elif isinstance(event, TextMessage):
                        parts.append(event.data)
                        if event.message_finished:
                            floor.handle(conn, seats, "".join(parts).encode())
                            parts.clear()
                    elif isinstance(event, CloseConnection):
                        nursery.cancel_scope.cancel()
                        return
            nursery.cancel_scope.cancel()
    except* (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass


async def main_async(payload: int, refuse_every: int = 0, patch: int = 0) -> None:
    floor = Floor(payload, refuse_every, patch)
    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, partial(tcp_session, floor), 0,
                                                host="127.0.0.1"))
        tcp_port = listeners[0].socket.getsockname()[1]
        ws_listeners = await nursery.start(partial(trio.serve_tcp, partial(ws_session, floor),
                                                   0, host="127.0.0.1"))
        http_port = ws_listeners[0].socket.getsockname()[1]
        print(json.dumps({"tcp": tcp_port, "http": http_port}), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(prog="bench.floor")
    ap.add_argument("--payload", type=int, default=2048, help="bytes of each full state frame")
    ap.add_argument("--patch", type=int, default=0,
                    help="bytes of each patch frame after a connection's first state "
                         "(0: send full states every move)")
    ap.add_argument("--refuse-every", type=int, default=0,
                    help="answer every Nth acceptable intent rate_limited (0: never)")
    args = ap.parse_args()
    trio.run(main_async, args.payload, args.refuse_every, args.patch)


if __name__ == "__main__":
    main()
