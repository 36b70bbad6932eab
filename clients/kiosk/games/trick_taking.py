"""The trick-taking family on the shared screen (Euchre, Kaiser, Wizard): a strip
with each side's score, the game's captions, the tricks this hand and the status (trump), the
seats round the table with their hands face down, and the trick in the middle, each card
towards its player.

Reads the descriptor's ``trick`` zone (plays of ``{seat, card}``) and ``score_sheet`` zone (tricks
per side), the view's common part, the family's habits (a ``dealer`` seat is marked, the last
of the ``tricks`` stays dimmed until the next is led), and the game's hook for what is its own
(hook.py). It never reads a game id and never draws a hand face up.
"""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games import table
from clients.kiosk.games.hook import Hook
from clients.kiosk.games.public import Play, Public, View, key_or, plays, public, zone_value
from clients.kiosk.model import TableEntry


def can_draw(entry: TableEntry) -> bool:
    return _plays(zone_value(entry, "trick")) is not None


def _plays(value: object) -> list[Play] | None:
    """A trick's plays; a code the shell's deck lacks (Wizard's W1, its Jesters' N1) is still a
    card of the trick, not a view the family cannot read."""
    if isinstance(value, list) and all(isinstance(p, dict) and isinstance(p.get("card"), str)
                                       and len(p["card"]) == 2 for p in value):
        return [(p["seat"] if isinstance(p.get("seat"), int) else None, [p["card"]])
                for p in value]
    return plays(value)


def draw(ctx: Ctx, rect: Rect, entry: TableEntry, hook: Hook) -> None:
    view = entry.view or {}
    pub = public(ctx, entry)
    n = len(pub.hand_counts) or len(entry.seats)
    wide = rect.w >= rect.h * 1.1
    strip = Rect(rect.x, rect.y, rect.w, max(18, round(rect.h * (0.13 if wide else 0.17))))
    _strip(ctx, strip, entry, view, pub, hook)
    area = Rect(rect.x, strip.bottom + 4, rect.w, rect.bottom - strip.bottom - 4)
    table.seats(ctx, area, entry, view, pub, hook, n, fan_max=6)
    # the middle and the line under it stay between the seats above and below it
    free = area.h - 2 * table.seat_box(area, n)[1] - 8
    middle = Rect(0, 0, round(area.w * 0.46), round(min(area.h * 0.5, free * 6 / 7)))
    middle.center = (area.centerx, area.centery - max(14, middle.h // 6) // 2)
    if not (hook.middle and hook.middle(ctx, middle, entry, view)):
        now = _plays(zone_value(entry, "trick")) or []
        done = view.get("tricks")
        if not now and pub.phase == "play" and isinstance(done, list) and done:
            # the last trick stays on the table, dimmed, until the next is led
            last = done[-1].get("plays") if isinstance(done[-1], dict) else None
            table.trick(ctx, middle, _plays(last) or [], n, dim=True)
        else:
            table.trick(ctx, middle, now, n)
    table.under(ctx, middle, pub.last)
    if not (hook.banner and hook.banner(ctx, rect, entry, view)):
        table.result(ctx, rect, entry, pub)


def _strip(ctx: Ctx, box: Rect, entry: TableEntry, view: View, pub: Public, hook: Hook) -> None:
    """The scores and the status: side by side on a wide table, one above the other on a tall
    one."""
    if box.w >= box.h * 7:
        half = box.w // 2
        first = Rect(box.x, box.y, half - 4, box.h)
        second = Rect(box.x + half + 4, box.y, box.w - half - 4, box.h)
        if ctx.tr.rtl:
            first, second = second, first
    else:
        first = Rect(box.x, box.y, box.w, box.h // 2 - 2)
        second = Rect(box.x, first.bottom + 4, box.w, box.bottom - first.bottom - 4)
    # partners share a pill with their score; a seat playing for itself has it on its panel
    n = len(pub.hand_counts) or len(entry.seats)
    goal = table.side_pills(ctx, first, entry, pub, 0.8) if len(pub.sides) < n else first
    lines = hook.goal(ctx, entry, view) if hook.goal else list(pub.captions)
    won = zone_value(entry, "score_sheet")
    # tricks (or points) per side; a sheet of rounds (Wizard's) is its hook's to draw
    per_side = isinstance(won, list) and all(isinstance(x, int) for x in won)
    if per_side and len(won) == len(pub.sides) and pub.phase in ("play", "hand_over"):
        lines.append(f"{key_or(ctx, entry.game + '.tricks')} {'–'.join(map(str, won))}".strip())
    rows = max(1, len(lines))
    for i, line in enumerate(lines[:2]):
        r = Rect(goal.x, goal.y + i * goal.h // min(rows, 2), goal.w, goal.h // min(rows, 2))
        d.label(ctx, line, r, r.h * 4 // 5 if i else r.h * 3 // 4, d.MUTED if i == 0 else d.TEXT,
                align="center", min_scale=0.4)
    if not (hook.status and hook.status(ctx, second, entry, view)):
        d.label(ctx, table.phase_words(ctx, entry, pub.phase), second, round(second.h * 0.42),
                d.MUTED, align="end")
