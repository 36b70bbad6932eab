"""The grid-board family on the shared screen (Sequence, Checkers; Chess can follow): the
descriptor's grid zone with every piece or chip on it and its cell labels, and beside it one
block per side (its players, its score, its hands) and a block for the last move.

Reads the descriptor's ``grid`` zone (rows of cells: a side number, -1 for none, or one letter
per cell), its ``rows``/``cols``, ``labels`` (``algebraic``: a1..h8, ``numbered``: the dark
squares 1..n) and ``faces`` (the view field printed under the pieces: a card per cell, ``XX``
a free cell), the view's common part (its ``marks``: completed lines, locked pieces, the last
move; its ``side_notes``: each side's standing), and the game's hook for what a cell's value
stands for and anything else over the board. It never reads a game id.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pygame
from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.hook import Hook, Piece
from clients.kiosk.games.public import Public, View, caption, public, zones
from clients.kiosk.i18n import RED_SUITS, SUIT_SYMBOLS
from clients.kiosk.layout import fit_grid
from clients.kiosk.model import TableEntry
from clients.kiosk.text import Drawn

LIGHT, DARK = (214, 196, 160), (120, 84, 56)  # a wooden board's squares
FREE = "XX"  # engine/presentation.py FREE: a printed cell with no card


def grid_of(entry: TableEntry) -> tuple[dict[str, Any], list[Any]] | None:
    """The grid zone and its rows from the view, or None when the view has none to draw."""
    view = entry.view or {}
    for z in zones(entry, "grid"):
        rows = view.get(z.get("field", ""))
        if isinstance(rows, list) and rows and all(isinstance(r, (list, str)) for r in rows):
            return z, rows
    return None


def can_draw(entry: TableEntry) -> bool:
    return grid_of(entry) is not None


def draw(ctx: Ctx, rect: Rect, entry: TableEntry, hook: Hook) -> None:
    found = grid_of(entry)
    if found is None:
        return
    view = entry.view or {}
    landscape = rect.w >= rect.h * 1.25
    if landscape:
        info_w = round(rect.w * 0.3)
        board = Rect(rect.x, rect.y, rect.w - info_w - 8, rect.h)
        info = Rect(board.right + 8, rect.y, info_w, rect.h)
        if ctx.tr.rtl:
            info.x, board.x = rect.x, rect.x + info_w + 8
    else:
        info_h = round(rect.h * 0.22)
        board = Rect(rect.x, rect.y, rect.w, rect.h - info_h - 6)
        info = Rect(rect.x, board.bottom + 6, rect.w, info_h)
    _board(ctx, board, entry, view, hook, *found)
    _info(ctx, info, entry, view, public(ctx, entry), hook, landscape)


def _piece(value: Any) -> Piece | None:
    """A side number (-1: empty), or a letter: upper case for the first side, lower the second."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value, False) if value >= 0 else None
    if isinstance(value, str) and len(value) == 1 and value.isalpha():
        return (0 if value.isupper() else 1), False
    return None


def _board(ctx: Ctx, area: Rect, entry: TableEntry, view: View, hook: Hook, zone: dict[str, Any],
           rows: list[Any]) -> None:
    s = ctx.surface
    n_rows = int(zone.get("rows") or len(rows))
    n_cols = int(zone.get("cols") or max(len(r) for r in rows))
    grid, cw, ch = fit_grid(area, n_cols, n_rows, hook.cell_aspect)
    pygame.draw.rect(s, d.PANEL, grid.inflate(8, 8), border_radius=6)

    def cell(r: int, c: int) -> Rect:
        return Rect(grid.x + c * cw, grid.y + r * ch, cw, ch)

    printed = bool(zone.get("faces"))
    face, texts = _face(ctx, view.get(str(zone.get("faces") or "")), printed, zone, n_rows,
                        n_cols, cw, ch)
    s.blit(face, grid.topleft)
    ox, oy = s.get_abs_offset()
    ctx.text.drawn.extend(Drawn(t.rect.move(grid.x + ox, grid.y + oy), t.text) for t in texts)
    # on a plain board the pieces leave the corners free for the cell labels
    radius = max(3, round(min(cw, ch) * (0.31 if printed else 0.34)))
    what = hook.piece or _piece
    for r, line in enumerate(rows[:n_rows]):
        for c, value in enumerate(list(line)[:n_cols]):
            piece = what(value)
            if piece is None:
                continue
            side, mark = piece
            color = d.side_color(side, entry)
            d.draw_chip(s, cell(r, c).center, radius, color, mark=mark)
            if isinstance(value, str) and hook.piece is None:  # a letter: say which piece
                ink = d.CARD_BLACK if sum(color) > 450 else d.CARD_FACE
                d.label(ctx, value.upper(), cell(r, c).inflate(-cw // 3, -ch // 3),
                        round(ch * 0.4), ink, bold=True, align="center")
    _marks(ctx, cell, entry, radius)
    if hook.overlay:
        hook.overlay(ctx, cell, entry, view)


def _cells(value: Any) -> list[tuple[int, int]]:
    return [(a, b) for a, b in value if isinstance(a, int) and isinstance(b, int)] if isinstance(
        value, list) and all(isinstance(x, list) and len(x) == 2 for x in value) else []


def _marks(ctx: Ctx, cell: Any, entry: TableEntry, radius: int) -> None:
    """The common part's marks: a ring on each locked piece, each completed line struck through
    in its side's colour, the last move ringed in gold and a piece just taken crossed out."""
    marks = (entry.common or {}).get("marks")
    if not isinstance(marks, dict):
        return
    s = ctx.surface
    size = cell(0, 0)
    for a, b in _cells(marks.get("locked")):
        pygame.draw.circle(s, d.CARD_FACE, cell(a, b).center, max(2, radius * 2 // 5),
                           width=max(1, radius // 6))
    for line in marks.get("lines") or []:
        squares = [cell(a, b).center for a, b in _cells((line or {}).get("cells"))]
        if len(squares) >= 2:
            color = tuple(min(255, x + 70) for x in d.side_color(int(line.get("side", 0)), entry))
            pygame.draw.line(s, color, squares[0], squares[-1], max(3, radius // 3))
    for a, b in _cells(marks.get("last")):
        pygame.draw.rect(s, d.GOLD, cell(a, b), width=max(2, size.w // 9),
                         border_radius=max(2, size.w // 6))
    for a, b in _cells(marks.get("removed")):
        box = cell(a, b).inflate(-size.w // 4, -size.h // 4)
        w = max(2, size.w // 10)
        pygame.draw.line(s, d.ALERT, box.topleft, box.bottomright, w)
        pygame.draw.line(s, d.ALERT, box.topright, box.bottomleft, w)


def card_face(ctx: Ctx, r: Rect, code: Any) -> None:
    """One printed cell: a card's rank over its suit, or a free cell starred."""
    s = ctx.surface
    if code == FREE:
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


_FACES: OrderedDict[tuple[Any, ...], tuple[pygame.Surface, list[Drawn]]] = OrderedDict()


def _face(ctx: Ctx, faces: Any, printed: bool, zone: dict[str, Any], n_rows: int,
          n_cols: int, cw: int, ch: int) -> tuple[pygame.Surface, list[Drawn]]:
    """The board under the pieces (it never changes during a game), drawn once per size and
    language, with its texts recorded wherever the face is blitted."""
    rows = faces if isinstance(faces, list) else []
    key = (printed, repr(rows), zone.get("labels"), n_rows, n_cols, cw, ch, ctx.tr.lang)
    hit = _FACES.get(key)
    if hit is not None:
        _FACES.move_to_end(key)
        return hit
    face = pygame.Surface((cw * n_cols, ch * n_rows), pygame.SRCALPHA)
    local = Ctx(face, ctx.text, ctx.tr, ctx.now)
    mark = len(ctx.text.drawn)
    labels = str(zone.get("labels") or "")
    number = 0
    for r in range(n_rows):
        line = rows[r] if r < len(rows) and isinstance(rows[r], list) else []
        for c in range(n_cols):
            square = Rect(c * cw, r * ch, cw, ch)
            if printed:
                card_face(local, square.inflate(-max(1, cw // 14), -max(1, ch // 14)),
                          line[c] if c < len(line) else "")
                continue
            dark = (r + c) % 2 == 1
            pygame.draw.rect(face, DARK if dark else LIGHT, square)
            corner = Rect(square.x + 1, square.y + 1, square.w * 3 // 10, square.h // 4)
            if labels == "numbered" and dark:
                number += 1
                local.text.draw(face, str(number), corner, round(ch * 0.2), LIGHT, min_scale=0.5)
            elif labels == "algebraic" and (c == 0 or r == n_rows - 1):
                text = (chr(ord("a") + c) if r == n_rows - 1 else "") + (
                    str(n_rows - r) if c == 0 else "")
                local.text.draw(face, text, corner, round(ch * 0.2), LIGHT if dark else DARK,
                                ltr=True, min_scale=0.5)
    texts = ctx.text.drawn[mark:]
    del ctx.text.drawn[mark:]
    _FACES[key] = (face, texts)
    if len(_FACES) > 8:
        _FACES.popitem(last=False)
    return face, texts


def _side_score(ctx: Ctx, entry: TableEntry, pub: Public, side: int) -> tuple[str, str, str]:
    """The side's score, and under it its standing in words (the common part's side note) and
    the cards in its players' hands."""
    score = pub.score(side)
    seats = pub.sides.get(side, [])
    counts = [f"{d.seat_name(ctx, entry, x)} {pub.hand_counts[x]}" for x in seats
              if x < len(pub.hand_counts)]
    notes = (entry.common or {}).get("side_notes") or []
    note = notes[side] if side < len(notes) and isinstance(notes[side], dict) else None
    big, label = ("", "") if score is None else (str(score), ctx.tr.t("kiosk.score"))
    said = [caption(ctx, entry, note)] if note else []
    return big, label, "  ·  ".join([*said, *counts])


def _info(ctx: Ctx, area: Rect, entry: TableEntry, view: View, pub: Public, hook: Hook,
          column: bool) -> None:
    t = ctx.tr
    s = ctx.surface
    n_blocks = len(pub.sides) + 1
    if column:
        block_h = min(area.h // (n_blocks + 0.6), round(area.w * 0.42))
        blocks = [Rect(area.x, area.y + i * block_h, area.w, block_h - 6) for i in range(n_blocks)]
    else:
        # in a row: the last-move block gets more room for its words and its card
        unit = area.w / (len(pub.sides) + 1.5)
        widths = [round(unit)] * len(pub.sides) + [area.w - round(unit) * len(pub.sides)]
        blocks, x = [], area.x
        for w in widths:
            blocks.append(Rect(x, area.y, w - 6, area.h))
            x += w
        if t.rtl:
            blocks = [Rect(area.right - (b.right - area.x), b.y, b.w, b.h) for b in blocks]
    for b, (side, seats) in zip(blocks, pub.sides.items(), strict=False):
        color = d.side_color(side, entry)
        turn = any(x in pub.to_act for x in seats)
        d.panel(s, b, d.PANEL, radius=b.h // 8, border=d.GOLD if turn else color,
                width=max(2, b.h // 28))
        pad = max(3, b.h // 12)
        inner = b.inflate(-2 * pad, -2 * pad)
        chip_r = max(4, inner.h // 7)
        names = Rect(inner.x + 3 * chip_r, inner.y, inner.w - 3 * chip_r, inner.h * 3 // 10)
        if t.rtl:
            names.x = inner.x
        d.draw_chip(s, (inner.right - chip_r if t.rtl else inner.x + chip_r, names.centery),
                    chip_r, color)
        d.label(ctx, t.join_names([d.seat_name(ctx, entry, x) for x in seats]), names,
                names.h * 4 // 5, d.TEXT, bold=True)
        big, label, detail = (hook.side_score(ctx, entry, view, side) if hook.side_score
                              else _side_score(ctx, entry, pub, side))
        row2 = Rect(inner.x, names.bottom, inner.w, inner.h * 4 // 10)
        count = Rect(row2.x, row2.y, round(row2.w * 0.42), row2.h)
        words = Rect(count.right, row2.y, row2.w - count.w, row2.h)
        if t.rtl:
            count.x, words.x = row2.right - count.w, row2.x
        d.label(ctx, big, count, row2.h * 4 // 5, d.GOLD, bold=True, ltr=True)
        d.label(ctx, label, words, row2.h // 2, d.GOLD, align="end")
        row3 = Rect(inner.x, row2.bottom, inner.w, inner.bottom - row2.bottom)
        d.label(ctx, detail, row3, row3.h * 3 // 5, d.MUTED)
    card, lines = (hook.last(ctx, entry, view) if hook.last
                   else (pub.last_card, [pub.last, *pub.captions]))
    _last(ctx, blocks[-1], card, [x for x in lines if x])


def _last(ctx: Ctx, b: Rect, card: str | None, lines: list[str]) -> None:
    """The last move: its words, and the card it used at the end of the block."""
    d.panel(ctx.surface, b, d.PANEL, radius=b.h // 8)
    pad = max(3, b.h // 12)
    inner = b.inflate(-2 * pad, -2 * pad)
    words = inner
    if card is not None:
        cw = round(inner.h * 0.7)
        box = Rect(inner.x if ctx.tr.rtl else inner.right - cw, inner.y, cw, inner.h)
        d.draw_card(ctx, box, card)
        words = Rect(box.right + pad if ctx.tr.rtl else inner.x, inner.y, inner.w - cw - pad,
                     inner.h)
    ctx.text.lines(ctx.surface, lines, words, max(10, words.h // 4), d.TEXT)
