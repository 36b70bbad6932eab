"""The HTTP port: hypercorn's trio worker serving the web client, ``/ws``, ``/healthz`` and QR codes.

``serve_http`` runs as a task in the daemon's nursery and reports the port it bound once it
listens. Routes:

- ``/ws``: the WebSocket transport; each accepted socket becomes a ``WebSocketLink`` awaited by
  the session handler it was given (one JSON object per text frame).
- ``/healthz``: ``{"ok": true}`` for probes; answered even while the connection budget is
  full (from its reserve), when every other request is refused with 503.
- ``/qr.svg?code=CODE``: a QR code (segno, SVG) of the join link ``http://IP:PORT/?code=CODE``.
  The address is an IP literal because many phones cannot resolve ``.local`` names.
- everything else: the static files of the web client (``clients/web``), ``/`` is its page.

This module owns HTTP concerns only (routing, headers, the QR code). It must never parse
protocol messages or touch tables: everything a player does goes through ``/ws`` and the
session handler. It must never import ``clients`` (the daemon layer may not), so it finds the
web client's directory through the import system without importing it.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import ipaddress
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import segno
import trio
from hypercorn.config import Config as HypercornConfig
from hypercorn.trio import run as hypercorn_run
from hypercorn.trio import serve
from hypercorn.trio.tcp_server import MAX_RECV, TCPServer
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from hostd.config import Config
from hostd.logs import get_logger
from hostd.transports.admission import Admission, Slot, address_of
from hostd.transports.base import FrameLink
from hostd.transports.tcp import peer_of, refuse_now, run_session, shut
from hostd.transports.websocket import (
    HARD_LIMIT,
    HEAD_BYTES,
    WebSocketLink,
    is_upgrade_to,
    refuse_websocket,
    serve_websocket,
)

log = get_logger(__name__)

LinkHandler = Callable[[FrameLink], Awaitable[None]]

_CODE = re.compile(r"[A-Za-z0-9]{1,16}")

# While the connection budget is full (hostd.transports.admission): a health check is still
# answered, from the reserve; anything else is told to come back.
PROBE_SECONDS = 2.0  # a request head read from the reserve must arrive within this
_HEALTHZ = re.compile(rb"GET /healthz(\?\S*)? HTTP/1\.[01]\r\n")
_HEALTHY = (b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n"
            b"cache-control: no-store\r\nconnection: close\r\n\r\n{\"ok\":true}")
_BUSY_PAGE = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
              b"content-length: 16\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
              b"{\"error\":\"busy\"}")

# The page loads nothing from elsewhere and runs no inline script: say so to the browser.
_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'; "
     b"base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


def default_web_root() -> Path:
    """Where ``clients/web`` is installed, found without importing the ``clients`` package."""
    spec = importlib.util.find_spec("clients")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))) / "web"
    return Path(__file__).resolve().parents[2] / "clients" / "web"


def _host_literal(host: str) -> str | None:
    """``host`` as it goes into a URL if it is an IP literal, else None."""
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None
    return f"[{ip}]" if ip.version == 6 else str(ip)


def join_base_url(scope: Scope) -> str:
    """The IP-literal base URL a phone can use to reach this box, as seen from this request.

    The Host header is used when it already is an IP literal (the player typed or scanned one);
    otherwise (``tablebox.local``) the local address the request arrived on, which is an address
    on the network the requesting device is on.
    """
    host_header = ""
    for name, value in scope.get("headers", []):
        if name == b"host":
            host_header = value.decode("latin-1")
            break
    try:
        parts = urlsplit("//" + host_header)
        literal, port = _host_literal(parts.hostname or ""), parts.port
    except ValueError:
        literal, port = None, None
    if literal is not None:
        return f"http://{literal}" + ("" if port in (None, 80) else f":{port}")
    server = scope.get("server")
    if server:
        literal = _host_literal(str(server[0])) or str(server[0])
        port = int(server[1]) if server[1] is not None else 80
        return f"http://{literal}" + ("" if port == 80 else f":{port}")
    return "http://127.0.0.1"


def join_link(base_url: str, code: str) -> str:
    return f"{base_url.rstrip('/')}/?code={code}"


def qr_svg_document(text: str) -> bytes:
    """A standalone SVG of the QR code for ``text``, scalable to any size the page gives it."""
    qr = segno.make(text, error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", xmldecl=False, scale=4, border=2, dark="#000", light="#fff")
    svg = out.getvalue()
    # segno writes width/height only; a viewBox lets the image scale without blurring.
    side = qr.symbol_size(scale=4, border=2)[0]
    return svg.replace(b"<svg ", f'<svg viewBox="0 0 {side} {side}" '.encode(), 1)


class _Headers:
    """ASGI middleware adding the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *_SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _Page(StaticFiles):
    """The web client's files; the page itself is revalidated on every load so updates land."""

    def file_response(self, full_path: Any, stat_result: Any, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["cache-control"] = "no-cache"
        return response


def build_app(handle_link: LinkHandler, web_root: Path | None = None,
              admission: Admission | None = None) -> Starlette:
    """The starlette app: the routes above around the given session handler (and, with
    ``admission``, every connection to the port first asks the connection budget)."""
    root = web_root if web_root is not None else default_web_root()

    async def ws_endpoint(ws: WebSocket) -> None:
        await ws.accept()
        link = WebSocketLink(ws)
        await run_session(link, handle_link, "websocket_handler_failed", peer=link.peer)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def qr_svg(request: Request) -> Response:
        code = request.query_params.get("code", "")
        if code and not _CODE.fullmatch(code):
            return JSONResponse({"error": "bad_code"}, status_code=400)
        base = join_base_url(request.scope)
        text = join_link(base, code) if code else base + "/"
        return Response(qr_svg_document(text), media_type="image/svg+xml",
                        headers={"cache-control": "no-store"})

    routes: list[Any] = [
        WebSocketRoute("/ws", ws_endpoint),
        Route("/healthz", healthz),
        Route("/qr.svg", qr_svg),
        # Each game's string catalogue, shared with the kiosk and the terminal.
        Mount("/strings", app=_Page(directory=root.parent / "strings", check_dir=False),
              name="strings"),
        Mount("/", app=_Page(directory=root, html=True, check_dir=False), name="web"),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(_Headers)
    # Upgrades to /ws are served before hypercorn sees them (_OneConnection); the route
    # above is what a client gets if one reaches it all the same.
    app.state.handle_link = handle_link
    app.state.admission = admission
    return app


class _OneConnection(TCPServer):
    """hypercorn's connection, kept from taking the whole server down with it.

    hypercorn lets some protocol errors escape a connection (bytes right after a WebSocket
    upgrade request, hypercorn issue 225: ``LocalProtocolError``), and an exception out of
    one connection ends trio's ``serve_listeners`` and so the daemon: one request could stop
    every table. Here it ends only that connection, the WebSocket served past hypercorn
    (``_take_websocket``) included.

    It is also where each connection to the port asks the connection budget for a place
    (``hostd.transports.admission``) before a byte is read: an idle HTTP connection counts
    like any other, and one without a place gets only ``_when_full``.
    """

    async def run(self) -> None:
        state = getattr(getattr(self.app, "app", None), "state", None)
        handle_link = getattr(state, "handle_link", None)
        admission: Admission | None = getattr(state, "admission", None)
        slot: Slot | None = None
        try:
            if admission is not None and isinstance(self.stream, trio.SocketStream):
                try:
                    address = address_of(self.stream.socket.getpeername())
                except OSError:  # already gone
                    address = None
                slot = admission.admit(address, "http", shut(self.stream)) if address else None
                if slot is None:
                    await self._when_full(admission if address else None)
                    return
            if handle_link is not None and isinstance(self.stream, trio.SocketStream):
                head = await self._take_websocket(handle_link, slot)
                if head is None:
                    return
                # Anything else is hypercorn's, the bytes read so far included.
                self.stream = _Replay(self.stream, head, slot)
            await super().run()
        except BaseExceptionGroup as group:
            # Cancellation (and KeyboardInterrupt) still goes up; errors stop here.
            keep, errors = group.split(lambda e: not isinstance(e, Exception))
            if errors is not None:
                log.warning("http_connection_failed", error=type(errors.exceptions[0]).__name__)
            if keep is not None:
                raise keep from None
        except Exception as e:
            log.warning("http_connection_failed", error=type(e).__name__)
        finally:
            if slot is not None:
                slot.release()

    async def _when_full(self, admission: Admission | None) -> None:
        """No place in the budget: from the reserve, answer a health check (``/healthz``)
        and refuse anything else politely (a WebSocket gets ``bye.busy`` and 1013, a page
        503), then close. Bounded: ``PROBE_SLOTS`` at once, ``PROBE_SECONDS`` each."""
        stream = cast(trio.SocketStream, self.stream)
        try:
            with contextlib.ExitStack() as stack:
                if admission is None or not stack.enter_context(admission.probe()):
                    return
                head = b""
                with trio.move_on_after(PROBE_SECONDS):
                    head = await _read_head(stream, lambda h: b"\r\n\r\n" in h
                                            or len(h) >= HEAD_BYTES)
                if _HEALTHZ.match(head):
                    refuse_now(stream, _HEALTHY)
                elif is_upgrade_to(b"/ws", head):
                    refuse_websocket(stream, head)
                elif head:
                    refuse_now(stream, _BUSY_PAGE)
        finally:
            with trio.CancelScope(shield=True), contextlib.suppress(
                    trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await stream.aclose()

    async def _take_websocket(self, handle_link: LinkHandler, slot: Slot | None) -> bytes | None:
        """Read the request head as far as it tells whether it is an upgrade to ``/ws``:
        serve that WebSocket here (``serve_websocket``: see ``RawWebSocketLink`` for why)
        and give None; otherwise the bytes read, for hypercorn. Bounded in bytes and in
        time (hypercorn's keep-alive timeout): a head that never ends is closed."""
        stream = cast(trio.SocketStream, self.stream)
        head = b""
        verdict: bool | None = None

        def decided(h: bytes) -> bool:
            nonlocal verdict
            if slot is not None:
                slot.heard_from()
            verdict = is_upgrade_to(b"/ws", h)
            return verdict is not None

        with trio.move_on_after(self.config.keep_alive_timeout):
            head = await _read_head(stream, decided)
        if verdict is False:
            return head
        try:
            if verdict:
                if slot is not None:
                    slot.kind = "websocket"
                await serve_websocket(stream, head, peer_of(stream), handle_link, slot=slot)
        finally:
            with trio.CancelScope(shield=True), contextlib.suppress(
                    trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                await stream.aclose()
        return None


async def _read_head(stream: trio.SocketStream, enough: Callable[[bytes], bool]) -> bytes:
    """Bytes from ``stream`` until ``enough`` of them (or its end); the caller bounds the time.

    Reads what the kernel has (``MAX_RECV`` at a time): whatever follows the head is kept
    with it, for whoever serves the request.
    """
    head = b""
    while True:
        try:
            chunk = await stream.receive_some(MAX_RECV)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            chunk = b""
        if not chunk:
            return head
        head += chunk
        if enough(head):
            return head


class _Replay:
    """A stream that gives back the bytes already read from it before reading more (and
    tells the connection budget whenever bytes arrive: the connection is not idle)."""

    def __init__(self, stream: trio.SocketStream, head: bytes, slot: Slot | None = None) -> None:
        self._stream = stream
        self._head = head
        self._slot = slot

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    async def receive_some(self, max_bytes: int | None = None) -> bytes | bytearray:
        if self._head:
            head, self._head = self._head, b""
            return head
        data = await self._stream.receive_some(max_bytes)
        if self._slot is not None:
            self._slot.heard_from()
        return data


# hypercorn's trio worker builds each connection from this module-level name.
assert hypercorn_run.TCPServer is TCPServer, "hypercorn changed: check _OneConnection"
hypercorn_run.TCPServer = _OneConnection  # type: ignore[misc]


def hypercorn_config(config: Config) -> HypercornConfig:
    hc = HypercornConfig()
    host = config.bind
    hc.bind = [f"[{host}]:{config.http_port}" if ":" in host else f"{host}:{config.http_port}"]
    hc.accesslog = None
    hc.errorlog = logging.getLogger("hostd.web.hypercorn")
    # Its info lines ("Running on ... (CTRL + C to quit)") repeat our own http_listening.
    hc.errorlog.setLevel(logging.WARNING)
    hc.websocket_max_message_size = HARD_LIMIT
    hc.websocket_ping_interval = None  # the protocol's own ping/pong judges liveness
    hc.graceful_timeout = 2.0
    hc.include_server_header = False
    return hc


def bound_port(binds: list[str]) -> int:
    """The port from hypercorn's ``http://host:port`` bind strings (the first one)."""
    return int(binds[0].rsplit(":", 1)[1])


async def serve_http(
    config: Config,
    handle_link: LinkHandler,
    *,
    web_root: Path | None = None,
    shutdown: trio.Event | None = None,
    admission: Admission | None = None,
    task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the HTTP port until cancelled (or until ``shutdown`` is set: a graceful stop).

    ``task_status.started(port)`` is called once the socket listens, with the bound port (the
    real one when ``config.http_port`` is 0).
    """
    app = build_app(handle_link, web_root, admission)
    hc = hypercorn_config(config)

    async def trigger() -> None:
        if shutdown is None:
            await trio.sleep_forever()
        else:
            await shutdown.wait()

    async def run(*, task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
        # hypercorn calls started(binds) right after its sockets listen.
        await serve(app, hc, shutdown_trigger=trigger, task_status=task_status)  # type: ignore[arg-type]

    async with trio.open_nursery() as nursery:
        binds: list[str] = await nursery.start(run)
        port = bound_port(binds)
        log.info("http_listening", bind=config.bind, port=port)
        task_status.started(port)
