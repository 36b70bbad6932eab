"""The captive portal on the hotspot: every plain-HTTP request to port 80 of the box's
hotspot address is sent to the box's page.

A phone that joins a Wi-Fi checks that it reaches the internet by fetching a known URL
(Android ``/generate_204`` expecting 204, iOS and macOS ``/hotspot-detect.html`` expecting a
"Success" page, Windows ``/connecttest.txt`` expecting "Microsoft Connect Test", Firefox
``/canonical.html``). The hotspot's DNS sends every host name here, and an answer other
than the expected one, a redirect, makes the phone open its captive-portal sheet on the
redirect's target: the box's table list. ``/redirect`` (what Windows opens) and every other
path get the same answer, so a person who types any address lands on the box too.

Bound to the hotspot address only. It reads at most one request head per connection, sends
one short answer and closes; it never serves a file, keeps no state, and logs no request
line above debug.
"""

from __future__ import annotations

import contextlib

import trio

from hostd.logs import get_logger

HEAD_MAX = 8192
READ_TIMEOUT = 5.0
# The checks the test suite exercises, by platform (the paths they fetch).
CHECKS = {
    "android": "/generate_204",
    "ios": "/hotspot-detect.html",
    "windows": "/connecttest.txt",
    "firefox": "/canonical.html",
}


def redirect(target: str) -> bytes:
    """The one answer: 302 to ``target``, never cached (a phone must check again later)."""
    body = (f'<!doctype html><meta charset="utf-8"><title>tablebox</title>'
            f'<a href="{target}">tablebox</a>\n').encode()
    head = (
        "HTTP/1.1 302 Found\r\n"
        f"Location: {target}\r\n"
        "Cache-Control: no-store\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    return head + body


async def _one(stream: trio.abc.Stream, answer: bytes) -> None:
    with contextlib.suppress(OSError, trio.BrokenResourceError, trio.ClosedResourceError):
        async with stream:
            head = b""
            with trio.move_on_after(READ_TIMEOUT):
                while b"\r\n\r\n" not in head and len(head) < HEAD_MAX:
                    chunk = await stream.receive_some(HEAD_MAX)
                    if not chunk:
                        break
                    head += chunk
            if head:
                await stream.send_all(answer)


async def serve_portal(address: str, target: str, port: int = 80, *,
                       task_status: trio.TaskStatus[int] = trio.TASK_STATUS_IGNORED) -> None:
    """Redirect every request on ``address``:``port`` to ``target`` until cancelled."""
    log = get_logger("hostd.hotspot.portal")
    answer = redirect(target)
    listeners = await trio.open_tcp_listeners(port, host=address)
    bound = listeners[0].socket.getsockname()[1]
    log.info("hotspot_portal_ready", address=address, port=bound, target=target)
    async with trio.open_nursery() as nursery:
        task_status.started(bound)
        async def handler(stream: trio.SocketStream) -> None:
            await _one(stream, answer)

        await trio.serve_listeners(handler, listeners, handler_nursery=nursery)
