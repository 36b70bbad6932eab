"""The frame around every game: the whole screen, each table's tile, and what is not the game.

A tile shows the table's name, whose turn it is and the turn timer (header); the join QR
code, the code in big letters and the link (side panel); every seat with its side colour, who
plays it (a person, an AI and its level, the AI covering for someone who dropped) and who is
disconnected; the game itself (drawn by the game's renderer); and the final outcome over it.
The screen shows one tile per table on screen, a waiting page when there is no table, and a
"reconnecting" veil over the last picture while the daemon is away.

Draws only what ``Model`` holds, which is only what a spectator was sent.
"""

from __future__ import annotations

from typing import Any

import pygame
from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk import social
from clients.kiosk.draw import Ctx
from clients.kiosk.games import renderer_for
from clients.kiosk.layout import TileLayout, capacity, tile_layout, tiles
from clients.kiosk.model import Model, TableEntry
from clients.kiosk.qr import qr_surface


def clock(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def _seat(entry: TableEntry, seat: int) -> Any:
    for s in entry.seats:
        if s.seat == seat:
            return s
    return None


# -- the whole screen --------------------------------------------------------------------------
def draw_screen(ctx: Ctx, model: Model) -> list[TableEntry]:
    """Draw one frame of everything; return the tables drawn."""
    surf = ctx.surface
    surf.fill(d.FELT_DARK)
    screen = surf.get_rect()
    shown = model.select(capacity(screen.size), ctx.now)
    if not shown:
        _waiting(ctx, model, screen)
    else:
        gap = max(2, min(screen.size) // 160) if len(shown) > 1 else 0
        fresh = model.freshest(ctx.now) if len(shown) > 1 else None
        for entry, rect in zip(shown, tiles(len(shown), screen), strict=True):
            tile = rect.inflate(-gap, -gap)
            draw_tile(ctx, model, entry, tile, fresh=entry.id == fresh)
    if model.link != "up" and (shown or model.link == "down"):
        _veil(ctx, model, screen)
    return shown


def _waiting(ctx: Ctx, model: Model, screen: Rect) -> None:
    t = ctx.tr
    unit = min(screen.w, screen.h * 1.6)
    title = Rect(screen.x, screen.y + screen.h * 0.28, screen.w, round(unit * 0.09))
    d.label(ctx, model.box or "tablebox", title.inflate(-screen.w // 10, 0), round(unit * 0.075),
            d.GOLD, bold=True, align="center")
    key = "kiosk.connecting" if model.link == "connecting" else (
        "kiosk.reconnecting" if model.link == "down" else "kiosk.waiting")
    line = Rect(screen.x, title.bottom + unit * 0.04, screen.w, round(unit * 0.06))
    d.label(ctx, t.t(key, host=model.host), line.inflate(-screen.w // 10, 0), round(unit * 0.045),
            d.TEXT, align="center")
    if model.link == "up":
        hint = Rect(screen.x, line.bottom + unit * 0.03, screen.w, round(unit * 0.045))
        d.label(ctx, t.t("kiosk.waiting_hint"), hint.inflate(-screen.w // 10, 0),
                round(unit * 0.028), d.MUTED, align="center")
    _dots(ctx, Rect(screen.centerx - unit * 0.06, line.bottom + unit * 0.12, unit * 0.12,
                    unit * 0.03))


def _dots(ctx: Ctx, rect: Rect) -> None:
    phase = int(ctx.now * 2.5) % 3
    r = max(2, rect.h // 3)
    for i in range(3):
        c = d.GOLD if i == phase else d.LINE
        pygame.draw.circle(ctx.surface, c, (rect.x + rect.w * (2 * i + 1) // 6, rect.centery), r)


def _veil(ctx: Ctx, model: Model, screen: Rect) -> None:
    shade = pygame.Surface(screen.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 150))
    ctx.surface.blit(shade, screen.topleft)
    key = "kiosk.reconnecting" if model.link == "down" else "kiosk.connecting"
    unit = min(screen.w, screen.h * 1.6)
    box = Rect(0, 0, round(screen.w * 0.7), round(unit * 0.16))
    box.center = screen.center
    d.panel(ctx.surface, box, d.PANEL, border=d.GOLD, width=max(2, box.h // 30))
    d.label(ctx, ctx.tr.t(key, host=model.host), box.inflate(-box.h // 2, -box.h // 2),
            round(box.h * 0.32), d.TEXT, bold=True, align="center")
    _dots(ctx, Rect(box.centerx - box.h // 2, box.bottom - box.h // 4, box.h, box.h // 8))


# -- one table ---------------------------------------------------------------------------------
def draw_tile(ctx: Ctx, model: Model, entry: TableEntry, tile: Rect, *, fresh: bool = False) -> None:
    s = ctx.surface
    pygame.draw.rect(s, d.FELT, tile, border_radius=max(4, min(tile.size) // 60))
    if fresh:
        pygame.draw.rect(s, d.GOLD, tile, width=max(2, min(tile.size) // 200),
                         border_radius=max(4, min(tile.size) // 60))
    lay = tile_layout(tile, ctx.tr.rtl)
    _header(ctx, entry, lay)
    _side(ctx, model, entry, lay)
    game, band = social.band(lay.game, lay.pad)
    view = entry.view
    if band is not None and view is not None:
        social.draw_band(ctx, entry, band, lay.pad)
    if view is not None:
        previous_clip = s.get_clip()
        s.set_clip(game)
        try:
            renderer_for(entry)(ctx, game, entry)
        finally:
            s.set_clip(previous_clip)
    if entry.outcome is not None and outcome_showing(entry, ctx.now):
        _outcome(ctx, entry, game)


# The final result covers the game when it ends, then steps aside now and then so the last
# position (the completed sequences, the last trick) can be seen too.
OUTCOME_FIRST = 12.0
OUTCOME_ON, OUTCOME_OFF = 8.0, 5.0


def outcome_showing(entry: TableEntry, now: float) -> bool:
    since = now - entry.moved_at
    if since < OUTCOME_FIRST:
        return True
    return (since - OUTCOME_FIRST) % (OUTCOME_ON + OUTCOME_OFF) >= OUTCOME_OFF


def titles(ctx: Ctx, entry: TableEntry) -> tuple[str, str]:
    """The table's name and its game's, in the screen's language: the game's name is its
    catalogue's (``<game>.name``), and a table left with its default name (the box's English
    title of the game) reads as that translated name too; a name people chose is kept."""
    key = f"{entry.game}.name"
    title = ctx.tr.t(key) if entry.game and ctx.tr.has(key) else entry.title or entry.game
    name = entry.name or title
    return (title if name == entry.title else name), title


def _header(ctx: Ctx, entry: TableEntry, lay: TileLayout) -> None:
    h = lay.header
    t = ctx.tr
    d.panel(ctx.surface, h, d.PANEL, radius=h.h // 4)
    inner = h.inflate(-lay.pad * 2, -lay.pad // 2)
    name, title = titles(ctx, entry)
    status, color = _status(ctx, entry)
    status_px = round(inner.h * 0.48)
    # the turn and the timer matter most: they get the room they need, up to two thirds
    need = ctx.text.size(status, status_px, bold=True)[0] if status else 0
    left_w = max(round(inner.w * 0.34), inner.w - lay.pad - min(need, round(inner.w * 0.66)))
    if ctx.tr.rtl:
        name_box = Rect(inner.right - left_w, inner.y, left_w, inner.h)
        status_box = Rect(inner.x, inner.y, inner.w - left_w - lay.pad, inner.h)
    else:
        name_box = Rect(inner.x, inner.y, left_w, inner.h)
        status_box = Rect(name_box.right + lay.pad, inner.y, inner.w - left_w - lay.pad, inner.h)
    top = Rect(name_box.x, name_box.y, name_box.w, round(name_box.h * 0.62))
    bottom = Rect(name_box.x, top.bottom, name_box.w, name_box.bottom - top.bottom)
    d.label(ctx, name, top, round(top.h * 0.8), d.TEXT, bold=True)
    if title and title != name:
        d.label(ctx, title, bottom, round(bottom.h * 0.85), d.MUTED)
    elif entry.code:
        d.label(ctx, f"{t.t('kiosk.code')} {entry.code}", bottom, round(bottom.h * 0.85), d.MUTED)
    d.label(ctx, status, status_box, status_px, color, bold=True, align="end")


def _status(ctx: Ctx, entry: TableEntry) -> tuple[str, d.Color]:
    t = ctx.tr
    if entry.outcome is not None or entry.status == "finished":
        return t.t("kiosk.game_over"), d.GOLD
    if entry.status == "closed":
        return t.t("kiosk.closed"), d.MUTED
    if entry.state is not None and entry.state.paused:  # its people are all away
        return t.t("kiosk.paused"), d.MUTED
    acting = entry.to_act
    if not acting:
        return "", d.TEXT
    names = [d.seat_name(ctx, entry, s) for s in acting]
    text = (t.t("kiosk.to_play", name=names[0]) if len(names) == 1
            else t.t("kiosk.to_play_many", names=t.join_names(names)))
    left = entry.seconds_left(ctx.now)
    if left is not None:
        text += "  ·  " + clock(left)
        return text, (d.ALERT if left <= 10 else d.GOLD)
    return text, d.GOLD


def _side(ctx: Ctx, model: Model, entry: TableEntry, lay: TileLayout) -> None:
    s = ctx.surface
    t = ctx.tr
    d.panel(s, lay.side, d.PANEL, radius=max(4, lay.pad))
    # no link to offer while the box is away: a phone could not join anyway
    url = model.join_url(entry) if model.link == "up" else None
    if url is not None and model.wifi and lay.qr.w >= 80:
        _two_steps(ctx, model.wifi, url, lay.qr, lay.pad)
    elif url is not None and lay.qr.w >= 40:
        img = qr_surface(url, lay.qr.w)
        r = img.get_rect(center=lay.qr.center)
        s.blit(img, r)
    elif entry.code:
        d.label(ctx, entry.code, lay.qr.inflate(-lay.pad, -lay.qr.h // 3), lay.qr.h // 3,
                d.GOLD, bold=True, align="center")
    b = lay.below_qr
    scan = Rect(b.x, b.y, b.w, round(b.h * 0.34))
    code = Rect(b.x, scan.bottom, b.w, round(b.h * 0.46))
    link = Rect(b.x, code.bottom, b.w, b.bottom - code.bottom)
    if url is not None:
        d.label(ctx, t.t("kiosk.scan_to_join"), scan, round(scan.h * 0.85), d.MUTED,
                align="center")
    if entry.code:
        d.label(ctx, f"{t.t('kiosk.code')}  {entry.code}", code, round(code.h * 0.9), d.GOLD,
                bold=True, align="center")
    if url is not None:
        shown = url.split("://", 1)[-1]
        d.label(ctx, shown, link, round(link.h * 0.8), d.MUTED, align="center", ltr=True)
    _seats(ctx, entry, lay.seats, lay.pad)


def _two_steps(ctx: Ctx, wifi: str, url: str, area: Rect, pad: int) -> None:
    """On the box's own Wi-Fi a phone needs two codes: the network first, then the table.
    Both side by side in the QR square, step 1 where reading starts (the right in RTL)."""
    t = ctx.tr
    half = (area.w - pad) // 2
    cap_h = max(12, half // 7)
    side = min(half, area.h - cap_h)
    top = area.centery - (side + cap_h) // 2
    boxes = [Rect(area.x, top, half, side), Rect(area.right - half, top, half, side)]
    if t.rtl:
        boxes.reverse()
    for box, text, key in zip(boxes, (wifi, url), ("kiosk.step_wifi", "kiosk.step_table"),
                              strict=True):
        img = qr_surface(text, side)
        ctx.surface.blit(img, img.get_rect(center=box.center))
        d.label(ctx, t.t(key), Rect(box.x, box.bottom, box.w, cap_h), round(cap_h * 0.85),
                d.GOLD, bold=True, align="center")


def _seats(ctx: Ctx, entry: TableEntry, area: Rect, pad: int) -> None:
    seats = sorted(entry.seats, key=lambda x: x.seat)
    if not seats or area.h <= 8:
        return
    t = ctx.tr
    row_h = min(area.h // len(seats), max(22, area.w // 5))
    gap = max(2, row_h // 10)
    acting = set(entry.to_act)
    left = entry.seconds_left(ctx.now)
    shown = social.reactions(entry, ctx.now)
    for i, seat in enumerate(seats):
        row = Rect(area.x, area.y + i * row_h, area.w, row_h - gap)
        turn = seat.seat in acting
        if turn:
            d.panel(ctx.surface, row, d.FELT, radius=row.h // 4, border=d.GOLD,
                    width=max(1, row.h // 14))
        dot_r = max(3, row.h // 6)
        inner = row.inflate(-pad, 0)
        if t.rtl:
            dot = (inner.right - dot_r, row.centery)
            text_box = Rect(inner.x, row.y, inner.w - 3 * dot_r, row.h)
        else:
            dot = (inner.x + dot_r, row.centery)
            text_box = Rect(inner.x + 3 * dot_r, row.y, inner.w - 3 * dot_r, row.h)
        d.draw_chip(ctx.surface, dot, dot_r, d.side_color(seat.team, entry))
        name_w = round(text_box.w * 0.54)
        if t.rtl:
            name_box = Rect(text_box.right - name_w, row.y, name_w, row.h)
            tag_box = Rect(text_box.x, row.y, text_box.w - name_w - pad // 2, row.h)
        else:
            name_box = Rect(text_box.x, row.y, name_w, row.h)
            tag_box = Rect(name_box.right + pad // 2, row.y, text_box.w - name_w - pad // 2,
                           row.h)
        name = d.seat_name(ctx, entry, seat.seat)
        d.label(ctx, name, name_box, round(row.h * 0.48), d.TEXT, bold=turn)
        tag, color = _seat_tag(ctx, seat)
        if turn and left is not None:
            tag, color = clock(left), (d.ALERT if left <= 10 else d.GOLD)
        if seat.seat in shown:  # a reaction outranks the tag for its few seconds
            tag, color = social.reaction_label(ctx, shown[seat.seat]), d.GOLD
        d.label(ctx, tag, tag_box, round(row.h * 0.4), color, align="end", bold=seat.seat in shown)


def _seat_tag(ctx: Ctx, seat: Any) -> tuple[str, d.Color]:
    t = ctx.tr
    level = t.t("level." + seat.level) if seat.level else ""
    if seat.controller == "ai" and not seat.covered:
        return (t.t("kiosk.ai_level", level=level) if level else t.t("kiosk.ai")), d.MUTED
    if seat.covered:
        return t.t("kiosk.covering", level=level), d.GOLD
    if not seat.connected:
        return t.t("kiosk.disconnected"), d.ALERT
    return "", d.TEXT


def _outcome(ctx: Ctx, entry: TableEntry, area: Rect) -> None:
    t = ctx.tr
    o = entry.outcome or {}
    view = entry.view or {}
    winners = [w for w in o.get("winners", []) if isinstance(w, int)]
    scores = o.get("scores", [])
    lines: list[str] = []
    if o.get("draw") or not winners:
        lines.append(t.t("kiosk.draw"))
    else:
        names = d.seat_names(ctx, entry, winners)
        key = "kiosk.winners" if len(winners) > 1 else "kiosk.winner"
        lines.append(t.t(key, names=names))
    reason = o.get("reason")
    if isinstance(reason, str) and reason:
        lines.append(t.t(reason, {k: v for k, v in view.items() if isinstance(v, (int, str))}))
    lines.append(_scores_line(ctx, entry, scores))
    d.banner(ctx, area, t.t("kiosk.game_over"), [x for x in lines if x])


def _scores_line(ctx: Ctx, entry: TableEntry, scores: list[Any]) -> str:
    """Scores by side: seats of one team with one score are shown once, as "Ana & Cy: 10"."""
    if not scores:
        return ""
    teams: dict[int, list[int]] = {}
    for s in sorted(entry.seats, key=lambda x: x.seat):
        teams.setdefault(s.team, []).append(s.seat)
    if not teams:
        teams = {i: [i] for i in range(len(scores))}
    parts = []
    for members in teams.values():
        values = {scores[m] for m in members if m < len(scores)}
        if len(values) == 1:
            parts.append(f"{d.seat_names(ctx, entry, members)}: {values.pop()}")
        else:
            parts += [f"{d.seat_name(ctx, entry, m)}: {scores[m]}" for m in members
                      if m < len(scores)]
    return "  ·  ".join(parts)
