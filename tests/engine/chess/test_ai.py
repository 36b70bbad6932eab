"""Chess's computer players: each level answers the step asked for with a legal action,
finishes a half-entered move, is reproducible from its generator, sees what its level should
(mate in one for every searcher, a queen sacrifice that mates in two for hard only), weighs
offers and claims, and plays Stockfish when a backend is handed to it, falling back to its
own search when that engine dies. Strength figures over 200 games per pairing are
bench/chess_ai.py's (docs/rules/chess.md); here a small smoke of the order.
"""

from __future__ import annotations

import random

import chess
import pytest

from engine.chess import GAME, PLAYERS
from engine.chess import ai as chess_ai
from engine.chess.ai import EnginePlayer, HardPlayer, NormalPlayer, board_of, players
from engine.chess.state import AcceptDraw, ClaimDraw, MoveTo, OfferDraw, Pick, Promote
from engine.chess.uci import LEVELS, go_lines, parse_bestmove, setup_lines
from engine.match import Match
from hostd.tables.stockfish import Stockfish, locate
from tests.engine.chess.scenario import enter, from_fen

LEVEL_NAMES = ("random", "easy", "normal", "hard")
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"  # Ra8#
MATE_IN_TWO = "r5k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1"  # Qb8+ Rxb8 Rxb8#
STOCKFISH = locate().path  # the test machines have Debian's stockfish (.ci/run)


def whole_move(player: object, m: Match, seed: int) -> str:
    """Let ``player`` enter one whole move on ``m``; return it in UCI."""
    before = len(m.state.sans)
    rng = random.Random(seed)
    while len(m.state.sans) == before and m.outcome() is None:
        seat = m.to_act()[0]
        action = player.choose(m.view(seat), m.legal(seat), rng)  # type: ignore[attr-defined]
        assert action in m.legal(seat)
        m.act(seat, action)
    return m.view(None).moves[-1]


def test_every_level_is_there() -> None:
    assert tuple(PLAYERS) == LEVEL_NAMES
    assert all(PLAYERS[lv].level == lv for lv in LEVEL_NAMES)


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_legal_and_reproducible(level: str) -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    first = whole_move(PLAYERS[level], from_fen(fen), 3)
    PLAYERS[level]._memo.clear()
    assert whole_move(PLAYERS[level], from_fen(fen), 3) == first


@pytest.mark.parametrize("level", LEVEL_NAMES[1:])
def test_finishes_a_half_entered_move_and_promotes(level: str) -> None:
    m = from_fen("4k3/1P6/8/8/8/8/6PP/4K3 w - - 0 1")
    m.act(0, Pick("b7"))
    m.act(0, MoveTo("b8"))
    action = PLAYERS[level].choose(m.view(0), m.legal(0), random.Random(1))
    assert isinstance(action, Promote)
    m = from_fen(chess.STARTING_FEN)
    m.act(0, Pick("g1"))  # someone picked the knight, then left the seat to the computer
    action = PLAYERS[level].choose(m.view(0), m.legal(0), random.Random(1))
    assert action in (MoveTo("f3"), MoveTo("h3"))


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_searchers_mate_in_one(level: str) -> None:
    for seed in range(3):
        m = from_fen(MATE_IN_ONE)
        assert whole_move(PLAYERS[level], m, seed) == "a1a8"


def test_only_hard_sees_the_queen_sacrifice_that_mates_in_two() -> None:
    for seed in range(3):
        assert whole_move(PLAYERS["hard"], from_fen(MATE_IN_TWO), seed) == "b2b8"
    assert {whole_move(PLAYERS["normal"], from_fen(MATE_IN_TWO), s) for s in range(3)} \
        != {"b2b8"}


def test_hard_saves_its_attacked_queen() -> None:
    m = from_fen("rnb1kbnr/pppp1ppp/8/4p3/3qP3/2P5/PP1P1PPP/RNBQKBNR b KQkq - 0 1")
    move = whole_move(PLAYERS["hard"], m, 0)
    assert move.startswith("d4") and m.view(None).material[1] == 39


def test_accepts_a_draw_when_lost_and_moves_on_when_winning() -> None:
    m = from_fen("4k3/8/8/8/8/8/3q4/6K1 b - - 0 1")
    m.act(1, OfferDraw())
    enter(m, "d2d3")
    assert AcceptDraw() in m.legal(0)
    assert PLAYERS["hard"].choose(m.view(0), m.legal(0), random.Random(0)) == AcceptDraw()
    m = from_fen("4k3/8/8/8/8/8/3Q4/6K1 b - - 0 1")
    m.act(1, OfferDraw())
    enter(m, "e8f7")
    choice = PLAYERS["hard"].choose(m.view(0), m.legal(0), random.Random(0))
    assert isinstance(choice, Pick)
    assert PLAYERS["easy"].choose(m.view(0), m.legal(0), random.Random(0)) != AcceptDraw()


def test_claims_threefold_when_not_ahead() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8")
    assert PLAYERS["normal"].choose(m.view(0), m.legal(0), random.Random(0)) == ClaimDraw(
        "threefold")


def test_normal_beats_random_smoke() -> None:
    """Two games, a colour each: normal mates random, or is a queen up by ply 120."""
    for i in range(2):
        bots = (PLAYERS["normal"], PLAYERS["random"]) if i == 0 else (PLAYERS["random"],
                                                                     PLAYERS["normal"])
        me = i
        m = Match.start(GAME, 2, {}, 50 + i)
        rngs = [random.Random(i), random.Random(i + 10)]
        while m.outcome() is None and len(m.state.sans) < 120:
            seat = m.to_act()[0]
            m.act(seat, bots[seat].choose(m.view(seat), m.legal(seat), rngs[seat]))
        o = m.outcome()
        material = m.view(None).material
        assert (o is not None and o.winners == (me,)) or (
            o is None and material[me] - material[1 - me] >= 9), (o, material)


def test_the_engine_protocol_lines() -> None:
    s = LEVELS["hard"]
    assert setup_lines(s, False)[-1] == "setoption name UCI_Elo value 2000"
    assert "setoption name UCI_Chess960 value true" in setup_lines(s, True)
    assert go_lines("startfen", ["e2e4"], s) == ["position fen startfen moves e2e4",
                                                 f"go nodes {s.nodes}"]
    assert parse_bestmove("bestmove e2e4 ponder e7e5") == "e2e4"
    assert parse_bestmove("bestmove (none)") is None and parse_bestmove("info depth 3") is None
    assert players(None)["hard"] is chess_ai.OWN["hard"]


def test_stockfish_plays_the_levels_and_a_dead_engine_falls_back() -> None:
    assert STOCKFISH is not None
    sf = Stockfish(STOCKFISH)
    try:
        levels = players(sf)
        assert isinstance(levels["hard"], EnginePlayer) and levels["easy"] is chess_ai.OWN["easy"]
        assert whole_move(levels["hard"], from_fen(MATE_IN_TWO), 0) == "b2b8"
        m = Match.start(GAME, 2, {"chess960": True, "chess960_position": 0}, 0)
        for _ in range(6):  # Chess960 castling is spoken king-takes-rook both ways
            whole_move(levels["normal"], m, 0)
    finally:
        sf.kill()
    # The engine is gone for good (it cannot be started again): the level plays on its own
    # search instead of failing.
    sf.path = "/nonexistent/stockfish"
    hard = players(sf)["hard"]
    assert whole_move(hard, from_fen(MATE_IN_ONE), 0) == "a1a8"


def test_use_backend_swaps_the_levels_in_place() -> None:
    before = dict(PLAYERS)
    try:
        light = HardPlayer(nodes=100)
        chess_ai.OWN["hard"], saved = light, chess_ai.OWN["hard"]
        assert chess_ai.use_backend(None) == "own" and PLAYERS["hard"] is light
    finally:
        chess_ai.OWN["hard"] = saved
        PLAYERS.clear()
        PLAYERS.update(before)


@pytest.mark.parametrize("player", [NormalPlayer(nodes=300), HardPlayer(nodes=300)],
                         ids=["normal", "hard"])
def test_a_search_cut_short_leaves_the_board_as_it_was(player: object) -> None:
    """A budget that runs out mid-search once left moves pushed on the board, and normal's
    retry one ply shallower then crashed on a move of another position (bench found it)."""
    m = from_fen("r1b1r1k1/p1p2pqp/2p4n/4N1P1/3QP3/2P1B2P/P1P3P1/R4RK1 b - - 0 1")
    board = board_of(m.view(1))
    moves = list(board.legal_moves)
    move = player.decide(board, moves, random.Random(0))  # type: ignore[attr-defined]
    assert move in moves and board.move_stack == [] and board.fen() == m.view(1).fen
