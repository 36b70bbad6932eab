"""Chess benchmarks: perft through the rules interface, random games per second, and the
computer levels in self-play with their decision times.

Run: ``.venv/bin/python -m bench.chess_ai [--perft 4] [--random 20] [--pairs hard,normal ...]
[--games 200] [--seed 1] [--jobs 2] [--json FILE]``. A level written ``hard@stockfish``
plays with Stockfish behind it (``StockfishProcess`` below, the reference UCI backend a
host's AI worker would hand to ``engine.chess.ai.use_backend``).

- perft: the start position and Kiwipete through python-chess (the counts are checked);
- random: whole random games through the rules interface (step entry, views not built);
- pairs: self-play between two levels, ``--games`` per pairing; each game opens with two
  random plies drawn from the game seed (so games differ), colours alternated (seed ``s``
  puts the first level on white for even ``s``). A game is adjudicated, as engine matches
  do, when one side stays 8 pawn units of material ahead for 10 plies (after ply 20: a
  win) or reaches 400 plies (a draw); the reasons say how many were. Reports wins, draws and losses of the
  first level, its score with a 95% interval (normal approximation), and each level's time
  per whole move (all its steps; wall clock: run it on a quiet machine). Each finished game
  is printed as it ends, so a long run can be read before it is over.

A measurement, not a test: the tests run small versions of it (tests/engine/chess).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import random
import shutil
import statistics
import subprocess
import time
from collections.abc import Sequence
from typing import Any

import chess

from engine.chess import GAME, uci
from engine.chess.ai import OWN, players
from engine.chess.rules import RESIGN
from engine.chess.state import MoveTo, OfferDraw, Pick
from engine.chess.uci import UciSettings
from engine.match import Match

PERFT = {
    chess.STARTING_FEN: (20, 400, 8902, 197281, 4865609),
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1": (48, 2039, 97862,
                                                                           4085603),
}


def perft_board(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += perft_board(board, depth - 1)
        board.pop()
    return n


def perft(depth: int) -> list[dict[str, Any]]:
    out = []
    for fen, counts in PERFT.items():
        d = min(depth, len(counts))
        t = time.perf_counter()
        n = perft_board(chess.Board(fen), d)
        dt = time.perf_counter() - t
        assert n == counts[d - 1], (fen, d, n)
        out.append({"fen": fen, "depth": d, "nodes": n, "seconds": round(dt, 2),
                    "nodes_per_second": round(n / dt)})
    return out


def random_games(games: int) -> dict[str, Any]:
    """Random games through the interface: every step a random legal action but resigning
    and draw offers (so games run to a real end)."""
    t = time.perf_counter()
    steps = 0
    for seed in range(games):
        m = Match.start(GAME, 2, {}, seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            seat = m.to_act()[0]
            legal = [a for a in m.legal(seat) if a != RESIGN and not isinstance(a, OfferDraw)]
            m.act(seat, legal[rng.randrange(len(legal))])
            steps += 1
    dt = time.perf_counter() - t
    return {"games": games, "games_per_second": round(games / dt, 2),
            "steps_per_second": round(steps / dt)}


# -- Stockfish over UCI (the reference backend a host's AI worker would use) ---------------
def find_stockfish() -> str | None:
    """Stockfish on PATH, or where Debian puts it (/usr/games is not on every PATH)."""
    found = shutil.which("stockfish")
    if found:
        return found
    for candidate in ("/usr/games/stockfish", "/usr/bin/stockfish"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


class StockfishProcess:
    """One Stockfish process spoken to over UCI: an ``engine.chess.uci.UciBackend``."""

    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.configured: tuple[UciSettings, bool] | None = None
        self._send("uci")
        self._until("uciok")

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _until(self, word: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            if line.split()[:1] == [word]:
                return line

    def bestmove(self, fen: str, moves: Sequence[str], settings: UciSettings,
                 chess960: bool) -> str | None:
        if self.configured != (settings, chess960):
            for line in uci.setup_lines(settings, chess960):
                self._send(line)
            self._send("isready")
            self._until("readyok")
            self.configured = (settings, chess960)
        for line in uci.go_lines(fen, moves, settings):
            self._send(line)
        return uci.parse_bestmove(self._until("bestmove"))

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._send("quit")
        self.proc.wait(timeout=5)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


_ENGINE: dict[str, Any] = {}


def level_player(name: str) -> Any:
    """``easy``, ``hard``... on our own search; ``hard@stockfish`` with Stockfish behind it
    (one process per worker, started on first use)."""
    level, _, backend = name.partition("@")
    if not backend:
        return OWN[level]
    if "sf" not in _ENGINE:
        path = find_stockfish()
        if path is None:
            raise SystemExit("stockfish not found")
        _ENGINE["sf"] = StockfishProcess(path)
    return players(_ENGINE["sf"])[level]


ADJUDICATE_MATERIAL = 8  # pawn units ahead ...
ADJUDICATE_PLIES = 10  # ... held this many plies in a row (after the first 20) wins
MAX_PLIES = 400  # and a game this long is a draw


def one(args: tuple[str, str, int]) -> dict[str, Any]:
    first, second, seed = args
    levels = (first, second) if seed % 2 == 0 else (second, first)
    m = Match.start(GAME, 2, {}, seed)
    rng = random.Random(f"{seed}:opening")
    for _ in range(2):  # two random plies: every game a different opening (400 of them)
        move = rng.choice(list(m.state.board.legal_moves))
        for action in (Pick(chess.square_name(move.from_square)),
                       MoveTo(chess.square_name(move.to_square))):
            m.act(m.to_act()[0], action)
    bots = [level_player(lv) for lv in levels]
    rngs = [random.Random(f"{seed}:ai:{s}") for s in range(2)]
    move_times: dict[str, list[float]] = {first: [], second: []}
    current = 0.0
    ahead = 0
    adjudicated = ""
    winner = -1
    while m.outcome() is None:
        seat = m.to_act()[0]
        t = time.perf_counter()
        action = bots[seat].choose(m.view(seat), m.legal(seat), rngs[seat])
        current += time.perf_counter() - t
        before = len(m.state.sans)
        m.act(seat, action)
        if len(m.state.sans) != before or m.outcome() is not None:
            move_times[levels[seat]].append(current)
            current = 0.0
            plies = len(m.state.sans)
            white, black = m.view(None).material
            lead = white - black
            side = 0 if lead > 0 else 1
            if plies > 20 and abs(lead) >= ADJUDICATE_MATERIAL and (ahead == 0 or
                                                                   (ahead > 0) == (side == 0)):
                ahead += 1 if side == 0 else -1
            else:
                ahead = 0
            if m.outcome() is None and abs(ahead) >= ADJUDICATE_PLIES:
                adjudicated, winner = "adjudicated_material", side
                break
            if m.outcome() is None and plies >= MAX_PLIES:
                adjudicated = "adjudicated_length"
                break
    o = m.outcome()
    if adjudicated:
        reason = adjudicated
        result = "draw" if winner < 0 else ("win" if levels[winner] == first else "loss")
    else:
        assert o is not None
        reason = o.reason
        result = "draw" if o.draw else ("win" if levels[o.winners[0]] == first else "loss")
    return {"seed": seed, "result": result, "reason": reason, "plies": len(m.state.sans),
            "move_times": move_times}


def summary(times: list[float]) -> dict[str, Any]:
    if not times:
        return {}
    times = sorted(times)
    return {"n": len(times), "median_ms": round(statistics.median(times) * 1000, 1),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1000, 1),
            "max_ms": round(times[-1] * 1000, 1)}


def score_interval(win: int, draw: int, loss: int) -> tuple[float, float, float]:
    n = win + draw + loss
    points = [1.0] * win + [0.5] * draw + [0.0] * loss
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return round(mean, 3), round(max(0.0, mean - half), 3), round(min(1.0, mean + half), 3)


def pairing(first: str, second: str, games: int, seed: int, jobs: int) -> dict[str, Any]:
    args = [(first, second, seed + i) for i in range(games)]
    t = time.perf_counter()
    tally = {"win": 0, "draw": 0, "loss": 0}
    moves: dict[str, list[float]] = {first: [], second: []}
    reasons: dict[str, int] = {}
    with multiprocessing.Pool(jobs) as pool:
        for r in pool.imap_unordered(one, args):
            tally[r["result"]] += 1
            reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
            for lvl in (first, second):
                moves[lvl] += r["move_times"][lvl]
            print(json.dumps({"pair": [first, second], "seed": r["seed"],
                              "result": r["result"], "reason": r["reason"],
                              "plies": r["plies"], **tally}), flush=True)
    mean, lo, hi = score_interval(tally["win"], tally["draw"], tally["loss"])
    return {"pair": [first, second], "games": games, "seed": seed, **tally,
            "first_score": mean, "first_score_95": [lo, hi], "reasons": reasons,
            "seconds": round(time.perf_counter() - t, 1),
            "move_time": {lvl: summary(moves[lvl]) for lvl in (first, second)}}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="bench.chess_ai")
    p.add_argument("--perft", type=int, default=4, help="perft depth (start up to 5)")
    p.add_argument("--random", type=int, default=20, help="random games")
    p.add_argument("--pairs", nargs="*", default=["easy,random", "normal,easy", "hard,normal"])
    p.add_argument("--games", type=int, default=4, help="games per pairing (200 to measure)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--json", help="also write the results here")
    a = p.parse_args(argv)
    out: dict[str, Any] = {"perft": perft(a.perft), "random": random_games(a.random)}
    print(json.dumps({"perft": out["perft"], "random": out["random"]}, indent=1), flush=True)
    out["pairs"] = []
    for pair in a.pairs:
        first, second = pair.split(",")
        r = pairing(first, second, a.games, a.seed, a.jobs)
        out["pairs"].append(r)
        print(json.dumps(r), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
