"""Checkers through the rules interface: step entry, compulsory and multiple jumps, crowning,
the end of the game, the draw rules (automatic and claimed) and the three-move ballot."""

from __future__ import annotations

import json

import pytest

from engine.checkers import GAME
from engine.checkers import board as bd
from engine.checkers.ballots import BARRED, DECK, OPENINGS
from engine.checkers.rules import (
    BAD_LANDING,
    BAD_SQUARE,
    MUST_CAPTURE,
    MUST_CONTINUE,
    NO_CLAIM,
    NOT_MOVABLE,
    NOT_YOURS,
    PICK_FIRST,
)
from engine.checkers.state import Ballot, ClaimDraw, MoveTo, Pick, State
from engine.codec import to_data
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from tests.engine.checkers.scenario import enter, from_fen, legal_moves_text
from tests.engine.refusals import refusal as refused


def test_start_dark_moves_first_and_picks_only_movable_men() -> None:
    m = Match.start(GAME, 2, {}, 1)
    assert m.to_act() == (0,) and m.legal(1) == ()
    assert m.legal(0) == (Pick(9), Pick(10), Pick(11), Pick(12))
    assert refused(m, 0, Pick(1)) == NOT_MOVABLE
    assert refused(m, 0, Pick(21)) == NOT_YOURS
    assert refused(m, 0, Pick(0)) == BAD_SQUARE
    assert refused(m, 0, MoveTo(15)) == PICK_FIRST
    assert refused(m, 1, Pick(21)) == "not_your_turn"


def test_a_plain_move_in_two_steps_and_a_change_of_piece() -> None:
    m = Match.start(GAME, 2, {}, 1)
    m.act(0, Pick(9))
    assert m.legal(0) == (MoveTo(13), MoveTo(14), Pick(10), Pick(11), Pick(12))
    assert refused(m, 0, MoveTo(15)) == BAD_LANDING
    m.act(0, Pick(11))  # changed one's mind before landing
    assert m.legal(0)[:2] == (MoveTo(15), MoveTo(16))
    m.act(0, MoveTo(15))
    assert m.to_act() == (1,) and m.state.moves == 1
    assert m.view(None).last is not None and m.view(None).last.notation == "11-15"


def test_multi_jump_entered_landing_by_landing() -> None:
    # Dark 9 takes 14 and 23 (9x18x27); dark 15 could take 19 instead (15x24).
    m = from_fen("B:W14,19,23,30:B9,15")
    assert legal_moves_text(m) == ["15x24", "9x18x27"]
    assert m.legal(0) == (Pick(9), Pick(15))
    m.act(0, Pick(9))
    m.act(0, MoveTo(18))
    v = m.view(0)
    assert (v.picked, v.path, v.jumped) == (9, (18,), (14,))
    assert m.legal(0) == (MoveTo(27),)  # no other piece, no claim, in the middle of a chain
    assert refused(m, 0, Pick(15)) == MUST_CONTINUE
    assert refused(m, 0, MoveTo(22)) == BAD_LANDING
    m.act(0, MoveTo(27))
    assert m.state.light == bd.parse_fen("W:W19,30:B15,27")[1]
    assert m.state.captures == (2, 0)
    assert m.view(None).last is not None and m.view(None).last.captured == (14, 23)


def test_capture_is_compulsory_across_all_pieces() -> None:
    m = from_fen("B:W18,25:B1,14")  # 1 could move, but 14 must take 18
    assert m.legal(0) == (Pick(14),)
    assert refused(m, 0, Pick(1)) == MUST_CAPTURE
    assert m.view(0).must_capture


def test_crowning_mid_chain_ends_the_move() -> None:
    m = from_fen("B:W25,26,12:B21")
    enter(m, "21x30")
    s = m.state
    assert s.kings == 1 << 29 and s.side == 1  # crowned on 30, and it is light's turn
    assert s.light == bd.parse_fen("W:W26,12:B30")[1]


def test_no_legal_move_loses_and_no_pieces_loses() -> None:
    # Dark's one man on 4 can neither step to 8 nor jump it (11 is taken): after light's
    # 20-16 dark has a piece and no move, and loses.
    m = from_fen("W:W8,11,20:B4")
    enter(m, "20-16")
    o = m.outcome()
    assert o is not None and o.winners == (1,) and o.reason == "checkers.no_moves"
    assert m.legal(0) == () and m.to_act() == ()
    assert refused(m, 0, Pick(1)) == "game_over"
    m = from_fen("B:W18:B14")
    enter(m, "14x23")
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.reason == "checkers.no_pieces"
    assert o.scores == (1, 0)


def test_forty_move_rule_automatic_and_reset_by_a_man() -> None:
    m = from_fen("B:WK32,20:BK1", quiet=79)
    enter(m, "1-6")
    o = m.outcome()
    assert o is not None and o.draw and o.reason == "checkers.forty_moves"
    # A man's move resets the count (WCDF), as does a capture; a king's move does not.
    m = from_fen("W:WK32,20:BK1", quiet=79)
    enter(m, "20-16")
    assert m.outcome() is None and m.state.quiet == 0
    enter(m, "1-6")
    assert m.state.quiet == 1


def shuffle(m: Match, times: int) -> None:
    for _ in range(times):
        enter(m, "1-6", "32-27", "6-1", "27-32")


def test_threefold_repetition_draws_automatically() -> None:
    m = from_fen("B:WK32:BK1,K9")  # dark could win, but shuffles
    shuffle(m, 1)
    assert m.outcome() is None and m.view(0).repetitions == 2
    enter(m, "1-6", "32-27", "6-1")
    assert m.outcome() is None
    enter(m, "27-32")  # the start position with dark to move, a third time
    o = m.outcome()
    assert o is not None and o.draw and o.reason == "checkers.repetition"


def test_claims_offered_only_when_valid() -> None:
    m = from_fen("B:WK32:BK1,K9", {"draw_rules": "claim"})
    assert ClaimDraw("repetition") not in m.legal(0)
    assert refused(m, 0, ClaimDraw("repetition")) == NO_CLAIM
    shuffle(m, 1)
    enter(m, "1-6", "32-27", "6-1")
    # Light's move 27-32 would make the start stand a third time: light may claim now.
    assert m.legal(1)[-1] == ClaimDraw("repetition")
    enter(m, "27-32")
    assert m.outcome() is None  # with claims nothing ends by itself at the third time
    assert ClaimDraw("repetition") in m.legal(0)
    m.act(0, Pick(1))
    assert ClaimDraw("repetition") in m.legal(0)  # still open until the piece has landed
    m.act(0, ClaimDraw("repetition"))
    o = m.outcome()
    assert o is not None and o.draw and o.reason == "checkers.claimed_repetition"


def test_forty_move_claim_and_the_safety_limits() -> None:
    m = from_fen("B:WK32:BK1,K9", {"draw_rules": "claim"}, quiet=80)
    assert m.legal(0)[-1] == ClaimDraw("forty_moves")
    m.act(0, ClaimDraw("forty_moves"))
    o = m.outcome()
    assert o is not None and o.reason == "checkers.claimed_forty_moves"
    # Unclaimed, the fifth occurrence ends it anyway (a table never stalls).
    m = from_fen("B:WK32:BK1,K9", {"draw_rules": "claim"})
    shuffle(m, 3)
    assert m.outcome() is None
    shuffle(m, 1)
    o = m.outcome()
    assert o is not None and o.reason == "checkers.repetition"
    m = from_fen("B:WK32:BK1,K9", {"draw_rules": "claim"}, quiet=159)
    enter(m, "9-14")
    o = m.outcome()
    assert o is not None and o.reason == "checkers.forty_moves"


def test_every_ballot_in_the_deck_plays_its_three_moves() -> None:
    assert len(OPENINGS) == 174 and len(DECK) == 156 and len(BARRED) == 18
    for number in range(1, 175):
        m = Match.start(GAME, 2, {"ballot": True}, 0, resolve=False)
        if number in BARRED:
            with pytest.raises(IllegalAction) as e:
                m.apply_chance(Ballot(number))
            assert e.value.code == "bad_chance"
            continue
        m.apply_chance(Ballot(number))
        v = m.view(1)
        assert v.phase == "play" and v.turn == 1 and v.moves == 3 and v.ballot == number
        assert v.opening == OPENINGS[number - 1] and v.last is not None
        assert v.last.notation == OPENINGS[number - 1].split()[-1]


def test_ballot_drawn_from_the_seed_or_chosen() -> None:
    drawn = {Match.start(GAME, 2, {"ballot": True}, seed).state.ballot for seed in range(40)}
    assert len(drawn) > 20 and drawn <= set(DECK)
    a = Match.start(GAME, 2, {"ballot": True}, 7).state
    assert a == Match.start(GAME, 2, {"ballot": True}, 7).state
    m = Match.start(GAME, 2, {"ballot": True, "ballot_number": 120}, 3)
    assert m.state.ballot == 120 and m.view(None).opening == "11-15 22-18 15x22"
    m = Match.start(GAME, 2, {"ballot": True, "ballot_number": 120}, 3, resolve=False)
    assert m.to_act() == () and m.legal(0) == ()
    with pytest.raises(IllegalAction):
        m.apply_chance(Ballot(1))  # the table chose 120
    with pytest.raises(OptionError):
        GAME.validate(2, {"ballot_number": 5})
    with pytest.raises(OptionError):
        GAME.validate(2, {"ballot": True, "ballot_number": 3})  # barred
    with pytest.raises(OptionError):
        GAME.validate(3, {})


def count_by_steps(m: Match, depth: int) -> int:
    """Perft through the interface: complete moves, each entered step by step."""
    if depth == 0:
        return 1
    total = 0
    state = m.state
    seat = GAME.to_act(state)[0]

    def walk(st: State) -> int:
        n = 0
        for a in GAME.legal_actions(st, seat):
            if isinstance(a, Pick) and GAME.view(st, None).picked:
                continue  # a change of piece: counted from the pick itself
            nxt = GAME.apply(st, seat, a)
            if GAME.to_act(nxt) == (seat,) and nxt.result is None:
                n += walk(nxt)
            else:
                m.state = nxt
                n += count_by_steps(m, depth - 1) if nxt.result is None else int(depth == 1)
        return n
    total = walk(state)
    m.state = state
    return total


@pytest.mark.parametrize(("depth", "want"), [(1, 7), (2, 49), (3, 302), (4, 1469)])
def test_perft_through_the_step_interface(depth: int, want: int) -> None:
    assert count_by_steps(Match.start(GAME, 2, {}, 0), depth) == want


def test_view_holds_no_seed_and_is_the_same_for_everyone() -> None:
    m = Match.start(GAME, 2, {"ballot": True}, 123456789)
    enter(m, legal_moves_text(m)[0])
    views = [to_data(m.view(s)) for s in (None, 0, 1)]
    for v in views:
        assert "123456789" not in json.dumps(v)
        v.pop("seat")
    assert views[0] == views[1] == views[2]
    v = m.view(0)
    assert v.board[0] == "-d-d-d-d" and v.board[7] == "l-l-l-l-"
    assert v.fen.startswith("B:W")
