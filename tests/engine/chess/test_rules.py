"""Chess rules through the interface, case by case: the FIDE articles and the edge cases of
the games-rules reference (castling through and out of check, the b1 square, en passant only
at once and never exposing the king along the rank, promotion as its own step, every draw
rule as a claim or automatic, offers, resignation, clocks and flag fall, Chess960, options).
"""

from __future__ import annotations

import chess
import pytest

from engine import errors
from engine.chess import GAME
from engine.chess import rules as r
from engine.chess.state import (
    HOST,
    AcceptDraw,
    ClaimDraw,
    Clock,
    DeclineDraw,
    Flag,
    MoveTo,
    OfferDraw,
    Pick,
    Promote,
    Resign,
    Setup,
)
from engine.errors import IllegalAction, OptionError
from engine.match import Match
from tests.engine.chess.scenario import enter, from_fen, legal_of, targets
from tests.engine.refusals import refusal as refused

KNIGHT_DANCE = ("g1f3", "g8f6", "f3g1", "f6g8")



# -- castling (3.8.2) -------------------------------------------------------------------------
def test_castling_through_an_attacked_square_is_refused_but_b1_may_be_attacked() -> None:
    m = from_fen("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1")  # the f8 rook sweeps f1
    assert "g1" not in targets(m, "e1") and "c1" in targets(m, "e1")
    m = from_fen("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")  # b1 attacked: O-O-O is still legal
    assert {"c1", "g1"} <= set(targets(m, "e1"))
    enter(m, "e1c1")
    assert m.state.sans[-1] == "O-O-O"
    assert m.view(None).board[7] == "..KR...R"


def test_no_castling_out_of_or_into_check() -> None:
    m = from_fen("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1")  # in check from e8
    assert not {"c1", "g1"} & set(targets(m, "e1"))
    m = from_fen("1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 1")  # g1 attacked
    assert "g1" not in targets(m, "e1") and "c1" in targets(m, "e1")


def test_castling_rights_go_for_good_when_the_king_moves_and_comes_back() -> None:
    m = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    enter(m, "e1f1", "a8b8", "f1e1", "b8a8")
    assert not {"c1", "g1"} & set(targets(m, "e1"))
    enter(m, "a1b1")
    assert "c8" not in targets(m, "e8") and "g8" in targets(m, "e8")  # a8 rook moved


def test_a_rook_captured_on_its_square_takes_that_right_with_it() -> None:
    m = from_fen("r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1")
    enter(m, "g2h1")  # the bishop takes the h1 rook
    assert m.view(None).fen.split()[2] == "Qkq"


def test_chess960_castling_is_the_king_onto_its_rook() -> None:
    m = Match.start(GAME, 2, {"chess960": True, "chess960_position": 0}, 0, resolve=False)
    assert GAME.chance_outcome(m.state) == Setup(
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1")
    # King b1 between its rooks: b1-c1 is a king's step, O-O-O is b1 onto a1 (the rook),
    # O-O is b1 onto h1. Tapping the rook is what tells them apart.
    m = from_fen("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", {"chess960": True})
    assert {"a1", "c1", "h1"} <= set(targets(m, "b1"))
    enter(m, "b1a1")
    assert m.state.sans[-1] == "O-O-O" and m.view(None).board[7] == "..KR...R"
    assert "h8" not in targets(m, "b8")  # O-O would pass d8, which the d1 rook attacks
    enter(m, "b8a8")
    assert m.state.sans[-1] == "O-O-O" and m.view(None).board[0] == "..kr...r"
    assert m.view(0).variant == "chess960" and m.view(0).moves == ("b1a1", "b8a8")


# -- en passant (3.7.3) -----------------------------------------------------------------------
def test_en_passant_only_on_the_very_next_move() -> None:
    m = from_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    enter(m, "d7d5")
    assert "d6" in targets(m, "e5")
    m2 = from_fen(m.view(None).fen)
    enter(m, "e5d6")
    assert m.view(None).board[3] == "........" and m.state.sans[-1] == "exd6"
    enter(m2, "e1e2", "e8e7")
    assert "d6" not in targets(m2, "e5")


def test_en_passant_that_exposes_the_king_along_the_rank_is_refused() -> None:
    m = from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 1")
    assert targets(m, "b5") == ["b6"]
    m = from_fen("8/8/8/KPp5/8/8/8/7k w - c6 0 1")  # without the rook it is legal
    assert targets(m, "b5") == ["b6", "c6"]


def test_a_fen_en_passant_square_with_no_capture_does_not_split_repetitions() -> None:
    """After 1.e4 the FEN names e3, but nobody can take there: the position after the
    knights go out and back is the same one (FIDE 9.2.2), so it stands the third time."""
    m = from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    enter(m, "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8")
    assert m.view(None).repetitions == 2  # the start counted once with "e3", then twice
    enter(m, "f3g1")
    assert m.view(None).repetitions == 3 and ClaimDraw("threefold") in legal_of(m)


# -- promotion ----------------------------------------------------------------------------------
def test_promotion_is_entered_as_its_own_step_and_may_underpromote() -> None:
    m = from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert targets(m, "a7") == ["a8", "b8"]  # straight on, or taking the knight
    m.act(0, Pick("a7"))
    m.act(0, MoveTo("b8"))
    assert legal_of(m) == [Promote("q"), Promote("r"), Promote("b"), Promote("n")]
    assert m.view(1).promoting == "b8" and m.legal(1) == ()
    assert refused(m, 0, Resign()) == r.PROMOTE_FIRST
    assert refused(m, 0, Promote("k")) == r.BAD_PIECE
    assert refused(m, 0, Promote("p")) == r.BAD_PIECE
    m.act(0, Promote("n"))
    assert m.state.sans[-1] == "axb8=N" and m.view(None).board[0][1] == "N"


def test_promotion_that_mates_ends_the_game() -> None:
    m = from_fen("k7/7P/1K6/8/8/8/8/8 w - - 0 1")
    enter(m, "h7h8q")
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.reason == r.CHECKMATE
    assert m.state.sans[-1] == "h8=Q#" and m.view(None).termination == "normal"


def test_promote_without_a_pawn_arriving_is_refused() -> None:
    m = from_fen(chess.STARTING_FEN)
    assert refused(m, 0, Promote("q")) == r.BAD_PIECE
    assert refused(m, 0, MoveTo("e4")) == r.PICK_FIRST
    assert refused(m, 0, Pick("e7")) == r.NOT_YOURS
    assert refused(m, 0, Pick("a1")) == r.NOT_MOVABLE
    assert refused(m, 0, Pick("z9")) == r.BAD_SQUARE
    assert refused(m, 1, Pick("e7")) == errors.NOT_YOUR_TURN
    m.act(0, Pick("e2"))
    assert refused(m, 0, Pick("e2")) == r.ALREADY_PICKED
    assert refused(m, 0, MoveTo("e5")) == r.BAD_TARGET
    m.act(0, Pick("g1"))  # changing one's mind before the target is tapped
    m.act(0, MoveTo("f3"))
    assert m.state.sans == ("Nf3",)


# -- mate, stalemate, dead positions (5.2) --------------------------------------------------
def test_stalemate_is_a_draw() -> None:
    m = from_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1")
    enter(m, "f1f7")
    o = m.outcome()
    assert o is not None and o.draw and o.reason == r.STALEMATE


def test_fools_mate() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "f2f3", "e7e5", "g2g4", "d8h4")
    o = m.outcome()
    assert o is not None and o.winners == (1,) and o.scores == (0, 1)
    assert m.legal(0) == m.legal(1) == ()


@pytest.mark.parametrize(("fen", "move", "dead"), [
    ("4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1", "e1d2", True),  # K+B v K
    ("4k3/8/8/8/8/8/3r4/3NK3 w - - 0 1", "e1d2", True),  # K+N v K
    ("2b1k3/8/8/8/8/8/5r2/4KB2 w - - 0 1", "e1f2", True),  # bishops on one colour
    ("3bk3/8/8/8/8/8/5r2/4KB2 w - - 0 1", "e1f2", False),  # opposite colours: mate exists
    ("4k3/8/8/8/8/8/3r4/2NNK3 w - - 0 1", "e1d2", False),  # K+N+N v K is not dead
    ("4k1n1/8/8/8/8/8/3r4/3NK3 w - - 0 1", "e1d2", False),  # K+N v K+N is not dead
])
def test_dead_positions_draw_at_once(fen: str, move: str, dead: bool) -> None:
    m = from_fen(fen)
    enter(m, move)
    o = m.outcome()
    assert (o is not None and o.reason == r.INSUFFICIENT) == dead
    if not dead:
        assert o is None


# -- repetition and the move counters (9.2, 9.3, 9.6) ---------------------------------------
def test_threefold_is_a_claim_before_and_on_the_third_occurrence() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, *KNIGHT_DANCE, "g1f3", "g8f6", "f3g1")
    # Black's f6g8 would make the start stand a third time: black may claim now (9.2.1.1).
    assert ClaimDraw("threefold") in legal_of(m) and m.outcome() is None
    enter(m, "f6g8")
    assert m.outcome() is None and m.view(0).repetitions == 3
    assert ClaimDraw("threefold") in legal_of(m)
    m.act(0, ClaimDraw("threefold"))
    o = m.outcome()
    assert o is not None and o.draw and o.reason == "chess.claimed_threefold"


def test_a_claim_not_open_is_refused() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, *KNIGHT_DANCE)
    assert ClaimDraw("threefold") not in legal_of(m)
    assert refused(m, 0, ClaimDraw("threefold")) == r.NO_CLAIM
    assert refused(m, 0, ClaimDraw("fifty_moves")) == r.NO_CLAIM


def test_threefold_ends_the_game_at_once_with_auto_claim() -> None:
    m = from_fen(chess.STARTING_FEN, {"draw_rules": "auto_claim"})
    enter(m, *KNIGHT_DANCE, *KNIGHT_DANCE[:3])
    assert m.outcome() is None and not any(isinstance(a, ClaimDraw) for a in legal_of(m))
    enter(m, KNIGHT_DANCE[3])
    o = m.outcome()
    assert o is not None and o.reason == r.THREEFOLD_AUTO


def test_fivefold_ends_the_game_even_unclaimed() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, *KNIGHT_DANCE * 3, *KNIGHT_DANCE[:3])
    assert m.outcome() is None
    enter(m, KNIGHT_DANCE[3])
    o = m.outcome()
    assert o is not None and o.reason == r.FIVEFOLD


def test_fifty_moves_is_a_claim_also_with_the_move_that_completes_it() -> None:
    m = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert ClaimDraw("fifty_moves") in legal_of(m)  # a quiet move would make 100
    enter(m, "a1a2")
    assert m.outcome() is None and ClaimDraw("fifty_moves") in legal_of(m)
    m.act(1, ClaimDraw("fifty_moves"))
    o = m.outcome()
    assert o is not None and o.reason == "chess.claimed_fifty_moves"


def test_fifty_moves_draws_at_once_with_auto_claim_and_a_pawn_move_resets() -> None:
    m = from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80", {"draw_rules": "auto_claim"})
    enter(m, "a2a3")
    assert m.outcome() is None and m.view(0).halfmoves == 0
    m = from_fen("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80", {"draw_rules": "auto_claim"})
    enter(m, "a1b1")
    o = m.outcome()
    assert o is not None and o.reason == r.FIFTY_AUTO


def test_seventy_five_moves_end_the_game_unless_the_last_move_mates() -> None:
    m = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 100")
    enter(m, "a1a2")
    o = m.outcome()
    assert o is not None and o.reason == r.SEVENTYFIVE
    m = from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100")
    enter(m, "a1a8")
    o = m.outcome()
    assert o is not None and o.reason == r.CHECKMATE and o.winners == (0,)


# -- offers and resignation ------------------------------------------------------------------
def test_a_draw_offer_is_made_then_a_move_and_answered_by_the_opponent() -> None:
    m = from_fen(chess.STARTING_FEN)
    m.act(0, OfferDraw())
    assert OfferDraw() not in legal_of(m)
    assert refused(m, 0, OfferDraw()) == r.ALREADY_OFFERED
    assert refused(m, 0, AcceptDraw()) == r.NO_OFFER  # one's own offer
    enter(m, "e2e4")
    assert m.view(None).offer == 0
    assert AcceptDraw() in legal_of(m) and DeclineDraw() in legal_of(m)
    m.act(1, AcceptDraw())
    o = m.outcome()
    assert o is not None and o.draw and o.reason == r.AGREED


def test_a_draw_offer_is_declined_by_a_word_or_by_moving() -> None:
    m = from_fen(chess.STARTING_FEN)
    m.act(0, OfferDraw())
    enter(m, "e2e4")
    m.act(1, DeclineDraw())
    assert m.view(None).offer is None and AcceptDraw() not in legal_of(m)
    enter(m, "e7e5")
    m.act(0, OfferDraw())
    enter(m, "g1f3")
    enter(m, "b8c6")  # moving declines
    assert m.view(None).offer is None
    assert refused(m, 0, AcceptDraw()) == r.NO_OFFER


def test_resignation_loses_on_ones_turn_only() -> None:
    m = from_fen(chess.STARTING_FEN)
    assert refused(m, 1, Resign()) == errors.NOT_YOUR_TURN
    m.act(0, Resign())
    o = m.outcome()
    assert o is not None and o.winners == (1,) and o.reason == r.RESIGNED
    assert refused(m, 1, Pick("e7")) == errors.GAME_OVER


# -- clocks (6.9) ------------------------------------------------------------------------------
def test_the_host_alone_runs_the_clocks_and_the_increment_is_added() -> None:
    m = from_fen(chess.STARTING_FEN, {"clock": "3+2"})
    assert m.view(0).clocks == (180_000, 180_000) and m.view(0).increment == 2000
    enter(m, "e2e4")
    assert refused(m, 0, Clock(1000)) == errors.ILLEGAL_ACTION  # a seat cannot set time
    assert refused(m, 1, Clock(1000)) == errors.ILLEGAL_ACTION
    assert not any(isinstance(a, (Clock, Flag)) for a in legal_of(m))
    m.act(HOST, Clock(5000))
    assert m.view(None).clocks == (177_000, 180_000)
    assert refused(m, HOST, Clock(5000)) == r.NO_CLOCK_CODE  # owed once per move
    assert refused(m, HOST, Flag(10_000)) == r.TIME_LEFT


def test_time_runs_out_on_a_move_or_while_thinking() -> None:
    m = from_fen(chess.STARTING_FEN, {"clock": "1+0"})
    enter(m, "e2e4")
    m.act(HOST, Clock(60_001))
    o = m.outcome()
    assert o is not None and o.winners == (1,) and o.reason == r.TIME
    assert m.view(None).termination == "time forfeit" and m.view(None).clocks == (0, 60_000)
    m = from_fen(chess.STARTING_FEN, {"clock": "1+0"})
    m.act(HOST, Flag(60_000))
    o = m.outcome()
    assert o is not None and o.winners == (1,)


def test_flag_fall_draws_when_the_opponent_cannot_mate() -> None:
    m = from_fen("4k3/8/8/8/8/8/4P3/4K2N b - - 0 1", {"clock": "1+0"})
    m.act(HOST, Flag(60_000))  # black's time is up, white has a knight and a pawn: a loss
    o = m.outcome()
    assert o is not None and o.winners == (0,)
    m = from_fen("4k3/8/8/8/8/8/4P3/4K2N w - - 0 1", {"clock": "1+0"})
    m.act(HOST, Flag(60_000))  # white's time is up, black has a bare king: a draw
    o = m.outcome()
    assert o is not None and o.draw and o.reason == r.TIME_DRAW


def test_untimed_games_have_no_clock_steps() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "e2e4")
    assert refused(m, HOST, Clock(10)) == r.NO_CLOCK_CODE
    assert refused(m, HOST, Flag(10)) == r.NO_CLOCK_CODE
    assert m.view(None).clocks is None


# -- the set-up chance step and options -------------------------------------------------------
def test_standard_start_and_chess960_drawn_from_the_seed() -> None:
    assert GAME.chance_outcome(Match.start(GAME, 2, {}, 5, resolve=False).state) == Setup(
        chess.STARTING_FEN)
    drawn = {GAME.chance_outcome(Match.start(GAME, 2, {"chess960": True}, s,
                                             resolve=False).state) for s in range(12)}
    assert len(drawn) > 6
    m = Match.start(GAME, 2, {"chess960": True}, 3)
    assert m.view(None).start_fen == m.steps[0].outcome.fen  # type: ignore[union-attr]


def test_a_record_may_pin_any_valid_position_and_nothing_else() -> None:
    m = Match.start(GAME, 2, {}, 0, resolve=False)
    assert refused_chance(m, Setup("not a fen")) == errors.BAD_CHANCE
    assert refused_chance(m, Setup("8/8/8/8/8/8/8/8 w - - 0 1")) == errors.BAD_CHANCE  # no king
    # Castling rights with the king off e1 (standard chess):
    assert refused_chance(m, Setup("4k3/8/8/8/8/8/8/RK5R b KQ - 0 1")) == errors.BAD_CHANCE
    assert m.to_act() == () and m.legal(0) == ()
    with pytest.raises(IllegalAction) as e:
        GAME.apply(m.state, 0, Pick("e2"))
    assert e.value.code == errors.CHANCE_PENDING
    m.apply_chance(Setup("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"))  # already stalemate
    o = m.outcome()
    assert o is not None and o.reason == r.STALEMATE
    m = Match.start(GAME, 2, {"chess960": True, "chess960_position": 518}, 0, resolve=False)
    assert refused_chance(m, Setup(r.start_fen(0))) == errors.BAD_CHANCE
    m.apply_chance(Setup(chess.STARTING_FEN))
    assert m.view(None).chess960 == 518


def refused_chance(m: Match, outcome: object) -> str:
    before = m.state
    with pytest.raises(IllegalAction) as e:
        m.apply_chance(outcome)
    assert m.state is before
    return e.value.code


@pytest.mark.parametrize(("options", "name"), [
    ({"draw_rules": "never"}, "draw_rules"),
    ({"clock": "2+1"}, "clock"),
    ({"chess960": "maybe"}, "chess960"),
    ({"chess960": True, "chess960_position": 960}, "chess960_position"),
    ({"chess960_position": 5}, "chess960_position"),
    ({"colour": "white"}, "colour"),
])
def test_bad_options_are_refused_naming_the_option(options: dict[str, object],
                                                   name: str) -> None:
    with pytest.raises(OptionError) as e:
        GAME.validate(2, options)
    assert e.value.option == name
    with pytest.raises(OptionError):
        GAME.validate(3, {})


def test_the_catalogue_entry_lists_every_toggle() -> None:
    d = GAME.info.describe()
    assert [o["name"] for o in d["options"]] == ["draw_rules", "clock", "chess960",
                                                  "chess960_position"]
    assert d["players"] == [2] and d["presentation"]["zones"][0]["labels"] == "algebraic"
