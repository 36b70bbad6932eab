"""Pinned Kaiser deals for the scenario tests, and a scripted way to play them out.

``ONE_SUIT``: every seat holds one whole suit (0 spades, 1 hearts, 2 diamonds, 3 clubs), so
the side holding trump (or, in no-trump, the side that leads first) takes every trick: 10
points to one side, 0 to the other. ``MIXED``: seat 0 runs seven hearts with the 5H and
loses the last trick (its 7D) to seat 3's AD, so ``MIXED_ORDERS`` give 12 to side 0 and -2
(one trick holding the 3S, which seat 1 played) to side 1; ``MIXED_PLAIN_ORDERS`` give 9 and
1 (the 3S falls on a trick of seat 0's). ``start`` applies a deal through the real chance step
(dealer 3, so seat 0 bids first); ``play_out`` plays each seat's first legal card of its list.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from engine.kaiser import GAME
from engine.kaiser.state import Deal, Pass, Play
from engine.match import Match

Hands = tuple[tuple[str, ...], ...]

ONE_SUIT: Hands = (
    ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "3S"),
    ("AH", "KH", "QH", "JH", "TH", "9H", "8H", "5H"),
    ("AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"),
    ("AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"),
)
MIXED: Hands = (
    ("AH", "KH", "QH", "JH", "TH", "9H", "5H", "7D"),
    ("3S", "8H", "AC", "KC", "QC", "JC", "TC", "9C"),
    ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "8C"),
    ("AD", "KD", "QD", "JD", "TD", "9D", "8D", "7C"),
)
MIXED_ORDERS: Hands = (
    MIXED[0],
    ("8H", "9C", "TC", "JC", "QC", "KC", "AC", "3S"),
    ("8C", "AS", "KS", "QS", "JS", "TS", "9S", "8S"),
    ("7C", "8D", "9D", "TD", "JD", "QD", "KD", "AD"),
)
MIXED_PLAIN_ORDERS: Hands = (
    MIXED[0],
    ("8H", "3S", "TC", "JC", "QC", "KC", "AC", "9C"),
    MIXED_ORDERS[2],
    MIXED_ORDERS[3],
)
# No ace, no face card, neither the 5H nor the 3S: a junk hand for the misdeal option.
JUNK = ("TS", "9S", "8S", "TH", "9H", "8H", "TD", "9D")


def deal_with(first: tuple[str, ...], seat: int = 0, dealer: int = 3) -> Deal:
    """A deal giving ``seat`` the cards ``first`` and ONE_SUIT's leftovers to the others."""
    rest = [c for h in ONE_SUIT for c in h if c not in first]
    hands = [rest[8 * k:8 * k + 8] for k in range(3)]
    hands.insert(seat, list(first))
    return Deal(dealer, tuple(tuple(h) for h in hands))


def start(hands: Hands = ONE_SUIT, options: Mapping[str, Any] | None = None,
          score: tuple[int, int] = (0, 0)) -> Match:
    m = Match.start(GAME, 4, options, 0, resolve=False)
    if score != (0, 0):
        # A game already under way: the sheet before this hand (the deal itself is real).
        m.state = dataclasses.replace(m.state, score=score)
    m.apply_chance(Deal(3, hands))
    return m


def auction(m: Match, *calls: Any) -> None:
    """Each seat's call in turn, from whoever is to act."""
    for call in calls:
        m.act(m.to_act()[0], call)


def contract(m: Match, call: Any, trump: Any = None) -> None:
    """Seat 0 opens with ``call`` and the others pass; then seat 0 names ``trump`` if given."""
    auction(m, call, Pass(), Pass(), Pass())
    if trump is not None:
        m.act(0, trump)


def play_out(m: Match, orders: Sequence[Sequence[str]]) -> None:
    """Play the hand to its end: each seat plays the first card of its list that is legal."""
    hand = m.state.hand_number
    while m.state.hand_number == hand and m.to_act():
        seat = m.to_act()[0]
        legal = m.legal(seat)
        card = next(c for c in orders[seat] if Play(c) in legal)
        m.act(seat, Play(card))
