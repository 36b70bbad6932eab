"""Pinned Wizard deals for scenario tests.

``start`` opens a match and applies a written deal through the real chance step; ``deal``
applies the next round's written deal (the dealer moves one seat left); ``bid_all`` and
``play_all`` enter bids and cards for whichever seat is to act, in turn, through ``Match.act``;
``play_randomly`` plays random legal actions (dealing from the seed) until a condition holds.
Hands are written per seat; the turned card is given (None only in a round that deals every
card).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.match import Match
from engine.wizard import GAME
from engine.wizard.state import Bid, Deal, Play


def start(hands: Sequence[Sequence[str]], turned: str | None, dealer: int = 0,
          options: Mapping[str, Any] | None = None) -> Match:
    m = Match.start(GAME, len(hands), options, 0, resolve=False)
    m.apply_chance(Deal(dealer, tuple(tuple(h) for h in hands), turned))
    return m


def deal(m: Match, hands: Sequence[Sequence[str]], turned: str | None) -> None:
    m.apply_chance(Deal((m.state.dealer + 1) % m.players, tuple(tuple(h) for h in hands),
                        turned))


def bid_all(m: Match, bids: Sequence[int]) -> None:
    """``bids`` in bidding order (from the dealer's left)."""
    for b in bids:
        m.act(m.to_act()[0], Bid(b))


def play_all(m: Match, cards: Sequence[str]) -> None:
    """``cards`` in playing order, each by the seat to act."""
    for c in cards:
        m.act(m.to_act()[0], Play(c))


def play_randomly(m: Match, rng: random.Random, until: Any = None) -> None:
    """Random legal actions, the deals drawn from the seed, until ``until(m)`` is true (by
    default: the game is over)."""
    while not (m.outcome() is not None if until is None else until(m)):
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()
