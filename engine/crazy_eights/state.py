"""Crazy Eights' plain data: phases, card values, the actions, chance outcomes and the state.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``) so
that none imports another's behaviour. Owns the card helpers; it must never import the rules.
Cards are two-character codes (``"8S"``); with two decks a code appears twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

RANKS = "A23456789TJQK"
SUITS = "SHDC"
DECK = tuple(r + s for s in SUITS for r in RANKS)

# Phases.
DEAL = "deal"  # the round's deal is pending
PLAY = "play"  # the seat to act plays, draws or passes
NAME = "name"  # the seat that played an eight names the suit to follow
BETWEEN = "between"  # a round is scored; the next deal is pending
OVER = "over"

# Draw rules (option ``draw``).
UNTIL_PLAYABLE, UP_TO_THREE, ONE = "until_playable", "three", "one"
DRAW_LIMIT = {UNTIL_PLAYABLE: -1, UP_TO_THREE: 3, ONE: 1}
# Scoring (option ``scoring``).
WINNER_COLLECTS, PENALTY = "winner_collects", "penalty"
TWO_DECKS_FROM = 6  # players; with fewer, one deck (the default of option ``two_decks_from``)


def value(card: str) -> int:
    """Points of a card left in hand: 8 = 50, K Q J 10 = 10, A = 1, the others their pips."""
    r = card[0]
    if r == "8":
        return 50
    if r in "TJQK":
        return 10
    if r == "A":
        return 1
    return int(r)


def hand_value(cards: tuple[str, ...]) -> int:
    return sum(value(c) for c in cards)


def sort_hand(cards: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Suit by suit (S H D C), ace to king: how every view lists a hand."""
    return tuple(sorted(cards, key=lambda c: (SUITS.index(c[1]), RANKS.index(c[0]))))


def matches(card: str, top: str, suit: str) -> bool:
    """``card`` may go on ``top`` when the suit to follow is ``suit``."""
    return card[0] == "8" or card[1] == suit or card[0] == top[0]


# -- actions and chance ---------------------------------------------------------------------
@dataclass(frozen=True)
class Play:
    """Play this card of the hand on the discard pile."""

    card: str


@dataclass(frozen=True)
class NameSuit:
    """After an eight: the suit the next player must follow (S, H, D or C)."""

    TAG = "name_suit"
    suit: str


@dataclass(frozen=True)
class Draw:
    """Take the top card of the stock."""


@dataclass(frozen=True)
class Pass:
    """End the turn without playing (only once no more drawing is allowed)."""


@dataclass(frozen=True)
class Deal:
    """A round's deck in order: card ``k`` of the first ``hand * players`` goes to seat
    ``k % players``; the rest is the stock, its first card turned as the starter (an eight is
    buried at the bottom of the stock and the next card turned)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class Reshuffle:
    """The discards under the top card, shuffled into a new stock (top of stock first)."""

    cards: tuple[str, ...]


DRAW = Draw()
PASS = Pass()


class Last(NamedTuple):
    """The last move, public: ``kind`` play, eight (with the named suit), draw or pass."""

    seat: int
    kind: str
    card: str
    suit: str


class State(NamedTuple):
    players: int
    draw_rule: str
    draw_when_able: bool
    reshuffle: bool
    scoring: str
    target: int
    seed: int
    chances: int
    round: int
    phase: str
    hands: tuple[tuple[str, ...], ...]  # sorted as sort_hand
    stock: tuple[str, ...]  # top first
    discard: tuple[str, ...]  # bottom first; the last is the top card
    suit: str  # the suit to follow (the top card's, or the one an eight named)
    turn: int
    dealer: int
    drawn: int  # cards drawn by the seat to act this turn
    passes: int  # passes in a row with the stock empty (blocked when it reaches players)
    last: Last | None
    totals: tuple[int, ...]
    round_points: tuple[int, ...]  # the last scored round's points per seat; () before
    blocked: bool  # the last scored round ended blocked
    decks: int  # 1 or 2, fixed by option ``two_decks_from`` and the number of players
    # Public record of each seat's draws and passes this round, for players to reason from:
    # the suits that were to follow when the seat drew or passed (in order, each once), and
    # how many cards it has drawn since the first of them (less any it has shown since by
    # playing one of those suits or an eight). Everyone saw these moves; nothing hidden.
    declined: tuple[str, ...]
    since: tuple[int, ...]
    turns: int  # turns ended this round (stall protection)
    called: bool  # the last scored round was called by the stall protection
