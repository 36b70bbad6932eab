"""Euchre's rules, one scenario per rule, from pinned deals through the public interface.

Unless a test says otherwise the dealer is seat 3 (so seat 0 bids and leads first), 9H is
turned, and when it is ordered up the dealer buries the 9H again, keeping the pinned hands.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import errors
from engine.errors import IllegalAction, OptionError
from engine.euchre import GAME
from engine.euchre.rules import (
    ALONE_NOT_ALLOWED,
    CARD_NOT_IN_HAND,
    DEALER_MUST_NAME,
    MUST_FOLLOW_SUIT,
    SUIT_TURNED_DOWN,
    WRONG_PHASE,
    DefendAlone,
    DefendWithPartner,
    Discard,
    NameTrump,
    OrderUp,
    Pass,
    Play,
)
from engine.match import ChanceStep, Match
from engine.presentation import Caption
from tests.engine.euchre.scenario import (
    LAYOUT_A,
    LAYOUT_B,
    LAYOUT_C,
    SCRIPT_A,
    SCRIPT_B,
    SCRIPT_C,
    act,
    deal,
    hand_of,
    next_deal,
    play_out,
    play_script,
    rotated,
    start,
    state,
    view,
)
from tests.engine.refusals import refusal as refused


def legal_cards(m: Match, seat: int) -> set[str]:
    return {a.card for a in m.legal(seat)}



def order_up(m: Match, maker: int, *, alone: bool = False, bury: str = "9H") -> None:
    """Everyone before ``maker`` passes, ``maker`` orders up, the dealer buries ``bury``."""
    dealer = view(m, None).dealer
    assert dealer is not None
    seat = (dealer + 1) % 4
    while seat != maker:
        act(m, seat, Pass())
        seat = (seat + 1) % 4
    act(m, maker, OrderUp(alone))
    if view(m, None).phase == "discard":
        act(m, dealer, Discard(bury))


def pass_round_one(m: Match) -> None:
    dealer = view(m, None).dealer
    assert dealer is not None
    for k in range(1, 5):
        act(m, (dealer + k) % 4, Pass())


def first_deal(m: Match) -> Any:
    step = m.steps[0]
    assert isinstance(step, ChanceStep)
    return step.outcome


# -- the deal --------------------------------------------------------------------------------
def test_deal_packets_go_three_two_from_the_dealers_left() -> None:
    m = Match.start(GAME, 4, None, seed=5)
    d = first_deal(m)
    assert [len(p) for p in d.packets] == [3, 2, 3, 2, 2, 3, 2, 3]
    assert len(d.rest) == 3
    for i, packet in enumerate(d.packets):
        assert set(packet) <= set(hand_of(m, (d.dealer + 1 + i) % 4))
    v = view(m, None)
    assert (v.dealer, v.turned, v.turned_status, v.phase) == (d.dealer, d.turned, "up", "round_one")
    assert v.hand_counts == (5, 5, 5, 5)
    assert m.to_act() == ((d.dealer + 1) % 4,)


def test_the_first_dealer_is_cut_by_chance() -> None:
    dealers = {first_deal(Match.start(GAME, 4, None, seed=s)).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_the_deal_passes_left_after_every_hand() -> None:
    m = start(3, LAYOUT_C)
    order_up(m, 0, alone=True)
    play_out(m)
    assert GAME.between_hands(state(m)) and view(m, None).phase == "hand_over"
    assert GAME.next_dealer(state(m)) == 0 and m.to_act() == ()
    assert refused(m, 1, Pass()) == errors.CHANCE_PENDING
    m.resolve_chance()
    assert view(m, None).dealer == 0 and m.to_act() == (1,)
    assert not GAME.between_hands(state(m))


def _mirror(d: Any) -> Any:
    hands: dict[int, list[str]] = {s: [] for s in range(4)}
    for i, packet in enumerate(d.packets):
        hands[(d.dealer + 1 + i) % 4].extend(packet)
    taken = dict.fromkeys(range(4), 0)
    packets = []
    for i, n in enumerate((2, 3, 2, 3, 3, 2, 3, 2)):
        seat = (d.dealer + 1 + i) % 4
        packets.append(tuple(hands[seat][taken[seat]:taken[seat] + n]))
        taken[seat] += n
    return d.__class__(d.dealer, tuple(packets), d.turned, d.rest)


BAD_DEALS = [
    (lambda d: d.__class__(d.dealer, d.packets, d.turned, (d.packets[0][0], *d.rest[1:])),
     "dealt twice"),
    (lambda d: d.__class__(d.dealer, d.packets, "7H", d.rest), "not a card of the 24"),
    (lambda d: d.__class__(d.dealer, d.packets, d.turned, d.rest[:-1]), "rest of the deck"),
    (lambda d: d.__class__(d.dealer, (d.packets[0] + d.packets[1], *d.packets[2:]), d.turned,
                           d.rest), "eight packets"),
    (lambda d: d.__class__(d.dealer, (d.packets[0][:2], d.packets[1] + d.packets[0][2:],
                                      *d.packets[2:]), d.turned, d.rest), "3-2-3-2"),
    (lambda d: d.__class__(4, d.packets, d.turned, d.rest), "seat 0..3"),
    (lambda d: "a deal", "is a deal"),
]


@pytest.mark.parametrize(("mutate", "detail"), BAD_DEALS)
def test_a_pinned_deal_that_is_not_a_deal_is_refused(mutate: Any, detail: str) -> None:
    m = Match.start(GAME, 4, None, seed=0, resolve=False)
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(mutate(deal(3, LAYOUT_A, "9H")))
    assert e.value.code == errors.BAD_CHANCE and detail in e.value.detail
    assert m.chance_pending() and not m.steps


def test_the_mirror_packet_pattern_is_accepted() -> None:
    m = Match.start(GAME, 4, None, seed=0, resolve=False)
    m.apply_chance(_mirror(deal(3, LAYOUT_A, "9H")))
    for seat in range(4):
        assert set(hand_of(m, seat)) == set(LAYOUT_A[seat].split())


def test_a_later_deal_must_be_the_next_dealers() -> None:
    m = start(3, LAYOUT_C)
    order_up(m, 0, alone=True)
    play_out(m)
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(deal(2, LAYOUT_A, "9H"))
    assert e.value.code == errors.BAD_CHANCE and "seat 0's deal" in e.value.detail
    m.apply_chance(deal(0, rotated(0, LAYOUT_A), "9H"))
    assert m.to_act() == (1,)


def test_thirty_two_card_deck() -> None:
    m = Match.start(GAME, 4, {"deck": "32"}, seed=11)
    d = first_deal(m)
    every = [c for p in d.packets for c in p] + [d.turned, *d.rest]
    assert len(every) == len(set(every)) == 32 and len(d.rest) == 11
    assert {c[0] for c in every} == set("789TJQKA")
    assert view(m, None).deck == 32 and view(m, None).hand_counts == (5, 5, 5, 5)
    d24 = first_deal(Match.start(GAME, 4, None, seed=11))
    assert {c[0] for p in d24.packets for c in p} <= set("9TJQKA")
    bad = Match.start(GAME, 4, None, seed=0, resolve=False)
    with pytest.raises(IllegalAction):
        bad.apply_chance(d)  # a 32-card deal at a 24-card table


def test_thirty_two_cards_sevens_and_eights_rank_lowest() -> None:
    # Clubs turned (AC) and turned down; seat 0 names spades. 7S is the lowest trump.
    hands = {0: "AD 9H TH QH KH", 1: "7S 8C 9C AH 8H", 2: "KD 7C QD TD 9D",
             3: "7D 8D 7H JH 8S"}
    m = start(3, hands, "AC", deck="32")
    pass_round_one(m)
    act(m, 0, NameTrump("S"))
    winners = play_script(m, "AD 7S KD 7D / 8C 7C 7H 9H / 8H TD JH TH / 8D QH 9C 9D / "
                             "QD 8S KH AH")
    # 7S trumps the ace; 8C beats 7C; JH beats TH and 8H; 9D beats 8D; 8S trumps the queen.
    assert winners == [1, 1, 3, 2, 3]
    assert view(m, None).tricks_won == (1, 4)


# -- ranking and following ---------------------------------------------------------------------
BOWERS = {0: "AH 9S TS 9C TC", 1: "JD QS KS QC KC", 2: "JH AS AC AD KD", 3: "9D TD QD JS JC"}


def test_right_bower_beats_left_bower_beats_ace_of_trump() -> None:
    m = start(3, BOWERS)
    order_up(m, 0)
    m.act(0, Play("AH"))
    assert legal_cards(m, 1) == {"JD"}  # the left bower is trump and must follow trump
    m.act(1, Play("JD"))
    assert legal_cards(m, 2) == {"JH"}
    m.act(2, Play("JH"))
    assert legal_cards(m, 3) == {"9D", "TD", "QD", "JS", "JC"}  # void in trump
    m.act(3, Play("9D"))
    assert view(m, None).tricks[0].winner == 2
    # Without the right bower in the trick, the left bower beats the ace (and the king).
    no_right = {0: "AH 9S TS 9C TC", 1: "JD QS KS QC KC", 2: "KH AS AC AD KD",
                3: "9D TD QD JS JC"}
    m = start(3, no_right)
    order_up(m, 0)
    assert play_script(m, "AH JD KH 9D") == [1]


def test_a_card_neither_trump_nor_led_cannot_win() -> None:
    hands = {0: "9C JH JD AH KH", 1: "AD KD QD QS KS", 2: "TC 9S TS 9D TD",
             3: "AS JS JC QC KC"}
    m = start(3, hands)
    order_up(m, 0)
    m.act(0, Play("9C"))
    assert legal_cards(m, 1) == {"AD", "KD", "QD", "QS", "KS"}  # void in clubs and trump
    assert play_script(m, "AD TC QC") == [3]  # the ace of diamonds, off-suit, cannot win


def test_left_bower_is_not_its_printed_suit() -> None:
    # Hearts trump. Seat 0 leads AD: seat 1 holds JD and 9D and must play the 9D, since the JD
    # is a heart for the whole hand; seat 2, void in diamonds, may play anything.
    hands = {0: "AD 9S TS 9C TC", 1: "JD 9D QS KS QC", 2: "AH KH AS AC KC",
             3: "TD QD KD JS JC"}
    m = start(3, hands)
    order_up(m, 0)
    m.act(0, Play("AD"))
    assert legal_cards(m, 1) == {"9D"}
    assert refused(m, 1, Play("JD")) == MUST_FOLLOW_SUIT
    m.act(1, Play("9D"))
    assert legal_cards(m, 2) == {"AH", "KH", "AS", "AC", "KC"}
    m.act(2, Play("AH"))
    assert legal_cards(m, 3) == {"TD", "QD", "KD"}
    m.act(3, Play("KD"))
    assert view(m, None).tricks[0].winner == 2


def test_left_bower_trumps_its_printed_suit_when_void() -> None:
    hands = {0: "AD 9S TS 9C TC", 1: "JD QS KS QC KC", 2: "KH AH AS AC JS",
             3: "9D TD QD KD JC"}
    m = start(3, hands)
    order_up(m, 0)
    m.act(0, Play("AD"))
    assert legal_cards(m, 1) == {"JD", "QS", "KS", "QC", "KC"}  # no diamond in that hand
    assert play_script(m, "JD AS 9D") == [1]


def test_must_follow_and_card_not_in_hand_refusals() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 0)
    assert refused(m, 0, Play("AS")) == CARD_NOT_IN_HAND
    assert refused(m, 1, Play("AS")) == errors.NOT_YOUR_TURN
    assert refused(m, 0, Pass()) == WRONG_PHASE
    m.act(0, Play("9S"))
    assert legal_cards(m, 1) == {"AS", "KS"}
    assert refused(m, 1, Play("AC")) == MUST_FOLLOW_SUIT


# -- bidding -----------------------------------------------------------------------------------
def test_ordering_up_gives_the_dealer_the_card_to_discard_one_of_six() -> None:
    m = start(3, LAYOUT_A)
    act(m, 0, OrderUp())
    v = view(m, None)
    assert (v.phase, v.trump, v.maker, v.turned_status) == ("discard", "H", 0, "taken")
    assert m.to_act() == (3,) and v.hand_counts == (5, 5, 5, 6)
    assert legal_cards(m, 3) == {*LAYOUT_A[3].split(), "9H"}
    assert refused(m, 3, Discard("AS")) == CARD_NOT_IN_HAND
    assert refused(m, 3, Play("QS")) == WRONG_PHASE
    assert refused(m, 0, Discard("JH")) == errors.NOT_YOUR_TURN
    act(m, 3, Discard("QS"))
    assert set(hand_of(m, 3)) == {"9H", "JS", "KD", "QD", "JC"}
    assert view(m, 3).discard == "QS"
    assert all(view(m, s).discard is None for s in (None, 0, 1, 2))
    assert view(m, None).phase == "play" and m.to_act() == (0,)


def test_the_dealer_may_pick_it_up_and_may_bury_the_turned_card() -> None:
    m = start(3, LAYOUT_A)
    for seat in (0, 1, 2):
        act(m, seat, Pass())
    act(m, 3, OrderUp())
    assert view(m, None).bids[-1].call == "order_up" and view(m, None).maker == 3
    act(m, 3, Discard("9H"))
    assert set(hand_of(m, 3)) == set(LAYOUT_A[3].split())
    assert view(m, 3).discard == "9H" and view(m, None).turned_status == "taken"


def test_round_two_bars_the_turned_suit() -> None:
    m = start(3, LAYOUT_A)
    pass_round_one(m)
    v = view(m, None)
    assert (v.phase, v.turned_status) == ("round_two", "turned_down") and m.to_act() == (0,)
    names = {(a.suit, a.alone) for a in m.legal(0) if isinstance(a, NameTrump)}
    assert names == {(s, alone) for s in "SDC" for alone in (False, True)}
    assert Pass() in m.legal(0)
    assert refused(m, 0, NameTrump("H")) == SUIT_TURNED_DOWN
    assert refused(m, 0, NameTrump("X")) == errors.ILLEGAL_ACTION
    assert refused(m, 0, OrderUp()) == WRONG_PHASE
    act(m, 0, NameTrump("S"))
    v = view(m, None)
    assert (v.phase, v.trump, v.maker, v.hand_counts) == ("play", "S", 0, (5, 5, 5, 5))
    assert [(b.seat, b.round, b.call, b.suit) for b in v.bids] == [
        (0, 1, "pass", None), (1, 1, "pass", None), (2, 1, "pass", None),
        (3, 1, "pass", None), (0, 2, "name", "S")]


def test_round_one_offers_only_pass_and_order_up() -> None:
    m = start(3, LAYOUT_A)
    assert set(m.legal(0)) == {Pass(), OrderUp(False), OrderUp(True)}
    assert refused(m, 0, NameTrump("S")) == WRONG_PHASE
    assert refused(m, 0, Discard("JH")) == WRONG_PHASE


def test_stick_the_dealer_on_the_dealer_must_name() -> None:
    m = start(3, LAYOUT_A)
    pass_round_one(m)
    for seat in (0, 1, 2):
        act(m, seat, Pass())
    assert Pass() not in m.legal(3)
    assert refused(m, 3, Pass()) == DEALER_MUST_NAME
    act(m, 3, NameTrump("C"))
    assert view(m, None).trump == "C" and view(m, None).maker == 3


def test_stick_the_dealer_off_four_passes_throw_the_hand_in() -> None:
    m = start(3, LAYOUT_A, stick_the_dealer=False)
    pass_round_one(m)
    for seat in (0, 1, 2):
        act(m, seat, Pass())
    assert Pass() in m.legal(3)
    act(m, 3, Pass())
    assert GAME.between_hands(state(m))
    v = view(m, None)
    assert v.phase == "hand_over" and v.score == (0, 0)
    last = v.last_hand
    assert last is not None
    assert (last.result, last.points, last.maker, last.trump) == (
        "euchre.result.thrown_in", (0, 0), None, None)
    next_deal(m, rotated(0, LAYOUT_A))
    assert view(m, None).dealer == 0 and m.to_act() == (1,)


# -- going alone -------------------------------------------------------------------------------
def test_going_alone_the_partner_sits_out_and_is_skipped_for_the_lead() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 2, alone=True)  # seat 0, who would lead, is the maker's partner
    v = view(m, None)
    assert (v.alone, v.sitting_out, v.maker) == (True, (0,), 2)
    assert m.to_act() == (1,)
    start_steps = len(m.steps)
    play_out(m)
    acted = {s.seat for s in m.steps[start_steps:] if not isinstance(s, ChanceStep)}
    assert acted == {1, 2, 3}
    v = view(m, None)
    assert all(len(t.plays) == 3 for t in v.tricks) and v.tricks[0].leader == 1
    assert v.hand_counts[0] == 5
    assert v.last_hand is not None and v.last_hand.alone


def test_the_dealers_partner_going_alone_leaves_the_turned_card() -> None:
    m = start(3, LAYOUT_A)
    order_up(m, 1, alone=True)  # the dealer, seat 3, sits out and takes no card
    v = view(m, None)
    assert (v.phase, v.turned_status, v.sitting_out) == ("play", "set_aside", (3,))
    assert v.hand_counts == (5, 5, 5, 5) and m.to_act() == (0,)
    assert view(m, 3).discard is None


def test_going_alone_off() -> None:
    m = start(3, LAYOUT_A, going_alone=False)
    assert set(m.legal(0)) == {Pass(), OrderUp(False)}
    assert refused(m, 0, OrderUp(True)) == ALONE_NOT_ALLOWED
    pass_round_one(m)
    assert not any(getattr(a, "alone", False) for a in m.legal(0))
    assert refused(m, 0, NameTrump("S", alone=True)) == ALONE_NOT_ALLOWED


def test_defending_alone() -> None:
    m = start(3, LAYOUT_A, defend_alone=True)
    order_up(m, 0, alone=True)
    v = view(m, None)
    assert v.phase == "defend_alone" and m.to_act() == (1,)  # the maker's left first
    assert set(m.legal(1)) == {DefendAlone(), DefendWithPartner()}
    assert refused(m, 1, Play("AS")) == WRONG_PHASE
    act(m, 1, DefendWithPartner())
    assert m.to_act() == (3,)
    act(m, 3, DefendAlone())
    v = view(m, None)
    assert (v.lone_defender, v.sitting_out, v.phase) == (3, (1, 2), "play")
    assert m.to_act() == (0,)
    m.act(0, Play("JH"))
    assert m.to_act() == (3,)
    m.act(3, Play("JC"))
    assert view(m, None).tricks[0].plays[-1].seat == 3 and m.to_act() == (0,)


def test_both_defenders_may_decline() -> None:
    m = start(3, LAYOUT_A, defend_alone=True)
    order_up(m, 0, alone=True)
    act(m, 1, DefendWithPartner())
    act(m, 3, DefendWithPartner())
    v = view(m, None)
    assert (v.lone_defender, v.sitting_out, v.phase) == (None, (2,), "play")


def test_defending_alone_is_offered_only_against_a_lone_maker() -> None:
    m = start(3, LAYOUT_A, defend_alone=True)
    order_up(m, 0)
    assert view(m, None).phase == "play"
    m = start(3, LAYOUT_A)  # option off
    order_up(m, 0, alone=True)
    assert view(m, None).phase == "play"


def test_defend_alone_needs_going_alone() -> None:
    with pytest.raises(OptionError) as e:
        GAME.validate(4, {"defend_alone": True, "going_alone": False})
    assert e.value.option == "defend_alone"


# -- scoring -----------------------------------------------------------------------------------
ALONE_SCRIPT_A = "JH KC JC / JD KS JS / AH AC QD / 9S AS QS / AD KD TS"
ALONE_SCRIPT_C = "JH KC JC / JD KS JS / AH AC QD / KH AD KD / QH AS QS"


@pytest.mark.parametrize(
    ("layout", "maker", "alone", "script", "tricks", "points", "result"),
    [
        (LAYOUT_A, 0, False, SCRIPT_A, (3, 2), (1, 0), "euchre.result.made"),
        (LAYOUT_B, 0, False, SCRIPT_B, (4, 1), (1, 0), "euchre.result.made"),
        (LAYOUT_C, 0, False, SCRIPT_C, (5, 0), (2, 0), "euchre.result.march"),
        (LAYOUT_C, 0, True, ALONE_SCRIPT_C, (5, 0), (4, 0), "euchre.result.march_alone"),
        (LAYOUT_A, 0, True, ALONE_SCRIPT_A, (3, 2), (1, 0), "euchre.result.made_alone"),
        (LAYOUT_A, 1, False, SCRIPT_A, (3, 2), (2, 0), "euchre.result.euchred"),
        # A lone maker euchred by both defenders: still 2. Seat 1 goes alone, so the dealer
        # (its partner) sits out: three cards a trick.
        (LAYOUT_A, 1, True, "JH KC 9C / JD KS TC / AH AC QC / 9S AS 9D / AD TD TS", (3, 2),
         (2, 0), "euchre.result.euchred"),
    ],
)
def test_scoring(layout: dict[int, str], maker: int, alone: bool, script: str,
                 tricks: tuple[int, int], points: tuple[int, int], result: str) -> None:
    m = start(3, layout)
    order_up(m, maker, alone=alone)
    play_script(m, script)
    v = view(m, None)
    assert v.tricks_won == tricks and v.score == points
    last = v.last_hand
    assert last is not None
    assert (last.result, last.points, last.tricks, last.maker, last.alone, last.trump) == (
        result, points, tricks, maker, alone, "H")
    assert GAME.between_hands(state(m))


def test_a_lone_defender_who_euchres_the_maker_scores_four() -> None:
    m = start(3, LAYOUT_A, defend_alone=True)
    order_up(m, 1, alone=True)
    act(m, 2, DefendWithPartner())
    act(m, 0, DefendAlone())
    assert view(m, None).sitting_out == (2, 3)
    play_script(m, "JH KC / JD KS / AH AC / 9S AS / AD TS")
    last = view(m, None).last_hand
    assert last is not None
    assert (last.result, last.points, last.lone_defender, last.tricks) == (
        "euchre.result.euchred_alone", (4, 0), 0, (3, 2))


# -- the end of the game -----------------------------------------------------------------------
def march(m: Match, *, alone: bool, dealer: int | None = None) -> None:
    """The next hand (the first, if ``dealer`` is given): the side-0 seat after the dealer
    gets the five best trumps and orders up; it marches however anyone plays."""
    if dealer is None:
        dealer = GAME.next_dealer(state(m))
    assert dealer is not None
    maker = next(s for s in ((dealer + 1) % 4, (dealer + 2) % 4) if s % 2 == 0)
    hands = {(s + maker) % 4: LAYOUT_C[s] for s in range(4)}
    m.apply_chance(deal(dealer, hands, "9H"))
    order_up(m, maker, alone=alone)
    play_out(m)


def made_one(m: Match) -> None:
    next_deal(m, LAYOUT_A)  # seat 3's deal: seat 0 makes hearts and takes three tricks
    order_up(m, 0)
    play_script(m, SCRIPT_A)


def fresh(target: str) -> Match:
    return Match.start(GAME, 4, {"target": target}, seed=0, resolve=False)


def assert_running(m: Match, score: tuple[int, int]) -> None:
    assert view(m, None).score == score and m.outcome() is None
    assert GAME.between_hands(state(m))


def assert_won(m: Match, score: tuple[int, int]) -> None:
    o = m.outcome()
    assert o is not None and view(m, None).phase == "game_over"
    assert o.winners == (0, 2) and o.scores == (score[0], score[1], score[0], score[1])
    assert o.reason == "euchre.reached_target"
    # The last thing done is the final hand's result, not the bid that opened that hand.
    seen = view(m, None)
    assert seen.last_hand is not None
    assert GAME.common(seen).last == Caption(seen.last_hand.result)
    assert not GAME.between_hands(state(m)) and m.to_act() == () and not m.chance_pending()
    assert all(m.legal(s) == () for s in range(4))
    assert refused(m, 0, Pass()) == errors.GAME_OVER


def test_game_to_ten() -> None:
    m = fresh("10")
    march(m, alone=True, dealer=3)
    march(m, alone=True)
    assert_running(m, (8, 0))
    march(m, alone=False)
    assert_won(m, (10, 0))


def test_game_to_eleven() -> None:
    m = fresh("11")
    march(m, alone=True, dealer=0)
    march(m, alone=True)
    march(m, alone=False)
    assert_running(m, (10, 0))
    made_one(m)  # the fourth deal is seat 3's
    assert_won(m, (11, 0))


def test_game_to_fifteen() -> None:
    m = fresh("15")
    march(m, alone=True, dealer=3)
    march(m, alone=True)
    march(m, alone=True)
    march(m, alone=False)
    assert_running(m, (14, 0))
    made_one(m)  # the fifth deal is seat 3's again
    assert_won(m, (15, 0))
