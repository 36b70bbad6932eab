"""Euchre's card arithmetic: integer cards, bit masks, and every table precomputed once.

A card is an int ``suit * 8 + rank`` with suits ``S H D C`` = 0..3 and ranks ``7 8 9 T J Q K A``
= 0..7, so one suit is one byte of a hand's bit mask (``1 << card``). Spades and clubs are black,
hearts and diamonds red; the same-colour suit of ``s`` is ``3 - s``. Index 4 of the trump-indexed
tables means "no trump yet" (plain ranking), so callers never branch on it. The layout and the
way the tables are built are shared with the other trick-takers (``engine.tricks``); this module
adds Euchre's bowers.

This module is the single source of truth for ranking and following suit: the rules and the
computer players' search both read these tables. It must never hold game state.
"""

from __future__ import annotations

from engine.cards import RED_SUITS
from engine.cards import cards_of as cards_of  # re-exported: this game imports it from here
from engine.tricks import BIT as BIT
from engine.tricks import NO_TRUMP as NO_TRUMP
from engine.tricks import RANK_OF as RANK_OF
from engine.tricks import SUIT_OF as SUIT_OF
from engine.tricks import SUITS as SUITS
from engine.tricks import CardTables

RANKS = "789TJQKA"
JACK = 4

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


def _trump_rank(trump: int, card: int) -> int:
    """0..9 within trump: 7 8 9 T Q K A, then left bower 8, right bower 9 (jack excluded below)."""
    if card == right_bower(trump):
        return 9
    if card == left_bower(trump):
        return 8
    r = RANK_OF[card]
    return r if r < JACK else r - 1  # ranks above the jack close the gap it leaves


# Built by the shared trick-taking tables (engine/tricks.py) with the bowers' suit and rank:
# ESUIT[trump][card] is the suit a card belongs to for following and winning (the left bower is
# trump, not its printed suit, for the whole hand); SUIT_MASK[trump][suit] the cards of that
# effective suit; POWER[trump][led][card] compares within one trick (the highest wins, 0 cannot
# win); STRENGTH[trump][card] is a trick-independent order (trumps above every plain card,
# plain cards by rank), used to sort hands and to pick "lowest" and "highest" cards.
TABLES = CardTables.build((RANKS,) * 4, _effective_suit, _trump_rank)
CODE: tuple[str, ...] = TABLES.codes
CARD: dict[str, int] = TABLES.card
ESUIT: tuple[tuple[int, ...], ...] = TABLES.esuit
SUIT_MASK: tuple[tuple[int, ...], ...] = TABLES.suit_mask
POWER: tuple[tuple[tuple[int, ...], ...], ...] = TABLES.power
STRENGTH: tuple[tuple[int, ...], ...] = TABLES.strength


POPCOUNT = int.bit_count
