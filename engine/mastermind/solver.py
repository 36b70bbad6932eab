"""Code-breaking strategies as pure functions of a table and the rows played so far.

- ``consistent``: the codes that would have given every row's feedback (memoized on the rows,
  each set filtered from the one before, so a breaker entering a guess peg by peg, or a game
  replayed, costs one filter per row).
- ``minimax_guess``: Knuth's rule: the guess whose largest feedback class is smallest,
  preferring a code that could be the secret, then the lowest code.
- ``knuth_tree``: that rule played out from 1122 on every branch of a table, as a decision
  tree (path of feedbacks -> guess). ``engine.mastermind.tree`` holds it for the standard
  table, built once by ``python -m bench.mastermind_ai --write-tree``; the tests replay it
  against all 1,296 codes.
- ``hard_guess``: the tree where it applies, else the same rule over a bounded pool of
  guesses (a fixed work budget, never the clock), so a 5-hole, 9-symbol table stays quick.

A row is ``(guess, key)`` with ``key = black * 8 + white`` (``codes.score_key``). This module
must never read a state or a view (the players in ``ai.py`` turn a view into rows), do I/O,
or use any generator but one it builds from the rows themselves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat

from engine.mastermind.codes import Code, Table, all_codes, parse, score_key, text

Row = tuple[Code, int]  # (guess, black * 8 + white)
STANDARD = Table()
# Evaluations (guess x candidate scorings) one generic hard decision may spend: at most about
# 0.6 s on the development machine for a 5-hole, 8-colour guess (once per guess: memoized
# for its later pegs). Doubling it gained nothing measurable on 5 x 8.
BUDGET = 200_000


# Bounded: an entry after one row of a 5-hole, 9-symbol table holds up to some 15,000
# codes (a pointer each), so a long-lived AI worker must not keep thousands of them.
@lru_cache(maxsize=1024)
def consistent(table: Table, rows: tuple[Row, ...]) -> tuple[Code, ...]:
    """Every code that gives each row's feedback, in code order."""
    if not rows:
        return all_codes(table)
    before = consistent(table, rows[:-1])
    guess, key = rows[-1]
    return tuple([c for c in before if score_key(c, guess) == key])


def partition_sizes(guess: Code, candidates: Sequence[Code]) -> Counter[int]:
    """How many candidates give each feedback to ``guess`` (map and Counter: the loop runs in
    C, twice as fast as counting in Python)."""
    return Counter(map(score_key, candidates, repeat(guess)))


def minimax_guess(candidates: Sequence[Code], pool: Sequence[Code]) -> Code:
    """Knuth's choice from ``pool`` (in code order): smallest worst case, then a candidate,
    then the first. ``candidates`` must hold at least one code."""
    if len(candidates) <= 2:
        return candidates[0]  # either ends it now, or the other one next
    inside = set(candidates)
    best: Code = candidates[0]
    best_rank = (len(candidates) + 1, 1)
    for g in pool:
        sizes = partition_sizes(g, candidates)
        rank = (max(sizes.values()), 0 if g in inside else 1)
        if rank < best_rank:
            best, best_rank = g, rank
    return best


def opening(table: Table) -> Code:
    """A fixed first guess: Knuth's 1122 shape (two colours twice) where duplicates are
    allowed, distinct colours where not. Colours, not blanks, so a blank is learnt about
    from the other colours' totals."""
    if not table.duplicates:
        return tuple(range(1, table.holes + 1))
    return tuple(1 + i // 2 for i in range(table.holes))


def path_key(rows: Sequence[Row]) -> str:
    """A tree path: each row's feedback as two digits, black then white."""
    return "".join(f"{k >> 3}{k & 7}" for _, k in rows)


def knuth_tree(table: Table = STANDARD, first: Code | None = None) -> dict[str, str]:
    """Knuth's strategy as a decision tree: path (``path_key``) -> guess (``text``).

    Pool: every code of the table (Knuth's full minimax). Seconds for the standard table;
    the stored copy (``engine.mastermind.tree``) saves building it per process."""
    codes = all_codes(table)
    tree: dict[str, str] = {}
    win = table.holes * 8
    stack: list[tuple[str, tuple[Code, ...]]] = [("", codes)]
    while stack:
        path, cands = stack.pop()
        guess = (first or opening(table)) if not path else minimax_guess(cands, codes)
        tree[path] = text(guess)
        classes: dict[int, list[Code]] = {}
        for c in cands:
            classes.setdefault(score_key(c, guess), []).append(c)
        for k, members in classes.items():
            if k != win:
                stack.append((path + f"{k >> 3}{k & 7}", tuple(members)))
    return dict(sorted(tree.items()))


def _stored_tree() -> dict[str, str]:
    from engine.mastermind.tree import TREE  # data module: imported on first use

    return TREE


def tree_guess(rows: Sequence[Row]) -> Code | None:
    """The stored tree's guess after ``rows`` on the standard table, or None when the rows
    left the tree (a person played them before the computer took the seat over)."""
    tree = _stored_tree()
    for i, (guess, _) in enumerate(rows):
        if tree.get(path_key(rows[:i])) != text(guess):
            return None
    move = tree.get(path_key(rows))
    return parse(move) if move is not None else None


@lru_cache(maxsize=4096)
def hard_guess(table: Table, rows: tuple[Row, ...]) -> Code:
    """Knuth's rule within ``BUDGET``: the tree on the standard table, else the opening,
    then minimax over every code when it fits the budget, else over the candidates and a
    sample of the other codes drawn from a generator seeded by the rows (so the same rows
    always give the same guess, peg after peg)."""
    if table == STANDARD:
        move = tree_guess(rows)
        if move is not None:
            return move
    if not rows:
        return opening(table)
    cands = consistent(table, rows)
    if not cands:
        raise ValueError("no code is consistent with these rows")
    if len(cands) <= 2:
        return cands[0]
    codes = all_codes(table)
    width = max(1, BUDGET // len(cands))
    if width >= len(codes):
        return minimax_guess(cands, codes)
    rng = random.Random(path_key(rows) + "|" + "".join(text(g) for g, _ in rows))
    if width <= len(cands):
        pool = sorted(rng.sample(cands, width))
    else:
        inside = set(cands)
        others = [c for c in rng.sample(codes, min(len(codes), width * 2)) if c not in inside]
        pool = sorted([*cands, *others[: width - len(cands)]])
    return minimax_guess(cands, pool)
