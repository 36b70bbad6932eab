"""Kaiser's rules: the state machine over ``engine.kaiser.state``, its legal lists and refusals.

Four players, seats 0 and 2 against 1 and 3, the 32-card deck of 8 to A plus 7C 7D 5H 3S. Each
hand is one chance step (the deal; the first dealer is cut with it), one round of bidding in
which every player bids once or passes, starting left of the dealer (the dealer last, who may
take the contract by equalling the high bid and must bid the minimum when all pass), the
contract holder's choice of trump (a no-trump contract plays without), then eight tricks led
by the contract holder. Tricks score 1, the 5H +5 and the 3S -3 for the side that takes them.
The hand is scored bidders first and the deal passes left. ``docs/rules/kaiser.md`` states
exactly what is enforced; keep the two in step.

States are immutable: ``apply`` builds a new state with ``dataclasses.replace`` and never
writes to the old one. This module must never do I/O, read the clock, or use the global
random generator; what a seat may see is ``views.py``'s alone.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from typing import Any

from engine import errors
from engine.catalogue import GameInfo, Option
from engine.errors import IllegalAction
from engine.game import Game, Outcome, chance_rng
from engine.kaiser.state import (
    BIDDING,
    DEAL,
    DECK,
    HAND_SIZE,
    MAX_BID,
    OVER,
    PLAY,
    TRUMP,
    Bid,
    BidCall,
    BidNoTrump,
    HandResult,
    KaiserState,
    NameTrump,
    Pass,
    Play,
    Rules,
    TrickView,
    bid_key,
    junk,
    sort_hand,
    trick_points,
    trick_winner,
)
from engine.kaiser.state import (
    Deal as Deal,
)
from engine.kaiser.views import KaiserView, build_common, build_view
from engine.presentation import Common, Gesture, Presentation, Zone
from engine.tricks import SUITS, TrickPlay, replace_seat, shuffled_order

# Stable codes of Kaiser's own refusals (the shared ones live in engine.errors).
MUST_FOLLOW_SUIT = "must_follow_suit"
CARD_NOT_IN_HAND = "card_not_in_hand"
BID_TOO_LOW = "bid_too_low"
BID_TOO_HIGH = "bid_too_high"
NO_TRUMP_NOT_ALLOWED = "no_trump_not_allowed"
DEALER_MUST_BID = "dealer_must_bid"
WRONG_PHASE = "wrong_phase"
CODES = (MUST_FOLLOW_SUIT, CARD_NOT_IN_HAND, BID_TOO_LOW, BID_TOO_HIGH, NO_TRUMP_NOT_ALLOWED,
         DEALER_MUST_BID, WRONG_PHASE)

REASON_TARGET = "kaiser.reached_target"
REASON_FLOOR = "kaiser.fell_to_floor"

PASS = Pass()
NAME_TRUMP = tuple(NameTrump(s) for s in SUITS)
NAME_TRUMP_SUITS = tuple(SUITS)
_NO_HANDS: tuple[tuple[str, ...], ...] = ((), (), (), ())


def _illegal(code: str, detail: str) -> IllegalAction:
    return IllegalAction(code, detail)


def _call(action: Bid | BidNoTrump) -> tuple[int, bool]:
    return action.value, isinstance(action, BidNoTrump)


class Kaiser(Game[KaiserState]):
    info = GameInfo(
        id="kaiser",
        title="Kaiser",
        players=(4,),
        default_players=4,
        rules_version="1.1",
        summary="Trick-taking for two partnerships: bid, name trump, catch the 5 of hearts "
                "and dodge the 3 of spades.",
        teams="seats 0 and 2 against seats 1 and 3",
        options=(
            Option("min_bid", "int", 7, "the lowest bid, and the dealer's forced bid when "
                   "everyone else passes", minimum=5, maximum=8),
            Option("dealer_equals", "bool", True,
                   "the dealer may take the contract by equalling the high bid"),
            Option("no_trump", "bool", True,
                   "no-trump bids are allowed: they outrank the same number and score double"),
            Option("restriction", "choice", "45",
                   "defenders whose score is at least this take no positive points "
                   "(off: no restriction)", choices=("45", "47", "off")),
            Option("target", "choice", "52", "points to win the game", choices=("52", "64")),
            Option("lose_at_minus", "bool", True,
                   "a side at minus the target or below loses the game"),
            Option("misdeal", "bool", False,
                   "a hand with no ace, no face card, no 5 of hearts and no 3 of spades is "
                   "thrown in and the same dealer deals again"),
        ),
        presentation=Presentation(
            family="trick_taking",
            zones=(Zone("hand", "hand", "hand"), Zone("trick", "trick", "trick"),
                   Zone("taken", "score_sheet", "taken")),
            gestures=(Gesture(("card",), "card", "hand"),),
            seat_colours=("blue", "red"),
        ),
    )
    action_types = (Pass, Bid, BidNoTrump, NameTrump, Play)
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
            rules=rules, chances=0, phase=DEAL, score=(0, 0), hand_number=0, dealer=-1,
            hands=_NO_HANDS, turn=-1, bids=(), high=None, trump=None, leader=-1, trick=(),
            tricks=(), taken=(0, 0), last=None, misdeals=0, misdeal_by=None, winner=-1,
            reason="")

    # -- chance -------------------------------------------------------------------------------
    def next_dealer(self, state: KaiserState) -> int | None:
        """The dealer of the pending deal; None for the first (cut by chance)."""
        if state.dealer < 0:
            return None
        return state.dealer if state.misdeals else (state.dealer + 1) % 4

    def chance_outcome(self, state: KaiserState) -> Deal | None:
        if state.phase != DEAL:
            return None
        rng = chance_rng(state.rules.seed, state.chances)
        dealer = self.next_dealer(state)
        if dealer is None:
            dealer = rng.randrange(4)
        order = shuffled_order(len(DECK), rng)
        # Eight cards each, clockwise from the dealer's left.
        hands: list[tuple[str, ...]] = [()] * 4
        for k in range(4):
            hands[(dealer + 1 + k) % 4] = sort_hand([DECK[i] for i in order[k * 8:k * 8 + 8]])
        return Deal(dealer, tuple(hands))

    def apply_chance(self, state: KaiserState, outcome: Any) -> KaiserState:
        if state.phase != DEAL:
            raise _illegal(errors.NO_CHANCE_PENDING, "no deal is due")
        if not isinstance(outcome, Deal):
            raise _illegal(errors.BAD_CHANCE, "a Kaiser chance step is a deal")
        want = self.next_dealer(state)
        d = outcome.dealer
        if not isinstance(d, int) or isinstance(d, bool) or d not in range(4) or (
                want is not None and d != want):
            raise _illegal(errors.BAD_CHANCE, "the first dealer is a seat 0..3" if want is None
                           else f"it is seat {want}'s deal")
        hands = outcome.hands
        if not isinstance(hands, tuple) or len(hands) != 4 or any(
                not isinstance(h, tuple) or len(h) != HAND_SIZE for h in hands):
            raise _illegal(errors.BAD_CHANCE, "a deal is four hands of eight cards")
        flat = [c for h in hands for c in h]
        if not all(isinstance(c, str) for c in flat) or sorted(flat) != sorted(DECK):
            raise _illegal(errors.BAD_CHANCE, "the hands must be the 32-card Kaiser deck, "
                           "each card once")
        base = dataclasses.replace(
            state, chances=state.chances + 1, dealer=d, bids=(), high=None, trump=None,
            trick=(), tricks=(), taken=(0, 0), leader=-1, misdeal_by=None)
        if state.rules.misdeal:
            for seat in range(4):
                if junk(hands[(d + 1 + seat) % 4]):
                    # The junk hand is shown and thrown in: the same dealer deals again.
                    return dataclasses.replace(base, phase=DEAL, turn=-1, hands=_NO_HANDS,
                                               misdeals=state.misdeals + 1,
                                               misdeal_by=(d + 1 + seat) % 4)
        return dataclasses.replace(
            base, phase=BIDDING, turn=(d + 1) % 4, hand_number=state.hand_number + 1,
            misdeals=0, hands=tuple(sort_hand(h) for h in hands))

    # -- whose turn ---------------------------------------------------------------------------
    def to_act(self, state: KaiserState) -> tuple[int, ...]:
        return (state.turn,) if state.phase in (BIDDING, TRUMP, PLAY) else ()

    def legal_actions(self, state: KaiserState, seat: int) -> tuple[Any, ...]:
        if seat != state.turn or state.phase not in (BIDDING, TRUMP, PLAY):
            return ()
        if state.phase == BIDDING:
            return self._legal_bids(state, seat)
        if state.phase == TRUMP:
            return NAME_TRUMP
        return tuple(Play(c) for c in self._playable(state, seat))

    def _legal_bids(self, state: KaiserState, seat: int) -> tuple[Any, ...]:
        r = state.rules
        dealer = seat == state.dealer
        if dealer and state.high is None:
            # Everyone passed: the dealer must bid the minimum (never a redeal as well).
            return (Bid(r.min_bid), BidNoTrump(r.min_bid)) if r.no_trump else (Bid(r.min_bid),)
        high = -1 if state.high is None or state.high.value is None else \
            bid_key(state.high.value, state.high.no_trump)
        equal = dealer and r.dealer_equals
        out: list[Any] = [PASS]
        for v in range(r.min_bid, MAX_BID + 1):
            for nt in ((False, True) if r.no_trump else (False,)):
                k = bid_key(v, nt)
                if k > high or (equal and k == high):
                    out.append(BidNoTrump(v) if nt else Bid(v))
        return tuple(out)

    def _playable(self, state: KaiserState, seat: int) -> tuple[str, ...]:
        hand = state.hands[seat]
        if state.trick:
            led = state.trick[0].card[1]
            same = tuple(c for c in hand if c[1] == led)
            if same:
                return same
        return hand

    # -- acting -------------------------------------------------------------------------------
    def apply(self, state: KaiserState, seat: int, action: Any) -> KaiserState:
        if state.phase not in (BIDDING, TRUMP, PLAY):
            if state.phase == OVER:
                raise _illegal(errors.GAME_OVER, "the game is over")
            raise _illegal(errors.CHANCE_PENDING, "the cards are not dealt yet")
        if seat != state.turn:
            raise _illegal(errors.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
        if state.phase == BIDDING:
            return self._bid(state, seat, action)
        if state.phase == TRUMP:
            if not isinstance(action, NameTrump):
                raise _illegal(WRONG_PHASE, "the contract holder names trump")
            if action.suit not in NAME_TRUMP_SUITS:
                raise _illegal(errors.BAD_ACTION, f"{action.suit!r} is not a suit (S, H, D, C)")
            return dataclasses.replace(state, phase=PLAY, trump=action.suit, leader=seat,
                                       turn=seat)
        if not isinstance(action, Play):
            raise _illegal(WRONG_PHASE, "it is the play: play a card")
        return self._play(state, seat, action.card)

    def _bid(self, state: KaiserState, seat: int, action: Any) -> KaiserState:
        r = state.rules
        if isinstance(action, (Bid, BidNoTrump)):
            value, nt = _call(action)
            if not isinstance(value, int) or isinstance(value, bool):
                raise _illegal(errors.BAD_ACTION, "a bid is a whole number")
            if nt and not r.no_trump:
                raise _illegal(NO_TRUMP_NOT_ALLOWED, "no-trump bids are off at this table")
            if value > MAX_BID:
                raise _illegal(BID_TOO_HIGH, f"the highest bid is {MAX_BID}")
            if action not in self._legal_bids(state, seat):
                raise _illegal(BID_TOO_LOW, f"the lowest bid is {r.min_bid}" if value < r.min_bid
                               else "a bid must beat the high bid (the dealer may equal it)")
            call = BidCall(seat, value, nt)
            high: BidCall | None = call
        elif isinstance(action, Pass):
            if seat == state.dealer and state.high is None:
                raise _illegal(DEALER_MUST_BID, "everyone passed: the dealer must bid")
            call = BidCall(seat, None)
            high = state.high
        else:
            raise _illegal(WRONG_PHASE, "it is the bidding: bid or pass")
        bids = (*state.bids, call)
        if seat != state.dealer:
            return dataclasses.replace(state, bids=bids, high=high, turn=(seat + 1) % 4)
        if high is None:  # unreachable: the dealer cannot pass when everyone else did
            raise _illegal(DEALER_MUST_BID, "everyone passed: the dealer must bid")
        if high.no_trump:
            return dataclasses.replace(state, bids=bids, high=high, phase=PLAY, trump=None,
                                       leader=high.seat, turn=high.seat)
        return dataclasses.replace(state, bids=bids, high=high, phase=TRUMP, turn=high.seat)

    def _play(self, state: KaiserState, seat: int, card: object) -> KaiserState:
        hand = state.hands[seat]
        if not isinstance(card, str) or card not in hand:
            raise _illegal(CARD_NOT_IN_HAND, f"{card!r} is not in your hand")
        if card not in self._playable(state, seat):
            raise _illegal(MUST_FOLLOW_SUIT, f"you must follow {state.trick[0].card[1]}")
        hands = replace_seat(state.hands, seat, tuple(c for c in hand if c != card))
        trick = (*state.trick, TrickPlay(seat, card))
        if len(trick) < 4:
            return dataclasses.replace(state, hands=hands, trick=trick, turn=(seat + 1) % 4)
        winner = trick_winner(trick, state.trump)
        pts = trick_points(tuple(p.card for p in trick))
        side = winner % 2
        taken = (state.taken[0] + pts, state.taken[1]) if side == 0 else \
            (state.taken[0], state.taken[1] + pts)
        s = dataclasses.replace(
            state, hands=hands, trick=(), leader=winner, turn=winner, taken=taken,
            tricks=(*state.tricks, TrickView(trick[0].seat, trick, winner, pts)))
        return self._score_hand(s) if len(s.tricks) == HAND_SIZE else s

    # -- scoring ------------------------------------------------------------------------------
    def _score_hand(self, s: KaiserState) -> KaiserState:
        r = s.rules
        high = s.high
        assert high is not None and high.value is not None  # a hand is played under a contract
        bside = high.seat % 2
        dside = 1 - bside
        mult = 2 if high.no_trump else 1  # no-trump doubles the bidders' score, won or lost
        made = s.taken[bside] >= high.value
        delta = [0, 0]
        delta[bside] = (s.taken[bside] if made else -high.value) * mult
        d = s.taken[dside]
        restricted = d > 0 and r.restriction is not None and s.score[dside] >= r.restriction
        # The defender restriction blocks positive points only: a minus still counts.
        delta[dside] = 0 if restricted else d
        score = [s.score[0], s.score[1]]
        winner, reason = -1, ""
        # The bidding side counts first: if that ends the game, the defenders' points never
        # count (both at the target on one hand: the bidders win).
        for side in (bside, dside):
            score[side] += delta[side]
            if score[side] >= r.target:
                winner, reason = side, REASON_TARGET
            elif r.lose_at_minus and score[side] <= -r.target:
                winner, reason = 1 - side, REASON_FLOOR
            if winner >= 0:
                break
        result = HandResult(s.hand_number, s.dealer, high.seat, high.value, high.no_trump,
                            s.trump, s.taken, made, (delta[0], delta[1]), (score[0], score[1]),
                            restricted)
        return dataclasses.replace(
            s, phase=OVER if winner >= 0 else DEAL, score=(score[0], score[1]), turn=-1,
            last=result, winner=winner, reason=reason, hands=_NO_HANDS)

    def outcome(self, state: KaiserState) -> Outcome | None:
        if state.phase != OVER:
            return None
        sc = state.score
        w = state.winner
        return Outcome((w, w + 2), (sc[0], sc[1], sc[0], sc[1]), state.reason)

    def between_hands(self, state: KaiserState) -> bool:
        return state.phase == DEAL and state.last is not None and not state.misdeals

    # -- views --------------------------------------------------------------------------------
    def view(self, state: KaiserState, seat: int | None) -> KaiserView:
        return build_view(state, seat, self.to_act(state))

    def common(self, view: KaiserView) -> Common:
        return build_common(view)

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
            hands[i] = sort_hand(pool[pos:pos + n])
            pos += n
        return dataclasses.replace(state, rules=rules, hands=tuple(hands))


GAME = Kaiser()
