"""President on the shared screen: the pile, the order in force, every hand's size, places and
points, and the round's results between rounds.

Reads the public ``president_view``: ``trick`` (plays in order, the last to beat),
``passed``, ``hand_counts``, ``places``/``previous_places`` (title keys and points),
``round``/``rounds``, ``reversed`` (a revolution), ``order``, ``round_points`` and ``totals``.
Titles come from the message keys ``president.title.*`` (the ruleset's Arabic terms, French
ranks V D R). No hand is ever drawn face up: the spectator view has none.
"""

from __future__ import annotations

from typing import Any

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.seats import around, seat_box
from clients.kiosk.model import TableEntry


def _places(view: dict[str, Any], key: str) -> dict[int, dict[str, Any]]:
    return {p["seat"]: p for p in view.get(key) or [] if isinstance(p, dict)}


def draw(ctx: Ctx, rect: Rect, entry: TableEntry) -> None:
    view = entry.view or {}
    t = ctx.tr
    counts: list[int] = list(view.get("hand_counts") or [])
    n = len(counts) or len(entry.seats)
    if n == 0:
        return
    top = Rect(rect.x, rect.y, rect.w, max(16, round(rect.h * 0.075)))
    _top_line(ctx, top, view)
    table = Rect(rect.x, top.bottom + 2, rect.w, rect.bottom - top.bottom - 2)
    box = seat_box(table, n)
    spots = around(table, n, box)
    places = _places(view, "places")
    previous = _places(view, "previous_places")
    totals = list(view.get("totals") or [])
    passed = set(view.get("passed") or [])
    acting = set(view.get("to_act") or [])
    for seat, spot in enumerate(spots):
        _seat(ctx, entry, spot, seat, counts[seat] if seat < len(counts) else 0,
              place=places.get(seat), title=previous.get(seat),
              total=totals[seat] if seat < len(totals) else None,
              passed=seat in passed, turn=seat in acting)
    middle = Rect(0, 0, round(table.w * 0.5), round(table.h * 0.42))
    middle.center = table.center
    _pile(ctx, middle, entry, view)
    phase = view.get("phase")
    if phase == "between":
        _results(ctx, rect, entry, view)
    elif phase == "exchange":
        label = Rect(middle.x, middle.bottom, middle.w, max(14, middle.h // 6))
        d.label(ctx, t.t("president.exchange"), label, label.h, d.GOLD, align="center")


def _top_line(ctx: Ctx, box: Rect, view: dict[str, Any]) -> None:
    """The round, a revolution when one is in force, and the rank order weakest first."""
    t = ctx.tr
    rnd, rounds = view.get("round", 0), view.get("rounds", 0)
    text = (t.t("president.round", n=rnd, total=rounds) if isinstance(rounds, int) and rounds > 0
            else t.t("president.round_open", n=rnd))
    # start: the round (30%); middle: a revolution (25%); end: the rank order (45%)
    w_start, w_mid = box.w * 3 // 10, box.w // 4
    start = Rect(box.x, box.y, w_start, box.h)
    middle = Rect(start.right, box.y, w_mid, box.h)
    end = Rect(middle.right, box.y, box.right - middle.right, box.h)
    if t.rtl:
        start.right, end.x = box.right, box.x
        middle.x = end.right
    d.label(ctx, text, start, round(box.h * 0.8), d.TEXT)
    reversed_ = bool(view.get("reversed"))
    if reversed_:
        pill = middle.inflate(-middle.w // 8, -max(2, box.h // 8))
        d.panel(ctx.surface, pill, d.ALERT, radius=pill.h // 2)
        d.label(ctx, t.t("president.revolution_banner"), pill.inflate(-pill.h // 2, -2),
                round(pill.h * 0.8), d.TEXT, bold=True, align="center")
    order = str(view.get("order") or "")
    if order:
        # always left to right, weakest first, whatever the language
        ranks = "\u2009‹\u2009".join(t.rank(r) for r in order)
        d.label(ctx, ranks, end, round(box.h * 0.62), d.GOLD if reversed_ else d.MUTED,
                align="end", bold=reversed_, ltr=True, min_scale=0.3)


def _seat(ctx: Ctx, entry: TableEntry, spot: Rect, seat: int, count: int, *,
          place: dict[str, Any] | None, title: dict[str, Any] | None, total: int | None,
          passed: bool, turn: bool) -> None:
    t = ctx.tr
    s = ctx.surface
    team = next((x.team for x in entry.seats if x.seat == seat), seat)
    d.panel(s, spot, d.PANEL, radius=spot.h // 8,
            border=d.GOLD if turn else d.side_color(team), width=max(2, spot.h // 22))
    pad = max(3, spot.h // 12)
    inner = spot.inflate(-2 * pad, -2 * pad)
    name_h = round(inner.h * 0.27)
    name_row = Rect(inner.x, inner.y, inner.w, name_h)
    pts_w = round(inner.w * 0.28)
    if t.rtl:
        name_box = Rect(name_row.x + pts_w, name_row.y, name_row.w - pts_w, name_h)
        pts_box = Rect(name_row.x, name_row.y, pts_w, name_h)
    else:
        name_box = Rect(name_row.x, name_row.y, name_row.w - pts_w, name_h)
        pts_box = Rect(name_row.right - pts_w, name_row.y, pts_w, name_h)
    d.label(ctx, d.seat_name(ctx, entry, seat), name_box, round(name_h * 0.9), d.TEXT, bold=True)
    if total is not None:
        d.label(ctx, str(total), pts_box, round(name_h * 0.9), d.GOLD, bold=True, align="end")
    title_row = Rect(inner.x, name_row.bottom, inner.w, round(inner.h * 0.2))
    if title is not None:
        d.label(ctx, t.t("president.title." + str(title.get("title"))), title_row,
                round(title_row.h * 0.9), d.MUTED)
    cards = Rect(inner.x, title_row.bottom + pad // 2, inner.w, inner.bottom - title_row.bottom - pad // 2)
    if place is not None and count == 0:
        words = t.t("president.title." + str(place.get("title")))
        d.panel(s, cards.inflate(-cards.w // 6, -cards.h // 5), d.FELT, radius=cards.h // 5)
        d.label(ctx, words, cards.inflate(-cards.w // 4, -cards.h // 3), round(cards.h * 0.4),
                d.GOLD, bold=True, align="center")
    elif not passed:
        d.draw_fan(ctx, cards, count, max_cards=10)
    else:
        # the hand to one side, "passed" beside it: out of this trick until it is cleared
        fan_w = cards.w * 11 // 20
        fan = Rect(cards.x, cards.y, fan_w, cards.h)
        tag = Rect(cards.x + fan_w + pad // 2, cards.y + cards.h // 6,
                   cards.w - fan_w - pad // 2, cards.h * 2 // 3)
        if t.rtl:
            fan.right, tag.x = cards.right, cards.x
        d.draw_fan(ctx, fan, count, max_cards=10, align="start")
        d.panel(s, tag, d.FELT_DARK, radius=tag.h // 2, border=d.MUTED, width=1)
        d.label(ctx, t.t("president.passed"), tag.inflate(-tag.h // 3, -2), round(tag.h * 0.7),
                d.MUTED, align="center")


def _pile(ctx: Ctx, area: Rect, entry: TableEntry, view: dict[str, Any]) -> None:
    t = ctx.tr
    plays = [p for p in view.get("trick") or [] if isinstance(p, dict)]
    if not plays:
        if view.get("phase") == "play":
            d.label(ctx, t.t("president.pile_empty"), area.inflate(-area.w // 10, -area.h // 3),
                    round(area.h * 0.12), d.MUTED, align="center")
        return
    # Earlier plays of this trick peek out above the one to beat.
    ch = round(area.h * 0.62)
    history = plays[-4:-1]
    for i, play in enumerate(history):
        k = len(history) - i
        small = round(ch * (1 - 0.12 * k))
        _cards(ctx, area, play["cards"], small, area.centery - ch // 2 - k * ch // 10 + small // 2,
               dim=True)
    last = plays[-1]
    _cards(ctx, area, last["cards"], ch, area.centery + ch // 10, glow=True)
    who = Rect(area.x, area.centery + ch // 10 + ch // 2 + 2, area.w, max(12, area.h // 7))
    d.label(ctx, d.seat_name(ctx, entry, int(last["seat"])), who, round(who.h * 0.8), d.GOLD,
            align="center", bold=True)


def _cards(ctx: Ctx, area: Rect, cards: list[str], ch: int, cy: int, *, glow: bool = False,
           dim: bool = False) -> None:
    cw = round(ch * 0.7)
    step = round(cw * 0.55)
    total = cw + step * (len(cards) - 1)
    x = area.centerx - total // 2
    for i, code in enumerate(cards):
        r = Rect(x + i * step, cy - ch // 2, cw, ch)
        d.draw_card(ctx, r, code, glow=glow and i == len(cards) - 1, dim=dim)


def _results(ctx: Ctx, rect: Rect, entry: TableEntry, view: dict[str, Any]) -> None:
    t = ctx.tr
    points = list(view.get("round_points") or [])
    totals = list(view.get("totals") or [])
    lines = []
    for place in view.get("places") or []:
        seat = int(place["seat"])
        gained = points[seat] if seat < len(points) else place.get("points", 0)
        total = totals[seat] if seat < len(totals) else ""
        lines.append(f"{t.t('president.title.' + str(place['title']))}: "
                     f"{d.seat_name(ctx, entry, seat)}   +{gained}   ({t.t('president.total')} {total})")
    d.banner(ctx, rect, t.t("kiosk.round_over"), lines)
