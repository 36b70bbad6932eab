"""Chess's plain data: phases, options' values, the actions, the chance step, the state tuple.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``) so
that none imports another for its data. It owns no behaviour; it must never import the
rules, the views or the players.

Squares on the wire are algebraic ("e2"); a promotion piece is a lower-case FEN letter
(``q r b n``) whatever the mover's colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import chess

from engine.game import Outcome

SETUP = "setup"  # the starting position is a chance step still to come
PLAY = "play"
OVER = "over"

# Draw-rule modes (option ``draw_rules``).
FIDE = "fide"  # threefold and fifty moves are claims; fivefold and 75 moves are automatic
AUTO_CLAIM = "auto_claim"  # threefold and fifty moves end the game at once

# What a claim rests on (``ClaimDraw.reason``).
THREEFOLD = "threefold"
FIFTY_MOVES = "fifty_moves"

# Time controls (option ``clock``): "minutes+increment seconds"; "none" plays untimed.
NO_CLOCK = "none"
CLOCKS = (NO_CLOCK, "1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0",
          "90+30")

PROMOTIONS = ("q", "r", "b", "n")

# The seat number the host acts as for the clock steps (``Clock``, ``Flag``). No client can
# send as it: a connection only ever acts for the seat it holds, 0 or 1.
HOST = -1

STANDARD_960 = 518  # the Scharnagl number of the usual starting position


def clock_of(control: str) -> tuple[int, int] | None:
    """(base, increment) in milliseconds of a time control, None when untimed."""
    if control == NO_CLOCK:
        return None
    minutes, inc = control.split("+")
    return int(minutes) * 60_000, int(inc) * 1000


# -- chance ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setup:
    """The chance step that opens every game: the starting position as FEN. Drawn from the
    seed (the usual position, or one of the 960 with option ``chess960``); a record may pin
    any valid position instead (a lesson, a puzzle, an adjourned game)."""

    fen: str


# -- actions ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """Take up the own piece on ``square`` ("e2") to move it; another may be picked instead
    until a target is chosen."""

    square: str


@dataclass(frozen=True)
class MoveTo:
    """Move the picked piece to ``square``. Castling is the king's move: two squares in
    standard chess, onto its own rook in Chess960. A pawn reaching the last rank waits for
    ``Promote``; every other move is made at once."""

    square: str


@dataclass(frozen=True)
class Promote:
    """Choose the promotion piece (``q``, ``r``, ``b`` or ``n``) of the move entered."""

    piece: str


@dataclass(frozen=True)
class ClaimDraw:
    """Claim a draw on ``reason`` ("threefold" or "fifty_moves"): offered only when valid,
    to the player to move (FIDE 9.2, 9.3; also when one of its moves would make it)."""

    reason: str


@dataclass(frozen=True)
class OfferDraw:
    """Offer a draw (on one's own turn, then move); the opponent answers on theirs."""


@dataclass(frozen=True)
class AcceptDraw:
    """Accept the draw the opponent offered: the game is drawn by agreement."""


@dataclass(frozen=True)
class DeclineDraw:
    """Decline the draw the opponent offered (making a move declines it too)."""


@dataclass(frozen=True)
class Resign:
    """Resign the game (on one's own turn)."""


@dataclass(frozen=True)
class Clock:
    """Host only (seat ``HOST``): the seat that has just moved used ``used_ms`` on that
    move. Its clock loses that time and gains the increment; at zero or below its flag has
    fallen. Never in a legal list: the host measures time, the engine only counts it."""

    used_ms: int


@dataclass(frozen=True)
class Flag:
    """Host only (seat ``HOST``): the seat to move has thought ``elapsed_ms`` on this move,
    at least all the time it had left: its flag has fallen (FIDE 6.9)."""

    elapsed_ms: int


class Timing(NamedTuple):
    """What a host needs to run the clocks (``ChessGame.clock``): milliseconds left per seat
    as of the last ``Clock`` step, the seat whose clock runs now (-1: none), and the seat
    whose ``Clock`` step is owed (-1: none; the host sends it with the move)."""

    left: tuple[int, ...]
    running: int
    owed: int


class LastMove(NamedTuple):
    seat: int
    uci: str  # "e2e4", "e7e8q"; castling in Chess960 is king-takes-rook ("e1h1")
    san: str  # "e4", "exd6", "O-O", "e8=Q+"


class State(NamedTuple):
    draw_rules: str  # option: fide or auto_claim
    control: str  # option: the time control, "none" untimed
    chess960: bool  # option: Fischer random starting positions
    position: int | None  # option: that Chess960 position (0-959) rather than a drawn one
    seed: int
    phase: str
    board: chess.Board  # never mutated: each move copies it (its stack judges repetition)
    sans: tuple[str, ...]  # every move made, in SAN
    picked: int  # the square index (python-chess) of the picked piece, -1 when none
    target: int  # the promotion square awaiting Promote, -1 when none
    claims: tuple[str, ...]  # draw claims open to the player to move (computed per move)
    offer: int  # the seat whose draw offer stands, -1 for none
    offered: bool  # the side to move has offered already this turn
    clocks: tuple[int, int] | None  # milliseconds left per seat, None untimed
    clock_due: int  # the seat whose Clock step the host owes, -1 when none
    last: LastMove | None
    result: Outcome | None
    termination: str  # PGN Termination ("normal", "time forfeit", ...), "" while playing
