"""Mastermind's computer players: random, easy, normal and hard.

Each is a pure function of the seat's view, the legal actions and a generator the host seeds;
it never sees the state, so it never sees a code it may not. As a codemaker every level asks
the host to draw its code (``DrawCode``): the code then comes from the host's seeded chance
step, as the rules want for a computer codemaker, and no player can leak it by how it plays.
As a breaker a level picks the guess it wants (``next_guess``) and enters it one peg at a
time, then submits; it reads what it entered so far from the view, so it needs no memory.

- easy: plays like a person keeping loose track: a random first guess, then a random code
  that fits the last row and the earlier rows it "remembers"; it loses track of each
  earlier row with probability ``FORGET`` (decided by a hash of the row, so the choice holds
  across the pegs of one guess), and never repeats a guess already on the board.
- normal: Knuth's opening (1122), then a code consistent with every row: of ``NORMAL_DRAWS``
  codes drawn at random among the consistent ones agreeing with the pegs entered so far,
  the one whose largest feedback class is smallest (so each peg is a fresh draw, and the
  guess it completes is always consistent). Uniform draws (one) average about 4.63 on the
  standard table, two about 4.56: two keep a clear margin under the 4.7 it must reach.
- hard: Knuth's minimax (``solver.hard_guess``): the stored decision tree on the standard
  table, the same rule within a fixed work budget on the others.

Figures over all 1,296 codes of the standard table: docs/rules/mastermind.md ("Computer
players"), measured by bench/mastermind_ai.py and bounded by tests/engine/mastermind/test_ai.py.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Any

from engine.ai import RandomPlayer
from engine.mastermind.codes import Code, Table, all_codes, key_of, text
from engine.mastermind.solver import Row, consistent, hard_guess, opening, partition_sizes
from engine.mastermind.state import DRAW, GUESS, SUBMIT, ClearPeg, SetPeg
from engine.mastermind.views import MastermindView

LEVELS = ("easy", "normal", "hard")
# easy: the chance of losing track of each row but the latest, and how many latest rows it
# always keeps in mind. Measured (all 1,296 codes): mean 6.29, 95.6% solved within 10 rows.
FORGET = 0.5
REMEMBERED = 1
NORMAL_DRAWS = 2


def table_of(view: MastermindView) -> Table:
    return Table(view.holes, view.colours, view.blanks, view.duplicates)


def my_rows(view: MastermindView) -> tuple[Row, ...]:
    """The rows of the board this seat is breaking, as the solver reads them."""
    for b in view.boards:
        if b.breaker == view.seat:
            return tuple((r.guess, key_of(r.black, r.white)) for r in b.rows)
    return ()


def _pick(codes: Sequence[Code], entry: Sequence[int | None], rng: random.Random) -> Code:
    """A uniform code among ``codes`` agreeing with the pegs entered (else among all)."""
    holes = [i for i, e in enumerate(entry) if e is not None]
    if not holes:
        return codes[rng.randrange(len(codes))]
    # itemgetter compares the entered holes in C: this filter runs once per peg.
    read = itemgetter(*holes)
    want = read(entry)
    fitting = [c for c in codes if read(c) == want]
    pool = fitting or codes
    return pool[rng.randrange(len(pool))]


def forgets(index: int, row: Row) -> bool:
    """Whether easy loses track of row ``index``: a fixed hash of the row, so the same rows
    give the same decision peg after peg (the player keeps no memory between calls)."""
    h = zlib.crc32(f"{index}:{text(row[0])}:{row[1]}".encode())
    return h % 1000 < FORGET * 1000


def next_guess(level: str, table: Table, rows: tuple[Row, ...],
               entry: Sequence[int | None], rng: random.Random) -> Code:
    """The guess ``level`` wants after ``rows``, given the pegs already ``entry``-ed."""
    if level == "hard":
        return hard_guess(table, rows)
    if level == "normal":
        if not rows:
            return opening(table)
        cands = consistent(table, rows)
        draws = [_pick(cands, entry, rng) for _ in range(NORMAL_DRAWS)]
        if len(set(draws)) == 1:  # the last pegs leave one fitting code: nothing to weigh
            return draws[0]
        return min(draws, key=lambda g: worst_class(table, rows, g))
    return _pick(easy_pool(table, rows), entry, rng)


@lru_cache(maxsize=65536)
def worst_class(table: Table, rows: tuple[Row, ...], guess: Code) -> int:
    """The largest feedback class ``guess`` leaves among the codes consistent with ``rows``
    (memoized: the draws of later pegs of one guess often meet the same codes again)."""
    return max(partition_sizes(guess, consistent(table, rows)).values())


@lru_cache(maxsize=1024)
def easy_pool(table: Table, rows: tuple[Row, ...]) -> tuple[Code, ...]:
    """The codes easy thinks possible after ``rows``: those fitting the rows it keeps in
    mind, less the guesses already on the board (memoized: asked once per peg)."""
    kept = tuple(r for i, r in enumerate(rows)
                 if i >= len(rows) - REMEMBERED or not forgets(i, r))
    tried = {g for g, _ in rows}
    pool = tuple(c for c in (consistent(table, kept) if kept else all_codes(table))
                 if c not in tried)
    return pool or consistent(table, rows)


def step_toward(target: Code, entry: Sequence[int | None], legal: Sequence[Any]) -> Any:
    """The next action that enters ``target``: fix the first wrong hole (clearing first a
    hole that holds its colour where repeats are off), or submit once it is all there."""
    for hole, want in enumerate(target):
        if entry[hole] == want:
            continue
        action = SetPeg(hole, want)
        if action in legal:
            return action
        for other, peg in enumerate(entry):
            if peg == want and other != hole:
                return ClearPeg(other)
    return SUBMIT if SUBMIT in legal else legal[0]


def enter_guess(level: str, table: Table, rows: tuple[Row, ...], rng: random.Random) -> Code:
    """The guess ``level`` submits after ``rows``, entered peg by peg from an empty row exactly
    as ``Breaker.choose`` enters it against the rules' legal lists (for measuring a level
    without a whole match around it)."""
    from engine.mastermind.rules import entry_actions  # the rules' own list of entry moves

    entry: tuple[int | None, ...] = (None,) * table.holes
    while True:
        action = step_toward(next_guess(level, table, rows, entry, rng), entry,
                             entry_actions(table, entry))
        if isinstance(action, SetPeg):
            entry = (*entry[:action.hole], action.colour, *entry[action.hole + 1:])
        elif isinstance(action, ClearPeg):
            entry = (*entry[:action.hole], None, *entry[action.hole + 1:])
        else:
            return tuple(p for p in entry if p is not None)


class Breaker:
    """A level's codemaker (the host draws) and breaker (``next_guess``, peg by peg)."""

    def __init__(self, level: str) -> None:
        self.level = level

    def choose(self, view: MastermindView, legal: Sequence[Any], rng: random.Random) -> Any:
        if DRAW in legal:
            return DRAW
        if view.phase != GUESS or not view.entry:
            return legal[0]
        table = table_of(view)
        target = next_guess(self.level, table, my_rows(view), view.entry, rng)
        return step_toward(target, view.entry, legal)


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    **{level: Breaker(level) for level in LEVELS},
}
