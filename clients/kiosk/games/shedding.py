"""The shedding family on the shared screen (President; Crazy Eights and Golf can follow): a line
of the game's captions, the seats round the table with every hand's size, and the pile in the
middle (the play to beat in front, the trick's earlier plays behind it, who played it).

Reads the descriptor's ``trick`` zone (plays of ``{seat, cards}``) or else its first ``piles``
zone holding cards, the view's common part, and the game's hook (titles, places, the results
between rounds). It never reads a game id and never draws a hand face up.
"""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Hook
from clients.kiosk.games.public import Play, key_or, plays, public, zones
from clients.kiosk.model import TableEntry


def pile_of(entry: TableEntry) -> list[Play] | None:
    """The trick zone's plays, else the first pile of cards; None when there is neither."""
    view = entry.view or {}
    for z in zones(entry, "trick", "piles"):
        found = plays(view.get(z.get("field", ""))) if z.get("field") in view else None
        if found is not None:
            return found
    return None


def can_draw(entry: TableEntry) -> bool:
    return pile_of(entry) is not None


def draw(ctx: Ctx, rect: Rect, entry: TableEntry, hook: Hook) -> None:
    view = entry.view or {}
    pub = public(ctx, entry)
    n = len(pub.hand_counts) or len(entry.seats)
    if n == 0:
        return
    top = Rect(rect.x, rect.y, rect.w, max(16, round(rect.h * 0.075)))
    if not (hook.top and hook.top(ctx, top, entry, view)):
        words = "  ·  ".join(pub.captions) or table.phase_words(ctx, entry, pub.phase)
        d.label(ctx, words, top, round(top.h * 0.8), d.TEXT)
    area = Rect(rect.x, top.bottom + 2, rect.w, rect.bottom - top.bottom - 2)
    table.seats(ctx, area, entry, view, pub, hook, n, fan_max=10)
    middle = Rect(0, 0, round(area.w * 0.5), round(area.h * 0.42))
    middle.center = area.center
    if not (hook.middle and hook.middle(ctx, middle, entry, view)):
        played = pile_of(entry) or []
        if played:
            table.pile(ctx, middle, entry, played)
        elif pub.phase == "play":
            d.label(ctx, key_or(ctx, f"{entry.game}.pile_empty"),
                    middle.inflate(-middle.w // 10, -middle.h // 3), round(middle.h * 0.12),
                    d.MUTED, align="center")
    played = pile_of(entry) or []
    if not played or played[-1][0] is None:  # a pile that names its player says it already
        table.under(ctx, middle, pub.last)
    if not (hook.banner and hook.banner(ctx, rect, entry, view)):
        table.result(ctx, rect, entry, pub)
