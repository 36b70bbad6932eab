"""The Sequence board: layouts, geometry and the precomputed line tables the rules run on.

Squares are numbered ``row * 10 + col`` and a set of squares is an ``int`` bit mask, so "does
team t own all five squares of this line" is one ``&``. Cards are ints internally (the index
of their two-character code in ``CARDS``); layouts are 100 card ints with ``FREE`` (-1) for the
four corners.

This module owns the commercial layout (embedded: engine code never opens files), the check
that a layout is a possible one, and the seeded generator for ``board=random``. It must never
do I/O or use the global random generator: generation takes the caller's ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Generic, TypeVar

from engine.cards import deck

SIZE = 10
SQUARES = SIZE * SIZE
FREE = -1  # a free corner: counts for every team, never holds a chip
FREE_CODE = "XX"

CARDS: tuple[str, ...] = deck()  # 52 codes, suit-major: AS 2S .. KS AH .. KC
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARDS)}
TWO_EYED: tuple[int, ...] = (CARD_INDEX["JD"], CARD_INDEX["JC"])  # wild: any empty square
ONE_EYED: tuple[int, ...] = (CARD_INDEX["JH"], CARD_INDEX["JS"])  # remove an opposing chip
JACKS = frozenset(TWO_EYED + ONE_EYED)
BOARD_CARDS: tuple[int, ...] = tuple(i for i in range(len(CARDS)) if i not in JACKS)
COPIES = 2  # two decks shuffled together

T = TypeVar("T")

# The commercial (Jax Ltd.) layout, row 0 being the 2S..9S edge. A test checks it against an
# independent, cross-checked transcription (tests/engine/sequence/data/).
COMMERCIAL_ROWS: tuple[tuple[str, ...], ...] = (
    ("XX", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "XX"),
    ("6C", "5C", "4C", "3C", "2C", "AH", "KH", "QH", "TH", "TS"),
    ("7C", "AS", "2D", "3D", "4D", "5D", "6D", "7D", "9H", "QS"),
    ("8C", "KS", "6C", "5C", "4C", "3C", "2C", "8D", "8H", "KS"),
    ("9C", "QS", "7C", "6H", "5H", "4H", "AH", "9D", "7H", "AS"),
    ("TC", "TS", "8C", "7H", "2H", "3H", "KH", "TD", "6H", "2D"),
    ("QC", "9S", "9C", "8H", "9H", "TH", "QH", "QD", "5H", "3D"),
    ("KC", "8S", "TC", "QC", "KC", "AC", "AD", "KD", "4H", "4D"),
    ("AC", "7S", "6S", "5S", "4S", "3S", "2S", "2H", "3H", "5D"),
    ("XX", "AD", "KD", "QD", "TD", "9D", "8D", "7D", "6D", "XX"),
)

CORNERS: tuple[int, ...] = (0, SIZE - 1, SQUARES - SIZE, SQUARES - 1)
CORNER_MASK = sum(1 << s for s in CORNERS)
ALL_MASK = (1 << SQUARES) - 1
PLAYABLE_MASK = ALL_MASK & ~CORNER_MASK  # the 96 squares that can hold a chip
BITS: tuple[int, ...] = tuple(1 << s for s in range(SQUARES))

DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (1, -1))
LINE = 5


def _inside(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def _windows() -> tuple[tuple[int, tuple[int, ...], int], ...]:
    out = []
    for d, (dr, dc) in enumerate(DIRECTIONS):
        for r in range(SIZE):
            for c in range(SIZE):
                cells = [(r + k * dr, c + k * dc) for k in range(LINE)]
                if all(_inside(*rc) for rc in cells):
                    squares = tuple(rr * SIZE + cc for rr, cc in cells)
                    out.append((sum(1 << s for s in squares), squares, d))
    return tuple(out)


# Every five-square line on the board: (mask, squares, direction). 192 of them.
WINDOWS = _windows()
WINDOW_MASKS: tuple[int, ...] = tuple(w[0] for w in WINDOWS)
WINDOW_SQUARES: dict[int, tuple[int, ...]] = {w[0]: w[1] for w in WINDOWS}


def _windows_at() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per square, per direction: the masks of the lines through it, ordered along the line."""
    out = []
    for s in range(SQUARES):
        per_dir: list[list[int]] = [[] for _ in DIRECTIONS]
        for mask, squares, d in WINDOWS:
            if s in squares:
                per_dir[d].append(mask)
        out.append(tuple(tuple(m) for m in per_dir))
    return tuple(out)


WINDOWS_AT = _windows_at()

# -- long lines: how many sequences a straight run of a team's squares is worth ---------------
# Two sequences of one team may share at most SHARE squares (the commercial rule). Windows in
# different directions, on parallel lines, or in runs of one line split by a gap share at most
# one square anyway, so a team's best count is the sum over its runs (maximal stretches of its
# squares along one board line) of the most windows one run can hold: a run of 5 to 8 holds
# one, of 9 or 10 two. Which windows show as its sequences is a choice made per run (state.py).
# On a board of ten every square of a run lies in a window of one of its best arrangements,
# so the chips "in a counted sequence of some best arrangement" (the protected ones) are
# simply every chip of a complete window (tests check this from the tables below).
# Not a knob: with 0, lines crossing at a chip would compete and runs would not be independent.
SHARE = 1


def _board_lines() -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every straight line across the board long enough for a sequence: (squares in order,
    direction)."""
    out = []
    for d, (dr, dc) in enumerate(DIRECTIONS):
        for r in range(SIZE):
            for c in range(SIZE):
                if _inside(r - dr, c - dc):
                    continue  # not where a line enters the board
                squares = []
                rr, cc = r, c
                while _inside(rr, cc):
                    squares.append(rr * SIZE + cc)
                    rr, cc = rr + dr, cc + dc
                if len(squares) >= LINE:
                    out.append((tuple(squares), d))
    return tuple(out)


# The 42 board lines (10 rows, 10 columns, 11 diagonals each way), each as its squares in
# order, its mask, and the masks of its windows by where they start along it.
_LINES_AND_DIRECTIONS = _board_lines()
BOARD_LINES: tuple[tuple[int, ...], ...] = tuple(sq for sq, _ in _LINES_AND_DIRECTIONS)
BOARD_LINE_MASKS: tuple[int, ...] = tuple(sum(1 << s for s in line) for line in BOARD_LINES)
BOARD_LINE_WINDOWS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << s for s in line[p:p + LINE]) for p in range(len(line) - LINE + 1))
    for line in BOARD_LINES)


def _line_at() -> tuple[tuple[int, ...], ...]:
    out = [[-1] * len(DIRECTIONS) for _ in range(SQUARES)]
    for i, (squares, d) in enumerate(_LINES_AND_DIRECTIONS):
        for s in squares:
            out[s][d] = i
    return tuple(tuple(x) for x in out)


# Per square, per direction: the index of the board line through it, or -1 where the
# diagonal through it is too short to hold a sequence (near the corners).
LINE_AT = _line_at()


def _arrangements(length: int) -> tuple[tuple[int, ...], ...]:
    """Every largest set of windows a run of ``length`` squares holds (windows by where they
    start in the run, pairwise sharing at most SHARE squares), in board order."""
    step = LINE - SHARE
    found: list[tuple[int, ...]] = []

    def extend(starts: tuple[int, ...], first: int) -> None:
        found.append(starts)
        for p in range(first, length - LINE + 1):
            extend((*starts, p), p + step)

    extend((), 0)
    most = max(map(len, found))
    return tuple(sorted(a for a in found if len(a) == most))


# ARRANGEMENTS[n]: the largest arrangements of a run of n squares (below five: no window).
ARRANGEMENTS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    _arrangements(n) if n >= LINE else ((),) for n in range(SIZE + 1))

# Every line through a square, flat (for evaluation code that does not care about direction).
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for d in per for m in d) for per in WINDOWS_AT
)


def _capture_lines() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per square: (first, second, far) bits for each of the eight directions that fit."""
    out = []
    for s in range(SQUARES):
        r, c = divmod(s, SIZE)
        lines = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr, dc) == (0, 0) or not _inside(r + 3 * dr, c + 3 * dc):
                    continue
                a, b, far = ((r + k * dr) * SIZE + c + k * dc for k in (1, 2, 3))
                lines.append((1 << a, 1 << b, 1 << far))
        out.append(tuple(lines))
    return tuple(out)


CAPTURE_LINES = _capture_lines()


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out = []
    for s in range(SQUARES):
        r, c = divmod(s, SIZE)
        out.append(tuple(
            (r + dr) * SIZE + c + dc
            for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and _inside(r + dr, c + dc)
        ))
    return tuple(out)


NEIGHBOURS = _neighbours()


_BYTES = (SQUARES + 7) // 8
_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(k for k in range(8) if b >> k & 1) for b in range(256))


def squares_of(mask: int) -> list[int]:
    """The square numbers set in ``mask``, ascending."""
    return [8 * i + k for i, b in enumerate(mask.to_bytes(_BYTES, "little")) if b
            for k in _BYTE_BITS[b]]


class Picker(Generic[T]):
    """One object per square, picked out by a mask a byte at a time (cached per byte value).

    Legal-move lists are mostly "this action for every square in that mask"; picking whole
    cached tuples avoids a Python-level step per square.
    """

    __slots__ = ("_cache", "_items")

    def __init__(self, items: Sequence[T]) -> None:
        self._items = tuple(items)
        self._cache: list[dict[int, tuple[T, ...]]] = [{} for _ in range(_BYTES)]

    def pick(self, mask: int, out: list[T]) -> None:
        """Append the objects of the squares in ``mask`` to ``out``, ascending."""
        cache = self._cache
        for i, b in enumerate(mask.to_bytes(_BYTES, "little")):
            if b:
                got = cache[i].get(b)
                if got is None:
                    got = cache[i][b] = tuple(self._items[8 * i + k] for k in _BYTE_BITS[b])
                out.extend(got)


def rc(square: int) -> tuple[int, int]:
    return divmod(square, SIZE)


# -- layouts ---------------------------------------------------------------------------------
Layout = tuple[int, ...]  # 100 card ints, FREE at the corners


def layout_from_rows(rows: Sequence[Sequence[str]]) -> Layout:
    """Card ints of a layout given as 10 rows of codes (no checks: see ``layout_problem``)."""
    return tuple(FREE if code == FREE_CODE else CARD_INDEX[code] for row in rows for code in row)


def rows_of(layout: Layout) -> tuple[tuple[str, ...], ...]:
    codes = [FREE_CODE if c == FREE else CARDS[c] for c in layout]
    return tuple(tuple(codes[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))


COMMERCIAL: Layout = layout_from_rows(COMMERCIAL_ROWS)


def layout_problem(rows: object, *, twins_apart: bool) -> str | None:
    """Why ``rows`` is not a possible layout, or None. ``twins_apart``: the random-board rule."""
    if not isinstance(rows, (tuple, list)) or len(rows) != SIZE:
        return "a layout is 10 rows"
    cells: list[str] = []
    for row in rows:
        if not isinstance(row, (tuple, list)) or len(row) != SIZE:
            return "each row has 10 squares"
        cells.extend(row)
    for s, code in enumerate(cells):
        if (code == FREE_CODE) != (s in CORNERS):
            return "the four corners, and only they, are free (XX)"
        if code != FREE_CODE and (code not in CARD_INDEX or CARD_INDEX[code] in JACKS):
            return f"{code!r} is not a card that belongs on the board"
    counts: dict[str, int] = {}
    for code in cells:
        counts[code] = counts.get(code, 0) + 1
    if any(counts.get(CARDS[c], 0) != COPIES for c in BOARD_CARDS):
        return "each of the 48 non-jack cards appears exactly twice"
    if twins_apart:
        for s, code in enumerate(cells):
            if code != FREE_CODE and any(cells[n] == code for n in NEIGHBOURS[s]):
                return f"{code} is next to its twin"
    return None


def _conflicted(cells: list[int], s: int) -> bool:
    v = cells[s]
    return v != FREE and any(cells[n] == v for n in NEIGHBOURS[s])


def random_layout(rng: random.Random) -> Layout:
    """A layout with each non-jack card twice, free corners, and no card beside its twin.

    A shuffle leaves a handful of twins adjacent; each is swapped with a random square for
    which the swap clears both places. Deterministic for a given generator state.
    """
    free_squares = [s for s in range(SQUARES) if s not in CORNERS]
    cards = [c for c in BOARD_CARDS for _ in range(COPIES)]
    rng.shuffle(cards)
    cells = [FREE] * SQUARES
    for s, c in zip(free_squares, cards, strict=True):
        cells[s] = c
    while True:
        bad = [s for s in free_squares if _conflicted(cells, s)]
        if not bad:
            return tuple(cells)
        s = bad[0]
        for _ in range(1000):
            t = free_squares[rng.randrange(len(free_squares))]
            cells[s], cells[t] = cells[t], cells[s]
            if not _conflicted(cells, s) and not _conflicted(cells, t):
                break
            cells[s], cells[t] = cells[t], cells[s]
        else:  # pragma: no cover - a full board always has room; reshuffle to be safe
            rng.shuffle(cards)
            for sq, c in zip(free_squares, cards, strict=True):
                cells[sq] = c
