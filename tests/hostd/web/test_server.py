"""The HTTP port against a real hypercorn on loopback: the page, health, QR codes, shutdown.

The WebSocket framing itself is tested in tests/hostd/transports/test_websocket.py.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import trio

from hostd.web.server import join_base_url
from tests.hostd.web.httpport import start


def get(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


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
