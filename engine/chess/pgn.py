"""PGN export of a chess game (python-chess's writer), next to the generic record.

It owns the seven-tag roster and the result; the moves come from the state's board. It must
never do I/O: it returns text, and the caller writes it.
"""

from __future__ import annotations

from collections.abc import Sequence

import chess
import chess.pgn

from engine.chess.state import State


def result_text(state: State) -> str:
    r = state.result
    if r is None:
        return "*"
    if r.draw:
        return "1/2-1/2"
    return "1-0" if r.winners == (0,) else "0-1"


def export(state: State, names: Sequence[str] = ("White", "Black"), *, event: str = "?",
           site: str = "?", date: str = "????.??.??", round_: str = "-") -> str:
    """The game as PGN text (a start from another position gets FEN and SetUp tags)."""
    game = chess.pgn.Game.from_board(state.board)
    game.headers["Event"] = event
    game.headers["Site"] = site
    game.headers["Date"] = date
    game.headers["Round"] = round_
    game.headers["White"] = names[0]
    game.headers["Black"] = names[1]
    game.headers["Result"] = result_text(state)
    if state.termination:
        game.headers["Termination"] = state.termination
    if state.control != "none":
        minutes, inc = state.control.split("+")
        game.headers["TimeControl"] = f"{int(minutes) * 60}+{inc}"
    return str(game) + "\n"
