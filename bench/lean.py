"""A lean protocol client for load generation: raw NDJSON over TCP and a minimal WebSocket.

The benchmark clients must cost far less than the daemon they measure, so this module
decodes only the few fields a player needs (``type``, ``re``, ``table``, ``version``,
``legal``, ``status``, ``code``) with one msgspec decoder (views are skipped, not built),
keeps each legal action as raw JSON bytes and writes an intent by splicing bytes, with no
re-encoding. The WebSocket side is just enough RFC 6455 for a client: the upgrade, masked
text frames out, unmasked frames in (text, ping, close, continuation).

Used by ``bench.loadgen`` against the daemon and against the floor server alike, so both
are measured with the same client. Never used by the product: clients/client.py is the
client library; this one validates nothing beyond what it needs to keep playing.
"""

from __future__ import annotations

import base64
import hashlib
import os
import struct
from collections.abc import AsyncIterator

import msgspec
import trio

WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
READ_BYTES = 1 << 18


class Msg(msgspec.Struct):
    """The fields of any host message a player reads; everything else is skipped."""

    type: str
    re: int | None = None
    table: str | None = None
    version: int = -1
    seat: int | None = None
    legal: list[msgspec.Raw] = []
    status: str = ""
    code: str = ""


decoder = msgspec.json.Decoder(Msg)


def hello() -> bytes:
    return b'{"type":"hello","id":1,"protocol":1,"client":"bench"}'


def join(code: str, seat: int, rid: int) -> bytes:
    return b'{"type":"join","id":%d,"code":"%s","name":"b%d","seat":%d}' % (
        rid, code.encode(), seat, seat)


def intent(table: str, version: int, seat: int, action: bytes, rid: int) -> bytes:
    return b'{"type":"intent","id":%d,"table":"%s","version":%d,"seat":%d,"action":%s}' % (
        rid, table.encode(), version, seat, action)


def rematch(table: str, rid: int) -> bytes:
    return b'{"type":"rematch","id":%d,"table":"%s"}' % (rid, table.encode())


def ping(rid: int) -> bytes:
    return b'{"type":"ping","id":%d}' % rid


class LinkGone(Exception):
    """The peer closed the link."""


class NdjsonLink:
    """One JSON object per line over a trio stream."""

    transport = "tcp"

    def __init__(self, stream: trio.abc.Stream) -> None:
        self.stream = stream

    async def send(self, frame: bytes) -> None:
        await self.stream.send_all(frame + b"\n")

    async def frames(self) -> AsyncIterator[list[bytes]]:
        """Every frame, as lists of the complete frames that arrived together."""
        rest = b""
        while True:
            # bytes(b) of a bytes object is that object: no copy
            data = bytes(await self.stream.receive_some(READ_BYTES))
            if not data:
                raise LinkGone("end of stream")
            if rest:
                data = rest + data
            lines = data.split(b"\n")
            rest = lines.pop()
            if lines:
                yield lines

    async def aclose(self) -> None:
        await self.stream.aclose()


def _mask(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    keys = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(keys, "little")).to_bytes(
        n, "little")


def ws_frame(payload: bytes, opcode: int = 0x1, *, fin: bool = True, rsv: int = 0,
             mask: bool = True) -> bytes:
    """One WebSocket frame as a client sends it (masked), or mangled as a fuzzer asks."""
    n = len(payload)
    b0 = (0x80 if fin else 0) | (rsv & 0x7) << 4 | opcode & 0x0F
    m = 0x80 if mask else 0
    if n < 126:
        head = struct.pack("!BB", b0, m | n)
    elif n < 65536:
        head = struct.pack("!BBH", b0, m | 126, n)
    else:
        head = struct.pack("!BBQ", b0, m | 127, n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + _mask(payload, key)


class WsParser:
    """Cuts received bytes into (opcode, payload) messages, joining continuation frames."""

    def __init__(self, leftover: bytes = b"") -> None:
        self._buf = bytearray(leftover)
        self._partial: list[bytes] = []

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        buf = self._buf
        buf += data
        out: list[tuple[int, bytes]] = []
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n = b1 & 0x7F
            at = 2
            if n == 126:
                if len(buf) < 4:
                    break
                n = struct.unpack_from("!H", buf, 2)[0]
                at = 4
            elif n == 127:
                if len(buf) < 10:
                    break
                n = struct.unpack_from("!Q", buf, 2)[0]
                at = 10
            if b1 & 0x80:  # a server never masks; tolerate it anyway
                at += 4
            if len(buf) < at + n:
                break
            payload = bytes(buf[at:at + n])
            if b1 & 0x80:
                payload = _mask(payload, bytes(buf[at - 4:at]))
            del buf[:at + n]
            opcode = b0 & 0x0F
            if opcode in (0x0, 0x1, 0x2):
                self._partial.append(payload)
                if b0 & 0x80:
                    first = opcode if opcode else 0x1
                    out.append((first, b"".join(self._partial)))
                    self._partial.clear()
            else:
                out.append((opcode, payload))
        return out


def ws_upgrade(host: str, port: int, path: str = "/ws") -> tuple[bytes, bytes]:
    """The upgrade request and the ``Sec-WebSocket-Accept`` value a good answer carries."""
    key = base64.b64encode(os.urandom(16))
    request = (b"GET %s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               b"Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
               % (path.encode(), host.encode(), port, key))
    return request, base64.b64encode(hashlib.sha1(key + WS_GUID).digest())


def ws_accepted(head: bytes, accept: bytes) -> bool:
    return head.startswith(b"HTTP/1.1 101") and accept in head


class WsLink:
    """A WebSocket client link (one JSON object per text frame), after ``open_ws``."""

    transport = "websocket"

    def __init__(self, stream: trio.abc.Stream, leftover: bytes) -> None:
        self.stream = stream
        self._parser = WsParser(leftover)

    async def send(self, frame: bytes) -> None:
        await self.stream.send_all(ws_frame(frame))

    async def frames(self) -> AsyncIterator[list[bytes]]:
        data = b""
        while True:
            out: list[bytes] = []
            for opcode, payload in self._parser.feed(data):
                if opcode == 0x8:
                    raise LinkGone("close frame")
                # Pings (0x9) are not answered: the daemon does not send them (the protocol
                # has its own), and only the player task may write to the stream.
                if opcode == 0x1:
                    out.append(payload)
            if out:
                yield out
            data = bytes(await self.stream.receive_some(READ_BYTES))
            if not data:
                raise LinkGone("end of stream")

    async def aclose(self) -> None:
        await self.stream.aclose()


async def open_ndjson(port: int, host: str = "127.0.0.1") -> NdjsonLink:
    return NdjsonLink(await trio.open_tcp_stream(host, port))


async def open_ws(port: int, path: str = "/ws", host: str = "127.0.0.1") -> WsLink:
    stream = await trio.open_tcp_stream(host, port)
    request, accept = ws_upgrade(host, port, path)
    await stream.send_all(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = await stream.receive_some(65536)
        if not chunk:
            raise LinkGone("closed during the upgrade")
        data += chunk
    head, leftover = data.split(b"\r\n\r\n", 1)
    if not ws_accepted(head, accept):
        await stream.aclose()
        raise LinkGone("upgrade refused: " + head.split(b"\r\n", 1)[0].decode(errors="replace"))
    return WsLink(stream, leftover)


Link = NdjsonLink | WsLink


async def open_link(transport: str, tcp_port: int, http_port: int) -> Link:
    if transport == "tcp":
        return await open_ndjson(tcp_port)
    return await open_ws(http_port)
