"""What one seat (or a spectator) may know of a backgammon match, built field by field.

Everything on a backgammon table is public: the board, the bar, borne-off checkers, the
dice already rolled, the dice left, the checkers moved this turn, the cube and its owner,
the scores, every finished game, and the pip counts. Never: the seed, or any roll not yet
made (none exists: a turn's dice are drawn when the turn starts). This module must never copy
the state wholesale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.backgammon import moves as mv
from engine.backgammon.state import CUBE, MATCH, GameResult, Move, State, position
from engine.presentation import Caption, Common

if TYPE_CHECKING:
    from engine.backgammon.rules import BackgammonGame


@dataclass(frozen=True)
class ResultView:
    game: int
    winner: int
    points: int
    kind: str  # single, gammon, backgammon, passed
    cube: int


@dataclass(frozen=True)
class BackgammonView:
    """``board``: 24 counts in seat 0's numbering (index i = point i + 1), positive for seat
    0, negative for seat 1. ``moved`` are this turn's steps in the mover's numbering."""

    seat: int | None
    phase: str  # opening, decide, cube, roll, move, over
    mode: str
    length: int
    games: int
    game: int
    board: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]
    pips: tuple[int, int]
    turn: int
    dice: tuple[int, ...]
    left: tuple[int, ...]
    moved: tuple[Move, ...]
    to_act: tuple[int, ...]
    cube: int
    owner: int | None  # None: the centre
    offered: bool  # a double is waiting for an answer
    cube_in_play: bool  # false when the cube is off or in the Crawford game
    crawford: bool
    jacoby: bool
    beavers: bool
    gammons: bool
    scores: tuple[int, int]
    results: tuple[ResultView, ...]


# Spelled out, not built with an f-string, so the string-coverage scan sees every key.
KIND_KEYS = {"single": "backgammon.kind.single", "gammon": "backgammon.kind.gammon",
             "backgammon": "backgammon.kind.backgammon", "passed": "backgammon.kind.passed"}


def _result(r: GameResult) -> ResultView:
    return ResultView(r.game, r.winner, r.points, r.kind, r.cube)


def build_view(game: BackgammonGame, state: State, seat: int | None) -> BackgammonView:
    r = state.rules
    pips = (mv.pips(position(state, 0)[0]), mv.pips(position(state, 1)[0]))
    return BackgammonView(
        seat=seat, phase=state.phase, mode=r.mode, length=r.length if r.mode == MATCH else 0,
        games=r.games, game=state.game, board=state.board, bar=state.bar, off=state.off,
        pips=pips, turn=state.turn, dice=state.dice, left=state.left, moved=state.steps,
        to_act=game.to_act(state), cube=state.cube, owner=state.owner,
        offered=state.phase == CUBE, cube_in_play=r.cube and not state.crawford,
        crawford=state.crawford, jacoby=r.jacoby, beavers=r.beavers, gammons=r.gammons,
        scores=state.scores, results=tuple(_result(x) for x in state.results))


def common_of(view: BackgammonView) -> Common:
    """No hands; a score per seat; the game, the pip counts, the cube as captions; the last
    finished game as ``last``."""
    if view.mode == MATCH:
        captions = [Caption("backgammon.match_to", (("n", view.length),))]
    else:
        captions = [Caption("backgammon.game", (("n", view.game), ("total", view.games)))]
    captions.append(Caption("backgammon.pips", (("white", view.pips[0]),
                                                ("black", view.pips[1]))))
    if view.cube_in_play:
        captions.append(Caption("backgammon.cube", (("value", view.cube),)))
    if view.crawford:
        captions.append(Caption("backgammon.crawford_game"))
    if view.offered:
        captions.append(Caption("backgammon.double_offered", (("seat", view.turn),)))
    if view.dice:
        captions.append(Caption("backgammon.rolled", (("seat", view.turn),
                                                      ("a", view.dice[0]),
                                                      ("b", view.dice[1]))))
    last = None
    if view.results:
        x = view.results[-1]
        last = Caption("backgammon.won_game", (("seat", x.winner), ("points", x.points),
                                               ("kind", KIND_KEYS[x.kind])))
    return Common(seat=view.seat, to_act=view.to_act, hand=(), hand_counts=(), teams=(0, 1),
                  scores=view.scores, phase=view.phase, last=last, captions=tuple(captions))
