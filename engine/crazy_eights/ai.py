"""Crazy Eights' computer players: random, easy, normal and hard.

Each is a pure function of the seat's view, the legal actions and a generator the host
seeds; none sees the state.

- easy: a random legal card when it has one (an eight as readily as any), draws only when
  it cannot play, names a random suit.
- normal: keeps its eights for when nothing else goes, sheds its highest card (preferring
  the suit it holds most of, so that it keeps control), names its longest suit, never draws
  by choice.
- hard: tracks every card seen (its hand and the discard pile) and runs flat Monte Carlo
  over determinizations: the unseen cards are dealt to the other hands and the stock at the
  sizes the view shows; each choice (a card, drawing, a suit to name) is played out to the
  end of the round with the normal policy for every seat, on the same deals for every
  choice; the choice with the best mean result for this seat wins. The work is a fixed
  number of rollouts, never the clock, so a decision is reproducible from its generator.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.crazy_eights.rules import deck_for
from engine.crazy_eights.state import (
    DRAW_LIMIT,
    PENALTY,
    SUITS,
    Draw,
    NameSuit,
    Pass,
    Play,
    hand_value,
    matches,
    value,
)
from engine.crazy_eights.views import CrazyEightsView


def longest_suit(hand: Sequence[str]) -> str:
    """The suit with most cards besides eights (ties: more points), else spades."""
    counts = Counter(c[1] for c in hand if c[0] != "8")
    if not counts:
        return SUITS[0]
    points = Counter()  # type: Counter[str]
    for c in hand:
        if c[0] != "8":
            points[c[1]] += value(c)
    return max(SUITS, key=lambda s: (counts[s], points[s], -SUITS.index(s)))


def normal_card(hand: Sequence[str], cards: Sequence[str]) -> str:
    """Of the playable ``cards``: a non-eight if any, highest first, then the suit most held."""
    suits = Counter(c[1] for c in hand if c[0] != "8")
    plain = [c for c in cards if c[0] != "8"]
    pool = plain or list(cards)
    return max(pool, key=lambda c: (value(c), suits[c[1]], c))


class EasyPlayer:
    level = "easy"

    def choose(self, view: CrazyEightsView, legal: Sequence[Any], rng: random.Random) -> Any:
        plays = [a for a in legal if isinstance(a, Play | NameSuit)]
        if plays:
            return plays[rng.randrange(len(plays))]
        return next((a for a in legal if isinstance(a, Draw)), legal[0])


class NormalPlayer:
    level = "normal"

    def choose(self, view: CrazyEightsView, legal: Sequence[Any], rng: random.Random) -> Any:
        if isinstance(legal[0], NameSuit):
            return NameSuit(longest_suit(view.hand))
        cards = [a.card for a in legal if isinstance(a, Play)]
        if cards:
            return Play(normal_card(view.hand, cards))
        return next((a for a in legal if isinstance(a, Draw)), legal[-1])


# -- hard: a light simulator of the rest of the round ---------------------------------------
def _rollout(hands: list[list[str]], stock: list[str], top: str, suit: str, turn: int,
             drawn: int, limit: int, me: int, scoring: str, max_turns: int = 200) -> float:
    """Play to the end of the round with the normal policy for everyone (no reshuffles:
    an empty stock means pass); the result for ``me`` (higher is better)."""
    n = len(hands)
    passes = 0
    for _ in range(max_turns):
        hand = hands[turn]
        while True:
            cards = [c for c in hand if matches(c, top, suit)]
            if cards or not stock or (0 <= limit <= drawn):
                break
            hand.append(stock.pop())
            drawn += 1
        if cards:
            card = normal_card(hand, cards)
            hand.remove(card)
            top = card
            suit = longest_suit(hand) if card[0] == "8" else card[1]
            passes = 0
            if not hand:
                return _result(hands, turn, me, scoring)
        elif not stock:
            passes += 1
            if passes >= n:
                return _result(hands, None, me, scoring)
        turn = (turn + 1) % n
        drawn = 0
    return _result(hands, None, me, scoring)


def _result(hands: list[list[str]], winner: int | None, me: int, scoring: str) -> float:
    mine = hand_value(tuple(hands[me]))
    if scoring == PENALTY:
        others = [hand_value(tuple(h)) for s, h in enumerate(hands) if s != me]
        return sum(others) / len(others) - mine
    if winner == me:
        return float(sum(hand_value(tuple(h)) for h in hands))
    return -float(mine)


def unseen_cards(view: CrazyEightsView) -> list[str]:
    """The deck minus the seat's hand and the discard pile: the others' hands and the stock."""
    left = Counter(deck_for(len(view.hand_counts)))
    left.subtract(view.hand)
    left.subtract(view.discard)
    return sorted(left.elements())


class HardPlayer:
    level = "hard"

    def __init__(self, rollouts: int = 240, min_worlds: int = 12) -> None:
        self.rollouts = rollouts
        self.min_worlds = min_worlds

    def choose(self, view: CrazyEightsView, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        assert me is not None, "a player has a seat"
        plays = [a for a in legal if isinstance(a, Play)]
        if any(len(view.hand) == 1 for _ in plays):
            return plays[0]  # going out now is never worse
        options = list(legal)
        worlds = max(self.min_worlds, self.rollouts // len(options))
        unseen = unseen_cards(view)
        totals = [0.0] * len(options)
        n = len(view.hand_counts)
        limit = view.draw_limit
        top = view.discard[-1]
        for _ in range(worlds):
            rng.shuffle(unseen)
            base: list[list[str]] = []
            k = 0
            for s in range(n):
                if s == me:
                    base.append(list(view.hand))
                else:
                    base.append(unseen[k:k + view.hand_counts[s]])
                    k += view.hand_counts[s]
            stock = unseen[k:]
            for i, a in enumerate(options):
                hands = [h[:] for h in base]
                st = stock[:]
                totals[i] += self._after(a, hands, st, top, view, me, limit, n)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]

    @staticmethod
    def _after(a: Any, hands: list[list[str]], stock: list[str], top: str,
               view: CrazyEightsView, me: int, limit: int, n: int) -> float:
        nxt = (me + 1) % n
        if isinstance(a, NameSuit):
            return _rollout(hands, stock, top, a.suit, nxt, 0, limit, me, view.scoring)
        if isinstance(a, Play):
            hands[me].remove(a.card)
            suit = longest_suit(hands[me]) if a.card[0] == "8" else a.card[1]
            return _rollout(hands, stock, a.card, suit, nxt, 0, limit, me, view.scoring)
        if isinstance(a, Draw):
            if stock:
                hands[me].append(stock.pop())
            # The rest of this turn by the normal policy (play the card drawn if it goes).
            return _rollout(hands, stock, top, view.suit, me, view.drawn + 1, limit, me,
                            view.scoring)
        assert isinstance(a, Pass)
        return _rollout(hands, stock, top, view.suit, nxt, 0, limit, me, view.scoring)


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
__all__ = ["DRAW_LIMIT", "PLAYERS"]
