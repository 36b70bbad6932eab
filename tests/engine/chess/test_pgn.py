"""PGN export: every game, next to the generic record, reads back through python-chess's own
PGN reader to the same moves, result and tags, from the usual start, a pinned FEN and a
Chess960 position."""

from __future__ import annotations

import io

import chess
import chess.pgn

from engine.chess import GAME
from engine.chess.pgn import export, result_text
from engine.chess.state import HOST, Clock, Resign
from engine.match import Match
from tests.engine.chess.scenario import enter, from_fen
from tests.engine.chess.test_conformance import random_move_game


def read(text: str) -> chess.pgn.Game:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors, game.errors if game else None
    return game


def test_a_whole_game_round_trips_with_castling_en_passant_and_promotion() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "e2e4", "g8f6", "e4e5", "d7d5", "e5d6", "e7d6", "g1f3", "f8e7", "f1e2", "e8g8",
          "e1g1", "b8c6", "d2d4", "c8g4", "c2c4", "a7a6", "c4c5", "b7b5", "c5b6", "c6b4",
          "b6b7", "d8c8", "b7c8n")
    text = export(m.state, ("Ann", "Bob"), event="Café", date="2026.12.03")
    game = read(text)
    assert [mv.uci() for mv in game.mainline_moves()] == [mv.uci() for mv in
                                                         m.state.board.move_stack]
    assert game.end().board().fen() == m.view(None).fen
    h = game.headers
    assert (h["White"], h["Black"], h["Event"], h["Date"], h["Result"]) == (
        "Ann", "Bob", "Café", "2026.12.03", "*")
    assert "exd6" in text and "O-O" in text and "bxc8=N" in text


def test_results_and_terminations() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "f2f3", "e7e5", "g2g4", "d8h4")
    game = read(export(m.state))
    assert game.headers["Result"] == "0-1" == result_text(m.state)
    assert game.headers["Termination"] == "normal"
    assert game.end().board().is_checkmate()
    m = from_fen(chess.STARTING_FEN, {"clock": "5+3"})
    enter(m, "e2e4")
    m.act(HOST, Clock(301_000))
    game = read(export(m.state))
    assert (game.headers["Result"], game.headers["Termination"],
            game.headers["TimeControl"]) == ("0-1", "time forfeit", "300+3")
    m = from_fen(chess.STARTING_FEN)
    m.act(0, Resign())
    assert read(export(m.state)).headers["Result"] == "0-1"


def test_a_draw_from_a_pinned_position_carries_its_fen() -> None:
    fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"
    m = from_fen(fen)
    enter(m, "f1f7")
    game = read(export(m.state))
    assert game.headers["FEN"] == fen and game.headers["SetUp"] == "1"
    assert game.headers["Result"] == "1/2-1/2" and game.end().board().is_stalemate()


def test_chess960_games_round_trip() -> None:
    m = Match.start(GAME, 2, {"chess960": True, "chess960_position": 0}, 0)
    enter(m, "e1f3", "e8f6", "g2g3", "g7g6", "b2b3")
    game = read(export(m.state))
    assert game.headers["Variant"] == "Chess960"
    assert game.board().chess960_pos() == 0
    assert [mv.uci() for mv in game.mainline_moves()] == list(m.view(None).moves)


def test_random_games_round_trip() -> None:
    for seed in range(3):
        m = random_move_game(seed, {} if seed % 2 else {"chess960": True})
        game = read(export(m.state))
        assert [mv.uci() for mv in game.mainline_moves()] == list(m.view(None).moves)
        assert game.headers["Result"] == result_text(m.state) != "*"
