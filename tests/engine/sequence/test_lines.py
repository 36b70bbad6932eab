"""Long lines score at their best whatever order their chips went down in (issue 19).

The rule (docs/rules/sequence.md, "Sequences"): two sequences of one team may share at most
one square, so along one straight line the team scores the largest number of five-square
windows that can be laid with pairwise overlaps of at most one square (a nine or a ten: two),
and every chip of the team that lies in a complete line of five is protected from one-eyed
jacks. Both must hold after every chip, for every order the chips of a line can go down in.

Every order, honestly and fast. The engine's chip transition (``put_chip``) is a
deterministic function of (position, square). So the positions that some order of a line's
chips can reach after placing a subset ``S`` are exactly those reached from the positions of
``S`` minus one square by placing that square: a walk over the 2^n subsets, keeping each
distinct position once with the number of orders that lead to it, follows every one of the n!
orders (each is a path through it) and counts exactly how many go wrong. Measured: driving the
9! = 362,880 orders of one line of nine through ``put_chip`` one by one takes about 5 s; the
walk takes 0.01 s for a nine and 0.03 s for a ten (10! orders), with the same counts.

Before the fix (rules 1.0), 137,520 of the 362,880 orders of a line of nine ended with one
sequence, not two (38%: the issue's "about a third"), as did 856,800 of the 3,628,800 orders
of a ten without corners and 9,120 of the 40,320 orders of a ten between two corners; counting
the protected chips too, 241,920, 3,265,920 and 26,208 orders went wrong somewhere.

The full engine, honestly and fast too: what the engine decides when a chip goes down depends
only on which windows of five that chip completes (it completes only windows through itself)
and on what it decided before, so only the order of the sequence-completing moments matters.
The orders of a line fall into a few dozen such classes (81 for a nine; before the fix 57 of
them ended one sequence short). One order of each class of every line is played through
``Match`` with a real deal, checking the score, the locked chips and the one-eyed jack's
targets after every chip.

The reference is computed here from scratch (brute force over sets of windows), not from the
engine's tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import factorial

import pytest

from engine.sequence.data import Remove
from engine.sequence.options import Rules
from engine.sequence.state import State, new_state, put_chip, take_chip
from tests.engine.sequence.scenario import Move, at, scripted

FIVE = 5
MAY_SHARE = 1  # the commercial rule: two sequences of one team share at most one square
CORNERS = {(0, 0), (0, 9), (9, 0), (9, 9)}

Square = tuple[int, int]


@dataclass(frozen=True)
class Line:
    """A straight line of squares, in order; the team fills its playable ones."""

    name: str
    squares: tuple[Square, ...]
    blocked: tuple[Square, ...] = ()  # opposing chips placed first (the ends of the line)

    @property
    def free(self) -> tuple[int, ...]:
        """Positions along the line that take a chip (the corners are always there)."""
        return tuple(i for i, sq in enumerate(self.squares) if sq not in CORNERS)

    @property
    def fixed(self) -> frozenset[int]:
        return frozenset(i for i, sq in enumerate(self.squares) if sq in CORNERS)


NINES = [
    Line("row 8, cols 0-8", tuple((8, c) for c in range(9))),
    Line("column 4, rows 1-9", tuple((r, 4) for r in range(1, 10))),
    Line("diagonal (0,1)-(8,9)", tuple((r, r + 1) for r in range(9))),
    Line("anti-diagonal (1,9)-(9,1)", tuple((r, 10 - r) for r in range(1, 10))),
    Line("row 5, cols 1-9, an opposing chip on (5,0)", tuple((5, c) for c in range(1, 10)),
         blocked=((5, 0),)),
]
TENS = [
    Line("row 4", tuple((4, c) for c in range(10))),
    Line("column 6", tuple((r, 6) for r in range(10))),
    Line("row 0, between two corners", tuple((0, c) for c in range(10))),
    Line("column 9, between two corners", tuple((r, 9) for r in range(10))),
    Line("diagonal (0,0)-(9,9), corner to corner", tuple((r, r) for r in range(10))),
    Line("anti-diagonal (0,9)-(9,0), corner to corner", tuple((r, 9 - r) for r in range(10))),
]
LINES = NINES + TENS


# -- the reference: brute force over sets of windows -----------------------------------------------


@cache
def best(n: int, present: frozenset[int]) -> tuple[int, frozenset[int]]:
    """For a line of ``n`` squares of which ``present`` count for the team: the most windows
    of five that can be laid with pairwise overlaps of at most MAY_SHARE squares, and every
    position covered by a window of some arrangement that many windows make."""
    windows = [frozenset(range(p, p + FIVE)) for p in range(n - FIVE + 1)]
    complete = [w for w in windows if w <= present]
    for k in range(len(complete), 0, -1):
        covered: set[int] = set()
        for chosen in combinations(complete, k):
            if all(len(a & b) <= MAY_SHARE for a, b in combinations(chosen, 2)):
                covered.update(*chosen)
        if covered:
            return k, frozenset(covered)
    return 0, frozenset()


def sq_bit(sq: Square) -> int:
    return 1 << (sq[0] * 10 + sq[1])


def problem(line: Line, st: State, present: frozenset[int]) -> str | None:
    """What is wrong with the engine's position ``st`` for team 0 on ``line``, or None."""
    count, covered = best(len(line.squares), present)
    seqs = st.seqs[0]
    if len(seqs) != count:
        return f"{len(seqs)} sequences, the best is {count}"
    mine = st.chips[0] | sum(sq_bit(sq) for sq in CORNERS)
    for a in seqs:
        if a & mine != a or a.bit_count() != FIVE:
            return "a sequence that is not five of the team's squares"
    for a, b in combinations(seqs, 2):
        if (a & b).bit_count() > MAY_SHARE:
            return "two sequences share two squares"
    want = sum(sq_bit(line.squares[i]) for i in covered if line.squares[i] not in CORNERS)
    if st.locked != want:
        return "the protected chips are not those of the line's best sequences"
    return None


# -- every order: the walk over subsets ---------------------------------------------------------


def start(line: Line) -> State:
    st = new_state(Rules.from_options(2, {"sequences_to_win": 6}), seed=0)
    for sq in line.blocked:
        put_chip(st, 1, sq[0] * 10 + sq[1])
    return st


@dataclass
class Walk:
    orders: int  # how many orders of the line's chips there are
    short: int  # how many of them end with fewer sequences than the line is worth
    failed: int  # how many of them were wrong in any way after some chip
    example: tuple[Square, ...] | None  # one order that went wrong, and how
    why: str | None


def every_order(line: Line) -> Walk:
    """Every order of filling ``line``: the positions reachable after each subset, each kept
    once with how many orders reach it, what first went wrong on the way, and one such order."""
    free = line.free
    Entry = tuple[State, int, str | None, tuple[int, ...]]
    layer: dict[tuple[object, ...], Entry] = {(): (start(line), 1, None, ())}
    for _ in free:
        nxt: dict[tuple[object, ...], Entry] = {}
        for st, n, why, order in layer.values():
            for i in free:
                if i in order:
                    continue
                new = st.copy()
                sq = line.squares[i]
                put_chip(new, 0, sq[0] * 10 + sq[1])
                present = line.fixed | frozenset((*order, i))
                wrong = why or problem(line, new, present)
                key = (new.chips, new.seqs, new.locked, wrong)
                if key in nxt:
                    s0, n0, w0, o0 = nxt[key]
                    nxt[key] = (s0, n0 + n, w0, o0)
                else:
                    nxt[key] = (new, n, wrong, (*order, i))
        layer = nxt
    worth = best(len(line.squares), frozenset(range(len(line.squares))))[0]
    # Orders that end short first, so that the example shows the worst.
    ends = sorted(layer.values(), key=lambda e: len(e[0].seqs[0]))
    failed = [(n, why, o) for _, n, why, o in ends if why]
    return Walk(
        orders=sum(n for _, n, _, _ in layer.values()),
        short=sum(n for st, n, _, _ in layer.values() if len(st.seqs[0]) < worth),
        failed=sum(n for n, _, _ in failed),
        example=tuple(line.squares[i] for i in failed[0][2]) if failed else None,
        why=failed[0][1] if failed else None)


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.name)
def test_every_fill_order_of_a_line_scores_at_its_best(line: Line) -> None:
    walk = every_order(line)
    assert walk.orders == factorial(len(line.free))
    assert walk.short == 0 and walk.failed == 0, (
        f"of the {walk.orders} orders of {line.name}, {walk.short} end with too few "
        f"sequences and {walk.failed} go wrong after some chip; for example "
        f"{walk.example} (where it first went wrong: {walk.why})")


# -- the full engine: one order per class --------------------------------------------------------


def order_classes(line: Line) -> list[tuple[int, ...]]:
    """One order of the line's free positions for each distinct way its windows of five can
    come to be completed (which windows each completing chip completes, in order)."""
    n = len(line.squares)
    windows = [frozenset(range(p, p + FIVE)) for p in range(n - FIVE + 1)]
    layer: dict[tuple[frozenset[int], tuple[tuple[int, ...], ...]], tuple[int, ...]] = {
        (line.fixed, ()): ()}
    for _ in line.free:
        nxt: dict[tuple[frozenset[int], tuple[tuple[int, ...], ...]], tuple[int, ...]] = {}
        for (present, made), order in layer.items():
            for i in line.free:
                if i in present:
                    continue
                now = present | {i}
                done = tuple(p for p, w in enumerate(windows) if i in w and w <= now)
                nxt.setdefault((now, (*made, done) if done else made), (*order, i))
        layer = nxt
    return sorted(layer.values())


def filler(line: Line, count: int) -> list[Square]:
    """Squares for the other seat: off the line and its blocks, never two side by side (so
    they never make a line), far from the line first."""
    taken = set(line.squares) | set(line.blocked)
    out: list[Square] = []
    for r in range(10):
        for c in range(10):
            sq = (r, c)
            if sq in taken or sq in CORNERS:
                continue
            if any(abs(r - a) <= 1 and abs(c - b) <= 1 for a, b in [*out, *taken]):
                continue
            out.append(sq)
    assert len(out) >= count, f"not enough filler squares for {line.name}"
    return out[:count]


def test_the_orders_fall_into_few_classes() -> None:
    assert [len(order_classes(line)) for line in LINES] == [81] * len(NINES) + [242] * 2 + [42] * 4


def play_line(line: Line, order: Sequence[int]) -> None:
    """Seat 0 lays the line in ``order`` (seat 1 plays elsewhere, holding a one-eyed jack);
    after each chip the view shows the best score and locks exactly the chips of the line's
    best sequences, and the jack may take exactly the others."""
    seat0 = [at(*line.squares[i]) for i in order]
    spots = filler(line, len(seat0))
    seat1 = [at(*sq) for sq in (*line.blocked, *spots)][:len(seat0)]
    moves: list[Move] = [(s, a) for pair in zip(seat0, seat1, strict=True)
                         for s, a in enumerate(pair)]
    m = scripted(2, moves, {"sequences_to_win": 6}, extra={1: ["JH"]})
    present = set(line.fixed)
    for k, i in enumerate(order):
        m.act(0, seat0[k])
        present.add(i)
        count, covered = best(len(line.squares), frozenset(present))
        v = m.view(1)
        where = f"{line.name}, order {[line.squares[j] for j in order[:k + 1]]}"
        assert v.score == (count, 0), where
        protected = {line.squares[j] for j in covered} - CORNERS
        assert set(v.locked) == protected, where
        targets = {(a.row, a.col) for a in m.legal(1) if isinstance(a, Remove)}
        on_line = {line.squares[j] for j in present} - CORNERS
        assert targets == on_line - protected, where
        for s in v.sequences:
            assert s.team == 0 and set(s.squares) <= set(line.squares), where
        assert m.outcome() is None
        m.act(1, seat1[k])


@pytest.mark.parametrize("line", LINES, ids=lambda line: line.name)
def test_one_order_of_each_class_through_the_full_engine(line: Line) -> None:
    for order in order_classes(line):
        play_line(line, order)


# -- fill_board: a one-eyed jack breaks a line, which is counted again at its best ---------------


@pytest.mark.parametrize("line", [NINES[0], TENS[0], TENS[4]], ids=lambda line: line.name)
def test_every_part_of_a_full_line_left_by_removals_scores_at_its_best(line: Line) -> None:
    """Every subset of the line, left by taking the other chips off the full line (fill_board
    lets a one-eyed jack take protected chips), first to last and last to first."""
    full = start(line)
    for i in line.free:
        put_chip(full, 0, line.squares[i][0] * 10 + line.squares[i][1])
    free = line.free
    for keep in range(1 << len(free)):
        kept = frozenset(i for k, i in enumerate(free) if keep >> k & 1)
        for order in (free, free[::-1]):
            st = full.copy()
            for i in order:
                if i not in kept:
                    take_chip(st, 0, line.squares[i][0] * 10 + line.squares[i][1])
            assert problem(line, st, line.fixed | kept) is None, (line.name, sorted(kept))


def test_a_chip_protected_by_a_crossing_line_stays_protected_when_its_row_breaks() -> None:
    row = [(8, c) for c in range(5)]
    column = [(r, 4) for r in range(4, 8)]  # (4, 4)..(8, 4) with the row's (8, 4)
    st = start(NINES[0])
    for r, c in (*row, *column):
        put_chip(st, 0, r * 10 + c)
    assert len(st.seqs[0]) == 2
    take_chip(st, 0, 80)  # (8, 0): the row is broken, the column is not
    assert len(st.seqs[0]) == 1
    assert st.locked == sum(sq_bit(sq) for sq in [*column, (8, 4)])
