"""What one seat (or a spectator) may know of a Crazy Eights game, built field by field.

Allowed: the seat's own hand; every hand's size; the stock's size; the whole discard pile
(every card on it was played face up); the suit to follow; who acts and how many cards they
drew this turn; the last move (a drawn card is never named); the scores; the number of
decks; each seat's public record of draws and passes (the suits to follow when it drew or
passed, and the cards drawn since: moves everyone saw). Never: another
hand, the stock's order or content, the seed, or the next deal. This module must never copy
the state wholesale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.crazy_eights.state import DRAW_LIMIT, State

if TYPE_CHECKING:
    from engine.crazy_eights.rules import CrazyEightsGame


@dataclass(frozen=True)
class LastMove:
    """``kind``: play, eight (``suit`` named), draw (``card`` is empty) or pass."""

    seat: int
    kind: str
    card: str
    suit: str


@dataclass(frozen=True)
class CrazyEightsView:
    seat: int | None
    phase: str  # deal, play, name, between, over
    round: int
    draw_rule: str
    draw_limit: int  # cards a turn may draw; -1 until playable
    draw_when_able: bool
    reshuffle: bool
    scoring: str
    target: int
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    to_act: tuple[int, ...]
    stock_count: int
    discard: tuple[str, ...]  # bottom first; the last is the top card
    suit: str  # the suit to follow
    drawn: int  # cards the seat to act has drawn this turn
    last: LastMove | None
    round_points: tuple[int, ...]
    blocked: bool  # the last scored round ended blocked
    called: bool  # ... because the stall protection called it
    totals: tuple[int, ...]
    decks: int
    declined: tuple[str, ...]  # per seat: the suits to follow when it drew or passed
    drawn_since: tuple[int, ...]  # per seat: cards drawn since the first of those


def build_view(game: CrazyEightsGame, state: State, seat: int | None) -> CrazyEightsView:
    last = state.last
    return CrazyEightsView(
        seat=seat, phase=state.phase, round=state.round, draw_rule=state.draw_rule,
        draw_limit=DRAW_LIMIT[state.draw_rule], draw_when_able=state.draw_when_able,
        reshuffle=state.reshuffle, scoring=state.scoring, target=state.target,
        hand=state.hands[seat] if seat is not None else (),
        hand_counts=tuple(len(h) for h in state.hands), to_act=game.to_act(state),
        stock_count=len(state.stock), discard=state.discard, suit=state.suit,
        drawn=state.drawn,
        last=LastMove(last.seat, last.kind, last.card, last.suit) if last else None,
        round_points=state.round_points, blocked=state.blocked, called=state.called,
        totals=state.totals,
        decks=state.decks, declined=state.declined, drawn_since=state.since)
