"""The card table both card families draw: seats round an ellipse, each seat's panel, a trick
played towards its players, a pile of plays, the score pills of the sides, a suit block and the result between hands.

Seat 0 sits at the bottom and the others follow clockwise, so three to eight players fit any
shape of screen. Every measure comes from the rectangle given. Only face-down backs are drawn
for hands: a spectator knows how many cards a seat holds, never which.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import sheet
from clients.kiosk.games.hook import Badge, Hook, SeatBody, Tag
from clients.kiosk.games.public import Play, Public, View, key_or
from clients.kiosk.i18n import RED_SUITS, SUIT_SYMBOLS
from clients.kiosk.model import TableEntry


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


Body = Callable[[Rect], bool]


def seat_panel(ctx: Ctx, spot: Rect, entry: TableEntry, seat: int, count: int, *, turn: bool,
               side: int, badges: list[Badge], tag: Tag | None, body: Body | None = None,
               fan_max: int = 8, score: int | None = None) -> None:
    """A seat: its name, its badges, its hand face down (or ``body``), and a tag at its feet."""
    s = ctx.surface
    d.panel(s, spot, d.PANEL, radius=spot.h // 8, border=d.GOLD if turn else d.side_color(
        side, entry), width=max(2, spot.h // 22))
    pad = max(3, spot.h // 12)
    inner = spot.inflate(-2 * pad, -2 * pad)
    name_row = Rect(inner.x, inner.y, inner.w, round(inner.h * 0.3))
    if score is not None:  # a seat playing for itself: its score at the end of its name
        pts = Rect(0, name_row.y, round(inner.w * 0.28), name_row.h)
        pts.x = name_row.x if ctx.tr.rtl else name_row.right - pts.w
        d.label(ctx, str(score), pts, round(name_row.h * 0.9), d.GOLD, bold=True, align="end",
                ltr=True)
        name_row = Rect(pts.right if ctx.tr.rtl else name_row.x, name_row.y,
                        name_row.w - pts.w, name_row.h)
    d.label(ctx, d.seat_name(ctx, entry, seat), name_row, round(name_row.h * 0.9), d.TEXT,
            bold=True)
    badge_row = Rect(inner.x, name_row.bottom, inner.w, round(inner.h * 0.22))
    if badges:
        d.label(ctx, "  ·  ".join(b for b, _ in badges), badge_row, round(badge_row.h * 0.9),
                badges[-1][1])
    cards = Rect(inner.x, badge_row.bottom + pad // 2, inner.w,
                 inner.bottom - badge_row.bottom - pad // 2)
    if body is not None and body(cards):
        return
    if tag is None:
        d.draw_fan(ctx, cards, count, max_cards=fan_max)
        return
    # the hand to one side, the tag (a bid, "passed") beside it, so both stay readable
    fan = Rect(cards.x, cards.y, cards.w * 11 // 20, cards.h)
    pill = Rect(fan.right + pad // 2, cards.y + cards.h // 6, cards.w - fan.w - pad // 2,
                cards.h * 2 // 3)
    if ctx.tr.rtl:
        fan.right, pill.x = cards.right, cards.x
    d.draw_fan(ctx, fan, count, max_cards=fan_max, align="start")
    words, gold = tag
    d.panel(s, pill, d.FELT_DARK, radius=pill.h // 2, border=d.GOLD if gold else d.MUTED,
            width=max(1, pill.h // 12))
    d.label(ctx, words, pill.inflate(-pill.h // 3, -2), round(pill.h * 0.7),
            d.GOLD if gold else d.MUTED, align="center", bold=gold)


def seats(ctx: Ctx, area: Rect, entry: TableEntry, view: View, pub: Public, hook: Hook, n: int,
          *, fan_max: int) -> None:
    """Every seat's panel round the table, with what the game's hook adds to each."""
    for seat, spot in enumerate(around(area, n, seat_box(area, n))):
        count = pub.hand_counts[seat] if seat < len(pub.hand_counts) else 0
        body: Body | None = None
        if hook.seat_body is not None:
            def body(box: Rect, seat: int = seat, f: SeatBody = hook.seat_body) -> bool:
                return f(ctx, box, entry, view, seat)
        alone = len(pub.sides) == n  # every seat its own side: its score is its own
        seat_panel(ctx, spot, entry, seat, count, turn=seat in pub.to_act,
                   side=pub.side_of(seat), score=pub.score(seat) if alone else None,
                   badges=said(ctx, entry, view, pub, seat) + (
                       hook.badges(ctx, entry, view, seat) if hook.badges else []),
                   tag=hook.tag(ctx, entry, view, seat) if hook.tag else note(pub, seat),
                   body=body, fan_max=fan_max)


def said(ctx: Ctx, entry: TableEntry, view: View, pub: Public, seat: int) -> list[Badge]:
    """The seat's badges from the common part (dealer, maker, a title); else the family's habit
    of marking a ``dealer``."""
    if not pub.badges:
        return dealer(ctx, entry, view, seat)
    return [(word, d.GOLD) for word in (pub.badges[seat] if seat < len(pub.badges) else ())]


def note(pub: Public, seat: int) -> Tag | None:
    words = pub.notes[seat] if seat < len(pub.notes) else None
    return (words, False) if words else None


def result(ctx: Ctx, rect: Rect, entry: TableEntry, pub: Public) -> None:
    """Between hands, over the table: the common part's result when it has one, else its score
    sheet (games/sheet.py)."""
    if pub.result:
        d.banner(ctx, rect, pub.result[0], list(pub.result[1:]))
    else:
        sheet.banner(ctx, rect, entry)


def dealer(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> list[Badge]:
    """The dealer's mark, in the game's word for it, when the view names a dealer."""
    word = key_or(ctx, f"{entry.game}.dealer") if view.get("dealer") == seat else ""
    # only a plain word: a line made for elsewhere ("Seat {seat} deals") would read wrong here
    return [(word, d.MUTED)] if word and "{" not in word else []


def trick(ctx: Ctx, area: Rect, played: list[Play], n: int, *, dim: bool = False) -> None:
    """Each card a little way from the middle towards the seat that played it."""
    ch = round(min(area.h * 0.5, area.w / 3.2 / 0.7))
    cw = round(ch * 0.7)
    for i, (seat, cards) in enumerate(played):
        theta = math.pi / 2 + 2 * math.pi * (seat or 0) / max(1, n)
        r = Rect(0, 0, cw, ch)
        r.center = (round(area.centerx + math.cos(theta) * 0.95 * cw * 1.05),
                    round(area.centery + math.sin(theta) * 0.55 * ch * 0.95))
        for code in cards[:1]:
            d.draw_card(ctx, r, code, glow=not dim and i == len(played) - 1, dim=dim)


def pile(ctx: Ctx, area: Rect, entry: TableEntry, played: list[Play]) -> None:
    """The play to beat in front, the trick's earlier plays peeking out above it."""
    ch = round(area.h * 0.62)
    history = played[-4:-1]
    for i, (_, cards) in enumerate(history):
        k = len(history) - i
        small = round(ch * (1 - 0.12 * k))
        row(ctx, area, cards, small, area.centery - ch // 2 - k * ch // 10 + small // 2,
            dim=True)
    seat, cards = played[-1]
    row(ctx, area, cards, ch, area.centery + ch // 10, glow=True)
    if seat is not None:
        who = Rect(area.x, area.centery + ch // 10 + ch // 2 + 2, area.w, max(12, area.h // 7))
        d.label(ctx, d.seat_name(ctx, entry, seat), who, round(who.h * 0.8), d.GOLD,
                align="center", bold=True)


def row(ctx: Ctx, area: Rect, cards: list[str], ch: int, cy: int, *, glow: bool = False,
        dim: bool = False) -> None:
    """Cards overlapping in a row centred in ``area``; ``glow`` rings the last one."""
    cw = round(ch * 0.7)
    step = round(cw * 0.55)
    x = area.centerx - (cw + step * (len(cards) - 1)) // 2
    for i, code in enumerate(cards):
        d.draw_card(ctx, Rect(x + i * step, cy - ch // 2, cw, ch), code,
                    glow=glow and i == len(cards) - 1, dim=dim)


def side_pills(ctx: Ctx, box: Rect, entry: TableEntry, pub: Public, share: float) -> Rect:
    """One pill per side in its colour, its players and its score, in ``share`` of ``box``;
    returns the rest of the box (at the end of the reading direction)."""
    sides = list(pub.sides.items())
    if not sides:
        return box
    used = round(box.w * share)
    pill_w = (used - 4 * (len(sides) - 1)) // len(sides)
    rtl = ctx.tr.rtl
    for i, (side, members) in enumerate(sides):
        x = box.right - (i + 1) * pill_w - i * 4 if rtl else box.x + i * (pill_w + 4)
        pill = Rect(x, box.y, pill_w, box.h)
        d.panel(ctx.surface, pill, d.PANEL, radius=pill.h // 3, border=d.side_color(side, entry),
                width=max(2, pill.h // 16))
        top = Rect(pill.x + pill.h // 4, pill.y + 2, pill.w - pill.h // 2, pill.h * 9 // 20)
        bottom = Rect(top.x, top.bottom, top.w, pill.bottom - top.bottom - 2)
        d.label(ctx, d.seat_names(ctx, entry, members), top, top.h, d.TEXT, align="center")
        score = pub.score(side)
        d.label(ctx, "" if score is None else str(score), bottom, bottom.h, d.GOLD, bold=True,
                align="center", ltr=True)
    rest_w = box.w - used - 4
    return Rect(box.x if rtl else box.right - rest_w, box.y, rest_w, box.h)


def suit_block(ctx: Ctx, info: Rect, suit: str, first: str, second: str) -> None:
    """A suit on a card-white square at the end of ``info``, two lines of words before it."""
    sym = Rect(0, 0, info.h, info.h)
    if ctx.tr.rtl:
        sym.topleft = info.topleft
        words = Rect(sym.right + 6, info.y, info.w - info.h - 6, info.h)
    else:
        sym.topright = info.topright
        words = Rect(info.x, info.y, info.w - info.h - 6, info.h)
    d.panel(ctx.surface, sym, d.CARD_FACE, radius=info.h // 5)
    d.label(ctx, SUIT_SYMBOLS.get(suit, suit), sym.inflate(-4, -4), round(info.h * 0.8),
            d.CARD_RED if suit in RED_SUITS else d.CARD_BLACK, align="center")
    line1 = Rect(words.x, words.y, words.w, words.h // 2)
    line2 = Rect(words.x, line1.bottom, words.w, words.h - line1.h)
    d.label(ctx, first, line1, line1.h * 4 // 5, d.MUTED, align="end")
    d.label(ctx, second, line2, line2.h * 4 // 5, d.GOLD, bold=True, align="end")


def under(ctx: Ctx, middle: Rect, text: str, color: d.Color = d.MUTED) -> None:
    """A line just below the table's middle: the last action, the exchange under way."""
    if text:
        words = Rect(middle.x, middle.bottom, middle.w, max(14, middle.h // 6))
        d.label(ctx, text, words, words.h, color, align="center")


def phase_words(ctx: Ctx, entry: TableEntry, phase: str) -> str:
    """The phase in the game's words (``<game>.phase.<phase>``), if its catalogue has them."""
    return key_or(ctx, f"{entry.game}.phase.{phase}")
