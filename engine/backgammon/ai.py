"""Backgammon's computer players: easy, normal and hard (and the shared random player).

Each is a pure function of the seat's view, the legal actions and a generator the host seeds;
the view is the whole public table (backgammon hides nothing but future rolls, which do not
exist yet). A level picks a whole play for its dice (every distinct final position, from
``moves.final_positions``) and enters it one checker at a time; it re-plans from the view at
every step, so it needs no memory (the position it aimed at stays reachable, so it aims at it
again).

- easy: the normal evaluation, but a random play with probability ``EASY_RANDOM``; never
  doubles, always takes.
- normal: the play with the best hand-tuned evaluation (``evaluate``: pips, blots within
  reach, made points, primes, home board); doubles and takes by a win chance estimated from
  the pip race alone (``RACE``).
- hard: its evaluation is a chance of winning (``standing``: Keith's count in a race, a
  logistic fitted on self-play outcomes in contact); 1-ply expectimax over the best
  ``HARD_WIDTH`` plays, each scored by the average over the 21 rolls of the opponent's best
  reply; cube decisions from the same chance with Keith's thresholds and the match-score
  rules (``SOUND``).

Figures: docs/rules/backgammon.md ("Computer players"), measured by bench/backgammon_ai.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.backgammon import moves as mv
from engine.backgammon.state import (
    BEAVER,
    CONFIRM,
    CUBE,
    DECIDE,
    DOUBLE,
    MATCH,
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
    if not in_contact(pos):
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


def _prime(side: mv.Side) -> int:
    """The longest run of made points (two or more checkers) among points 1..24."""
    best = run = 0
    for p in range(1, 25):
        run = run + 1 if side[p] >= 2 else 0
        best = max(best, run)
    return best


def _exposed(mine: mv.Side, theirs: mv.Side) -> int:
    """The mover's blots that an opposing checker behind them could reach (within 12)."""
    return sum(1 for p in range(1, 25) if mine[p] == 1
               and any(theirs[q] for q in range(max(0, p - 12), p)))


def in_contact(pos: mv.Pos) -> bool:
    """Some checker of the mover's is still behind the opponent's rearmost one (their
    rearmost checker is their lowest point in the mover's numbering; their bar is 0)."""
    mine, theirs = pos
    rearmost_them = min((p for p in range(25) if theirs[p]), default=-1)
    return rearmost_them >= 0 and any(mine[p] for p in range(rearmost_them + 1, 26))


def features(pos: mv.Pos) -> tuple[float, ...]:
    """What the fitted win estimate reads from a contact position, the mover about to roll:
    each term is the mover's minus the opponent's (or a product of both sides), scaled to
    about one. ``FEATURES`` names them; ``bench/backgammon_ai.py --fit`` fits the weights."""
    mine, theirs = pos
    him, me = flip(pos)  # the same two sides in the opponent's own numbering
    lead = (their_pips(theirs) - mv.pips(mine)) / 100
    total = (their_pips(theirs) + mv.pips(mine)) / 100
    home_me = sum(1 for p in range(1, 7) if mine[p] >= 2)
    home_him = sum(1 for p in range(1, 7) if him[p] >= 2)
    back_me = sum(mine[19:26])
    back_him = sum(him[19:26])
    return (1.0, lead, lead / max(total, 0.2), theirs[0] * home_me / 6, mine[25] * home_him / 6,
            (home_me - home_him) / 6, _exposed(mine, theirs) / 3, _exposed(him, me) / 3,
            (_prime(mine) - _prime(him)) / 6, (back_me - back_him) / 5)


FEATURES = ("bias", "pip_lead", "relative_lead", "closed_out_them", "closed_out_me",
            "home_points", "my_blots", "their_blots", "prime", "back_checkers")
# Fitted by ``python -m bench.backgammon_ai --fit 800`` (logistic regression of who won on the
# positions normal v normal reached, cube off); docs/rules/backgammon.md has the run. No
# "anchors" term: it came out negative (anchors go with being behind) and made hard break
# its anchor for nothing (tests/engine/backgammon/test_ai.py, hitting and covering).
WEIGHTS = (0.084, -3.449, 9.366, 0.688, -0.477, 1.22, 0.102, 0.202, 0.725, -1.696)


def logistic(weights: Sequence[float], x: Sequence[float]) -> float:
    """The logistic of ``weights . x`` (clamped, so no input overflows)."""
    z = sum(w * v for w, v in zip(weights, x, strict=True))
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


def contact_win(pos: mv.Pos) -> float:
    """The fitted chance that the mover, about to roll in a contact position, wins."""
    return logistic(WEIGHTS, features(pos))


def keith(side: mv.Side) -> float:
    """Keith's adjusted pip count for a race: the pips, plus 2 for each checker past the
    first on the 1-point, 1 for each past the first on the 2-point and past the third on the
    3-point, and 1 for each of the 4-, 5- and 6-points left empty."""
    return (mv.pips(side) + 2 * max(0, side[1] - 1) + max(0, side[2] - 1)
            + max(0, side[3] - 3) + sum(1 for p in (4, 5, 6) if not side[p]))


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


Value = Callable[[mv.Pos], float]  # the mover's standing after its play: higher is better


def best_reply_value(pos: mv.Pos, value: Value = evaluate) -> float:
    """The opponent's expected best standing over its 21 rolls, from ``pos`` seen by it."""
    total = 0.0
    for a, b, w in ROLLS:
        total += w * max(value(p) for p in mv.reply_positions(pos, mv.turn_dice(a, b)))
    return total / 36


def race_win(pos: mv.Pos) -> float:
    """The chance that the mover, about to roll in a race, wins, from Keith's count: the
    roller's count plus a seventh against the other's (``d`` pips more). Keith's rules (double
    when ``d`` <= 4, redouble <= 3, take when ``d`` >= 2) become the thresholds 0.70, 0.725
    and 0.75 of ``SOUND``: logit p = 1.35 - 0.1257 d goes through all three."""
    d = keith(pos[0]) * 8 / 7 - keith(flip(pos)[0])
    return logistic((1.35, -0.1257), (1.0, d))


def roller_win(pos: mv.Pos) -> float:
    """The chance that the mover, about to roll, wins: 1 or 0 once a side is off, Keith's
    count in a race, the fitted estimate while the sides are in contact."""
    if pos[0][0] == 15 or pos[1][25] == 15:
        return 1.0 if pos[0][0] == 15 else 0.0
    return contact_win(pos) if in_contact(pos) else race_win(pos)


def standing(pos: mv.Pos) -> float:
    """Hard's value of a play: the chance that the mover wins once it has played ``pos``
    (the opponent then rolls)."""
    return 1 - roller_win(flip(pos))


def sound_win(view: BackgammonView) -> float:
    """Hard's chance that the seat on roll (``view.turn``) wins: Keith's count in a race, the
    fitted estimate while the sides are in contact."""
    return roller_win(seat_position(view, view.turn))


class Cube:
    """When a level doubles, takes and beavers: the chance of winning it estimates, and its
    thresholds (the doubler's chance to double or redouble, the taker's own chance to take or
    beaver). ``match`` adds the match-score rules that hold whatever the position: no double
    when the cube's value already wins the match, always take when a pass loses it, and the
    trailer's double at once after the Crawford game."""

    def __init__(self, estimate: Any, double_at: float, redouble_at: float, take_at: float,
                 beaver_at: float, match: bool) -> None:
        self.estimate = estimate  # (view, seat) -> the chance the seat on roll wins
        self.double_at, self.redouble_at = double_at, redouble_at
        self.take_at, self.beaver_at, self.match = take_at, beaver_at, match

    def double(self, view: BackgammonView, seat: int) -> bool:
        if self.match and view.mode == MATCH:
            need, theirs = view.length - view.scores[seat], view.length - view.scores[1 - seat]
            if view.cube >= need:  # a win at this value takes the match: nothing to gain
                return False
            if theirs == 1 and view.owner is None and not view.crawford:
                return True  # after the Crawford game the trailer doubles at once
        at = self.double_at if view.owner is None else self.redouble_at
        return self.estimate(view, seat) >= at

    def answer(self, view: BackgammonView, seat: int, legal: Sequence[Any]) -> Any:
        mine = 1 - self.estimate(view, 1 - seat)  # the taker's own chance
        if (self.match and view.mode == MATCH
                and view.scores[1 - seat] + view.cube >= view.length):
            return TAKE  # a pass loses the match; a take at least keeps a chance
        if mine >= self.beaver_at and BEAVER in legal:  # a double it is favourite against
            return BEAVER
        return TAKE if mine >= self.take_at else PASS


def _pip_race(view: BackgammonView, seat: int) -> float:
    return win_chance(view, seat)


def _sound(view: BackgammonView, seat: int) -> float:
    p = sound_win(view)
    return p if seat == view.turn else 1 - p


NEVER = Cube(_pip_race, 2.0, 2.0, 0.0, 2.0, False)  # never doubles, always takes
RACE = Cube(_pip_race, 0.75, 0.75, 0.30, 2.0, False)  # normal: the pip race only
SOUND = Cube(_sound, 0.70, 0.725, 0.25, 0.55, True)  # hard


class Level:
    def __init__(self, level: str, random_play: float, width: int, cube: Cube,
                 value: Value = evaluate) -> None:
        self.level = level
        self.random_play = random_play
        self.width = width
        self.cube = cube
        self.value = value
        # The rest of a plan keyed by the position and dice it continues from: a pure
        # cache (hard's search is not redone at each checker of one play), bounded.
        self._rest: dict[tuple[mv.Pos, tuple[int, ...]], tuple[mv.Step, ...]] = {}

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        seat = view.seat
        if view.phase == DECIDE:
            return DOUBLE if DOUBLE in legal and self.cube.double(view, seat) else ROLL_ACTION
        if view.phase == CUBE:
            return self.cube.answer(view, seat, legal)
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
        ranked = sorted(keys, key=lambda p: -self.value(p))
        if self.width <= 1 or len(ranked) == 1:
            return finals[ranked[0]]
        best = max(ranked[:self.width], key=lambda p: -best_reply_value(flip(p), self.value))
        return finals[best]


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": Level("easy", EASY_RANDOM, 1, NEVER),
    "normal": Level("normal", 0.0, 1, RACE),
    "hard": Level("hard", 0.0, HARD_WIDTH, SOUND, standing),
}
