"""Backgammon benchmarks: random games per second, and the computer levels in self-play.

Run: ``.venv/bin/python -m bench.backgammon_ai [--games N] [--random N] [--pairs hard:normal,...]
[--options '{"mode": "money"}'] [--jobs 2] [--json FILE]``.

- random: whole random games through the rules interface (money, one game, cube on);
- pairs: ``--games`` single money games per pairing (cube on, gammons on), the seats swapped
  every other game, reporting the first level's win rate and mean points per game with 95%
  intervals (normal approximation), and every decision's time per level (p50, p95, max: wall
  clock, run it on a quiet machine).

A measurement, not a test: the tests play a few games (tests/engine/backgammon/test_ai.py).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from typing import Any

from engine.backgammon import GAME, PLAYERS
from engine.match import Match

PAIRS = ("hard:normal", "normal:easy", "hard:easy", "easy:random")


def random_games(games: int) -> dict[str, Any]:
    t = time.perf_counter()
    steps = 0
    for seed in range(games):
        m = Match.start(GAME, 2, {}, seed)
        rng = random.Random(seed)
        while m.outcome() is None:
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()
        steps += len(m.steps)
    dt = time.perf_counter() - t
    return {"games": games, "seconds": round(dt, 2), "games_per_second": round(games / dt, 1),
            "steps_per_second": round(steps / dt)}


def one(args: tuple[str, str, int, str]) -> dict[str, Any]:
    first, second, seed, options = args
    levels = (first, second) if seed % 2 == 0 else (second, first)
    m = Match.start(GAME, 2, json.loads(options), seed)
    rngs = [random.Random(f"{seed}:ai:{s}") for s in range(2)]
    times: dict[str, list[float]] = {first: [], second: []}
    while m.outcome() is None:
        seat = m.to_act()[0]
        t = time.perf_counter()
        action = PLAYERS[levels[seat]].choose(m.view(seat), m.legal(seat), rngs[seat])
        times[levels[seat]].append(time.perf_counter() - t)
        m.act(seat, action)
        m.resolve_chance()
    o = m.outcome()
    assert o is not None
    me = 0 if seed % 2 == 0 else 1
    return {"win": me in o.winners, "points": o.scores[me] - o.scores[1 - me], "times": times}


def interval(xs: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return round(mean, 3), round(half, 3)


def pair(first: str, second: str, games: int, options: str, jobs: int) -> dict[str, Any]:
    work = [(first, second, seed, options) for seed in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            rows = pool.map(one, work, chunksize=1)
    else:
        rows = [one(w) for w in work]
    wins = [1.0 if r["win"] else 0.0 for r in rows]
    pts = [float(r["points"]) for r in rows]
    out: dict[str, Any] = {"pair": f"{first} vs {second}", "games": games,
                           "win_rate": interval(wins), "points_per_game": interval(pts)}
    for level in (first, second):
        ts = sorted(t for r in rows for t in r["times"][level])
        out[f"{level}_ms"] = {"p50": round(1000 * ts[len(ts) // 2], 2),
                              "p95": round(1000 * ts[int(len(ts) * 0.95)], 2),
                              "max": round(1000 * ts[-1], 2), "decisions": len(ts)}
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    ap = argparse.ArgumentParser(prog="python -m bench.backgammon_ai")
    ap.add_argument("--games", type=int, default=10, help="games per pairing")
    ap.add_argument("--random", type=int, default=100, help="random games to time")
    ap.add_argument("--pairs", default=",".join(PAIRS))
    ap.add_argument("--options", default="{}", help="table options as JSON")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)
    out: dict[str, Any] = {"random": random_games(args.random)}
    print("backgammon random:", out["random"], flush=True)
    out["pairs"] = []
    for p in args.pairs.split(","):
        first, second = p.split(":")
        row = pair(first, second, args.games, args.options, args.jobs)
        print("backgammon", row, flush=True)
        out["pairs"].append(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
