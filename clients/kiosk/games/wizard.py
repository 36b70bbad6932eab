"""Wizard's own part of the trick-taking picture: each seat's tricks and bid at its feet (a hidden
bid only as "has bid": the view never holds it), the turned card in the middle while bids are
made and trump at the strip's end.

Reads the public ``wizard_view`` only; everything else is the family's (trick_taking.py), the
score sheet between rounds too (the common part's, drawn by sheet.py).
"""

from __future__ import annotations

from typing import Any

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


HOOK = Hook(tag=tag, status=status, middle=middle)
