"""Sequence variants, each off by default: fill_board, doubles, captures (pinned deals)."""

from __future__ import annotations

import pytest

from engine.match import Match
from engine.sequence import GAME
from engine.sequence.data import Double, Place, Remove, Wild
from tests.engine.sequence.scenario import Move, alternate, at, play, random_until, scripted
from tests.engine.sequence.test_rules import FILLER1, ROW8, chips, refused

# -- fill_board ---------------------------------------------------------------------------------


def test_fill_board_plays_on_past_the_usual_target() -> None:
    moves = alternate(ROW8, [*FILLER1, at(3, 8)])
    m = scripted(2, moves, {"fill_board": True})
    play(m, moves)
    assert m.outcome() is None and m.view(0).score == (2, 0)
    assert m.view(0).rules.sequences_to_win == 0 and m.view(0).rules.fill_board


def test_fill_board_lets_a_one_eyed_jack_break_a_sequence() -> None:
    seat0 = [*ROW8[:5], at(0, 6)]
    seat1 = [*FILLER1[:5], Remove("JH", 8, 2, 0)]
    moves = alternate(seat0, seat1)
    m = scripted(2, moves, {"fill_board": True})
    play(m, moves[:-1])
    assert m.view(1).score == (1, 0)
    targets = {(a.row, a.col) for a in m.legal(1) if isinstance(a, Remove)}
    assert {(8, c) for c in range(5)} <= targets  # locked chips are fair game here
    m.act(1, moves[-1][1])
    v = m.view(0)
    assert v.score == (0, 0) and v.sequences == () and v.locked == ()


def test_fill_board_recounts_a_broken_line_that_still_has_five() -> None:
    seat0 = [*ROW8[:6], at(0, 6)]  # six in a row: (8,0)..(8,4) counts
    seat1 = [*FILLER1[:6], Remove("JH", 8, 0, 0)]
    moves = alternate(seat0, seat1)
    m = scripted(2, moves, {"fill_board": True})
    play(m, moves[:-1])
    (seq,) = m.view(0).sequences
    assert set(seq.squares) == {(8, c) for c in range(5)}
    m.act(1, moves[-1][1])
    (seq,) = m.view(0).sequences
    assert set(seq.squares) == {(8, c) for c in range(1, 6)} and m.view(0).score == (1, 0)


@pytest.mark.parametrize(("players", "reshuffle"), [(2, True), (3, True), (4, False)])
def test_fill_board_ends_when_the_board_is_full_or_nothing_moves(players: int, reshuffle: bool) -> None:
    results = []
    for seed in range(6):
        m = Match.start(GAME, players, {"fill_board": True, "reshuffle": reshuffle}, seed=seed)
        random_until(m, lambda m: not reshuffle and m.chance_pending(), seed)
        assert not m.chance_pending(), "no reshuffle was asked for"
        o = m.outcome()
        assert o is not None
        v = m.view(None)
        points = v.score
        assert o.scores == tuple(points[t] for t in v.teams)
        if o.reason == "sequence.board_full":
            assert all(t >= 0 for r, row in enumerate(v.chips) for c, t in enumerate(row)
                       if (r, c) not in ((0, 0), (0, 9), (9, 0), (9, 9)))
        else:
            assert o.reason == "sequence.no_moves"
        best = max(points)
        if points.count(best) > 1:
            assert o.draw and o.winners == ()
        else:
            assert not o.draw and o.winners == tuple(
                s for s in range(players) if points[v.teams[s]] == best)
        results.append(o.reason)
    if reshuffle:
        assert "sequence.board_full" in results


# -- doubles ----------------------------------------------------------------------------------------


def test_doubles_play_both_copies_onto_both_squares_and_draw_two() -> None:
    moves = [(0, Double("5D", 2, 5, 8, 9))]
    m = scripted(2, moves, {"doubles": True})
    assert Double("5D", 2, 5, 8, 9) in m.legal(0)
    refused(m, 0, Double("5D", 8, 9, 2, 5), "wrong_square")
    refused(m, 0, Double("JD", 2, 5, 8, 9), "card_not_in_hand")
    m.act(0, moves[0][1])
    v = m.view(0)
    assert chips(m) == {(2, 5): 0, (8, 9): 0}
    assert v.hand_counts == (7, 7) and v.discards == ("5D", "5D") and v.draw_pile == 104 - 16
    assert v.last is not None and v.last.type == "double" and set(v.last.squares) == {(2, 5), (8, 9)}
    assert m.to_act() == (1,)


def test_doubles_are_off_by_default_and_need_both_squares_and_both_copies() -> None:
    moves: list[Move] = [(0, Double("5D", 2, 5, 8, 9))]
    m = scripted(2, moves)
    assert not [a for a in m.legal(0) if isinstance(a, Double)]
    refused(m, 0, moves[0][1], "variant_off")
    # One copy only: no double. Seat 1 holds the other 5D.
    moves = [(0, Place("AC", 8, 0)), (1, Place("5D", 2, 5))]
    m = scripted(2, moves, {"doubles": True}, extra={0: ["5D"]})
    refused(m, 0, Double("5D", 2, 5, 8, 9), "card_not_in_hand")
    # Both copies, but a square is taken: no double.
    moves = [(0, Place("AC", 8, 0)), (1, Wild("JD", 2, 5))]
    m = scripted(2, moves, {"doubles": True}, extra={0: ["5D", "5D"]})
    assert Double("5D", 2, 5, 8, 9) in m.legal(0)
    play(m, moves)
    assert not [a for a in m.legal(0) if isinstance(a, Double) and a.card == "5D"]
    refused(m, 0, Double("5D", 2, 5, 8, 9), "square_taken")
    assert Place("5D", 8, 9) in m.legal(0)


def test_a_double_can_complete_a_sequence() -> None:
    # Row 8 cols 2..5, then both 2S at once: (0,1) and (8,6) completes the line.
    seat0 = [at(8, 2), at(8, 3), at(8, 4), at(8, 5), Double("2S", 0, 1, 8, 6)]
    moves = alternate(seat0, FILLER1[:5])
    m = scripted(2, moves, {"doubles": True, "sequences_to_win": 1})
    play(m, moves[:-1])
    o = m.outcome()
    assert o is not None and o.winners == (0,)


# -- captures ---------------------------------------------------------------------------------------


CAPTURE = [(0, at(8, 0)), (1, at(8, 1)), (0, at(0, 2)), (1, at(8, 2)), (0, at(8, 3))]


def test_captures_take_exactly_two_flanked_chips() -> None:
    m = scripted(2, CAPTURE, {"captures": True})
    play(m, CAPTURE)
    assert chips(m) == {(8, 0): 0, (0, 2): 0, (8, 3): 0}
    v = m.view(1)
    assert v.captures == (1, 0) and v.score == (0, 0)
    assert v.last is not None and set(v.last.captured) == {(8, 1), (8, 2)}
    assert v.rules.captures_to_win == 5


def test_without_the_variant_nothing_is_captured() -> None:
    m = scripted(2, CAPTURE)
    play(m, CAPTURE)
    assert len(chips(m)) == 5 and m.view(0).captures == (0, 0)


def test_moving_between_two_opposing_chips_is_safe() -> None:
    moves = [(0, at(8, 0)), (1, at(8, 1)), (0, at(8, 3)), (1, at(8, 2))]
    m = scripted(2, moves, {"captures": True})
    play(m, moves)
    assert len(chips(m)) == 4 and m.view(0).captures == (0, 0)


def test_three_in_between_or_a_chip_in_a_sequence_are_not_captured() -> None:
    three = [(0, at(8, 0)), (1, at(8, 1)), (0, at(0, 2)), (1, at(8, 2)), (0, at(0, 4)),
             (1, at(8, 3)), (0, at(8, 4))]
    m = scripted(2, three, {"captures": True})
    play(m, three)
    assert len(chips(m)) == 7 and m.view(0).captures == (0, 0)
    # Seat 1 owns a sequence on row 8; (7,2) and (8,2) lie between seat 0's (9,2) and (6,2).
    seat0 = [at(9, 2), at(0, 2), at(0, 4), at(0, 6), at(1, 7), at(2, 8), at(6, 2)]
    seat1 = [*(at(8, c) for c in range(5)), at(7, 2)]
    moves = [*alternate(seat0[:-1], seat1), (0, seat0[-1])]
    m = scripted(2, moves, {"captures": True})
    play(m, moves)
    assert m.view(0).score == (0, 1) and m.view(0).captures == (0, 0)
    assert chips(m)[(7, 2)] == 1 and chips(m)[(8, 2)] == 1


def test_five_captures_win() -> None:
    # Seat 1's pairs lie in five directions around (4,4); seat 0 holds the far ends, then plays
    # 5H on (4,4) and captures all five pairs at once.
    own = [at(4, 1), at(4, 7), at(1, 4), at(7, 4), at(1, 1)]
    filler = [at(9, 2), at(9, 4), at(9, 6), at(9, 8), at(8, 9)]
    pairs = [at(4, 2), at(4, 3), at(4, 5), at(4, 6), at(2, 4), at(3, 4), at(5, 4), at(6, 4),
             at(2, 2), at(3, 3)]
    seat0 = own + filler
    moves = [*alternate(seat0, pairs), (0, at(4, 4))]
    m = scripted(2, moves, {"captures": True})
    play(m, moves[:-1])
    assert m.outcome() is None and m.view(0).captures == (0, 0)
    m.act(0, moves[-1][1])
    o = m.outcome()
    assert o is not None and o.winners == (0,) and o.reason == "sequence.won_by_captures"
    assert m.view(0).captures == (5, 0)
    assert not any(t == 1 for t in chips(m).values())
