"""The WebSocket transport as a ``FrameLink``: framing rules, closing, failing handlers.

Real hypercorn on loopback, real trio-websocket client, a stub handler (tests/hostd/web/httpport).
"""

from __future__ import annotations

import json

import pytest
import trio
from trio_websocket import ConnectionClosed

from hostd.protocol import codes
from hostd.protocol.messages import MAX_FRAME
from hostd.transports.base import FrameLink, LinkClosed
from hostd.transports.websocket import HARD_LIMIT
from tests.hostd.web.httpport import start, ws_client


async def test_websocket_echo_and_framing_errors(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    async with ws_client(port) as ws:
        await ws.send_message('{"type":"ping","id":1,"note":"été ✓"}')
        assert await ws.get_message() == '{"type":"ping","id":1,"note":"été ✓"}'
        await ws.send_message(b"\x00binary")
        assert json.loads(await ws.get_message()) == {"type": "rejected", "code": codes.NOT_TEXT}
        # Over the limit by one byte, counted in UTF-8 (a 2-byte character at the end).
        await ws.send_message("x" * (MAX_FRAME - 1) + "é")
        assert json.loads(await ws.get_message()) == {"type": "rejected", "code": codes.FRAME_TOO_LARGE}
        # Exactly at the limit is a frame; the link carries on after each error.
        await ws.send_message("y" * MAX_FRAME)
        assert await ws.get_message() == "y" * MAX_FRAME


async def test_a_failing_handler_closes_only_its_own_link(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    async with ws_client(port) as other:
        async with ws_client(port) as bad:
            await bad.send_message('"boom"')
            with pytest.raises(ConnectionClosed):
                await bad.get_message()
        await other.send_message("{}")
        assert await other.get_message() == "{}"


async def test_send_after_peer_closed_raises_link_closed(nursery: trio.Nursery) -> None:
    seen: list[str] = []
    done = trio.Event()

    async def handler(link: FrameLink) -> None:
        try:
            with pytest.raises(LinkClosed):
                await link.receive()
            with pytest.raises(LinkClosed):
                await link.send(b"{}")
            seen.append(link.transport)
        finally:
            done.set()

    port = await start(nursery, handler)
    async with ws_client(port):
        pass
    with trio.fail_after(5):
        await done.wait()
    assert seen == ["websocket"]


async def test_cancelling_the_server_ends_open_links_promptly() -> None:
    async with trio.open_nursery() as nursery:
        port = await start(nursery)
        async with ws_client(port) as ws:
            await ws.send_message("{}")
            assert await ws.get_message() == "{}"
            with trio.fail_after(3):
                nursery.cancel_scope.cancel()
                with pytest.raises(ConnectionClosed):
                    await ws.get_message()


async def test_a_message_over_the_hard_limit_closes_the_link(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    async with ws_client(port) as ws:
        await ws.send_message("z" * (HARD_LIMIT + 1))
        with pytest.raises(ConnectionClosed) as closed:
            await ws.get_message()
        assert closed.value.reason.code == 1009  # message too big: nothing was buffered past it
    async with ws_client(port) as again:  # the port itself is fine
        await again.send_message("{}")
        assert await again.get_message() == "{}"


def test_only_upgrades_to_ws_are_taken_from_hypercorn() -> None:
    from hostd.transports.websocket import is_upgrade_to

    up = (b"GET /ws?x=1 HTTP/1.1\r\nHost: b\r\nConnection: Upgrade\r\n"
          b"Upgrade: WebSocket\r\n\r\n")
    assert is_upgrade_to(b"/ws", up) is True
    for i in (1, 5, 20, len(up) - 1):  # a head read in pieces: not known yet
        assert is_upgrade_to(b"/ws", up[:i]) is None
    assert is_upgrade_to(b"/ws", b"GET / HTTP/1.1\r\n\r\n") is False
    assert is_upgrade_to(b"/ws", b"POST /ws HTTP/1.1\r\n") is False
    assert is_upgrade_to(b"/ws", b"GET /wsx HTTP/1.1\r\nUpgrade: websocket\r\n\r\n") is False
    assert is_upgrade_to(b"/ws", b"GET /ws HTTP/1.1\r\nHost: b\r\n\r\n") is False  # no upgrade
    assert is_upgrade_to(b"/ws", b"GET /ws HTTP/1.1\r\n" + b"X: y\r\n" * 4000) is False


async def test_pings_are_answered_and_the_close_handshake_is_done(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    async with ws_client(port) as ws:
        with trio.fail_after(5):
            await ws.ping(b"are you there")  # returns once the matching pong is back
        await ws.send_message('{"a":1}')
        assert await ws.get_message() == '{"a":1}'
    closed = ws.closed
    assert closed is not None and closed.code == 1000


async def test_an_upgrade_after_another_request_goes_through_starlettes_route(
        nursery: trio.Nursery) -> None:
    """Only a connection's first request is looked at for /ws; an upgrade on a kept-alive
    connection reaches the ASGI route and gets the same link rules."""
    from trio_websocket import wrap_client_stream

    from tests.hostd.web.httpport import echo

    kinds: list[str] = []

    async def handler(link: FrameLink) -> None:
        kinds.append(type(link).__name__)
        await echo(link)

    port = await start(nursery, handler)
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    try:
        await stream.send_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        reply = b""
        with trio.fail_after(5):
            while not reply.endswith(b'{"ok":true}'):
                reply += await stream.receive_some(4096)
        assert reply.startswith(b"HTTP/1.1 200")
        async with trio.open_nursery() as inner:
            ws = await wrap_client_stream(inner, stream, f"127.0.0.1:{port}", "/ws")
            await ws.send_message('{"a":2}')
            assert await ws.get_message() == '{"a":2}'
            await ws.send_message(b"\x00binary")
            assert json.loads(await ws.get_message()) == {"type": "rejected",
                                                          "code": codes.NOT_TEXT}
            await ws.aclose()
    finally:
        await stream.aclose()
    assert kinds == ["WebSocketLink"]  # the ASGI link, not RawWebSocketLink
    async with ws_client(port) as ws:  # a fresh connection's upgrade is taken before hypercorn
        await ws.send_message("{}")
        assert await ws.get_message() == "{}"
    assert kinds == ["WebSocketLink", "RawWebSocketLink"]
