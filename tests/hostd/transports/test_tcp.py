"""NDJSON framing over a byte stream: split lines, over-long lines, the end of the stream,
and ``serve_tcp`` handing each connection to the handler without letting one failure out."""

from __future__ import annotations

import pytest
import trio
import trio.testing

from hostd.protocol import codes
from hostd.protocol.framing import FrameError
from hostd.protocol.messages import MAX_FRAME
from hostd.transports.base import FrameLink, LinkClosed
from hostd.transports.tcp import StreamLink, serve_ndjson_stream, serve_tcp


async def test_lines_across_chunks_and_over_long_lines() -> None:
    client, server = trio.testing.memory_stream_pair()
    link = StreamLink(server, "peer", "tcp")
    await client.send_all(b'{"a":1}\n{"b"')
    assert await link.receive() == b'{"a":1}'
    await client.send_all(b':2}\r\n\n' + b"x" * (MAX_FRAME + 5) + b"\n" + b"next\n")
    assert await link.receive() == b'{"b":2}'
    err = await link.receive()
    assert isinstance(err, FrameError) and err.code == codes.FRAME_TOO_LARGE
    assert await link.receive() == b"next"
    await link.send(b'{"type":"pong"}')
    assert await client.receive_some() == b'{"type":"pong"}\n'
    await client.aclose()
    with pytest.raises(LinkClosed):
        await link.receive()


async def test_serve_ndjson_stream_closes_after_a_failing_handler() -> None:
    client, server = trio.testing.memory_stream_pair()

    async def handler(link: FrameLink) -> None:
        assert link.transport == "bluetooth" and link.peer == "AA:BB"
        raise RuntimeError("a bug")

    await serve_ndjson_stream(server, "AA:BB", "bluetooth", handler)
    assert await client.receive_some() == b"", "the stream was closed"


async def test_serve_tcp_reports_its_port_and_survives_a_bad_handler() -> None:
    seen: list[bytes | FrameError] = []

    async def handler(link: FrameLink) -> None:
        frame = await link.receive()
        seen.append(frame)
        if frame == b"boom":
            raise RuntimeError("one bad connection")
        await link.send(b"ok")

    async with trio.open_nursery() as nursery:
        port = await nursery.start(serve_tcp, "127.0.0.1", 0, handler)
        for payload in (b"boom", b"hello"):
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            await stream.send_all(payload + b"\n")
            reply = await stream.receive_some()
            await stream.aclose()
            assert reply == (b"" if payload == b"boom" else b"ok\n")
        nursery.cancel_scope.cancel()
    assert seen == [b"boom", b"hello"]


async def test_direct_writes_keep_frames_whole_and_in_order_when_the_socket_is_full() -> None:
    """A connection's frames go straight to its socket while nothing waits; what a full
    socket does not take is finished by the sender task before anything newer."""
    from hostd.session import _send_loop
    from hostd.tables.hub import ConnHandle

    frames = [(b'{"n":%d,"pad":"' % i) + bytes([65 + i % 26]) * 30_000 + b'"}' for i in range(40)]
    async with trio.open_nursery() as nursery:
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        port = listeners[0].socket.getsockname()[1]
        client = await trio.open_tcp_stream("127.0.0.1", port)
        server = await listeners[0].accept()
        link = StreamLink(server, "peer", "tcp")
        conn = ConnHandle(1, "tcp", "peer")
        conn.direct = link.direct_writer()
        assert conn.direct is not None
        sent_all = trio.Event()
        nursery.start_soon(_send_loop, conn, link, nursery.cancel_scope, sent_all)
        for f in frames:  # nobody reads yet: 1.2 MB fill the socket, the rest queues in order
            conn.push(f)
        assert conn.queued > 0 and not conn.closed
        received = b""
        with trio.fail_after(20):
            while received.count(b"\n") < len(frames):
                received += await client.receive_some(1 << 16)
        assert received.split(b"\n")[:-1] == frames
        assert conn.queued == 0
        conn.push(b'{"last":true}')  # the outbox is empty again: written at once
        assert conn.queued == 0
        assert await client.receive_some(1 << 16) == b'{"last":true}\n'
        nursery.cancel_scope.cancel()
    for s in (client, server, *listeners):
        await s.aclose()
