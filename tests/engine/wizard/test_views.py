"""Wizard views keep hidden information on the host: other hands never reach a view
(tests/engine/hand_redaction.py), hidden bids reach no other seat (field, last action or
caption) before the last bid is in, and the score sheet is in every seat's view and the
spectator's."""

from __future__ import annotations

import json
import random

from engine.codec import to_wire
from engine.match import Match
from engine.wizard import GAME
from tests.engine.hand_redaction import (
    check_other_hands_never_reach_a_view,
    check_own_hand_is_visible,
)
from tests.engine.wizard.scenario import bid_all, play_all, start


def test_other_hands_never_reach_a_view() -> None:
    check_other_hands_never_reach_a_view(GAME)


def test_own_hand_is_visible() -> None:
    check_own_hand_is_visible(GAME)


def test_the_score_sheet_is_in_every_seats_view_and_the_spectators() -> None:
    m = start([["2S"], ["AS"], ["KS"], ["3S"]], "9D")
    bid_all(m, [1, 0, 1, 1])
    play_all(m, ["AS", "KS", "3S", "2S"])
    for seat in (None, 0, 1, 2, 3):
        v = m.view(seat)
        assert v.phase == "round_over"
        (line,) = v.sheet
        assert (line.bids, line.taken, line.points) == ((1, 1, 0, 1), (0, 1, 0, 0),
                                                        (-10, 30, 20, -10))
        assert v.scores == (-10, 30, 20, -10)
    m.resolve_chance()
    assert all(len(m.view(s).sheet) == 1 for s in (None, 0, 1, 2, 3))  # kept in later rounds


def test_hidden_bids_stay_hidden_until_the_last_bid() -> None:
    m = start([["2S"], ["AS"], ["KS"], ["3S"]], "9D", options={"hidden_bids": True})
    bid_all(m, [1, 0, 1])  # seats 1, 2, 3; the dealer (0) has not bid
    for seat in (None, 0, 1, 2, 3):
        v = m.view(seat)
        assert v.bids_in == (False, True, True, True)
        assert all(b is None for s, b in enumerate(v.bids) if s != seat)
        assert v.last is not None and v.last.seat == 3
        assert v.last.tricks == (1 if seat == 3 else None)
        c = GAME.common(v)
        assert c.last is not None
        assert c.last.key == ("wizard.last.bid" if seat == 3 else "wizard.last.bid_hidden")
    assert m.view(1).bids[1] == 1 and m.view(2).bids[2] == 0
    m.act(0, m.legal(0)[0])
    assert all(m.view(s).bids == (0, 1, 0, 1) for s in (None, 0, 1, 2, 3))


def test_no_hidden_bid_reaches_another_seats_encoded_view() -> None:
    """Random games: at every bidding decision, each seat's encoded view (and the common part)
    is the same whatever the other seats bid."""
    checked = redrawn = 0
    for seed in range(3):
        m = Match.start(GAME, 4, {"hidden_bids": True, "rounds": "5"}, seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            if m.state.phase == "bidding":
                for seat in (None, 0, 1, 2, 3):
                    text = json.dumps([to_wire(m.view(seat)), to_wire(GAME.common(m.view(seat)))])
                    other = GAME.resample_hidden(m.state, seat, rng)
                    redrawn += other.bids != m.state.bids
                    assert json.dumps([to_wire(GAME.view(other, seat)),
                                       to_wire(GAME.common(GAME.view(other, seat)))]) == text
                    checked += 1
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()
    assert checked > 100 and redrawn > 20  # the bids really were redrawn
