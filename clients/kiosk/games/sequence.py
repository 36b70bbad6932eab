"""Sequence's own part of the grid picture: the printed board of cards under the chips (free
corners starred), completed sequences struck through and their chips marked, the last move
ringed in gold (a removed chip crossed out), and per team the sequences made of those needed,
captures and cards in hand. Reads the public ``sequence_view``; the last move in words, the
draw pile and the last discard are the common part, drawn by the family (grid_board.py).
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.hook import CellRect, Hook, View
from clients.kiosk.games.public import public
from clients.kiosk.i18n import RED_SUITS, SUIT_SYMBOLS
from clients.kiosk.model import TableEntry


def face(ctx: Ctx, r: Rect, code: Any) -> None:
    """One printed square: a card's rank over its suit, or a free corner."""
    s = ctx.surface
    if code == "XX":
        pygame.draw.rect(s, d.GOLD, r, border_radius=max(2, r.w // 6))
        ctx.text.draw(s, "★", r, round(r.h * 0.6), d.PANEL, align="center")
        return
    pygame.draw.rect(s, d.CARD_FACE, r, border_radius=max(2, r.w // 8))
    if not isinstance(code, str) or len(code) != 2:
        return
    color = d.CARD_RED if code[1] in RED_SUITS else d.CARD_BLACK
    top = Rect(r.x, r.y + r.h // 20, r.w, r.h // 2)
    bottom = Rect(r.x, top.bottom - r.h // 20, r.w, r.bottom - top.bottom)
    ctx.text.draw(s, ctx.tr.rank(code[0]), top, round(r.h * 0.42), color, bold=True,
                  align="center")
    ctx.text.draw(s, SUIT_SYMBOLS.get(code[1], "?"), bottom, round(r.h * 0.4), color,
                  align="center")


def overlay(ctx: Ctx, cell: CellRect, entry: TableEntry, view: View) -> None:
    s = ctx.surface
    size = cell(0, 0)
    radius = max(3, round(min(size.w, size.h) * 0.31))
    for a, b in view.get("locked") or []:
        pygame.draw.circle(s, d.CARD_FACE, cell(a, b).center, max(2, radius * 2 // 5),
                           width=max(1, radius // 6))
    for line in view.get("sequences") or []:
        squares = [cell(a, b).center for a, b in line.get("squares") or []]
        if len(squares) >= 2:
            color = tuple(min(255, x + 70) for x in d.side_color(int(line.get("team", 0)), entry))
            pygame.draw.line(s, color, squares[0], squares[-1], max(3, radius // 3))
    last = view.get("last")
    if isinstance(last, dict):
        for a, b in last.get("squares") or []:
            pygame.draw.rect(s, d.GOLD, cell(a, b), width=max(2, size.w // 9),
                             border_radius=max(2, size.w // 6))
        for a, b in last.get("captured") or []:
            box = cell(a, b).inflate(-size.w // 4, -size.h // 4)
            w = max(2, size.w // 10)
            pygame.draw.line(s, d.ALERT, box.topleft, box.bottomright, w)
            pygame.draw.line(s, d.ALERT, box.topright, box.bottomleft, w)


def side_score(ctx: Ctx, entry: TableEntry, view: View, side: int) -> tuple[str, str, str]:
    t = ctx.tr
    pub = public(ctx, entry)
    seats, counts = pub.sides.get(side, []), pub.hand_counts
    given = view.get("rules")
    rules: dict[str, Any] = given if isinstance(given, dict) else {}
    need, made = rules.get("sequences_to_win", 0), pub.score(side) or 0
    if len(seats) == 1:
        hand = t.t("sequence.in_hand", n=counts[seats[0]] if seats[0] < len(counts) else 0)
    else:
        hand = "  ·  ".join(f"{d.seat_name(ctx, entry, x)} {counts[x]}" for x in seats
                            if x < len(counts))
    captures = view.get("captures") or []
    if rules.get("captures") and side < len(captures):
        hand = f"{t.t('sequence.captured', n=captures[side])}  ·  {hand}"
    return (f"{made} / {need}" if need else str(made)), t.t("sequence.sequences_label"), hand


HOOK = Hook(cell_aspect=0.8, face_field="layout", face=face, overlay=overlay,
            side_score=side_score)
