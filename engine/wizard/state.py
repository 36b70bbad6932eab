"""Wizard's plain data: the deck and card helpers, the actions, the chance step and the state.

Shared by the rules (``rules.py``), the views (``views.py``) and the computer players
(``ai.py``) so that none imports another's behaviour. The helpers here are the rules' own
definitions of what may be played and who takes a trick; the players call the same ones.
This module must never import the rules or the views, do I/O, or use any random generator.

Cards: the 52 standard cards as two characters (``TH``), the four Wizards ``W1``..``W4`` and
the four Jesters ``N1``..``N4`` (codes no standard card uses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.tricks import TrickPlay

SUITS = "SHDC"
RANKS = "23456789TJQKA"  # low to high
WIZARDS = ("W1", "W2", "W3", "W4")
JESTERS = ("N1", "N2", "N3", "N4")
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + WIZARDS + JESTERS

# Phases of the state (the view names "deal" after a scored round "round_over", and "over"
# "game_over").
DEAL, TRUMP, BIDDING, PLAY, OVER = "deal", "trump", "bidding", "play", "over"
ACTING = (TRUMP, BIDDING, PLAY)


def is_wizard(c: str) -> bool:
    return c[0] == "W"


def is_jester(c: str) -> bool:
    return c[0] == "N"


def is_plain(c: str) -> bool:
    return c[0] not in "WN"


def led_suit(cards: Sequence[str]) -> str | None:
    """The suit to follow: the first plain card's, unless a Wizard came before it (then none).
    Jesters lead nothing, so a Jester led leaves the suit to the next card."""
    for c in cards:
        if is_wizard(c):
            return None
        if is_plain(c):
            return c[1]
    return None


def playable(hand: Sequence[str], trick: Sequence[str]) -> tuple[str, ...]:
    """The cards of ``hand`` that may go on ``trick`` (its cards in order): a card of the led
    suit if the hand holds one (Wizards and Jesters never count as holding it), and a Wizard
    or a Jester at any time."""
    led = led_suit(trick)
    if led is not None and any(is_plain(c) and c[1] == led for c in hand):
        return tuple(c for c in hand if not is_plain(c) or c[1] == led)
    return tuple(hand)


def trick_winner(plays: Sequence[tuple[int, str]], trump: str | None) -> int:
    """The seat that takes a trick of ``(seat, card)`` plays: the first Wizard; else the
    highest trump; else the highest card of the led suit; an all-Jester trick goes to the
    first Jester."""
    for seat, c in plays:
        if is_wizard(c):
            return seat
    led = led_suit([c for _, c in plays])
    if led is None:
        return plays[0][0]
    best, key = -1, (-1, -1)
    for seat, c in plays:
        if is_jester(c):
            continue
        k = (2 if c[1] == trump else 1 if c[1] == led else 0, RANKS.index(c[0]))
        if k > key:
            best, key = seat, k
    return best


def round_score(bid: int, taken: int) -> int:
    """20 plus 10 a trick for an exact bid; minus 10 a trick off otherwise."""
    return 20 + 10 * taken if bid == taken else -10 * abs(bid - taken)


def rounds_for(players: int, cap: str) -> int:
    """60 / players rounds, or the cap (option ``rounds``) when it is smaller."""
    full = len(DECK) // players
    return full if cap == "full" else min(full, int(cap))


def sort_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """Wizards, then suit by suit (S H D C) high to low, then Jesters: how every view lists a
    hand."""
    def key(c: str) -> tuple[int, int]:
        if is_wizard(c):
            return (0, int(c[1]))
        if is_jester(c):
            return (5, int(c[1]))
        return (1 + SUITS.index(c[1]), -RANKS.index(c[0]))

    return tuple(sorted(cards, key=key))


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class ChooseTrump:
    """The dealer, a Wizard having been turned, names trump after seeing their hand."""

    suit: str


@dataclass(frozen=True)
class Bid:
    """How many tricks this seat says it will take this round (0 to the round's number)."""

    tricks: int


@dataclass(frozen=True)
class Play:
    card: str


# -- chance ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One round's deal: ``hands[i]`` for seat ``i``, and the turned card (None when every
    card is dealt). ``dealer`` must be the seat whose deal it is (drawn for the first)."""

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    turned: str | None


# -- state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrickView:
    """A finished trick: who led, the cards in order, who took it."""

    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int


@dataclass(frozen=True)
class RoundResult:
    """One line of the score sheet: per seat, the bid, the tricks taken, the round's points
    and the running total."""

    round: int
    dealer: int
    trump: str | None
    bids: tuple[int, ...]
    taken: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class Last:
    """The last action: ``kind`` trump (``suit``), bid (``tricks``) or play (``card``)."""

    seat: int
    kind: str
    suit: str = ""
    tricks: int = 0
    card: str = ""


@dataclass(frozen=True)
class Rules:
    players: int
    rounds: int
    screw_the_dealer: bool
    hidden_bids: bool
    seed: int


@dataclass(frozen=True)
class WizardState:
    rules: Rules
    chances: int
    phase: str  # deal, trump, bidding, play, over
    round: int
    dealer: int  # -1 before the first deal
    hands: tuple[tuple[str, ...], ...]
    turned: str | None
    trump: str | None
    turn: int
    bids: tuple[int | None, ...]
    taken: tuple[int, ...]
    leader: int
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    scores: tuple[int, ...]
    sheet: tuple[RoundResult, ...]
    last: Last | None
