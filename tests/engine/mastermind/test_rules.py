"""Mastermind scenarios: entry peg by peg, feedback, both modes, every toggle, refusals with
their codes, and what each seat sees."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import errors
from engine.codec import to_wire
from engine.errors import IllegalAction, OptionError
from engine.mastermind import GAME
from engine.mastermind import rules as r
from engine.mastermind.state import DRAW, SUBMIT, ClearPeg, DrawCode, SecretCode, SetPeg
from engine.match import Match
from tests.engine.mastermind.scenario import enter, pin, rows, start, view
from tests.engine.refusals import refused


# -- classic -------------------------------------------------------------------------------
def test_classic_game_one_seat_1_makes_seat_0_breaks_and_feedback_is_automatic() -> None:
    m = start()
    assert m.to_act() == (1,)
    assert m.legal(0) == ()
    enter(m, 1, "1123")
    assert m.to_act() == (0,) and view(m, None).phase == "guess"
    enter(m, 0, "3111")
    enter(m, 0, "1122")
    assert rows(m, 0) == [("3111", 1, 2), ("1122", 3, 0)]
    enter(m, 0, "1123")
    # Broken in 3: the codemaker scores 3; game 2 starts with the roles swapped.
    v = view(m, None)
    assert v.scores == (0, 3) and v.game == 2 and v.makers == (0,) and m.to_act() == (0,)
    assert [(x.maker, x.breaker, x.guesses, x.broken, x.code, x.scorer, x.points)
            for x in v.results] == [(1, 0, 3, True, (1, 1, 2, 3), 1, 3)]
    assert [b.code for b in v.previous] == [(1, 1, 2, 3)]
    assert v.last is not None and (v.last.black, v.last.white) == (4, 0)


def test_an_unbroken_code_scores_the_rows_plus_one_and_the_match_ends() -> None:
    m = start(rows=6)
    enter(m, 1, "1234")
    for _ in range(6):
        enter(m, 0, "5555")
    enter(m, 0, "6543")
    enter(m, 1, "6543")
    assert view(m, None).scores == (1, 7)
    o = m.outcome()
    assert o is not None and o.winners == (1,) and o.reason == "mastermind.most_points"
    assert m.to_act() == () and m.legal(0) == m.legal(1) == ()
    refused(m, 0, SUBMIT, errors.GAME_OVER)


def test_equal_totals_are_a_draw() -> None:
    m = start()
    enter(m, 1, "1111")
    enter(m, 0, "1111")
    enter(m, 0, "2222")
    enter(m, 1, "2222")
    o = m.outcome()
    assert o is not None and o.draw and o.winners == () and o.reason == "mastermind.equal_points"


@pytest.mark.parametrize("games", [1, 3, 5])
def test_a_classic_match_is_an_even_number_of_games(games: int) -> None:
    with pytest.raises(OptionError, match="even"):
        GAME.validate(2, {"games": games})
    GAME.validate(2, {"games": games, "mode": "duel"})


def test_four_games_alternate_the_codemaker() -> None:
    m = start(games=4)
    makers = []
    for game in range(4):
        maker = m.to_act()[0]
        makers.append(maker)
        enter(m, maker, "1234")
        enter(m, 1 - maker, "1234")
        assert view(m, None).game == min(game + 2, 4)
    assert makers == [1, 0, 1, 0]
    assert m.outcome() is not None and view(m, None).scores == (2, 2)


# -- entry ---------------------------------------------------------------------------------
def test_entry_is_peg_by_peg_with_clear_as_the_undo_until_submit() -> None:
    m = start()
    m.act(1, SetPeg(2, 5))
    assert view(m, 1).entry == (None, None, 5, None)
    assert SUBMIT not in m.legal(1)
    refused(m, 1, SUBMIT, r.INCOMPLETE)
    refused(m, 1, SetPeg(2, 5), r.SAME_PEG)
    m.act(1, SetPeg(2, 6))  # overwrite
    m.act(1, ClearPeg(2))
    refused(m, 1, ClearPeg(2), r.EMPTY_HOLE)
    assert view(m, 1).entry == (None,) * 4
    enter(m, 1, "6666")
    assert view(m, 1).my_code == (6, 6, 6, 6)


@pytest.mark.parametrize(("action", "code"), [
    (SetPeg(4, 1), r.BAD_HOLE), (SetPeg(-1, 1), r.BAD_HOLE), (SetPeg(0, 7), r.BAD_COLOUR),
    (SetPeg(0, 0), r.BAD_COLOUR), (ClearPeg(9), r.BAD_HOLE), (SetPeg(True, 1), r.BAD_HOLE),
    (SetPeg(0, "1"), r.BAD_COLOUR),  # type: ignore[arg-type]  # built by hand, never decoded
    ("submit", errors.ILLEGAL_ACTION),
])
def test_malformed_pegs_are_refused_with_their_codes(action: Any, code: str) -> None:
    refused(start(), 1, action, code)


def test_out_of_turn_and_while_a_draw_is_pending() -> None:
    m = start()
    refused(m, 0, SetPeg(0, 1), errors.NOT_YOUR_TURN)
    m.act(1, DRAW)
    assert m.chance_pending() and m.to_act() == () and m.legal(1) == ()
    refused(m, 1, SetPeg(0, 1), errors.CHANCE_PENDING)
    pin(m, "4321")
    assert m.to_act() == (0,)
    refused(m, 0, DRAW, r.NO_DRAW)  # a breaker cannot ask for a draw


def test_no_duplicates_keeps_repeats_out_of_the_legal_list_and_refuses_them() -> None:
    m = start(duplicates=False)
    m.act(1, SetPeg(0, 3))
    assert SetPeg(1, 3) not in m.legal(1) and SetPeg(0, 4) in m.legal(1)
    refused(m, 1, SetPeg(1, 3), r.REPEATED_COLOUR)
    m.act(1, ClearPeg(0))
    enter(m, 1, "3456")
    m.act(0, SetPeg(0, 1))
    refused(m, 0, SetPeg(3, 1), r.REPEATED_COLOUR)
    m.act(0, SetPeg(0, 2))  # moving a colour within its own hole is fine


def test_blanks_are_a_peg_of_their_own() -> None:
    m = start(blanks=True)
    assert SetPeg(0, 0) in m.legal(1)
    enter(m, 1, "0102")
    enter(m, 0, "1020")
    assert rows(m, 0) == [("1020", 0, 4)]
    enter(m, 0, "0102")
    assert view(m, None).results[0].code == (0, 1, 0, 2)


@pytest.mark.parametrize(("holes", "colours"), [(3, 6), (5, 6), (4, 8), (5, 8), (4, 7)])
def test_holes_and_colours(holes: int, colours: int) -> None:
    m = start(holes=holes, colours=colours)
    legal = m.legal(1)
    assert {a.hole for a in legal if isinstance(a, SetPeg)} == set(range(holes))
    assert {a.colour for a in legal if isinstance(a, SetPeg)} == set(range(1, colours + 1))
    code = "".join(str(colours - i) for i in range(holes))
    enter(m, 1, code)
    enter(m, 0, "1" * holes)
    assert rows(m, 0) == [("1" * holes, 0, 0)]
    enter(m, 0, code)
    assert view(m, None).results[0].guesses == 2


def test_rows_option_bounds_the_guesses() -> None:
    m = start(rows=8)
    enter(m, 1, "1234")
    for _ in range(7):
        enter(m, 0, "1111")
    assert view(m, None).game == 1
    enter(m, 0, "1111")
    assert view(m, None).game == 2 and view(m, None).scores == (0, 9)


# -- codes the host draws ------------------------------------------------------------------
def test_a_codemaker_may_have_the_host_draw_its_code_as_a_chance_step() -> None:
    m = Match.start(GAME, 2, {}, seed=7)
    m.act(1, DrawCode())
    drawn = m.resolve_chance()
    assert len(drawn) == 1 and isinstance(drawn[0].outcome, SecretCode)
    code = drawn[0].outcome.pegs
    assert view(m, 1).my_code == code
    assert view(m, 0).my_code == () and all(b.code == () for b in view(m, 0).boards)
    # Drawn from the seed and the number of draws so far: replays draw it again.
    again = Match.start(GAME, 2, {}, seed=7)
    again.act(1, DrawCode())
    assert again.resolve_chance()[0].outcome.pegs == code


def test_computer_codemaker_draws_every_code_and_pauses_between_games() -> None:
    m = Match.start(GAME, 2, {"codemaker": "computer"}, seed=0, resolve=False)
    assert m.to_act() == () and m.chance_pending()
    assert GAME.legal_actions(m.state, 1) == ()
    pin(m, "6611")
    assert m.to_act() == (0,) and DRAW not in m.legal(0)
    enter(m, 0, "6611")
    assert view(m, None).phase == "between" and GAME.between_hands(m.state)
    assert m.to_act() == () and m.chance_pending()
    pin(m, "2345")
    assert view(m, None).phase == "guess" and m.to_act() == (1,)
    assert view(m, 0).my_code == ()  # nobody made it: nobody sees it


def test_a_pinned_code_must_be_well_formed() -> None:
    m = start(codemaker="computer", duplicates=False)
    for bad in [SecretCode((1, 1, 2, 3)), SecretCode((1, 2, 3)), SecretCode((1, 2, 3, 9)), "x"]:
        with pytest.raises(IllegalAction) as e:
            m.apply_chance(bad)
        assert e.value.code == errors.BAD_CHANCE
        assert "1" not in e.value.detail.replace("4 pegs", "")  # names no code
    pin(m, "1234")
    with pytest.raises(IllegalAction) as e:
        GAME.apply_chance(m.state, SecretCode((1, 2, 3, 4)))
    assert e.value.code == errors.NO_CHANCE_PENDING


# -- duel ----------------------------------------------------------------------------------
def test_duel_both_set_codes_at_once_then_guess_in_turns() -> None:
    m = start(mode="duel", games=1)
    assert m.to_act() == (0, 1)
    m.act(0, SetPeg(0, 1))
    assert view(m, 1).entry == (None,) * 4  # the other's entry is not seen
    enter(m, 1, "5566")
    assert m.to_act() == (0,)
    m.act(0, ClearPeg(0))
    enter(m, 0, "1234")
    assert view(m, None).phase == "guess" and m.to_act() == (0,)  # seat 0 guesses first
    enter(m, 0, "1111")
    assert m.to_act() == (1,)
    enter(m, 1, "1111")
    assert rows(m, 0) == [("1111", 0, 0)] and rows(m, 1) == [("1111", 1, 0)]


def test_duel_the_first_to_break_lets_the_other_finish_the_equal_guess() -> None:
    m = start(mode="duel", games=1)
    enter(m, 0, "1234")
    enter(m, 1, "5566")
    enter(m, 0, "5566")  # seat 0 breaks at once ...
    assert m.outcome() is None and m.to_act() == (1,)
    b = next(b for b in view(m, 1).boards if b.breaker == 0)
    assert b.broken and b.code == (5, 5, 6, 6)  # a broken code is the last row: shown
    enter(m, 1, "1111")  # ... seat 1 misses with its equal guess
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.scores == (1, 0)


def test_duel_both_breaking_with_equal_guesses_is_a_tied_round() -> None:
    m = start(mode="duel", games=2)
    enter(m, 0, "1234")
    enter(m, 1, "5566")
    enter(m, 0, "1111")
    enter(m, 1, "1111")
    enter(m, 0, "5566")
    enter(m, 1, "1234")
    v = view(m, None)
    assert v.game == 2 and v.scores == (0, 0) and [x.points for x in v.results] == [0, 0]
    # Round 2: seat 1 guesses first.
    enter(m, 0, "6666")
    enter(m, 1, "6666")
    assert m.to_act() == (1,)


def test_duel_rows_running_out_for_both_ends_the_round_without_a_point() -> None:
    m = start(mode="duel", games=1, rows=6)
    enter(m, 0, "1234")
    enter(m, 1, "5566")
    for _ in range(6):
        enter(m, 0, "1111")
        enter(m, 1, "6666")
    o = m.outcome()
    assert o is not None and o.draw and o.scores == (0, 0)


def test_duel_with_the_computer_drawing_both_codes() -> None:
    m = start(mode="duel", games=1, codemaker="computer")
    pin(m, "1234")  # seat 0's code
    assert m.chance_pending()
    pin(m, "4321")  # seat 1's code
    assert m.to_act() == (0,)
    enter(m, 0, "4321")
    enter(m, 1, "1234")
    assert m.outcome() is not None and m.outcome().draw  # type: ignore[union-attr]


# -- what each seat sees -------------------------------------------------------------------
def test_a_code_is_seen_only_by_its_maker_until_broken_or_the_game_ends() -> None:
    m = start()
    m.act(1, SetPeg(0, 4))
    for seat in (None, 0):
        assert "4" not in json.dumps(to_wire(view(m, seat).entry))
    m.act(1, ClearPeg(0))
    enter(m, 1, "4444")
    text = {s: json.dumps(to_wire(view(m, s))) for s in (None, 0, 1)}
    assert "[4, 4, 4, 4]" in text[1]
    assert "[4, 4, 4, 4]" not in text[0] and "[4, 4, 4, 4]" not in text[None]
    m.act(0, SetPeg(0, 4))
    assert view(m, None).boards[0].entry == (4, None, None, None)  # a guess is in the open
    m.act(0, ClearPeg(0))
    enter(m, 0, "1234")
    assert "[4, 4, 4, 4]" not in json.dumps(to_wire(view(m, 0)))
    enter(m, 0, "4444")
    assert view(m, None).previous[0].code == (4, 4, 4, 4)


def test_the_legal_list_stays_small_on_the_largest_table() -> None:
    m = start(holes=5, colours=8, blanks=True)
    m.act(1, SetPeg(0, 1))
    size = len(json.dumps(to_wire(m.legal(1)), separators=(",", ":")).encode())
    assert len(m.legal(1)) == 5 * 9 - 1 + 1 + 1  # pegs that change a hole, one clear, the draw
    assert size < 8 * 1024
    for colour in (2, 3, 4, 5):
        m.act(1, SetPeg(colour - 1, colour))
    size = len(json.dumps(to_wire(m.legal(1)), separators=(",", ":")).encode())
    assert size < 8 * 1024, size


def test_common_part() -> None:
    m = start()
    enter(m, 1, "1234")
    enter(m, 0, "1243")
    c = GAME.common(view(m, 0))
    assert c.teams == (0, 1) and c.hand == () and c.hand_counts == () and c.phase == "guess"
    assert c.last is not None and c.last.key == "mastermind.feedback"
    assert dict(c.last.args) == {"seat": 0, "black": 2, "white": 2}
    assert [x.key for x in c.captions] == ["mastermind.game", "mastermind.break_the_code"]
    assert dict(c.captions[1].args) == {"rows_left": 9}
    c1 = GAME.common(view(start(), 1))
    assert [x.key for x in c1.captions] == ["mastermind.game", "mastermind.set_your_code"]
