"""Card codes shared by the card games: two characters, rank then suit.

Ranks ``A 2-9 T J Q K``, suits ``S H D C`` (``TH``, ``JD``, ``AS``). Games may use any
internal form that is faster; on the wire and in records a card is always this code.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")


def deck(ranks: str = RANKS, suits: str = SUITS) -> tuple[str, ...]:
    """One deck of the given ranks and suits, in a fixed order (suit-major)."""
    return tuple(r + s for s in suits for r in ranks)


def is_card(code: object, ranks: str = RANKS, suits: str = SUITS) -> bool:
    return isinstance(code, str) and len(code) == 2 and code[0] in ranks and code[1] in suits


def rank(code: str) -> str:
    return code[0]


def suit(code: str) -> str:
    return code[1]


def cards_of(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, lowest first (games keep hands as bit masks)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
