"""Euchre's own part of the trick-taking picture: the turned card while bidding, and trump with
who called it.

Reads the public ``euchre_view`` (``turned``/``turned_status``, ``trump``, ``maker``, ``alone``,
``target``). Bids, badges and each hand's result are the common part (engine/euchre/rules.py
``common``), drawn by the family (trick_taking.py) like everything else.
"""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Hook, View
from clients.kiosk.model import TableEntry

BIDDING = ("round_one", "round_two", "discard", "defend_alone")


def status(ctx: Ctx, box: Rect, entry: TableEntry, view: View) -> bool:
    trump, maker = view.get("trump"), view.get("maker")
    if not trump:
        return False
    called = ctx.tr.t("euchre.called_by", name=d.seat_name(ctx, entry, maker)) if isinstance(
        maker, int) else ""
    alone = f" · {ctx.tr.t('euchre.alone')}" if called and view.get("alone") else ""
    table.suit_block(ctx, box, str(trump), ctx.tr.t("euchre.trump"), called + alone)
    return True


def middle(ctx: Ctx, area: Rect, entry: TableEntry, view: View) -> bool:
    """The turned card while bidding (and nothing else in the middle)."""
    phase, card = view.get("phase"), view.get("turned")
    if not ((phase in BIDDING or phase == "deal") and isinstance(card, str)):
        return phase in BIDDING
    ch = round(area.h * 0.62)
    r = Rect(0, 0, round(ch * 0.7), ch)
    r.center = (area.centerx, area.centery - area.h // 12)
    down = view.get("turned_status") in ("turned_down", "set_aside")
    d.draw_card(ctx, r, card, dim=down, glow=view.get("turned_status") == "up")
    words = Rect(area.x, r.bottom + 4, area.w, max(12, area.h // 7))
    d.label(ctx, ctx.tr.t("euchre.turned_down" if down else "euchre.turned_up"), words,
            round(words.h * 0.8), d.MUTED, align="center")
    return True


HOOK = Hook(status=status, middle=middle, goal=lambda ctx, entry, view: [
    ctx.tr.t("euchre.to", n=view.get("target", ""))])
