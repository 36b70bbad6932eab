"""Perft through our interface (Pick, MoveTo, Promote steps on ``GAME``), to the published
counts of the chessprogramming wiki's six standard positions ("Perft Results"). Every move is
entered as the steps a player taps; the last ply is counted from the legal lists (a promotion
counts its four pieces) rather than applied, which is what keeps this quick. bench/chess_ai
goes deeper through python-chess itself.

Position 6 once failed here with 47 moves for 46: the FEN had lost the black bishop on g4
(``2B1P1b1``), which pins the f3 knight. The counts were right; the FEN was not.
"""

from __future__ import annotations

import pytest

from engine.chess import GAME
from engine.chess.state import MoveTo, Pick, Promote, State
from tests.engine.chess.scenario import from_fen

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"


def perft(state: State, depth: int) -> int:
    """Complete moves to ``depth`` plies, every one entered in steps through ``GAME``."""
    seat = GAME.to_act(state)[0]
    n = 0
    for pick in GAME.legal_actions(state, seat):
        if not isinstance(pick, Pick):
            continue
        picked = GAME.apply(state, seat, pick)
        for to in GAME.legal_actions(picked, seat):
            if not isinstance(to, MoveTo):
                continue
            promoting = picked.board.piece_type_at(picked.picked) == 1 and to.square[1] in "18"
            if depth == 1:
                n += 4 if promoting else 1
                continue
            after = GAME.apply(picked, seat, to)
            if after.target >= 0:
                for p in GAME.legal_actions(after, seat):
                    assert isinstance(p, Promote)
                    done = GAME.apply(after, seat, p)
                    n += perft(done, depth - 1) if done.result is None else 0
            elif after.result is None:
                n += perft(after, depth - 1)
    return n


@pytest.mark.parametrize(("fen", "counts"), [
    (START, (20, 400, 8902)),
    (KIWIPETE, (48, 2039)),
    (POS3, (14, 191, 2812)),
    (POS4, (6, 264, 9467)),
    (POS4_MIRRORED, (6, 264)),
    (POS5, (44, 1486)),
    (POS6, (46, 2079)),
], ids=["start", "kiwipete", "pos3", "pos4", "pos4-mirrored", "pos5", "pos6"])
def test_perft(fen: str, counts: tuple[int, ...]) -> None:
    state = from_fen(fen).state
    assert [perft(state, d) for d in range(1, len(counts) + 1)] == list(counts)


def test_promotion_is_a_step_of_its_own() -> None:
    """Position 5's d7 pawn can only take on c8 (the queen blocks d8); that target waits
    for its piece, and the four pieces are then the only legal actions."""
    m = from_fen(POS5)
    st = GAME.apply(m.state, 0, Pick("d7"))
    assert sorted(a.square for a in GAME.legal_actions(st, 0) if isinstance(a, MoveTo)) == ["c8"]
    st = GAME.apply(st, 0, MoveTo("c8"))
    assert st.target >= 0 and GAME.legal_actions(st, 0) == tuple(
        Promote(p) for p in "qrbn")
