"""What one seat knows in Euchre, read from its view, and deals consistent with it.

``Knowledge.of(view)`` turns a seat's ``EuchreView`` into integer form for the computer players:
its hand, every card played, who is void in which suit (a failure to follow the led suit, the
left bower counted as trump), where the turned card went (everyone saw the dealer take it),
and the cards whose place it cannot know. ``sample_hands`` deals those unknown cards at random
among the other hands and the undealt pile, keeping every count and every revealed void;
``sample_fitting`` prefers deals that also fit the bidding (``misfits``).

Everything here comes from the view, the same data a remote client receives. This module must
never see a state: a computer player that did could cheat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.euchre.evaluate import hand_strength
from engine.euchre.rules import EuchreView
from engine.euchre.tables import (
    BIT,
    CARD,
    DECK_MASK,
    ESUIT,
    NO_TRUMP,
    SUIT_MASK,
    SUIT_OF,
    SUITS,
)
from engine.tricks import deal_unseen


@dataclass(frozen=True)
class Knowledge:
    seat: int
    dealer: int
    trump: int  # NO_TRUMP while bidding
    hand: int  # my cards, as a mask
    played: int  # every card played this hand (tricks done and the trick in progress)
    voids: tuple[int, int, int, int]  # per seat, a mask of effective suits it cannot follow
    counts: tuple[int, ...]
    turned: int
    turned_status: str
    maker: int  # -1 while bidding
    alone: bool
    out: int  # mask of seats sitting out
    leader: int  # of the trick in progress, -1 if none
    trick: tuple[tuple[int, int], ...]  # (seat, card) in play order
    won: tuple[int, int]
    tricks_done: int
    score: tuple[int, int]
    target: int
    deck: int
    fixed: tuple[int, int, int, int]  # cards known to be in a seat's hand besides mine
    unknown: int  # cards that may be in another hand or undealt
    played_by: tuple[int, int, int, int]  # the cards each seat has played this hand
    bids: tuple[tuple[int, int, bool, int], ...]  # (seat, round, made it?, suit or -1)

    @staticmethod
    def of(view: EuchreView) -> Knowledge:
        seat = view.seat
        if seat is None or view.dealer is None or view.turned is None:
            raise ValueError("a computer player needs a seated view of a dealt hand")
        trump = SUITS.index(view.trump) if view.trump is not None else NO_TRUMP
        esuit = ESUIT[trump]
        hand = 0
        for hc in view.hand:
            hand |= BIT[CARD[hc.card]]
        played = 0
        voids = [0, 0, 0, 0]
        played_by = [0, 0, 0, 0]
        tricks = [[(p.seat, CARD[p.card]) for p in t.plays] for t in view.tricks]
        trick = tuple((p.seat, CARD[p.card]) for p in view.trick)
        for plays in [*tricks, list(trick)]:
            if not plays:
                continue
            led = esuit[plays[0][1]]
            for s, c in plays:
                played |= BIT[c]
                played_by[s] |= BIT[c]
                if esuit[c] != led:
                    voids[s] |= 1 << led
        turned = CARD[view.turned]
        dealer = view.dealer
        fixed = [0, 0, 0, 0]
        gone = hand | played | BIT[turned]
        if view.discard is not None:
            gone |= BIT[CARD[view.discard]]
        if view.turned_status == "taken" and dealer != seat and not played & BIT[turned]:
            fixed[dealer] = BIT[turned]
        unknown = DECK_MASK[view.deck] & ~gone
        return Knowledge(
            seat=seat,
            dealer=dealer,
            trump=trump,
            hand=hand,
            played=played,
            voids=(voids[0], voids[1], voids[2], voids[3]),
            counts=view.hand_counts,
            turned=turned,
            turned_status=view.turned_status or "up",
            maker=view.maker if view.maker is not None else -1,
            alone=view.alone,
            out=sum(1 << s for s in view.sitting_out),
            leader=view.leader if view.leader is not None else -1,
            trick=trick,
            won=view.tricks_won,
            tricks_done=len(view.tricks),
            score=view.score,
            target=view.target,
            deck=view.deck,
            fixed=(fixed[0], fixed[1], fixed[2], fixed[3]),
            unknown=unknown,
            played_by=(played_by[0], played_by[1], played_by[2], played_by[3]),
            bids=tuple((b.seat, b.round, b.call != "pass", SUITS.index(b.suit) if b.suit else -1)
                       for b in view.bids),
        )

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def side(self) -> int:
        return self.seat % 2

    def live(self) -> int:
        """Cards not yet played that could still be in someone's hand (mine included)."""
        return self.unknown | self.hand | self.fixed[0] | self.fixed[1] | self.fixed[2] | \
            self.fixed[3]


def sample_hands(k: Knowledge, rng: random.Random, *, tries: int = 20) -> tuple[int, int, int, int]:
    """One deal of the unknown cards: my hand as it is, the others' hands of the right size
    holding no card of a suit they showed out of, the turned card with the dealer once taken.

    Seats that sit out are dealt too (they hold cards, they just never play them). The deal
    itself is the shared one (``engine.tricks.deal_unseen``): the voids are of effective suits
    (the left bower is trump), and what no hand gets is the undealt pile.
    """
    need = [0 if s == k.seat else k.counts[s] - k.fixed[s].bit_count() for s in range(4)]
    return deal_unseen(k.seat, k.hand, k.unknown, need, k.voids, SUIT_MASK[k.trump], k.fixed,
                       rng, tries=tries)


# How far the sampler trusts the bidding: a seat that passed when it could have made a suit
# rarely held a hand this strong, and a maker rarely one this weak (normal's own thresholds
# are near 7; the margins allow for other players, people included, bidding otherwise).
PASS_LIMIT = 8.5
MAKE_FLOOR = 5.0


def misfits(k: Knowledge, hands: tuple[int, int, int, int], trump: int) -> int:
    """How many of the other seats' calls ``hands`` contradicts, with ``trump`` as trump."""
    turned_suit = SUIT_OF[k.turned]
    bad = 0
    for seat, rnd, made, suit in k.bids:
        if seat == k.seat:
            continue
        original = hands[seat] | k.played_by[seat]
        if made:
            if suit == trump and hand_strength(original, trump) < MAKE_FLOOR:
                bad += 1
        elif (rnd == 1) == (trump == turned_suit) and hand_strength(original, trump) >= PASS_LIMIT:
            bad += 1
    return bad


def sample_fitting(k: Knowledge, rng: random.Random, trump: int, *,
                   draws: int = 8) -> tuple[int, int, int, int]:
    """A deal from ``sample_hands`` that also fits the bidding, if one of ``draws`` does
    (otherwise the one that fits best): rejection sampling against ``misfits``."""
    best: tuple[int, int, int, int] | None = None
    best_bad = 99
    for _ in range(draws):
        hands = sample_hands(k, rng)
        bad = misfits(k, hands, trump)
        if bad == 0:
            return hands
        if bad < best_bad:
            best, best_bad = hands, bad
    assert best is not None
    return best
