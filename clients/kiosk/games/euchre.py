"""Euchre on the shared screen: the trick in the middle, trump and who made it, alone, tricks
per side, the score to the target, the bidding, and the hand's result between hands.

Reads the public ``euchre_view``: ``trick``, ``trump``, ``maker``, ``alone``, ``lone_defender``,
``sitting_out``, ``dealer``, ``turned``/``turned_status``, ``bids``, ``tricks_won``, ``score``,
``target``, ``hand_counts``, ``phase`` and ``last_hand``. Seats 0 and 2 are one side, 1 and 3
the other. The spectator view holds no hand, so none is drawn face up.
"""

from __future__ import annotations

from typing import Any

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.seats import around, seat_box
from clients.kiosk.i18n import RED_SUITS, SUIT_SYMBOLS
from clients.kiosk.model import TableEntry

BIDDING = ("round_one", "round_two", "discard", "defend_alone")



def side_name(ctx: Ctx, entry: TableEntry, side: int) -> str:
    return d.seat_names(ctx, entry, [side, side + 2])


def _suit(ctx: Ctx, suit: str | None) -> str:
    return SUIT_SYMBOLS.get(suit or "", "")


def draw(ctx: Ctx, rect: Rect, entry: TableEntry) -> None:
    view = entry.view or {}
    wide = rect.w >= rect.h * 1.1
    strip = Rect(rect.x, rect.y, rect.w, max(18, round(rect.h * (0.13 if wide else 0.17))))
    _strip(ctx, strip, entry, view)
    table = Rect(rect.x, strip.bottom + 4, rect.w, rect.bottom - strip.bottom - 4)
    spots = around(table, 4, seat_box(table, 4))
    acting = set(view.get("to_act") or [])
    counts = list(view.get("hand_counts") or [0, 0, 0, 0])
    bids = _last_bids(view)
    for seat, spot in enumerate(spots):
        _seat(ctx, entry, view, spot, seat, counts[seat] if seat < len(counts) else 0,
              turn=seat in acting, bid=bids.get(seat))
    middle = Rect(0, 0, round(table.w * 0.46), round(table.h * 0.5))
    middle.center = table.center
    phase = view.get("phase")
    if phase in BIDDING or (phase == "deal" and view.get("turned")):
        _turned(ctx, middle, view)
    else:
        _trick(ctx, middle, view)
    if phase == "hand_over" and isinstance(view.get("last_hand"), dict):
        _result(ctx, rect, entry, view["last_hand"])


def _strip(ctx: Ctx, box: Rect, entry: TableEntry, view: dict[str, Any]) -> None:
    """The score and trump: side by side on a wide table, one above the other on a tall one."""
    if box.w >= box.h * 7:
        half = box.w // 2
        first = Rect(box.x, box.y, half - 4, box.h)
        second = Rect(box.x + half + 4, box.y, box.w - half - 4, box.h)
        if ctx.tr.rtl:
            first, second = second, first
        _scores(ctx, first, entry, view)
        _trump(ctx, second, entry, view)
    else:
        top = Rect(box.x, box.y, box.w, box.h // 2 - 2)
        _scores(ctx, top, entry, view)
        _trump(ctx, Rect(box.x, top.bottom + 4, box.w, box.bottom - top.bottom - 4), entry, view)


def _scores(ctx: Ctx, box: Rect, entry: TableEntry, view: dict[str, Any]) -> None:
    """One pill per side in its colour with the score, then the target and tricks this hand."""
    t = ctx.tr
    score = list(view.get("score") or [0, 0])
    won = list(view.get("tricks_won") or [0, 0])
    pill_w = (box.w - 8) * 2 // 5
    for side in (0, 1):
        i = side if not t.rtl else 1 - side
        pill = Rect(box.x + i * (pill_w + 4), box.y, pill_w, box.h)
        if t.rtl:
            pill.x += box.w - 2 * (pill_w + 4)
        d.panel(ctx.surface, pill, d.PANEL, radius=pill.h // 3, border=d.side_color(side),
                width=max(2, pill.h // 16))
        top = Rect(pill.x + pill.h // 4, pill.y + 2, pill.w - pill.h // 2, pill.h * 9 // 20)
        bottom = Rect(top.x, top.bottom, top.w, pill.bottom - top.bottom - 2)
        d.label(ctx, side_name(ctx, entry, side), top, top.h, d.TEXT, align="center")
        d.label(ctx, f"{score[side] if side < len(score) else 0}", bottom, bottom.h, d.GOLD,
                bold=True, align="center")
    goal = Rect(box.x + 2 * (pill_w + 4), box.y, box.w - 2 * (pill_w + 4), box.h)
    if t.rtl:
        goal.x = box.x
    target_top = Rect(goal.x, goal.y, goal.w, goal.h // 2)
    d.label(ctx, t.t("euchre.to", n=view.get("target", "")), target_top, target_top.h * 4 // 5,
            d.MUTED, align="center", min_scale=0.4)
    tricks = Rect(goal.x, target_top.bottom, goal.w, goal.h - target_top.h)
    if view.get("phase") in ("play", "hand_over"):
        d.label(ctx, f"{t.t('euchre.tricks')} {won[0]}–{won[1]}", tricks, tricks.h * 3 // 4,
                d.TEXT, align="center")


def _trump(ctx: Ctx, info: Rect, entry: TableEntry, view: dict[str, Any]) -> None:
    """Trump's suit on a card-white square, who called it and whether alone; or the phase."""
    t = ctx.tr
    trump = view.get("trump")
    if not trump:
        phase = str(view.get("phase") or "")
        d.label(ctx, t.t("euchre.phase." + phase), info, round(info.h * 0.42), d.MUTED,
                align="end")
        return
    sym_box = Rect(0, 0, info.h, info.h)
    if t.rtl:
        sym_box.topleft = info.topleft
        words = Rect(sym_box.right + 6, info.y, info.w - info.h - 6, info.h)
    else:
        sym_box.topright = info.topright
        words = Rect(info.x, info.y, info.w - info.h - 6, info.h)
    d.panel(ctx.surface, sym_box, d.CARD_FACE, radius=info.h // 5)
    d.label(ctx, _suit(ctx, trump), sym_box.inflate(-4, -4), round(info.h * 0.8),
            d.CARD_RED if trump in RED_SUITS else d.CARD_BLACK, align="center")
    line1 = Rect(words.x, words.y, words.w, words.h // 2)
    line2 = Rect(words.x, line1.bottom, words.w, words.h - line1.h)
    d.label(ctx, t.t("euchre.trump"), line1, line1.h * 4 // 5, d.MUTED, align="end")
    maker = view.get("maker")
    if isinstance(maker, int):
        text = t.t("euchre.called_by", name=d.seat_name(ctx, entry, maker))
        if view.get("alone"):
            text += f" · {t.t('euchre.alone')}"
        d.label(ctx, text, line2, line2.h * 4 // 5, d.GOLD, bold=True, align="end")


def _last_bids(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    if view.get("phase") not in BIDDING:
        return out
    for bid in view.get("bids") or []:
        if isinstance(bid, dict):
            out[int(bid["seat"])] = bid
    return out


def _bid_text(ctx: Ctx, bid: dict[str, Any]) -> str:
    t = ctx.tr
    call = str(bid.get("call"))
    if call == "name":
        text = t.t("euchre.bid_word.name", suit=_suit(ctx, bid.get("suit")))
    else:
        text = t.t("euchre.bid_word." + call)
    if bid.get("alone"):
        text += f" · {t.t('euchre.alone')}"
    return text


def _seat(ctx: Ctx, entry: TableEntry, view: dict[str, Any], spot: Rect, seat: int, count: int,
          *, turn: bool, bid: dict[str, Any] | None) -> None:
    t = ctx.tr
    s = ctx.surface
    out = seat in (view.get("sitting_out") or [])
    d.panel(s, spot, d.PANEL, radius=spot.h // 8, border=d.GOLD if turn else d.side_color(seat % 2),
            width=max(2, spot.h // 22))
    pad = max(3, spot.h // 12)
    inner = spot.inflate(-2 * pad, -2 * pad)
    name_h = round(inner.h * 0.3)
    name_row = Rect(inner.x, inner.y, inner.w, name_h)
    badges: list[tuple[str, d.Color]] = []
    if view.get("dealer") == seat:
        badges.append((t.t("euchre.dealer"), d.MUTED))
    if view.get("maker") == seat:
        badges.append((t.t("euchre.maker") + (f" · {t.t('euchre.alone')}" if view.get("alone")
                                               else ""), d.GOLD))
    if view.get("lone_defender") == seat:
        badges.append((t.t("euchre.alone"), d.GOLD))
    d.label(ctx, d.seat_name(ctx, entry, seat), name_row, round(name_h * 0.9), d.TEXT, bold=True)
    badge_row = Rect(inner.x, name_row.bottom, inner.w, round(inner.h * 0.22))
    if badges:
        d.label(ctx, "  ·  ".join(b for b, _ in badges), badge_row, round(badge_row.h * 0.9),
                badges[-1][1])
    cards = Rect(inner.x, badge_row.bottom + pad // 2, inner.w, inner.bottom - badge_row.bottom - pad // 2)
    if out:
        d.label(ctx, t.t("euchre.sitting_out"), cards, round(cards.h * 0.4), d.MUTED,
                align="center")
    else:
        d.draw_fan(ctx, cards, count, max_cards=6)
    if bid is not None:
        tag = Rect(0, 0, round(spot.w * 0.7), round(spot.h * 0.26))
        tag.midbottom = (spot.centerx, spot.bottom - pad // 2)
        gold = bid.get("call") != "pass"
        d.panel(s, tag, d.FELT_DARK, radius=tag.h // 2, border=d.GOLD if gold else d.MUTED,
                width=max(1, tag.h // 12))
        d.label(ctx, _bid_text(ctx, bid), tag.inflate(-tag.h // 2, -2), round(tag.h * 0.7),
                d.GOLD if gold else d.MUTED, align="center", bold=gold)


# offsets of each seat's card from the middle, in card widths/heights: bottom, left, top, right
_TRICK_OFFSETS = ((0.0, 0.55), (-0.95, 0.0), (0.0, -0.55), (0.95, 0.0))


def _trick(ctx: Ctx, area: Rect, view: dict[str, Any]) -> None:
    plays = [p for p in view.get("trick") or [] if isinstance(p, dict)]
    if not plays:
        done = [x for x in view.get("tricks") or [] if isinstance(x, dict)]
        if view.get("phase") == "play" and done:
            plays = [p for p in done[-1].get("plays") or [] if isinstance(p, dict)]
            dim = True
        else:
            return
    else:
        dim = False
    ch = round(min(area.h * 0.5, area.w / 3.2 / 0.7))
    cw = round(ch * 0.7)
    for i, play in enumerate(plays):
        seat = int(play["seat"]) % 4
        ox, oy = _TRICK_OFFSETS[seat]
        r = Rect(0, 0, cw, ch)
        r.center = (round(area.centerx + ox * cw * 1.05), round(area.centery + oy * ch * 0.95))
        d.draw_card(ctx, r, str(play["card"]), glow=not dim and i == len(plays) - 1, dim=dim)


def _turned(ctx: Ctx, area: Rect, view: dict[str, Any]) -> None:
    t = ctx.tr
    card = view.get("turned")
    if not isinstance(card, str):
        return
    ch = round(area.h * 0.62)
    r = Rect(0, 0, round(ch * 0.7), ch)
    r.center = (area.centerx, area.centery - area.h // 12)
    status = view.get("turned_status")
    d.draw_card(ctx, r, card, dim=status in ("turned_down", "set_aside"),
                glow=status == "up")
    words = Rect(area.x, r.bottom + 4, area.w, max(12, area.h // 7))
    key = "euchre.turned_down" if status in ("turned_down", "set_aside") else "euchre.turned_up"
    d.label(ctx, t.t(key), words, round(words.h * 0.8), d.MUTED, align="center")


def _result(ctx: Ctx, rect: Rect, entry: TableEntry, last: dict[str, Any]) -> None:
    t = ctx.tr
    points = list(last.get("points") or [0, 0])
    side = 0 if points and points[0] >= (points[1] if len(points) > 1 else 0) else 1
    # The engine's result key (euchre.result.made) as the kiosk's one-line form with the side
    # and the points (euchre.result_line.made); the web page shows the short form.
    result = str(last.get("result")).replace("euchre.result.", "euchre.result_line.", 1)
    text = t.t(result, side=side_name(ctx, entry, side), points=max(points or [0]))
    lines = [text]
    trump = last.get("trump")
    maker = last.get("maker")
    if trump and isinstance(maker, int):
        lines.append(f"{t.t('euchre.trump')} {_suit(ctx, trump)}  ·  "
                     + t.t("euchre.called_by", name=d.seat_name(ctx, entry, maker)))
    tricks = list(last.get("tricks") or [0, 0])
    score = list(last.get("score") or [0, 0])
    lines.append(f"{t.t('euchre.tricks')} {tricks[0]}–{tricks[1]}   ·   "
                 f"{t.t('kiosk.score')} {score[0]}–{score[1]}")
    d.banner(ctx, rect, t.t("euchre.hand_over", n=last.get("hand", "")), lines)
