"""Backgammon's plain data: phases, the table's rules, actions, the chance outcome, the state.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``) so
that none imports another for its data. Owns no behaviour beyond reading options into
``Rules``; it must never import the rules or the views.

Points: the board is 24 signed counts in seat 0's numbering (index ``i`` is point ``i + 1``;
positive for seat 0's checkers, negative for seat 1's). Seat 0 moves from 24 down to 1 and
bears off below 1; seat 1 moves the other way. Actions use the mover's own numbering, as
backgammon notation does: points 1..24 from its own home, ``BAR`` (25) and ``OFF`` (0); seat
1's point ``p`` is seat 0's point ``25 - p``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.backgammon import moves as mv

OPENING = "opening"  # chance: each seat rolls one die (ties roll again)
DECIDE = "decide"  # the seat to play may double or roll
CUBE = "cube"  # the other seat takes, passes (or beavers) the double
ROLL = "roll"  # chance: the seat to play rolls its dice
MOVE = "move"  # the seat moves checker by checker, then confirms
OVER = "over"

MONEY, MATCH = "money", "match"
BAR, OFF = 25, 0
CUBE_MAX = 64

START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


@dataclass(frozen=True)
class Rules:
    """The checked options of one table, in the form the rules use."""

    mode: str  # money or match
    length: int  # match: points to win
    games: int  # money: games in the session
    cube: bool
    jacoby: bool
    beavers: bool
    auto_doubles: bool
    gammons: bool

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rules:
        return cls(str(options.get("mode", MONEY)), int(options.get("length", 5)),
                   int(options.get("games", 1)), bool(options.get("cube", True)),
                   bool(options.get("jacoby", False)), bool(options.get("beavers", False)),
                   bool(options.get("auto_doubles", False)), bool(options.get("gammons", True)))


# -- actions and chance ---------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """Move one checker from ``src`` to ``dst`` (the mover's numbering: 25 is the bar, 0 is
    off) using the die ``die``. Two dice can move one checker between the same points only
    when bearing off with higher dice, so ``die`` says which is spent."""

    src: int
    dst: int
    die: int


@dataclass(frozen=True)
class Undo:
    """Take back the last checker moved this turn."""


@dataclass(frozen=True)
class Confirm:
    """End the turn: legal once as many dice as possible have been played."""


@dataclass(frozen=True)
class Roll:
    """Roll the dice instead of doubling."""


@dataclass(frozen=True)
class Double:
    """Offer to double the stake (before rolling; from the centre or when owning the cube)."""


@dataclass(frozen=True)
class Take:
    """Accept the double: the taker owns the cube at twice the value."""


@dataclass(frozen=True)
class Pass:
    """Refuse the double: lose this game at the cube's current value."""


@dataclass(frozen=True)
class Beaver:
    """Money play with beavers: take and at once redouble, keeping the cube."""


@dataclass(frozen=True)
class Dice:
    """Chance: two dice. In the opening, ``a`` is seat 0's die and ``b`` seat 1's."""

    a: int
    b: int


UNDO, CONFIRM, ROLL_ACTION, DOUBLE = Undo(), Confirm(), Roll(), Double()
TAKE, PASS, BEAVER = Take(), Pass(), Beaver()


class GameResult(NamedTuple):
    game: int
    winner: int
    points: int
    kind: str  # single, gammon, backgammon, passed
    cube: int


class State(NamedTuple):
    rules: Rules
    seed: int
    chances: int  # chance steps applied so far
    game: int  # 1-based game of the match or session
    phase: str
    board: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    turn: int
    dice: tuple[int, ...]  # this turn's two dice; () before the roll
    left: tuple[int, ...]  # dice still to play (four entries for doubles)
    steps: tuple[Move, ...]  # checkers moved this turn, for undo
    start: tuple[tuple[int, ...], tuple[int, int], tuple[int, int]]  # the turn's position
    need: int  # dice that must be played this turn (as many as possible)
    cube: int
    owner: int | None  # None: the cube is in the centre
    turned: bool  # a double was taken this game (Jacoby)
    crawford: bool  # this game is the Crawford game
    crawford_done: bool
    scores: tuple[int, int]
    results: tuple[GameResult, ...]
    ties: int  # opening ties rolled this game


def to_pos(board: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int],
         seat: int) -> mv.Pos:
    """The position as ``seat`` moves it (engine/backgammon/moves.py)."""
    if seat == 0:
        mine = (off[0], *(max(c, 0) for c in board), bar[0])
        theirs = (bar[1], *(max(-c, 0) for c in board), off[1])
    else:
        mine = (off[1], *(max(-c, 0) for c in reversed(board)), bar[1])
        theirs = (bar[0], *(max(c, 0) for c in reversed(board)), off[0])
    return mine, theirs


def from_pos(pos: mv.Pos, seat: int) -> tuple[tuple[int, ...], tuple[int, int],
                                            tuple[int, int]]:
    """The board, bar and off counts of a position ``seat`` moved (inverse of ``to_pos``)."""
    mine, theirs = pos
    if seat == 0:
        board = tuple(mine[p] - theirs[p] for p in range(1, 25))
        return board, (mine[25], theirs[0]), (mine[0], theirs[25])
    board = tuple(theirs[p] - mine[p] for p in range(24, 0, -1))
    return board, (theirs[0], mine[25]), (theirs[25], mine[0])


def position(state: State, seat: int) -> mv.Pos:
    """The state's position as ``seat`` moves it."""
    return to_pos(state.board, state.bar, state.off, seat)
