"""Euchre's card arithmetic: integer cards, bit masks, and every table precomputed once.

A card is an int ``suit * 8 + rank`` with suits ``S H D C`` = 0..3 and ranks ``7 8 9 T J Q K A``
= 0..7, so one suit is one byte of a hand's bit mask (``1 << card``). Spades and clubs are black,
hearts and diamonds red; the same-colour suit of ``s`` is ``3 - s``. Index 4 of the trump-indexed
tables means "no trump yet" (plain ranking), so callers never branch on it.

This module is the single source of truth for ranking and following suit: the rules and the
computer players' search both read these tables. It must never hold game state.
"""

from __future__ import annotations

from engine.cards import RED_SUITS
from engine.cards import cards_of as cards_of  # re-exported: this game imports it from here

SUITS = "SHDC"
RANKS = "789TJQKA"
JACK = 4
NO_TRUMP = 4  # index into the trump-indexed tables before trump is named

CODE: tuple[str, ...] = tuple(RANKS[c % 8] + SUITS[c // 8] for c in range(32))
CARD: dict[str, int] = {code: c for c, code in enumerate(CODE)}
SUIT_OF: tuple[int, ...] = tuple(c // 8 for c in range(32))
RANK_OF: tuple[int, ...] = tuple(c % 8 for c in range(32))
BIT: tuple[int, ...] = tuple(1 << c for c in range(32))

# The cards of each deck size, as a bit mask and in a fixed order (suit-major, low to high).
DECK_RANKS = {24: range(2, 8), 32: range(8)}
DECK_CARDS: dict[int, tuple[int, ...]] = {
    n: tuple(s * 8 + r for s in range(4) for r in ranks) for n, ranks in DECK_RANKS.items()
}
DECK_MASK: dict[int, int] = {n: sum(BIT[c] for c in cards) for n, cards in DECK_CARDS.items()}


def same_colour(suit: int) -> int:
    """The other suit of the same colour (S<->C, H<->D)."""
    return 3 - suit


assert all((SUITS[s] in RED_SUITS) == (SUITS[same_colour(s)] in RED_SUITS) for s in range(4))


def right_bower(trump: int) -> int:
    return trump * 8 + JACK


def left_bower(trump: int) -> int:
    return same_colour(trump) * 8 + JACK


def _effective_suit(trump: int, card: int) -> int:
    if trump != NO_TRUMP and card == left_bower(trump):
        return trump
    return SUIT_OF[card]


# ESUIT[trump][card]: the suit a card belongs to for following and winning (the left bower is
# trump, not its printed suit, for the whole hand).
ESUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(_effective_suit(t, c) for c in range(32)) for t in range(5)
)

# SUIT_MASK[trump][suit]: the cards of that effective suit, as a bit mask.
SUIT_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[c] for c in range(32) if ESUIT[t][c] == s) for s in range(4)) for t in range(5)
)


def _trump_rank(trump: int, card: int) -> int:
    """0..9 within trump: 7 8 9 T Q K A, then left bower 8, right bower 9 (jack excluded below)."""
    if card == right_bower(trump):
        return 9
    if card == left_bower(trump):
        return 8
    r = RANK_OF[card]
    return r if r < JACK else r - 1  # ranks above the jack close the gap it leaves


def _power(trump: int, led: int, card: int) -> int:
    """How strongly ``card`` bids for a trick led in ``led``: 0 means it cannot win."""
    s = ESUIT[trump][card]
    if trump != NO_TRUMP and s == trump:
        return 20 + _trump_rank(trump, card)
    if s == led:
        return 1 + RANK_OF[card]
    return 0


# POWER[trump][led][card]: compare within one trick; the highest wins.
POWER: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_power(t, led, c) for c in range(32)) for led in range(4)) for t in range(5)
)

# STRENGTH[trump][card]: a trick-independent order (trumps above every plain card, plain cards
# by rank), used to sort hands and to pick "lowest" and "highest" cards.
STRENGTH: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (20 + _trump_rank(t, c)) if (t != NO_TRUMP and ESUIT[t][c] == t) else RANK_OF[c]
        for c in range(32)
    )
    for t in range(5)
)




POPCOUNT = int.bit_count
