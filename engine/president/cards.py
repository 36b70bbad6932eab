"""President's internal card encoding: ints and 52-bit masks, and their wire codes.

A card is ``rank * 4 + suit``. ``rank`` 0..12 follows the normal President order, weakest to
strongest (3 4 5 6 7 8 9 10 J Q K A 2), so comparing ranks needs no table; ``suit`` 0..3 is
clubs, diamonds, hearts, spades (bridge order: it only decides which of two equal cards is
"best" when one must be given away, never anything in play). A hand is an ``int`` bit mask:
bit ``card`` is set when the card is held, and the four suits of a rank sit in one nibble.

On the wire a card is the two-character code of ``engine.cards`` (``TH``, ``2S``). This module
owns the conversion both ways; it must never know about game state.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.cards import cards_of as cards_of  # re-exported: this game imports it from here

RANK_CHARS = "3456789TJQKA2"  # normal order, weakest first
SUIT_CHARS = "CDHS"  # the order in which equal ranks are ranked, lowest first
NORMAL_ORDER = RANK_CHARS
REVERSED_ORDER = RANK_CHARS[::-1]
NRANKS = 13
FULL_DECK = (1 << 52) - 1
TWO = 12  # the strongest rank in the normal order

CODES: tuple[str, ...] = tuple(r + s for r in RANK_CHARS for s in SUIT_CHARS)
CARD_OF: dict[str, int] = {c: i for i, c in enumerate(CODES)}
# The four cards of one rank as a mask, by rank.
RANK_MASK: tuple[int, ...] = tuple(15 << (4 * r) for r in range(NRANKS))
POPCOUNT4: tuple[int, ...] = tuple(bin(m).count("1") for m in range(16))


# _BYTE_CODES[i][b]: the codes of the cards of byte b at byte i of a mask (ranks 2i and 2i+1),
# weakest first; a mask's codes are then seven lookups joined, not a step per card.
_BYTE_CODES: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(CODES[8 * i + k] for k in range(8) if b >> k & 1 and 8 * i + k < len(CODES))
          for b in range(256))
    for i in range(7))


def codes(mask: int) -> tuple[str, ...]:
    """The codes of the cards in ``mask`` (52 bits), weakest first (normal order, then suit)."""
    t = _BYTE_CODES
    return (t[0][mask & 255] + t[1][mask >> 8 & 255] + t[2][mask >> 16 & 255]
            + t[3][mask >> 24 & 255] + t[4][mask >> 32 & 255] + t[5][mask >> 40 & 255]
            + t[6][mask >> 48])


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse(code_list: Iterable[str]) -> int | None:
    """The mask of these codes, or None if one is not a card or a card repeats."""
    m = 0
    for code in code_list:
        c = CARD_OF.get(code) if isinstance(code, str) else None
        if c is None or m >> c & 1:
            return None
        m |= 1 << c
    return m


def rank_counts(mask: int) -> list[int]:
    """How many cards of each rank ``mask`` holds, indexed by rank."""
    return [POPCOUNT4[(mask >> (4 * r)) & 15] for r in range(NRANKS)]


def best_cards(mask: int, n: int) -> int:
    """The ``n`` highest cards of ``mask`` in the normal order (suits break ties)."""
    out = 0
    for _ in range(n):
        if not mask:
            break
        top = 1 << (mask.bit_length() - 1)
        out |= top
        mask ^= top
    return out
