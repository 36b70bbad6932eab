"""What every game's view shares, as the family renderers read it: who acts, hand sizes, sides,
scores, the phase, the captions, each seat's note and badges and the result between hands in
words, and the cards a zone holds.

Owns reading the ``Common`` part the host sends beside each view (engine/presentation.py) and
the descriptor's zones. When a message carries no common part (an older box), the same-named
fields of the public view stand in. It must never read a game id or anything beyond the
spectator's view: it only reshapes what the screen was sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from clients.kiosk import draw as d
from clients.kiosk.draw import Ctx
from clients.kiosk.i18n import SUIT_SYMBOLS
from clients.kiosk.model import TableEntry

View = dict[str, Any]
Play = tuple[int | None, list[str]]  # who played (None: nobody in particular) and the cards


@dataclass(frozen=True)
class Public:
    to_act: tuple[int, ...]
    hand_counts: tuple[int, ...]
    sides: dict[int, list[int]]  # side -> its seats, sides in order
    scores: tuple[int, ...]  # by side
    phase: str
    captions: tuple[str, ...]  # the game's status lines, translated
    last: str  # the last action in words, "" before the first
    last_card: str | None = None  # the card the last action names, when it names one
    notes: tuple[str | None, ...] = ()  # by seat: a line at its feet (a bid, "passed")
    badges: tuple[tuple[str, ...], ...] = ()  # by seat: words beside its name (dealer, a title)
    result: tuple[str, ...] = ()  # between hands: a heading, then its lines

    def side_of(self, seat: int) -> int:
        return next((side for side, seats in self.sides.items() if seat in seats), seat)

    def score(self, side: int) -> int | None:
        return self.scores[side] if 0 <= side < len(self.scores) else None


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(v for v in value if isinstance(v, int) and not isinstance(v, bool))


def public(ctx: Ctx, entry: TableEntry) -> Public:
    view = entry.view or {}
    common = entry.common or {}
    seats = entry.seats
    n = len(_ints(common.get("hand_counts")) or _ints(view.get("hand_counts"))) or len(seats)
    teams = _ints(common.get("teams")) or tuple(s.team for s in sorted(seats, key=lambda s: s.seat))
    sides: dict[int, list[int]] = {}
    for seat, side in enumerate(teams or range(n)):
        sides.setdefault(side, []).append(seat)
    scores = _ints(common.get("scores")) if "scores" in common else (
        _ints(view.get("score")) or _ints(view.get("scores")) or _ints(view.get("totals")))
    last = common.get("last")

    def words(caps: Any) -> tuple[str, ...]:
        return tuple(caption(ctx, entry, c) for c in caps if isinstance(c, dict)) if isinstance(
            caps, list) else ()
    return Public(
        to_act=_ints(common.get("to_act")) or tuple(entry.to_act),
        hand_counts=_ints(common.get("hand_counts")) or _ints(view.get("hand_counts")),
        sides=dict(sorted(sides.items())), scores=scores,
        phase=str(common.get("phase") or view.get("phase") or ""),
        captions=words(common.get("captions")),
        last=caption(ctx, entry, last) if isinstance(last, dict) else "",
        last_card=next((v for k, v in (last or {}).get("args") or [] if k == "card" and is_card(v)),
                       None) if isinstance(last, dict) else None,
        notes=tuple(caption(ctx, entry, c) if isinstance(c, dict) else None
                    for c in common.get("seat_notes") or []),
        badges=tuple(words(b) for b in common.get("badges") or []),
        result=words(common.get("result")))


def caption(ctx: Ctx, entry: TableEntry, cap: dict[str, Any]) -> str:
    """A ``Caption`` in words: a seat argument also gives ``name``, a suit its symbol, a card
    its face, and a text argument that is itself a key is translated."""
    t = ctx.tr
    args: dict[str, object] = {}
    for pair in cap.get("args") or []:
        if not (isinstance(pair, list) and len(pair) == 2):
            continue
        name, value = str(pair[0]), pair[1]
        if isinstance(value, str):
            value = (SUIT_SYMBOLS[value] if value in SUIT_SYMBOLS else
                     t.card(value) if is_card(value) else t.t(value) if t.has(value) else value)
        elif isinstance(value, int) and name in ("seat", "player", "winner"):
            args["name"] = d.seat_name(ctx, entry, value)
        args[name] = value
    return t.t(str(cap.get("key", "")), args)


def is_card(code: Any) -> bool:
    return (isinstance(code, str) and len(code) == 2 and code[0] in "A23456789TJQK"
            and code[1] in SUIT_SYMBOLS)


def zones(entry: TableEntry, *kinds: str) -> list[dict[str, Any]]:
    """The descriptor's zones of these kinds, in its order."""
    found = (entry.presentation or {}).get("zones") or []
    return [z for z in found if isinstance(z, dict) and z.get("kind") in kinds]


def zone_value(entry: TableEntry, *kinds: str) -> Any:
    """What the view holds in the first zone of these kinds that it has (None: none)."""
    view = entry.view or {}
    for z in zones(entry, *kinds):
        if z.get("field") in view:
            return view[z["field"]]
    return None


def plays(value: Any) -> list[Play] | None:
    """A trick or pile as plays: ``[{seat, card}]``, ``[{seat, cards}]``, a pile of card codes (its
    top card) or one card code. None when the value is none of these (the family cannot draw it)."""
    if is_card(value):
        return [(None, [value])]
    if not isinstance(value, list):
        return None
    if all(is_card(c) for c in value):  # a pile face up: only its top card shows
        return [(None, [value[-1]])] if value else []
    out: list[Play] = []
    for p in value:
        if not isinstance(p, dict):
            return None
        seat = p.get("seat")
        cards = p.get("cards") if "cards" in p else [p.get("card")]
        if not isinstance(cards, list) or not all(is_card(c) for c in cards):
            return None
        out.append((seat if isinstance(seat, int) else None, list(cards)))
    return out


def key_or(ctx: Ctx, key: str, fallback: str = "", **args: object) -> str:
    """A game's own words when its catalogue has them (``<game>.phase.play``), else ``fallback``."""
    return ctx.tr.t(key, args) if ctx.tr.has(key) else fallback
