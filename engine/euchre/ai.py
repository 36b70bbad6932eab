"""Euchre's computer players: ``random``, ``easy``, ``normal`` and ``hard``.

Each is ``choose(view, legal, rng)``: a pure function of the seat's view (the very data a
remote client gets), the legal actions and a generator the host seeds. None ever sees a state.

- easy: orders up or names a suit holding three or more trumps, never alone; plays any legal
  card at random.
- normal: bids on hand strength (bowers, trump count, off-suit aces, voids), adjusted for its
  seat and for what the turned card gives the dealer's side; goes alone only with a near-
  certain hand; plays by the book: leads trump as a maker, second hand low, third hand high,
  never trumps a partner's winning trick, and reads voids from the tricks played.
- hard: samples deals consistent with the view (``knowledge.sample_hands``) and solves each
  double dummy (``search.Solver``), bidding and playing for the best average score. Work is
  bounded by samples and search nodes, never by the clock, so a decision is reproducible.

Partners share one objective (their side's points), so they never play against each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from engine.ai import RandomPlayer
from engine.euchre.evaluate import (
    TRUMP_VALUE,
    best_discard,
    hand_strength,
    trumps_in,
    with_turned,
)
from engine.euchre.knowledge import Knowledge, sample_fitting
from engine.euchre.rules import (
    DefendAlone,
    DefendWithPartner,
    Discard,
    EuchreView,
    NameTrump,
    OrderUp,
    Pass,
    Play,
)
from engine.euchre.search import HIGHER, Solver
from engine.euchre.tables import (
    BIT,
    CARD,
    CODE,
    ESUIT,
    POWER,
    STRENGTH,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
    cards_of,
)


# -- reading a trick --------------------------------------------------------------------------
def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, int]:
    """(seat, power) of the card winning the trick so far."""
    led = ESUIT[trump][trick[0][1]]
    power = POWER[trump][led]
    seat, best = trick[0][0], -1
    for s, c in trick:
        if power[c] > best:
            seat, best = s, power[c]
    return seat, best


def is_boss(k: Knowledge, c: int, mine: int) -> bool:
    """No card that could still beat ``c`` in its own suit is out of ``mine``."""
    live_others = k.unknown | k.fixed[0] | k.fixed[1] | k.fixed[2] | k.fixed[3]
    return not any(live_others & BIT[d] for d in HIGHER[k.trump][c] if not mine & BIT[d])


def players_after(k: Knowledge) -> list[int]:
    """The seats still to play to the trick in progress, after me."""
    active = [s for s in range(4) if not k.out >> s & 1]
    n = len(active)
    played = len(k.trick)
    order: list[int] = []
    s = k.seat
    while len(order) < n - played - 1:
        s = (s + 1) % 4
        if not k.out >> s & 1:
            order.append(s)
    return order


def may_beat(k: Knowledge, seat: int, power: int, led: int) -> bool:
    """Could ``seat`` hold a card beating ``power`` on a trick led in ``led``?"""
    trump = k.trump
    pl = POWER[trump][led]
    candidates = k.unknown | k.fixed[seat]
    void_led = k.voids[seat] >> led & 1
    for c in cards_of(candidates):
        if pl[c] <= power:
            continue
        e = ESUIT[trump][c]
        if e == led and not void_led:
            return True
        if e == trump and e != led and not k.voids[seat] >> trump & 1:
            # A trump on a plain lead: only if the seat could be void in the led suit.
            return True
    return False


# -- the players ----------------------------------------------------------------------------------
def _trump_actions(legal: Sequence[Any]) -> dict[tuple[str, bool], Any]:
    return {(a.suit, a.alone): a for a in legal if isinstance(a, NameTrump)}


def _nameable(names: dict[tuple[str, bool], Any], key: Callable[[int], float]) -> list[str]:
    """The suits that may be named, best first by ``key`` (of the suit's index), ties in suit
    order: never in set order, which changes from one process to the next."""
    return sorted((s for s in SUITS if (s, False) in names), key=lambda s: key(SUITS.index(s)))


class Player:
    """What every level shares: a forced action is taken at once, and a decision goes by its
    kind to ``bid``, ``defend`` or ``play_card``; the dealer's discard is the same for all."""

    level = ""

    def choose(self, view: EuchreView, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        k = Knowledge.of(view)
        first = legal[0]
        if isinstance(first, (Pass, OrderUp, NameTrump)):
            return self.bid(k, legal, rng)
        if isinstance(first, Discard):
            return Discard(CODE[best_discard(k.hand, k.trump)])
        if isinstance(first, (DefendAlone, DefendWithPartner)):
            return self.defend(k)
        cards = [CARD[a.card] for a in legal]
        return Play(CODE[self.play_card(k, cards, rng)])

    def bid(self, k: Knowledge, legal: Sequence[Any], rng: random.Random) -> Any:
        raise NotImplementedError

    def defend(self, k: Knowledge) -> Any:
        return DefendWithPartner()

    def play_card(self, k: Knowledge, cards: list[int], rng: random.Random) -> int:
        raise NotImplementedError


class EasyPlayer(Player):
    level = "easy"

    def play_card(self, k: Knowledge, cards: list[int], rng: random.Random) -> int:
        return cards[rng.randrange(len(cards))]

    def bid(self, k: Knowledge, legal: Sequence[Any], rng: random.Random) -> Any:
        if any(isinstance(a, OrderUp) for a in legal):
            trumps = trumps_in(k.hand, SUIT_OF[k.turned]) + (k.dealer == k.seat)
            return OrderUp(False) if trumps >= 3 else Pass()
        names = _trump_actions(legal)
        suits = _nameable(names, lambda t: -trumps_in(k.hand, t))
        best = suits[0]
        if trumps_in(k.hand, SUITS.index(best)) >= 3 or Pass() not in legal:
            return names[(best, False)]
        return Pass()


class NormalPlayer(Player):
    level = "normal"

    def __init__(self, order_at: tuple[float, float, float, float] = (7.0, 7.4, 6.8, 7.4),
                 name_at: tuple[float, float, float, float] = (0.0, 6.6, 7.2, 7.0),
                 alone_at: float = 12.0) -> None:
        # Thresholds on hand_strength, by seat counted from the dealer (0 is the dealer, 1 the
        # dealer's left, 2 the dealer's partner).
        self.order_at = order_at
        self.name_at = name_at
        self.alone_at = alone_at

    def play_card(self, k: Knowledge, cards: list[int], rng: random.Random) -> int:
        return self.play(k, cards)

    # -- bidding ----------------------------------------------------------------------------
    def round_one_strength(self, k: Knowledge) -> float:
        trump = SUIT_OF[k.turned]
        if k.dealer == k.seat:
            return hand_strength(with_turned(k.hand, k.turned, trump), trump)
        s = hand_strength(k.hand, trump)
        bonus = TRUMP_VALUE[STRENGTH[trump][k.turned] - 20] * 0.6
        return s + bonus if (k.dealer - k.seat) % 2 == 0 else s - bonus

    def can_alone(self, k: Knowledge, hand: int, trump: int) -> bool:
        need = k.target - k.score[k.side]
        return need > 2 and hand_strength(hand, trump) >= self.alone_at and \
            trumps_in(hand, trump) >= 3

    def bid(self, k: Knowledge, legal: Sequence[Any], rng: random.Random) -> Any:
        position = (k.seat - k.dealer) % 4
        if any(isinstance(a, OrderUp) for a in legal):
            trump = SUIT_OF[k.turned]
            if self.round_one_strength(k) < self.order_at[position]:
                return Pass()
            hand = with_turned(k.hand, k.turned, trump) if k.dealer == k.seat else k.hand
            alone = OrderUp(True) in legal and self.can_alone(k, hand, trump)
            return OrderUp(alone)
        names = _trump_actions(legal)
        suits = _nameable(names, lambda t: -hand_strength(k.hand, t))
        best = suits[0]
        t = SUITS.index(best)
        strength = hand_strength(k.hand, t)
        if strength < self.name_at[position] and Pass() in legal:
            return Pass()
        alone = (best, True) in names and self.can_alone(k, k.hand, t)
        return names[(best, alone)]

    def defend(self, k: Knowledge) -> Any:
        strong = hand_strength(k.hand, k.trump) >= 9.0 and trumps_in(k.hand, k.trump) >= 3
        return DefendAlone() if strong else DefendWithPartner()

    # -- play ---------------------------------------------------------------------------------
    def play(self, k: Knowledge, cards: list[int]) -> int:
        if len(cards) == 1:
            return cards[0]
        trump = k.trump
        strength = STRENGTH[trump]
        if not k.trick:
            return self.lead(k, cards)
        led = ESUIT[trump][k.trick[0][1]]
        win_seat, win_power = trick_winner(k.trick, trump)
        power = POWER[trump][led]
        after = players_after(k)
        opponents_after = [s for s in after if s % 2 != k.side]
        winners = [c for c in cards if power[c] > win_power]
        lowest = min(cards, key=lambda c: (strength[c], self._keep(k, c)))
        if win_seat % 2 == k.side:
            # Partner winning: do not overtake or trump it unless it is likely to be beaten.
            if not any(may_beat(k, s, win_power, led) for s in opponents_after):
                return lowest
            # Overtake in the led suit (never by trumping) with a card nobody left can beat.
            safe = [c for c in winners if ESUIT[trump][c] == led
                    and not any(may_beat(k, s, power[c], led) for s in opponents_after)]
            if safe:
                return min(safe, key=lambda c: strength[c])
            return lowest
        if not winners:
            return lowest
        sure = [c for c in winners
                if not any(may_beat(k, s, power[c], led) for s in opponents_after)]
        if sure:
            return min(sure, key=lambda c: strength[c])
        if not after or all(s % 2 == k.side for s in after):
            return min(winners, key=lambda c: strength[c])
        if len(k.trick) == 1:
            # Second hand low, unless a trump would take a high card of a plain suit.
            if ESUIT[trump][min(winners, key=lambda c: strength[c])] == trump and \
                    led != trump and STRENGTH[trump][k.trick[0][1]] >= 6:
                return min(winners, key=lambda c: strength[c])
            return lowest
        # Third hand high.
        return max(winners, key=lambda c: strength[c])

    def _keep(self, k: Knowledge, c: int) -> int:
        """Among equally low cards, prefer to shed one from a short suit (making a void)."""
        return (k.hand & SUIT_MASK[k.trump][ESUIT[k.trump][c]]).bit_count()

    def lead(self, k: Knowledge, cards: list[int]) -> int:
        trump = k.trump
        strength = STRENGTH[trump]
        esuit = ESUIT[trump]
        trumps = [c for c in cards if esuit[c] == trump]
        plain = [c for c in cards if esuit[c] != trump]
        maker_side = k.maker >= 0 and k.maker % 2 == k.side
        opponents = [s for s in range(4) if s % 2 != k.side and not k.out >> s & 1]
        if trumps and maker_side:
            top = max(trumps, key=lambda c: strength[c])
            if is_boss(k, top, k.hand):
                return top
            if k.maker == k.seat and len(trumps) >= 2:
                return top if len(trumps) >= 3 else min(trumps, key=lambda c: strength[c])
        # A plain-suit winner the opponents cannot trump (as far as the view tells).
        for c in sorted(plain, key=lambda c: -strength[c]):
            if is_boss(k, c, k.hand) and not any(k.voids[s] >> esuit[c] & 1 and
                                                 not k.voids[s] >> trump & 1 for s in opponents):
                return c
        if trumps and not plain:
            top = max(trumps, key=lambda c: strength[c])
            return top if is_boss(k, top, k.hand) else min(trumps, key=lambda c: strength[c])
        if trumps and maker_side:
            return max(trumps, key=lambda c: strength[c])
        # Lead low from the shortest plain suit, or into a suit the partner is void in.
        partner = k.partner
        if not k.out >> partner & 1:
            for c in sorted(plain, key=lambda c: strength[c]):
                if k.voids[partner] >> esuit[c] & 1 and not k.voids[partner] >> trump & 1:
                    return c
        return min(plain, key=lambda c: (self._keep(k, c), strength[c]))


class HardPlayer(Player):
    """Determinized double-dummy search (perfect-information Monte Carlo).

    ``samples`` deals are drawn per decision; each legal card is valued by the side's hand score
    under double-dummy play, averaged; a search-node budget stops sampling early on hard
    positions. Bidding values ordering, naming and going alone the same way against a
    position-dependent threshold for passing.
    """

    level = "hard"

    def __init__(self, order_at: tuple[float, float, float, float] = (0.1, 0.25, 0.1, 0.25),
                 name_at: tuple[float, float, float, float] = (-9.0, 0.1, 0.25, 0.25),
                 play_samples: int = 24, play_nodes: int = 40_000, bid_samples: int = 14,
                 bid_nodes: int = 40_000, cap: bool = True) -> None:
        # The average points a call must promise to beat passing, by seat from the dealer.
        self.order_at = order_at
        self.name_at = name_at
        self.play_samples = play_samples
        self.play_nodes = play_nodes
        self.bid_samples = bid_samples
        self.bid_nodes = bid_nodes
        self.cap = cap
        self.normal = NormalPlayer()

    def defend(self, k: Knowledge) -> Any:
        return self.normal.defend(k)

    # -- scoring a double-dummy result ----------------------------------------------------------
    @staticmethod
    def outcome_class(search: Callable[[int, int], int], maker_side: int, won: tuple[int, int],
                      remaining: int) -> tuple[bool, bool]:
        """(made, march) for the makers, from null-window searches of side 0's tricks.

        ``search(alpha, beta)`` is a fail-soft search of side 0's remaining tricks; only the
        thresholds that change the score are asked about (at most two questions).
        """

        def at_least(x: int) -> bool:
            if x <= 0:
                return True
            if x > remaining:
                return False
            return search(x - 1, x) >= x

        if maker_side == 0:
            made = at_least(3 - won[0])
            return made, made and at_least(5 - won[0])
        made = not at_least(remaining - 2 + won[1])
        return made, made and not at_least(remaining - 4 + won[1])

    def score_of(self, k: Knowledge, maker: int, alone: bool, lone_defender: bool, made: bool,
                 march: bool) -> float:
        """My side's points (negative when the other side scores) for a hand's end.

        Points past the target are worth nothing: a side that needs one point gains no more
        from a march, and one that needs two fears a lone march no more than a euchre.
        """
        if made:
            pts = (4 if alone else 2) if march else 1
            side = maker % 2
        else:
            pts = 4 if lone_defender else 2
            side = 1 - maker % 2
        if self.cap:
            pts = min(pts, k.target - k.score[side])
        return float(pts) if side == k.side else -float(pts)

    # -- play --------------------------------------------------------------------------------
    def play_card(self, k: Knowledge, cards: list[int], rng: random.Random) -> int:
        moves = self._distinct(k, cards)
        if len(moves) == 1:
            return moves[0]
        maker_side = k.maker % 2
        lone_defender = bool(k.out & ~(1 << ((k.maker + 2) % 4)) & 15)
        remaining = 5 - k.tricks_done
        totals = [0.0] * len(moves)
        nodes = 0
        leader = k.leader if k.trick else k.seat
        for _ in range(self.play_samples):
            dealt = sample_fitting(k, rng, k.trump)
            hands = tuple(0 if k.out >> s & 1 else dealt[s] for s in range(4))
            h4 = (hands[0], hands[1], hands[2], hands[3])
            solver = Solver(k.trump, k.out)
            for i, c in enumerate(moves):
                search = partial(solver.after, h4, leader, k.trick, k.seat, c)
                made, march = self.outcome_class(search, maker_side, k.won, remaining)
                totals[i] += self.score_of(k, k.maker, k.alone, lone_defender, made, march)
            nodes += solver.nodes
            if nodes > self.play_nodes:
                break
        # Among moves the search cannot tell apart, the book play (the normal player's).
        top = max(totals)
        tied = [c for c, t in zip(moves, totals, strict=True) if t >= top - 1e-9]
        if len(tied) == 1:
            return tied[0]
        book = self.normal.play(k, tied)
        return book

    @staticmethod
    def _distinct(k: Knowledge, cards: list[int]) -> list[int]:
        """One card per run of my cards touching in rank (no live card, nor one in the trick,
        between them): such cards play the same, so only one need be searched."""
        live = k.live()
        for _, c in k.trick:
            live |= BIT[c]
        choices = set(cards)
        out = []
        for c in cards:
            for d in HIGHER[k.trump][c]:
                if live & BIT[d]:
                    if d not in choices:
                        out.append(c)
                    break
            else:
                out.append(c)
        return out

    # -- bidding --------------------------------------------------------------------------------
    def call_value(self, k: Knowledge, trump: int, alone: bool, rng: random.Random,
                   budget: list[int], *, picked_up: bool) -> float:
        """My side's average points if I make ``trump`` (alone or not), double dummy.

        ``budget`` is the decision's remaining search nodes, shared by every call it values
        (one element, spent in place); at least a few samples are always taken.
        """
        total = 0.0
        n = 0
        out = 1 << k.partner if alone else 0
        for i in range(self.bid_samples):
            hands = list(sample_fitting(k, rng, trump))
            if picked_up and not out >> k.dealer & 1:
                hands[k.dealer] = with_turned(hands[k.dealer], k.turned, trump)
            if alone:
                hands[k.partner] = 0
            solver = Solver(trump, out)
            leader = solver.next[k.dealer]
            h4 = (hands[0], hands[1], hands[2], hands[3])

            search = partial(solver.window, h4, leader)
            made, march = self.outcome_class(search, k.side, (0, 0), 5)
            total += self.score_of(k, k.seat, alone, False, made, march)
            n += 1
            budget[0] -= solver.nodes
            if budget[0] <= 0 and i >= 3:
                break
        return total / n

    def bid(self, k: Knowledge, legal: Sequence[Any], rng: random.Random) -> Any:
        position = (k.seat - k.dealer) % 4
        need = k.target - k.score[k.side]
        if any(isinstance(a, OrderUp) for a in legal):
            trump = SUIT_OF[k.turned]
            # Hopeless hands pass without search; the normal player's estimate screens them.
            if self.normal.round_one_strength(k) < self.normal.order_at[position] - 2.5:
                return Pass()
            budget = [self.bid_nodes]
            value = self.call_value(k, trump, False, rng, budget, picked_up=True)
            if value < self.order_at[position]:
                return Pass()
            if OrderUp(True) in legal and need > 2 and value >= 1.0:
                alone = self.call_value(k, trump, True, rng, budget, picked_up=True)
                if alone > value:
                    return OrderUp(True)
            return OrderUp(False)
        names = _trump_actions(legal)
        suits = _nameable(names, lambda t: -hand_strength(k.hand, t))
        must = Pass() not in legal
        best_suit, best_value = suits[0], -99.0
        budget = [self.bid_nodes]
        for s in suits[:2]:
            t = SUITS.index(s)
            if not must and hand_strength(k.hand, t) < self.normal.name_at[position] - 2.5:
                continue
            v = self.call_value(k, t, False, rng, budget, picked_up=False)
            if v > best_value:
                best_suit, best_value = s, v
        if not must and best_value < self.name_at[position]:
            return Pass()
        if (best_suit, True) in names and need > 2 and best_value >= 1.0:
            t = SUITS.index(best_suit)
            alone = self.call_value(k, t, True, rng, budget, picked_up=False)
            if alone > best_value:
                return names[(best_suit, True)]
        return names[(best_suit, False)]


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}

__all__ = ["PLAYERS", "EasyPlayer", "HardPlayer", "NormalPlayer"]
