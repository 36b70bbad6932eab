"""A game's score sheet on the shared screen: the common part's ``sheet`` (engine/presentation.py
``Sheet``: Wizard's bids, tricks and points per round) as a compact table over the table between
hands, its title on top, as many of the latest rows as fit, and its totals in gold.

Every family calls it where it draws the result between hands. It reads only the common part
the screen was sent (public to every seat alike), never a game id and never the view.
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.public import caption
from clients.kiosk.model import TableEntry


def sheet_of(entry: TableEntry) -> dict[str, Any] | None:
    """The common part's sheet when it has rows and heads to draw, else None."""
    sheet = (entry.common or {}).get("sheet")
    if not isinstance(sheet, dict) or not sheet.get("heads") or not sheet.get("rows"):
        return None
    return sheet


def banner(ctx: Ctx, rect: Rect, entry: TableEntry) -> bool:
    """Between hands (nobody to act), the sheet over the table; False when there is none."""
    sheet = sheet_of(entry)
    if sheet is None or (entry.common or {}).get("to_act"):
        return False

    def words(cells: Any) -> list[str]:
        return [caption(ctx, entry, c) if isinstance(c, dict) else "" for c in cells or []]

    heads, rows, totals = words(sheet["heads"]), [words(r) for r in sheet["rows"]], words(
        sheet.get("totals"))
    n = len(heads)
    box = rect.inflate(-round(rect.w * 0.1), -round(rect.h * 0.14))
    px = max(12, round(min(box.h / 11, box.w / (n * 7.5))))  # a cell holds about 11 characters
    line = round(px * 1.45)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, (*d.PANEL, 236), shade.get_rect(), border_radius=px)
    ctx.surface.blit(shade, box)
    inner = box.inflate(-px, -px)
    title = sheet.get("title")
    d.label(ctx, caption(ctx, entry, title) if isinstance(title, dict) else "",
            Rect(inner.x, inner.y, inner.w, line), px, d.GOLD, bold=True, align="center")
    col = inner.w // n

    def row(y: int, texts: list[str], color: d.Color, bold: bool = False) -> None:
        for i, text in enumerate(texts[:n]):  # the first column names the row, in reading order
            x = inner.right - (i + 1) * col if ctx.tr.rtl else inner.x + i * col
            # numbers and scores read left to right in every language; words follow the reader
            ltr = i > 0 and not any(ch.isalpha() for ch in text)
            d.label(ctx, text, Rect(x + 2, y, col - 4, line), px, d.MUTED if i == 0 else color,
                    bold=bold and i > 0, align="center", ltr=ltr)

    y = inner.y + line
    row(y, heads, d.MUTED, True)
    for cells in rows[-max(1, (inner.h - 3 * line) // line):]:
        y += line
        row(y, cells, d.TEXT)
    if totals:
        row(y + line, totals, d.GOLD, True)
    return True
