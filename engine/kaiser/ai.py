"""Kaiser's computer players: easy, normal and hard, seeing only a seat's view.

- easy: bids from its longest suit and its aces, never no-trump by choice; plays "win with
  the highest card if it can, else play the lowest", with no thought for its partner, the 5H
  or the 3S.
- normal: bids from a hand-strength estimate per trump suit (and no-trump), names its best
  suit, and plays by the usual heuristics: give the 5H to a partner who is winning, throw the
  3S on an opponent's trick, win cheaply, lead off-suit aces, draw trumps from length.
- hard: bids and names trump by sampling: it deals the unseen cards at random (12 deals),
  plays each denomination out with itself leading and ``smart_card`` for everyone, and makes
  the call with the best mean swing (its side's score less the defenders', the defender
  restriction applied), passing when none beats what passing is worth. Then a determinized
  search at every card: it deals the unseen cards to the other seats consistently with the
  counts and the voids they showed (``engine.tricks.deal_unseen``; 8 deals), plays each
  candidate to the end of the hand with the normal heuristics for everyone, and keeps the
  card with the best mean hand score for its side (the bid made or failed, no-trump doubled,
  the defenders' points). The work is a fixed number of samples, never the clock.

Cards are the shared integer layout of ``engine.tricks`` (suit * 8 + rank) for the rollouts.
This module must never look at a true state, do I/O, read the clock or use the global random
generator: everything comes from the view, the legal list and the rng it is given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.ai import RandomPlayer
from engine.kaiser.state import (
    CARD,
    DECK,
    FIVE,
    TABLES,
    THREE,
    Bid,
    BidNoTrump,
    NameTrump,
    Pass,
    Play,
    bid_key,
    card_points,
    trump_index,
)
from engine.kaiser.views import KaiserView
from engine.tricks import BIT, NO_TRUMP, RANK_OF, SUIT_OF, SUITS, deal_unseen

POWER = TABLES.power
SUIT_MASK = TABLES.suit_mask[NO_TRUMP]  # Kaiser has no bowers: a card's suit never changes
PTS = tuple(card_points(c) for c in DECK)
FIVE_ID = CARD[FIVE]
THREE_ID = CARD[THREE]
ACE = 7
ALL = (1 << 32) - 1
PASS = Pass()

Trick = list[tuple[int, int]]  # (seat, card) in play order


def _winner(plays: Trick, trump: int) -> tuple[int, int]:
    """(seat, card) currently winning ``plays``; trump NO_TRUMP is no-trump."""
    power = POWER[trump][SUIT_OF[plays[0][1]]]
    best = plays[0]
    for p in plays[1:]:
        if power[p[1]] > power[best[1]]:
            best = p
    return best


def _playable(hand: list[int], trick: Trick) -> list[int]:
    if trick:
        led = SUIT_OF[trick[0][1]]
        same = [c for c in hand if SUIT_OF[c] == led]
        if same:
            return same
    return hand


def _low(cards: list[int], trump: int) -> int:
    """The cheapest card: a plain card before a trump, the lowest rank first."""
    return min(cards, key=lambda c: (SUIT_OF[c] == trump, RANK_OF[c]))


def smart_card(hand: list[int], trick: Trick, trump: int, seat: int) -> int:
    """The normal player's card: partner-aware, 5H/3S-aware, cheapest winner."""
    legal = _playable(hand, trick)
    if len(legal) == 1:
        return legal[0]
    if not trick:
        # Lead an off-suit ace, else the highest trump from length, else a low card, and
        # never the 3S or the 5H when another card will do.
        aces = [c for c in legal if RANK_OF[c] == ACE and SUIT_OF[c] != trump]
        if aces:
            return aces[0]
        trumps = [c for c in legal if SUIT_OF[c] == trump]
        if len(trumps) >= 3:
            return max(trumps, key=RANK_OF.__getitem__)
        safe = [c for c in legal if c not in (FIVE_ID, THREE_ID)] or legal
        return _low(safe, trump)
    power = POWER[trump][SUIT_OF[trick[0][1]]]
    wseat, wcard = _winner(trick, trump)
    partner_wins = wseat % 2 == seat % 2
    last = len(trick) == 3
    winners = [c for c in legal if power[c] > power[wcard]]
    stake = 1 + sum(PTS[c] for _, c in trick)
    # A partner's trick is safe when it is the last card or it is held by a high card.
    if partner_wins and (last or RANK_OF[wcard] >= 6 or power[wcard] > 20):
        if FIVE_ID in legal:
            return FIVE_ID
        safe = [c for c in legal if c != THREE_ID] or legal
        return _low(safe, trump)
    if winners and stake > -2:
        pick = [c for c in winners if c != THREE_ID] or winners
        if last or SUIT_OF[pick[0]] != SUIT_OF[trick[0][1]]:
            return min(pick, key=power.__getitem__)  # the cheapest winner (a low trump)
        return max(pick, key=power.__getitem__)  # not last: win high in the suit led
    if THREE_ID in legal and not partner_wins:
        return THREE_ID
    safe = [c for c in legal if c != FIVE_ID] or legal
    return _low(safe, trump)


def simple_card(hand: list[int], trick: Trick, trump: int, seat: int) -> int:
    """The easy player's card: win if it can (with the highest), else play the lowest."""
    legal = _playable(hand, trick)
    if not trick:
        return max(legal, key=RANK_OF.__getitem__)
    power = POWER[trump][SUIT_OF[trick[0][1]]]
    _, wcard = _winner(trick, trump)
    winners = [c for c in legal if power[c] > power[wcard]]
    if winners:
        return max(winners, key=power.__getitem__)
    return min(legal, key=RANK_OF.__getitem__)


def rollout(hands: list[list[int]], trick: Trick, turn: int, trump: int,
            taken: list[int]) -> list[int]:
    """Play the hand out with ``smart_card`` for every seat; the points each side took."""
    hands = [list(h) for h in hands]
    trick = list(trick)
    taken = list(taken)
    while hands[turn] or trick:
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
    return taken


# -- what a seat knows ----------------------------------------------------------------------------
def knowledge(view: KaiserView) -> tuple[int, list[int]]:
    """The unseen cards (a mask) and each seat's revealed voids (bit ``suit`` set)."""
    seen = 0
    for c in view.hand:
        seen |= BIT[CARD[c]]
    voids = [0, 0, 0, 0]
    for plays in [*(t.plays for t in view.tricks), view.trick]:
        if not plays:
            continue
        led = SUITS.index(plays[0].card[1])
        for p in plays:
            seen |= BIT[CARD[p.card]]
            if p.card[1] != plays[0].card[1]:
                voids[p.seat] |= 1 << led
    return ALL & ~seen, voids


def sample_hands(view: KaiserView, rng: random.Random) -> list[list[int]]:
    """A deal of the unseen cards to the other seats, consistent with counts and voids."""
    assert view.seat is not None
    unseen, voids = knowledge(view)
    mine = 0
    for c in view.hand:
        mine |= BIT[CARD[c]]
    need = [0 if s == view.seat else view.hand_counts[s] for s in range(4)]
    masks = deal_unseen(view.seat, mine, unseen, need, voids, SUIT_MASK, (0, 0, 0, 0), rng)
    return [[c for c in range(32) if m >> c & 1] for m in masks]


# -- bidding --------------------------------------------------------------------------------------
def suit_strength(hand: Sequence[str], trump: str | None) -> float:
    """Expected tricks this hand takes with ``trump`` (None: no-trump), by rule of thumb."""
    est = 0.0
    for s in SUITS:
        ranks = "".join(c[0] for c in hand if c[1] == s)
        n = len(ranks)
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


def best_contract(hand: Sequence[str], no_trump: bool) -> tuple[float, bool]:
    """The best estimate over the suits (and no-trump when allowed), and whether it is NT."""
    options = [(estimate(hand, s), False) for s in SUITS]
    if no_trump:
        # No-trump doubles the stake: only worth it with a clearly higher estimate.
        options.append((estimate(hand, None) - 0.8, True))
    return max(options)


def _bids(legal: Sequence[Any]) -> list[Bid | BidNoTrump]:
    return [a for a in legal if isinstance(a, (Bid, BidNoTrump))]


def _cheapest(bids: Sequence[Bid | BidNoTrump]) -> Bid | BidNoTrump:
    return min(bids, key=lambda b: bid_key(b.value, isinstance(b, BidNoTrump)))


def choose_bid(view: KaiserView, legal: Sequence[Any], margin: float) -> Any:
    """The cheapest legal bid the hand's estimate covers with ``margin`` to spare, else pass
    (the forced dealer bids the minimum in its best denomination)."""
    est, nt = best_contract(view.hand, view.no_trump_allowed)
    bids = _bids(legal)
    cover = int(est - margin)
    fits = [b for b in bids if b.value <= cover and (isinstance(b, BidNoTrump) == nt)]
    if not fits:
        if PASS in legal:
            return PASS
        same = [b for b in bids if isinstance(b, BidNoTrump) == nt]
        return _cheapest(same or bids)
    return _cheapest(fits)


def choose_trump(view: KaiserView, legal: Sequence[Any]) -> Any:
    best = max(SUITS, key=lambda s: estimate(view.hand, s))
    return next((a for a in legal if isinstance(a, NameTrump) and a.suit == best), legal[0])


class _Player:
    level = ""
    margin = 0.0

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if isinstance(first, (Pass, Bid, BidNoTrump)):
            return self.bid(view, legal, rng)
        if isinstance(first, NameTrump):
            return self.trump(view, legal, rng)
        return self.play(view, legal, rng)

    def bid(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        return choose_bid(view, legal, self.margin)

    def trump(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        return choose_trump(view, legal)

    def _trick(self, view: KaiserView) -> tuple[Trick, int]:
        return [(p.seat, CARD[p.card]) for p in view.trick], trump_index(view.trump)

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        raise NotImplementedError


class EasyPlayer(_Player):
    level = "easy"

    def bid(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        # Counts its longest suit and its aces only; never no-trump by choice.
        longest = max(sum(c[1] == s for c in view.hand) for s in SUITS)
        est = longest + sum(c[0] == "A" for c in view.hand) + 2.5
        bids = _bids(legal)
        fits = [b for b in bids if isinstance(b, Bid) and b.value <= est]
        if fits:
            return _cheapest(fits)
        return PASS if PASS in legal else _cheapest([b for b in bids if isinstance(b, Bid)])

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.seat is not None
        trick, trump = self._trick(view)
        return Play(DECK[simple_card([CARD[a.card] for a in legal], trick, trump, view.seat)])


class NormalPlayer(_Player):
    level = "normal"
    margin = 0.3

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.seat is not None
        trick, trump = self._trick(view)
        return Play(DECK[smart_card([CARD[a.card] for a in legal], trick, trump, view.seat)])


def contract_takes(view: KaiserView, rng: random.Random, samples: int) -> dict[int, list[int]]:
    """For each denomination (suit index, or NO_TRUMP when allowed), what this seat's side took
    in ``samples`` deals of the unseen cards played out with this seat leading (the contract
    holder leads), every seat playing ``smart_card``: the same deals for every denomination."""
    assert view.seat is not None
    me = view.seat
    mine = 0
    for c in view.hand:
        mine |= BIT[CARD[c]]
    need = [0 if s == me else 8 for s in range(4)]
    denoms = [0, 1, 2, 3, NO_TRUMP] if view.no_trump_allowed else [0, 1, 2, 3]
    out: dict[int, list[int]] = {d: [] for d in denoms}
    for _ in range(samples):
        masks = deal_unseen(me, mine, ALL & ~mine, need, (0, 0, 0, 0), SUIT_MASK, (0, 0, 0, 0),
                            rng)
        hands = [[c for c in range(32) if m >> c & 1] for m in masks]
        for d in denoms:
            out[d].append(rollout(hands, [], me, d, [0, 0])[me % 2])
    return out


def contract_value(takes: Sequence[int], value: int, no_trump: bool,
                   defenders_restricted: bool = False) -> float:
    """The mean swing for the bidding side of a contract: its score (what it took if it made
    the bid, else minus the bid; doubled in no-trump) less what the defenders scored (the
    hand holds 10 points in all; a restricted defence scores no positive points)."""
    mult = 2 if no_trump else 1
    total = 0
    for t in takes:
        theirs = 10 - t
        if defenders_restricted and theirs > 0:
            theirs = 0
        total += (t if t >= value else -value) * mult - theirs
    return total / len(takes)


def restricted(view: KaiserView, side: int) -> bool:
    """Whether ``side`` would score no positive points defending this hand."""
    return view.restriction is not None and view.score[side] >= view.restriction


class HardPlayer(_Player):
    level = "hard"
    margin = 0.3
    # What passing is worth in the same terms: the opponents (or the forced dealer) then play
    # the contract, which costs the passing side a little on average; more when its own
    # side is restricted and cannot score defending.
    pass_value = -2.0
    restricted_pass_value = -4.0
    bid_samples = 12

    def bid(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        """The legal call with the best mean swing over sampled deals played out (pass if
        none beats ``pass_value``)."""
        assert view.side is not None
        takes = contract_takes(view, rng, self.bid_samples)
        theirs = restricted(view, 1 - view.side)
        best: Any = PASS if PASS in legal else None
        best_value = float("-inf")
        if best is not None:
            best_value = self.restricted_pass_value if restricted(view, view.side) \
                else self.pass_value
        for b in _bids(legal):
            nt = isinstance(b, BidNoTrump)
            denoms = [NO_TRUMP] if nt else [0, 1, 2, 3]
            v = max(contract_value(takes[d], b.value, nt, theirs) for d in denoms)
            if v > best_value:
                best, best_value = b, v
        return best

    def trump(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.bid is not None
        takes = contract_takes(view, rng, self.bid_samples)
        theirs = view.side is not None and restricted(view, 1 - view.side)
        best = max(range(4), key=lambda d: contract_value(takes[d], view.bid or 0, False, theirs))
        return next((a for a in legal if isinstance(a, NameTrump) and a.suit == SUITS[best]),
                    legal[0])

    # Eight deals per card: a third of the work of 24, so that a 400-game self-play fits the
    # shared dev machine (docs/ai.md has the margins it still wins by).
    def __init__(self, samples: int = 8) -> None:
        self.samples = samples

    def play(self, view: KaiserView, legal: Sequence[Any], rng: random.Random) -> Any:
        assert view.seat is not None and view.bidder is not None and view.bid is not None
        me = view.seat
        trick, trump = self._trick(view)
        cards = [CARD[a.card] for a in legal]
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
                totals[i] += bscore - d if me % 2 == bside else d - bscore
        best = max(range(len(cards)), key=lambda i: (totals[i], -RANK_OF[cards[i]]))
        return Play(DECK[cards[best]])


PLAYERS: dict[str, Any] = {
    "random": RandomPlayer(),
    "easy": EasyPlayer(),
    "normal": NormalPlayer(),
    "hard": HardPlayer(),
}
