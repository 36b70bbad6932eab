"""Placing seats around a card table: the positions every card-game renderer shares.

Seat 0 sits at the bottom and the others follow clockwise, evenly round an ellipse that fills
the rectangle, so three to eight players fit any shape of screen. Pure geometry.
"""

from __future__ import annotations

import math

from pygame import Rect


def around(area: Rect, n: int, box: tuple[int, int]) -> list[Rect]:
    """``n`` rectangles of size ``box`` centred on an ellipse inside ``area``."""
    bw, bh = box
    rx = max(0, (area.w - bw) / 2)
    ry = max(0, (area.h - bh) / 2)
    out = []
    for i in range(n):
        theta = math.pi / 2 + 2 * math.pi * i / max(1, n)
        r = Rect(0, 0, bw, bh)
        r.center = (round(area.centerx + rx * math.cos(theta)),
                    round(area.centery + ry * math.sin(theta)))
        r.clamp_ip(area)
        out.append(r)
    return out


def seat_box(area: Rect, n: int) -> tuple[int, int]:
    """A seat panel size that leaves the middle free: smaller as the table fills up."""
    share = 0.26 if n <= 6 else 0.21
    w = round(area.w * share)
    h = round(min(area.h * 0.27, w * 0.6))
    return w, h
