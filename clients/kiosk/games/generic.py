"""The picture of a game the kiosk has no renderer for: what any view has in common.

It says the screen cannot draw the game yet, shows the game's captions and last move from the
common part, and lists the view's simple public fields (scores, phase, counts) so the table is
still followable. It reads only the view and the common part it is given.
"""

from __future__ import annotations

from typing import Any

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.public import public
from clients.kiosk.model import TableEntry

MAX_ROWS = 12


def _show(value: Any) -> str | None:
    if isinstance(value, bool):
        return "✓" if value else "–"
    if isinstance(value, (int, str)):
        return str(value)
    if isinstance(value, list) and len(value) <= 12:
        if all(isinstance(v, (int, str)) for v in value):
            return "  ".join(map(str, value))
        # One list per seat (cards played, scores by hand): each seat's part, separated.
        parts = [_show(v) if isinstance(v, list) else None for v in value]
        if all(p is not None for p in parts):
            return "  |  ".join(p or "–" for p in parts)
    return None


def draw(ctx: Ctx, rect: Rect, entry: TableEntry) -> None:
    view = entry.view or {}
    t = ctx.tr
    head = Rect(rect.x, rect.y, rect.w, max(18, rect.h // 9))
    d.label(ctx, t.t("kiosk.unknown_game", game=entry.title or entry.game), head,
            round(head.h * 0.6), d.MUTED, align="center")
    # the game's own status lines and last move, from the common part the host sends
    pub = public(ctx, entry)
    status = "  ·  ".join(x for x in (*pub.captions, pub.last) if x)
    if status:
        line = Rect(rect.x, head.bottom, rect.w, head.h)
        d.label(ctx, status, line.inflate(-rect.w // 16, 0), round(line.h * 0.55), d.GOLD,
                align="center")
        head = head.union(line)
    rows = [(k, v) for k, v in view.items() if k not in ("type", "seat")]
    shown = [(k, s) for k, v in rows if (s := _show(v)) is not None][:MAX_ROWS]
    if not shown:
        return
    body = Rect(rect.x + rect.w // 8, head.bottom, rect.w * 3 // 4, rect.bottom - head.bottom)
    row_h = min(body.h // len(shown), max(16, rect.h // 12))
    for i, (key, value) in enumerate(shown):
        y = body.y + i * row_h
        half = body.w // 2
        k_box = Rect(body.x, y, half - 4, row_h)
        v_box = Rect(body.x + half + 4, y, half - 4, row_h)
        if t.rtl:
            k_box, v_box = v_box, k_box
        d.label(ctx, key.replace("_", " "), k_box, round(row_h * 0.55), d.MUTED, align="end")
        d.label(ctx, value, v_box, round(row_h * 0.55), d.TEXT, align="start")
