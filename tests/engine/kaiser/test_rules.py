"""Kaiser rules cases from games-rules.md that implementations get wrong: the 12 ceiling, the
no-trump rank, one bid per player, the dealer's equalling, and the point cards counting for
the trick's taker. Owns rules cases only; views are in test_views.py.
"""

from __future__ import annotations

import random

from engine.kaiser import GAME
from engine.kaiser.rules import Bid, Pass, bid_key, card_points, trick_winner
from engine.match import Match


def _bidding(seed: int = 3) -> Match:
    m = Match.start(GAME, 4, {}, seed)
    m.resolve_chance()
    return m


def test_bids_run_from_minimum_to_twelve_with_no_trump_above_the_number() -> None:
    m = _bidding()
    seat = m.to_act()[0]
    bids = [a for a in m.legal(seat) if isinstance(a, Bid)]
    assert min(b.value for b in bids) == 7
    assert max(b.value for b in bids) == 12
    assert bid_key(8, False) < bid_key(8, True) < bid_key(9, False)


def test_a_passed_player_never_bids_again() -> None:
    m = _bidding()
    first = m.to_act()[0]
    m.act(first, Pass())
    for _ in range(2):
        seat = m.to_act()[0]
        assert seat != first
        m.act(seat, Pass())
    # All passed: the dealer is forced to bid (never also a redeal), at least the minimum.
    dealer = m.to_act()[0]
    assert dealer == m.state.dealer != first
    legal = m.legal(dealer)
    assert Pass() not in legal and Bid(7, False) in legal
    m.act(dealer, Bid(7, False))
    assert first not in m.to_act()


def test_dealer_may_equal_but_others_must_beat() -> None:
    m = _bidding()
    opener = m.to_act()[0]
    m.act(opener, Bid(8, True))
    for _ in range(2):
        seat = m.to_act()[0]
        legal = [a for a in m.legal(seat) if isinstance(a, Bid)]
        assert all(bid_key(b.value, b.no_trump) > bid_key(8, True) for b in legal)
        m.act(seat, Pass())
    dealer = m.to_act()[0]
    assert dealer == m.state.dealer
    assert Bid(8, True) in m.legal(dealer)


def test_point_cards_count_for_the_taker_and_can_share_a_trick() -> None:
    assert card_points("5H") == 5 and card_points("3S") == -3
    plays = ((0, "AH"), (1, "5H"), (2, "3S"), (3, "8H"))
    assert trick_winner(plays, None) == 0
    assert 1 + sum(card_points(c) for _, c in plays) == 3


def test_random_hands_end_and_teams_are_opposite() -> None:
    assert GAME.teams(4, {}) == (0, 1, 0, 1)
    m = _bidding(9)
    rng = random.Random(9)
    while m.outcome() is None:
        seat = m.to_act()[0]
        legal = m.legal(seat)
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()
    assert m.outcome() is not None
