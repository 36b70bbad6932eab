"""Crazy Eights' computer players: random, easy, normal and hard.

Each is a pure function of the seat's view, the legal actions and a generator the host
seeds; none sees the state.

- easy: a random legal card when it has one (an eight as readily as any), draws only when
  it cannot play, names a random suit.
- normal: keeps its eights for when nothing else goes, sheds its highest card (preferring
  the suit it holds most of, so that it keeps control), names its longest suit, never draws
  by choice.
- hard: tracks every card seen (its hand and the discard pile) and what the others' draws
  and passes showed (the view's public ``declined`` record: a player who drew while a suit
  was to follow held none of it, nor an eight, among the cards it has not drawn since). Its
  heuristic choice leads into a suit another seat has shown it lacks, then into the suit it
  holds most of, then sheds the highest card; it names a lacking suit unless far longer in
  another. Flat Monte Carlo then checks that choice over deals consistent with its
  knowledge (the unseen cards dealt to the other hands and the stock at the sizes the view
  shows, each hand holding at least the cards its record proves are outside its declined
  suits and not eights): each candidate card or suit is played out to the end of the round
  with the normal policy for every seat, on the same deals for every candidate, a won round
  counting 1 and a lost one -1 (points a hundredth each). Another candidate replaces the
  heuristic one only when it is better by more than ``margin``. It never draws by choice
  while it can play. The work is a fixed number of rollouts, never the clock, so a
  decision is reproducible from its generator.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.crazy_eights.rules import deck_for
from engine.crazy_eights.state import (
    DECK,
    DRAW_LIMIT,
    PENALTY,
    SUITS,
    Draw,
    NameSuit,
    Pass,
    Play,
    hand_value,
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


def shown_voids(view: CrazyEightsView) -> str:
    """Suits another seat has shown it holds none of (it drew or passed on them, and still
    holds a card it had then): the suits to lead it into."""
    me = view.seat
    return "".join(sorted({
        suit for s, declined in enumerate(view.declined)
        if s != me and view.hand_counts[s] > view.drawn_since[s] for suit in declined}))


def hard_card(hand: Sequence[str], cards: Sequence[str], voids: str) -> str:
    """Of the playable ``cards``: a non-eight if any; first one of a suit another seat has
    shown it lacks, then the suit most held after the play, then the highest."""
    plain = [c for c in cards if c[0] != "8"] or list(cards)
    suits = Counter(c[1] for c in hand if c[0] != "8")
    return max(plain, key=lambda c: (c[1] in voids, suits[c[1]], value(c), c))


def hard_suit(hand: Sequence[str], voids: str) -> str:
    """The suit to name: one another seat lacks, weighed against the cards held in it."""
    counts = Counter(c[1] for c in hand if c[0] != "8")
    return max(SUITS, key=lambda s: (counts[s] + 5 * (s in voids), -SUITS.index(s)))


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
VALUE = {c: value(c) for c in DECK}


def _pick(hand: list[str], cards: list[str]) -> str:
    """``normal_card`` on lists, fast: the rollouts call it on every turn."""
    plain = [c for c in cards if c[0] != "8"] or cards
    if len(plain) == 1:
        return plain[0]
    top = max(VALUE[c] for c in plain)
    best = [c for c in plain if VALUE[c] == top]
    if len(best) == 1:
        return best[0]
    return normal_card(hand, best)


def _rollout(hands: list[list[str]], stock: list[str], top: str, suit: str, turn: int,
             drawn: int, limit: int, me: int, scoring: str, max_turns: int = 200) -> float:
    """Play to the end of the round with the normal policy for everyone (no reshuffles:
    an empty stock means pass); the result for ``me`` (higher is better)."""
    n = len(hands)
    passes = 0
    for _ in range(max_turns):
        hand = hands[turn]
        rank = top[0]
        cards = [c for c in hand if c[1] == suit or c[0] == rank or c[0] == "8"]
        while not cards and stock and (limit < 0 or drawn < limit):
            c = stock.pop()
            hand.append(c)
            drawn += 1
            if c[1] == suit or c[0] == rank or c[0] == "8":
                cards = [c]
        if cards:
            card = _pick(hand, cards)
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
    """The round's result for ``me``: mostly whether it won (1) or lost (-1), the points
    as a tie-break (a hundredth each), so that few rollouts still rank choices soundly."""
    values = [hand_value(tuple(h)) for h in hands]
    mine = values[me]
    if winner is None:  # blocked: the lowest hand takes the round
        low = min(values)
        won = mine == low and values.count(low) == 1
    else:
        won = winner == me
    if scoring == PENALTY:
        others = [v for s, v in enumerate(values) if s != me]
        return (1.0 if won else -1.0) + (sum(others) / len(others) - mine) / 100
    return (1.0 if won else -1.0) + (sum(values) if won else -mine) / 100


def unseen_cards(view: CrazyEightsView) -> list[str]:
    """The deck minus the seat's hand and the discard pile: the others' hands and the stock."""
    left = Counter(deck_for(view.decks))
    left.subtract(view.hand)
    left.subtract(view.discard)
    return sorted(left.elements())


def deal_world(view: CrazyEightsView, me: int, unseen: list[str],
               rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """One deal of the unseen cards consistent with the view: the other hands (sizes kept,
    each with at least the cards its declined record proves are not of those suits nor
    eights) and the stock (the rest, top last as the rollout pops it)."""
    pool = unseen[:]
    rng.shuffle(pool)
    n = len(view.hand_counts)
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    # The most constrained seats first, so that their proven cards can be found.
    seats = sorted((s for s in range(n) if s != me),
                   key=lambda s: -len(view.declined[s]))
    for s in seats:
        size = view.hand_counts[s]
        bad = view.declined[s]
        need = max(0, size - view.drawn_since[s]) if bad else 0
        if need:
            picked = [i for i, c in enumerate(pool) if c[0] != "8" and c[1] not in bad][:need]
            taken = set(picked)
            rest = [i for i in range(len(pool)) if i not in taken][:size - len(picked)]
            chosen = set(picked) | set(rest)
            hands[s] = [pool[i] for i in sorted(chosen)]
            pool = [c for i, c in enumerate(pool) if i not in chosen]
        else:
            hands[s], pool = pool[:size], pool[size:]
    return hands, pool


class HardPlayer:
    level = "hard"

    def __init__(self, rollouts: int = 400, min_worlds: int = 20,
                 margin: float = 0.05) -> None:
        self.rollouts = rollouts
        self.min_worlds = min_worlds
        self.margin = margin

    def choose(self, view: CrazyEightsView, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        assert me is not None, "a player has a seat"
        plays = [a for a in legal if isinstance(a, Play)]
        if plays and len(view.hand) == 1:
            return plays[0]  # going out now is never worse
        # Drawing or passing with a card to play only helps in rare endings: not searched.
        options = plays or list(legal)
        if len(options) == 1:
            return options[0]
        voids = shown_voids(view)
        if isinstance(options[0], NameSuit):
            default: Any = NameSuit(hard_suit(view.hand, voids))
        else:
            default = Play(hard_card(view.hand, [a.card for a in options], voids))
        worlds = max(self.min_worlds, self.rollouts // len(options))
        unseen = unseen_cards(view)
        totals = [0.0] * len(options)
        n = len(view.hand_counts)
        limit = view.draw_limit
        top = view.discard[-1]
        for _ in range(worlds):
            base, stock = deal_world(view, me, unseen, rng)
            for i, a in enumerate(options):
                hands = [h[:] for h in base]
                st = stock[:]
                totals[i] += self._after(a, hands, st, top, view, me, limit, n)
        # The heuristic choice stands unless another is better by more than the noise of this
        # many rollouts is likely to produce (a win counts 1: MARGIN is in those units).
        d = options.index(default)
        best = max(range(len(options)), key=lambda i: (totals[i], i == d, -i))
        if totals[best] - totals[d] <= self.margin * worlds:
            return default
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


NORMAL = NormalPlayer()
PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NORMAL,
    "hard": HardPlayer(),
}
__all__ = ["DRAW_LIMIT", "PLAYERS"]
