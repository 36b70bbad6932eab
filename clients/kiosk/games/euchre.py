"""Euchre's own part of the trick-taking picture: the maker and a lone hand under the seats, each
seat's last bid, who sits out, the turned card while bidding, trump and who called it, and the
hand's result between hands.

Reads the public ``euchre_view`` (``maker``, ``alone``, ``lone_defender``, ``sitting_out``,
``bids``, ``turned``/``turned_status``, ``trump``, ``target``, ``last_hand``). Everything else
is the family's (trick_taking.py).
"""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Badge, Hook, Tag, View
from clients.kiosk.i18n import SUIT_SYMBOLS
from clients.kiosk.model import TableEntry

BIDDING = ("round_one", "round_two", "discard", "defend_alone")


def _alone(ctx: Ctx, text: str, alone: object) -> str:
    return f"{text} · {ctx.tr.t('euchre.alone')}" if alone else text


def badges(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> list[Badge]:
    maker = view.get("maker") == seat
    words = (_alone(ctx, ctx.tr.t("euchre.maker"), view.get("alone")) if maker else "",
             ctx.tr.t("euchre.alone") if view.get("lone_defender") == seat else "")
    return [(w, d.GOLD) for w in words if w]


def tag(ctx: Ctx, entry: TableEntry, view: View, seat: int) -> Tag | None:
    """The seat's last bid while the bidding lasts."""
    bids = [b for b in view.get("bids") or [] if b.get("seat") == seat]
    if view.get("phase") not in BIDDING or not bids:
        return None
    bid = bids[-1]
    call = str(bid.get("call"))
    text = ctx.tr.t("euchre.bid_word." + call, suit=SUIT_SYMBOLS.get(bid.get("suit") or "", ""))
    return _alone(ctx, text, bid.get("alone")), call != "pass"


def seat_body(ctx: Ctx, box: Rect, entry: TableEntry, view: View, seat: int) -> bool:
    if seat not in (view.get("sitting_out") or []):
        return False
    d.label(ctx, ctx.tr.t("euchre.sitting_out"), box, round(box.h * 0.4), d.MUTED, align="center")
    return True


def status(ctx: Ctx, box: Rect, entry: TableEntry, view: View) -> bool:
    trump, maker = view.get("trump"), view.get("maker")
    if not trump:
        return False
    called = (_alone(ctx, ctx.tr.t("euchre.called_by", name=d.seat_name(ctx, entry, maker)),
                     view.get("alone")) if isinstance(maker, int) else "")
    table.suit_block(ctx, box, str(trump), ctx.tr.t("euchre.trump"), called)
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


def banner(ctx: Ctx, rect: Rect, entry: TableEntry, view: View) -> bool:
    last = view.get("last_hand")
    if view.get("phase") != "hand_over" or not isinstance(last, dict):
        return False
    t = ctx.tr
    points = list(last.get("points") or [0, 0])
    side = 0 if points[0] >= points[-1] else 1
    # The engine's result key (euchre.result.made) in the kiosk's one-line form with the side
    # and the points (euchre.result_line.made); the web page shows the short form.
    result = str(last.get("result")).replace("euchre.result.", "euchre.result_line.", 1)
    lines = [t.t(result, side=d.seat_names(ctx, entry, [side, side + 2]), points=max(points))]
    trump, maker = last.get("trump"), last.get("maker")
    if trump and isinstance(maker, int):
        lines.append(f"{t.t('euchre.trump')} {SUIT_SYMBOLS.get(trump, '')}  ·  "
                     + t.t("euchre.called_by", name=d.seat_name(ctx, entry, maker)))
    tricks, score = list(last.get("tricks") or [0, 0]), list(last.get("score") or [0, 0])
    lines.append(f"{t.t('euchre.tricks')} {tricks[0]}–{tricks[1]}   ·   "
                 f"{t.t('kiosk.score')} {score[0]}–{score[1]}")
    d.banner(ctx, rect, t.t("euchre.hand_over", n=last.get("hand", "")), lines)
    return True


HOOK = Hook(badges=badges, tag=tag, seat_body=seat_body, status=status, middle=middle,
            banner=banner, goal=lambda ctx, entry, view: [ctx.tr.t("euchre.to",
                                                                    n=view.get("target", ""))])
