"""Backgammon's rules, one scenario per rule: the opening roll, both dice or the larger,
doubles, the bar, bearing off with higher dice, undo and confirm, the cube (offer, take, pass,
ownership, beaver, Crawford, Jacoby, automatic doubles), gammon and backgammon, match play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.backgammon import GAME
from engine.backgammon.state import (
    BEAVER,
    CONFIRM,
    DOUBLE,
    PASS,
    ROLL_ACTION,
    TAKE,
    UNDO,
    Dice,
    Move,
)
from engine.codec import to_data
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from engine.records import replay, to_record
from tests.engine.backgammon.scenario import place, play, roll, start, steps


def test_opening_roll_higher_die_plays_both_numbers_and_ties_roll_again() -> None:
    m = start()
    m.apply_chance(Dice(4, 4))
    assert m.state.phase == "opening" and m.state.cube == 1
    m.apply_chance(Dice(3, 5))
    assert m.to_act() == (1,) and m.state.dice == (3, 5) and m.state.left == (5, 3)


def test_automatic_doubles_double_the_cube_on_an_opening_tie() -> None:
    m = start(auto_doubles=True)
    m.apply_chance(Dice(2, 2))
    assert m.state.cube == 2 and m.state.owner is None


def test_a_die_that_cannot_move_at_all_leaves_the_other() -> None:
    m = start()
    place(m, {13: 1, 10: 1, 7: -2, 4: -2, 24: -11})
    roll(m, 6, 3)
    # The 6 cannot move (13/7 and 10/4 are closed), before or after the 3 (13/10 then 10/4
    # is closed; 10/7 is closed): one die only, the 3, and 13/10 is its only move.
    assert m.state.need == 1 and steps(m) == {(13, 10, 3)}


def test_larger_die_forced_for_a_lone_checker() -> None:
    m = start()
    place(m, {8: 1, 24: -2, 2: -2, 1: -11})
    roll(m, 5, 1)
    # 8/3 then 3/2 is closed; 8/7 then 7/2 is closed: either die alone but not both, so the
    # larger (5) is forced and 8/7 is not offered.
    assert m.state.need == 1 and steps(m) == {(8, 3, 5)}


def test_larger_die_when_either_but_not_both() -> None:
    m = start()
    place(m, {24: 1, 18: -2, 17: -2, 14: -2, 13: -9, 20: -0})
    roll(m, 6, 4)
    # 24-6=18 blocked, 24-4=20 open then 20-6=14 blocked; 24-6 blocked: only the 4 is playable.
    assert steps(m) == {(24, 20, 4)}
    m2 = start()
    place(m2, {24: 1, 14: -2, 12: -2, 8: -2, 1: -9})
    roll(m2, 6, 4)
    # 24/18 then 18-4=14 blocked; 24/20 then 20-6=14 blocked: either alone, so the 6.
    assert steps(m2) == {(24, 18, 6)}


def test_doubles_play_four_times_or_as_many_as_possible() -> None:
    m = start()
    place(m, {13: 2, 1: -13, 5: -2})
    roll(m, 4, 4)
    assert m.state.need == 2  # 13/9/5 is blocked at 5: each checker moves once
    m2 = start()
    place(m2, {24: 2, 1: -15})
    roll(m2, 2, 2)
    assert m2.state.need == 4
    play(m2, (24, 22, 2), (22, 20, 2), (20, 18, 2))
    assert CONFIRM not in m2.legal(0)
    play(m2, (24, 22, 2))
    assert CONFIRM in m2.legal(0) and not steps(m2)


def test_bar_first_and_two_on_the_bar_with_one_die_usable() -> None:
    m = start()
    place(m, {6: 2, 20: -2, 1: -13}, bar=(2, 0))
    roll(m, 5, 3)
    # Enter on 20 (5) is blocked, on 22 (3) open: one checker enters, the other stays; the 6
    # may not move while a checker is on the bar.
    assert steps(m) == {(25, 22, 3)}
    play(m, (25, 22, 3))
    assert steps(m) == set() and CONFIRM in m.legal(0)


def test_bearing_off_exact_and_higher_die_only_from_the_highest_point() -> None:
    m = start()
    place(m, {5: 1, 3: 1, 24: -15})
    roll(m, 6, 4)
    # 6 from the highest (5) bears off; 4 moves 5/1 or bears off nothing from 3 (not highest).
    assert (5, 0, 6) in steps(m) and (3, 0, 4) not in steps(m)
    play(m, (5, 0, 6))
    assert steps(m) == {(3, 0, 4)}  # now 3 is the highest point


def test_hit_during_bear_off_sends_the_blot_to_the_bar() -> None:
    m = start()
    place(m, {6: 2, 4: -1, 24: -14})
    roll(m, 2, 1)
    play(m, (6, 4, 2))
    assert m.state.bar == (0, 1)


def test_undo_and_illegal_moves_change_nothing() -> None:
    m = start()
    place(m, {13: 5, 8: 3, 6: 5, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5})
    roll(m, 3, 1)
    before = m.state
    with pytest.raises(IllegalAction) as e:
        m.act(0, Move(13, 7, 6))
    assert e.value.code == "bad_move" and m.state is before
    play(m, (8, 5, 3))
    m.act(0, UNDO)
    assert m.state.board == before.board and m.state.left == before.left
    with pytest.raises(IllegalAction):
        m.act(0, CONFIRM)
    play(m, (8, 5, 3), (6, 5, 1))
    m.act(0, CONFIRM)
    assert m.to_act() == (1,) and m.state.phase == "decide"


def test_cube_take_gives_ownership_and_only_the_owner_may_redouble() -> None:
    m = start()
    place(m, {13: 5, 8: 3, 6: 5, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5})
    m.state = m.state._replace(phase="decide")
    m.act(0, DOUBLE)
    assert m.to_act() == (1,) and set(m.legal(1)) == {TAKE, PASS}
    m.act(1, TAKE)
    assert m.state.cube == 2 and m.state.owner == 1 and m.state.phase == "roll"
    from engine.backgammon.rules import may_double

    assert may_double(m.state, 1) and not may_double(m.state, 0)


def test_pass_loses_the_cube_value_before_the_double() -> None:
    m = start(games=2)
    m.state = m.state._replace(phase="decide", cube=2, owner=0, turn=0)
    m.act(0, DOUBLE)
    m.act(1, PASS)
    assert m.state.scores == (2, 0) and m.state.game == 2


def test_beaver_redoubles_and_keeps_the_cube() -> None:
    m = start(beavers=True)
    m.state = m.state._replace(phase="decide")
    m.act(0, DOUBLE)
    assert BEAVER in m.legal(1)
    m.act(1, BEAVER)
    assert m.state.cube == 4 and m.state.owner == 1


def test_money_only_toggles_are_refused_in_a_match() -> None:
    with pytest.raises(OptionError):
        Match.start(GAME, 2, {"mode": "match", "jacoby": True}, 0)


def _bear_last(m: Match, **fields: Any) -> None:
    place(m, {1: 1}, **fields)
    roll(m, 2, 1)
    m.act(0, Move(1, 0, 2))
    m.act(0, CONFIRM)


def test_single_gammon_backgammon() -> None:
    m = start()
    place(m, {1: 1, 24: -1}, off=(14, 14))
    roll(m, 2, 1)
    play(m, (1, 0, 2))
    m.act(0, CONFIRM)
    assert m.state.results[-1].kind == "single" and m.state.scores == (1, 0)
    g = start()
    _bear_last_at(g, {1: 1, 13: -15})
    assert g.state.results[-1].kind == "gammon" and g.state.scores == (2, 0)
    b = start()
    _bear_last_at(b, {1: 1, 13: -14, 3: -1}, cube=2)
    assert b.state.results[-1].kind == "backgammon" and b.state.scores == (6, 0)
    nb = start(gammons=False)
    _bear_last_at(nb, {1: 1, 13: -15})
    assert nb.state.scores == (1, 0)


def _bear_last_at(m: Match, points: dict[int, int], **fields: Any) -> None:
    place(m, points, **fields)
    roll(m, 2, 1)
    play(m, (1, 0, 2))
    m.act(0, CONFIRM)


def test_jacoby_gammon_counts_only_after_the_cube_was_turned() -> None:
    j = start(jacoby=True)
    _bear_last_at(j, {1: 1, 13: -15})
    assert j.state.scores == (1, 0)
    t = start(jacoby=True)
    _bear_last_at(t, {1: 1, 13: -15}, cube=2, owner=1, turned=True)
    assert t.state.scores == (4, 0)


def test_crawford_game_once_then_the_cube_returns() -> None:
    m = start(mode="match", length=3)
    _bear_last_at(m, {1: 1, 13: -15})  # gammon: 2 points, one away from 3
    assert m.state.scores == (2, 0) and m.state.crawford
    m.apply_chance(Dice(1, 2))  # seat 1 opens
    from engine.backgammon.rules import may_double

    assert not may_double(m.state, 0) and not may_double(m.state, 1)
    # Seat 1 wins the Crawford game; the next game has the cube again.
    m.state = m.state._replace(turn=1)
    _bear_last_at_seat1(m)
    assert m.state.scores == (2, 1) and not m.state.crawford and m.state.crawford_done
    assert may_double(m.state, 0)


def _bear_last_at_seat1(m: Match) -> None:
    place(m, {24: -1, 5: 14}, turn=1, off=(1, 14))
    roll(m, 2, 1)
    m.act(1, Move(1, 0, 2))
    m.act(1, CONFIRM)


def test_match_ends_at_the_length() -> None:
    m = start(mode="match", length=1)
    _bear_last_at(m, {1: 1, 13: -1}, off=(14, 14))
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.reason == "backgammon.won_match"


def test_no_roll_before_its_turn_starts_and_views_hide_the_seed() -> None:
    """Two matches that differ only in their seed send the same bytes to every seat until the
    dice are rolled, and then roll differently: nothing sent predicts a roll."""
    a = Match.start(GAME, 2, {}, seed=1, resolve=False)
    b = Match.start(GAME, 2, {}, seed=2, resolve=False)
    for seat in (None, 0, 1):
        assert json.dumps(to_data(a.view(seat))) == json.dumps(to_data(b.view(seat)))
    rolls = {GAME.chance_outcome(Match.start(GAME, 2, {}, seed=s, resolve=False).state)
             for s in range(40)}
    assert len(rolls) > 10
    rec = to_record(a, include_seed=False)
    assert "seed" not in json.dumps(rec)


def test_record_replays_a_played_game() -> None:
    from engine.backgammon import PLAYERS

    m = Match.start(GAME, 2, {"mode": "match", "length": 3}, seed=5)
    rng = random.Random(5)
    while m.outcome() is None:
        seat = m.to_act()[0]
        m.act(seat, PLAYERS["normal"].choose(m.view(seat), m.legal(seat), rng))
        m.resolve_chance()
    result = replay(json.loads(json.dumps(to_record(m, include_seed=False))))
    assert result.valid and result.match.outcome() == m.outcome()
    assert ROLL_ACTION  # the roll action exists for a seat that may double
