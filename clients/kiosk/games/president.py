"""President's own part of the shedding picture, from the public ``president_view`` only: the
round, a revolution and the rank order above the table, the exchange under the pile. Titles,
passes and places are the common part (engine/president/rules.py), drawn by shedding.py."""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Hook, View
from clients.kiosk.games.public import public
from clients.kiosk.model import TableEntry


def top(ctx: Ctx, box: Rect, entry: TableEntry, view: View) -> bool:
    """The round (30%), a revolution when one is on (25%), the rank order weakest first."""
    t, captions = ctx.tr, public(ctx, entry).captions
    start = Rect(box.x, box.y, box.w * 3 // 10, box.h)
    middle = Rect(start.right, box.y, box.w // 4, box.h)
    end = Rect(middle.right, box.y, box.right - middle.right, box.h)
    if t.rtl:
        start.right, end.x = box.right, box.x
        middle.x = end.right
    d.label(ctx, captions[0] if captions else "", start, round(box.h * 0.8), d.TEXT)
    on = bool(view.get("reversed"))
    if on:
        pill = middle.inflate(-middle.w // 8, -max(2, box.h // 8))
        d.panel(ctx.surface, pill, d.ALERT, radius=pill.h // 2)
        d.label(ctx, t.t("president.revolution_banner"), pill.inflate(-pill.h // 2, -2),
                round(pill.h * 0.8), d.TEXT, bold=True, align="center")
    # always left to right, weakest first, whatever the language
    d.label(ctx, "\u2009‹\u2009".join(t.rank(r) for r in str(view.get("order") or "")), end,
            round(box.h * 0.62), d.GOLD if on else d.MUTED, align="end", bold=on, ltr=True,
            min_scale=0.3)
    return True


def middle(ctx: Ctx, area: Rect, entry: TableEntry, view: View) -> bool:
    if view.get("phase") == "exchange":
        table.under(ctx, area, ctx.tr.t("president.exchange"), d.GOLD)
    return False  # the pile is the family's


HOOK = Hook(top=top, middle=middle)
