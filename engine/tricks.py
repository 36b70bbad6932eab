"""Trick-taking machinery shared by the partnership trick-takers (Euchre, Kaiser).

Owns: the integer card layout, the tables that rank a card in a trick (given trump and the
suit led), following suit on bit masks, a trick's winner, the legal plays of a hand as
interned actions, the fast shuffle the deals use, and the deal of unseen cards consistent
with revealed voids that the hard players' determinized search draws from.

A card is an int ``suit * 8 + rank``: suits ``S H D C`` are 0..3 and ``rank`` 0..7 runs low to
high within its suit, so a hand is a 32-bit mask with one suit per byte. A game names its
cards (``CardTables.codes``: Kaiser's lowest card is a different rank in each suit) and, if it
has bowers, how trump changes a card's suit and rank. Index ``NO_TRUMP`` of every table
indexed by trump means no trump (plain ranking), so callers never branch on it.

This module knows no game and holds no game state: it must never import a game, do I/O, read
the clock or use the global random generator (every draw comes from the generator passed in).
"""

from __future__ import annotations

import random
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import cards_of

SUITS = "SHDC"
NO_TRUMP = 4
BIT: tuple[int, ...] = tuple(1 << c for c in range(32))
SUIT_OF: tuple[int, ...] = tuple(c // 8 for c in range(32))
RANK_OF: tuple[int, ...] = tuple(c % 8 for c in range(32))
# Added to a trump's rank in ``power`` and ``strength``: above every card of a plain suit.
TRUMP_BASE = 20


@dataclass(frozen=True)
class TrickPlay:
    """One card of a trick as views show it: who played which card (two-character code)."""

    seat: int
    card: str


def _plain_suit(trump: int, card: int) -> int:
    return SUIT_OF[card]


def _plain_rank(trump: int, card: int) -> int:
    return RANK_OF[card]


@dataclass(frozen=True)
class CardTables:
    """One game's 32 cards and every ranking table, computed once at import.

    ``esuit[trump][card]`` is the suit a card follows and wins as; ``suit_mask[trump][suit]``
    the cards of that effective suit; ``power[trump][led][card]`` how strongly a card bids
    for a trick (0: it cannot win; the highest wins); ``strength[trump][card]`` an order
    independent of the trick (trumps above plain cards) to sort hands and pick high or low.
    """

    codes: tuple[str, ...]
    card: dict[str, int]
    esuit: tuple[tuple[int, ...], ...]
    suit_mask: tuple[tuple[int, ...], ...]
    power: tuple[tuple[tuple[int, ...], ...], ...]
    strength: tuple[tuple[int, ...], ...]

    @staticmethod
    def build(ranks: Sequence[str],
              effective_suit: Callable[[int, int], int] = _plain_suit,
              trump_rank: Callable[[int, int], int] = _plain_rank) -> CardTables:
        """Tables for the deck whose suit ``s`` holds ranks ``ranks[s]`` (8 characters, low to
        high). ``effective_suit(trump, card)`` and ``trump_rank(trump, card)`` (a card's rank
        among the trumps, asked only for trumps) default to the printed suit and rank: a
        game without bowers passes neither."""
        codes = tuple(ranks[c // 8][c % 8] + SUITS[c // 8] for c in range(32))
        esuit = tuple(tuple(SUIT_OF[c] if t == NO_TRUMP else effective_suit(t, c)
                            for c in range(32)) for t in range(5))

        def strength(t: int, c: int) -> int:
            if t != NO_TRUMP and esuit[t][c] == t:
                return TRUMP_BASE + trump_rank(t, c)
            return RANK_OF[c]

        def power(t: int, led: int, c: int) -> int:
            if t != NO_TRUMP and esuit[t][c] == t:
                return TRUMP_BASE + trump_rank(t, c)
            return 1 + RANK_OF[c] if esuit[t][c] == led else 0

        return CardTables(
            codes=codes,
            card={code: c for c, code in enumerate(codes)},
            esuit=esuit,
            suit_mask=tuple(tuple(sum(BIT[c] for c in range(32) if esuit[t][c] == s)
                                  for s in range(4)) for t in range(5)),
            power=tuple(tuple(tuple(power(t, led, c) for c in range(32)) for led in range(4))
                        for t in range(5)),
            strength=tuple(tuple(strength(t, c) for c in range(32)) for t in range(5)),
        )

    def mask(self, codes: Sequence[str]) -> int:
        """The bit mask of some card codes (each must be one of this deck's)."""
        out = 0
        for code in codes:
            out |= BIT[self.card[code]]
        return out

    def winner(self, trump: int, cards: Sequence[int]) -> int:
        """The index in ``cards`` (play order, the lead first) of the card that wins."""
        power = self.power[trump][self.esuit[trump][cards[0]]]
        best = 0
        for i in range(1, len(cards)):
            if power[cards[i]] > power[cards[best]]:
                best = i
        return best


def follow(hand: int, led_cards: int) -> int:
    """The cards of ``hand`` that may be played to a trick whose led suit is ``led_cards``
    (a mask; 0 when leading): that suit if the hand holds any, else anything."""
    return hand & led_cards or hand


ByteTable = tuple[tuple[tuple[Any, ...], ...], ...]


def byte_table(actions: Sequence[Any]) -> ByteTable:
    """For each suit and each byte value, the actions (one per card, ``actions[card]``) of the
    cards set in that byte: a hand's legal list is then four lookups (``mask_actions``)."""
    return tuple(
        tuple(tuple(actions[s * 8 + r] for r in range(8) if b >> r & 1) for b in range(256))
        for s in range(4)
    )


def mask_actions(table: ByteTable, mask: int) -> tuple[Any, ...]:
    return (table[0][mask & 255] + table[1][(mask >> 8) & 255] + table[2][(mask >> 16) & 255]
            + table[3][mask >> 24])


def shuffled_order(n: int, rng: random.Random) -> list[int]:
    """A uniformly random permutation of ``range(n)``, from one draw of the generator.

    Sorts by independent random 32-bit keys (read little-endian, so a seed deals the same
    everywhere); ties, which a stable sort leaves in order, have odds below 1e-7 per deal.
    Everything runs in C: several times faster than ``rng.shuffle``, which calls back into
    Python once per card.
    """
    # rng.randbytes(4 * n) as Python 3.11 defines it, written out: one Python call fewer, and
    # the deal stays the same whatever a later Python does inside randbytes.
    keys = _KEYS[n].unpack(rng.getrandbits(32 * n).to_bytes(4 * n, "little"))
    # A list's __getitem__ is a plain C method; a tuple's is a slot wrapper, slower to call
    # once per card.
    return sorted(range(n), key=list(keys).__getitem__)


# One unpacker per deck size a game may shuffle (up to two 52-card decks plus jokers).
_KEYS = {n: struct.Struct(f"<{n}I") for n in range(1, 113)}


def replace_seat(values: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    """``values`` with the entry of ``seat`` replaced (states are immutable)."""
    return (*values[:seat], value, *values[seat + 1:])


def deal_unseen(me: int, my_hand: int, unknown: int, need: Sequence[int],
                voids: Sequence[int], suit_mask: Sequence[int], fixed: Sequence[int],
                rng: random.Random, *, tries: int = 20) -> tuple[int, int, int, int]:
    """One deal of the ``unknown`` cards (a mask) to the other seats, for a determinized search.

    Seat ``me`` keeps ``my_hand``; every other seat ``s`` gets ``need[s]`` unknown cards, none
    of a suit it showed out of (``voids[s]``: bit ``suit`` set; ``suit_mask[suit]``: that suit's
    cards under the current trump), plus the cards ``fixed[s]`` known to be there. Greedy with
    retries, the most constrained seat first; after ``tries`` failures the voids are dropped
    rather than fail (a view is always consistent, so that only guards against bad luck).
    Cards left over stay undealt (a kitty).
    """
    others = [s for s in range(4) if s != me]
    pool = cards_of(unknown)
    allowed = {}
    for s in others:
        banned = 0
        for suit in range(4):
            if voids[s] >> suit & 1:
                banned |= suit_mask[suit]
        allowed[s] = ~banned
    order = sorted(others, key=lambda s: -bin(voids[s]).count("1"))
    for attempt in range(tries + 1):
        rng.shuffle(pool)
        hands = [0, 0, 0, 0]
        hands[me] = my_hand
        taken = 0
        ok = True
        for s in order:
            mask = allowed[s] if attempt < tries else -1
            got = 0
            n = need[s]
            if n:
                for c in pool:
                    b = BIT[c]
                    if not taken & b and mask & b:
                        got |= b
                        n -= 1
                        if not n:
                            break
            if n:
                ok = False
                break
            taken |= got
            hands[s] = got | fixed[s]
        if ok:
            return (hands[0], hands[1], hands[2], hands[3])
    raise AssertionError("unreachable: the last try ignores voids")
