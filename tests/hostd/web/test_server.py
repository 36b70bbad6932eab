"""The HTTP port against a real hypercorn on loopback and real WebSocket and HTTP clients.

A stub session handler echoes each frame and answers each ``FrameError`` with its code, so
these tests pin the transport's framing rules without the daemon.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
from trio_websocket import ConnectionClosed, WebSocketConnection, wrap_client_stream

from hostd.config import Config
from hostd.protocol import codes
from hostd.protocol.framing import FrameError
from hostd.protocol.messages import MAX_FRAME
from hostd.transports.base import FrameLink, LinkClosed
from hostd.web.server import join_base_url, serve_http

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


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


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


async def test_page_health_and_static_files(nursery: trio.Nursery, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    (tmp_path / "app.js").write_text("export const x = 1;\n", encoding="utf-8")
    port = await start(nursery, web_root=tmp_path)
    base = f"http://127.0.0.1:{port}"
    status, headers, body = await trio.to_thread.run_sync(get, base + "/?code=AB12")
    assert status == 200 and body.startswith(b"<!doctype html>")
    assert "default-src 'self'" in headers["content-security-policy"]
    status, headers, body = await trio.to_thread.run_sync(get, base + "/app.js")
    assert status == 200 and "javascript" in headers["content-type"]
    status, _, body = await trio.to_thread.run_sync(get, base + "/healthz")
    assert status == 200 and json.loads(body) == {"ok": True}
    status, _, _ = await trio.to_thread.run_sync(get, base + "/nope.js")
    assert status == 404
    status, _, _ = await trio.to_thread.run_sync(get, base + "/../../etc/passwd")
    assert status == 404


async def test_qr_code_svg(nursery: trio.Nursery) -> None:
    port = await start(nursery)
    base = f"http://127.0.0.1:{port}"
    status, headers, body = await trio.to_thread.run_sync(get, base + "/qr.svg?code=K7QP")
    assert status == 200 and headers["content-type"].startswith("image/svg+xml")
    # A document of its own (an <img> needs the namespace), scalable (a viewBox).
    assert body.startswith(b'<svg viewBox="0 0 ') and b'xmlns="http://www.w3.org/2000/svg"' in body
    assert b"<path" in body
    status, _, body = await trio.to_thread.run_sync(get, base + "/qr.svg?code=<script>")
    assert status == 400 and json.loads(body) == {"error": "bad_code"}


def test_join_base_url_prefers_an_ip_literal() -> None:
    def scope(host: str, server: tuple[str, int] = ("192.168.1.20", 8080)) -> dict:
        return {"headers": [(b"host", host.encode())], "server": server}

    assert join_base_url(scope("10.0.0.5:8080")) == "http://10.0.0.5:8080"
    assert join_base_url(scope("[fe80::1]:8080")) == "http://[fe80::1]:8080"
    assert join_base_url(scope("10.0.0.5")) == "http://10.0.0.5"
    # A .local name: the address the request arrived on instead.
    assert join_base_url(scope("tablebox.local:8080")) == "http://192.168.1.20:8080"
    assert join_base_url(scope("tablebox.local", ("192.168.1.20", 80))) == "http://192.168.1.20"
    assert join_base_url(scope("bad:port:x")) == "http://192.168.1.20:8080"


async def test_graceful_shutdown_event_stops_the_server() -> None:
    stop = trio.Event()
    async with trio.open_nursery() as nursery:
        port = await start(nursery, shutdown=stop)
        status, _, _ = await trio.to_thread.run_sync(get, f"http://127.0.0.1:{port}/healthz")
        assert status == 200
        stop.set()
    # The nursery exited on its own: the task ended, and the port no longer accepts.
    with pytest.raises(OSError):
        await trio.open_tcp_stream("127.0.0.1", port)


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
