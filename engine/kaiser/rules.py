"""Kaiser's rules: the state machine, its actions and chance steps, and each seat's view.

Four players, seats 0 and 2 against 1 and 3, a 32-card deck (8 to A in every suit plus 7C 7D
5H 3S). Each hand is one chance step (the deal; the first dealer is drawn with it), one round
of bidding in which every player bids once or passes (the dealer last, who may take the
contract by equalling the high bid, and must bid the minimum when all pass), the contract
holder's choice of trump (suit bids only; a no-trump bid plays without trump), then eight
tricks. Tricks score 1, the 5H +5 and the 3S -3 for the side that takes them. The hand is
scored bidders first and the deal passes left. ``docs/rules/kaiser.md`` states exactly what is
enforced; keep the two in step.

States are immutable: ``apply`` builds a new state with ``dataclasses.replace`` and never
writes to the old one. This module must never do I/O, read the clock, use the global random
generator, or put a card in a view that the seat may not see: views are built field by field
from what is public plus the seat's own hand.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, Gesture, Presentation, Zone

SUITS = "SHDC"
# Rank order inside a suit, low to high; 7, 5 and 3 each exist in one suit only.
ORDER = "3578" + "9TJQKA"
DECK: tuple[str, ...] = (
    *(r + s for s in SUITS for r in "89TJQKA"), "7C", "7D", "5H", "3S")
FIVE = "5H"
THREE = "3S"
HAND_SIZE = 8
MAX_BID = 12
NO_TRUMP = "N"

# Stable codes of Kaiser's own refusals (the shared ones live in engine.errors).
MUST_FOLLOW_SUIT = "must_follow_suit"
CARD_NOT_IN_HAND = "card_not_in_hand"
BID_TOO_LOW = "bid_too_low"
NO_TRUMP_NOT_ALLOWED = "no_trump_not_allowed"
DEALER_MUST_BID = "dealer_must_bid"
WRONG_PHASE = "wrong_phase"

REASON_TARGET = "kaiser.reached_target"
REASON_FLOOR = "kaiser.fell_to_floor"


def power(card: str) -> int:
    return ORDER.index(card[0])


def card_points(card: str) -> int:
    return 5 if card == FIVE else -3 if card == THREE else 0


def bid_key(value: int, no_trump: bool) -> int:
    """Bids in rank order: N no-trump outranks N in a suit and is beaten by N+1."""
    return value * 2 + int(no_trump)


def junk(hand: tuple[str, ...]) -> bool:
    """A misdeal hand: no ace, no face card, and neither the 5H nor the 3S."""
    return not any(c[0] in "AKQJ" or c in (FIVE, THREE) for c in hand)


def trick_winner(plays: tuple[tuple[int, str], ...], trump: str | None) -> int:
    led = plays[0][1][1]

    def rank(p: tuple[int, str]) -> int:
        c = p[1]
        if trump is not None and c[1] == trump:
            return 100 + power(c)
        return power(c) if c[1] == led else -1

    return max(plays, key=rank)[0]


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pass:
    """Pass in the bidding (never for a dealer when everyone else passed)."""


@dataclass(frozen=True)
class Bid:
    """Bid ``value`` tricks-and-points, in a suit to be named later or in no-trump."""

    value: int
    no_trump: bool = False


@dataclass(frozen=True)
class NameTrump:
    """The holder of a suit contract names trump."""

    suit: str


@dataclass(frozen=True)
class Play:
    card: str


# -- chance ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One hand's deal: ``hands[i]`` is seat ``i``'s eight cards.

    ``dealer`` must be the seat whose deal it is (the same dealer again after a misdeal); for
    the first hand it is the cut for deal, drawn by chance too.
    """

    dealer: int
    hands: tuple[tuple[str, ...], ...]


# -- views -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BidCall:
    """One call: ``value`` None is a pass."""

    seat: int
    value: int | None
    no_trump: bool = False


@dataclass(frozen=True)
class TrickPlay:
    seat: int
    card: str


@dataclass(frozen=True)
class TrickView:
    leader: int
    plays: tuple[TrickPlay, ...]
    winner: int
    points: int


@dataclass(frozen=True)
class HandResult:
    """How a hand ended; ``points`` are what each side scored this hand (after the rules)."""

    hand: int
    dealer: int
    bidder: int
    bid: int
    no_trump: bool
    trump: str | None
    taken: tuple[int, int]
    made: bool
    points: tuple[int, int]
    score: tuple[int, int]


@dataclass(frozen=True)
class KaiserView:
    seat: int | None
    side: int | None
    phase: str  # deal, bidding, trump, play, hand_over, game_over
    to_act: tuple[int, ...]
    min_bid: int
    dealer_equals: bool
    no_trump_allowed: bool
    restriction: int | None
    target: int
    lose_at_minus: bool
    misdeal: bool
    hand_number: int
    dealer: int | None
    bids: tuple[BidCall, ...]
    bidder: int | None
    bid: int | None
    no_trump: bool
    trump: str | None
    leader: int | None
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    taken: tuple[int, int]
    score: tuple[int, int]
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    last_hand: HandResult | None
    misdeals: int


# -- state -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    min_bid: int
    dealer_equals: bool
    no_trump: bool
    restriction: int | None
    target: int
    lose_at_minus: bool
    misdeal: bool
    seed: int


@dataclass(frozen=True)
class KaiserState:
    rules: Rules
    chances: int
    phase: str  # deal, bidding, trump, play, over
    score: tuple[int, int]
    hand_number: int
    dealer: int  # -1 before the first deal
    hands: tuple[tuple[str, ...], ...]
    turn: int
    bids: tuple[BidCall, ...]
    high: BidCall | None
    trump: str | None
    leader: int
    trick: tuple[TrickPlay, ...]
    tricks: tuple[TrickView, ...]
    taken: tuple[int, int]
    last: HandResult | None
    misdeals: int  # redeals of this hand so far
    winner: int  # the winning side once over, else -1
    reason: str


def _illegal(code: str, detail: str) -> IllegalAction:
    return IllegalAction(code, detail)


def _sorted_hand(cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=lambda c: (SUITS.index(c[1]), -power(c))))


class Kaiser(Game[KaiserState]):
    info = GameInfo(
        id="kaiser",
        title="Kaiser",
        players=(4,),
        default_players=4,
        rules_version="1.0",
        summary="Trick-taking for two partnerships: bid, name trump, catch the 5 of hearts "
                "and dodge the 3 of spades.",
        teams="seats 0 and 2 against seats 1 and 3",
        options=(
            Option("min_bid", "int", 7, "the lowest bid (and the dealer's forced bid)",
                   minimum=5, maximum=8),
            Option("dealer_equals", "bool", True,
                   "the dealer may take the contract by equalling the high bid"),
            Option("no_trump", "bool", True,
                   "no-trump bids are allowed (they outrank the same number, score double)"),
            Option("restriction", "choice", "45",
                   "defenders at or above this score take no positive points (off: none)",
                   choices=("45", "47", "off")),
            Option("target", "choice", "52", "points to win the game", choices=("52", "64")),
            Option("lose_at_minus", "bool", True,
                   "a side at minus the target or below loses the game"),
            Option("misdeal", "bool", False,
                   "redeal when a hand has no ace, no face card, no 5 of hearts and no 3 of "
                   "spades"),
        ),
        presentation=Presentation(
            family="trick_taking",
            zones=(Zone("hand", "hand", "hand"), Zone("trick", "trick", "trick"),
                   Zone("taken", "score_sheet", "taken")),
            gestures=(Gesture(("card",), "card", "hand"),),
            seat_colours=("blue", "red"),
        ),
    )
    action_types = (Pass, Bid, NameTrump, Play)
    chance_types = (Deal,)

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        return (0, 1, 0, 1)

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> KaiserState:
        self.info.check_players(players)
        o = self.info.parse_options(options)
        rules = Rules(
            min_bid=int(o["min_bid"]), dealer_equals=bool(o["dealer_equals"]),
            no_trump=bool(o["no_trump"]),
            restriction=None if o["restriction"] == "off" else int(o["restriction"]),
            target=int(o["target"]), lose_at_minus=bool(o["lose_at_minus"]),
            misdeal=bool(o["misdeal"]), seed=seed)
        return KaiserState(
            rules=rules, chances=0, phase="deal", score=(0, 0), hand_number=0, dealer=-1,
            hands=((), (), (), ()), turn=-1, bids=(), high=None, trump=None, leader=-1,
            trick=(), tricks=(), taken=(0, 0), last=None, misdeals=0, winner=-1, reason="")

    # -- chance -------------------------------------------------------------------------------
    def next_dealer(self, state: KaiserState) -> int | None:
        """The dealer of the pending deal; None for the first (drawn by chance)."""
        if state.dealer < 0:
            return None
        if state.misdeals:
            return state.dealer
        return (state.dealer + 1) % 4

    def chance_outcome(self, state: KaiserState) -> Deal | None:
        if state.phase != "deal":
            return None
        rng = chance_rng(state.rules.seed, state.chances)
        dealer = self.next_dealer(state)
        if dealer is None:
            dealer = rng.randrange(4)
        cards = list(DECK)
        rng.shuffle(cards)
        return Deal(dealer, tuple(_sorted_hand(cards[i * 8:i * 8 + 8]) for i in range(4)))

    def apply_chance(self, state: KaiserState, outcome: Any) -> KaiserState:
        if state.phase != "deal":
            raise _illegal(errors.BAD_CHANCE, "no deal is pending")
        if not isinstance(outcome, Deal):
            raise _illegal(errors.BAD_CHANCE, "expected a Deal")
        want = self.next_dealer(state)
        if not isinstance(outcome.dealer, int) or isinstance(outcome.dealer, bool) or (
                outcome.dealer not in range(4) or (want is not None and outcome.dealer != want)):
            raise _illegal(errors.BAD_CHANCE, f"the dealer must be {want}")
        hands = outcome.hands
        if not isinstance(hands, tuple) or len(hands) != 4 or any(
                not isinstance(h, tuple) or len(h) != HAND_SIZE for h in hands):
            raise _illegal(errors.BAD_CHANCE, "four hands of eight cards")
        flat = [c for h in hands for c in h]
        if sorted(flat, key=str) != sorted(DECK):
            raise _illegal(errors.BAD_CHANCE, "the hands must be the 32-card Kaiser deck")
        dealer = outcome.dealer
        base = dataclasses.replace(
            state, chances=state.chances + 1, dealer=dealer,
            hands=tuple(_sorted_hand(h) for h in hands), bids=(), high=None, trump=None,
            trick=(), tricks=(), taken=(0, 0), leader=-1)
        if state.rules.misdeal and any(junk(h) for h in hands):
            # Redeal by the same dealer: a new chance step, nothing else happens.
            return dataclasses.replace(base, phase="deal", turn=-1, hands=((), (), (), ()),
                                       misdeals=state.misdeals + 1)
        return dataclasses.replace(base, phase="bidding", turn=(dealer + 1) % 4,
                                   hand_number=state.hand_number + 1, misdeals=0)

    # -- play ---------------------------------------------------------------------------------
    def to_act(self, state: KaiserState) -> tuple[int, ...]:
        if state.phase in ("bidding", "trump", "play"):
            return (state.turn,)
        return ()

    def legal_actions(self, state: KaiserState, seat: int) -> tuple[Any, ...]:
        if seat != state.turn or state.phase not in ("bidding", "trump", "play"):
            return ()
        if state.phase == "bidding":
            return self._legal_bids(state, seat)
        if state.phase == "trump":
            return tuple(NameTrump(s) for s in SUITS)
        return tuple(Play(c) for c in self._playable(state, seat))

    def _legal_bids(self, state: KaiserState, seat: int) -> tuple[Any, ...]:
        r = state.rules
        nts = (False, True) if r.no_trump else (False,)
        dealer = seat == state.dealer
        if dealer and state.high is None:
            return tuple(Bid(r.min_bid, nt) for nt in nts)
        floor = -1 if state.high is None else bid_key(state.high.value or 0, state.high.no_trump)
        equal = dealer and r.dealer_equals
        out: list[Any] = [Pass()]
        for v in range(r.min_bid, MAX_BID + 1):
            for nt in nts:
                k = bid_key(v, nt)
                if k > floor or (equal and k == floor):
                    out.append(Bid(v, nt))
        return tuple(out)

    def _playable(self, state: KaiserState, seat: int) -> tuple[str, ...]:
        hand = state.hands[seat]
        if state.trick:
            led = state.trick[0].card[1]
            follow = tuple(c for c in hand if c[1] == led)
            if follow:
                return follow
        return hand

    def apply(self, state: KaiserState, seat: int, action: Any) -> KaiserState:
        if state.phase not in ("bidding", "trump", "play"):
            raise _illegal(errors.GAME_OVER if state.phase == "over" else errors.NOT_YOUR_TURN,
                           "nobody may act now")
        if seat != state.turn:
            raise _illegal(errors.NOT_YOUR_TURN, f"seat {state.turn} is to act")
        if state.phase == "bidding":
            return self._bid(state, seat, action)
        if state.phase == "trump":
            if not isinstance(action, NameTrump):
                raise _illegal(WRONG_PHASE, "name trump first")
            if action.suit not in tuple(SUITS):
                raise _illegal(errors.BAD_ACTION, f"no suit {action.suit!r}")
            return dataclasses.replace(state, phase="play", trump=action.suit,
                                       leader=seat, turn=seat)
        if not isinstance(action, Play):
            raise _illegal(WRONG_PHASE, "play a card")
        return self._play(state, seat, action.card)

    def _bid(self, state: KaiserState, seat: int, action: Any) -> KaiserState:
        if not isinstance(action, (Pass, Bid)):
            raise _illegal(WRONG_PHASE, "bid or pass")
        r = state.rules
        if isinstance(action, Bid):
            if (not isinstance(action.value, int) or isinstance(action.value, bool)
                    or not isinstance(action.no_trump, bool)):
                raise _illegal(errors.BAD_ACTION, "a bid is a number and a no-trump flag")
            if action.no_trump and not r.no_trump:
                raise _illegal(NO_TRUMP_NOT_ALLOWED, "no-trump bids are off at this table")
            if action not in self._legal_bids(state, seat):
                raise _illegal(BID_TOO_LOW, f"{action.value} does not beat the high bid"
                               if action.value <= MAX_BID else "the highest bid is 12")
            call = BidCall(seat, action.value, action.no_trump)
            high: BidCall | None = call
        else:
            if seat == state.dealer and state.high is None:
                raise _illegal(DEALER_MUST_BID, "everyone passed: the dealer must bid")
            call = BidCall(seat, None)
            high = state.high
        bids = (*state.bids, call)
        if seat != state.dealer:
            return dataclasses.replace(state, bids=bids, high=high, turn=(seat + 1) % 4)
        assert high is not None and high.value is not None  # the dealer cannot pass out
        if high.no_trump:
            return dataclasses.replace(state, bids=bids, high=high, phase="play", trump=None,
                                       leader=high.seat, turn=high.seat)
        return dataclasses.replace(state, bids=bids, high=high, phase="trump", turn=high.seat)

    def _play(self, state: KaiserState, seat: int, card: object) -> KaiserState:
        hand = state.hands[seat]
        if not isinstance(card, str) or card not in hand:
            raise _illegal(CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
        if card not in self._playable(state, seat):
            raise _illegal(MUST_FOLLOW_SUIT, f"follow {state.trick[0].card[1]}")
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hand if c != card)
        trick = (*state.trick, TrickPlay(seat, card))
        if len(trick) < 4:
            return dataclasses.replace(state, hands=tuple(hands), trick=trick,
                                       turn=(seat + 1) % 4)
        winner = trick_winner(tuple((p.seat, p.card) for p in trick), state.trump)
        pts = 1 + sum(card_points(p.card) for p in trick)
        taken = list(state.taken)
        taken[winner % 2] += pts
        s = dataclasses.replace(
            state, hands=tuple(hands), trick=(), leader=winner, turn=winner,
            tricks=(*state.tricks, TrickView(trick[0].seat, trick, winner, pts)),
            taken=(taken[0], taken[1]))
        if len(s.tricks) < HAND_SIZE:
            return s
        return self._score_hand(s)

    def _score_hand(self, s: KaiserState) -> KaiserState:
        r = s.rules
        assert s.high is not None and s.high.value is not None
        bside = s.high.seat % 2
        dside = 1 - bside
        bid = s.high.value
        mult = 2 if s.high.no_trump else 1
        made = s.taken[bside] >= bid
        delta = [0, 0]
        delta[bside] = (s.taken[bside] if made else -bid) * mult
        d = s.taken[dside]
        if d > 0 and r.restriction is not None and s.score[dside] >= r.restriction:
            d = 0  # the defender restriction blocks positive points only
        delta[dside] = d
        score = [s.score[0], s.score[1]]
        winner, reason = -1, ""
        # The bidding side counts first: if it goes out, the defenders' points never count.
        for side in (bside, dside):
            score[side] += delta[side]
            if score[side] >= r.target:
                winner, reason = side, REASON_TARGET
            elif r.lose_at_minus and score[side] <= -r.target:
                winner, reason = 1 - side, REASON_FLOOR
            if winner >= 0:
                break
        result = HandResult(s.hand_number, s.dealer, s.high.seat, bid, s.high.no_trump, s.trump,
                            s.taken, made, (delta[0], delta[1]), (score[0], score[1]))
        return dataclasses.replace(
            s, phase="over" if winner >= 0 else "deal", score=(score[0], score[1]), turn=-1,
            last=result, winner=winner, reason=reason, hands=((), (), (), ()))

    def outcome(self, state: KaiserState) -> Outcome | None:
        if state.phase != "over":
            return None
        sc = state.score
        w = state.winner
        return Outcome((w, w + 2), (sc[0], sc[1], sc[0], sc[1]), state.reason)

    def between_hands(self, state: KaiserState) -> bool:
        return state.phase == "deal" and state.last is not None

    # -- views --------------------------------------------------------------------------------
    def common(self, view: KaiserView) -> Common:
        caps = [Caption("kaiser.score", (("target", view.target),))]
        if view.bid is not None and view.bidder is not None:
            caps.append(Caption("kaiser.contract", (("seat", view.bidder), ("bid", view.bid),
                                                    ("trump", view.trump or "N"))))
        return Common(
            seat=view.seat, to_act=view.to_act, hand=view.hand, hand_counts=view.hand_counts,
            teams=(0, 1, 0, 1), scores=view.score, phase=view.phase, captions=tuple(caps))

    def view(self, state: KaiserState, seat: int | None) -> KaiserView:
        if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
            raise ValueError(f"no seat {seat!r} at a Kaiser table")
        r = state.rules
        ph = state.phase
        phase = ("hand_over" if ph == "deal" and state.last is not None
                 else "game_over" if ph == "over" else ph)
        high = state.high if ph in ("bidding", "trump", "play") else None
        contract = high if ph in ("trump", "play") else None
        return KaiserView(
            seat=seat, side=None if seat is None else seat % 2, phase=phase,
            to_act=self.to_act(state), min_bid=r.min_bid, dealer_equals=r.dealer_equals,
            no_trump_allowed=r.no_trump, restriction=r.restriction, target=r.target,
            lose_at_minus=r.lose_at_minus, misdeal=r.misdeal, hand_number=state.hand_number,
            dealer=None if state.dealer < 0 else state.dealer,
            bids=state.bids if ph in ("bidding", "trump", "play") else (),
            bidder=None if contract is None else contract.seat,
            bid=None if contract is None else contract.value,
            no_trump=bool(contract and contract.no_trump),
            trump=state.trump if ph == "play" else None,
            leader=state.leader if ph == "play" else None,
            trick=state.trick, tricks=state.tricks if ph == "play" else (),
            taken=state.taken if ph == "play" else (0, 0), score=state.score,
            hand=() if seat is None else state.hands[seat],
            hand_counts=tuple(len(h) for h in state.hands), last_hand=state.last,
            misdeals=state.misdeals)

    # -- hidden information -------------------------------------------------------------------
    def resample_hidden(self, state: KaiserState, seat: int | None,
                        rng: random.Random) -> KaiserState:
        """Redeal what ``seat`` cannot see (other hands, future deals); keep every count."""
        rules = dataclasses.replace(state.rules, seed=rng.randrange(2**62))
        others = [i for i in range(4) if i != seat]
        pool = [c for i in others for c in state.hands[i]]
        rng.shuffle(pool)
        hands = list(state.hands)
        pos = 0
        for i in others:
            n = len(state.hands[i])
            hands[i] = _sorted_hand(pool[pos:pos + n])
            pos += n
        return dataclasses.replace(state, rules=rules, hands=tuple(hands))


GAME = Kaiser()
