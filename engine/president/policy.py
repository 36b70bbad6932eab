"""Rank-count play policies and a fast round simulator, for the computer players.

Suits never matter to President's rules, so a hand here is 13 counts indexed by rank (0 is
the 3, 12 the 2, as in ``engine.president.cards``). A choice is ``(rank, size)`` or ``None``
for a pass. ``simulate`` plays the rest of a round on such hands (the hard player's
rollouts) with the same trick rules as ``engine.president.rules``, which the tests check by
playing both side by side.

This module owns heuristics only; it must never see a state or a view (ai.py turns a view
into counts) and never use a generator it was not given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.president.cards import NRANKS
from engine.president.rules import NEXT

Choice = tuple[int, int] | None
Counts = list[int]
# policy(hand, top_rank, top_size (0 when leading), reversed, cards in hand) -> choice
Policy = Callable[[Counts, int, int, bool, int], Choice]

ASCENDING = tuple(range(NRANKS))
DESCENDING = tuple(range(NRANKS - 1, -1, -1))


def weakest_first(reversed_order: bool) -> tuple[int, ...]:
    return DESCENDING if reversed_order else ASCENDING


def stronger(top: int, reversed_order: bool) -> range:
    """Ranks that beat ``top`` in the order in force, weakest first."""
    return range(top - 1, -1, -1) if reversed_order else range(top + 1, NRANKS)


def easy(hand: Counts, top: int, size: int, rev: bool, held: int) -> Choice:
    """The lowest legal combination: the weakest rank that can play, all of it on a lead."""
    if size == 0:
        for r in weakest_first(rev):
            if hand[r]:
                return r, hand[r]
        return None
    for r in stronger(top, rev):
        if hand[r] >= size:
            return r, size
    return None


def free_groups(hand: Counts, rev: bool) -> int:
    """Groups that are neither the strongest rank nor four of a kind (the lead-winners)."""
    best = 0 if rev else NRANKS - 1
    return sum(1 for r in range(NRANKS) if hand[r] and hand[r] != 4 and r != best)


def normal(hand: Counts, top: int, size: int, rev: bool, held: int) -> Choice:
    """Keep the strongest rank and fours of a kind to win the lead back; play whole groups.

    Lead: of the two weakest free groups, a pair or more if there is one (multiples are
    harder to beat), else the weakest. Follow: the weakest whole group that beats; else a 2
    (the strongest rank) when at most three free groups remain; else break the weakest
    group that beats (never a four of a kind) rather than pass: a pass gives the others
    time. Close to going out (two free groups or fewer), anything that beats."""
    best = 0 if rev else NRANKS - 1
    if size == 0:
        free = [r for r in weakest_first(rev) if hand[r] and hand[r] != 4 and r != best]
        if not free:
            keeper = next((r for r in weakest_first(rev) if hand[r]), None)
            return None if keeper is None else (keeper, hand[keeper])
        for r in free[:2]:
            if hand[r] >= 2:
                return r, hand[r]
        return free[0], hand[free[0]]
    keeper = broken = first = None
    for r in stronger(top, rev):
        n = hand[r]
        if n < size:
            continue
        if size == 4:
            return r, 4
        if first is None:
            first = r
        if r == best:
            keeper = r
        elif n == size:
            return r, size
        elif broken is None and n != 4:
            broken = r
    if first is None:
        return None
    groups = free_groups(hand, rev)
    if keeper is not None and hand[keeper] == size and groups <= 3:
        return keeper, size
    if broken is not None:
        return broken, size
    if groups <= 2:
        return first, size
    return None


def simulate(hands: list[Counts], held: list[int], me: int, turn: int, first: Choice,
             top: int, size: int, last: int, passed: int, out: int, rev: bool,
             revolution: bool, finished: int, policies: Sequence[Policy]) -> int:
    """Play on until ``me`` empties its hand; return its finishing place (0 is first).

    ``turn`` is ``me`` and ``first`` its action; ``top``/``size``/``last`` the trick's top
    play (size 0: no trick) and who made it; ``passed``/``out`` seat masks; ``finished`` how
    many have gone out. Mutates ``hands`` and ``held``."""
    n = len(hands)
    everyone = (1 << n) - 1
    nexts = NEXT[n]
    choice = first
    seat = turn
    while True:
        if choice is not None:
            r, k = choice
            hands[seat][r] -= k
            held[seat] -= k
            if k == 4 and revolution:
                rev = not rev
            top, size, last = r, k, seat
            if not held[seat]:
                out |= 1 << seat
                if seat == me:
                    return finished
                finished += 1
                if finished == n - 1:
                    return n - 1
        else:
            passed |= 1 << seat
        # As in rules.py: the next seat still in the trick, or the trick is won and cleared.
        contenders = everyone & ~out & ~passed & ~(1 << last)
        if contenders:
            seat = nexts[contenders][seat]
        else:
            size, passed = 0, 0
            seat = last if held[last] else nexts[everyone & ~out][last]
        choice = policies[seat](hands[seat], top, size, rev, held[seat])
