"""Pinned Crazy Eights deals for scenario tests.

``start`` builds the ``Deal`` that gives each seat exactly the hand written, then the stock in
the order given (its first card is the starter), then the rest of the deck; every scenario goes
through the real chance step, never a hand-built state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.crazy_eights import GAME
from engine.crazy_eights.rules import deck_for, decks_for, hand_size
from engine.crazy_eights.state import Deal
from engine.match import Match


def deal_for(players: int, hands: Sequence[Sequence[str]], stock: Sequence[str]) -> Deal:
    size = hand_size(players)
    assert all(len(h) == size for h in hands) and len(hands) == players
    left = Counter(deck_for(decks_for(players)))
    left.subtract([c for h in hands for c in h])
    left.subtract(stock)
    assert all(k >= 0 for k in left.values()), "a card is used more often than the deck has it"
    cards = [hands[k % players][k // players] for k in range(size * players)]
    cards += list(stock) + sorted(left.elements())
    return Deal(tuple(cards))


def start(hands: Sequence[Sequence[str]], stock: Sequence[str],
          options: Mapping[str, Any] | None = None) -> Match:
    m = Match.start(GAME, len(hands), options, 0, resolve=False)
    m.apply_chance(deal_for(len(hands), hands, stock))
    return m
