"""Pinned Golf deals for scenario tests.

``start`` builds the ``Deal`` that gives each seat exactly the layout written (row by row),
then the discard pile's first card, then the stock in the order given, then the rest of the
deck, and applies it through the real chance step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.golf import GAME
from engine.golf.rules import deck_for
from engine.golf.state import Deal
from engine.match import Match


def deal_for(players: int, layouts: Sequence[Sequence[str]], discard: str,
             stock: Sequence[str]) -> Deal:
    size = len(layouts[0])
    left = Counter(deck_for(players))
    left.subtract([c for lay in layouts for c in lay])
    left.subtract([discard, *stock])
    assert all(k >= 0 for k in left.values()), "a card is used more often than the deck has it"
    cards = [layouts[k % players][k // players] for k in range(size * players)]
    cards += [discard, *stock, *sorted(left.elements())]
    return Deal(tuple(cards))


def start(layouts: Sequence[Sequence[str]], discard: str, stock: Sequence[str] = (),
          options: Mapping[str, Any] | None = None) -> Match:
    m = Match.start(GAME, len(layouts), options, 0, resolve=False)
    m.apply_chance(deal_for(len(layouts), layouts, discard, stock))
    return m
