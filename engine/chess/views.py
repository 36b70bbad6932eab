"""What a seat (or a spectator) sees of a chess game, built field by field.

Chess hides nothing from the players, so every seat and the spectator get the same view but
for ``seat`` and ``plays`` (the colour that seat plays, so a client turns the board to it):
the board, the side to move and the square of a king in check, the move being entered (the
picked piece, its targets, a promotion awaiting its piece), the last move, every move so far
(SAN and UCI, which is what a careful player or a computer needs to judge repetition), the
draw counters, the claims open, a standing draw offer, and the clocks. Never the seed, the
one thing in the state no player may see (it would tell a Chess960 position before it is
set up). This module must never copy the state wholesale: each field is chosen here.

``board`` is eight strings, rank 8 first, files a-h left to right: FEN letters (``PNBRQK``
white, ``pnbrqk`` black) and ``.`` for an empty square. Clients label the cells a1-h8 (the
presentation's ``algebraic`` labels) and turn the board for black.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from engine.chess.state import PLAY, State, clock_of

if TYPE_CHECKING:
    from engine.chess.rules import ChessGame

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
          chess.KING: 0}
COLOURS = ("white", "black")


@dataclass(frozen=True)
class LastMoveView:
    seat: int
    san: str  # "Nf3", "exd6", "O-O", "e8=Q#"
    uci: str  # "g1f3"
    squares: tuple[str, str]  # from, to (castling in Chess960: the king's and its rook's)


@dataclass(frozen=True)
class ChessView:
    seat: int | None
    plays: str | None  # the colour ``seat`` plays ("white", "black"), None for a spectator
    phase: str  # setup, play, over
    to_act: tuple[int, ...]
    turn: int | None  # the seat to move (0 white, 1 black); None unless playing
    board: tuple[str, ...]
    fen: str
    check: str  # the square of the king in check (the side to move's), "" when none
    picked: str  # the square of the piece being moved, "" when none
    targets: tuple[str, ...]  # where it can go
    promoting: str  # the promotion square awaiting its piece, "" when none
    last: LastMoveView | None
    start_fen: str  # the position the game began from
    variant: str  # "standard" or "chess960" (castling is then the king onto its rook)
    chess960: int | None  # the Chess960 position number, None in standard chess
    moves: tuple[str, ...]  # every move in UCI, from start_fen
    sans: tuple[str, ...]  # the same in SAN
    halfmoves: int  # moves without a capture or a pawn move (the 50/75-move rules)
    repetitions: int  # how often the current position has stood, this time included
    claims: tuple[str, ...]  # draw claims open to the player to move
    offer: int | None  # the seat whose draw offer stands
    draw_rules: str  # fide or auto_claim
    clock: str  # the time control, "none" untimed
    clocks: tuple[int, int] | None  # milliseconds left per seat (the host runs the mover's)
    increment: int  # milliseconds added per move
    material: tuple[int, int]  # pawn units on the board per seat
    termination: str  # PGN Termination once over, "" before


def rows(board: chess.Board) -> tuple[str, ...]:
    out = []
    for rank in range(7, -1, -1):
        out.append("".join(
            (p.symbol() if (p := board.piece_at(chess.square(f, rank))) else ".")
            for f in range(8)))
    return tuple(out)


def repetitions(board: chess.Board) -> int:
    """Occurrences of the current position on the stack (python-chess's own key, which
    counts en passant only when it is legal), since the last irreversible move."""
    if not board.move_stack:
        return 1
    key = board._transposition_key()
    b = board.copy()
    n = 1
    while b.move_stack:
        move = b.pop()
        if b.is_irreversible(move):
            break
        if b._transposition_key() == key:
            n += 1
    return n


def build_view(game: ChessGame, state: State, seat: int | None) -> ChessView:
    board = state.board
    playing = state.phase == PLAY
    root = board.root()
    last = None
    if state.last is not None:
        lm = state.last
        mv = chess.Move.from_uci(lm.uci)
        last = LastMoveView(lm.seat, lm.san, lm.uci,
                            (chess.square_name(mv.from_square), chess.square_name(mv.to_square)))
    picked = state.picked
    targets: tuple[str, ...] = ()
    if playing and picked >= 0:
        targets = tuple(chess.square_name(s) for s in sorted(
            {m.to_square for m in game.moves_from(state, picked)}))
    king = board.king(board.turn) if board.occupied else None
    check = chess.square_name(king) if king is not None and board.is_check() else ""
    timing = clock_of(state.control)
    material = tuple(sum(VALUES[pt] * len(board.pieces(pt, colour)) for pt in VALUES)
                     for colour in (chess.WHITE, chess.BLACK))
    return ChessView(
        seat=seat,
        plays=COLOURS[seat] if seat is not None else None,
        phase=state.phase,
        to_act=game.to_act(state),
        turn=game.side(state) if playing else None,
        board=rows(board),
        fen=board.fen() if board.occupied else "",
        check=check,
        picked=chess.square_name(picked) if picked >= 0 else "",
        targets=targets,
        promoting=chess.square_name(state.target) if state.target >= 0 else "",
        last=last,
        start_fen=root.fen() if root.occupied else "",
        variant="chess960" if state.chess960 else "standard",
        chess960=root.chess960_pos() if state.chess960 and root.occupied else None,
        moves=tuple(m.uci() for m in board.move_stack),
        sans=state.sans,
        halfmoves=board.halfmove_clock,
        repetitions=repetitions(board),
        claims=state.claims,
        offer=state.offer if state.offer >= 0 and playing else None,
        draw_rules=state.draw_rules,
        clock=state.control,
        clocks=state.clocks,
        increment=timing[1] if timing else 0,
        material=(material[0], material[1]),
        termination=state.termination,
    )
