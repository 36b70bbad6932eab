"""The 32-bit board: perft from the start, and the move rules on set positions."""

from __future__ import annotations

import pytest

from engine.checkers import board as bd

START = (bd.START_DARK, bd.START_LIGHT, 0, bd.DARK)
# Published counts for English draughts from the start (a multi-jump is one move).
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931}


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 6])
def test_perft_from_the_start(depth: int) -> None:
    assert bd.perft(*START, depth) == PERFT[depth]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8])
def test_perft_deeper(depth: int) -> None:
    assert bd.perft(*START, depth) == PERFT[depth]


def texts(fen: str) -> list[str]:
    dark, light, kings, side = bd.parse_fen(fen)
    own, opp = (dark, light) if side == bd.DARK else (light, dark)
    return sorted(bd.notation(m) for m in bd.moves(own, opp, kings, side))


def test_the_seven_opening_moves() -> None:
    assert texts(bd.fen(*START)) == sorted(
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])


def test_numbering_and_grid() -> None:
    assert bd.grid_of(0) == (0, 1) and bd.grid_of(4) == (1, 0) and bd.grid_of(31) == (7, 6)
    assert all(bd.square_at(*bd.grid_of(s)) == s for s in range(32))
    assert bd.square_at(0, 0) == -1 and bd.square_at(8, 1) == -1


def test_capture_is_compulsory_for_every_piece() -> None:
    # Dark's man on 1 could move quietly, but the man on 14 can take 18: only the capture.
    assert texts("B:W18:B1,14") == ["14x23"]


def test_free_choice_among_captures_no_majority_rule() -> None:
    # 15 can take one piece (15x24), 9 can take two (9x18x27): either is legal.
    assert texts("B:W14,19,23:B9,15") == ["15x24", "9x18x27"]


def test_a_chain_must_be_completed() -> None:
    assert texts("B:W14,23:B9") == ["9x18x27"]  # 9x18 alone is not a move


def test_men_never_capture_backwards_kings_do() -> None:
    assert texts("B:W14:B18") == ["18-22", "18-23"]
    assert texts("B:W14:BK18") == ["18x9"]


def test_crowning_ends_the_move() -> None:
    # A dark man on 21 jumps 25 and is crowned on 30; as a king it could jump 26 next (23
    # is empty), but the move ends on crowning.
    assert texts("B:W25,26:B21") == ["21x30"]
    dark, light, kings, _ = bd.parse_fen("B:W25,26:B21")
    _, after, crowned = bd.play(dark, light, kings, bd.DARK, ((20, 29), 1 << 24))
    assert crowned == 1 << 29 and after == 1 << 25


def test_a_king_ends_a_chain_where_it_likes_only_when_stuck() -> None:
    # A king jumping round a square of four men may go either way round and come back
    # home; no man is jumped twice.
    moves = texts("B:W14,15,22,23:BK10")
    assert "10x19x26x17x10" in moves and "10x17x26x19x10" in moves
    assert all(len(m.split("x")) <= 5 for m in moves)


def test_no_moves_and_make() -> None:
    dark, light, kings, side = bd.parse_fen("B:W14,18,9:B5")  # 5 is blocked, cannot jump
    assert not bd.has_move(dark, light, kings, side)
    assert bd.moves(dark, light, kings, side) == []


def test_fen_round_trip_and_errors() -> None:
    fen = "W:WK3,21,22:B1,K30"
    assert bd.fen(*bd.parse_fen(fen)) == fen
    for bad in ("X:W1:B2", "B:W1:B1", "B:W33:B1", "B:W1"):
        with pytest.raises(ValueError):
            bd.parse_fen(bad)


def test_notation() -> None:
    assert bd.notation(((10, 14), 0)) == "11-15"
    assert bd.notation(((14, 23, 30), 3)) == "15x24x31"
