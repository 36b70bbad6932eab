"""Sequence views: what each seat and a spectator may see, checked against the true state."""

from __future__ import annotations

import json
import random

import pytest

from engine.codec import to_data
from engine.match import Match
from engine.sequence import GAME
from engine.sequence.board import CARDS, COMMERCIAL_ROWS
from engine.sequence.data import Wild
from tests.engine.sequence.scenario import at, play, random_until, scripted


def mid_game(players: int = 4, seed: int = 7, steps: int = 30) -> Match:
    m = Match.start(GAME, players, None, seed=seed)
    count = 0

    def stop(_: Match) -> bool:
        nonlocal count
        count += 1
        return count > steps

    random_until(m, stop, seed)
    assert m.outcome() is None
    return m


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others() -> None:
    m = mid_game()
    st = m.state
    for seat in range(4):
        v = m.view(seat)
        assert v.seat == seat and v.team == seat % 2
        assert [c.card for c in v.hand] == [CARDS[c] for c in st.hands[seat]]
        assert v.hand_counts == tuple(len(h) for h in st.hands)
        assert v.draw_pile == len(st.deck) - st.pos
        assert v.discards == tuple(CARDS[c] for c in st.discards)


def test_a_spectator_sees_no_hand() -> None:
    m = mid_game()
    v = m.view(None)
    assert v.seat is None and v.team is None and v.hand == ()
    assert sum(v.hand_counts) == sum(len(h) for h in m.state.hands)


@pytest.mark.parametrize("seat", [None, 0, 1, 2, 3])
def test_views_do_not_change_when_hidden_cards_are_redrawn(seat: int | None) -> None:
    m = mid_game()
    before = json.dumps(to_data(m.view(seat)), sort_keys=True)
    for k in range(5):
        other = GAME.resample_hidden(m.state, seat, random.Random(k))
        assert json.dumps(to_data(GAME.view(other, seat)), sort_keys=True) == before
        # ... while the hidden part really did change (the check is not vacuous).
        assert other.hands != m.state.hands or other.deck[other.pos:] != m.state.deck[m.state.pos:]


def test_resampling_keeps_every_count_and_the_seat_hand() -> None:
    m = mid_game()
    st = m.state
    other = GAME.resample_hidden(st, 1, random.Random(3))
    assert other.hands[1] == st.hands[1]
    assert [len(h) for h in other.hands] == [len(h) for h in st.hands]
    hidden = sorted(c for s in (0, 2, 3) for c in st.hands[s]) + sorted(st.deck[st.pos:])
    again = sorted(c for s in (0, 2, 3) for c in other.hands[s]) + sorted(other.deck[other.pos:])
    assert sorted(hidden) == sorted(again)
    assert other.seed != st.seed


def test_the_view_carries_the_board_chips_sequences_and_captions() -> None:
    line = [at(8, c) for c in range(5)]
    filler = [at(1, 0), at(1, 2), Wild("JD", 5, 5), at(1, 6), at(3, 1)]
    moves = [(s, a) for k in range(5) for s, a in ((0, line[k]), (1, filler[k]))][:-1]
    m = scripted(2, moves, extra={0: ["JH", "JC"]})
    play(m, moves)
    v = m.view(0)
    assert v.layout == COMMERCIAL_ROWS
    assert v.chips[8][:5] == (0, 0, 0, 0, 0) and v.chips[5][5] == 1 and v.chips[0][0] == -1
    assert [(s.team, s.squares) for s in v.sequences] == [(0, tuple((8, c) for c in range(5)))]
    assert set(v.locked) == {(8, c) for c in range(5)}
    captions = {c.card: c.caption for c in v.hand}
    assert captions["JH"] == "sequence.card.remove" and captions["JC"] == "sequence.card.wild"
    assert v.score == (1, 0) and v.captures == (0, 0)
    assert v.turn == 1 and v.to_act == (1,) and not v.exchanged
    assert v.last is not None and v.last.new_sequences == 1 and v.last.squares == ((8, 4),)
    assert v.rules.sequences_to_win == 2 and v.rules.dead_card and not v.rules.fill_board


def test_before_the_deal_nothing_is_dealt_and_a_random_board_is_not_shown() -> None:
    m = Match.start(GAME, 2, {"board": "random"}, seed=1, resolve=False)
    v = m.view(0)
    assert v.hand == () and v.hand_counts == (0, 0) and v.layout == () and v.turn is None
    m.resolve_chance()
    v = m.view(0)
    assert len(v.layout) == 10 and v.layout != COMMERCIAL_ROWS and len(v.hand) == 7


def test_every_view_is_plain_json() -> None:
    m = mid_game(players=3)
    for seat in (None, 0, 1, 2):
        data = json.loads(json.dumps(to_data(m.view(seat))))
        assert data["type"] == "sequence_view"
        assert all(len(code) == 2 for row in data["layout"] for code in row)
