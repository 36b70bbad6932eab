"""Chess test helpers: a match set up from FEN (the set-up chance step pinned, as a record
would), and moves entered step by step from UCI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.chess import GAME
from engine.chess.state import MoveTo, Pick, Promote, Setup
from engine.match import Match


def from_fen(fen: str, options: Mapping[str, Any] | None = None) -> Match:
    """A match whose starting position is ``fen`` (nothing before it)."""
    m = Match.start(GAME, 2, dict(options or {}), 0, resolve=False)
    m.apply_chance(Setup(fen))
    return m


def steps_of(uci: str) -> list[Any]:
    """The actions that enter the move written ``uci`` ("e2e4", "a7a8q")."""
    out: list[Any] = [Pick(uci[:2]), MoveTo(uci[2:4])]
    if len(uci) == 5:
        out.append(Promote(uci[4]))
    return out


def enter(m: Match, *moves: str) -> None:
    """Enter each move in turn, by the seat to move, one step at a time."""
    for uci in moves:
        for action in steps_of(uci):
            m.act(m.to_act()[0], action)


def targets(m: Match, square: str) -> list[str]:
    """Where the piece on ``square`` may go, read from the legal list after picking it."""
    seat = m.to_act()[0]
    st = GAME.apply(m.state, seat, Pick(square))
    return sorted(a.square for a in GAME.legal_actions(st, seat) if isinstance(a, MoveTo))


def legal_of(m: Match) -> list[Any]:
    return list(m.legal(m.to_act()[0]))
