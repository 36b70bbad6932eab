"""The kiosk program: a pygame window (full screen by default) driven from a trio loop.

One trio task follows the box (``clients.kiosk.net``) and fills the ``Model``; the main task
pumps pygame's events, and redraws when the model changed, when a second ticked (the turn
timer), or while an animation runs. pygame stays on the main thread, as SDL requires. Escape,
``q`` or closing the window quits; ``f`` toggles full screen.

Owns the window and the frame rate. Must never block the trio loop for long: one frame is a
few tens of milliseconds even at 4K.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from dataclasses import dataclass

import pygame
import trio

from clients.kiosk import net
from clients.kiosk.fonts import find_fonts
from clients.kiosk.i18n import Translator
from clients.kiosk.model import Model
from clients.kiosk.render import Screen

FPS = 20  # event pumping and animation; a still screen is not redrawn
DEFAULT_WINDOW = (1280, 720)
# A PNG of the screen, rewritten at most once a second: for tests and documentation.
SNAPSHOT_ENV = "TABLEBOX_KIOSK_SNAPSHOT"
SNAPSHOT_EVERY = 1.0


class KioskError(Exception):
    """A problem the user can fix (no display, no font, a bad option): one line, no traceback."""


@dataclass(frozen=True)
class Options:
    host: str | None
    port: int
    table: str | None = None
    windowed: bool = False
    size: tuple[int, int] | None = None
    lang: str = "en"
    browse_source: net.SourceFinder | None = None  # how the box finder browses (net.py)


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> ``(1280, 720)``; ValueError for anything else."""
    w, sep, h = text.lower().partition("x")
    if not sep or not w.isdigit() or not h.isdigit():
        raise ValueError(f"size must look like 1280x720, not {text!r}")
    size = int(w), int(h)
    if min(size) < 200 or max(size) > 16384:
        raise ValueError(f"size {text} is out of range (200 to 16384 pixels a side)")
    return size


def _open_window(opts: Options) -> pygame.Surface:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        pygame.display.init()
    except pygame.error as e:
        raise KioskError(f"cannot open a display: {e} (is $DISPLAY or a console set?)") from None
    pygame.display.set_caption("tablebox")
    if opts.windowed:
        return pygame.display.set_mode(opts.size or DEFAULT_WINDOW, pygame.RESIZABLE)
    surface = pygame.display.set_mode(opts.size or (0, 0), pygame.FULLSCREEN)
    pygame.mouse.set_visible(False)
    return surface


def _animating(model: Model, now: float) -> bool:
    """Something on screen moves by itself: the waiting dots, the reconnecting veil."""
    return model.link != "up" or not model.tables


async def run(opts: Options) -> None:
    Translator(opts.lang)  # a bad language fails before a window opens
    fonts = find_fonts()
    surface = _open_window(opts)
    screen = Screen(opts.lang, fonts)
    model = Model(opts.host or "…", pinned=opts.table)
    target = net.Target(opts.host, opts.port) if opts.host else None
    fullscreen = not opts.windowed
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(functools.partial(net.follow, model, target, opts.port,
                                                 source_for=opts.browse_source))
            drawn = (-1, -1, (0, 0))
            snapshot = os.environ.get(SNAPSHOT_ENV)
            snapped = -SNAPSHOT_EVERY
            while True:
                for event in pygame.event.get():
                    if event.type == pygame.QUIT or (
                            event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE,
                                                                           pygame.K_q)):
                        nursery.cancel_scope.cancel()
                        return
                    if event.type == pygame.KEYDOWN and event.key == pygame.K_f:
                        fullscreen = not fullscreen
                        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
                        size = (0, 0) if fullscreen else (opts.size or DEFAULT_WINDOW)
                        surface = pygame.display.set_mode(size, flags)
                    elif event.type == pygame.VIDEORESIZE and not fullscreen:
                        surface = pygame.display.get_surface() or surface
                now = time.monotonic()
                tick = int(now) if not _animating(model, now) else int(now * FPS)
                wanted = (model.revision, tick, surface.get_size())
                if wanted != drawn:
                    screen.frame(surface, model, now)
                    pygame.display.flip()
                    drawn = (model.revision, tick, surface.get_size())
                    if snapshot and now - snapped >= SNAPSHOT_EVERY:
                        _save(surface, snapshot)
                        snapped = now
                await trio.sleep(1 / FPS)
    finally:
        pygame.display.quit()


def _save(surface: pygame.Surface, path: str) -> None:
    """Write the PNG whole or not at all, so a reader never sees half a file."""
    tmp = path + ".tmp.png"
    pygame.image.save(surface, tmp)
    os.replace(tmp, path)


def main(opts: Options) -> None:
    """Run the kiosk until the window closes; KioskError for what the user must fix."""
    with contextlib.suppress(KeyboardInterrupt):
        trio.run(run, opts)
