"""Kaiser's plain data: the deck and its card tables, the point cards, the actions, the chance
step, the parsed options and the state.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``). Owns
the order of bids and the value of a trick; it must never import the rules or the views.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tricks import NO_TRUMP, SUITS, CardTables, TrickPlay

# Each suit holds 8 cards, low to high: the 7 of spades and of hearts are replaced by the
# 3 of spades and the 5 of hearts, so every suit fits the shared one-byte-per-suit layout.
TABLES = CardTables.build(("389TJQKA", "589TJQKA", "789TJQKA", "789TJQKA"))
DECK: tuple[str, ...] = TABLES.codes
CARD = TABLES.card
FIVE = "5H"
THREE = "3S"
HAND_SIZE = 8
# The most one side can take: seven tricks with the 5H while the other takes the 3S's trick.
MAX_BID = 12

# Phases of the state (the view adds hand_over and game_over).
DEAL, BIDDING, TRUMP, PLAY, OVER = "deal", "bidding", "trump", "play", "over"


def card_points(card: str) -> int:
    """What a card adds to the trick that contains it (for whoever takes that trick)."""
    return 5 if card == FIVE else -3 if card == THREE else 0


def trick_points(cards: tuple[str, ...]) -> int:
    """A trick is worth 1, plus 5 with the 5H and minus 3 with the 3S (both: +3)."""
    return 1 + sum(card_points(c) for c in cards)


def bid_key(value: int, no_trump: bool) -> int:
    """Bids in rank order: N no-trump outranks N in a suit and is beaten by N+1."""
    return value * 2 + int(no_trump)


def junk(hand: tuple[str, ...]) -> bool:
    """A misdeal hand: no ace, no face card, and neither the 5H nor the 3S."""
    return not any(c[0] in "AKQJ" or c in (FIVE, THREE) for c in hand)


def trump_index(trump: str | None) -> int:
    return NO_TRUMP if trump is None else SUITS.index(trump)


def trick_winner(plays: tuple[TrickPlay, ...], trump: str | None) -> int:
    """The seat that takes a trick (plays in order, the lead first)."""
    i = TABLES.winner(trump_index(trump), [CARD[p.card] for p in plays])
    return plays[i].seat


def sort_hand(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Suit by suit (S H D C), high to low: how a hand is kept and shown."""
    return tuple(sorted(cards, key=lambda c: (CARD[c] // 8, -CARD[c])))


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pass:
    """Pass in the bidding (never the dealer when everyone else passed)."""


@dataclass(frozen=True)
class Bid:
    """Bid ``value`` points in a trump suit the bidder names on winning the contract."""

    value: int


@dataclass(frozen=True)
class BidNoTrump:
    """Bid ``value`` points in no-trump: outranks ``Bid(value)``, scores double."""

    value: int


@dataclass(frozen=True)
class NameTrump:
    """The holder of a suit contract names trump (S, H, D or C)."""

    suit: str


@dataclass(frozen=True)
class Play:
    card: str


# -- chance ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One hand's deal: ``hands[i]`` is seat ``i``'s eight cards.

    ``dealer`` must be the seat whose deal it is (the same dealer again after a misdeal); for
    the first hand it is the cut for deal, drawn by chance too.
    """

    dealer: int
    hands: tuple[tuple[str, ...], ...]


# -- records the views show as they are ---------------------------------------------------------
@dataclass(frozen=True)
class BidCall:
    """One call of the auction: ``value`` None is a pass."""

    seat: int
    value: int | None
    no_trump: bool = False


@dataclass(frozen=True)
class TrickView:
    """A finished trick: who led, the cards in order, who took it and its points."""

    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class HandResult:
    """How a hand ended. ``taken`` is what each side took in play; ``points`` what each side
    scored for it (after doubling, failure and the defender restriction); ``restricted`` says
    the restriction kept the defenders' positive points off the sheet."""

    hand: int
    dealer: int
    bidder: int
    bid: int
    no_trump: bool
    trump: str | None
    taken: tuple[int, int]
    made: bool
    points: tuple[int, int]
    score: tuple[int, int]
    restricted: bool


# -- state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """The table options, parsed once."""

    min_bid: int
    dealer_equals: bool
    no_trump: bool
    restriction: int | None  # None: off
    target: int
    lose_at_minus: bool
    misdeal: bool
    seed: int


@dataclass(frozen=True)
class KaiserState:
    rules: Rules
    chances: int
    phase: str
    score: tuple[int, int]
    hand_number: int
    dealer: int  # -1 before the first deal
    hands: tuple[tuple[str, ...], ...]  # by seat, sorted (sort_hand)
    turn: int  # the seat to act, -1 when none
    bids: tuple[BidCall, ...]
    high: BidCall | None  # the high bid so far, then the contract
    trump: str | None
    leader: int
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    taken: tuple[int, int]
    last: HandResult | None
    misdeals: int  # redeals of this hand so far
    misdeal_by: int | None  # the seat whose junk hand caused the last redeal (it was shown)
    winner: int  # the winning side once over, else -1
    reason: str
