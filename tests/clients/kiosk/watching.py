"""A kiosk watching a real box from a thread of its own, for tests whose own thread is busy
(Playwright's sync API drives phones from the test's thread).

It is the kiosk's own code end to end: ``clients.kiosk.net.follow`` keeps a ``Model`` in step
with the daemon over TCP, and the kiosk's ``Screen`` draws a frame headless (SDL's dummy
driver) whenever the model changed or a second ticked, as ``clients.kiosk.app`` does. The only
addition is that its connection keeps every byte it received (``record=True``), so a test can
check with tests/hostd/test_leaks.py's ``check_bytes`` that nothing hidden ever reached it.

Owns the thread and its trio loop. Must never touch the model or the screen from the test's
thread: ``look`` runs a function in the kiosk's thread, between frames.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

# SDL reads these when pygame starts; a browser test may be the first to import pygame.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"

import pygame
import trio

from clients.client import Client, connect
from clients.kiosk import net, social
from clients.kiosk.draw import Ctx
from clients.kiosk.model import Model
from clients.kiosk.render import Screen
from hostd.protocol.messages import History

T = TypeVar("T")
Drawn = list[tuple[str, pygame.Rect]]


class Kiosk:
    """The kiosk program's link and screen, pinned to one table (``--table``), on loopback."""

    def __init__(self, port: int, table: str, *, lang: str = "en",
                 size: tuple[int, int] = (1280, 720)) -> None:
        self.port = port
        self.model = Model("127.0.0.1", pinned=table)
        self.screen = Screen(lang)
        self.surface = pygame.Surface(size)
        self.drawn: Drawn = []  # the text of the newest frame, with where it was drawn
        self.frames = 0
        self.clients: list[Client] = []  # every connection the kiosk made, recording
        self._token: trio.lowlevel.TrioToken | None = None
        self._cancel: trio.CancelScope | None = None
        self._up = threading.Event()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._main, name="kiosk", daemon=True)

    # -- the kiosk's thread ----------------------------------------------------------------------
    def _main(self) -> None:
        try:
            trio.run(self._run)
        except BaseException as e:  # told to the test's thread by look()
            self._failed = e
            self._up.set()

    @contextlib.asynccontextmanager
    async def _recording(self, host: str, port: int, **kw: Any) -> AsyncIterator[Client]:
        async with connect(host, port, record=True, **kw) as client:
            self.clients.append(client)
            yield client

    async def _run(self) -> None:
        self._token = trio.lowlevel.current_trio_token()
        with trio.CancelScope() as scope:
            self._cancel = scope
            self._up.set()
            async with trio.open_nursery() as nursery:
                nursery.start_soon(lambda: net.follow(
                    self.model, net.Target("127.0.0.1", self.port), self.port, poll=0.2))
                drawn = (-1, -1)
                while True:
                    now = time.monotonic()
                    wanted = (self.model.revision, int(now))
                    if wanted != drawn:
                        self.screen.frame(self.surface, self.model, now)
                        self.drawn = [(i.text, pygame.Rect(i.rect))
                                      for i in self.screen.text.drawn]
                        self.frames += 1
                        drawn = wanted
                    await trio.sleep(0.05)

    # -- the test's thread -----------------------------------------------------------------------
    def look(self, fn: Callable[[], T]) -> T:
        """``fn()`` run in the kiosk's thread (where the model and the screen live)."""
        if self._failed is not None:
            raise AssertionError("the kiosk stopped") from self._failed
        assert self._token is not None
        return trio.from_thread.run_sync(fn, trio_token=self._token)

    def wait(self, fn: Callable[[], T], timeout: float = 10.0, what: str = "") -> T:
        """The first truthy ``fn()`` (run in the kiosk's thread) within ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            result = self.look(fn)
            if result:
                return result
            if time.monotonic() > end:
                texts = self.look(lambda: [text for text, _ in self.drawn])
                raise AssertionError(f"the kiosk never showed {what or fn}; it shows {texts}")
            time.sleep(0.05)

    def reaction_label(self, emote: str) -> str:
        """The words the screen shows beside a seat for ``emote``."""
        return social.reaction_label(Ctx(self.surface, self.screen.text, self.screen.tr, 0),
                                     emote)

    def raw(self) -> bytes:
        """Every byte the kiosk has received so far, over all its connections."""
        return self.look(lambda: b"".join(bytes(c.raw or b"") for c in self.clients))

    def history(self, table: str) -> History:
        """The public log and score sheet of ``table``, asked on the kiosk's own connection."""
        assert self._token is not None and self.clients
        client = self.clients[-1]
        return trio.from_thread.run(client.history, table, trio_token=self._token)

    def start(self) -> None:
        self._original = net.connect
        net.connect = self._recording  # type: ignore[assignment]
        self._thread.start()
        self._up.wait(10)
        if self._failed is not None:
            raise AssertionError("the kiosk did not start") from self._failed

    def stop(self) -> None:
        try:
            if self._token is not None and self._cancel is not None and self._thread.is_alive():
                with contextlib.suppress(trio.RunFinishedError):
                    trio.from_thread.run_sync(self._cancel.cancel, trio_token=self._token)
            self._thread.join(10)
        finally:
            net.connect = self._original


@contextlib.contextmanager
def watching(port: int, table: str, **kw: Any) -> Iterator[Kiosk]:
    """A kiosk pinned to ``table`` of the box on ``port``, until the block ends."""
    pygame.display.init()
    kiosk = Kiosk(port, table, **kw)
    kiosk.start()
    try:
        yield kiosk
    finally:
        kiosk.stop()
