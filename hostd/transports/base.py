"""The seam between a transport and the session handler: a link that moves whole frames.

A transport (TCP, WebSocket, RFCOMM) owns framing on its link and nothing else: it turns the
link into a ``FrameLink`` and awaits the session handler with it. The session handler owns
parsing, checks, and every protocol decision, so transports can never diverge.
"""

from __future__ import annotations

from typing import Protocol

from hostd.protocol.framing import FrameError


class LinkClosed(Exception):
    """The peer went away (or the link was closed locally)."""


class FrameLink(Protocol):
    """One client connection as a sequence of frames.

    ``receive`` returns the next frame (bytes of one NDJSON line or one WebSocket text frame,
    at most MAX_FRAME bytes), a ``FrameError`` for a frame the transport already knows is bad
    (too long, binary on WebSocket), or raises ``LinkClosed``. ``send`` writes one encoded
    message as one frame; it may raise ``LinkClosed``.
    """

    transport: str  # "tcp", "websocket", "bluetooth"
    peer: str  # for logs: an address, never a secret

    async def receive(self) -> bytes | FrameError: ...

    async def send(self, frame: bytes) -> None: ...

    async def aclose(self) -> None: ...
