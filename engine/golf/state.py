"""Golf's plain data: layouts, card values, phases, the actions, chance outcomes and the state.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``).
Owns the scoring of a layout; it must never import the rules or the views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = tuple(r + s for s in SUITS for r in RANKS)
SHAPES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3)}  # cards -> (rows, cols)
TWO_DECKS_FROM = 4  # players

# Phases.
DEAL = "deal"
TURN = "turn"  # draw from the stock or the discard pile (or knock)
PLACE = "place"  # the card taken from the discard pile goes into the layout
PLACE_OR_DISCARD = "place_or_discard"  # the stock card goes into the layout or is discarded
FLIP = "flip"  # after discarding a stock card: flip a face-down card (optional or not)
BETWEEN = "between"
OVER = "over"

KNOCK, FACE_UP = "knock", "face_up"


def value(card: str) -> int:
    """A 1, 2 -2, 3 to 10 their pips, J Q 10, K 0."""
    r = card[0]
    if r == "A":
        return 1
    if r == "2":
        return -2
    if r == "K":
        return 0
    if r in "TJQ":
        return 10
    return int(r)


def layout_score(cards: tuple[str, ...], rows: int, cols: int) -> int:
    """Two rows: a column of equal ranks scores 0 (twos too). Three rows (9 cards): a row or
    column of three equal ranks scores 0; nothing else cancels."""
    zero = [False] * len(cards)
    if rows == 2:
        for c in range(cols):
            if cards[c][0] == cards[cols + c][0]:
                zero[c] = zero[cols + c] = True
    else:
        lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
        lines += [[r * cols + c for r in range(rows)] for c in range(cols)]
        for line in lines:
            if len({cards[i][0] for i in line}) == 1:
                for i in line:
                    zero[i] = True
    return sum(value(card) for card, z in zip(cards, zero, strict=True) if not z)


# -- actions and chance ---------------------------------------------------------------------
@dataclass(frozen=True)
class DrawStock:
    """Take the top card of the stock (seen by this seat only until it is placed or
    discarded)."""


@dataclass(frozen=True)
class TakeDiscard:
    """Take the top card of the discard pile: it must go into the layout."""


@dataclass(frozen=True)
class Knock:
    """End the hole after everyone else has had one more turn (instead of drawing)."""


@dataclass(frozen=True)
class Place:
    """Put the card held face up at this cell; the card there goes to the discard pile."""

    row: int
    col: int


@dataclass(frozen=True)
class Discard:
    """Throw the stock card held onto the discard pile."""


@dataclass(frozen=True)
class Flip:
    """Turn this face-down card of the layout face up."""

    row: int
    col: int


@dataclass(frozen=True)
class NoFlip:
    """Leave every card face down (when flipping is optional)."""


@dataclass(frozen=True)
class Deal:
    """A hole's deck in order: layouts dealt card by card (card ``k`` of the first
    ``cards * players`` goes to seat ``k % players``, cell ``k // players``), the next card
    starts the discard pile, the rest is the stock."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Reshuffle:
    """The discards under the top card, shuffled into a new stock (top of stock first)."""

    cards: tuple[str, ...]


class State(NamedTuple):
    players: int
    size: int  # cards in a layout: 4, 6, 8 or 9
    end: str  # knock or face_up
    final_turn: bool
    flip_mandatory: bool
    holes: int
    knock_penalty: bool
    seed: int
    chances: int
    hole: int
    phase: str
    layouts: tuple[tuple[str, ...], ...]
    up: tuple[tuple[bool, ...], ...]  # face up, seen by everyone
    peeked: tuple[tuple[bool, ...], ...]  # face down but known to the owner
    stock: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # bottom first; the last is the top card
    holding: str  # the card drawn this turn ("" when none)
    from_stock: bool  # the card held came from the stock
    turn: int
    dealer: int
    ender: int  # who knocked or turned the last card up; -1 before
    left: int  # turns still to be played after the ender; -1 before
    turns: int  # turns taken this hole (stall protection)
    last: tuple[int, str, str, int]  # (seat, kind, card, cell) of the last move; seat -1
    totals: tuple[int, ...]
    hole_points: tuple[int, ...]
    called: bool  # the last scored hole was called by the stall protection
