"""What one seat (or a spectator) may know of a Kaiser game, and the common part every client
draws, built field by field.

Allowed: the seat's own hand; every other hand as a count; the auction (every call is made
aloud); the contract and trump; the trick in progress and the tricks of this hand (played face
up); the points taken and the score; the last hand's result; the options; which seat's junk
hand caused a redeal (that hand is shown to the table). Never: another seat's cards, the
cards of a redealt junk hand, the seed, or the next deal. This module must never copy the
state wholesale.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.kaiser.state import (
    BIDDING,
    DEAL,
    OVER,
    PLAY,
    TRUMP,
    BidCall,
    HandResult,
    KaiserState,
    TrickView,
)
from engine.presentation import Caption, Common
from engine.tricks import TrickPlay

TEAMS = (0, 1, 0, 1)
# Message keys, spelled out so the string-coverage scan sees every one.
TRUMP_KEYS = {"S": "kaiser.trump.spades", "H": "kaiser.trump.hearts",
              "D": "kaiser.trump.diamonds", "C": "kaiser.trump.clubs"}
NO_TRUMP_KEY = "kaiser.no_trump"
UNNAMED_KEY = "kaiser.trump.unnamed"  # a suit contract before its holder names trump


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
    misdeal_by: int | None


def build_view(state: KaiserState, seat: int | None, to_act: tuple[int, ...]) -> KaiserView:
    if seat is not None and (isinstance(seat, bool) or seat not in range(4)):
        raise ValueError(f"no seat {seat!r} at a Kaiser table")
    r = state.rules
    ph = state.phase
    phase = ("hand_over" if ph == DEAL and state.last is not None
             else "game_over" if ph == OVER else ph)
    live = ph in (BIDDING, TRUMP, PLAY)
    contract = state.high if ph in (TRUMP, PLAY) else None
    return KaiserView(
        seat=seat, side=None if seat is None else seat % 2, phase=phase, to_act=to_act,
        min_bid=r.min_bid, dealer_equals=r.dealer_equals, no_trump_allowed=r.no_trump,
        restriction=r.restriction, target=r.target, lose_at_minus=r.lose_at_minus,
        misdeal=r.misdeal, hand_number=state.hand_number,
        dealer=None if state.dealer < 0 else state.dealer,
        bids=state.bids if live else (),
        bidder=None if contract is None else contract.seat,
        bid=None if contract is None else contract.value,
        no_trump=bool(contract and contract.no_trump),
        trump=state.trump if ph == PLAY else None,
        leader=state.leader if ph == PLAY else None,
        trick=state.trick if ph == PLAY else (),
        tricks=state.tricks if ph == PLAY else (),
        taken=state.taken if ph == PLAY else (0, 0), score=state.score,
        hand=() if seat is None or not live else state.hands[seat],
        hand_counts=tuple(len(h) for h in state.hands) if live else (0, 0, 0, 0),
        last_hand=state.last, misdeal_by=state.misdeal_by if ph == DEAL else None)


def _last_move(view: KaiserView) -> Caption | None:
    """The last thing that happened, in words, derived from the view alone."""
    if view.phase == "play":
        if view.trick:
            p = view.trick[-1]
            return Caption("kaiser.last.play", (("seat", p.seat), ("card", p.card)))
        if view.tricks:
            t = view.tricks[-1]
            return Caption("kaiser.last.trick", (("seat", t.winner), ("points", t.points)))
        if view.bidder is not None and view.trump is not None:
            return Caption("kaiser.last.trump", (("seat", view.bidder),
                                                 ("trump", TRUMP_KEYS[view.trump])))
    if view.bids:
        b = view.bids[-1]
        if b.value is None:
            return Caption("kaiser.last.pass", (("seat", b.seat),))
        if b.no_trump:
            return Caption("kaiser.last.bid_no_trump", (("seat", b.seat), ("bid", b.value)))
        return Caption("kaiser.last.bid", (("seat", b.seat), ("bid", b.value)))
    h = view.last_hand
    if h is not None and view.phase in ("hand_over", "game_over"):
        args: tuple[tuple[str, str | int], ...] = (
            ("seat", h.bidder), ("bid", h.bid), ("points", h.points[h.bidder % 2]))
        return Caption("kaiser.last.made" if h.made else "kaiser.last.failed", args)
    if view.misdeal_by is not None:
        return Caption("kaiser.last.misdeal", (("seat", view.misdeal_by),))
    return None


def build_common(view: KaiserView) -> Common:
    caps = [Caption("kaiser.score", (("target", view.target),))]
    if view.dealer is not None:
        caps.append(Caption("kaiser.dealer", (("seat", view.dealer),)))
    if view.bid is not None and view.bidder is not None:
        if view.no_trump:
            caps.append(Caption("kaiser.contract_no_trump", (("seat", view.bidder),
                                                             ("bid", view.bid))))
        else:
            trump = UNNAMED_KEY if view.trump is None else TRUMP_KEYS[view.trump]
            caps.append(Caption("kaiser.contract", (("seat", view.bidder), ("bid", view.bid),
                                                    ("trump", trump))))
    if view.phase == "play":
        caps.append(Caption("kaiser.taken", (("side0", view.taken[0]),
                                             ("side1", view.taken[1]))))
    return Common(
        seat=view.seat, to_act=view.to_act, hand=view.hand, hand_counts=view.hand_counts,
        teams=TEAMS, scores=view.score, phase=view.phase, last=_last_move(view),
        captions=tuple(caps))
