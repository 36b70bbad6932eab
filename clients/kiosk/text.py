"""Drawing text: bidirectional runs, Arabic shaping, fitting into boxes, and a record of where.

Every string goes through ``clients.kiosk.bidi`` into runs of one direction and script; each
run is shaped by pygame-ce (HarfBuzz) with ``set_script``/``set_direction`` in the font its
script needs, and the runs are laid side by side on one baseline. ``draw`` fits text into a
box by shrinking it (down to ``MIN_SCALE`` of the size asked for) and then cutting it with an
ellipsis, so no text ever spills off its box. Each drawn text's rectangle, in screen
coordinates, is appended to ``drawn``: tests check every one lies within the screen.

Owns the font objects (cached by face and size). Must never draw outside the rectangle it
reports.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import pygame

from clients.kiosk.bidi import Run, runs
from clients.kiosk.fonts import FontFiles

Align = Literal["start", "center", "end", "left", "right"]
VAlign = Literal["top", "center", "bottom"]
Color = tuple[int, int, int] | tuple[int, int, int, int]

MIN_PX = 9
MIN_SCALE = 0.6
ELLIPSIS = "…"
_CACHE_SIZE = 600
_LATIN = Run("A", False, False)


@lru_cache(maxsize=4096)
def _visible_runs(text: str, rtl: bool) -> tuple[Run, ...]:
    """The runs to draw (direction marks alone draw nothing); cached, as fitting measures the
    same text several times a frame."""
    return tuple(r for r in runs(text, rtl) if r.text.strip("\u200e\u200f"))


@dataclass(frozen=True)
class Drawn:
    rect: pygame.Rect  # screen coordinates
    text: str


class TextLayer:
    def __init__(self, files: FontFiles, rtl: bool = False) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.files = files
        self.rtl = rtl  # the interface language is right to left: "start" means right
        self.drawn: list[Drawn] = []
        self._fonts: dict[tuple[Path, int, bool], pygame.font.Font] = {}
        self._lines: OrderedDict[tuple[str, int, bool, Color, bool], pygame.Surface] = OrderedDict()

    # -- fonts -------------------------------------------------------------------------------
    def _font(self, run: Run, px: int, bold: bool) -> pygame.font.Font:
        f = self.files
        if run.arabic:
            path, bold_path = f.arabic, f.arabic_bold
        else:
            path, bold_path = f.latin, f.latin_bold
        synthetic = bold and bold_path is None
        if bold and bold_path is not None:
            path = bold_path
        key = (path, px, synthetic)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(str(path), px)
            if synthetic:
                font.set_bold(True)
            self._fonts[key] = font
        font.set_script("Arab" if run.arabic else "Latn")
        font.set_direction(pygame.DIRECTION_RTL if run.rtl else pygame.DIRECTION_LTR)
        return font

    def line_height(self, px: int) -> int:
        return self._font(_LATIN, max(MIN_PX, px), False).get_linesize()

    def _extent(self, parts: tuple[Run, ...], px: int, bold: bool) -> tuple[int, int]:
        """Ascent and descent of a line: the Latin face's, with a little room for Arabic marks.

        Arabic faces declare far taller lines than their letters need (Noto Sans Arabic: 2.1
        em); using them would make every Arabic word smaller than its Latin neighbours.
        """
        latin = self._font(_LATIN, px, bold)
        ascent, descent = latin.get_ascent(), -latin.get_descent()
        if any(r.arabic for r in parts):
            ascent += px // 10
            descent += px // 10
        return ascent, descent

    # -- measuring and rendering one line ----------------------------------------------------
    def _runs(self, text: str, ltr: bool) -> tuple[Run, ...]:
        return _visible_runs(text, self.rtl and not ltr)

    def size(self, text: str, px: int, bold: bool = False, ltr: bool = False) -> tuple[int, int]:
        px = max(MIN_PX, px)
        parts = self._runs(text, ltr)
        ascent, descent = self._extent(parts, px, bold)
        width = sum(self._font(run, px, bold).size(run.text)[0] for run in parts)
        return width, ascent + descent

    def render(self, text: str, px: int, color: Color, bold: bool = False,
               ltr: bool = False) -> pygame.Surface:
        """One line of text on a transparent surface (cached). ``ltr`` lays it out left to right
        whatever the interface language (links, codes, rank orders)."""
        px = max(MIN_PX, px)
        key = (text, px, bold, color, ltr)
        hit = self._lines.get(key)
        if hit is not None:
            self._lines.move_to_end(key)
            return hit
        parts = self._runs(text, ltr)
        ascent, descent = self._extent(parts, px, bold)
        pieces: list[tuple[pygame.Surface, int]] = []
        for run in parts:
            font = self._font(run, px, bold)
            pieces.append((font.render(run.text, True, color), font.get_ascent()))
        width = sum(s.get_width() for s, _ in pieces)
        out = pygame.Surface((max(1, width), max(1, ascent + descent)), pygame.SRCALPHA)
        x = 0
        for surf, run_ascent in pieces:
            out.blit(surf, (x, ascent - run_ascent))  # one baseline for every run
            x += surf.get_width()
        self._lines[key] = out
        if len(self._lines) > _CACHE_SIZE:
            self._lines.popitem(last=False)
        return out

    # -- fitting -----------------------------------------------------------------------------
    def fit(self, text: str, px: int, max_w: int, bold: bool = False,
            max_h: int | None = None, ltr: bool = False,
            min_scale: float = MIN_SCALE) -> tuple[str, int]:
        """The text and size to draw so that it is at most ``max_w`` wide (and ``max_h`` high):
        smaller first, then shortened with an ellipsis."""
        px = max(MIN_PX, px)
        if max_h is not None:
            while px > MIN_PX and self.size(text, px, bold, ltr)[1] > max_h:
                px = max(MIN_PX, int(px * 0.9))
        w = self.size(text, px, bold, ltr)[0]
        if w <= max_w:
            return text, px
        floor = max(MIN_PX, int(px * min_scale))
        scaled = max(floor, int(px * max_w / max(1, w)))
        while scaled > floor and self.size(text, scaled, bold, ltr)[0] > max_w:
            scaled -= 1
        if self.size(text, scaled, bold, ltr)[0] <= max_w:
            return text, scaled
        # Still too wide at the smallest size: cut whole characters from the end (logical
        # order, so an Arabic string loses its end, as a reader expects).
        lo, hi = 0, len(text)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.size(text[:mid].rstrip() + ELLIPSIS, scaled, bold, ltr)[0] <= max_w:
                lo = mid
            else:
                hi = mid - 1
        return (text[:lo].rstrip() + ELLIPSIS if lo > 0 else ""), scaled

    # -- drawing -----------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, text: str, box: pygame.Rect, px: int, color: Color,
             *, bold: bool = False, align: Align = "start", valign: VAlign = "center",
             shrink: bool = True, ltr: bool = False,
             min_scale: float = MIN_SCALE) -> pygame.Rect:
        """Draw one line inside ``box``, fitted to it; return the rectangle drawn (surface
        coordinates). Empty text draws nothing and returns an empty rect at the box."""
        if shrink:
            text, px = self.fit(text, px, box.w, bold, max_h=box.h, ltr=ltr,
                                min_scale=min_scale)
        if not text or box.w <= 0 or box.h <= 0:
            return pygame.Rect(box.x, box.y, 0, 0)
        img = self.render(text, px, color, bold, ltr)
        r = img.get_rect()
        side = self._side(align)
        if side == "left":
            r.left = box.left
        elif side == "right":
            r.right = box.right
        else:
            r.centerx = box.centerx
        if valign == "top":
            r.top = box.top
        elif valign == "bottom":
            r.bottom = box.bottom
        else:
            r.centery = box.centery
        # Never spill: a glyph taller than the box (accents, Arabic marks) is clipped to it.
        clip = r.clip(box)
        if clip.size != r.size:
            img = img.subsurface(pygame.Rect(clip.x - r.x, clip.y - r.y, clip.w, clip.h))
            r = clip
        surface.blit(img, r)
        ox, oy = surface.get_abs_offset()
        self.drawn.append(Drawn(r.move(ox, oy), text))
        return r

    def _side(self, align: Align) -> str:
        if align == "start":
            return "right" if self.rtl else "left"
        if align == "end":
            return "left" if self.rtl else "right"
        return "center" if align == "center" else align

    def lines(self, surface: pygame.Surface, texts: list[str], box: pygame.Rect, px: int,
              color: Color, *, bold: bool = False, align: Align = "start",
              gap: float = 0.25) -> pygame.Rect:
        """Several lines stacked in ``box``, all at one size that fits them (vertically centred)."""
        if not texts or box.h <= 0:
            return pygame.Rect(box.x, box.y, 0, 0)
        px = max(MIN_PX, px)
        while px > MIN_PX and len(texts) * self.line_height(px) * (1 + gap) > box.h:
            px -= 1
        step = int(self.line_height(px) * (1 + gap))
        total = step * len(texts)
        y = box.y + max(0, (box.h - total) // 2)
        out = pygame.Rect(box.x, y, 0, 0)
        for t in texts:
            line = pygame.Rect(box.x, y, box.w, min(step, box.bottom - y))
            if line.h <= 0:
                break
            out.union_ip(self.draw(surface, t, line, px, color, bold=bold, align=align))
            y += step
        return out
