"""President's own part of the shedding picture: the round, a revolution and the rank order above
the table, each seat's title from the last round, who passed, the title a seat went out with,
the card exchange, and every place with its points between rounds.

Reads the public ``president_view`` (``round``/``rounds``, ``reversed``, ``order``, ``passed``,
``places``/``previous_places``, ``round_points``, ``totals``); titles are the keys
``president.title.*``. Everything else is the family's (shedding.py).
"""

from __future__ import annotations

from typing import Any

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Badge, Hook, Tag, View
from clients.kiosk.model import TableEntry


def _place(view: View, key: str, seat: int) -> dict[str, Any] | None:
    return next((p for p in view.get(key) or [] if p.get("seat") == seat), None)


def _title(ctx: Ctx, place: dict[str, Any]) -> str:
    return ctx.tr.t("president.title." + str(place.get("title")))


def top(ctx: Ctx, box: Rect, entry: TableEntry, view: View) -> bool:
    """The round (30%), a revolution when one is on (25%), the rank order weakest first."""
    t = ctx.tr
    rnd, rounds = view.get("round", 0), view.get("rounds", 0)
    text = (t.t("president.round", n=rnd, total=rounds) if isinstance(rounds, int) and rounds > 0
            else t.t("president.round_open", n=rnd))
    start = Rect(box.x, box.y, box.w * 3 // 10, box.h)
    middle = Rect(start.right, box.y, box.w // 4, box.h)
    end = Rect(middle.right, box.y, box.right - middle.right, box.h)
    if t.rtl:
        start.right, end.x = box.right, box.x
        middle.x = end.right
    d.label(ctx, text, start, round(box.h * 0.8), d.TEXT)
    on = bool(view.get("reversed"))
    if on:
        pill = middle.inflate(-middle.w // 8, -max(2, box.h // 8))
        d.panel(ctx.surface, pill, d.ALERT, radius=pill.h // 2)
        d.label(ctx, t.t("president.revolution_banner"), pill.inflate(-pill.h // 2, -2),
                round(pill.h * 0.8), d.TEXT, bold=True, align="center")
    order = str(view.get("order") or "")
    # always left to right, weakest first, whatever the language
    d.label(ctx, "\u2009‹\u2009".join(t.rank(r) for r in order), end, round(box.h * 0.62),
            d.GOLD if on else d.MUTED, align="end", bold=on, ltr=True, min_scale=0.3)
    return True


def badges(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> list[Badge]:
    before = _place(view, "previous_places", seat)
    return [(_title(ctx, before), d.MUTED)] if before is not None else []


def tag(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> Tag | None:
    return (ctx.tr.t("president.passed"), False) if seat in (view.get("passed") or []) else None


def seat_body(ctx: Ctx, box: Rect, entry: TableEntry, view: View, seat: int) -> bool:
    """A seat that went out this round shows the title it won instead of an empty hand."""
    place = _place(view, "places", seat)
    counts = view.get("hand_counts") or []
    if place is None or (seat < len(counts) and counts[seat]):
        return False
    d.panel(ctx.surface, box.inflate(-box.w // 6, -box.h // 5), d.FELT, radius=box.h // 5)
    d.label(ctx, _title(ctx, place), box.inflate(-box.w // 4, -box.h // 3), round(box.h * 0.4),
            d.GOLD, bold=True, align="center")
    return True


def middle(ctx: Ctx, area: Rect, entry: TableEntry, view: View) -> bool:
    if view.get("phase") == "exchange":
        table.under(ctx, area, ctx.tr.t("president.exchange"), d.GOLD)
    return False  # the pile is the family's


def banner(ctx: Ctx, rect: Rect, entry: TableEntry, view: View) -> bool:
    if view.get("phase") != "between":
        return False
    t = ctx.tr
    points, totals = list(view.get("round_points") or []), list(view.get("totals") or [])
    lines = []
    for place in view.get("places") or []:
        seat = int(place["seat"])
        gained = points[seat] if seat < len(points) else place.get("points", 0)
        total = totals[seat] if seat < len(totals) else ""
        lines.append(f"{_title(ctx, place)}: {d.seat_name(ctx, entry, seat)}   +{gained}   "
                     f"({t.t('president.total')} {total})")
    d.banner(ctx, rect, t.t("kiosk.round_over"), lines)
    return True


HOOK = Hook(top=top, badges=badges, tag=tag, seat_body=seat_body, middle=middle, banner=banner)
