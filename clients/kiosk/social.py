"""The kiosk's social part: the recent public log lines and the score sheet under the game
where the tile has room, and a reaction's label beside
its seat in the seat list.

Owns only drawing, from what the model keeps of the box's public ``history`` answer and of
``notice.reaction`` (clients/kiosk/model.py). It draws the spectator's account only, so it can
never show a hidden card, and it never sends anything.
"""

from __future__ import annotations

from pygame import Rect

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.games.public import caption, is_card
from clients.kiosk.model import TableEntry
from hostd.protocol.messages import Text

# The band is carved out of the game area only when the game keeps at least this much.
MIN_GAME_H = 420
BAND_SHARE = 0.24  # of the game area's height
LOG_SHARE = 0.58  # of the band's width, for the log; the rest is the score sheet
MAX_ROWS = 4  # score-sheet rows shown: the latest ones


def band(game: Rect, pad: int) -> tuple[Rect, Rect | None]:
    """The game's rectangle and the social band under it (None when there is no room)."""
    h = round(game.h * BAND_SHARE)
    if game.h - h - pad < MIN_GAME_H or game.w < 400:
        return game, None
    rest = Rect(game.x, game.y, game.w, game.h - h - pad)
    return rest, Rect(game.x, rest.bottom + pad, game.w, h)


def boxes(area: Rect, pad: int, rtl: bool) -> tuple[Rect, Rect]:
    """The log's box and the score sheet's box inside the band (the log where reading starts)."""
    log_w = round(area.w * LOG_SHARE)
    log = Rect(area.x, area.y, log_w, area.h)
    sheet = Rect(log.right + pad, area.y, area.w - log_w - pad, area.h)
    if rtl:
        sheet.x, log.x = area.x, area.right - log_w
    return log, sheet


def line(ctx: Ctx, entry: TableEntry, text: Text) -> str:
    """A log entry in words: the game's caption, or the shell's line for a captionless game."""
    args = dict(text.args)
    t = ctx.tr
    if isinstance(args.get("cards"), str):
        args["cards"] = t.join_names([t.card(c) for c in str(args["cards"]).split() if is_card(c)])
    if isinstance(args.get("action"), str):
        inner = caption(ctx, entry, {"key": args["action"], "args": [
            [k, v] for k, v in text.args.items() if k not in ("action", "cards")]})
        args["action"] = inner
    pairs: list[list[object]] = [[k, v] for k, v in args.items()]
    return caption(ctx, entry, {"key": text.key, "args": pairs})


def draw_band(ctx: Ctx, entry: TableEntry, area: Rect, pad: int) -> None:
    log_box, sheet_box = boxes(area, pad, ctx.tr.rtl)
    _log(ctx, entry, log_box, pad)
    _sheet(ctx, entry, sheet_box, pad)


def _panel(ctx: Ctx, box: Rect, title: str, pad: int) -> tuple[Rect, int]:
    """A panel with its title; the rectangle left for its lines, and the line height."""
    d.panel(ctx.surface, box, d.PANEL, radius=max(4, pad))
    inner = box.inflate(-2 * pad, -pad)
    line_h = max(16, min(inner.h // 5, 34))
    head = Rect(inner.x, inner.y, inner.w, line_h)
    d.label(ctx, title, head, round(line_h * 0.8), d.GOLD, bold=True)
    return Rect(inner.x, head.bottom, inner.w, inner.bottom - head.bottom), line_h


def _log(ctx: Ctx, entry: TableEntry, box: Rect, pad: int) -> None:
    body, line_h = _panel(ctx, box, ctx.tr.t("kiosk.log"), pad)
    fit = max(1, body.h // line_h)
    shown = entry.log[-fit:]
    if not shown:
        d.label(ctx, ctx.tr.t("social.empty_log"), Rect(body.x, body.y, body.w, line_h),
                round(line_h * 0.7), d.MUTED)
    for i, e in enumerate(shown):
        newest = i == len(shown) - 1
        d.label(ctx, line(ctx, entry, e.text), Rect(body.x, body.y + i * line_h, body.w, line_h),
                round(line_h * 0.7), d.TEXT if newest else d.MUTED, bold=newest)


def _sheet(ctx: Ctx, entry: TableEntry, box: Rect, pad: int) -> None:
    body, line_h = _panel(ctx, box, ctx.tr.t("kiosk.scores"), pad)
    if not entry.rows:
        d.label(ctx, ctx.tr.t("social.empty_scores"), Rect(body.x, body.y, body.w, line_h),
                round(line_h * 0.7), d.MUTED)
        return
    sides = len(entry.rows[0].scores)
    first_w = max(line_h * 2, body.w // (sides + 3))
    col_w = (body.w - first_w) // max(1, sides)

    def cells(y: int, first: str, values: list[str], color: d.Color, bold: bool) -> None:
        row = [Rect(body.x, y, first_w, line_h)] + [
            Rect(body.x + first_w + i * col_w, y, col_w - pad // 2, line_h) for i in range(sides)]
        if ctx.tr.rtl:  # the hand number where reading starts
            row = [Rect(body.right - (r.right - body.x), r.y, r.w, r.h) for r in row]
        d.label(ctx, first, row[0], round(line_h * 0.7), d.MUTED)
        for r, v in zip(row[1:], values, strict=True):
            d.label(ctx, v, r, round(line_h * 0.7), color, bold=bold, align="end", ltr=True)

    names = []
    for side in range(sides):
        seats = [s for s, team in enumerate(entry.teams) if team == side]
        names.append(d.seat_names(ctx, entry, seats) if seats else str(side + 1))
    cells(body.y, ctx.tr.t("social.hand"), names, d.TEXT, False)
    fit = max(1, min(MAX_ROWS, body.h // line_h - 1))
    first_shown = max(0, len(entry.rows) - fit)
    over = entry.outcome is not None
    for i, r in enumerate(entry.rows[first_shown:]):
        n = first_shown + i
        last = n == len(entry.rows) - 1
        label = ctx.tr.t("social.final") if over and last else str(n + 1)
        cells(body.y + (i + 1) * line_h, label, [str(x) for x in r.scores],
              d.GOLD if last else d.TEXT, last)


def reaction_label(ctx: Ctx, emote: str) -> str:
    """What the screen shows for a reaction: a star and its catalogue label (the kiosk's
    fonts have no emoji)."""
    return f"★ {ctx.tr.t(f'emote.{emote}')}"


def reactions(entry: TableEntry, now: float) -> dict[int, str]:
    """The reactions on show now, by seat."""
    return {seat: emote for seat, (emote, until) in entry.reactions.items() if until > now}
