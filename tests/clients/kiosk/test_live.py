"""The kiosk against a real daemon: ``tablebox serve`` in a subprocess on loopback.

It follows a table of every game to its end (computer players in every seat), shows
"reconnecting" while the daemon is killed, and comes back by itself when it restarts on the
same port and data. The ``tablebox kiosk`` command itself runs headless too, and its
screen, read back from a PNG, carries the QR code of every live table.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
import trio
import zxingcpp

from clients.kiosk import net
from clients.kiosk.model import ROTATE, Model
from clients.kiosk.render import Screen
from engine import registry
from hostd.control import request
from tests.hostd.helpers import ROOT, DaemonProcess, short_dir, start_process

GAMES = registry.ids()  # every registered game
AI_SPEED = "0.01"  # about 10 ms a move: a game lasts a second or two, long enough to watch


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Box:
    """A daemon that can be killed and started again on the same port and data."""

    def __init__(self) -> None:
        self.dir = short_dir()
        self.port = free_port()
        self.proc: DaemonProcess | None = None

    @property
    def control(self) -> Path:
        return self.dir / "c.sock"

    def start(self) -> None:
        self.proc = start_process(self.dir / "data", self.control, "--tcp-port", str(self.port),
                                  "--ai-speed", AI_SPEED)
        assert self.proc.tcp_port == self.port

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            if self.proc.proc.stdout is not None:
                self.proc.proc.stdout.close()
            self.proc = None

    def new_table(self, game: str) -> dict[str, str]:
        table: dict[str, str] = request(self.control, "tables.new", game=game, players=None,
                                        options={}, ai="random", name="", turn_timer=None,
                                        seed=7)
        return table


@pytest.fixture
def box() -> Iterator[Box]:
    b = Box()
    b.start()
    try:
        yield b
    finally:
        b.kill()


def frame_texts(screen: Screen, model: Model, size: tuple[int, int] = (1280, 720)) -> list[str]:
    surface = pygame.Surface(size)
    screen.frame(surface, model, time.monotonic())
    bounds = surface.get_rect()
    for item in screen.text.drawn:
        assert bounds.contains(item.rect), item
    return [item.text for item in screen.text.drawn]


async def wait_for(predicate: object, timeout: float = 20.0) -> None:
    assert callable(predicate)
    with trio.fail_after(timeout):
        while not predicate():
            await trio.sleep(0.02)


async def test_follows_every_game_to_the_end_and_survives_a_restart(box: Box) -> None:
    pygame.display.init()
    screen = Screen("en")
    model = Model("127.0.0.1")
    versions: dict[str, set[int]] = {}
    async with trio.open_nursery() as nursery:
        nursery.start_soon(lambda: net.follow(model, net.Target("127.0.0.1", box.port), box.port,
                                              poll=0.1))
        await wait_for(lambda: model.link == "up")
        ids = {box.new_table(g)["id"]: g for g in GAMES}

        def seen() -> bool:
            for table_id, entry in model.tables.items():
                if entry.state is not None:
                    versions.setdefault(table_id, set()).add(entry.state.version)
            return all(model.tables.get(t) is not None and model.tables[t].outcome is not None
                       for t in ids)

        with trio.fail_after(60):
            while not seen():
                frame_texts(screen, model)  # draw live states as they come
                await trio.sleep(0.02)
        for table_id, game in ids.items():
            entry = model.tables[table_id]
            assert entry.game == game
            assert entry.state is not None and entry.state.status == "finished"
            assert entry.state.seat is None  # a spectator's state, never a seat's
            assert entry.state.legal == []  # and so no actions to choose from
            assert all(s.controller == "ai" for s in entry.seats)  # it never took a seat
            assert len(versions[table_id]) > 3, f"{game}: saw only {sorted(versions[table_id])}"
        texts = frame_texts(screen, model, (1920, 1080))
        assert texts.count(screen.tr.t("kiosk.game_over")) >= 2  # the header and the banner

        box.kill()
        await wait_for(lambda: model.link == "down")
        assert screen.tr.t("kiosk.reconnecting", host="127.0.0.1") in frame_texts(screen, model)
        assert set(ids) <= set(model.tables)  # the last picture stays up meanwhile

        box.start()
        await wait_for(lambda: model.link == "up", timeout=30)
        fresh = box.new_table("euchre")["id"]
        await wait_for(lambda: fresh in model.tables and model.tables[fresh].state is not None)
        assert set(ids) <= set(model.tables)  # restored tables are followed again
        assert screen.tr.t("kiosk.reconnecting", host="127.0.0.1") not in frame_texts(screen,
                                                                                     model)
        nursery.cancel_scope.cancel()


def decode(path: Path) -> list[str]:
    img = pygame.image.load(str(path))
    w, h = img.get_size()
    pixels = pygame.image.tobytes(img, "RGB")
    return [r.text for r in zxingcpp.read_barcodes(
        zxingcpp.ImageView(pixels, w, h, zxingcpp.ImageFormat.RGB))]


def test_the_command_shows_live_tables(box: Box, tmp_path: Path) -> None:
    codes = {box.new_table(g)["code"] for g in GAMES}
    shot = tmp_path / "screen.png"
    # PYTHONPATH: this checkout's kiosk, not whichever the venv installed (it must speak the
    # daemon's protocol).
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1", "TABLEBOX_KIOSK_SNAPSHOT": str(shot),
           "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "tablebox"), "kiosk", "--host", "127.0.0.1",
         "--port", str(box.port), "--windowed", "--size", "1920x1080"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        # Tables beyond one screen come up in turn, each within one ROTATE of calm at worst
        # (moving tables come sooner); the start of the process comes first. The loop ends as
        # soon as every code was seen.
        deadline = time.monotonic() + 20 + ROTATE * len(codes)
        found: set[str] = set()
        while time.monotonic() < deadline and proc.poll() is None:
            if shot.exists():
                # More tables than fit in one screen are shown in turn (clients/kiosk/model.py,
                # DWELL): every one must come up within the deadline.
                found |= {url.rsplit("=", 1)[-1] for url in decode(shot)}
                if found >= codes:
                    break
            time.sleep(0.2)
        assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
        assert found >= codes
    finally:
        proc.terminate()
        proc.wait(10)
        if proc.stdout is not None:
            proc.stdout.close()


def test_bad_options_are_one_line_errors() -> None:
    tablebox = str(Path(sys.executable).parent / "tablebox")
    for args, words in ((["--size", "huge"], "size must look like"),
                        (["--lang", "de"], "unknown language")):
        env = {k: v for k, v in os.environ.items() if k != "PYGAME_HIDE_SUPPORT_PROMPT"}
        out = subprocess.run([tablebox, "kiosk", *args], capture_output=True, text=True,
                             env={**env, "SDL_VIDEODRIVER": "dummy"}, check=False)
        assert out.returncode == 1
        assert words in out.stderr and "Traceback" not in out.stderr
        # The error is all there is: pygame's greeting banner never comes first.
        assert out.stdout == "" and len(out.stderr.strip().splitlines()) == 1, out
