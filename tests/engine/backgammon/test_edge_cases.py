"""Backgammon's edge cases from the games-rules reference, played through the rules interface:
the ones other engines got wrong (both dice if possible, the larger die, a forced order,
bearing off after a hit, backgammon by the bar), the cube only before rolling and only by
its owner, the Crawford game without a cube (once only), dancing on the bar, and bad
options refused with the engine's stable error."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.backgammon import GAME
from engine.backgammon.rules import may_double
from engine.backgammon.state import (
    BEAVER,
    CONFIRM,
    DOUBLE,
    ROLL_ACTION,
    TAKE,
    Dice,
    Move,
)
from engine.errors import OptionError
from engine.match import Match
from tests.engine.backgammon.scenario import place, play, roll, start, steps
from tests.engine.refusals import refusal as refused


def finish_turn(m: Match, rng: random.Random) -> None:
    """Play any legal checkers for the seat to move, then confirm."""
    seat = m.state.turn
    while CONFIRM not in m.legal(seat):
        moves = [a for a in m.legal(seat) if isinstance(a, Move)]
        m.act(seat, rng.choice(moves))
    m.act(seat, CONFIRM)


# -- movement --------------------------------------------------------------------------------
def test_a_die_that_would_waste_the_other_is_not_offered() -> None:
    m = start()
    # Seat 0 on 13 and 7, 12 closed, rolls 6-1. 7/1 with the 6 is a move on its own, but
    # then the 1 cannot be played (13/12 closed, no bearing off with 13 out): both dice can
    # be played (13/7 7/6, or 7/6 13/7), so 7/1 is not legal.
    place(m, {13: 1, 7: 1, 12: -2, 20: -13})
    roll(m, 6, 1)
    assert m.state.need == 2
    assert steps(m) == {(13, 7, 6), (7, 6, 1)}
    assert refused(m, 0, Move(7, 1, 6)) == "bad_move"
    play(m, (13, 7, 6))
    assert CONFIRM not in m.legal(0) and steps(m) == {(7, 6, 1)}
    assert refused(m, 0, CONFIRM) == "dice_left"
    play(m, (7, 6, 1))
    assert CONFIRM in m.legal(0)


def test_both_dice_in_the_only_order_that_plays_both_even_when_bearing_off() -> None:
    m = start()
    # One checker left on 2, roll 6-1: 2/off with the 6 alone would end the game with the 1
    # unplayed; 2/1 then 1/off plays both, so it is the only legal play.
    place(m, {2: 1, 24: -15})
    roll(m, 6, 1)
    assert steps(m) == {(2, 1, 1)}
    play(m, (2, 1, 1))
    assert steps(m) == {(1, 0, 6)}
    play(m, (1, 0, 6))
    m.act(0, CONFIRM)
    assert m.state.results[-1].kind == "gammon"


def test_only_one_die_playable_and_it_is_the_smaller() -> None:
    m = start()
    # The 6 cannot be played at all (24/18 closed), the 5 can: the "larger die" rule does
    # not force an unplayable die; the 5 alone is the play.
    place(m, {24: 1, 18: -2, 13: -2, 12: -11})
    roll(m, 6, 5)
    # 24/19 then 19/13 is closed: one die only, and only the 5 moves.
    assert m.state.need == 1 and steps(m) == {(24, 19, 5)}


def test_a_hit_checker_must_come_home_before_bearing_off_resumes() -> None:
    m = start()
    place(m, {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 4, 24: -13, 20: -2}, bar=(1, 0))
    roll(m, 6, 1)
    # Enter with the 6 (the 1 would enter on 24, closed); then the 1 may not bear off from
    # the 1-point, as a checker stands on 19, outside the home board.
    assert steps(m) == {(25, 19, 6)}
    play(m, (25, 19, 6))
    after = steps(m)
    assert (1, 0, 1) not in after and {(19, 18, 1), (6, 5, 1)} <= after


def test_a_seat_that_cannot_enter_dances_and_only_confirms() -> None:
    m = start()
    closed = {p: -2 for p in range(19, 25)}
    place(m, {**closed, 1: -3, 6: 5, 8: 3, 13: 6}, bar=(1, 0))
    roll(m, 6, 6)
    assert m.state.need == 0 and m.legal(0) == (CONFIRM,)
    m.act(0, CONFIRM)
    assert m.state.turn == 1


def test_backgammon_by_the_bar_and_no_gammon_once_one_checker_is_off() -> None:
    bar = start()
    place(bar, {1: 1, 13: -14}, bar=(0, 1))
    roll(bar, 2, 1)
    play(bar, (1, 0, 2))
    bar.act(0, CONFIRM)
    assert bar.state.results[-1].kind == "backgammon" and bar.state.scores == (3, 0)
    single = start()
    # One of seat 1's checkers is off: a single game, though another is in seat 0's home.
    place(single, {1: 1, 3: -1, 13: -13})
    assert single.state.off == (14, 1)
    roll(single, 2, 1)
    play(single, (1, 0, 2))
    single.act(0, CONFIRM)
    assert single.state.results[-1].kind == "single" and single.state.scores == (1, 0)


# -- the cube --------------------------------------------------------------------------------
def test_the_cube_is_offered_only_before_rolling_and_only_by_its_owner() -> None:
    rng = random.Random(4)
    m = start()
    m.apply_chance(Dice(3, 1))
    # The opening roll is played at once: no cube decision for the opener.
    assert m.state.phase == "move" and DOUBLE not in m.legal(0)
    assert refused(m, 0, DOUBLE) == "illegal_action"
    finish_turn(m, rng)
    assert m.state.phase == "decide" and set(m.legal(1)) == {ROLL_ACTION, DOUBLE}
    assert m.legal(0) == ()
    m.act(1, ROLL_ACTION)
    # Rolling closes the window: no double while the dice are rolled or being played.
    assert refused(m, 1, DOUBLE) == "chance_pending"
    m.resolve_chance()
    assert DOUBLE not in m.legal(1) and refused(m, 1, DOUBLE) == "illegal_action"
    finish_turn(m, rng)
    m.act(0, DOUBLE)
    m.act(1, TAKE)
    assert (m.state.cube, m.state.owner, m.state.phase) == (2, 1, "roll")
    m.resolve_chance()
    finish_turn(m, rng)
    # Seat 1 owns the cube: its turn opens with the choice; seat 0's turns go straight to
    # the dice.
    assert m.state.phase == "decide" and m.to_act() == (1,)
    m.act(1, ROLL_ACTION)
    m.resolve_chance()
    finish_turn(m, rng)
    assert m.state.turn == 0 and m.state.phase == "roll" and m.to_act() == ()
    m.resolve_chance()
    assert DOUBLE not in m.legal(0)


def test_beaver_only_when_the_toggle_is_on() -> None:
    m = start()
    m.state = m.state._replace(phase="decide")
    m.act(0, DOUBLE)
    assert BEAVER not in m.legal(1)
    assert refused(m, 1, BEAVER) == "wrong_phase"


def test_automatic_doubles_need_the_cube() -> None:
    m = start(auto_doubles=True, cube=False)
    m.apply_chance(Dice(5, 5))
    assert m.state.cube == 1


def _win_single(m: Match, seat: int) -> None:
    """``seat`` bears off its last checker for a single game."""
    if seat == 0:
        place(m, {1: 1, 13: -14}, off=(14, 1))
    else:
        place(m, {24: -1, 12: 14}, off=(1, 14), turn=1)
    roll(m, 2, 1)
    m.act(seat, Move(1, 0, 2))
    m.act(seat, CONFIRM)


CRAWFORD_SEED = 0


def test_crawford_game_has_no_cube_at_all_and_comes_once_only() -> None:
    m = start(mode="match", length=3)
    place(m, {1: 1, 13: -15})
    roll(m, 2, 1)
    play(m, (1, 0, 2))
    m.act(0, CONFIRM)
    assert m.state.scores == (2, 0) and m.state.crawford
    # Play the whole Crawford game at random: nobody may double at any step, every turn goes
    # straight to the dice, and the view says the cube is out of play.
    rng = random.Random(CRAWFORD_SEED)
    game = m.state.game
    while m.outcome() is None and m.state.game == game:
        if m.chance_pending():
            assert m.state.phase in ("opening", "roll")
            m.resolve_chance()
            continue
        assert m.state.phase == "move"
        for seat in (0, 1):
            assert DOUBLE not in m.legal(seat)
            assert not m.view(seat).cube_in_play
        finish_turn(m, rng)
    # (With this seed seat 1 wins the Crawford game by a single game: the match goes on.)
    assert m.outcome() is None and m.state.scores == (2, 1)
    # Seat 1 won it: post-Crawford games have the cube back.
    assert not m.state.crawford and m.state.crawford_done
    assert m.view(None).cube_in_play and may_double(m.state, 0) and may_double(m.state, 1)


def test_post_crawford_the_trailer_reaching_match_point_brings_no_second_crawford() -> None:
    m = start(mode="match", length=3)
    _win_single(m, 0)
    _win_single(m, 0)
    assert m.state.scores == (2, 0) and m.state.crawford
    _win_single(m, 1)
    assert m.state.scores == (2, 1) and not m.state.crawford
    _win_single(m, 1)
    # 2-2: both at match point, the Crawford game was played already: the cube is live.
    assert m.state.scores == (2, 2) and not m.state.crawford
    assert may_double(m.state, 0) and may_double(m.state, 1)


def test_crawford_comes_for_whoever_reaches_match_point_first() -> None:
    m = start(mode="match", length=2)
    _win_single(m, 1)
    assert m.state.scores == (0, 1) and m.state.crawford


# -- options ---------------------------------------------------------------------------------
@pytest.mark.parametrize("options", [
    {"mode": "tournament"}, {"mode": "match", "length": 0}, {"mode": "match", "length": 26},
    {"games": 0}, {"cube": "maybe"}, {"mode": "match", "beavers": True},
    {"mode": "match", "auto_doubles": True}, {"doubling": True},
])
def test_bad_options_are_refused_with_the_option_error(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as e:
        GAME.validate(2, options)
    assert e.value.option in {*options, "doubling"}


def test_good_options_pass_with_their_defaults() -> None:
    full = GAME.validate(2, {"mode": "match", "length": 7})
    assert (full["mode"], full["length"], full["cube"], full["gammons"]) == ("match", 7, True,
                                                                           True)
    assert not (full["jacoby"] or full["beavers"] or full["auto_doubles"])
