"""Backgammon's computer players: every level plays legal moves to the end through the rules
interface, enters a planned play checker by checker, and makes sensible cube decisions
(doubles and passes a lost race, takes a close one). Strength is measured in
bench/backgammon_ai.py, not here."""

from __future__ import annotations

import random

import pytest

from engine.backgammon import GAME, PLAYERS
from engine.backgammon.state import DOUBLE, PASS, ROLL_ACTION, TAKE, Move
from engine.match import Match
from tests.engine.backgammon.scenario import place, roll, start


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_level_plays_a_match_to_the_end(level: str) -> None:
    m = Match.start(GAME, 2, {"mode": "match", "length": 1}, seed=3)
    rng = random.Random(3)
    while m.outcome() is None:
        seat = m.to_act()[0]
        legal = m.legal(seat)
        action = PLAYERS[level if seat == 0 else "normal"].choose(m.view(seat), legal, rng)
        assert action in legal
        m.act(seat, action)
        m.resolve_chance()


def test_hard_hits_a_blot_it_can_hit_safely() -> None:
    m = start()
    # Seat 0 to play 6-1 with a seat-1 blot on 7: 13/7* hits it and 8/7 covers.
    place(m, {13: 5, 8: 3, 6: 5, 7: -1, 24: 2, 12: -5, 17: -3, 19: -5, 1: -1})
    roll(m, 6, 1)
    rng = random.Random(0)
    first = PLAYERS["hard"].choose(m.view(0), m.legal(0), rng)
    m.act(0, first)
    second = PLAYERS["hard"].choose(m.view(0), m.legal(0), rng)
    assert {(first.src, first.dst), (second.src, second.dst)} == {(13, 7), (8, 7)}
    assert isinstance(first, Move) and m.state.bar == (0, 1)


def test_cube_decisions_follow_the_race() -> None:
    far_ahead = start()
    place(far_ahead, {1: 3, 2: 2}, turn=0)  # 7 pips against 90
    far_ahead.state = far_ahead.state._replace(phase="decide")
    far_ahead.state = far_ahead.state._replace(board=tuple(
        -5 if p in (19, 20, 21) else c for p, c in enumerate(far_ahead.state.board, 1)))
    far_ahead.state = far_ahead.state._replace(off=(10, 0))
    hard = PLAYERS["hard"]
    assert hard.choose(far_ahead.view(0), far_ahead.legal(0), random.Random(0)) == DOUBLE
    far_ahead.act(0, DOUBLE)
    assert hard.choose(far_ahead.view(1), far_ahead.legal(1), random.Random(0)) == PASS
    close = Match.start(GAME, 2, {}, seed=0, resolve=False)
    close.state = close.state._replace(phase="decide")
    assert hard.choose(close.view(0), close.legal(0), random.Random(0)) == ROLL_ACTION
    close.act(0, DOUBLE)
    assert hard.choose(close.view(1), close.legal(1), random.Random(0)) == TAKE
    assert PLAYERS["easy"].choose(close.view(1), close.legal(1), random.Random(0)) == TAKE


# -- known faults of the levels, found in review (not rules bugs; the AI is not changed here).
# Strict: each turns into a failure the day the fault is fixed, so the marker is then removed.
def _race_double(beavers: bool) -> Match:
    """Seat 0, 31 pips against 53 in a pure race, has doubled: a clear pass for seat 1."""
    m = Match.start(GAME, 2, {"beavers": beavers}, seed=0, resolve=False)
    board = [0] * 24
    board[0:6] = [2, 2, 2, 2, 1, 1]
    board[18:24] = [-3, -3, -2, -2, -2, -2]
    m.state = m.state._replace(board=tuple(board), off=(5, 1), phase="decide", turn=0,
                               start=(tuple(board), (0, 0), (5, 1)))
    m.act(0, DOUBLE)
    return m


def test_hard_passes_a_lost_race_without_beavers() -> None:
    m = _race_double(beavers=False)
    assert PLAYERS["hard"].choose(m.view(1), m.legal(1), random.Random(0)) == PASS


def test_hard_does_not_beaver_a_lost_race() -> None:
    m = _race_double(beavers=True)
    assert PLAYERS["hard"].choose(m.view(1), m.legal(1), random.Random(0)) == PASS


def test_evaluation_prefers_a_made_point_to_two_blots_in_reach() -> None:
    from engine.backgammon.ai import evaluate

    theirs = [0] * 26
    theirs[1], theirs[20], theirs[21], theirs[22] = 2, 5, 4, 4  # two back checkers on 1
    made = [0] * 26
    made[8], made[6], made[0] = 2, 5, 8
    blots = [0] * 26
    blots[9], blots[7], blots[6], blots[0] = 1, 1, 5, 8  # the same pips, two blots
    assert evaluate((tuple(made), tuple(theirs))) > evaluate((tuple(blots), tuple(theirs)))


def test_the_reply_search_sees_the_board_from_the_other_side() -> None:
    from engine.backgammon.ai import flip
    from engine.backgammon.moves import pips
    from engine.backgammon.state import position

    m = Match.start(GAME, 2, {}, 3)
    rng = random.Random(5)
    for _ in range(60):  # into the middle of a game: checkers hit, on the bar, borne off
        if not m.to_act():
            m.resolve_chance()
            continue
        seat = m.to_act()[0]
        m.act(seat, rng.choice(m.legal(seat)))
    for seat in (0, 1):
        assert flip(position(m.state, seat)) == position(m.state, 1 - seat)
        assert flip(flip(position(m.state, seat))) == position(m.state, seat)
    start = position(Match.start(GAME, 2, {}, 3).state, 0)
    assert pips(flip(start)[0]) == 167  # the other side's race at the start, as it counts it
