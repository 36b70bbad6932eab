"""Mastermind's plain data: the phases, the table's rules, the actions, the chance outcome
and the state tuple.

Shared by the rules (``rules.py``), the views (``views.py``) and the players (``ai.py``) so
that none imports another for its data. Owns no behaviour beyond reading options into
``Rules``; it must never import the rules or the views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine.mastermind.codes import Code, Table

# Phases.
SET = "set"  # codemakers set their codes (or wait for the host to draw them)
GUESS = "guess"  # breakers guess
BETWEEN = "between"  # a game is scored; the host draws the next codes (computer codemaker)
OVER = "over"

CLASSIC, DUEL = "classic", "duel"
BY_PLAYERS, BY_COMPUTER = "players", "computer"

Draft = tuple[int | None, ...]  # a code being entered: None for an empty hole


@dataclass(frozen=True)
class Rules:
    """The checked options of one table, in the form the rules use."""

    table: Table
    rows: int
    mode: str  # classic or duel
    games: int  # games (classic) or rounds (duel) in the match
    codemaker: str  # players (each maker sets a code) or computer (the host draws every code)

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Rules:
        return cls(
            table=Table(int(options.get("holes", 4)), int(options.get("colours", 6)),
                        bool(options.get("blanks", False)), bool(options.get("duplicates", True))),
            rows=int(options.get("rows", 10)),
            mode=str(options.get("mode", CLASSIC)),
            games=int(options.get("games", 2)),
            codemaker=str(options.get("codemaker", BY_PLAYERS)),
        )

    def makers(self, game: int) -> tuple[int, ...]:
        """The seats whose codes are broken in game ``game`` (1-based). Classic: seat 1 makes
        the first code, so seat 0 (the first to sit down) breaks first; they alternate."""
        if self.mode == DUEL:
            return (0, 1)
        return (game % 2,)


# -- actions and chance ---------------------------------------------------------------------
@dataclass(frozen=True)
class SetPeg:
    """Put ``colour`` (1..colours, or 0 for a blank) in hole ``hole`` (0-based) of the code
    or guess being entered, replacing what was there."""

    hole: int
    colour: int


@dataclass(frozen=True)
class ClearPeg:
    """Take the peg out of hole ``hole``: the undo of the entry, until it is submitted."""

    hole: int


@dataclass(frozen=True)
class Submit:
    """Make the entry binding: the code is set, or the guess is scored."""


@dataclass(frozen=True)
class DrawCode:
    """A codemaker asks the host to draw its code at random (a hidden chance step). Computer
    codemakers always do; a person may, instead of entering a code."""


@dataclass(frozen=True)
class SecretCode:
    """Chance: the code the host drew for the first seat waiting for one."""

    pegs: tuple[int, ...]


SUBMIT = Submit()
DRAW = DrawCode()


@dataclass(frozen=True)
class RowView:
    """A scored guess, as views show it: held in the state in this form so that every view
    of every seat shares the same row objects (rows are public and never change)."""

    guess: tuple[int, ...]
    black: int
    white: int


class Board(NamedTuple):
    """One breaker's rows against one maker's code in the game in play."""

    breaker: int
    maker: int
    rows: tuple[RowView, ...]  # oldest first
    broken: bool


class Result(NamedTuple):
    """A finished board: who broke whose code, in how many guesses, and the points given."""

    game: int
    maker: int
    breaker: int
    guesses: int
    broken: bool
    code: Code
    scorer: int  # the seat the points went to
    points: int


class State(NamedTuple):
    rules: Rules
    seed: int
    chances: int  # chance steps (drawn codes) applied so far
    game: int  # 1-based game (classic) or round (duel)
    phase: str
    codes: tuple[Code | None, ...]  # by maker seat: the code set for this game, else None
    drafts: tuple[Draft, ...]  # by seat: the code or guess being entered
    pending: tuple[int, ...]  # makers whose code the host is to draw, in order
    boards: tuple[Board, ...]  # this game's, one per breaker
    turn: int  # the breaker to guess (phase GUESS)
    scores: tuple[int, ...]
    results: tuple[Result, ...]  # every finished board, in order
    previous: tuple[Board, ...]  # the last finished game's boards (shown with their codes)
    last: tuple[int, int, int] | None  # (breaker, black, white) of the latest guess scored
