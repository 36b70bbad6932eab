"""The WebSocket transport: one ASGI WebSocket (starlette, under hypercorn) as a ``FrameLink``.

One JSON object per text frame. This module owns only the framing rules of the link: a binary
frame becomes ``FrameError(NOT_TEXT)``, a text frame over ``MAX_FRAME`` bytes of UTF-8 becomes
``FrameError(FRAME_TOO_LARGE)``, and the peer going away (or any failure of the socket) becomes
``LinkClosed``. It never parses JSON and never decides anything about the protocol: that is the
session handler's job, so TCP and WebSocket clients get exactly the same checks.

hypercorn itself refuses messages over ``HARD_LIMIT`` (closing with 1009) so a peer cannot make
the box buffer an unbounded message; between ``MAX_FRAME`` and that limit the peer gets a
``rejected`` and the connection carries on, like an over-long NDJSON line.

hypercorn's trio server shields each write from cancellation, so a send to a peer that stopped
reading (its TCP window shut) would wait for ever, and the session with it. ``abort`` is the
way out: it shuts the TCP socket down underneath hypercorn (found in ``/proc`` by the
connection's two addresses), which ends the blocked write with an error.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import socket
from pathlib import Path

import trio
from starlette.websockets import WebSocket, WebSocketDisconnect

from hostd.protocol import codes
from hostd.protocol.framing import FrameError
from hostd.protocol.messages import MAX_FRAME
from hostd.transports.base import LinkClosed

HARD_LIMIT = 16 * MAX_FRAME  # bytes of one message hypercorn buffers before closing the link


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
