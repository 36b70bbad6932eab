"""The WebSocket transport: one ASGI WebSocket (starlette, under hypercorn) as a ``FrameLink``.

One JSON object per text frame. This module owns only the framing rules of the link: a binary
frame becomes ``FrameError(NOT_TEXT)``, a text frame over ``MAX_FRAME`` bytes of UTF-8 becomes
``FrameError(FRAME_TOO_LARGE)``, and the peer going away (or any failure of the socket) becomes
``LinkClosed``. It never parses JSON and never decides anything about the protocol: that is the
session handler's job, so TCP and WebSocket clients get exactly the same checks.

hypercorn itself refuses messages over ``HARD_LIMIT`` (closing with 1009) so a peer cannot make
the box buffer an unbounded message; between ``MAX_FRAME`` and that limit the peer gets a
``rejected`` and the connection carries on, like an over-long NDJSON line.
"""

from __future__ import annotations

import contextlib

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
        self._closed = False
        # Sends may come from several tasks of the session (replies, table broadcasts): keep
        # each frame whole and in order.
        self._send_lock = trio.Lock()

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
        text = frame.decode("utf-8")
        async with self._send_lock:
            try:
                await self._ws.send_text(text)
            except (WebSocketDisconnect, RuntimeError, OSError) as e:
                self._closed = True
                raise LinkClosed("websocket closed") from e

    async def aclose(self, code: int = 1000) -> None:
        if self._closed:
            return
        self._closed = True
        # A close handshake is bounded cleanup: never let it hang a shutting-down task.
        with trio.move_on_after(2, shield=True):
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await self._ws.close(code=code)
