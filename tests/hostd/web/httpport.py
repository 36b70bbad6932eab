"""A real HTTP port for tests: serve_http on loopback with a stub session handler, and a client.

The stub echoes each frame and answers each ``FrameError`` with its code, so tests pin the
transport's rules without the daemon.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
from trio_websocket import WebSocketConnection, wrap_client_stream

from hostd.config import Config
from hostd.protocol.framing import FrameError
from hostd.transports.base import FrameLink, LinkClosed
from hostd.web.server import serve_http

LOOPBACK = Config(bind="127.0.0.1", http_port=0)


async def echo(link: FrameLink) -> None:
    while True:
        try:
            frame = await link.receive()
        except LinkClosed:
            return
        if isinstance(frame, FrameError):
            await link.send(json.dumps({"type": "rejected", "code": frame.code}).encode())
        elif frame == b'"boom"':
            raise RuntimeError("a handler bug")
        else:
            await link.send(frame)


async def start(nursery: trio.Nursery, handler=echo, **kw) -> int:
    return await nursery.start(lambda task_status: serve_http(LOOPBACK, handler, task_status=task_status, **kw))


@asynccontextmanager
async def ws_client(port: int) -> AsyncIterator[WebSocketConnection]:
    """A trio-websocket client whose TCP stream we close ourselves.

    trio-websocket 0.12's client waits for the server's TCP close and then never closes its own
    socket (a ResourceWarning when the server ends the connection first), so own the stream.
    """
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        async with trio.open_nursery() as nursery:
            ws = await wrap_client_stream(nursery, stream, f"127.0.0.1:{port}", "/ws")
            try:
                yield ws
            finally:
                await ws.aclose()
    finally:
        await stream.aclose()
