"""Sequence on the shared screen: the board with every chip, completed sequences struck
through, the last move ringed in gold (and a removed chip crossed), and per team the sequences
made, chips captured, cards in hand and the draw pile.

Reads the public ``sequence_view``: ``layout`` (10 rows of card codes, ``XX`` for the free
corners), ``chips`` (team per square, -1 for none), ``sequences`` (team and squares),
``locked``, ``last`` (seat, action tag, card, squares, captured), ``score``, ``captures``,
``teams`` (team of each seat), ``hand_counts``, ``draw_pile``, ``discards`` and ``rules``.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pygame
from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.i18n import RED_SUITS, SUIT_SYMBOLS
from clients.kiosk.layout import fit_grid
from clients.kiosk.model import TableEntry
from clients.kiosk.text import Drawn

SIZE = 10
CELL_ASPECT = 0.8  # width / height of a board square, like the printed board's cards



def draw(ctx: Ctx, rect: Rect, entry: TableEntry) -> None:
    view = entry.view or {}
    landscape = rect.w >= rect.h * 1.25
    if landscape:
        info_w = round(rect.w * 0.3)
        board_area = Rect(rect.x, rect.y, rect.w - info_w - 8, rect.h)
        info = Rect(board_area.right + 8, rect.y, info_w, rect.h)
        if ctx.tr.rtl:
            info.x, board_area.x = rect.x, rect.x + info_w + 8
    else:
        info_h = round(rect.h * 0.22)
        board_area = Rect(rect.x, rect.y, rect.w, rect.h - info_h - 6)
        info = Rect(rect.x, board_area.bottom + 6, rect.w, info_h)
    _board(ctx, board_area, view)
    _info(ctx, info, entry, view, landscape)


def _board(ctx: Ctx, area: Rect, view: dict[str, Any]) -> None:
    s = ctx.surface
    layout = view.get("layout") or []
    chips = view.get("chips") or []
    grid, cw, ch = fit_grid(area, SIZE, SIZE, CELL_ASPECT)
    pygame.draw.rect(s, d.PANEL, grid.inflate(8, 8), border_radius=6)

    def cell(r: int, c: int) -> Rect:
        return Rect(grid.x + c * cw, grid.y + r * ch, cw, ch)

    face, texts = _board_face(ctx, layout, cw, ch)
    s.blit(face, grid.topleft)
    ox, oy = s.get_abs_offset()
    ctx.text.drawn.extend(Drawn(t.rect.move(grid.x + ox, grid.y + oy), t.text) for t in texts)
    radius = max(3, round(min(cw, ch) * 0.31))
    locked = {(int(a), int(b)) for a, b in view.get("locked") or []}
    for r in range(min(SIZE, len(chips))):
        for c in range(min(SIZE, len(chips[r]))):
            team = chips[r][c]
            if isinstance(team, int) and team >= 0:
                d.draw_chip(s, cell(r, c).center, radius, d.side_color(team),
                            mark=(r, c) in locked)
    for line in view.get("sequences") or []:
        squares = [cell(int(a), int(b)).center for a, b in line.get("squares") or []]
        if len(squares) >= 2:
            color = tuple(min(255, x + 70) for x in d.side_color(int(line.get("team", 0))))
            pygame.draw.line(s, color, squares[0], squares[-1], max(3, radius // 3))
    last = view.get("last")
    if isinstance(last, dict):
        for a, b in last.get("squares") or []:
            pygame.draw.rect(s, d.GOLD, cell(int(a), int(b)), width=max(2, cw // 9),
                             border_radius=max(2, cw // 6))
        for a, b in last.get("captured") or []:
            box = cell(int(a), int(b)).inflate(-cw // 4, -ch // 4)
            w = max(2, cw // 10)
            pygame.draw.line(s, d.ALERT, box.topleft, box.bottomright, w)
            pygame.draw.line(s, d.ALERT, box.topright, box.bottomleft, w)


_FACES: OrderedDict[tuple[Any, ...], tuple[pygame.Surface, list[Drawn]]] = OrderedDict()


def _board_face(ctx: Ctx, layout: list[Any], cw: int, ch: int) -> tuple[pygame.Surface,
                                                                         list[Drawn]]:
    """The printed board (it never changes during a game), drawn once per size and language,
    with the texts drawn on it so they are recorded wherever the face is blitted."""
    key = (tuple(tuple(row) for row in layout), cw, ch, ctx.tr.lang)
    hit = _FACES.get(key)
    if hit is not None:
        _FACES.move_to_end(key)
        return hit
    face = pygame.Surface((cw * SIZE, ch * SIZE), pygame.SRCALPHA)
    local = Ctx(face, ctx.text, ctx.tr, ctx.now)
    mark = len(ctx.text.drawn)
    for r in range(SIZE):
        row = layout[r] if r < len(layout) else []
        for c in range(SIZE):
            code = row[c] if c < len(row) else ""
            square = Rect(c * cw, r * ch, cw, ch).inflate(-max(1, cw // 14), -max(1, ch // 14))
            _square(local, square, code)
    texts = ctx.text.drawn[mark:]
    del ctx.text.drawn[mark:]
    _FACES[key] = (face, texts)
    if len(_FACES) > 8:
        _FACES.popitem(last=False)
    return face, texts


def _square(ctx: Ctx, r: Rect, code: str) -> None:
    s = ctx.surface
    if code == "XX":
        pygame.draw.rect(s, d.GOLD, r, border_radius=max(2, r.w // 6))
        ctx.text.draw(s, "★", r, round(r.h * 0.6), d.PANEL, align="center")
        return
    pygame.draw.rect(s, d.CARD_FACE, r, border_radius=max(2, r.w // 8))
    if len(code) != 2:
        return
    color = d.CARD_RED if code[1] in RED_SUITS else d.CARD_BLACK
    top = Rect(r.x, r.y + r.h // 20, r.w, r.h // 2)
    bottom = Rect(r.x, top.bottom - r.h // 20, r.w, r.bottom - top.bottom)
    ctx.text.draw(s, ctx.tr.rank(code[0]), top, round(r.h * 0.42), color, bold=True,
                  align="center")
    ctx.text.draw(s, SUIT_SYMBOLS.get(code[1], "?"), bottom, round(r.h * 0.4), color,
                  align="center")


def _teams(view: dict[str, Any], entry: TableEntry) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for seat, team in enumerate(view.get("teams") or []):
        out.setdefault(int(team), []).append(seat)
    if not out:
        for s in entry.seats:
            out.setdefault(s.team, []).append(s.seat)
    return dict(sorted(out.items()))


def _info(ctx: Ctx, area: Rect, entry: TableEntry, view: dict[str, Any], column: bool) -> None:
    t = ctx.tr
    s = ctx.surface
    teams = _teams(view, entry)
    score = list(view.get("score") or [])
    captures = list(view.get("captures") or [])
    rules = view.get("rules") or {}
    need = rules.get("sequences_to_win", 0) if isinstance(rules, dict) else 0
    counts = list(view.get("hand_counts") or [])
    acting = set(view.get("to_act") or [])
    n_blocks = len(teams) + 1
    if column:
        block_h = min(area.h // (n_blocks + 0.6), round(area.w * 0.42))
        blocks = [Rect(area.x, area.y + i * block_h, area.w, block_h - 6) for i in range(n_blocks)]
    else:
        # in a row: the last-move block gets more room for its words and its card
        unit = area.w / (len(teams) + 1.5)
        widths = [round(unit)] * len(teams) + [area.w - round(unit) * len(teams)]
        blocks, x = [], area.x
        for w in widths:
            blocks.append(Rect(x, area.y, w - 6, area.h))
            x += w
        if t.rtl:
            blocks = [Rect(area.right - (b.right - area.x), b.y, b.w, b.h) for b in blocks]
    for i, (team, seats) in enumerate(teams.items()):
        b = blocks[i]
        color = d.side_color(team)
        turn = any(x in acting for x in seats)
        d.panel(s, b, d.PANEL, radius=b.h // 8, border=d.GOLD if turn else color,
                width=max(2, b.h // 28))
        pad = max(3, b.h // 12)
        inner = b.inflate(-2 * pad, -2 * pad)
        chip_r = max(4, inner.h // 7)
        names_row = Rect(inner.x + 3 * chip_r, inner.y, inner.w - 3 * chip_r, inner.h * 3 // 10)
        if t.rtl:
            names_row.x = inner.x
            d.draw_chip(s, (inner.right - chip_r, names_row.centery), chip_r, color)
        else:
            d.draw_chip(s, (inner.x + chip_r, names_row.centery), chip_r, color)
        names = t.join_names([d.seat_name(ctx, entry, x) for x in seats])
        d.label(ctx, names, names_row, names_row.h * 4 // 5, d.TEXT, bold=True)
        made = score[team] if team < len(score) else 0
        row2 = Rect(inner.x, names_row.bottom, inner.w, inner.h * 4 // 10)
        count_w = round(row2.w * 0.42)
        count = Rect(row2.x, row2.y, count_w, row2.h)
        words = Rect(row2.x + count_w, row2.y, row2.w - count_w, row2.h)
        if t.rtl:
            count.x, words.x = row2.right - count_w, row2.x
        d.label(ctx, f"{made} / {need}" if need else str(made), count, row2.h * 4 // 5, d.GOLD,
                bold=True, ltr=True)
        d.label(ctx, t.t("sequence.sequences_label"), words, row2.h // 2, d.GOLD, align="end")
        row3 = Rect(inner.x, row2.bottom, inner.w, inner.bottom - row2.bottom)
        if len(seats) == 1:
            hand = t.t("sequence.in_hand", n=counts[seats[0]] if seats[0] < len(counts) else 0)
        else:
            hand = "  ·  ".join(f"{d.seat_name(ctx, entry, x)} {counts[x]}" for x in seats
                                if x < len(counts))
        if rules.get("captures") and team < len(captures):
            hand = f"{t.t('sequence.captured', n=captures[team])}  ·  {hand}"
        d.label(ctx, hand, row3, row3.h * 3 // 5, d.MUTED)
    _last_block(ctx, blocks[-1], entry, view)


def _last_block(ctx: Ctx, b: Rect, entry: TableEntry, view: dict[str, Any]) -> None:
    t = ctx.tr
    d.panel(ctx.surface, b, d.PANEL, radius=b.h // 8)
    pad = max(3, b.h // 12)
    inner = b.inflate(-2 * pad, -2 * pad)
    ch = inner.h
    cw = round(ch * 0.7)
    card_box = Rect(inner.right - cw, inner.y, cw, ch) if not t.rtl else Rect(inner.x, inner.y, cw, ch)
    words = Rect(inner.x, inner.y, inner.w - cw - pad, inner.h)
    if t.rtl:
        words.x = card_box.right + pad
    last = view.get("last")
    lines = [f"{t.t('sequence.deck')}: {view.get('draw_pile', 0)}"]
    if isinstance(last, dict):
        d.draw_card(ctx, card_box, str(last.get("card", "")))
        kind = str(last.get("type"))
        verb = {"remove": "sequence.removed", "exchange_dead": "sequence.dead_card",
                "discard": "sequence.dead_card"}.get(kind, "sequence.placed")
        who = d.seat_name(ctx, entry, int(last.get("seat", 0)))
        lines = [t.t("sequence.last_move"), f"{who} {t.t(verb)}", *lines]
    ctx.text.lines(ctx.surface, lines, words, max(10, words.h // 4), d.TEXT)
