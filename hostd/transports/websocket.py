"""The WebSocket transport: a WebSocket on the HTTP port as a ``FrameLink``.

Two links, the same rules. ``RawWebSocketLink`` is the one clients get: the HTTP port hands
every upgrade to ``/ws`` to ``serve_websocket`` before hypercorn parses it, and frames are
then written straight to the socket (see the class for why). ``WebSocketLink`` wraps an ASGI
WebSocket (starlette, under hypercorn), for an upgrade that reaches the ASGI app all the same:
one sent after another request on a kept-alive connection (only a connection's first request
is looked at), or with a head over ``HEAD_BYTES``.

One JSON object per text frame. This module owns only the framing rules of the link: a binary
frame becomes ``FrameError(NOT_TEXT)``, a text frame over ``MAX_FRAME`` bytes of UTF-8 becomes
``FrameError(FRAME_TOO_LARGE)``, and the peer going away (or any failure of the socket) becomes
``LinkClosed``. It never parses JSON and never decides anything about the protocol: that is the
session handler's job, so TCP and WebSocket clients get exactly the same checks.

A message over ``HARD_LIMIT`` closes the link with 1009, so a peer cannot make the box buffer
an unbounded message; between ``MAX_FRAME`` and that limit the peer gets a ``rejected`` and
the connection carries on, like an over-long NDJSON line.

For the ASGI link: hypercorn's trio server shields each write from cancellation, so a send
to a peer that stopped reading (its TCP window shut) would wait for ever, and the session
with it. ``abort`` is the
way out: it shuts the TCP socket down underneath hypercorn (found in ``/proc`` by the
connection's two addresses), which ends the blocked write with an error.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import cast

import trio
from starlette.websockets import WebSocket, WebSocketDisconnect
from wsproto import ConnectionType, WSConnection
from wsproto.connection import ConnectionState
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Event,
    Ping,
    Request,
    TextMessage,
)
from wsproto.frame_protocol import CloseReason
from wsproto.utilities import LocalProtocolError, RemoteProtocolError

from hostd.protocol import codes
from hostd.protocol.framing import FrameError
from hostd.protocol.messages import MAX_FRAME
from hostd.transports.admission import Slot
from hostd.transports.base import FrameLink, LinkClosed
from hostd.transports.tcp import BUSY, StreamWriter, refuse_now, run_session

HARD_LIMIT = 16 * MAX_FRAME  # bytes of one message hypercorn buffers before closing the link
HEAD_BYTES = 16384  # a WebSocket upgrade request's head is at most this long
TRY_AGAIN_LATER = 1013  # the close code for a WebSocket refused for want of room
_BAD_REQUEST = (b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")


def is_upgrade_to(path: bytes, head: bytes) -> bool | None:
    """Whether the request head so far asks to upgrade ``path`` to a WebSocket: True, False
    (not this path, or not an upgrade: leave it to the HTTP server), or None (not known yet:
    read more of the head)."""
    start = b"GET " + path
    if not head.startswith(start[:len(head)]):
        return False
    end = head.find(b"\r\n\r\n")
    if end < 0:
        return None if len(head) < HEAD_BYTES else False
    line, _, headers = head[:end].partition(b"\r\n")
    target = line.split(b" ")[1] if line.count(b" ") == 2 else b""
    if target.split(b"?")[0] != path:
        return False
    return any(h.split(b":", 1)[0].strip().lower() == b"upgrade"
               and b"websocket" in h.split(b":", 1)[1].lower()
               for h in headers.split(b"\r\n") if b":" in h)


def _text_frame(payload: bytes) -> bytes:
    """A server's (unmasked) WebSocket text frame."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return b"\x81\x7e" + n.to_bytes(2, "big") + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


class RawWebSocketLink(StreamWriter):
    """A WebSocket this module serves itself on a TCP stream, as a ``FrameLink``.

    The HTTP port hands an upgrade to ``/ws`` here instead of to hypercorn and starlette
    (``hostd/web/server.py``): a table's frames are then written like a TCP client's,
    straight to the socket, at about the cost of NDJSON; through the ASGI stack each frame
    cost twice a whole TCP move. wsproto parses what the peer sends (masking, control frames,
    fragments, UTF-8: every violation closes the link with its code); frames out are built
    here, since they are only ever whole, unmasked text frames. The framing rules are the
    ASGI link's: binary is ``not_text``, over ``MAX_FRAME`` bytes is ``frame_too_large``, and
    a message over ``HARD_LIMIT`` closes the link with 1009 (nothing past ``MAX_FRAME`` is
    kept, so a large message costs no memory).
    """

    transport = "websocket"

    def __init__(self, stream: trio.SocketStream, ws: WSConnection, peer: str,
                 events: list[Event]) -> None:
        super().__init__(stream, lock=True)  # pongs and the close are written by the reader
        self._ws = ws
        self.peer = peer
        self._events: deque[Event] = deque(events)
        self._parts: list[bytes] = []
        self._size = 0
        self._binary = False

    @property
    def closed(self) -> bool:
        return self._closed

    def wire(self, frame: bytes) -> bytes:
        return _text_frame(frame)

    async def receive(self) -> bytes | FrameError:
        while True:
            while self._events:
                got = await self._event(self._events.popleft())
                if got is not None:
                    return got
            data = await self.read_some()
            try:
                self._ws.receive_data(data)
                self._events.extend(self._ws.events())
            except LocalProtocolError:  # data after the close
                self._closed = True
                raise LinkClosed("websocket closed") from None

    async def _event(self, event: Event) -> bytes | FrameError | None:
        if isinstance(event, (TextMessage, BytesMessage)):
            chunk = event.data.encode("utf-8", "surrogatepass") \
                if isinstance(event, TextMessage) else bytes(event.data)
            self._size += len(chunk)
            self._binary |= isinstance(event, BytesMessage)
            if self._size > HARD_LIMIT:
                await self._close_now(CloseReason.MESSAGE_TOO_BIG)
                raise LinkClosed("websocket closed: message too big")
            if self._size <= MAX_FRAME:
                self._parts.append(chunk)
            if not event.message_finished:
                return None
            parts, size, binary = self._parts, self._size, self._binary
            self._parts, self._size, self._binary = [], 0, False
            if binary:
                return FrameError(codes.NOT_TEXT, "send one JSON object per text frame")
            if size > MAX_FRAME:
                return FrameError(codes.FRAME_TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes")
            return b"".join(parts)
        if isinstance(event, Ping):
            await self.write(self._ws.send(event.response()))
        elif isinstance(event, CloseConnection):
            # The peer's close, or wsproto's for a frame that broke the protocol: answer it.
            with contextlib.suppress(LinkClosed, LocalProtocolError):
                await self.write(self._ws.send(event.response()))
            self._closed = True
            raise LinkClosed(f"websocket closed by peer ({event.code})")
        return None

    def abort(self) -> None:
        """Close at once, without the close handshake: the session drops a peer that does
        not read (its close frame would wait for the peer's window)."""
        self._closed = True
        with contextlib.suppress(OSError):
            cast(trio.SocketStream, self.stream).socket.shutdown(socket.SHUT_RDWR)

    async def _close_now(self, code: int) -> None:
        with contextlib.suppress(LinkClosed, LocalProtocolError), trio.move_on_after(2):
            await self.write(self._ws.send(CloseConnection(code=code)))
        self._closed = True

    async def aclose(self, code: int = 1000) -> None:
        if not self._closed and self._ws.state is ConnectionState.OPEN:
            # A close handshake is bounded cleanup: never let it hang a shutting-down task.
            with trio.CancelScope(shield=True):
                await self._close_now(code)
        await super().aclose()


async def serve_websocket(stream: trio.SocketStream, head: bytes, peer: str,
                          handle_link: Callable[[FrameLink], Awaitable[None]], *,
                          slot: Slot | None = None) -> None:
    """Answer the upgrade request in ``head`` and run the session handler over the link
    (``slot``: the connection's place in the budget, which the session attaches to)."""
    ws = WSConnection(ConnectionType.SERVER)
    try:
        ws.receive_data(head)
        events = list(ws.events())
    except RemoteProtocolError:
        events = []
    if not events or not isinstance(events[0], Request):
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await stream.send_all(_BAD_REQUEST)
        return
    try:
        await stream.send_all(ws.send(AcceptConnection()))
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        return
    link = RawWebSocketLink(stream, ws, peer, events[1:])
    link.slot = slot
    await run_session(link, handle_link, "websocket_handler_failed", peer=peer)


def refuse_websocket(stream: trio.SocketStream, head: bytes) -> None:
    """No room for this WebSocket: accept the upgrade, say ``bye`` with ``bye.busy`` and close
    with 1013 (try again later), all in one write that does not wait. The caller closes."""
    ws = WSConnection(ConnectionType.SERVER)
    try:
        ws.receive_data(head)
        events = list(ws.events())
    except RemoteProtocolError:
        events = []
    if not events or not isinstance(events[0], Request):
        refuse_now(stream, _BAD_REQUEST)
        return
    data = ws.send(AcceptConnection()) + _text_frame(BUSY)
    with contextlib.suppress(LocalProtocolError):
        data += ws.send(CloseConnection(code=TRY_AGAIN_LATER, reason="busy"))
    refuse_now(stream, data)


class WebSocketLink:
    """An accepted starlette WebSocket as a ``FrameLink``."""

    transport = "websocket"

    def __init__(self, ws: WebSocket) -> None:
        self._ws = ws
        client = ws.client
        self.peer = f"{client.host}:{client.port}" if client else "websocket"
        server = ws.scope.get("server")
        self._addresses = ((str(server[0]), int(server[1])), (client.host, client.port)) \
            if client and server else None
        self._closed = False
        # No lock around sends: the session's one sender task is the only writer, and
        # hypercorn serialises its own writes to the socket.

    @property
    def closed(self) -> bool:
        return self._closed

    async def receive(self) -> bytes | FrameError:
        if self._closed:
            raise LinkClosed("websocket closed")
        try:
            message = await self._ws.receive()
        except (WebSocketDisconnect, RuntimeError, OSError) as e:
            self._closed = True
            raise LinkClosed("websocket closed") from e
        kind = message.get("type")
        if kind == "websocket.disconnect":
            self._closed = True
            raise LinkClosed(f"websocket closed by peer ({message.get('code', 1005)})")
        text = message.get("text")
        if text is None:
            return FrameError(codes.NOT_TEXT, "send one JSON object per text frame")
        data = text.encode("utf-8", "surrogatepass")
        if len(data) > MAX_FRAME:
            return FrameError(codes.FRAME_TOO_LARGE, f"a frame is at most {MAX_FRAME} bytes")
        return data

    async def send(self, frame: bytes) -> None:
        if self._closed:
            raise LinkClosed("websocket closed")
        try:
            await self._ws.send_text(frame.decode("utf-8"))
        except (WebSocketDisconnect, RuntimeError, OSError) as e:
            self._closed = True
            raise LinkClosed("websocket closed") from e

    def abort(self) -> None:
        """Shut the TCP connection down now, even under a write that is blocked (see above)."""
        self._closed = True
        fd = tcp_socket_fd(*self._addresses) if self._addresses else None
        if fd is None:
            return
        with contextlib.suppress(OSError), socket.socket(fileno=os.dup(fd)) as s:
            s.shutdown(socket.SHUT_RDWR)  # the dup shares the socket: hypercorn's write fails

    async def aclose(self, code: int = 1000) -> None:
        if self._closed:
            return
        self._closed = True
        # A close handshake is bounded cleanup: never let it hang a shutting-down task.
        with trio.move_on_after(2, shield=True):
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self._ws.close(code=code)


def _proc_address(text: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    """An address of /proc/net/tcp{,6} ("0100007F:1F90": 32-bit words in host order)."""
    host, port = text.split(":")
    raw = bytes.fromhex(host)
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
    ip = ipaddress.ip_address(words)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped, int(port, 16)
    return ip, int(port, 16)


def tcp_socket_fd(local: tuple[str, int], peer: tuple[str, int],
                  proc: Path = Path("/proc")) -> int | None:
    """This process's file descriptor of the TCP connection ``local`` <-> ``peer``, or None."""
    def norm(a: tuple[str, int]) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
        ip = ipaddress.ip_address(a[0].split("%")[0])
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            return ip.ipv4_mapped, a[1]
        return ip, a[1]

    want = (norm(local), norm(peer))
    inode = None
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError), (proc / "self" / "net" / table).open() as f:
            next(f, None)
            for line in f:
                fields = line.split()
                if (_proc_address(fields[1]), _proc_address(fields[2])) == want:
                    inode = fields[9]
                    break
        if inode is not None:
            break
    if inode is None:
        return None
    target = f"socket:[{inode}]"
    fds = proc / "self" / "fd"
    with contextlib.suppress(OSError):
        for name in os.listdir(fds):
            with contextlib.suppress(OSError):
                if os.readlink(fds / name) == target:
                    return int(name)
    return None
