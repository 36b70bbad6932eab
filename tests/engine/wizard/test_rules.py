"""Wizard's rules, one scenario per rule and per scoring line, on pinned deals
(tests/engine/wizard/scenario.py), after docs/rules/wizard.md. Four players with seat 0
dealing unless said: seat 1 bids and leads first. Owns rules cases only; views are in
test_views.py, strings in test_strings.py.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from engine import errors
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from engine.wizard import GAME
from engine.wizard.rules import (
    BID_NOT_ALLOWED,
    CARD_NOT_IN_HAND,
    MUST_FOLLOW_SUIT,
    NO_SUCH_SUIT,
    WRONG_PHASE,
)
from engine.wizard.state import DECK, Bid, ChooseTrump, Deal, Play
from tests.engine.refusals import refused
from tests.engine.wizard.scenario import bid_all, deal, play_all, play_randomly, start


def one_trick(cards: list[str], trump: str = "C", **options: object) -> Match:
    """Round 1 for four players (seat 0 deals), ``cards[i]`` to seat ``(1 + i) % 4``, every
    seat bidding 0, and the trick played in that order."""
    hands = [[""]] * 4
    for i, c in enumerate(cards):
        hands[(1 + i) % 4] = [c]
    m = start(hands, "2" + trump, options=options)
    bid_all(m, [0, 0, 0, 0])
    play_all(m, cards)
    return m


def winner(m: Match) -> int:
    return m.state.sheet[-1].taken.index(1)


# -- deck, players and rounds ------------------------------------------------------------
def test_the_deck_is_the_52_cards_four_wizards_and_four_jesters() -> None:
    assert len(DECK) == len(set(DECK)) == 60
    assert Counter(c[0] for c in DECK)["W"] == 4 and Counter(c[0] for c in DECK)["N"] == 4


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_a_full_game_is_sixty_over_the_players_rounds(players: int, rounds: int) -> None:
    assert Match.start(GAME, players).state.rules.rounds == rounds


@pytest.mark.parametrize(("players", "cap", "rounds"), [(3, "5", 5), (4, "10", 10), (6, "10", 10)])
def test_the_rounds_option_caps_the_game(players: int, cap: str, rounds: int) -> None:
    m = Match.start(GAME, players, {"rounds": cap}, 3)
    play_randomly(m, random.Random(3))
    assert [line.round for line in m.state.sheet] == list(range(1, rounds + 1))


@pytest.mark.parametrize("players", [2, 7])
def test_three_to_six_players(players: int) -> None:
    with pytest.raises(OptionError):
        Match.start(GAME, players)


def test_round_r_deals_r_cards_each_and_the_dealer_moves_left() -> None:
    m = Match.start(GAME, 5, {}, 11)
    rng = random.Random(11)
    dealers = []
    while m.outcome() is None:
        if not m.state.trick and not any(b is not None for b in m.state.bids):
            assert [len(h) for h in m.state.hands] == [m.state.round] * 5
            dealers.append(m.state.dealer)
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()
    assert len(dealers) == 12
    assert all(b == (a + 1) % 5 for a, b in itertools.pairwise(dealers))


# -- trump -------------------------------------------------------------------------------
def test_the_turned_cards_suit_is_trump_and_bidding_starts_left_of_the_dealer() -> None:
    m = start([["AS"], ["KS"], ["QS"], ["JS"]], "5H", dealer=2)
    assert m.state.trump == "H" and m.to_act() == (3,)


def test_a_turned_jester_means_no_trump() -> None:
    m = start([["AS"], ["KS"], ["QS"], ["JS"]], "N1")
    assert m.state.trump is None and m.view(1).trump is None and m.to_act() == (1,)


def test_a_turned_wizard_lets_the_dealer_choose_trump_before_bidding() -> None:
    m = start([["AS"], ["KS"], ["QS"], ["JS"]], "W3", dealer=2)
    assert m.to_act() == (2,) and m.state.trump is None
    assert m.legal(2) == tuple(ChooseTrump(s) for s in "SHDC")
    assert all(m.legal(s) == () for s in (0, 1, 3))
    refused(m, 2, Bid(0), WRONG_PHASE)
    refused(m, 3, ChooseTrump("S"), errors.NOT_YOUR_TURN)
    refused(m, 2, ChooseTrump("X"), NO_SUCH_SUIT)
    m.act(2, ChooseTrump("D"))
    assert m.state.trump == "D" and m.to_act() == (3,)


def test_the_last_round_deals_every_card_and_has_no_trump() -> None:
    m = Match.start(GAME, 3, {}, 5)
    play_randomly(m, random.Random(5), lambda m: m.state.round == 20)
    assert sorted(c for h in m.state.hands for c in h) == sorted(DECK)
    assert m.state.turned is None and m.state.trump is None
    assert m.to_act() == ((m.state.dealer + 1) % 3,)


def test_a_pinned_deal_that_is_not_possible_is_refused() -> None:
    m = Match.start(GAME, 3, {}, 0, resolve=False)
    hands = (("AS",), ("KS",), ("QS",))
    for bad in (Deal(0, hands, "AS"),  # a card twice
                Deal(0, (("AS",), ("KS",)), "2C"),  # a hand missing
                Deal(0, (("AS", "2S"), ("KS",), ("QS",)), "2C"),  # a hand too long
                Deal(0, hands, None),  # no turned card while cards are left
                Deal(3, hands, "2C"),  # no such dealer
                Deal(0, (("AS",), ("KS",), ("XX",)), "2C")):  # no such card
        with pytest.raises(IllegalAction) as e:
            m.apply_chance(bad)
        assert e.value.code == errors.BAD_CHANCE and m.state.round == 0
    m.apply_chance(Deal(0, hands, "2C"))
    m.act(1, Bid(0))
    m.act(2, Bid(0))
    m.act(0, Bid(0))
    play_all(m, ["KS", "QS", "AS"])
    with pytest.raises(IllegalAction):  # the next dealer is seat 1, not seat 0 again
        m.apply_chance(Deal(0, (("AS", "2S"), ("KS", "3S"), ("QS", "4S")), "2C"))


# -- bidding -----------------------------------------------------------------------------
def test_bids_go_in_turn_from_zero_to_the_rounds_cards() -> None:
    m = start([["AS"], ["KS"], ["QS"], ["JS"]], "2C")
    assert m.legal(1) == (Bid(0), Bid(1)) and m.legal(2) == ()
    refused(m, 2, Bid(0), errors.NOT_YOUR_TURN)
    refused(m, 1, Bid(2), BID_NOT_ALLOWED)
    refused(m, 1, Bid(-1), BID_NOT_ALLOWED)
    refused(m, 1, Play("KS"), WRONG_PHASE)
    bid_all(m, [1, 0, 1])
    assert m.to_act() == (0,)
    m.act(0, Bid(1))  # the total may exceed the tricks
    assert m.state.phase == "play" and m.to_act() == (1,)


def test_without_screw_the_dealer_the_bids_may_add_up() -> None:
    m = start([["AS"], ["KS"], ["QS"], ["JS"]], "2C")
    bid_all(m, [1, 0, 0])
    assert Bid(0) in m.legal(0)


def test_screw_the_dealer_forbids_the_bid_that_makes_the_total() -> None:
    m = start([["AS"], ["KS"], ["QS"], ["JS"]], "2C", options={"screw_the_dealer": True})
    bid_all(m, [0, 0])
    assert m.legal(3) == (Bid(0), Bid(1))  # only the dealer is restricted
    m.act(3, Bid(0))
    assert m.legal(0) == (Bid(0),)
    refused(m, 0, Bid(1), BID_NOT_ALLOWED)


def test_hidden_bids_cannot_be_combined_with_screw_the_dealer() -> None:
    with pytest.raises(OptionError):
        Match.start(GAME, 3, {"screw_the_dealer": True, "hidden_bids": True}, 0)


# -- play --------------------------------------------------------------------------------
def test_the_first_wizard_wins_over_a_later_wizard_and_trump() -> None:
    assert winner(one_trick(["AC", "W1", "W2", "KC"])) == 2


def test_a_wizard_led_wins() -> None:
    assert winner(one_trick(["W4", "AC", "W2", "KH"])) == 1


def test_the_highest_trump_wins_over_the_led_suit() -> None:
    assert winner(one_trick(["AH", "3C", "KH", "9C"])) == 0  # 9C: seat 0 plays fourth


def test_without_trump_the_highest_of_the_led_suit_wins() -> None:
    assert winner(one_trick(["9H", "AS", "KH", "2H"], trump="D")) == 3


def test_jesters_lose_to_any_card() -> None:
    assert winner(one_trick(["N1", "2S", "N2", "N3"])) == 2


def test_an_all_jester_trick_goes_to_the_first_jester() -> None:
    assert winner(one_trick(["N4", "N1", "N2", "N3"])) == 1


def test_after_a_led_jester_the_first_plain_card_sets_the_suit() -> None:
    # N1 leads, N2 follows, 5D sets diamonds: the later ace of spades (not trump) cannot win.
    assert winner(one_trick(["N1", "N2", "5D", "AS"], trump="H")) == 3


def two_card_round(hands: list[list[str]], turned: str = "2C") -> Match:
    """Round 1 (seat 0 deals) with throwaway cards, then round 2 dealt by seat 1 with
    ``hands``; seat 2 bids and leads first."""
    m = start([["3S"], ["4S"], ["5S"], ["6S"]], "7S")
    bid_all(m, [0, 0, 0, 0])
    play_all(m, ["4S", "5S", "6S", "3S"])
    deal(m, hands, turned)
    bid_all(m, [0, 0, 0, 0])
    return m


def test_holding_the_led_suit_you_must_follow_but_may_play_a_wizard_or_jester() -> None:
    m = two_card_round([["AS", "KH"], ["KS", "W1"], ["QS", "2H"], ["JS", "N1"]])
    m.act(2, Play("QS"))
    assert m.legal(3) == (Play("JS"), Play("N1"))
    refused(m, 3, Play("KH"), CARD_NOT_IN_HAND)
    m.act(3, Play("N1"))
    assert set(m.legal(0)) == {Play("AS")}
    m.act(0, Play("AS"))
    assert set(m.legal(1)) == {Play("KS"), Play("W1")}
    m.act(1, Play("W1"))
    assert m.state.taken[1] == 1 and m.to_act() == (1,)  # the trick's taker leads next


def test_a_card_off_suit_is_refused_while_the_suit_is_held() -> None:
    m = two_card_round([["AS", "KH"], ["KS", "W1"], ["QH", "2S"], ["JS", "N1"]])
    m.act(2, Play("2S"))
    m.act(3, Play("JS"))
    refused(m, 0, Play("KH"), MUST_FOLLOW_SUIT)


def test_a_wizard_led_frees_everyone_and_a_jester_led_then_a_wizard_too() -> None:
    m = two_card_round([["AS", "KH"], ["KS", "W1"], ["W2", "N2"], ["JS", "N1"]])
    m.act(2, Play("W2"))
    assert set(m.legal(3)) == {Play("JS"), Play("N1")}
    m = two_card_round([["AS", "KH"], ["KS", "W1"], ["N2", "W2"], ["JS", "N1"]])
    m.act(2, Play("N2"))
    assert set(m.legal(3)) == {Play("JS"), Play("N1")}  # a Jester leads nothing
    m.act(3, Play("N1"))
    m.act(0, Play("AS"))
    assert set(m.legal(1)) == {Play("KS"), Play("W1")}  # spades now led
    m = two_card_round([["AS", "KH"], ["KS", "W1"], ["N2", "W2"], ["JS", "N1"]])
    m.act(2, Play("N2"))
    m.act(3, Play("N1"))
    m.act(0, Play("AS"))
    m.act(1, Play("W1"))
    assert m.state.taken[1] == 1


def test_a_jester_led_then_a_wizard_leaves_nothing_to_follow() -> None:
    m = two_card_round([["AS", "KH"], ["W1", "KS"], ["N2", "2H"], ["JS", "3S"]])
    m.act(2, Play("N2"))
    m.act(3, Play("JS"))
    assert set(m.legal(0)) == {Play("AS")}
    m = two_card_round([["AS", "KH"], ["KS", "W1"], ["N2", "2H"], ["W2", "3S"]])
    m.act(2, Play("N2"))
    m.act(3, Play("W2"))
    assert set(m.legal(0)) == {Play("AS"), Play("KH")}


# -- scoring -----------------------------------------------------------------------------
def test_scoring_lines_exact_over_and_under_and_the_running_totals() -> None:
    m = start([["2S"], ["AS"], ["KS"], ["3S"]], "9D")
    bid_all(m, [1, 0, 1, 1])  # seats 1, 2, 3, then the dealer 0
    play_all(m, ["AS", "KS", "3S", "2S"])
    line = m.state.sheet[0]
    assert line.bids == (1, 1, 0, 1) and line.taken == (0, 1, 0, 0)
    # exact 1: 20 + 10; exact 0: 20; one under: -10 (seats 0 and 3).
    assert line.points == (-10, 30, 20, -10) and line.totals == line.points
    deal(m, [["2S", "3S"], ["4S", "5S"], ["AH", "KH"], ["6S", "7S"]], "9D")
    bid_all(m, [2, 0, 0, 2])  # seats 2, 3, 0, then the dealer 1
    play_all(m, ["AH", "6S", "2S", "4S", "KH", "7S", "3S", "5S"])
    line = m.state.sheet[1]
    assert line.bids == (0, 2, 2, 0) and line.taken == (0, 0, 2, 0)
    # exact 2: 20 + 20; exact 0: 20; two under: -20.
    assert line.points == (20, -20, 40, 20)
    assert line.totals == (10, 10, 60, 10) and m.state.scores == line.totals


def test_taking_more_than_the_bid_loses_ten_a_trick() -> None:
    m = two_card_round([["AS", "KS"], ["2H", "3H"], ["4H", "5H"], ["6H", "7H"]])
    play_all(m, ["4H", "6H", "AS", "2H"])  # hearts led, clubs trump: seat 3's 6H takes it
    assert m.state.taken == (0, 0, 0, 1)
    play_all(m, ["7H", "KS", "3H", "5H"])
    assert m.state.sheet[-1].taken == (0, 0, 0, 2)
    assert m.state.sheet[-1].points == (20, 20, 20, -20)


def test_the_highest_total_wins_and_ties_share() -> None:
    m = Match.start(GAME, 3, {"rounds": "5"}, 9)
    play_randomly(m, random.Random(9))
    o = m.outcome()
    assert o is not None and o.reason == "wizard.final_scores"
    assert o.scores == m.state.sheet[-1].totals
    assert o.winners == tuple(s for s in range(3) if o.scores[s] == max(o.scores))
    refused(m, 0, Bid(0), errors.GAME_OVER)
