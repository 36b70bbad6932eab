"""Backgammon's computer players: easy, normal and hard (and the shared random player).

Each is a pure function of the seat's view, the legal actions and a generator the host seeds;
the view is the whole public table (backgammon hides nothing but future rolls, which do not
exist yet). A level picks a whole play for its dice (every distinct final position, from
``moves.final_positions``) and enters it one checker at a time; it re-plans from the view at
every step, so it needs no memory (the position it aimed at stays reachable, so it aims at it
again).

- easy: the normal evaluation, but a random play with probability ``EASY_RANDOM``; never
  doubles, always takes.
- normal: the play with the best hand-tuned evaluation (pips, blots within reach, made points,
  primes, home board); doubles and takes by a win chance estimated from the pip race.
- hard: 1-ply expectimax: the best ``HARD_WIDTH`` plays by the evaluation, each scored by the
  average over the 21 rolls of the opponent's best reply; cube decisions from the same win
  estimate, with sharper thresholds (double from 68%, take down to 25%, beaver from 60%).

Figures: docs/rules/backgammon.md ("Computer players"), measured by bench/backgammon_ai.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.backgammon import moves as mv
from engine.backgammon.state import (
    BEAVER,
    CONFIRM,
    CUBE,
    DECIDE,
    DOUBLE,
    PASS,
    ROLL_ACTION,
    TAKE,
    Move,
    to_pos,
)
from engine.backgammon.views import BackgammonView

EASY_RANDOM = 0.5
HARD_WIDTH = 3
ROLLS = tuple((a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


def seat_position(view: BackgammonView, seat: int) -> mv.Pos:
    return to_pos(view.board, view.bar, view.off, seat)


def their_pips(theirs: mv.Side) -> int:
    return sum((25 - p) * theirs[p] for p in range(25))


def evaluate(pos: mv.Pos) -> float:
    """The mover's standing after its play (the opponent to roll), in rough pips."""
    mine, theirs = pos
    score = float(their_pips(theirs) - mv.pips(mine))
    if mine[0] == 15:
        return 1000.0
    # Their rearmost checker is their lowest point in the mover's numbering (their bar is 0):
    # the two sides are in contact while any of the mover's checkers is still behind it.
    rearmost_them = min((p for p in range(25) if theirs[p]), default=-1)
    contact = rearmost_them >= 0 and any(mine[p] for p in range(rearmost_them + 1, 26))
    if not contact:
        return score * 1.5 + 3 * mine[0]
    run = 0
    for p in range(1, 25):
        if mine[p] == 1 and any(theirs[q] for q in range(max(0, p - 12), p)):
            score -= 4 + (p <= 6) * 2 + 0.25 * (25 - p)
        if mine[p] >= 2:
            score += 3.0 if p <= 6 else (2.0 if p <= 9 else 0.5)
            run += 1
            if run >= 3:
                score += 1.5 * (run - 2)
        else:
            run = 0
    score += 3 * theirs[0] * sum(1 for p in range(1, 7) if mine[p] >= 2) / 6
    score -= 2 * mine[25]
    return score


def win_chance(view: BackgammonView, seat: int) -> float:
    """A rough chance that ``seat``, about to roll, wins: the pip race, with the bar."""
    mine = view.pips[seat] + 4  # being on roll is worth about four pips
    theirs = view.pips[1 - seat]
    lead = theirs - mine - 6 * view.bar[seat] + 6 * view.bar[1 - seat]
    return 1 / (1 + math.exp(-lead / (0.08 * max(mine, 40) + 3)))


def flip(pos: mv.Pos) -> mv.Pos:
    """The position as the other side moves it: the two sides swap, and the points are
    renumbered from its home (each side's list runs from its off at 0 to its bar at 25)."""
    mine, theirs = pos
    return tuple(reversed(theirs)), tuple(reversed(mine))


def best_reply_value(pos: mv.Pos) -> float:
    """The opponent's expected best standing over its 21 rolls, from ``pos`` seen by it."""
    total = 0.0
    for a, b, w in ROLLS:
        total += w * max(evaluate(p) for p in mv.reply_positions(pos, mv.turn_dice(a, b)))
    return total / 36


class Level:
    def __init__(self, level: str, random_play: float, width: int, double_at: float,
                 take_at: float, beaver_at: float) -> None:
        self.level = level
        self.random_play = random_play
        self.width = width
        self.double_at, self.take_at, self.beaver_at = double_at, take_at, beaver_at
        # The rest of a plan keyed by the position and dice it continues from: a pure
        # cache (hard's search is not redone at each checker of one play), bounded.
        self._rest: dict[tuple[mv.Pos, tuple[int, ...]], tuple[mv.Step, ...]] = {}

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        seat = view.seat
        if view.phase == DECIDE:
            p = win_chance(view, seat)
            return DOUBLE if DOUBLE in legal and p >= self.double_at else ROLL_ACTION
        if view.phase == CUBE:
            p = win_chance(view, seat)
            if p >= self.beaver_at and BEAVER in legal:  # a double it is favourite against
                return BEAVER
            return TAKE if 1 - p <= 1 - self.take_at else PASS
        if CONFIRM in legal:
            return CONFIRM
        plan = self.plan(view, rng)
        if plan:
            move = Move(*plan[0])
            if move in legal:
                return move
        return legal[0]

    def plan(self, view: BackgammonView, rng: random.Random) -> tuple[mv.Step, ...]:
        pos = seat_position(view, view.seat or 0)
        key = (pos, tuple(sorted(view.left)))
        if key in self._rest:
            return self._rest[key]
        plan = self._search(view, pos, rng)
        if len(self._rest) > 4096:
            self._rest.clear()
        left = list(view.left)
        for i, step in enumerate(plan):
            self._rest[(pos, tuple(sorted(left)))] = plan[i:]
            pos = mv.apply_step(pos, step)
            left.remove(step[2])
        return plan

    def _search(self, view: BackgammonView, pos: mv.Pos,
                rng: random.Random) -> tuple[mv.Step, ...]:
        finals = mv.final_positions(pos, view.left, not view.moved)
        if not finals:
            return ()
        keys = list(finals)
        if self.random_play and rng.random() < self.random_play:
            return finals[keys[rng.randrange(len(keys))]]
        ranked = sorted(keys, key=lambda p: -evaluate(p))
        if self.width <= 1 or len(ranked) == 1:
            return finals[ranked[0]]
        best = max(ranked[:self.width], key=lambda p: -best_reply_value(flip(p)))
        return finals[best]


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": Level("easy", EASY_RANDOM, 1, 2.0, 0.0, 2.0),
    "normal": Level("normal", 0.0, 1, 0.75, 0.30, 2.0),
    "hard": Level("hard", 0.0, HARD_WIDTH, 0.68, 0.25, 0.60),
}
