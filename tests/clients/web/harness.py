"""A real daemon in a subprocess, a cuttable TCP proxy, and page helpers for the browser tests.

Playwright's sync API blocks, so the daemon runs as ``tablebox serve`` in its own process on
loopback with ephemeral ports; tables are opened through the real CLI and control socket.
The proxy stands between the browser and the HTTP port so a test can drop every connection
for real (Chromium's offline emulation leaves open WebSockets alone).

Also used by ``docs/img/make_screenshots.py``.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import zxingcpp

from tests.hostd.helpers import LAUNCH, ROOT

BIN = Path(sys.executable).parent
CHROMIUM = "/usr/bin/chromium"
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
_LISTENING = re.compile(r"tablebox: listening on tcp [^:]+:(\d+), http [^:]+:(\d+)")


class Box:
    """``tablebox serve`` on 127.0.0.1 with its own data directory; stop() ends it."""

    def __init__(self, data: Path, *, ai_speed: float = 0.02, grace: float = 20.0,
                 toy: bool = False) -> None:
        self.data = data
        self.control = data / "control.sock"
        data.mkdir(parents=True, exist_ok=True)
        self.log = data / "daemon.log"
        # PYTHONPATH: this checkout's code and web page, not whichever the venv installed.
        env = {**os.environ, "TABLEBOX_CONTROL": str(self.control), "PYTHONPATH": str(ROOT)}
        env.pop("NOTIFY_SOCKET", None)
        self._out = self.log.open("wb")
        # toy: the test-only toy game registered too (one registry line, no client code).
        command = [sys.executable, "-c", LAUNCH] if toy else [str(BIN / "tablebox")]
        self.proc = subprocess.Popen(
            [*command, "serve", "--no-mdns", "--no-bluetooth", "--bind", "127.0.0.1",
             "--tcp-port", "0", "--http-port", "0", "--data", str(data),
             "--control", str(self.control), "--ai-speed", str(ai_speed),
             "--grace-seconds", str(grace), "--ai-processes", "0", "--no-log-file"],
            stdout=self._out, stderr=subprocess.STDOUT, env=env)
        self.tcp_port, self.http_port = self._wait_listening()
        self.url = f"http://127.0.0.1:{self.http_port}"

    def _wait_listening(self, timeout: float = 20.0) -> tuple[int, int]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.log.read_text(encoding="utf-8", errors="replace")
            m = _LISTENING.search(text)
            if m:
                return int(m.group(1)), int(m.group(2))
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("the daemon did not start:\n" + self.log.read_text(errors="replace"))

    def cli(self, *args: str) -> Any:
        out = subprocess.run([str(BIN / "tablebox"), *args, "--control", str(self.control), "--json"],
                             capture_output=True, text=True, check=False, timeout=30)
        if out.returncode != 0:
            raise RuntimeError(f"tablebox {' '.join(args)}: {out.stderr or out.stdout}")
        return json.loads(out.stdout)

    def new_table(self, game: str, *opts: str, seed: int | None = None,
                  players: int | None = None, ai: str = "random",
                  turn_timer: float | None = None, name: str | None = None) -> dict[str, Any]:
        args = ["tables", "new", game, "--ai", ai]
        if name is not None:
            args += ["--name", name]
        if turn_timer is not None:
            args += ["--turn-timer", str(turn_timer)]
        for o in opts:
            args += ["--opt", o]
        if seed is not None:
            args += ["--seed", str(seed)]
        if players is not None:
            args += ["--players", str(players)]
        result: dict[str, Any] = self.cli(*args)
        return result

    @contextlib.contextmanager
    def held_table(self, game: str, *opts: str, **kw: Any) -> Iterator[dict[str, Any]]:
        """A new table whose first seat a silent person holds until the block ends.

        Computer players play every seat of a new table at once (at test speed a whole game
        takes a second or two), so a holder sits down over TCP right after the table opens:
        play stops at the holder's first turn, the page joins at leisure, and the holder
        leaves when the block ends (the AI takes its seat back).
        """
        table = self.new_table(game, *opts, **kw)
        with Holder(self.tcp_port, table["code"]):
            yield table

    def table(self, table_id: str) -> dict[str, Any]:
        result: dict[str, Any] = self.cli("tables", "show", str(table_id))
        return result

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._out.close()


class Holder:
    """A person over NDJSON/TCP who takes a seat and never plays; leaves on exit."""

    def __init__(self, port: int, code: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rwb")
        self._send({"type": "hello", "id": 1, "client": "test-holder"})
        self._send({"type": "join", "id": 2, "code": code, "name": "Holder"})
        while True:
            msg = json.loads(self.file.readline())
            if msg.get("re") == 2:
                if msg["type"] != "joined":
                    raise RuntimeError(f"holder could not sit: {msg}")
                self.table = msg["table"]
                self.seat = msg["seat"]
                return

    def _send(self, msg: dict[str, Any]) -> None:
        self.file.write(json.dumps(msg).encode() + b"\n")
        self.file.flush()

    def __enter__(self) -> Holder:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(OSError):
            self._send({"type": "leave", "id": 3, "table": self.table})
            self._send({"type": "bye", "id": 4})
        with contextlib.suppress(OSError):  # the host may close first, after the bye
            self.file.close()
        self.sock.close()


class Proxy:
    """A TCP forwarder on 127.0.0.1 that can cut every connection and refuse new ones."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self._lock = threading.Lock()
        self._socks: set[socket.socket] = set()
        self._cut = False
        self._closed = False
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self._lock:
                if self._closed or self._cut:
                    client.close()
                    continue
                try:
                    upstream = socket.create_connection(self.target, timeout=5)
                except OSError:
                    client.close()
                    continue
                upstream.settimeout(None)
                self._socks |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
            with self._lock:
                self._socks -= {src, dst}

    def cut(self) -> None:
        """Drop every open connection (a reset, as when Wi-Fi goes) and refuse new ones."""
        with self._lock:
            self._cut = True
            socks = list(self._socks)
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self.cut()
        self.listener.close()


@contextlib.contextmanager
def running_box(data: Path, **kw: Any) -> Iterator[Box]:
    box = Box(data, **kw)
    try:
        yield box
    finally:
        box.stop()


# -- page helpers --------------------------------------------------------------------------------
def join(page: Any, base_url: str, code: str, name: str = "Ana") -> None:
    """Open the join link (as a QR code gives it), type a name, and take a seat."""
    page.goto(f"{base_url}/?code={code}")
    page.fill("#join-name", name)
    page.click("button[type=submit]")
    try:
        page.wait_for_selector(".table-screen .seat.mine", timeout=10_000)
    except Exception as e:
        # Say what the page showed instead (a refusal, the lobby, a table without "you").
        shown = page.evaluate("() => ({error: document.querySelector('#join-error')?.textContent,"
                              " conn: document.querySelector('#conn')?.dataset.state,"
                              " main: document.querySelector('main')?.innerText.slice(0, 300)})")
        raise AssertionError(f"no seat of mine after joining {code} as {name}: {shown}") from e


def my_seat(page: Any) -> int:
    return int(page.get_attribute(".seat.mine", "data-seat"))


def game_over(page: Any) -> bool:
    return page.locator(".results").count() > 0


def _enabled(page: Any, selector: str) -> Any:
    return page.locator(f"{selector}:not([disabled])")


def wait_for_turn_or_end(page: Any, timeout: float = 30.0) -> bool:
    """True when it is this player's turn (with the page ready for input), False at game over."""
    page.wait_for_function(
        "() => document.querySelector('.results') || "
        "(document.querySelector('#status.mine') && !document.querySelector('.game.busy'))",
        timeout=timeout * 1000)
    return not game_over(page)


# Action types that step back or give up rather than play on: the generic driver avoids them
# while anything else is offered, so a random game still ends.
TAKE_BACK = frozenset({"undo", "clear", "clear_peg", "cancel", "unpick", "resign", "offer_draw"})
_DRIVER = random.Random(7)


def _choose(page: Any, prefer: tuple[str, ...] = ()) -> None:
    """One move through the page's own controls, whatever the game or its family.

    Every control that sends a legal action carries it as ``data-action`` (a button, a card
    tap, a board square); a card that only selects is ``aria-pressed``; a multi-card choice
    is confirmed by the ``data-confirm`` button once the selection equals a legal action.
    Cards are selected until something is offered (Sequence lights its squares, President
    enables Play), then one offered action is taken: a kind of action first, then one of that
    kind, never a take-back while anything else is offered. ``prefer`` names action types
    taken first when offered, in that order (a driver that heads for the end: a checker's
    landing square rather than picking up another piece).
    """
    for _ in range(60):
        confirm = page.locator("#game [data-confirm]")
        if confirm.count() and confirm.first.is_enabled():
            confirm.first.click()
            return
        picks = _enabled(page, "#game .hand button.card[aria-pressed=false]:not(.dim)")
        buttons = _enabled(page, "#game [data-action]")
        offered = [json.loads(a) for a in buttons.evaluate_all(
            "(bs) => bs.map((b) => b.dataset.action)")]
        forward = [i for i, a in enumerate(offered) if a.get("type") not in TAKE_BACK]
        if picks.count() and (confirm.count() or not forward):
            picks.first.click()
            continue
        choices = forward or list(range(len(offered)))
        if not choices:
            raise AssertionError("the page offers nothing to do on this seat's turn")
        for kind in prefer:
            wanted = [i for i in choices if offered[i]["type"] == kind]
            if wanted:
                buttons.nth(_DRIVER.choice(wanted)).click()
                return
        # A "submit" offered beside twenty-four pegs is taken half the time, not once in 25.
        kind = _DRIVER.choice(sorted({offered[i]["type"] for i in choices}))
        buttons.nth(_DRIVER.choice([i for i in choices if offered[i]["type"] == kind])).click()
        return
    raise AssertionError("selecting cards never led to a move")


def play_one_turn(page: Any, game: str, prefer: tuple[str, ...] = ()) -> None:
    """Make one move by clicking, choosing only among what the page offers as enabled (the
    ``prefer`` types first, as ``_choose`` says)."""
    version_before = page.evaluate("() => document.querySelector('#game').dataset.version")
    _choose(page, prefer)
    # The move was sent: wait until the host's next state replaced this one.
    page.wait_for_function(
        "(v) => document.querySelector('.results') || "
        "(document.querySelector('#game') && document.querySelector('#game').dataset.version !== v)",
        arg=version_before, timeout=15_000)


def play_to_end(page: Any, game: str, *, max_moves: int = 400, stop_after: int | None = None) -> int:
    """Play by clicking until the game is over (or ``stop_after`` moves); moves made."""
    moves = 0
    while moves < max_moves:
        if stop_after is not None and moves >= stop_after:
            return moves
        if not wait_for_turn_or_end(page):
            return moves
        play_one_turn(page, game)
        moves += 1
    raise AssertionError(f"{game}: no end after {max_moves} moves")


def decode_invite(page: Any) -> str:
    """What a phone camera reads from the invite's QR code (drawn into a canvas)."""
    page.wait_for_function("() => { const i = document.querySelector('dialog.invite img');"
                           " return i && i.complete && i.naturalWidth > 0; }")
    size = 400
    lum = base64.b64decode(page.evaluate("""(n) => {
        const img = document.querySelector('dialog.invite img');
        const c = document.createElement('canvas'); c.width = c.height = n;
        const g = c.getContext('2d'); g.fillStyle = '#fff'; g.fillRect(0, 0, n, n);
        g.imageSmoothingEnabled = false; g.drawImage(img, 0, 0, n, n);
        const d = g.getImageData(0, 0, n, n).data; let s = '';
        for (let k = 0; k < d.length; k += 4) s += String.fromCharCode(d[k]);
        return btoa(s); }""", size))
    found = zxingcpp.read_barcodes(zxingcpp.ImageView(lum, size, size, zxingcpp.ImageFormat.Lum))
    assert len(found) == 1, [r.text for r in found]
    return str(found[0].text)
