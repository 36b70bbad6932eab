"""What one seat (or a spectator) may know of a President game, built field by field.

Allowed: the seat's own hand; every hand's size; the current trick (who played what) and who
passed in it; the order in force; every card played this round (all plays are public, so
card counting reads this); the finishing places, titles and points; the totals; and, for
the two seats of each exchange leg only, the cards that leg moved. Never: another hand, a
leg's cards to anyone outside it, the seed, or the next deal. A spectator sees the public
part only. This module must never copy the state wholesale.

The seat-independent part of a view is built once per state and shared by the seats' views
(their fields are immutable tuples and frozen dataclasses).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.codec import make_frozen
from engine.president import cards as pc
from engine.president.state import PLAY, State, titles

if TYPE_CHECKING:
    from engine.president.rules import PresidentGame


@dataclass(frozen=True)
class TrickPlay:
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Place:
    """A finishing place: ``title`` is a key (president, vice_president, citizen, vice_scum,
    scum); ``points`` what the place scores."""

    seat: int
    title: str
    points: int


@dataclass(frozen=True)
class ExchangeView:
    """This seat's part of the series exchange: whom it trades with and the cards that moved.

    ``to_give`` is how many cards the seat still has to give back (0 once done, or always for
    the Scum and Vice-Scum, whose cards went automatically)."""

    partner: int
    gave: tuple[str, ...]
    received: tuple[str, ...]
    to_give: int


@dataclass(frozen=True)
class PresidentView:
    seat: int | None
    phase: str  # deal, exchange, play, between, over
    round: int
    rounds: int
    revolution_enabled: bool
    reversed: bool  # a revolution is in force
    order: str  # ranks from weakest to strongest in the order in force ("3456789TJQKA2")
    hand: tuple[str, ...]  # weakest first in the normal order
    hand_counts: tuple[int, ...]
    to_act: tuple[int, ...]
    trick: tuple[TrickPlay, ...]  # this trick's plays in order; the last is the one to beat
    passed: tuple[int, ...]  # seats that passed in this trick (out of it until it is cleared)
    played: tuple[str, ...]  # every card played this round, weakest first
    places: tuple[Place, ...]  # this round's finishing order so far
    previous_places: tuple[Place, ...]  # last round's: they set this round's exchange and lead
    round_points: tuple[int, ...]  # per seat, once the round is scored; () before
    totals: tuple[int, ...]
    exchange: ExchangeView | None  # only for a seat that took part in this round's exchange


def _places(order: tuple[int, ...], players: int) -> tuple[Place, ...]:
    names = titles(players)
    return tuple(Place(s, names[i], players - i) for i, s in enumerate(order))


def _exchange(state: State, seat: int | None) -> ExchangeView | None:
    if seat is None:
        return None
    for leg in state.legs:
        back = pc.codes(leg.back) if leg.back >= 0 else ()
        if leg.giver == seat:
            return ExchangeView(leg.receiver, pc.codes(leg.given), back, 0)
        if leg.receiver == seat:
            return ExchangeView(leg.giver, back, pc.codes(leg.given),
                                leg.size if leg.back < 0 else 0)
    return None


def _public(game: PresidentGame, state: State) -> dict[str, Any]:
    """The fields of every view of ``state`` that are the same for each seat, in field order;
    ``seat``, ``hand`` and ``exchange`` are placeholders, set per seat by ``build_view``."""
    n = state.players
    return {
        "seat": None,
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rounds,
        "revolution_enabled": state.revolution,
        "reversed": state.reversed,
        "order": pc.REVERSED_ORDER if state.reversed else pc.NORMAL_ORDER,
        "hand": (),
        "hand_counts": tuple([h.bit_count() for h in state.hands]),
        "to_act": game.to_act(state),
        "trick": tuple([TrickPlay(s, p.play.cards) for s, p in state.trick]),
        "passed": (tuple([s for s in range(n) if state.passed >> s & 1])
                   if state.phase == PLAY else ()),
        "played": pc.codes(state.played),
        "places": _places(state.places, n),
        "previous_places": _places(state.previous, n),
        "round_points": state.round_points,
        "totals": state.totals,
        "exchange": None,
    }


# The public fields of the state viewed last, with that state. A host renders every seat of a
# state one after another, so one entry is enough. It is keyed on identity (states are
# immutable, and the entry keeps its state alive, so the id cannot be reused) and replaced
# as one tuple, so a reader on another thread sees a matching pair or a miss.
_last: tuple[State | None, dict[str, Any]] = (None, {})


def build_view(game: PresidentGame, state: State, seat: int | None) -> PresidentView:
    global _last
    last_state, public = _last
    if last_state is not state:
        public = _public(game, state)
        _last = (state, public)
    # The public fields in the view's order, then this seat's; built without __init__
    # (make_frozen: longer than the rest of a seat's view otherwise).
    fields = dict(public)
    if seat is not None:
        fields["seat"] = seat
        fields["hand"] = pc.codes(state.hands[seat])
        if state.legs:
            fields["exchange"] = _exchange(state, seat)
    return make_frozen(PresidentView, **fields)
