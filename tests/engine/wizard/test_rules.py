"""Wizard rules cases from games-rules.md that implementations get wrong: the first Wizard
wins, Jesters lead nothing, the hook rule on the dealer's last bid, scoring, and option
validation. Owns rules cases only; views are in test_views.py.
"""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction, OptionError
from engine.match import Match
from engine.wizard import GAME
from engine.wizard.rules import Bid, led_suit, round_score, trick_winner


def test_first_wizard_wins_even_over_a_later_wizard_and_trump() -> None:
    assert trick_winner(((0, "AS"), (1, "W1"), (2, "W2"), (3, "KH")), "H") == 1


def test_jesters_lead_no_suit_and_the_first_plain_card_sets_it() -> None:
    assert led_suit(["N1", "5D", "KS"]) == "D"
    assert trick_winner(((0, "N1"), (1, "5D"), (2, "KS")), None) == 1
    assert trick_winner(((0, "N1"), (1, "N2"), (2, "N3")), "S") == 0


def test_scoring_hits_and_misses() -> None:
    assert round_score(0, 0) == 20
    assert round_score(2, 2) == 40
    assert round_score(1, 3) == -20


def test_hook_rule_forbids_the_dealers_bid_that_makes_the_total() -> None:
    m = Match.start(GAME, 3, {"screw_the_dealer": True}, 2)
    m.resolve_chance()
    while m.state.phase != "bidding":
        seat = m.to_act()[0]
        m.act(seat, m.legal(seat)[0])
        m.resolve_chance()
    for _ in range(2):
        seat = m.to_act()[0]
        m.act(seat, Bid(0))
    dealer = m.to_act()[0]
    assert dealer == m.state.dealer
    assert Bid(1) not in m.legal(dealer)
    with pytest.raises(IllegalAction):
        m.act(dealer, Bid(1))


def test_hook_and_hidden_bids_are_rejected_together() -> None:
    with pytest.raises(OptionError):
        Match.start(GAME, 3, {"screw_the_dealer": True, "hidden_bids": True}, 0)
