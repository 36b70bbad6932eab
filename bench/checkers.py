"""Checkers benchmarks: perft speed, random games per second, AI decision times and strength.

Run: ``.venv/bin/python -m bench.checkers [--perft 7] [--random 200] [--pairs hard,easy ...]
[--games 200] [--seed 1] [--jobs 2] [--json FILE]``.

- perft: the start position to ``--perft`` plies on the 32-bit board, with nodes per second
  (the counts are checked against the published ones);
- random: whole random games through the rules interface (step entry, views not built);
- pairs: self-play between two levels, ``--games`` per pairing, each game opened with an
  ACF three-move ballot drawn from the game seed and the colours alternated (seed ``s``
  puts the first level on dark for even ``s``), reporting wins, draws and losses of the
  first level, its score with a 95% interval, and every decision's time per level (wall
  clock: run it on a quiet machine); ``--minutes`` stops a pairing after that long and
  reports the games finished.

A measurement, not a test: the tests run small versions of it (tests/engine/checkers).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import time
from typing import Any

from bench.chess_ai import score_interval, summary
from engine.checkers import GAME, PLAYERS
from engine.checkers import board as bd
from engine.match import Match

PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740, 8: 845931,
         9: 3963680, 10: 18391564}


def perft(depth: int) -> list[dict[str, Any]]:
    out = []
    for d in range(1, depth + 1):
        t = time.perf_counter()
        n = bd.perft(bd.START_DARK, bd.START_LIGHT, 0, bd.DARK, d)
        dt = time.perf_counter() - t
        assert n == PERFT[d], (d, n)
        out.append({"depth": d, "count": n, "seconds": round(dt, 4),
                    "leaves_per_second": round(n / dt) if dt else None})
    return out


def random_games(games: int) -> dict[str, Any]:
    t = time.perf_counter()
    steps = 0
    for seed in range(games):
        m = Match.start(GAME, 2, {"ballot": seed % 2 == 1}, seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
        steps += len(m.steps)
    dt = time.perf_counter() - t
    return {"games": games, "seconds": round(dt, 2), "games_per_second": round(games / dt, 1),
            "steps_per_second": round(steps / dt)}


def one(args: tuple[str, str, int]) -> dict[str, Any]:
    """One ballot game: ``first`` on dark for an even seed, on light for an odd one."""
    first, second, seed = args
    levels = (first, second) if seed % 2 == 0 else (second, first)
    m = Match.start(GAME, 2, {"ballot": True}, seed)
    rngs = [random.Random(f"{seed}:ai:{s}") for s in range(2)]
    times: dict[str, list[float]] = {first: [], second: []}
    move_times: dict[str, list[float]] = {first: [], second: []}
    move_cpu: dict[str, list[float]] = {first: [], second: []}
    current = current_cpu = 0.0
    while m.outcome() is None:
        seat = m.to_act()[0]
        t, c = time.perf_counter(), time.process_time()
        action = PLAYERS[levels[seat]].choose(m.view(seat), m.legal(seat), rngs[seat])
        dt = time.perf_counter() - t
        times[levels[seat]].append(dt)
        current += dt
        current_cpu += time.process_time() - c
        before = m.state.moves
        m.act(seat, action)
        if m.state.moves != before or m.outcome() is not None:
            move_times[levels[seat]].append(current)  # a whole move, all its steps
            move_cpu[levels[seat]].append(current_cpu)
            current = current_cpu = 0.0
    o = m.outcome()
    assert o is not None
    result = "draw" if o.draw else ("win" if levels[o.winners[0]] == first else "loss")
    return {"seed": seed, "result": result, "reason": o.reason, "moves": m.state.moves,
            "times": times, "move_times": move_times, "move_cpu": move_cpu}


def pairing(first: str, second: str, games: int, seed: int, jobs: int,
            minutes: float | None = None) -> dict[str, Any]:
    """``games`` games, or those finished within ``minutes`` (the rest are not started)."""
    args = [(first, second, seed + i) for i in range(games)]
    t = time.perf_counter()
    results = []
    with multiprocessing.Pool(jobs) as pool:
        for r in pool.imap_unordered(one, args):
            results.append(r)
            print(json.dumps({"pair": [first, second], "seed": r["seed"],
                              "result": r["result"], "moves": r["moves"]}), flush=True)
            if minutes is not None and time.perf_counter() - t > minutes * 60:
                break  # leaving the pool's block stops the games still being played
    games = len(results)
    tally = {"win": 0, "draw": 0, "loss": 0}
    decisions: dict[str, list[float]] = {first: [], second: []}
    moves: dict[str, list[float]] = {first: [], second: []}
    cpu: dict[str, list[float]] = {first: [], second: []}
    for r in results:
        tally[r["result"]] += 1
        for lvl in (first, second):
            decisions[lvl] += r["times"][lvl]
            moves[lvl] += r["move_times"][lvl]
            cpu[lvl] += r["move_cpu"][lvl]
    mean, lo, hi = score_interval(tally["win"], tally["draw"], tally["loss"])
    return {"pair": [first, second], "games": games, "seed": seed, **tally,
            "first_score": mean, "first_score_95": [lo, hi],
            "seconds": round(time.perf_counter() - t, 1),
            "decision_time": {lvl: summary(decisions[lvl]) for lvl in (first, second)},
            "move_time": {lvl: summary(moves[lvl]) for lvl in (first, second)},
            # CPU time per whole move: what a machine busy with other work does not inflate.
            "move_cpu": {lvl: summary(cpu[lvl]) for lvl in (first, second)}}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="bench.checkers")
    p.add_argument("--perft", type=int, default=7, help="deepest perft (up to 10)")
    p.add_argument("--random", type=int, default=200, help="random games")
    p.add_argument("--pairs", nargs="*", default=["hard,easy", "hard,normal", "normal,easy"])
    p.add_argument("--games", type=int, default=200, help="games per pairing")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--minutes", type=float, help="stop a pairing after this long")
    p.add_argument("--json", help="also write the results here")
    a = p.parse_args(argv)
    out: dict[str, Any] = {"perft": perft(a.perft), "random": random_games(a.random)}
    print(json.dumps({"perft": out["perft"], "random": out["random"]}, indent=1), flush=True)
    out["pairs"] = []
    for pair in a.pairs:
        first, second = pair.split(",")
        r = pairing(first, second, a.games, a.seed, a.jobs, a.minutes)
        out["pairs"].append(r)
        print(json.dumps(r), flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
