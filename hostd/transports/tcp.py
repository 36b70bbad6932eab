"""NDJSON over a byte stream (TCP, or any trio stream such as a Bluetooth RFCOMM socket).

Owns only framing: one UTF-8 JSON object per line, at most ``MAX_FRAME`` bytes a line, split
by ``NDJSONSplitter`` (which never buffers more than that). The link it builds is handed to
the session handler, which decides everything else. ``serve_ndjson_stream`` is the seam the
Bluetooth transport reuses; ``serve_tcp`` listens and runs one per accepted connection,
once the connection budget (``hostd.transports.admission``) has given it a place.

Never parses JSON and never lets one connection's failure reach the listener.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial
from typing import cast

import trio

from hostd.logs import get_logger
from hostd.protocol.framing import FrameError, NDJSONSplitter
from hostd.protocol.messages import HostBye, Text, encode
from hostd.transports.admission import Admission, Slot, address_of
from hostd.transports.base import FrameLink, LinkClosed

log = get_logger(__name__)

LinkHandler = Callable[[FrameLink], Awaitable[None]]
READ_BYTES = 65536


class StreamWriter:
    """Writes a link's frames to a trio stream, in order; straight to the socket when it can.

    ``write_now`` is the connection outbox's fast path (``ConnHandle.direct``): while nothing
    is queued it writes a frame without awaiting anything, and keeps what the socket did not
    take for the next ``send_many``, which writes it first. A write the link makes itself
    (a WebSocket pong or close, under ``lock``) may be under way: then ``write_now`` keeps
    the whole frame for the next write, so bytes never interleave.
    """

    def __init__(self, stream: trio.abc.Stream, *, lock: bool = False) -> None:
        self.stream = stream
        self._closed = False
        self._tail = b""  # what a direct write left unwritten: the next write starts with it
        self._busy = False  # an awaited write is under way
        self._lock = trio.Lock() if lock else None  # more than one task writes
        # A socket's descriptor (trio keeps it non-blocking) for writes that need no wait.
        self._fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else -1
        self.slot: Slot | None = None  # its place in the connection budget, if it has one

    def wire(self, frame: bytes) -> bytes:
        """One frame as its bytes on the link."""
        raise NotImplementedError

    async def read_some(self) -> bytes:
        """The next bytes the peer sent; LinkClosed at the end of the stream or on an error."""
        if self._closed:
            raise LinkClosed("closed")
        try:
            data = await self.stream.receive_some(READ_BYTES)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as e:
            self._closed = True
            raise LinkClosed(str(e) or type(e).__name__) from None
        if not data:
            self._closed = True
            raise LinkClosed("end of stream")
        if self.slot is not None:
            self.slot.heard_from()
        return bytes(data)

    async def send(self, frame: bytes) -> None:
        await self.send_many([frame])

    async def send_many(self, frames: list[bytes]) -> None:
        """Several frames in one write, in order (after what a direct write left over).

        An empty frame adds nothing: it only has the left-over written.
        """
        await self.write(b"".join([self.wire(f) for f in frames if f]))

    async def write(self, data: bytes) -> None:
        """``data`` (already on-the-wire bytes) after anything left over, awaited."""
        if self._closed:
            raise LinkClosed("closed")
        if self._lock is None:
            await self._write(data)
        else:
            async with self._lock:
                await self._write(data)

    async def _write(self, data: bytes) -> None:
        self._busy = True
        try:
            data, self._tail = self._tail + data, b""
            if data:
                await self.stream.send_all(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.BusyResourceError,
                OSError) as e:
            self._closed = True
            raise LinkClosed(str(e) or type(e).__name__) from None
        finally:
            self._busy = False

    def direct_writer(self) -> Callable[[bytes], bool] | None:
        """``write_now`` when this link is a socket (no other stream can be written unawaited)."""
        return self.write_now if self._fd >= 0 else None

    def write_now(self, frame: bytes) -> bool:
        """Write ``frame`` as far as the socket takes it without waiting; True if all of it.

        The caller must not call this while frames it gave ``send_many`` wait (the
        connection's outbox knows): that keeps them in order.
        """
        if self._closed:
            raise LinkClosed("closed")
        data = self.wire(frame)
        if self._busy or self._tail:
            self._tail += data
            return False
        try:
            n = os.write(self._fd, data)
        except BlockingIOError:
            n = 0
        except OSError as e:
            self._closed = True
            raise LinkClosed(str(e) or type(e).__name__) from None
        if n == len(data):
            return True
        self._tail = data[n:]
        return False

    async def aclose(self) -> None:
        self._closed = True
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await self.stream.aclose()


class StreamLink(StreamWriter):
    """A trio stream as a ``FrameLink`` of NDJSON lines."""

    def __init__(self, stream: trio.abc.Stream, peer: str, transport: str = "tcp") -> None:
        super().__init__(stream)
        self.peer = peer
        self.transport = transport
        self._splitter = NDJSONSplitter()
        self._pending: deque[bytes | FrameError] = deque()

    def wire(self, frame: bytes) -> bytes:
        return frame + b"\n"

    async def receive(self) -> bytes | FrameError:
        while not self._pending:
            self._pending.extend(self._splitter.feed(await self.read_some()))
        return self._pending.popleft()


async def run_session(link: StreamWriter | FrameLink, handle_link: LinkHandler, failed: str,
                      **fields: str) -> None:
    """Await the session handler on ``link``, then close the link.

    The session handler catches its own errors; this last guard logs one as ``failed`` and
    keeps it from the listener, so one connection never takes a port down.
    """
    try:
        await handle_link(cast(FrameLink, link))
    except Exception:
        log.exception(failed, **fields)
    finally:
        await link.aclose()


async def serve_ndjson_stream(stream: trio.abc.Stream, peer: str, transport: str,
                              handle_link: LinkHandler) -> None:
    """Run the session handler over ``stream`` with NDJSON framing; close it afterwards."""
    await run_session(StreamLink(stream, peer, transport), handle_link, "stream_handler_failed",
                      transport=transport)


def peer_of(stream: trio.SocketStream) -> str:
    try:
        addr = stream.socket.getpeername()
    except OSError:
        return "?"
    host, port = addr[0], addr[1]
    return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"


def shut(stream: trio.SocketStream) -> Callable[[str], None]:
    """A slot's first way to close its connection: shut the socket down under whoever is
    reading or writing it (they see the end of the stream or an error, and close it)."""
    def close(key: str) -> None:
        with contextlib.suppress(OSError):
            stream.socket.shutdown(socket.SHUT_RDWR)
    return close


def refuse_now(stream: trio.SocketStream, data: bytes) -> None:
    """Write ``data`` (a goodbye) if the socket takes it at once, without waiting: a refused
    connection must not hold its descriptor a moment longer. The caller closes it."""
    with contextlib.suppress(OSError):
        os.write(stream.socket.fileno(), data)


BUSY = encode(HostBye(reason=Text("bye.busy", {})))  # no room for another connection


async def serve_tcp(bind: str, port: int, handle_link: LinkHandler, *,
                    handler_nursery: trio.Nursery | None = None,
                    admission: Admission | None = None,
                    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Listen on ``bind``:``port`` until cancelled; ``started`` with the port bound.

    Connection handlers run in ``handler_nursery`` when given, so the daemon can stop
    accepting (cancel this task) while it still says goodbye on the open connections. With
    ``admission``, each connection first asks the budget for a place: refused, it gets a
    ``bye`` with ``bye.busy`` and is closed at once.
    """
    listeners = await trio.open_tcp_listeners(port, host=bind)
    bound = listeners[0].socket.getsockname()[1]
    log.info("tcp_listening", bind=bind, port=bound)

    async def handler(stream: trio.SocketStream) -> None:
        if admission is None:
            await serve_ndjson_stream(stream, peer_of(stream), "tcp", handle_link)
            return
        try:
            address = address_of(stream.socket.getpeername())
        except OSError:  # already gone
            await stream.aclose()
            return
        slot = admission.admit(address, "tcp", shut(stream))
        if slot is None:
            refuse_now(stream, BUSY + b"\n")
            await stream.aclose()
            return
        try:
            link = StreamLink(stream, peer_of(stream), "tcp")
            link.slot = slot
            await run_session(link, handle_link, "stream_handler_failed", transport="tcp")
        finally:
            slot.release()

    async with trio.open_nursery() as nursery:
        await nursery.start(partial(trio.serve_listeners, handler, listeners,
                                    handler_nursery=handler_nursery))
        task_status.started(bound)
