"""Checkers' plain data: phases, the actions and the chance step, and the state tuple.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``) so
that none imports another for its data. It owns no behaviour; it must never import the
rules, the views or the players.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from engine.game import Outcome

# Phases.
BALLOT = "ballot"  # the three-move ballot is to be drawn (a chance step) before play
PLAY = "play"
OVER = "over"

# Draw-rule modes (option ``draw_rules``).
AUTOMATIC = "automatic"
CLAIM = "claim"

# What a claim rests on (``ClaimDraw.reason``).
REPETITION = "repetition"
FORTY_MOVES = "forty_moves"

# Single moves (both sides together) without a man's move or a capture: 40 each.
FORTY = 80
# With claims, the box still ends a game nobody claims (so a table never stalls): at the
# fifth occurrence of a position, or after twice the forty moves without progress.
SAFETY_REPEATS = 5
SAFETY_QUIET = 2 * FORTY


# -- actions and chance ---------------------------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """Take up the piece on ``square`` (1-32) to move it. Until it has landed once, another
    of one's movable pieces may be picked instead."""

    square: int


@dataclass(frozen=True)
class MoveTo:
    """Move the picked piece to ``square`` (1-32): a plain move's square, or the next landing
    of a jump chain. The move is made when its path is complete."""

    square: int


@dataclass(frozen=True)
class ClaimDraw:
    """Claim a draw on ``reason`` ("repetition" or "forty_moves"); offered only when valid."""

    reason: str


@dataclass(frozen=True)
class Ballot:
    """The chance step of a ballot game: ACF opening ``number``, whose three moves are made."""

    number: int


class LastMove(NamedTuple):
    seat: int
    path: tuple[int, ...]  # square indices, origin first
    captured: int  # mask


class State(NamedTuple):
    draw_rules: str  # option: automatic or claim
    ballot_option: bool  # option: open with a drawn three-move ballot
    ballot_number: int | None  # option: that ballot rather than a drawn one
    seed: int
    phase: str
    dark: int  # masks, bit i = square i + 1
    light: int
    kings: int
    side: int  # the seat to move: 0 dark, 1 light
    picked: int  # the square index of the picked piece, -1 when none
    path: tuple[int, ...]  # landings of the move being entered, after the pick
    quiet: int  # single moves since the last man's move or capture
    history: tuple[int, ...]  # position keys since then, oldest first, the current one last
    moves: int  # complete moves made (the ballot's included)
    captures: tuple[int, int]  # pieces each seat has taken
    last: LastMove | None
    ballot: int  # the ACF number played, 0 for none
    result: Outcome | None
