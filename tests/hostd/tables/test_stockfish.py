"""Stockfish behind the chess levels, against the real engine (.ci/run installs Debian's):
one engine per AI worker, started on the first chess decision, started again when it dies,
silent engines killed, our own search when there is none, and no engine left behind by a
daemon killed with SIGKILL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import chess
import pytest
import trio

from clients.client import connect
from engine import registry
from engine.chess import GAME as CHESS
from engine.chess import ai as chess_ai
from engine.chess.uci import LEVELS
from engine.match import Match
from hostd.control import request
from hostd.tables import stockfish
from hostd.tables.ai import open_ai
from tests.hostd import helpers


@pytest.fixture
def path() -> str:
    found = stockfish.locate({"PATH": os.environ.get("PATH", "")})
    assert found.path is not None, found.why  # the test machines have Debian's stockfish
    return found.path


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent's wait is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def wait_dead(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    left = pids
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [p for p in left if alive(p)]
    return left


def test_locate_prefers_the_switch_then_path_then_usr_games(tmp_path: Path) -> None:
    assert stockfish.locate({stockfish.ENV: "none"}).path is None
    fake = tmp_path / "stockfish"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert stockfish.locate({"PATH": str(tmp_path)}).path == str(fake)
    assert stockfish.locate({stockfish.ENV: str(fake), "PATH": ""}).path == str(fake)
    # Debian puts it in /usr/games, which a service's PATH often lacks.
    assert stockfish.locate({"PATH": str(tmp_path / "empty")}).path in (
        None, *stockfish.PLACES)


def test_the_engine_starts_on_first_use_answers_each_level_and_comes_back_after_a_kill(
        path: str) -> None:
    engine = stockfish.Stockfish(path)
    try:
        assert engine.pid is None  # nothing runs until a decision needs it
        board = chess.Board()
        for settings in LEVELS.values():
            move = engine.bestmove(chess.STARTING_FEN, ["e2e4"], settings, False)
            assert move is not None
            after = board.copy()
            after.push_uci("e2e4")
            assert chess.Move.from_uci(move) in after.legal_moves
        first = engine.pid
        assert first is not None and engine.starts == 1 and engine.name.startswith("Stockfish")
        os.kill(first, signal.SIGKILL)
        assert wait_dead([first]) == []
        move = engine.bestmove(chess.STARTING_FEN, [], LEVELS["normal"], False)
        assert move is not None and chess.Move.from_uci(move) in board.legal_moves
        assert engine.starts == 2 and engine.pid not in (None, first)
    finally:
        engine.kill()
    assert engine.pid is None


def test_a_chess960_position_is_answered_with_a_move_legal_in_it(path: str) -> None:
    fen = chess.Board.from_chess960_pos(0).fen()
    engine = stockfish.Stockfish(path)
    try:
        move = engine.bestmove(fen, [], LEVELS["hard"], True)
        assert move is not None
        assert chess.Move.from_uci(move) in chess.Board(fen, chess960=True).legal_moves
    finally:
        engine.kill()


def test_a_program_that_does_not_answer_is_killed_and_our_search_plays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stockfish, "START_SECONDS", 0.3)
    engine = stockfish.Stockfish("/bin/cat")  # echoes "uci" back, never "uciok"
    try:
        assert engine.bestmove(chess.STARTING_FEN, [], LEVELS["hard"], False) is None
        assert engine.pid is None and engine.starts == 2  # tried again once, at once
        m = Match.start(CHESS, 2, {}, 1)
        hard = chess_ai.players(engine)["hard"]
        action = hard.choose(m.view(0), m.legal(0), random.Random(1))
        assert action in m.legal(0)
        # After three failures in a row it rests instead of starting a process per move.
        engine.bestmove(chess.STARTING_FEN, [], LEVELS["hard"], False)
        starts = engine.starts
        assert engine.bestmove(chess.STARTING_FEN, [], LEVELS["hard"], False) is None
        assert engine.starts == starts
    finally:
        engine.kill()


async def test_a_worker_process_plays_chess_on_stockfish_started_lazily(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(stockfish.ENV, raising=False)
    monkeypatch.setitem(registry.GAME_MODULES, "chess", "engine.chess")
    m = Match.start(registry.get("chess"), 2, {}, 5)
    async with open_ai(1) as ai:
        before = await ai.run(stockfish.status)
        assert before["backend"] == "stockfish" and before["pid"] is None
        action = await ai.decide("chess", "hard", m.view(0), m.legal(0), random.Random(3))
        assert action in m.legal(0) and ai.fallbacks == 0
        after = await ai.run(stockfish.status)
        assert after["pid"] is not None and alive(after["pid"])
        # The worker is the engine's parent (not the daemon): it goes when the worker goes.
        ppid = int(Path(f"/proc/{after['pid']}/stat").read_text().rsplit(")", 1)[1].split()[1])
        assert ppid != os.getpid() and ppid in descendants(os.getpid())
    assert wait_dead([after["pid"]]) == []


async def test_without_stockfish_a_worker_plays_every_level_on_our_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(stockfish.ENV, "none")  # the workers inherit the environment
    monkeypatch.setitem(registry.GAME_MODULES, "chess", "engine.chess")
    m = Match.start(registry.get("chess"), 2, {}, 6)
    async with open_ai(1) as ai:
        assert await ai.run(stockfish.status) == {"backend": "own"}
        for level in ("easy", "normal", "hard"):
            action = await ai.decide("chess", level, m.view(0), m.legal(0),
                                     random.Random(level))
            assert action in m.legal(0)
        assert ai.fallbacks == 0


def descendants(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True,
                         check=False).stdout.split()
    kids = [int(p) for p in out]
    return kids + [g for k in kids for g in descendants(k)]


def is_stockfish(pid: int) -> bool:
    try:
        return "stockfish" in os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return False


def test_no_engine_outlives_a_daemon_killed_with_sigkill(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.delenv(stockfish.ENV, raising=False)
    monkeypatch.setattr(helpers, "LAUNCH", helpers.LAUNCH.replace(
        "registry.GAME_MODULES.setdefault('toy', 'tests.hostd.toy'); ",
        "registry.GAME_MODULES.setdefault('toy', 'tests.hostd.toy'); "
        "registry.GAME_MODULES.setdefault('chess', 'engine.chess'); "))
    tmp = helpers.short_dir()
    d = helpers.start_process(tmp / "data", tmp / "c.sock", "--ai-processes", "1")
    engines: list[int] = []
    try:
        table = request(d.control, "tables.new", game="chess", players=2, ai="hard")

        async def watch_until_the_engine_runs() -> None:
            async with connect(port=d.tcp_port) as c:
                await c.spectate(table["id"])  # an attended table: the computers play
                with trio.fail_after(60):
                    while not engines:
                        await trio.sleep(0.2)
                        engines[:] = [p for p in descendants(d.proc.pid) if is_stockfish(p)]

        trio.run(watch_until_the_engine_runs)
    finally:
        d.kill()
    assert engines, "a worker started Stockfish for the computer's move"
    assert wait_dead(engines) == [], "Stockfish left behind by a killed daemon"
