"""The kiosk's drawing vocabulary: colours, panels, cards, card backs, chips and banners.

Every game renderer and the shell draw through these so that the whole screen shares one
look: a dark felt table, cream text, gold for whatever needs looking at now. Sizes are always
derived from the rectangle given; nothing here knows the screen size. Text goes through the
``TextLayer`` in ``Ctx`` so it is shaped, fitted and recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame
from pygame import Rect

from clients.kiosk.bidi import isolate
from clients.kiosk.i18n import RED_SUITS, SUIT_SYMBOLS, Translator
from clients.kiosk.model import TableEntry
from clients.kiosk.text import MIN_SCALE, Align, TextLayer

Color = tuple[int, int, int]

FELT = (16, 66, 50)
FELT_DARK = (10, 46, 35)
PANEL = (8, 36, 28)
LINE = (44, 98, 78)
TEXT = (242, 238, 224)
MUTED = (164, 192, 178)
GOLD = (238, 190, 72)
ALERT = (236, 104, 88)
CARD_FACE = (252, 250, 244)
CARD_EDGE = (190, 186, 176)
CARD_RED = (196, 30, 44)
CARD_BLACK = (24, 24, 30)
BACK = (38, 74, 142)
BACK_LINE = (86, 126, 196)
# Seat and side colours: Sequence's chips are blue, green and red, in that order.
SIDE_COLORS: tuple[Color, ...] = (
    (70, 150, 235), (92, 196, 108), (232, 92, 80), (240, 160, 60),
    (170, 120, 230), (60, 200, 200), (236, 120, 180), (220, 210, 90),
)


@dataclass
class Ctx:
    """What a renderer draws with."""

    surface: pygame.Surface
    text: TextLayer
    tr: Translator
    now: float


# The colour names a presentation descriptor may give its sides (engine/presentation.py).
NAMED_COLORS: dict[str, Color] = {
    "blue": SIDE_COLORS[0], "green": SIDE_COLORS[1], "red": SIDE_COLORS[2],
    "yellow": (232, 204, 70), "purple": SIDE_COLORS[4], "orange": SIDE_COLORS[3],
    "white": (236, 232, 220), "black": (34, 34, 40),
}


def side_color(i: int | None, entry: TableEntry | None = None) -> Color:
    """A side's colour: the one its game's descriptor names, else the kiosk's own order."""
    if i is None or i < 0:
        return MUTED
    named = (entry.presentation or {}).get("seat_colours") if entry is not None else None
    if isinstance(named, list) and i < len(named) and named[i] in NAMED_COLORS:
        return NAMED_COLORS[named[i]]
    return SIDE_COLORS[i % len(SIDE_COLORS)]


def panel(surf: pygame.Surface, rect: Rect, color: Color = PANEL, radius: int | None = None,
          border: Color | None = None, width: int = 0) -> None:
    r = max(2, rect.h // 10) if radius is None else radius
    pygame.draw.rect(surf, color, rect, border_radius=r)
    if border is not None:
        pygame.draw.rect(surf, border, rect, width=max(1, width or rect.h // 40),
                         border_radius=r)


def card_size(height: int) -> tuple[int, int]:
    return max(8, round(height * 0.7)), height


def draw_card(ctx: Ctx, rect: Rect, code: str, *, glow: bool = False,
              dim: bool = False, caption: str | None = None) -> None:
    """A face-up card filling ``rect`` (width ≈ 0.7 height). ``glow`` rings it in gold."""
    s = ctx.surface
    radius = max(2, rect.w // 9)
    if glow:
        pygame.draw.rect(s, GOLD, rect.inflate(rect.w // 6, rect.w // 6),
                         border_radius=radius + rect.w // 12)
    pygame.draw.rect(s, CARD_FACE, rect, border_radius=radius)
    pygame.draw.rect(s, CARD_EDGE, rect, width=max(1, rect.w // 40), border_radius=radius)
    if len(code) != 2:
        return
    if code[1] not in SUIT_SYMBOLS:
        # A card outside the four suits (Wizard's W1-W4 and N1-N4: the digit only tells
        # copies apart): its letter alone, large, where a suit would be a "?".
        ctx.text.draw(s, code[0], Rect(rect.x, rect.y + rect.h // 4, rect.w, rect.h // 2),
                      int(rect.h * 0.45), CARD_BLACK, bold=True, align="center")
        _finish(ctx, rect, radius, caption, dim)
        return
    rank, suit = ctx.tr.rank(code[0]), code[1]
    color = CARD_RED if suit in RED_SUITS else CARD_BLACK
    sym = SUIT_SYMBOLS.get(suit, "?")
    t = ctx.text
    if rect.h < 54:
        # too small for corners: rank over suit, centred
        half = Rect(rect.x, rect.y + rect.h // 12, rect.w, rect.h * 5 // 12)
        t.draw(s, rank, half, int(rect.h * 0.4), color, bold=True, align="center")
        t.draw(s, sym, Rect(rect.x, half.bottom, rect.w, rect.h * 5 // 12), int(rect.h * 0.4),
               color, align="center")
    else:
        corner = Rect(rect.x + rect.w // 14, rect.y + rect.h // 30, rect.w * 5 // 11,
                      rect.h // 4)
        t.draw(s, rank, corner, int(rect.h * 0.22), color, bold=True, align="center")
        t.draw(s, sym, Rect(corner.x, corner.bottom - rect.h // 40, corner.w, rect.h // 5),
               int(rect.h * 0.18), color, align="center")
        big = Rect(rect.x, rect.y + rect.h * 2 // 5, rect.w, rect.h * 11 // 20)
        t.draw(s, sym, big, int(rect.h * 0.5), color, align="center")
    _finish(ctx, rect, radius, caption, dim)


def _finish(ctx: Ctx, rect: Rect, radius: int, caption: str | None, dim: bool) -> None:
    """A card's caption under it, and its shade when dimmed."""
    s = ctx.surface
    if caption:
        cap = Rect(rect.x, rect.bottom + 2, rect.w, max(10, rect.h // 6))
        ctx.text.draw(s, caption, cap, int(rect.h * 0.14), GOLD, align="center")
    if dim:
        shade = pygame.Surface(rect.size, pygame.SRCALPHA)
        pygame.draw.rect(shade, (0, 0, 0, 110), shade.get_rect(), border_radius=radius)
        s.blit(shade, rect)


def draw_back(ctx: Ctx, rect: Rect) -> None:
    s = ctx.surface
    radius = max(2, rect.w // 9)
    pygame.draw.rect(s, BACK, rect, border_radius=radius)
    inner = rect.inflate(-max(2, rect.w // 7), -max(2, rect.w // 7))
    pygame.draw.rect(s, BACK_LINE, inner, width=max(1, rect.w // 24), border_radius=radius // 2)
    pygame.draw.rect(s, CARD_FACE, rect, width=max(1, rect.w // 24), border_radius=radius)


def draw_fan(ctx: Ctx, rect: Rect, count: int, *, max_cards: int = 8, align: Align = "center",
             label: bool = True) -> Rect:
    """A hand of ``count`` face-down cards overlapping inside ``rect``, with the count on top.
    Returns the rectangle the cards took."""
    if count <= 0:
        return Rect(rect.x, rect.y, 0, 0)
    shown = min(count, max_cards)
    ch = rect.h
    cw = round(ch * 0.7)
    step = cw * 0.35 if shown > 1 else 0
    total = cw + step * (shown - 1)
    if total > rect.w:
        scale = rect.w / total
        ch, cw, step = int(ch * scale), int(cw * scale), step * scale
        total = cw + step * (shown - 1)
    x0 = {"center": rect.centerx - total / 2}.get(align, rect.x)
    if align in ("end", "right") or (align == "start" and ctx.text.rtl):
        x0 = rect.right - total
    y = rect.centery - ch // 2
    for i in range(shown):
        draw_back(ctx, Rect(round(x0 + i * step), y, cw, ch))
    area = Rect(round(x0), y, round(total), ch)
    if label:
        badge = Rect(0, 0, max(ch * 3 // 5, 14), max(ch * 2 // 5, 12))
        badge.center = area.center
        panel(ctx.surface, badge, PANEL, radius=badge.h // 2)
        ctx.text.draw(ctx.surface, str(count), badge.inflate(-2, -2), int(badge.h * 0.8), TEXT,
                      bold=True, align="center")
    return area


def draw_chip(surf: pygame.Surface, center: tuple[int, int], radius: int, color: Color,
              *, ring: Color | None = None, mark: bool = False) -> None:
    """A round game chip; ``mark`` draws the locked-in-a-sequence ring."""
    if radius < 2:
        return
    pygame.draw.circle(surf, (0, 0, 0), (center[0] + max(1, radius // 8),
                                         center[1] + max(1, radius // 8)), radius)
    pygame.draw.circle(surf, color, center, radius)
    lighter = tuple(min(255, c + 50) for c in color)
    pygame.draw.circle(surf, lighter, center, radius, width=max(1, radius // 5))
    if mark:
        pygame.draw.circle(surf, CARD_FACE, center, max(2, radius * 2 // 5),
                           width=max(1, radius // 6))
    if ring is not None:
        pygame.draw.circle(surf, ring, center, radius + max(2, radius // 4),
                           width=max(2, radius // 4))


def banner(ctx: Ctx, area: Rect, title: str, lines: list[str], *, accent: Color = GOLD) -> Rect:
    """A result card centred over ``area``: a title and a few lines, on a dark panel."""
    w = round(area.w * 0.82)
    n = len(lines)
    title_px = max(14, round(min(area.h * 0.09, area.w * 0.06)))
    line_px = max(12, round(title_px * 0.62))
    lh = ctx.text.line_height(line_px)
    h = min(area.h - 8, round(title_px * 1.9 + n * lh * 1.25 + title_px * 0.6))
    rect = Rect(0, 0, w, h)
    rect.center = area.center
    shade = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, (*PANEL, 236), shade.get_rect(), border_radius=rect.h // 10)
    ctx.surface.blit(shade, rect)
    pygame.draw.rect(ctx.surface, accent, rect, width=max(2, title_px // 10),
                     border_radius=rect.h // 10)
    inner = rect.inflate(-title_px, -title_px // 2)
    head = Rect(inner.x, inner.y, inner.w, round(title_px * 1.5))
    ctx.text.draw(ctx.surface, title, head, title_px, accent, bold=True, align="center")
    body = Rect(inner.x, head.bottom, inner.w, inner.bottom - head.bottom)
    ctx.text.lines(ctx.surface, lines, body, line_px, TEXT, align="center")
    return rect


def label(ctx: Ctx, text: str, box: Rect, px: int, color: Color = TEXT, *, bold: bool = False,
          align: Align = "start", ltr: bool = False, min_scale: float = MIN_SCALE) -> Rect:
    return ctx.text.draw(ctx.surface, text, box, px, color, bold=bold, align=align, ltr=ltr,
                         min_scale=min_scale)


def seat_name(ctx: Ctx, entry: TableEntry, seat: int) -> str:
    """The name shown for a seat (its number when nobody named it), isolated so that a score
    or a word after it keeps the interface's direction."""
    name = entry.seat_name(seat).strip() or ctx.tr.t("kiosk.seat", n=seat + 1)
    return isolate(name, ctx.tr.rtl)


def seat_names(ctx: Ctx, entry: TableEntry, seats: list[int]) -> str:
    return ctx.tr.join_names([seat_name(ctx, entry, s) for s in seats])
