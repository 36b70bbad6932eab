"""A small driver for backgammon scenarios: positions pinned by hand (seat 0's numbering,
as ``{point: count}``, negative for seat 1), dice pinned through the real chance step."""

from __future__ import annotations

from typing import Any

from engine.backgammon import GAME
from engine.backgammon.state import MOVE, Dice, Move, State
from engine.match import Match


def start(**options: Any) -> Match:
    return Match.start(GAME, 2, options, seed=0, resolve=False)


def place(m: Match, points: dict[int, int], *, bar: tuple[int, int] = (0, 0),
          off: tuple[int, int] | None = None, turn: int = 0, **fields: Any) -> None:
    """Put the match in seat ``turn``'s roll with the given position (counts not on the
    board are borne off unless ``off`` says otherwise)."""
    board = tuple(points.get(p, 0) for p in range(1, 25))
    on0 = sum(c for c in board if c > 0) + bar[0]
    on1 = -sum(c for c in board if c < 0) + bar[1]
    off = off if off is not None else (15 - on0, 15 - on1)
    st: State = m.state
    m.state = st._replace(board=board, bar=bar, off=off, turn=turn, phase="roll",
                          start=(board, bar, off), **fields)


def roll(m: Match, a: int, b: int) -> None:
    m.apply_chance(Dice(a, b))
    assert m.state.phase == MOVE


def steps(m: Match) -> set[tuple[int, int, int]]:
    seat = m.to_act()[0]
    return {(x.src, x.dst, x.die) for x in m.legal(seat) if isinstance(x, Move)}


def play(m: Match, *moves: tuple[int, int, int]) -> None:
    seat = m.to_act()[0]
    for s, d, die in moves:
        m.act(seat, Move(s, d, die))
