"""Backgammon's computer players: every level plays legal moves to the end through the rules
interface, enters a planned play checker by checker, and makes sensible cube decisions
(doubles and passes a lost race, takes a close one). Strength is measured in
bench/backgammon_ai.py, not here."""

from __future__ import annotations

import random

import pytest

from engine.backgammon import GAME, PLAYERS
from engine.backgammon.state import BEAVER, DOUBLE, PASS, ROLL_ACTION, TAKE, Move
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


HIT_AND_COVER = {13: 5, 8: 3, 6: 5, 7: -1, 24: 2, 12: -5, 17: -3, 19: -5, 1: -1}


def test_hard_evaluation_ranks_hitting_and_covering_first() -> None:
    """Seat 0 to play 6-1 with a seat-1 blot on its 7-point: 13/7* 8/7 makes the bar point on
    the hit. Hard's evaluation of the plays (``standing``, before its look-ahead) and normal's
    both rank it first."""
    from engine.backgammon import ai
    from engine.backgammon import moves as mv

    m = start()
    place(m, HIT_AND_COVER)
    roll(m, 6, 1)
    finals = mv.final_positions(ai.seat_position(m.view(0), 0), m.state.left)
    for value in (ai.standing, ai.evaluate):
        best = max(finals, key=value)
        assert {s[:2] for s in finals[best]} == {(13, 7), (8, 7)}


def test_hard_hits_a_blot_it_can_hit_safely() -> None:
    """Through the look-ahead too. (With an "anchors" term, fitted negative because anchors
    go with being behind, hard played 24/18 8/7* here: the term is gone.)"""
    m = start()
    # Seat 0 to play 6-1 with a seat-1 blot on 7: 13/7* hits it and 8/7 covers.
    place(m, HIT_AND_COVER)
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


# -- hard's cube on pinned positions (seat 0 on roll; seat 1's points given in its own
# numbering through ``theirs``). Each position has one clear answer in cube theory.
def theirs(points: dict[int, int]) -> dict[int, int]:
    """Seat 1's checkers, given on its own points, as the scenario's seat-0 numbering."""
    return {25 - p: -c for p, c in points.items()}


# A pure race, seat 0 on roll with 69 pips against 77: Keith's count (adjusted 70 plus a
# seventh against 77: 3 pips more) is a double (4 or less) and a take (2 or more).
RACE_DOUBLE_TAKE = {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 8: 1,
                    **theirs({6: 4, 5: 4, 4: 3, 3: 2, 8: 1, 7: 1})}
# The same two sides swapped: seat 0 on roll is 8 pips behind: no double.
RACE_BEHIND = {6: 4, 5: 4, 4: 3, 3: 2, 8: 1, 7: 1, **theirs({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 8: 1})}
# Seat 0 has closed its board with two of seat 1's checkers on the bar: double, and pass.
CLOSED_OUT = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3, **theirs({6: 5, 5: 4, 13: 4})}
# A blitz: a five-point board and a sixth checker to come, one of seat 1's on the bar.
BLITZ = {6: 3, 5: 2, 4: 2, 3: 2, 2: 2, 8: 2, 13: 2,
         **theirs({1: 1, 13: 4, 8: 3, 6: 2, 5: 2, 4: 2})}


def deciding(points: dict[int, int] | None, bar: tuple[int, int] = (0, 0),
             **options: object) -> Match:
    """Seat 0 to double or roll in this position (``None``: the starting position)."""
    m = start(**options)
    if points is not None:
        place(m, points, bar=bar)
    m.state = m.state._replace(phase="decide", turn=0)
    return m


def hard_says(m: Match, seat: int) -> object:
    return PLAYERS["hard"].choose(m.view(seat), m.legal(seat), random.Random(0))


def offered(m: Match) -> Match:
    m.act(0, DOUBLE)
    return m


@pytest.mark.parametrize(("points", "bar", "double", "take"), [
    (None, (0, 0), False, True),  # the start: no double; a double would be a clear take
    (RACE_DOUBLE_TAKE, (0, 0), True, True),
    (RACE_BEHIND, (0, 0), False, True),
    (CLOSED_OUT, (0, 2), True, False),
    (BLITZ, (0, 1), True, False),
], ids=["start", "race_double_take", "race_behind", "closed_out", "blitz"])
def test_hard_doubles_takes_and_passes_the_clear_positions(
        points: dict[int, int] | None, bar: tuple[int, int], double: bool, take: bool) -> None:
    assert hard_says(deciding(points, bar), 0) == (DOUBLE if double else ROLL_ACTION)
    assert hard_says(offered(deciding(points, bar)), 1) == (TAKE if take else PASS)


def test_normal_misses_the_race_double_that_hard_finds() -> None:
    """Why hard's cube is its own: normal's pip-race estimate holds 69 v 77 for too little."""
    m = deciding(RACE_DOUBLE_TAKE)
    assert PLAYERS["normal"].choose(m.view(0), m.legal(0), random.Random(0)) == ROLL_ACTION
    assert hard_says(m, 0) == DOUBLE


def test_hard_redoubles_a_little_later_than_it_doubles() -> None:
    # 68 pips (Keith 69) against 75: 69 and a seventh is 3.9 more than 75, a double (4 or
    # less) but not yet a redouble (3 or less).
    edge = {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 7: 1, **theirs({6: 5, 5: 4, 4: 3, 3: 2, 7: 1})}
    assert hard_says(deciding(edge), 0) == DOUBLE
    owned = deciding(edge)
    owned.state = owned.state._replace(cube=2, owner=0)
    assert hard_says(owned, 0) == ROLL_ACTION


def test_hard_beavers_only_as_the_favourite() -> None:
    far_behind = offered(deciding(RACE_BEHIND, beavers=True))  # the doubler is the underdog
    assert hard_says(far_behind, 1) == BEAVER
    close = offered(deciding(RACE_DOUBLE_TAKE, beavers=True))
    assert hard_says(close, 1) == TAKE


def test_hard_takes_when_a_pass_would_lose_the_match() -> None:
    m = deciding(CLOSED_OUT, bar=(0, 2), mode="match", length=5)
    m.state = m.state._replace(scores=(4, 0), crawford_done=True)
    offered(m)
    assert hard_says(m, 1) == TAKE  # hopeless, but passing loses the match at once
    money = offered(deciding(CLOSED_OUT, bar=(0, 2)))
    assert hard_says(money, 1) == PASS


def test_hard_does_not_double_when_the_cube_already_wins_the_match() -> None:
    m = deciding(CLOSED_OUT, bar=(0, 2), mode="match", length=5)
    m.state = m.state._replace(scores=(4, 2), crawford_done=True)
    assert hard_says(m, 0) == ROLL_ACTION


def test_hard_doubles_at_once_as_the_trailer_after_the_crawford_game() -> None:
    m = deciding(RACE_BEHIND, mode="match", length=5)
    m.state = m.state._replace(scores=(1, 4), crawford_done=True)
    assert hard_says(m, 0) == DOUBLE
    m = deciding(RACE_BEHIND, mode="match", length=5)
    m.state = m.state._replace(scores=(1, 3))
    assert hard_says(m, 0) == ROLL_ACTION
