"""Kaiser views keep hidden information on the host (tests/engine/hand_redaction.py for the
hands), show what the table saw (the auction, the contract, the tricks, a redeal's cause), and
their common part tells the last move in words."""

from __future__ import annotations

import random

import pytest

from engine.codec import to_data
from engine.kaiser import GAME
from engine.kaiser.state import BidNoTrump, NameTrump, Pass, Play
from engine.match import Match
from engine.presentation import Caption
from tests.engine.hand_redaction import (
    check_other_hands_never_reach_a_view,
    check_own_hand_is_visible,
)
from tests.engine.kaiser.scenario import ONE_SUIT, auction, contract, play_out, start


def test_other_hands_never_reach_a_view() -> None:
    check_other_hands_never_reach_a_view(GAME)


def test_own_hand_is_visible() -> None:
    check_own_hand_is_visible(GAME)


def test_a_spectator_sees_counts_and_the_auction_but_no_cards_in_hand() -> None:
    m = start()
    auction(m, BidNoTrump(8), Pass())
    v = m.view(None)
    assert v.hand == () and v.hand_counts == (8, 8, 8, 8) and v.side is None
    assert [(b.seat, b.value, b.no_trump) for b in v.bids] == [(0, 8, True), (1, None, False)]
    assert v.bidder is None  # no contract until the auction ends
    assert m.view(1).hand == ONE_SUIT[1]
    with pytest.raises(ValueError):
        m.view(4)


def test_the_contract_the_trick_and_the_points_taken_are_public() -> None:
    m = start()
    contract(m, BidNoTrump(7))
    m.act(0, Play("AS"))
    v = m.view(2)
    assert (v.bidder, v.bid, v.no_trump, v.trump, v.leader) == (0, 7, True, None, 0)
    assert [(p.seat, p.card) for p in v.trick] == [(0, "AS")]
    assert GAME.common(v).last == Caption("kaiser.last.play", (("seat", 0), ("card", "AS")))
    for seat in (1, 2, 3):
        m.act(seat, m.legal(seat)[0])
    v = m.view(None)
    assert v.taken == (1, 0) and v.tricks[0].winner == 0 and v.tricks[0].points == 1
    assert GAME.common(v).last == Caption("kaiser.last.trick", (("seat", 0), ("points", 1)))


def test_the_common_part_names_the_contract_and_the_last_call() -> None:
    m = start()
    auction(m, Pass(), Pass(), Pass())
    c = GAME.common(m.view(0))
    assert c.last == Caption("kaiser.last.pass", (("seat", 2),))
    assert c.phase == "bidding" and c.teams == (0, 1, 0, 1)
    m.act(3, m.legal(3)[0])
    c = GAME.common(m.view(0))
    assert Caption("kaiser.contract", (("seat", 3), ("bid", 7), ("trump", "kaiser.trump.unnamed"))) \
        in c.captions
    m.act(3, NameTrump("C"))
    c = GAME.common(m.view(0))
    assert c.last == Caption("kaiser.last.trump", (("seat", 3), ("trump", "kaiser.trump.clubs")))


def test_a_scored_hand_is_shown_until_the_next_deal() -> None:
    m = start()
    contract(m, BidNoTrump(11))
    play_out(m, ONE_SUIT)
    v = m.view(1)
    assert v.phase == "hand_over" and v.hand == () and v.tricks == () and v.bids == ()
    assert v.last_hand is not None and v.last_hand.points == (-22, 0) and not v.last_hand.made
    assert GAME.common(v).last == Caption("kaiser.last.failed",
                                          (("seat", 0), ("bid", 11), ("points", -22)))
    assert to_data(v)["score"] == [-22, 0]


def test_views_do_not_change_when_hidden_cards_are_redrawn() -> None:
    m = Match.start(GAME, 4, {}, 11)
    rng = random.Random(2)
    for _ in range(40):
        seat = m.to_act()[0]
        other = GAME.resample_hidden(m.state, seat, rng)
        assert to_data(GAME.view(other, seat)) == to_data(m.view(seat))
        assert to_data(GAME.view(other, None)) == to_data(m.view(None))
        m.act(seat, m.legal(seat)[-1])
        m.resolve_chance()
