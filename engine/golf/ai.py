"""Golf's computer players: random, easy, normal and hard.

Each is a pure function of the seat's view, the legal actions and a generator the host
seeds; none sees the state. They estimate a layout's score from the cells they know, a
face-down card counting as the mean of the cards it could be.

- easy: takes the discard only when it is low (3 or less), keeps a stock card of 5 or less
  on a random face-down or higher cell, flips at random, knocks at an estimate of 6 or less.
- normal: replaces its highest cards and chases column pairs (the best placement by the
  estimate, unknown cards counting 5), takes the discard when that gains 2 or more, flips
  the first face-down card, knocks at an estimate of 4 or less.
- hard: tracks every card seen (face-up cards, the discard pile, its peeked cards) and
  weighs each choice over the cards still unseen: the exact expectation of drawing from the
  stock over those cards, pair chances by what is left of a rank, and the others'
  estimated scores: it does not end a hole (its last card face up, or a knock) unless it
  expects to be lowest. A fixed amount of work, never the clock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.golf.rules import deck_for
from engine.golf.state import (
    KNOCK,
    Discard,
    DrawStock,
    Flip,
    Knock,
    NoFlip,
    Place,
    TakeDiscard,
    value,
)
from engine.golf.views import Cell, GolfView

Known = list[str]  # a layout as card codes, "" where unknown


class Odds:
    """What an unknown card is worth: its mean value, and the chance it has a given rank."""

    def __init__(self, unseen: Counter[str] | None) -> None:
        self.unseen = unseen
        if unseen:
            total = sum(unseen.values())
            self.total = total
            self.mean = sum(value(r + "S") * k for r, k in unseen.items()) / total
        else:
            self.total = 0
            self.mean = 5.0

    def pair(self, rank: str) -> float:
        if not self.unseen or not self.total:
            return 0.0
        return self.unseen[rank] / self.total


def estimate(cards: Known, rows: int, cols: int, odds: Odds) -> float:
    """The expected score of a layout whose unknown cells are ``""``."""
    if rows == 2:
        total = 0.0
        for c in range(cols):
            a, b = cards[c], cards[cols + c]
            if a and b:
                total += 0 if a[0] == b[0] else value(a) + value(b)
            elif a or b:
                k = a or b
                p = odds.pair(k[0])
                total += (1 - p) * (value(k) + odds.mean)
            else:
                total += 2 * odds.mean
        return total
    lines = [[r * cols + c for c in range(cols)] for r in range(rows)]
    lines += [[r * cols + c for r in range(rows)] for c in range(cols)]
    zero = set()
    for line in lines:
        ranks = {cards[i][0] for i in line if cards[i]}
        if len(ranks) == 1 and all(cards[i] for i in line):
            zero.update(line)
    return sum(0 if i in zero else (value(cards[i]) if cards[i] else odds.mean)
               for i in range(len(cards)))


def known_of(cells: Sequence[Cell]) -> Known:
    return [c.card for c in cells]


def unseen_of(view: GolfView) -> Counter[str]:
    """Ranks still unseen by this seat: the deck minus every card it can see."""
    left = Counter(c[0] for c in deck_for(len(view.layouts)))
    seen = [c.card for lay in view.layouts for c in lay if c.card]
    seen += list(view.discard)
    if view.holding:
        seen.append(view.holding)
    left.subtract(c[0] for c in seen)
    return Counter({r: k for r, k in left.items() if k > 0})


def best_place(cards: Known, card: str, rows: int, cols: int,
               odds: Odds) -> tuple[float, int]:
    """The lowest estimate reachable by putting ``card`` in some cell, and that cell."""
    best = (float("inf"), 0)
    for i in range(len(cards)):
        trial = cards[:]
        trial[i] = card
        best = min(best, (estimate(trial, rows, cols, odds), i))
    return best


def _me(view: GolfView) -> int:
    assert view.seat is not None, "a player has a seat"
    return view.seat


def _find(legal: Sequence[Any], kind: type) -> Any:
    return next((a for a in legal if isinstance(a, kind)), None)


class EasyPlayer:
    level = "easy"

    def choose(self, view: GolfView, legal: Sequence[Any], rng: random.Random) -> Any:
        cells = view.layout
        cards = known_of(cells)
        odds = Odds(None)
        if _find(legal, DrawStock) or _find(legal, TakeDiscard):
            if _find(legal, Knock) and estimate(cards, view.rows, view.cols, odds) <= 6:
                return _find(legal, Knock)
            top = view.discard[-1] if view.discard else ""
            if (top and value(top) <= 3) or not _find(legal, DrawStock):
                return _find(legal, TakeDiscard)
            return _find(legal, DrawStock)
        places = [a for a in legal if isinstance(a, Place)]
        if places:
            card = view.holding
            worse = [a for a in places
                     if not cards[a.row * view.cols + a.col]
                     or value(cards[a.row * view.cols + a.col]) > value(card)]
            if value(card) <= 5 or not _find(legal, Discard):
                pool = worse or places
                return pool[rng.randrange(len(pool))]
            return _find(legal, Discard)
        return legal[rng.randrange(len(legal))]


class NormalPlayer:
    level = "normal"
    knock_at = 4.0

    def odds(self, view: GolfView) -> Odds:
        return Odds(None)

    def choose(self, view: GolfView, legal: Sequence[Any], rng: random.Random) -> Any:
        rows, cols = view.rows, view.cols
        cards = known_of(view.layout)
        odds = self.odds(view)
        now = estimate(cards, rows, cols, odds)
        if _find(legal, TakeDiscard):
            return self.turn(view, legal, cards, now, odds)
        if _find(legal, Place):
            score, i = best_place(cards, view.holding, rows, cols, odds)
            place = Place(i // cols, i % cols)
            discard = _find(legal, Discard)
            if discard is None:
                return place
            return self.keep_or_discard(view, cards, score, now, place, discard, odds)
        return self.flip(view, legal, cards, odds)

    def turn(self, view: GolfView, legal: Sequence[Any], cards: Known, now: float,
             odds: Odds) -> Any:
        knock = _find(legal, Knock)
        if knock is not None and now <= self.knock_at:
            return knock
        take = _find(legal, TakeDiscard)
        draw = _find(legal, DrawStock)
        score, _ = best_place(cards, view.discard[-1], view.rows, view.cols, odds)
        if draw is None or score <= now - 2:
            return take
        return draw

    def keep_or_discard(self, view: GolfView, cards: Known, score: float, now: float,
                        place: Place, discard: Discard, odds: Odds) -> Any:
        return place if score < now else discard

    def flip(self, view: GolfView, legal: Sequence[Any], cards: Known, odds: Odds) -> Any:
        return next(a for a in legal if isinstance(a, Flip | NoFlip))


class HardPlayer(NormalPlayer):
    level = "hard"

    def odds(self, view: GolfView) -> Odds:
        return Odds(unseen_of(view))

    def others_best(self, view: GolfView, odds: Odds) -> float:
        me = _me(view)
        return min((estimate(known_of(lay), view.rows, view.cols, odds)
                    for s, lay in enumerate(view.layouts) if s != me), default=0.0)

    def ends(self, cards: Known, view: GolfView, i: int | None) -> bool:
        """Would the layout be all face up after a card goes to cell ``i``?"""
        if view.end == KNOCK or view.ender >= 0:
            return False
        down = [k for k, c in enumerate(view.layout) if not c.up]
        return not down or (i is not None and down == [i])

    def safe(self, score: float, view: GolfView, odds: Odds) -> bool:
        return score + 1 < self.others_best(view, odds)

    def turn(self, view: GolfView, legal: Sequence[Any], cards: Known, now: float,
             odds: Odds) -> Any:
        rows, cols = view.rows, view.cols
        knock = _find(legal, Knock)
        if knock is not None and now <= 6 and now + 2 < self.others_best(view, odds):
            return knock
        take = _find(legal, TakeDiscard)
        draw = _find(legal, DrawStock)
        top = view.discard[-1]
        t_score, t_cell = best_place(cards, top, rows, cols, odds)
        if self.ends(cards, view, t_cell) and not self.safe(t_score, view, odds):
            t_score += 10
        if draw is None:
            return take
        # The stock card: the exact expectation over the unseen ranks of the better of
        # keeping it (at its best cell) and discarding it.
        unseen = odds.unseen or Counter()
        total = sum(unseen.values())
        if not total:
            return take if t_score < now else draw
        expect = 0.0
        for rank, k in unseen.items():
            s, i = best_place(cards, rank + "S", rows, cols, odds)
            if self.ends(cards, view, i) and not self.safe(s, view, odds):
                s += 10
            expect += k * min(s, now)
        expect /= total
        return take if t_score < expect - 0.5 else draw

    def keep_or_discard(self, view: GolfView, cards: Known, score: float, now: float,
                        place: Place, discard: Discard, odds: Odds) -> Any:
        i = place.row * view.cols + place.col
        if self.ends(cards, view, i) and not self.safe(score, view, odds):
            return discard
        return place if score < now else discard

    def flip(self, view: GolfView, legal: Sequence[Any], cards: Known, odds: Odds) -> Any:
        flips = [a for a in legal if isinstance(a, Flip)]
        skip = _find(legal, NoFlip)
        now = estimate(cards, view.rows, view.cols, odds)
        if skip is not None and (len(flips) == 1 and not self.safe(now, view, odds)):
            return skip
        if not flips:
            return skip
        # Flip where the unknown is alone in its column (no pair to chase there), else any.
        if view.rows == 2:
            for a in flips:
                partner = (1 - a.row) * view.cols + a.col
                if not cards[partner]:
                    return a
        return flips[0]


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
