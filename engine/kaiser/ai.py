"""Kaiser's computer players: easy, normal and hard, seeing only a seat's view.

- easy: bids its hand's obvious tricks, plays "win if I can, else play low" with no thought
  for the partner, the 5H or the 3S.
- normal: bids from a hand-strength estimate per trump suit (and no-trump), plays by the
  usual heuristics: give the 5H to a partner who is winning, throw the 3S on an opponent,
  win cheaply, lead aces.
- hard: the normal bidding, then a determinized search at every card: it deals the unseen
  cards to the other seats consistently with the voids they showed, plays each candidate to
  the end of the hand with the normal heuristics for everyone, and keeps the card with the
  best mean hand score for its side. The work is a fixed number of samples, never the clock.

This module must never look at a true state, do I/O, read the clock or use the global random
generator: everything comes from the view, the legal list and the rng it is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.kaiser.rules import (
    DECK,
    FIVE,
    SUITS,
    THREE,
    Bid,
    KaiserView,
    NameTrump,
    Pass,
    Play,
    bid_key,
    card_points,
    power,
)

# Cards as ints 0..31 (DECK order) for the rollouts: suit index, rank power, points.
ID = {c: i for i, c in enumerate(DECK)}
SUIT = tuple(SUITS.index(c[1]) for c in DECK)
POW = tuple(power(c) for c in DECK)
PTS = tuple(card_points(c) for c in DECK)
FIVE_ID = ID[FIVE]
THREE_ID = ID[THREE]


def _winner(plays: list[tuple[int, int]], trump: int) -> tuple[int, int]:
    """(seat, card) currently winning ``plays``; trump -1 is no-trump."""
    led = SUIT[plays[0][1]]
    best = plays[0]
    bk = (2 if SUIT[best[1]] == trump else 1, POW[best[1]])
    for p in plays[1:]:
        s = SUIT[p[1]]
        k = (2 if s == trump else 1 if s == led else 0, POW[p[1]])
        if k > bk:
            best, bk = p, k
    return best


def _beats(card: int, cur: int, led: int, trump: int) -> bool:
    s, cs = SUIT[card], SUIT[cur]
    if s == cs:
        return POW[card] > POW[cur]
    return s == trump


def _playable(hand: list[int], trick: list[tuple[int, int]]) -> list[int]:
    if trick:
        led = SUIT[trick[0][1]]
        f = [c for c in hand if SUIT[c] == led]
        if f:
            return f
    return hand


def smart_card(hand: list[int], trick: list[tuple[int, int]], trump: int, seat: int) -> int:
    """The normal player's card: partner-aware, 5H/3S-aware, cheapest winner."""
    legal = _playable(hand, trick)
    if len(legal) == 1:
        return legal[0]
    if not trick:
        # Lead an off-suit ace, else the highest trump from length, else a low card, and
        # never the 3S or the 5H when another card will do.
        aces = [c for c in legal if POW[c] == 9 and SUIT[c] != trump]
        if aces:
            return aces[0]
        trumps = [c for c in legal if SUIT[c] == trump]
        if len(trumps) >= 3:
            return max(trumps, key=POW.__getitem__)
        safe = [c for c in legal if c not in (FIVE_ID, THREE_ID)] or legal
        return min(safe, key=lambda c: (SUIT[c] == trump, POW[c]))
    led = SUIT[trick[0][1]]
    wseat, wcard = _winner(trick, trump)
    partner_wins = wseat % 2 == seat % 2
    last = len(trick) == 3
    winners = [c for c in legal if _beats(c, wcard, led, trump)]
    stake = 1 + sum(PTS[c] for _, c in trick)
    if partner_wins and (last or POW[wcard] >= 8 or (SUIT[wcard] == trump and led != trump)):
        if FIVE_ID in legal:
            return FIVE_ID
        safe = [c for c in legal if c != THREE_ID] or legal
        return min(safe, key=lambda c: (SUIT[c] == trump, POW[c]))
    if winners and stake > -2:
        pick = [c for c in winners if c != THREE_ID] or winners
        if last:
            return min(pick, key=lambda c: (SUIT[c] == trump, POW[c]))
        return max(pick, key=lambda c: (SUIT[c] != trump, POW[c])) if SUIT[pick[0]] == led \
            else min(pick, key=POW.__getitem__)
    if THREE_ID in legal and not partner_wins:
        return THREE_ID
    safe = [c for c in legal if c != FIVE_ID] or legal
    return min(safe, key=lambda c: (SUIT[c] == trump, POW[c]))


def simple_card(hand: list[int], trick: list[tuple[int, int]], trump: int, seat: int) -> int:
    """The easy player's card: win if it can (with the highest), else play the lowest."""
    legal = _playable(hand, trick)
    if not trick:
        return max(legal, key=POW.__getitem__)
    led = SUIT[trick[0][1]]
    _, wcard = _winner(trick, trump)
    winners = [c for c in legal if _beats(c, wcard, led, trump)]
    if winners:
        return max(winners, key=POW.__getitem__)
    return min(legal, key=POW.__getitem__)


def rollout(hands: list[list[int]], trick: list[tuple[int, int]], turn: int, trump: int,
            taken: list[int]) -> list[int]:
    """Play the hand out with ``smart_card`` for every seat; the points each side took."""
    hands = [list(h) for h in hands]
    trick = list(trick)
    taken = list(taken)
    while True:
        if not hands[turn] and not trick:
            return taken
        c = smart_card(hands[turn], trick, trump, turn)
        hands[turn].remove(c)
        trick.append((turn, c))
        if len(trick) == 4:
            w, _ = _winner(trick, trump)
            taken[w % 2] += 1 + sum(PTS[x] for _, x in trick)
            trick = []
            turn = w
        else:
            turn = (turn + 1) % 4


# -- what a seat knows ----------------------------------------------------------------------------
def knowledge(view: KaiserView) -> tuple[list[int], list[set[int]]]:
    """The unseen cards and each seat's revealed voids (suit indices)."""
    seen = {ID[c] for c in view.hand}
    voids: list[set[int]] = [set(), set(), set(), set()]
    tricks = [t.plays for t in view.tricks] + [view.trick]
    for plays in tricks:
        if not plays:
            continue
        led = SUITS.index(plays[0].card[1])
        for p in plays:
            seen.add(ID[p.card])
            if SUITS.index(p.card[1]) != led:
                voids[p.seat].add(led)
    return [c for c in range(32) if c not in seen], voids


def sample_hands(view: KaiserView, rng: random.Random) -> list[list[int]]:
    """A deal of the unseen cards to the other seats, consistent with counts and voids."""
    assert view.seat is not None
    me = view.seat
    unseen, voids = knowledge(view)
    others = [s for s in range(4) if s != me]
    for _ in range(20):
        pool = list(unseen)
        rng.shuffle(pool)
        hands: list[list[int]] = [[], [], [], []]
        hands[me] = [ID[c] for c in view.hand]
        need = {s: view.hand_counts[s] for s in others}
        # Most constrained seats first: they take from what they may hold.
        ok = True
        for s in sorted(others, key=lambda x: -len(voids[x])):
            fit = [c for c in pool if SUIT[c] not in voids[s]]
            if len(fit) < need[s]:
                ok = False
                break
            take = fit[:need[s]]
            hands[s] = take
            chosen = set(take)
            pool = [c for c in pool if c not in chosen]
        if ok:
            return hands
    pool = list(unseen)
    rng.shuffle(pool)
    hands = [[], [], [], []]
    hands[me] = [ID[c] for c in view.hand]
    pos = 0
    for s in others:
        hands[s] = pool[pos:pos + view.hand_counts[s]]
        pos += view.hand_counts[s]
    return hands


# -- bidding --------------------------------------------------------------------------------------
def suit_strength(hand: Sequence[str], trump: str | None) -> float:
    """Expected tricks this hand takes with ``trump`` (None: no-trump), by rule of thumb."""
    est = 0.0
    for s in SUITS:
        cards = sorted((c for c in hand if c[1] == s), key=power, reverse=True)
        n = len(cards)
        ranks = "".join(c[0] for c in cards)
        if s == trump:
            est += ("A" in ranks) * 1.0 + ("K" in ranks and n >= 2) * 0.85 + \
                ("Q" in ranks and n >= 3) * 0.6 + max(0, n - 3) * 0.85 + (n >= 3) * 0.3
        else:
            est += ("A" in ranks) * 0.85 + ("K" in ranks and n >= 2) * 0.45
            if trump is None:
                est += ("Q" in ranks and n >= 3) * 0.35 + max(0, n - 4) * 0.6
            elif n == 0 and any(c[1] == trump for c in hand):
                est += 0.4
    return est


def estimate(hand: Sequence[str], trump: str | None) -> float:
    """Points the side is expected to take: own tricks, the partner's share, the 5H and 3S."""
    pts = suit_strength(hand, trump) + 2.1
    if FIVE in hand:
        pts += 3.0 if trump == "H" or any(c in hand for c in ("AH", "KH")) else 1.5
    else:
        pts += 0.6
    if THREE in hand:
        pts -= 1.2
    return pts


def best_contract(hand: Sequence[str], no_trump: bool) -> tuple[float, bool, str | None]:
    options: list[tuple[float, bool, str | None]] = [
        (estimate(hand, s), False, s) for s in SUITS]
    if no_trump:
        # No-trump doubles the stake: only worth it with a clearly higher estimate.
        options.append((estimate(hand, None) - 0.8, True, None))
    return max(options, key=lambda o: o[0])


def choose_bid(view: KaiserView, legal: Sequence[Any], margin: float, *,
               allow_nt: bool = True) -> Any:
    assert view.seat is not None
    est, nt, _ = best_contract(view.hand, view.no_trump_allowed and allow_nt)
    bids = [a for a in legal if isinstance(a, Bid)]
    # Defensive bidding: near the end, stop an opponent close to the target cheaply.
    target = int(est - margin)
    fits = [b for b in bids if b.value <= target and (b.no_trump == nt or not b.no_trump)]
    passes = [a for a in legal if isinstance(a, Pass)]
    if not fits:
        if passes:
            return passes[0]
        return min(bids, key=lambda b: bid_key(b.value, b.no_trump and not nt))
    cheapest = min(fits, key=lambda b: bid_key(b.value, b.no_trump))
    if nt:
        same = [b for b in fits if b.no_trump and b.value == cheapest.value]
        if same:
            return same[0]
    return cheapest


def choose_trump(view: KaiserView, legal: Sequence[Any]) -> Any:
    best = max(SUITS, key=lambda s: estimate(view.hand, s))
    for a in legal:
        if isinstance(a, NameTrump) and a.suit == best:
            return a
    return legal[0]


class _Player:
    level = ""
    margin = 0.0

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, (Pass, Bid)):
            return self.bid(view, legal)
        if isinstance(first, NameTrump):
            return choose_trump(view, legal)
        return self.play(view, legal, rng)

    def bid(self, view: KaiserView, legal: Sequence[Any]) -> Any:
        return choose_bid(view, legal, self.margin)

    def _state(self, view: KaiserView) -> tuple[list[tuple[int, int]], int]:
        trick = [(p.seat, ID[p.card]) for p in view.trick]
        trump = -1 if view.trump is None else SUITS.index(view.trump)
        return trick, trump

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        raise NotImplementedError


class EasyPlayer(_Player):
    level = "easy"
    margin = 0.0

    def bid(self, view: KaiserView, legal: Sequence[Any]) -> Any:
        # Counts aces and trumps only, never bids no-trump by choice.
        best = max(SUITS, key=lambda s: sum(c[1] == s for c in view.hand))
        n = sum(c[1] == best for c in view.hand) + sum(c[0] == "A" for c in view.hand)
        est = n + 2.5
        fits = [a for a in legal if isinstance(a, Bid) and not a.no_trump and a.value <= est]
        if fits:
            return min(fits, key=lambda b: b.value)
        passes = [a for a in legal if isinstance(a, Pass)]
        return passes[0] if passes else min(
            (a for a in legal if isinstance(a, Bid)), key=lambda b: bid_key(b.value, b.no_trump))

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.seat is not None
        trick, trump = self._state(view)
        c = simple_card([ID[a.card] for a in legal], trick, trump, view.seat)
        return Play(DECK[c])


class NormalPlayer(_Player):
    level = "normal"
    margin = 0.3

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.seat is not None
        trick, trump = self._state(view)
        c = smart_card([ID[a.card] for a in legal], trick, trump, view.seat)
        return Play(DECK[c])


class HardPlayer(_Player):
    level = "hard"
    margin = 0.3

    def __init__(self, samples: int = 24) -> None:
        self.samples = samples

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.seat is not None and view.bidder is not None and view.bid is not None
        me = view.seat
        trick, trump = self._state(view)
        cards = [ID[a.card] for a in legal]
        if len(cards) == 1:
            return legal[0]
        bside = view.bidder % 2
        mult = 2 if view.no_trump else 1
        totals = [0.0] * len(cards)
        for _ in range(self.samples):
            hands = sample_hands(view, rng)
            for i, c in enumerate(cards):
                hs = [list(h) for h in hands]
                hs[me].remove(c)
                t = [*trick, (me, c)]
                taken = list(view.taken)
                turn = (me + 1) % 4
                if len(t) == 4:
                    w, _ = _winner(t, trump)
                    taken[w % 2] += 1 + sum(PTS[x] for _, x in t)
                    t, turn = [], w
                res = rollout(hs, t, turn, trump, taken)
                b = res[bside]
                bscore = (b if b >= view.bid else -view.bid) * mult
                d = res[1 - bside]
                ours = bscore - d if me % 2 == bside else d - bscore
                totals[i] += ours
        best = max(range(len(cards)), key=lambda i: (totals[i], -POW[cards[i]]))
        return Play(DECK[cards[best]])


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
