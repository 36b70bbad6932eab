"""Chess benchmarks: perft through the rules interface, random games per second, and the
computer levels in self-play with their decision times.

Run: ``.venv/bin/python -m bench.chess_ai [--perft 4] [--random 20] [--pairs hard,normal ...]
[--games 200] [--seed 1] [--jobs 2] [--json FILE]``. A level written ``hard@stockfish``
plays with Stockfish behind it (``hostd.tables.stockfish.Stockfish``, the backend the host's
AI workers hand to ``engine.chess.ai.use_backend``).

- perft: the start position and Kiwipete through python-chess (the counts are checked);
- random: whole random games through the rules interface (step entry, views not built);
- pairs: self-play between two levels, ``--games`` per pairing; each game opens with two
  random plies drawn from the game seed (so games differ), colours alternated (seed ``s``
  puts the first level on white for even ``s``). A game is adjudicated, as engine matches
  do, when one side stays 8 pawn units of material ahead for 10 plies (after ply 20: a
  win) or the game reaches ``--max-plies`` (400: a win for a side 3 pawn units ahead, else
  a draw); the reasons say how many were. Reports wins, draws and losses of the
  first level, its score with a 95% interval (Wilson's), and each level's time
  per whole move (all its steps; wall clock: run it on a quiet machine). Each finished game
  is printed as it ends, so a long run can be read before it is over; ``--minutes`` stops a
  pairing after that long and reports the games finished;
- decisions (``--decisions N --levels hard,hard@stockfish``): each level's whole-move
  decision on the same N middle-game positions, wall and CPU time (ours plus the engine's):
  the CPU figure is what a busy machine does not inflate.

A measurement, not a test: the tests run small versions of it (tests/engine/chess).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import time
from typing import Any

import chess

from engine.chess import GAME
from engine.chess.ai import OWN, players
from engine.chess.rules import RESIGN
from engine.chess.state import MoveTo, OfferDraw, Pick
from engine.match import Match
from hostd.tables import stockfish

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


_ENGINE: dict[str, Any] = {}


def level_player(name: str) -> Any:
    """``easy``, ``hard``... on our own search; ``hard@stockfish`` with Stockfish behind it
    (one process per worker, started on first use)."""
    level, _, backend = name.partition("@")
    if not backend:
        return OWN[level]
    if "sf" not in _ENGINE:
        found = stockfish.locate()
        if found.path is None:
            raise SystemExit(found.why)
        _ENGINE["sf"] = stockfish.Stockfish(found.path)
    return players(_ENGINE["sf"])[level]


ADJUDICATE_MATERIAL = 8  # pawn units ahead ...
ADJUDICATE_PLIES = 10  # ... held this many plies in a row (after the first 20) wins
MAX_PLIES = 400  # and a game this long ends (``--max-plies``) ...
CAP_MATERIAL = 3  # ... won by a side this many pawn units ahead, else drawn


def one(args: tuple[str, str, int, int]) -> dict[str, Any]:
    first, second, seed, max_plies = args
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
            if m.outcome() is None and plies >= max_plies:
                adjudicated = "adjudicated_length"
                if abs(lead) >= CAP_MATERIAL:
                    winner = side
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
    """The first level's score (a draw is half a point) and its 95% Wilson interval: unlike
    the normal approximation it does not shrink to nothing when every game ends alike
    (200 wins of 200 give [0.981, 1.0], not [1.0, 1.0])."""
    n = win + draw + loss
    p = (win + draw / 2) / n
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return round(p, 3), round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3)


def pairing(first: str, second: str, games: int, seed: int, jobs: int,
            max_plies: int = MAX_PLIES, minutes: float | None = None) -> dict[str, Any]:
    """``games`` games, or those finished within ``minutes`` (the rest are not started)."""
    args = [(first, second, seed + i, max_plies) for i in range(games)]
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
            if minutes is not None and time.perf_counter() - t > minutes * 60:
                break  # leaving the pool's block stops the games still being played
    played = sum(tally.values())
    mean, lo, hi = score_interval(tally["win"], tally["draw"], tally["loss"])
    return {"pair": [first, second], "games": played, "seed": seed, **tally,
            "first_score": mean, "first_score_95": [lo, hi], "reasons": reasons,
            "seconds": round(time.perf_counter() - t, 1),
            "move_time": {lvl: summary(moves[lvl]) for lvl in (first, second)}}


def cpu_seconds(pid: int | None) -> float:
    """User + system CPU seconds of process ``pid`` so far (0 without one)."""
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def positions(count: int, seed: int) -> list[Match]:
    """Middle-game positions to decide in: easy against itself for 10 to 80 plies."""
    out = []
    for i in range(count):
        rng = random.Random(f"{seed}:{i}:positions")
        m = Match.start(GAME, 2, {}, seed + i)
        for _ in range(rng.randrange(10, 80)):
            if m.outcome() is not None:
                break
            seat = m.to_act()[0]
            m.act(seat, OWN["easy"].choose(m.view(seat), m.legal(seat), rng))
        if m.outcome() is None and m.state.picked < 0 and m.state.target < 0:
            out.append(m)
    return out


def decision_cost(levels: list[str], count: int, seed: int) -> dict[str, Any]:
    """Each level's whole-move decision (the pick, where the move is chosen) on the same
    positions: wall time, and CPU time of this process plus the engine's, which a busy
    machine does not inflate as it does the wall clock."""
    found = positions(count, seed)
    out: dict[str, Any] = {"positions": len(found)}
    for name in levels:
        player = level_player(name)
        engine = _ENGINE.get("sf")
        wall: list[float] = []
        cpu: list[float] = []
        for i, m in enumerate(found):
            seat = m.to_act()[0]
            w, c = time.perf_counter(), time.process_time()
            e = cpu_seconds(engine.pid if engine is not None and "@" in name else None)
            player.choose(m.view(seat), m.legal(seat), random.Random(i))
            e = cpu_seconds(engine.pid if engine is not None and "@" in name else None) - e
            wall.append(time.perf_counter() - w)
            cpu.append(time.process_time() - c + e)
        out[name] = {"wall": summary(wall), "cpu": summary(cpu)}
        print(json.dumps({name: out[name]}), flush=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="bench.chess_ai")
    p.add_argument("--perft", type=int, default=4, help="perft depth (start up to 5)")
    p.add_argument("--random", type=int, default=20, help="random games")
    p.add_argument("--pairs", nargs="*", default=["easy,random", "normal,easy", "hard,normal"])
    p.add_argument("--games", type=int, default=4, help="games per pairing (200 to measure)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--max-plies", type=int, default=MAX_PLIES,
                   help=f"end a game here: a win {CAP_MATERIAL}+ pawn units ahead, else a draw")
    p.add_argument("--minutes", type=float, help="stop a pairing after this long")
    p.add_argument("--decisions", type=int, default=0,
                   help="positions to time each --levels decision on (wall and CPU)")
    p.add_argument("--levels", default="hard,hard@stockfish,normal@stockfish")
    p.add_argument("--json", help="also write the results here")
    a = p.parse_args(argv)
    out: dict[str, Any] = {"perft": perft(a.perft), "random": random_games(a.random)}
    print(json.dumps({"perft": out["perft"], "random": out["random"]}, indent=1), flush=True)
    if a.decisions:
        out["decisions"] = decision_cost(a.levels.split(","), a.decisions, a.seed)
    out["pairs"] = []
    for pair in a.pairs:
        first, second = pair.split(",")
        r = pairing(first, second, a.games, a.seed, a.jobs, a.max_plies, a.minutes)
        out["pairs"].append(r)
        print(json.dumps(r), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
