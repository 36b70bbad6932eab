"""A small driver for Mastermind scenario tests: codes written as digits ("1122"; 0 is a
blank), entered peg by peg through the real actions, and codes the host draws pinned by hand
through the real chance step."""

from __future__ import annotations

from typing import Any

from engine.mastermind import GAME
from engine.mastermind.codes import parse
from engine.mastermind.state import SUBMIT, SecretCode, SetPeg
from engine.mastermind.views import MastermindView
from engine.match import Match


def start(**options: Any) -> Match:
    return Match.start(GAME, 2, options, seed=0, resolve=False)


def enter(m: Match, seat: int, code: str, *, submit: bool = True) -> None:
    """Enter ``code`` peg by peg (hole 0 first) and submit it."""
    for hole, colour in enumerate(parse(code)):
        m.act(seat, SetPeg(hole, colour))
    if submit:
        m.act(seat, SUBMIT)


def pin(m: Match, code: str) -> None:
    """The host's draw for the first maker waiting, pinned to ``code``."""
    m.apply_chance(SecretCode(parse(code)))


def view(m: Match, seat: int | None) -> MastermindView:
    v = m.view(seat)
    assert isinstance(v, MastermindView)
    return v


def rows(m: Match, breaker: int) -> list[tuple[str, int, int]]:
    """The breaker's rows in the game in play, as (guess, black, white)."""
    board = next(b for b in view(m, None).boards if b.breaker == breaker)
    return [("".join(map(str, r.guess)), r.black, r.white) for r in board.rows]
