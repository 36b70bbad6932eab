"""What one seat (or a spectator) may know of a Mastermind match, built field by field.

Allowed: the table (holes, colours, toggles, rows), the mode, the game and the makers; every
board's rows (each guess with its black and white pegs: the whole table sees the board); the
guess a breaker is entering (it is entered on the board in front of everyone); the scores
and every finished board's result with its code; the last game's boards with their codes.
A code of the game in play goes only to the seat that made it (none when the computer drew
it), and to everyone once it is broken (it is then the last row's guess anyway). A code being entered goes only to the seat entering it.
Never: another maker's code or entry, a code the host is about to draw, the seed. This
module must never copy the state wholesale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.mastermind.state import BY_PLAYERS, GUESS, SET, Result, RowView, State
from engine.presentation import Caption, Common

__all__ = ["BoardView", "LastGuess", "MastermindView", "ResultView", "RowView", "build_view",
           "common_of"]

if TYPE_CHECKING:
    from engine.mastermind.rules import MastermindGame


@dataclass(frozen=True)
class BoardView:
    """One breaker's board. ``entry`` is the guess being entered (empty holes ``null``; ``()``
    when this breaker is not entering); ``code`` is the secret when this seat may see it, else
    ``()``."""

    breaker: int
    maker: int
    rows: tuple[RowView, ...]
    broken: bool
    entry: tuple[int | None, ...]
    code: tuple[int, ...]


@dataclass(frozen=True)
class ResultView:
    """A finished board: ``scorer`` got ``points`` for it (classic: the maker; duel: the
    breaker who alone broke the other's code, 1 point)."""

    game: int
    maker: int
    breaker: int
    guesses: int
    broken: bool
    code: tuple[int, ...]
    scorer: int
    points: int


@dataclass(frozen=True)
class LastGuess:
    breaker: int
    black: int
    white: int


@dataclass(frozen=True)
class MastermindView:
    seat: int | None
    phase: str  # set, guess, between, over
    mode: str  # classic or duel
    codemaker: str  # players or computer
    holes: int
    colours: int  # pegs are 1..colours, and 0 for a blank when blanks is on
    blanks: bool
    duplicates: bool
    rows: int  # guesses per code
    games: int
    game: int
    makers: tuple[int, ...]  # whose codes are broken in this game
    to_act: tuple[int, ...]
    entry: tuple[int | None, ...]  # this seat's code or guess being entered; () if none
    my_code: tuple[int, ...]  # the code this seat made for the game in play; () if none
    boards: tuple[BoardView, ...]  # the game in play, one per breaker
    previous: tuple[BoardView, ...]  # the last finished game's boards, codes shown
    results: tuple[ResultView, ...]  # every finished board, in order
    scores: tuple[int, ...]
    last: LastGuess | None  # the latest guess scored (it may have ended the last game)


def _result(r: Result) -> ResultView:
    return ResultView(r.game, r.maker, r.breaker, r.guesses, r.broken, r.code, r.scorer,
                      r.points)


def build_view(game: MastermindGame, state: State, seat: int | None) -> MastermindView:
    rules = state.rules
    table = rules.table
    # A maker sees its own code only if it made it: a code the computer drew for a seat
    # (codemaker "computer") is hidden from both, since both only break.
    own = seat if rules.codemaker == BY_PLAYERS else None
    boards = []
    for b in state.boards:
        code = state.codes[b.maker]
        shown = code if code is not None and (b.maker == own or b.broken) else ()
        entering = state.phase == GUESS and state.turn == b.breaker and not state.pending
        boards.append(BoardView(b.breaker, b.maker, b.rows, b.broken,
                                state.drafts[b.breaker] if entering else (), shown))
    finished = {(r.maker, r.breaker): r.code for r in state.results
                if r.game == (state.game if not state.boards else state.game - 1)}
    previous = tuple(BoardView(b.breaker, b.maker, b.rows, b.broken, (),
                               finished.get((b.maker, b.breaker), ()))
                     for b in state.previous)
    to_act = game.to_act(state)
    entry: tuple[int | None, ...] = ()
    my_code: tuple[int, ...] = ()
    if seat is not None:
        if seat in to_act:
            entry = state.drafts[seat]
        mine = (state.codes[seat] if own is not None and seat in rules.makers(state.game)
                and state.boards else None)
        my_code = mine if mine is not None else ()
    last = LastGuess(*state.last) if state.last is not None else None
    return MastermindView(
        seat=seat, phase=state.phase, mode=rules.mode, codemaker=rules.codemaker,
        holes=table.holes, colours=table.colours, blanks=table.blanks,
        duplicates=table.duplicates, rows=rules.rows, games=rules.games, game=state.game,
        makers=rules.makers(state.game) if state.boards else (), to_act=to_act, entry=entry,
        my_code=my_code, boards=tuple(boards), previous=previous,
        results=tuple(_result(r) for r in state.results), scores=state.scores, last=last)


def common_of(view: MastermindView) -> Common:
    """The shared part of a view: no hands; a score per seat (each plays for itself); the
    game, and what this seat is doing in it, as captions; the latest feedback as ``last``."""
    captions = [Caption("mastermind.game", (("n", view.game), ("total", view.games)))]
    if view.seat is not None and view.boards:
        if view.phase == SET and view.seat in view.makers:
            captions.append(Caption("mastermind.set_your_code"))
        elif any(b.breaker == view.seat for b in view.boards):
            captions.append(Caption("mastermind.break_the_code",
                                    (("rows_left", view.rows - next(
                                        len(b.rows) for b in view.boards
                                        if b.breaker == view.seat)),)))
    last = None
    if view.last is not None:
        last = Caption("mastermind.feedback", (("seat", view.last.breaker),
                                               ("black", view.last.black),
                                               ("white", view.last.white)))
    return Common(seat=view.seat, to_act=view.to_act, hand=(), hand_counts=(),
                  teams=(0, 1), scores=view.scores, phase=view.phase, last=last,
                  captions=tuple(captions))
