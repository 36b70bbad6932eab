"""The join QR code: segno's module matrix drawn as crisp squares on a pygame surface.

Each module is a whole number of pixels (a blurred, scaled code scans badly from a chair), the
light quiet zone is part of the surface (it must stay light on the dark table), and the code
is the largest that fits the size asked for. Surfaces are cached by URL and size.
"""

from __future__ import annotations

from functools import lru_cache

import pygame
import segno

QUIET = 3  # modules of quiet zone; the standard asks 4, phones read 2 reliably
DARK = (16, 24, 20)
LIGHT = (250, 250, 245)


def modules(url: str) -> list[list[bool]]:
    code = segno.make(url, error="m", micro=False)
    return [[bool(v) for v in row] for row in code.matrix]


@lru_cache(maxsize=32)
def qr_surface(url: str, size: int) -> pygame.Surface:
    """A square surface at most ``size`` pixels wide holding the QR code of ``url``."""
    matrix = modules(url)
    n = len(matrix) + 2 * QUIET
    unit = max(1, size // n)
    side = unit * n
    surf = pygame.Surface((side, side))
    surf.fill(LIGHT)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surf.fill(DARK, ((x + QUIET) * unit, (y + QUIET) * unit, unit, unit))
    return surf
