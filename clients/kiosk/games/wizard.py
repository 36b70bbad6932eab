"""Wizard's own part of the trick-taking picture: each seat's tricks and bid at its feet (a hidden
bid only as "has bid": the view never holds it), the turned card in the middle while bids are
made, trump at the strip's end, and between rounds the score sheet as a compact table.

Reads the public ``wizard_view`` only; everything else is the family's (trick_taking.py).
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Hook, Tag, View
from clients.kiosk.model import TableEntry

LIVE = ("trump", "bidding", "play")


def _at(xs: Any, i: int) -> Any:
    return xs[i] if isinstance(xs, list) and i < len(xs) else None


def tag(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> Tag | None:
    if view.get("phase") not in LIVE or not _at(view.get("bids_in"), seat):
        return None
    bid, taken = _at(view.get("bids"), seat), _at(view.get("taken"), seat)
    if bid is None:  # hidden until every bid is in
        return ctx.tr.t("wizard.has_bid"), False
    return ctx.tr.t("wizard.kiosk.note", bid=bid, taken=taken), bid == taken  # gold: on its bid


def status(ctx: Ctx, box: Rect, entry: TableEntry, view: View) -> bool:
    if view.get("phase") not in LIVE:
        return False
    trump = view.get("trump")
    if not trump:
        d.label(ctx, ctx.tr.t("wizard.no_trump"), box, round(box.h * 0.42), d.MUTED, align="end")
        return True
    table.suit_block(ctx, box, str(trump), ctx.tr.t("wizard.field.trump"),
                     ctx.tr.t(f"wizard.suit.{trump}"))
    return True


def middle(ctx: Ctx, area: Rect, entry: TableEntry, view: View) -> bool:
    """The turned card until the first card is led."""
    card = view.get("turned")
    if view.get("phase") not in ("trump", "bidding") or not isinstance(card, str):
        return False
    r = Rect(0, 0, round(area.h * 0.62 * 0.7), round(area.h * 0.62))
    r.center = (area.centerx, area.centery - area.h // 12)
    d.draw_card(ctx, r, card, glow=True)
    words = Rect(area.x, r.bottom + 4, area.w, max(12, area.h // 7))
    d.label(ctx, ctx.tr.t("wizard.field.turned"), words, round(words.h * 0.8), d.MUTED,
            align="center")
    return True


def banner(ctx: Ctx, rect: Rect, entry: TableEntry, view: View) -> bool:
    """Between rounds: the score sheet, as many of the latest rounds as fit, and the totals."""
    sheet = [r for r in view.get("sheet") or [] if isinstance(r, dict)]
    if view.get("phase") in LIVE or not sheet:
        return False
    n = len(sheet[-1].get("totals") or [])
    box = rect.inflate(-round(rect.w * 0.1), -round(rect.h * 0.14))
    px = max(12, round(min(box.h / 11, box.w / ((n + 1) * 5.5))))
    line = round(px * 1.45)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    pygame.draw.rect(shade, (*d.PANEL, 236), shade.get_rect(), border_radius=px)
    ctx.surface.blit(shade, box)
    inner = box.inflate(-px, -px)
    d.label(ctx, ctx.tr.t("wizard.field.sheet"), Rect(inner.x, inner.y, inner.w, line), px,
            d.GOLD, bold=True, align="center")
    col = inner.w // (n + 1)

    def row(y: int, texts: list[str], color: d.Color, bold: bool = False) -> None:
        for i, text in enumerate(texts):  # the first column: the round, in the reading order
            x = inner.right - (i + 1) * col if ctx.tr.rtl else inner.x + i * col
            d.label(ctx, text, Rect(x + 2, y, col - 4, line), px, d.MUTED if i == 0 else color,
                    bold=bold and i > 0, align="center", ltr=i > 0)

    y = inner.y + line
    row(y, [ctx.tr.t("wizard.kiosk.round")] + [d.seat_name(ctx, entry, s) for s in range(n)],
        d.MUTED, True)
    for r in sheet[-max(1, (inner.h - 3 * line) // line):]:
        y += line
        row(y, [str(r.get("round", ""))] + [
            f"{_at(r.get('bids'), s)}/{_at(r.get('taken'), s)}  {_at(r.get('points'), s) or 0:+d}"
            for s in range(n)], d.TEXT)
    row(y + line, [ctx.tr.t("wizard.kiosk.total")] + [
        str(_at(sheet[-1].get("totals"), s)) for s in range(n)], d.GOLD, True)
    return True


HOOK = Hook(tag=tag, status=status, middle=middle, banner=banner)
