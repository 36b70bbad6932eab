"""What a seat (or a spectator) sees of a checkers game, built field by field.

Checkers hides nothing, so every seat and the spectator get the same view but for ``seat``:
the board, the side to move, the move being entered (the picked piece, its landings and the
pieces it has jumped so far), the last move, the counts behind the draw rules, the positions
since the last man's move or capture (a careful player remembers them: repetition is judged
on them), the claims open to the player to move, and the ballot opening. Never the seed,
which is the one thing the state holds that a player must not see. This module must never
copy the state wholesale: each field is chosen here.

Squares on the wire are the standard numbers 1-32; ``board`` is the 8x8 grid as eight
strings, row 0 at the top (squares 1-4): ``-`` a light square, ``.`` an empty dark one,
``d``/``D`` a dark man/king, ``l``/``L`` a light man/king.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from engine.checkers import board as bd
from engine.checkers.ballots import OPENINGS
from engine.checkers.state import FORTY, PLAY, State

if TYPE_CHECKING:
    from engine.checkers.rules import CheckersGame


@dataclass(frozen=True)
class LastMoveView:
    """The last complete move: who made it, its squares (origin first), what it took."""

    seat: int
    path: tuple[int, ...]
    captured: tuple[int, ...]
    notation: str  # "11-15", "15x24x31"


@dataclass(frozen=True)
class CheckersView:
    seat: int | None
    phase: str  # ballot, play, over
    to_act: tuple[int, ...]
    turn: int | None  # the seat to move (0 dark, 1 light); None unless playing
    board: tuple[str, ...]  # eight rows of eight cells, see the module docstring
    fen: str  # the position in PDN FEN ("B:W21,...:B1,..."; B is dark)
    picked: int  # the square of the piece being moved, 0 when none
    path: tuple[int, ...]  # its landings so far in the move being entered
    jumped: tuple[int, ...]  # the squares of the pieces it has jumped so far
    must_capture: bool  # the side to move has a capture, so it must take
    last: LastMoveView | None
    pieces: tuple[int, int]  # pieces left per seat
    captures: tuple[int, int]  # pieces taken per seat
    moves: int  # complete moves made
    quiet_moves: int  # single moves since the last man's move or capture
    quiet_limit: int  # the forty-move rule's limit in single moves (40 each)
    repetitions: int  # times the current position has occurred, this one included
    history: tuple[str, ...]  # FEN of the earlier positions since that move, oldest first
    draw_rules: str  # automatic or claim
    claims: tuple[str, ...]  # draw claims open to the player to move
    ballot: int  # the ACF ballot opening played, 0 for none
    opening: str  # its moves ("11-15 23-19 8-11"), "" for none


_CELL = {(0, 0): ".", (1, 0): "d", (1, 1): "D", (2, 0): "l", (2, 1): "L"}


def rows(dark: int, light: int, kings: int) -> tuple[str, ...]:
    out = []
    for r in range(8):
        cells = []
        for c in range(8):
            s = bd.square_at(r, c)
            if s < 0:
                cells.append("-")
                continue
            who = 1 if dark >> s & 1 else 2 if light >> s & 1 else 0
            cells.append(_CELL[who, kings >> s & 1 if who else 0])
        out.append("".join(cells))
    return tuple(out)


def jumped_over(path: tuple[int, ...]) -> tuple[int, ...]:
    """The square indices jumped along ``path`` (origin first): the midpoint of each leap."""
    out = []
    for a, b in pairwise(path):
        (ra, ca), (rb, cb) = bd.grid_of(a), bd.grid_of(b)
        if abs(ra - rb) == 2:
            out.append(bd.square_at((ra + rb) // 2, (ca + cb) // 2))
    return tuple(out)


def _fen_of_key(k: int) -> str:
    m = bd.FULL
    return bd.fen(k & m, k >> 32 & m, k >> 64 & m, k >> 96)


def build_view(game: CheckersGame, state: State, seat: int | None) -> CheckersView:
    playing = state.phase == PLAY
    dark, light, kings, side = state.dark, state.light, state.kings, state.side
    last = None
    if state.last is not None:
        lm = state.last
        last = LastMoveView(lm.seat, tuple(s + 1 for s in lm.path),
                            tuple(s + 1 for s in bd.bits(lm.captured)),
                            bd.notation((lm.path, lm.captured)))
    picked = state.picked
    path = (picked, *state.path) if picked >= 0 else ()
    own, opp = (dark, light) if side == 0 else (light, dark)
    current = state.history[-1] if state.history else 0
    return CheckersView(
        seat=seat,
        phase=state.phase,
        to_act=game.to_act(state),
        turn=side if playing else None,
        board=rows(dark, light, kings),
        fen=bd.fen(dark, light, kings, side),
        picked=picked + 1 if picked >= 0 else 0,
        path=tuple(s + 1 for s in state.path),
        jumped=tuple(s + 1 for s in jumped_over(path)),
        must_capture=playing and bool(bd.jumps(own, opp, kings, side)),
        last=last,
        pieces=(dark.bit_count(), light.bit_count()),
        captures=state.captures,
        moves=state.moves,
        quiet_moves=state.quiet,
        quiet_limit=FORTY,
        repetitions=state.history.count(current),
        history=tuple(_fen_of_key(k) for k in state.history[:-1]),
        draw_rules=state.draw_rules,
        claims=game.claims(state),
        ballot=state.ballot,
        opening=OPENINGS[state.ballot - 1] if state.ballot else "",
    )
