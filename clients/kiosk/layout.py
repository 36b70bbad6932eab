"""Where things go: splitting whatever surface the kiosk is given into tiles and panels.

Nothing here assumes an orientation or a size: every measure is a fraction of the rectangle
it divides, from an 800x480 touchscreen to a 4K television, landscape or portrait. In a
right-to-left language the side panel moves to the left so that it is read first.

Pure geometry on ``pygame.Rect`` (which needs no display): no drawing here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pygame import Rect

# A tile smaller than this (in either direction) is too small to read from a chair.
MIN_TILE_SHORT = 460
MIN_TILE_AREA = 760 * 460
MAX_TILES = 4


def capacity(size: tuple[int, int]) -> int:
    """How many table tiles fit readably on a surface of ``size``."""
    w, h = size
    best = 1
    for n in range(2, MAX_TILES + 1):
        cols, rows = grid_shape(n, size)
        tw, th = w // cols, h // rows
        if min(tw, th) >= MIN_TILE_SHORT and tw * th >= MIN_TILE_AREA:
            best = n
    return best


def grid_shape(n: int, size: tuple[int, int]) -> tuple[int, int]:
    """Columns and rows for ``n`` tiles, preferring tiles of a landscape card-table shape."""
    w, h = size
    best: tuple[float, int, int] = (-1.0, 1, n)
    for cols in range(1, n + 1):
        rows = math.ceil(n / cols)
        tw, th = w / cols, h / rows
        score = min(tw, th * 1.6)  # how big a 16:10 picture could be in one tile
        if score > best[0]:
            best = (score, cols, rows)
    return best[1], best[2]


def tiles(n: int, area: Rect) -> list[Rect]:
    """``n`` equal tiles filling ``area`` row by row."""
    if n <= 1:
        return [Rect(area)]
    cols, rows = grid_shape(n, area.size)
    out = []
    for i in range(n):
        r, c = divmod(i, cols)
        x0 = area.x + area.w * c // cols
        x1 = area.x + area.w * (c + 1) // cols
        y0 = area.y + area.h * r // rows
        y1 = area.y + area.h * (r + 1) // rows
        out.append(Rect(x0, y0, x1 - x0, y1 - y0))
    return out


@dataclass(frozen=True)
class TileLayout:
    """The parts of one table's tile."""

    header: Rect  # table name, game, whose turn and the timer
    game: Rect  # the game's own drawing
    side: Rect  # QR code, join code, the seats
    qr: Rect  # a square inside ``side``
    below_qr: Rect  # "scan to join" and the code
    seats: Rect  # the seat list
    pad: int  # the unit of spacing in this tile
    landscape: bool


def tile_layout(tile: Rect, rtl: bool = False) -> TileLayout:
    w, h = tile.size
    pad = max(4, round(min(w, h) * 0.018))
    inner = tile.inflate(-2 * pad, -2 * pad)
    landscape = w >= h * 1.15
    if landscape:
        side_w = round(inner.w * 0.27)
        head_h = max(36, round(inner.h * 0.11))
        if rtl:
            side = Rect(inner.x, inner.y, side_w, inner.h)
            main = Rect(side.right + pad, inner.y, inner.w - side_w - pad, inner.h)
        else:
            side = Rect(inner.right - side_w, inner.y, side_w, inner.h)
            main = Rect(inner.x, inner.y, inner.w - side_w - pad, inner.h)
        header = Rect(main.x, main.y, main.w, head_h)
        game = Rect(main.x, header.bottom + pad, main.w, main.h - head_h - pad)
        q = min(side.w - 2 * pad, round(side.h * 0.46))
        qr = Rect(0, 0, q, q)
        qr.midtop = (side.centerx, side.y + pad)
        below = Rect(side.x + pad, qr.bottom + pad // 2, side.w - 2 * pad,
                     max(24, round(side.h * 0.12)))
        seats = Rect(side.x + pad, below.bottom + pad, side.w - 2 * pad,
                     side.bottom - below.bottom - 2 * pad)
    else:
        # Tall or square: the side panel is a strip along the bottom, the QR code at its start
        # as tall as the strip, the join code and the seats beside it.
        head_h = max(36, round(inner.h * 0.08))
        side_h = round(inner.h * 0.28)
        header = Rect(inner.x, inner.y, inner.w, head_h)
        side = Rect(inner.x, inner.bottom - side_h, inner.w, side_h)
        game = Rect(inner.x, header.bottom + pad, inner.w, side.y - header.bottom - 2 * pad)
        q = min(side.h - 2 * pad, round(side.w * 0.45))
        qr = Rect(0, 0, q, q)
        rest = Rect(side.x + pad, side.y + pad, side.w - q - 4 * pad, side.h - 2 * pad)
        if rtl:
            qr.topright = (side.right - pad, side.y + pad)
        else:
            qr.topleft = (side.x + pad, side.y + pad)
            rest.x = qr.right + 2 * pad
        below = Rect(rest.x, rest.y, rest.w, max(24, round(rest.h * 0.3)))
        seats = Rect(rest.x, below.bottom + pad // 2, rest.w, rest.bottom - below.bottom - pad // 2)
    return TileLayout(header, game, side, qr, below, seats, pad, landscape)


def fit_grid(area: Rect, cols: int, rows: int, aspect: float = 1.0) -> tuple[Rect, int, int]:
    """The largest grid of ``cols`` x ``rows`` cells of width/height ``aspect`` centred in
    ``area``: the bounding rect and the cell's width and height."""
    cw = min(area.w / cols, area.h / rows * aspect)
    ch = cw / aspect
    w, h = int(cw) * cols, int(ch) * rows
    r = Rect(0, 0, w, h)
    r.center = area.center
    return r, int(cw), int(ch)
