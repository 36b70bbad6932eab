"""Checkers test helpers: a match set up from PDN FEN, and moves entered step by step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.checkers import GAME
from engine.checkers import board as bd
from engine.checkers.state import MoveTo, Pick
from engine.match import Match


def from_fen(fen: str, options: Mapping[str, Any] | None = None, *, quiet: int = 0) -> Match:
    """A match whose position is ``fen`` (nothing before it), ``quiet`` moves without progress."""
    m = Match.start(GAME, 2, options or {}, 0)
    dark, light, kings, side = bd.parse_fen(fen)
    m.state = m.state._replace(dark=dark, light=light, kings=kings, side=side, quiet=quiet,
                               history=(bd.key(dark, light, kings, side),))
    return m


def steps_of(text: str) -> list[Any]:
    """The actions that enter the move written ``text`` ("11-15", "15x24x31")."""
    squares = [int(s) for s in text.replace("x", "-").split("-")]
    return [Pick(squares[0]), *(MoveTo(s) for s in squares[1:])]


def enter(m: Match, *moves: str) -> None:
    """Enter each move in turn, by the seat to move, one step at a time."""
    for text in moves:
        for action in steps_of(text):
            m.act(m.to_act()[0], action)


def legal_moves_text(m: Match) -> list[str]:
    """The complete legal moves of the side to move, in notation, sorted."""
    s = m.state
    own, opp = (s.dark, s.light) if s.side == 0 else (s.light, s.dark)
    return sorted(bd.notation(mv) for mv in bd.moves(own, opp, s.kings, s.side))
