"""A lean protocol client for load generation: raw NDJSON over TCP and a minimal WebSocket.

The benchmark clients must cost far less than the daemon they measure, so this module has
no event loop framework: a ``Conn`` is one non-blocking socket that its owner (one
``select.epoll`` loop per process, in ``bench.loadgen``) drives with ``on_writable`` and
``receive``. It decodes only the few fields a player needs (``type``, ``re``, ``table``,
``version``, ``legal``, ``status``, ``code``) with one msgspec decoder (views are skipped,
not built), keeps each legal action as raw JSON bytes and writes an intent by splicing
bytes, with no re-encoding. The WebSocket side is just enough RFC 6455 for a client: the
upgrade, masked frames out, unmasked frames in (text, continuation, ping answered with a
pong, close answered with a close), and anything else refused as a protocol error.

Used by ``bench.loadgen`` against the daemon and against the floor server alike, so both
are measured with the same client, and by the chaos tests for their raw frames. Never used
by the product: clients/client.py is the client library; this one validates nothing beyond
what it needs to keep playing, and never blocks.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import hashlib
import os
import select
import socket
import struct

import msgspec

WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
READ_BYTES = 1 << 16
MAX_MESSAGE = 1 << 22  # a frame (line or WebSocket message) longer than this is refused
MAX_HEAD = 1 << 14  # the HTTP answer to the upgrade
MAX_OUTBOX = 1 << 20  # bytes waiting to be written; a peer that stops reading is given up


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
    return b'{"type":"hello","id":1,"protocol":2,"client":"bench"}'


def join(code: str, seat: int, rid: int) -> bytes:
    return b'{"type":"join","id":%d,"code":"%s","name":"b%d","seat":%d}' % (
        rid, code.encode(), seat, seat)


def intent(table: bytes, version: int, seat: int, action: bytes, rid: int) -> bytes:
    """An intent; ``table`` is the table id already encoded (the hot path formats no str)."""
    return b'{"type":"intent","id":%d,"table":"%s","version":%d,"seat":%d,"action":%s}' % (
        rid, table, version, seat, action)


def rematch(table: str, rid: int) -> bytes:
    return b'{"type":"rematch","id":%d,"table":"%s"}' % (rid, table.encode())


def ping(rid: int) -> bytes:
    return b'{"type":"ping","id":%d}' % rid


class LinkError(Exception):
    """The link cannot go on (its owner closes it and counts an error)."""


class LinkGone(LinkError):
    """The peer closed the link."""


class ProtocolError(LinkError):
    """The peer sent bytes this client refuses (a bad frame, an oversized message)."""


# -- WebSocket framing ------------------------------------------------------------------------
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
    key = os.urandom(4)  # RFC 6455 5.3: an unpredictable key per frame
    return head + key + _mask(payload, key)


class WsParser:
    """Cuts received bytes into whole messages ``(opcode, payload)``, joining fragments.

    Control frames (close 0x8, ping 0x9, pong 0xA) come out as they arrive, even between
    the fragments of a message. A reserved bit, an unknown opcode, a fragmented or long
    control frame, a continuation with nothing to continue, a new message inside a
    fragmented one, or a message over ``max_message`` raises ``ProtocolError``. Masked
    frames (which a server must not send) are unmasked rather than refused.
    """

    def __init__(self, leftover: bytes = b"", max_message: int = MAX_MESSAGE) -> None:
        self._rest = bytes(leftover)
        self._parts: list[bytes] = []
        self._parts_size = 0
        self._first = 0  # the opcode of the fragmented message under way (0: none)
        self._max = max_message

    @property
    def busy(self) -> bool:
        """Part of a frame or of a fragmented message is held."""
        return bool(self._rest or self._first)

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        if self._rest:
            data = self._rest + data
        out: list[tuple[int, bytes]] = []
        end = len(data)
        at = 0
        while end - at >= 2:
            b0 = data[at]
            b1 = data[at + 1]
            n = b1 & 0x7F
            h = at + 2
            if n == 126:
                if end - h < 2:
                    break
                n = int.from_bytes(data[h:h + 2], "big")
                h += 2
            elif n == 127:
                if end - h < 8:
                    break
                n = int.from_bytes(data[h:h + 8], "big")
                h += 8
            if n > self._max:
                raise ProtocolError(f"a frame of {n} bytes")
            masked = b1 & 0x80
            if masked:
                h += 4
            if end - h < n:
                break
            payload = data[h:h + n]
            if masked:
                payload = _mask(payload, data[h - 4:h])
            at = h + n
            if b0 & 0x70:
                raise ProtocolError("a reserved bit is set")
            opcode = b0 & 0x0F
            fin = b0 & 0x80
            if opcode & 0x8:
                if opcode > 0xA:
                    raise ProtocolError(f"unknown opcode {opcode:#x}")
                if not fin or n > 125:
                    raise ProtocolError("a fragmented or long control frame")
                out.append((opcode, payload))
            elif opcode > 0x2:
                raise ProtocolError(f"unknown opcode {opcode:#x}")
            elif opcode == 0:
                if not self._first:
                    raise ProtocolError("a continuation with nothing to continue")
                self._parts.append(payload)
                self._parts_size += n
                if self._parts_size > self._max:
                    raise ProtocolError(f"a message over {self._max} bytes")
                if fin:
                    out.append((self._first, b"".join(self._parts)))
                    self._parts.clear()
                    self._parts_size = 0
                    self._first = 0
            elif self._first:
                raise ProtocolError("a new message inside a fragmented one")
            elif fin:
                out.append((opcode, payload))
            else:
                self._first = opcode
                self._parts.append(payload)
                self._parts_size = n
        self._rest = data[at:] if at < end else b""
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


# -- one non-blocking connection ----------------------------------------------------------------
CONNECTING, UPGRADING, OPEN, CLOSED = range(4)
WANT_READ = select.EPOLLIN
WANT_BOTH = select.EPOLLIN | select.EPOLLOUT


class Conn:
    """One client link on a non-blocking socket, registered in its owner's epoll.

    ``send`` writes a frame (queued until the link is open: connected, and for WebSocket
    upgraded); ``on_writable`` is called when epoll reports the socket writable and
    ``receive`` when readable (it returns the complete text frames that arrived, possibly
    none). Errors are raised as ``LinkError`` or ``OSError``; the owner then calls ``close``.
    Writes that the kernel does not take at once wait in an outbox, watched for EPOLLOUT.
    ``open_conn`` makes the right subclass for a transport.
    """

    __slots__ = ("_out", "_poller", "_state", "_waiting", "_watching", "fd", "sock")
    transport = ""

    def __init__(self, poller: select.epoll, port: int, host: str = "127.0.0.1") -> None:
        self._poller = poller
        self._out = b""  # bytes the kernel has not taken yet
        self._waiting: list[bytes] = []  # frames sent before the link was open
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setblocking(False)
            # as trio's streams do: an intent is one small write that must not wait
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            err = sock.connect_ex((host, port))
            if err not in (0, errno.EINPROGRESS):
                raise OSError(err, os.strerror(err))
            self.fd = sock.fileno()
            poller.register(self.fd, WANT_BOTH)
        except BaseException:
            sock.close()
            raise
        self.sock = sock
        self._watching = True
        self._state = CONNECTING

    def wrap(self, frame: bytes) -> bytes:
        """The bytes on the wire for one frame."""
        raise NotImplementedError

    def receive(self) -> list[bytes]:
        """The complete text frames now readable (raises once the peer has gone)."""
        raise NotImplementedError

    def _recv(self) -> bytes:
        """The bytes now readable (none: b""); raises once the peer has gone."""
        try:
            data = self.sock.recv(READ_BYTES)
        except BlockingIOError:
            return b""
        if not data:
            raise LinkGone("end of stream")
        return data

    def send(self, frame: bytes) -> None:
        if self._state == OPEN:
            self._write(self.wrap(frame))
        elif self._state == CLOSED:
            raise LinkGone("the link is closed")
        else:
            self._waiting.append(self.wrap(frame))

    def _write(self, data: bytes) -> None:
        if self._out:
            self._out += data
            if len(self._out) > MAX_OUTBOX:
                raise LinkError(f"the peer has not read {len(self._out)} bytes")
            return
        try:
            sent = self.sock.send(data)
        except BlockingIOError:
            sent = 0
        if sent < len(data):
            self._out = data[sent:]
            self._watch(WANT_BOTH)

    def _watch(self, events: int) -> None:
        want = events == WANT_BOTH
        if want != self._watching:
            self._poller.modify(self.fd, events)
            self._watching = want

    def on_writable(self) -> None:
        if self._state == CONNECTING:
            err = self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if err:
                raise OSError(err, os.strerror(err))
            if self._connected():
                return
        if self._out:
            try:
                sent = self.sock.send(self._out)
            except BlockingIOError:
                return
            self._out = self._out[sent:]
        if not self._out:
            self._watch(WANT_READ)

    def _connected(self) -> bool:
        """The TCP connection is up; True if that opened the link."""
        self._open()
        return True

    def _open(self) -> None:
        self._state = OPEN
        waiting, self._waiting = self._waiting, []
        if waiting:
            self._write(self._out + b"".join(waiting) if self._out else b"".join(waiting))
        elif not self._out:
            self._watch(WANT_READ)

    def close(self) -> None:
        if self._state == CLOSED:
            return
        self._state = CLOSED
        with contextlib.suppress(OSError, ValueError):  # the poller was closed first
            self._poller.unregister(self.fd)
        self.sock.close()


class NdjsonConn(Conn):
    """One JSON object per line."""

    __slots__ = ("_rest",)
    transport = "tcp"

    def __init__(self, poller: select.epoll, port: int, host: str = "127.0.0.1") -> None:
        super().__init__(poller, port, host)
        self._rest = b""

    def wrap(self, frame: bytes) -> bytes:
        return frame + b"\n"

    def receive(self) -> list[bytes]:
        data = self._recv()
        if not data:
            return []
        if self._rest:
            data = self._rest + data
        # find and slice, not split: bytes.split scans without memchr, several times slower
        end = data.find(b"\n")
        if end == len(data) - 1:  # the usual case: one whole line
            self._rest = b""
            return [data[:end]]
        lines: list[bytes] = []
        at = 0
        while end >= 0:
            lines.append(data[at:end])
            at = end + 1
            end = data.find(b"\n", at)
        rest = self._rest = data[at:]
        if len(rest) > MAX_MESSAGE:
            raise ProtocolError(f"a line over {MAX_MESSAGE} bytes")
        return lines


class WsConn(Conn):
    """One JSON object per WebSocket text message, after the HTTP upgrade."""

    __slots__ = ("_accept", "_head", "_parser")
    transport = "websocket"

    def __init__(self, poller: select.epoll, port: int, host: str = "127.0.0.1",
                 path: str = "/ws") -> None:
        super().__init__(poller, port, host)
        self._parser = WsParser()
        self._head = b""
        request, self._accept = ws_upgrade(host, port, path)
        self._out = request  # written once connected, before any frame

    def wrap(self, frame: bytes) -> bytes:
        return ws_frame(frame)

    def _connected(self) -> bool:
        self._state = UPGRADING
        return False

    def receive(self) -> list[bytes]:
        data = self._recv()
        if not data:
            return []
        if self._state != OPEN:
            return self._upgraded(data)
        parser = self._parser
        if not parser.busy and data[0] == 0x81:
            # The usual case, without building tuples: exactly one whole, unfragmented,
            # unmasked text frame arrived.
            n = data[1]
            if n < 126:
                if len(data) == 2 + n:
                    return [data[2:]]
            elif n == 126 and len(data) > 4 and len(data) == 4 + (data[2] << 8 | data[3]):
                return [data[4:]]
        return self._messages(parser.feed(data))

    def _upgraded(self, data: bytes) -> list[bytes]:
        if self._state == CONNECTING:
            raise ProtocolError("bytes before the upgrade request")
        self._head += data
        if b"\r\n\r\n" not in self._head:
            if len(self._head) > MAX_HEAD:
                raise ProtocolError("an endless answer to the upgrade")
            return []
        head, leftover = self._head.split(b"\r\n\r\n", 1)
        self._head = b""
        if not ws_accepted(head, self._accept):
            raise LinkGone("upgrade refused: " + head.split(b"\r\n", 1)[0].decode(
                errors="replace"))
        self._open()
        return self._messages(self._parser.feed(leftover)) if leftover else []

    def _messages(self, frames: list[tuple[int, bytes]]) -> list[bytes]:
        out: list[bytes] = []
        for opcode, payload in frames:
            if opcode == 0x1:
                out.append(payload)
            elif opcode == 0x9:
                self._write(ws_frame(payload, 0xA))
            elif opcode == 0x8:
                # Echo the close (its code only, as RFC 6455 5.5.1 allows), then give up.
                with contextlib.suppress(OSError, LinkError):
                    self._write(ws_frame(payload[:2], 0x8))
                code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
                raise LinkGone(f"close frame {code}")
            # binary (0x2) and pong (0xA): nothing a player reads
        return out


def open_conn(transport: str, poller: select.epoll, tcp_port: int, http_port: int,
              host: str = "127.0.0.1") -> Conn:
    """A link for ``transport`` ("tcp": NDJSON on ``tcp_port``; "websocket": ``/ws`` on
    ``http_port``), connecting."""
    if transport == "tcp":
        return NdjsonConn(poller, tcp_port, host)
    if transport == "websocket":
        return WsConn(poller, http_port, host)
    raise ValueError(f"unknown transport {transport!r}")
