"""Kaiser rules, one scenario per rule and per scoring line, on pinned deals
(tests/engine/kaiser/scenario.py): the auction (one call each, the bid range to 12, no-trump
over the same number, the dealer's equalling, the forced dealer bid), the points (tricks, the
5H, the 3S, for the trick's taker), the hand's score (made, failed, no-trump doubled, the
defender restriction at 45, 47 and off, bidders first), the end (52, -52, 64), the misdeal,
and refusals that change nothing. Views are in test_views.py.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.errors import IllegalAction
from engine.kaiser import GAME
from engine.kaiser.rules import (
    BID_TOO_HIGH,
    BID_TOO_LOW,
    CARD_NOT_IN_HAND,
    DEALER_MUST_BID,
    MUST_FOLLOW_SUIT,
    NO_TRUMP_NOT_ALLOWED,
    REASON_FLOOR,
    REASON_TARGET,
    WRONG_PHASE,
)
from engine.kaiser.state import (
    DECK,
    Bid,
    BidNoTrump,
    Deal,
    NameTrump,
    Pass,
    Play,
    bid_key,
    trick_points,
)
from engine.match import Match
from tests.engine.kaiser.scenario import (
    JUNK,
    MIXED,
    MIXED_ORDERS,
    MIXED_PLAIN_ORDERS,
    ONE_SUIT,
    auction,
    contract,
    deal_with,
    play_out,
    start,
)
from tests.engine.refusals import refused

ALL_PASS = (Pass(), Pass(), Pass())



# -- the deck and the deal -------------------------------------------------------------------
def test_the_deck_is_8_to_ace_plus_7c_7d_5h_3s() -> None:
    assert len(DECK) == len(set(DECK)) == 32
    assert {c for c in DECK if c[0] in "753"} == {"7C", "7D", "5H", "3S"}
    assert all(f"{r}{s}" in DECK for r in "89TJQKA" for s in "SHDC")


def test_each_seat_gets_eight_and_bidding_starts_left_of_the_dealer() -> None:
    m = Match.start(GAME, 4, {}, 5)
    dealer = m.state.dealer
    assert [len(h) for h in m.state.hands] == [8, 8, 8, 8]
    assert sorted(c for h in m.state.hands for c in h) == sorted(DECK)
    assert m.to_act() == ((dealer + 1) % 4,)


# -- the auction -------------------------------------------------------------------------------
def test_bids_run_from_the_minimum_to_twelve_no_trump_above_the_same_number() -> None:
    m = start()
    legal = m.legal(0)
    assert legal[0] == Pass()
    assert legal[1:] == tuple(a for v in range(7, 13) for a in (Bid(v), BidNoTrump(v)))
    assert bid_key(8, False) < bid_key(8, True) < bid_key(9, False)
    assert start(options={"min_bid": 5}).legal(0)[1] == Bid(5)
    refused(m, 0, Bid(13), BID_TOO_HIGH)
    refused(m, 0, Bid(6), BID_TOO_LOW)


def test_no_trump_outranks_the_same_number_but_not_the_next() -> None:
    m = start()
    auction(m, Bid(8))
    legal = m.legal(1)
    assert BidNoTrump(8) in legal and Bid(8) not in legal
    auction(m, BidNoTrump(8))
    refused(m, 2, Bid(8), BID_TOO_LOW)
    refused(m, 2, BidNoTrump(8), BID_TOO_LOW)
    assert Bid(9) in m.legal(2)


def test_each_player_calls_once_and_a_passed_player_never_bids_again() -> None:
    m = start()
    auction(m, Pass(), Bid(7), Pass(), Pass())
    # Four calls and the auction is over: seat 0 passed and gets no second turn.
    assert m.state.phase == "trump" and m.to_act() == (1,)
    assert [b.seat for b in m.state.bids] == [0, 1, 2, 3]
    assert m.legal(1) == tuple(NameTrump(s) for s in "SHDC")
    m.act(1, NameTrump("D"))
    # The contract holder names trump and leads.
    assert m.state.trump == "D" and m.to_act() == (1,) and m.state.leader == 1


def test_the_dealer_may_equal_a_suit_bid_and_then_names_trump() -> None:
    m = start()
    auction(m, Bid(9), *ALL_PASS[:2])
    assert Bid(9) in m.legal(3) and BidNoTrump(8) not in m.legal(3)
    m.act(3, Bid(9))
    assert m.state.high.seat == 3 and m.state.phase == "trump" and m.to_act() == (3,)


def test_the_dealer_equalling_no_trump_takes_n_no_and_leads() -> None:
    m = start()
    auction(m, BidNoTrump(8), Pass(), Pass(), BidNoTrump(8))
    assert m.state.high.seat == 3 and m.state.high.no_trump
    assert m.state.phase == "play" and m.state.trump is None and m.to_act() == (3,)


def test_only_the_dealer_may_equal_and_only_when_the_option_is_on() -> None:
    m = start()
    auction(m, Bid(9))
    refused(m, 1, Bid(9), BID_TOO_LOW)
    m = start(options={"dealer_equals": False})
    auction(m, Bid(9), Pass(), Pass())
    refused(m, 3, Bid(9), BID_TOO_LOW)
    assert BidNoTrump(9) in m.legal(3)


def test_when_all_pass_the_dealer_must_bid_the_minimum_never_a_redeal() -> None:
    m = start()
    auction(m, *ALL_PASS)
    assert m.legal(3) == (Bid(7), BidNoTrump(7))
    refused(m, 3, Pass(), DEALER_MUST_BID)
    refused(m, 3, Bid(8), BID_TOO_LOW)
    m.act(3, BidNoTrump(7))
    assert m.state.phase == "play" and m.state.high.seat == 3 and m.state.hand_number == 1


def test_no_trump_bids_can_be_switched_off() -> None:
    m = start(options={"no_trump": False})
    assert not any(isinstance(a, BidNoTrump) for a in m.legal(0))
    refused(m, 0, BidNoTrump(7), NO_TRUMP_NOT_ALLOWED)
    auction(m, *ALL_PASS)
    assert m.legal(3) == (Bid(7),)


def test_out_of_turn_and_wrong_phase_actions_change_nothing() -> None:
    m = start()
    refused(m, 1, Pass(), "not_your_turn")
    refused(m, 0, Play("AS"), WRONG_PHASE)
    contract(m, Bid(7))
    refused(m, 0, Bid(8), WRONG_PHASE)
    refused(m, 0, NameTrump("X"), "bad_action")
    m.act(0, NameTrump("S"))
    refused(m, 0, Play("AH"), CARD_NOT_IN_HAND)
    refused(m, 0, Pass(), WRONG_PHASE)


# -- play -------------------------------------------------------------------------------------
def test_follow_suit_if_able_else_anything_and_no_obligation_to_trump() -> None:
    m = start(MIXED)
    contract(m, Bid(7), NameTrump("C"))
    m.act(0, Play("AH"))
    assert m.legal(1) == (Play("8H"),)
    refused(m, 1, Play("AC"), MUST_FOLLOW_SUIT)
    m.act(1, Play("8H"))
    # Seat 2 has no heart: any card, and seat 3 need not trump with its 7C.
    assert len(m.legal(2)) == 8
    m.act(2, Play("8S"))
    assert Play("8D") in m.legal(3)
    m.act(3, Play("8D"))
    assert m.state.tricks[-1].winner == 0 and m.to_act() == (0,)


def test_a_trick_is_one_point_the_5h_five_the_3s_minus_three_for_whoever_takes_it() -> None:
    assert trick_points(("AS", "KS", "QS", "JS")) == 1
    assert trick_points(("AH", "3S", "8H", "5H")) == 3  # both in one trick: +1 +5 -3
    m = start(MIXED)
    contract(m, BidNoTrump(7))
    play_out(m, MIXED_ORDERS)
    last = m.state.last
    # Seat 0 took seven tricks and its own 5H; seat 3 took the last trick, where seat 1 (its
    # partner) dropped the 3S: it counts for the side that took the trick.
    assert last.taken == (12, -2)
    assert last.made and last.points == (24, -2)  # seven no-trump made: 12 doubled


# -- scoring ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("call", "trump", "points"), [
    (Bid(7), NameTrump("S"), (10, 0)),  # made: what they took
    (BidNoTrump(7), None, (20, 0)),  # no-trump doubles a made bid
    (Bid(11), NameTrump("S"), (-11, 0)),  # failed: minus the bid
    (BidNoTrump(11), None, (-22, 0)),  # no-trump doubles a failure too
    (Bid(7), NameTrump("C"), (-7, 10)),  # seat 3 holds every club: the defenders take all
])
def test_the_hand_is_scored(call: object, trump: object, points: tuple[int, int]) -> None:
    m = start()
    contract(m, call, trump)
    play_out(m, ONE_SUIT)
    assert m.state.last.points == points and m.state.score == points
    assert m.state.last.made == (points[0] > 0)
    assert m.to_act() == () and m.chance_pending()


def test_the_bidders_score_what_they_took_even_above_the_bid() -> None:
    m = start(MIXED)
    contract(m, Bid(7), NameTrump("H"))
    play_out(m, MIXED_PLAIN_ORDERS)
    assert m.state.last.taken == (9, 1) and m.state.last.points == (9, 1)


@pytest.mark.parametrize(("restriction", "before", "after", "restricted"), [
    ("45", 44, 44 + 10, False),
    ("45", 45, 45, True),
    ("47", 45, 55, False),
    ("47", 47, 47, True),
    ("off", 51, 61, False),
])
def test_the_defender_restriction_blocks_positive_points(
        restriction: str, before: int, after: int, restricted: bool) -> None:
    # Target 64 so that 54 or 55 does not end the game.
    m = start(options={"restriction": restriction, "target": "64"}, score=(0, before))
    contract(m, Bid(7), NameTrump("C"))
    play_out(m, ONE_SUIT)
    assert m.state.score == (-7, after) and m.state.last.restricted == restricted


def test_the_defender_restriction_never_blocks_negative_points() -> None:
    m = start(MIXED, score=(0, 46))
    contract(m, BidNoTrump(7))
    play_out(m, MIXED_ORDERS)
    assert m.state.last.points == (24, -2) and m.state.score == (24, 44)
    assert not m.state.last.restricted


def test_the_bidders_restriction_never_applies_to_the_bidders() -> None:
    m = start(score=(50, 0), options={"target": "64"})
    contract(m, Bid(7), NameTrump("S"))
    play_out(m, ONE_SUIT)
    assert m.state.score == (60, 0)


def test_game_to_52() -> None:
    m = start(score=(42, 10))
    contract(m, Bid(7), NameTrump("S"))
    play_out(m, ONE_SUIT)
    o = m.outcome()
    assert o is not None and o.winners == (0, 2) and o.reason == REASON_TARGET
    assert o.scores == (52, 10, 52, 10) and m.to_act() == () and not m.chance_pending()


def test_the_bidders_count_first_when_both_sides_reach_52() -> None:
    m = start(MIXED, score=(45, 51), options={"restriction": "off"})
    contract(m, Bid(7), NameTrump("H"))
    play_out(m, MIXED_PLAIN_ORDERS)
    o = m.outcome()
    assert o is not None and o.winners == (0, 2) and m.state.score == (54, 51)


def test_the_defenders_win_when_they_reach_52_and_the_bidders_do_not() -> None:
    m = start(score=(0, 44))
    contract(m, Bid(7), NameTrump("C"))
    play_out(m, ONE_SUIT)
    o = m.outcome()
    assert o is not None and o.winners == (1, 3) and o.scores[:2] == (-7, 54)


def test_a_side_at_minus_52_loses_unless_the_option_is_off() -> None:
    m = start(score=(-30, 0))
    contract(m, BidNoTrump(12))
    play_out(m, ONE_SUIT)
    o = m.outcome()
    assert o is not None and o.winners == (1, 3) and o.reason == REASON_FLOOR
    assert o.scores[:2] == (-54, 0)
    m = start(score=(-30, 0), options={"lose_at_minus": False})
    contract(m, BidNoTrump(12))
    play_out(m, ONE_SUIT)
    assert m.outcome() is None and m.state.score == (-54, 0) and m.chance_pending()


def test_a_target_of_64_plays_on_past_52() -> None:
    m = start(score=(42, 10), options={"target": "64"})
    contract(m, Bid(7), NameTrump("S"))
    play_out(m, ONE_SUIT)
    assert m.outcome() is None and m.state.score == (52, 10)


def test_the_deal_passes_left_after_a_hand() -> None:
    m = start()
    contract(m, Bid(7), NameTrump("S"))
    play_out(m, ONE_SUIT)
    assert GAME.between_hands(m.state)
    m.resolve_chance()
    assert m.state.dealer == 0 and m.to_act() == (1,) and m.state.hand_number == 2


# -- the misdeal ------------------------------------------------------------------------------
def test_a_junk_hand_is_redealt_by_the_same_dealer_only_with_the_option() -> None:
    m = Match.start(GAME, 4, {"misdeal": True}, 0, resolve=False)
    m.apply_chance(deal_with(JUNK, seat=2))
    assert m.chance_pending() and m.state.dealer == 3 and m.state.hand_number == 0
    assert m.view(0).misdeal_by == 2 and m.view(0).hand == ()
    assert not GAME.between_hands(m.state)
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(deal_with(JUNK, seat=2, dealer=0))
    assert e.value.code == "bad_chance"  # the redeal is the same dealer's
    m.resolve_chance()
    assert m.state.dealer == 3 and m.state.hand_number == 1 and m.state.misdeals == 0
    plain = Match.start(GAME, 4, {}, 0, resolve=False)
    plain.apply_chance(deal_with(JUNK, seat=2))
    assert plain.state.phase == "bidding" and plain.state.hands[2] == tuple(JUNK)


def test_a_deal_that_is_not_the_deck_or_not_this_dealers_is_refused() -> None:
    m = Match.start(GAME, 4, {}, 0, resolve=False)
    m.apply_chance(deal_with(ONE_SUIT[0]))
    m.state = dataclasses.replace(m.state, phase="deal")  # as if the hand had been played
    bad = (ONE_SUIT[0], ONE_SUIT[0], ONE_SUIT[2], ONE_SUIT[3])
    for outcome in (Deal(3, ONE_SUIT), Deal(True, ONE_SUIT), Deal(0, bad),
                    Deal(0, ONE_SUIT[:3]), Deal(0, (("AS",),) * 4), "deal"):
        before = m.state
        with pytest.raises(IllegalAction) as e:
            m.apply_chance(outcome)
        assert e.value.code == "bad_chance" and m.state is before
    m.apply_chance(Deal(0, ONE_SUIT))
    assert m.to_act() == (1,)
