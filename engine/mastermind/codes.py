"""Mastermind codes: the table a code belongs to, every code of it, and the scoring.

A code is a tuple of pegs, one per hole; a peg is a colour ``1..colours``, or ``BLANK`` (0)
where the table allows blanks. A blank is scored exactly like one more colour (a blank in
the same hole is a black peg, elsewhere it can be a white one), which is how the boxed game
counts an empty hole when blanks are allowed (docs/rules/mastermind.md).

``feedback`` is the rule the whole game hangs on: black = holes where code and guess agree;
white = sum over colours of min(count in code, count in guess), minus black. So a colour is
counted at most as often as it occurs in the code (and in the guess).

This module owns the shape of codes and the scoring. It must never hold game state, do I/O,
or use any generator but the one it is handed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import permutations, product

Code = tuple[int, ...]
BLANK = 0


@dataclass(frozen=True)
class Table:
    """The shape of the codes of one table: holes, colours, and the two toggles."""

    holes: int = 4
    colours: int = 6
    blanks: bool = False
    duplicates: bool = True

    @cached_property
    def palette(self) -> tuple[int, ...]:
        """Every peg a hole may hold, blank first when allowed."""
        return ((BLANK,) if self.blanks else ()) + tuple(range(1, self.colours + 1))

    @property
    def size(self) -> int:
        """How many codes there are (1,296 on the standard table)."""
        n = len(self.palette)
        if self.duplicates:
            return n ** self.holes
        out = 1
        for k in range(self.holes):
            out *= n - k
        return out

    def problem(self, code: object) -> str:
        """Why ``code`` is not a well-formed code of this table, or "" when it is."""
        if not isinstance(code, tuple) or len(code) != self.holes:
            return f"a code has {self.holes} pegs"
        allowed = self.palette
        for peg in code:
            if type(peg) is not int or peg not in allowed:
                return "a peg is a colour of the table" + (" or a blank" if self.blanks else "")
        if not self.duplicates and len(set(code)) != len(code):
            return "no colour may repeat in a code"
        return ""

    def draw(self, rng: random.Random) -> Code:
        """A code uniformly at random among every code of the table."""
        if self.duplicates:
            return tuple(rng.choice(self.palette) for _ in range(self.holes))
        return tuple(rng.sample(self.palette, self.holes))


@cache
def all_codes(table: Table) -> tuple[Code, ...]:
    """Every code of ``table`` in increasing order (read as a number, blank lowest)."""
    if table.duplicates:
        return tuple(product(table.palette, repeat=table.holes))
    return tuple(sorted(permutations(table.palette, table.holes)))


def feedback(code: Code, guess: Code) -> tuple[int, int]:
    """(black, white) for ``guess`` against the secret ``code``."""
    black = 0
    for a, b in zip(code, guess, strict=True):
        if a == b:
            black += 1
    common = 0
    for colour in set(guess):
        n, m = code.count(colour), guess.count(colour)
        common += n if n < m else m
    return black, common - black


def score_key(code: Code, guess: Code) -> int:
    """``feedback`` as one small int, ``black * 8 + white``, for partitions and filters.

    The hot loop of the solvers: counts of each colour are compared without building a set
    (codes are at most five pegs, so ``count`` on a tuple beats a Counter)."""
    black = 0
    for a, b in zip(code, guess, strict=True):
        if a == b:
            black += 1
    common = 0
    seen = 0
    for colour in guess:
        bit = 1 << colour
        if seen & bit:
            continue
        seen |= bit
        n = code.count(colour)
        if n:
            m = guess.count(colour)
            common += n if n < m else m
    return black * 8 + common - black


def key_of(black: int, white: int) -> int:
    return black * 8 + white


def parse(text: str) -> Code:
    """``"1122"`` -> ``(1, 1, 2, 2)``: how tests and the solver's data write codes."""
    return tuple(int(ch) for ch in text)


def text(code: Code) -> str:
    return "".join(str(p) for p in code)
