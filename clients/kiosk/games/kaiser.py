"""Kaiser's own part of the trick-taking picture: each seat's call while the auction lasts, the
contract holder's badge with the bid, trump (or no-trump) and who holds the contract, the
score's target; the family adds the points each side took this hand (``taken``, the
descriptor's score sheet, under ``kaiser.tricks``).

Reads the public ``kaiser_view`` only (``phase``, ``bids``, ``bidder``, ``bid``, ``no_trump``,
``trump``, ``target``). Everything else is the family's (trick_taking.py).
"""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Badge, Hook, Tag, View
from clients.kiosk.model import TableEntry


def _call(ctx: Ctx, value: object, no_trump: object) -> str:
    if value is None:
        return ctx.tr.t("kaiser.action.pass")
    return ctx.tr.t("kaiser.bid_nt", value=value) if no_trump else str(value)


def badges(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> list[Badge]:
    if view.get("bidder") != seat or view.get("bid") is None:
        return []
    return [(f"{ctx.tr.t('kaiser.kiosk.bid')} {_call(ctx, view['bid'], view.get('no_trump'))}",
             d.GOLD)]


def tag(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> Tag | None:
    """The seat's call while the auction lasts (and while trump is named)."""
    if view.get("phase") not in ("bidding", "trump"):
        return None
    calls = [b for b in view.get("bids") or [] if isinstance(b, dict) and b.get("seat") == seat]
    if not calls:
        return None
    value = calls[-1].get("value")
    return _call(ctx, value, calls[-1].get("no_trump")), value is not None


def status(ctx: Ctx, box: Rect, entry: TableEntry, view: View) -> bool:
    bidder, bid = view.get("bidder"), view.get("bid")
    if not isinstance(bidder, int) or bid is None:
        return False
    who = f"{d.seat_name(ctx, entry, bidder)} · {_call(ctx, bid, view.get('no_trump'))}"
    trump = view.get("trump")
    if trump:
        table.suit_block(ctx, box, str(trump), ctx.tr.t("kaiser.field.trump"), who)
    else:
        word = ctx.tr.t("kaiser.no_trump" if view.get("no_trump") else "kaiser.trump.unnamed")
        top = Rect(box.x, box.y, box.w, box.h // 2)
        d.label(ctx, word, top, top.h * 4 // 5, d.MUTED, align="end")
        d.label(ctx, who, Rect(box.x, top.bottom, box.w, box.h - top.h), top.h * 4 // 5, d.GOLD,
                bold=True, align="end")
    return True


HOOK = Hook(badges=badges, tag=tag, status=status,
            goal=lambda ctx, entry, view: [ctx.tr.t("kaiser.to", target=view.get("target", ""))])
