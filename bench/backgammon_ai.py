"""Backgammon benchmarks: random games per second, and the computer levels in self-play.

Run: ``.venv/bin/python -m bench.backgammon_ai [--games N] [--random N] [--pairs hard:normal,...]
[--options '{"mode": "money"}'] [--jobs 2] [--json FILE]`` or ``... --fit N``. Run it with
``nice -n 10`` and ``--jobs 1`` on a shared machine; 200 games a pairing take 2-3 minutes of
CPU (docs/rules/backgammon.md, "Measured").

- random: whole random games through the rules interface (money, one game, cube on);
- pairs: ``--games`` single money games per pairing (cube on, gammons on), the seats swapped
  every other game, reporting the first level's win rate and mean points per game with 95%
  intervals (normal approximation), and every decision's time per level (p50, p95, max), as
  wall clock (``_ms``) and as this process's CPU time (``_cpu_ms``: what a shared machine's
  other work does not inflate);
- fit (``--fit N``): hard's contact win estimate refitted on N cubeless normal v normal games
  (the weights to paste into ``engine/backgammon/ai.py``, with held-out log loss).

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

from engine.backgammon import GAME, PLAYERS, ai
from engine.backgammon.state import ROLL, position
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
    cpu: dict[str, list[float]] = {first: [], second: []}
    while m.outcome() is None:
        seat = m.to_act()[0]
        t, c = time.perf_counter(), time.process_time()
        action = PLAYERS[levels[seat]].choose(m.view(seat), m.legal(seat), rngs[seat])
        times[levels[seat]].append(time.perf_counter() - t)
        cpu[levels[seat]].append(time.process_time() - c)
        m.act(seat, action)
        m.resolve_chance()
    o = m.outcome()
    assert o is not None
    me = 0 if seed % 2 == 0 else 1
    return {"win": me in o.winners, "points": o.scores[me] - o.scores[1 - me], "times": times,
            "cpu": cpu}


def samples(games: int) -> list[tuple[tuple[float, ...], float]]:
    """(features, 1.0 if the seat about to roll won) at every contact turn of ``games``
    cubeless normal v normal games (seeds from 10**6, apart from the strength runs' seeds)."""
    out: list[tuple[tuple[float, ...], float]] = []
    for seed in range(10**6, 10**6 + games):
        m = Match.start(GAME, 2, {"cube": False}, seed)
        rngs = [random.Random(f"{seed}:fit:{s}") for s in range(2)]
        seen: list[tuple[tuple[float, ...], int]] = []
        while m.outcome() is None:
            if m.chance_pending():
                pos = position(m.state, m.state.turn)
                if m.state.phase == ROLL and ai.in_contact(pos):
                    seen.append((ai.features(pos), m.state.turn))
                m.resolve_chance()
                continue
            seat = m.to_act()[0]
            m.act(seat, PLAYERS["normal"].choose(m.view(seat), m.legal(seat), rngs[seat]))
        o = m.outcome()
        assert o is not None
        out += [(x, 1.0 if turn in o.winners else 0.0) for x, turn in seen]
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are 11 x 11)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: list[tuple[tuple[float, ...], float]], ridge: float = 1.0,
        rounds: int = 12) -> list[float]:
    """Logistic regression by Newton's method, with a small ridge penalty."""
    k = len(data[0][0])
    w = [0.0] * k
    for _ in range(rounds):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in data:
            p = ai.logistic(w, x)
            g, h = y - p, p * (1 - p)
            for i in range(k):
                grad[i] += g * x[i]
                hx = h * x[i]
                row = hess[i]
                for j in range(k):
                    row[j] += hx * x[j]
        for i in range(k):
            grad[i] -= ridge * w[i]
            hess[i][i] += ridge
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
    return w


def log_loss(data: list[tuple[tuple[float, ...], float]], w: list[float] | tuple[float, ...]
             ) -> float:
    total = 0.0
    for x, y in data:
        p = min(max(ai.logistic(w, x), 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(data)


def fit_report(games: int) -> dict[str, Any]:
    """Fit the weights on three quarters of the games' positions; log loss on the rest,
    against the pip lead alone and the weights in use."""
    t = time.perf_counter()
    data = samples(games)
    cut = len(data) * 3 // 4
    train, test = data[:cut], data[cut:]
    w = fit(train)
    pips_only = fit([((x[0], x[1], x[2]), y) for x, y in train])
    return {"games": games, "positions": len(data), "seconds": round(time.perf_counter() - t, 1),
            "weights": dict(zip(ai.FEATURES, (round(x, 3) for x in w), strict=True)),
            "test_log_loss": round(log_loss(test, w), 4),
            "test_log_loss_pips_only": round(log_loss([((x[0], x[1], x[2]), y)
                                                       for x, y in test], pips_only), 4),
            "test_log_loss_in_use": round(log_loss(test, ai.WEIGHTS), 4)}


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
        for kind, name in (("times", "ms"), ("cpu", "cpu_ms")):
            ts = sorted(t for r in rows for t in r[kind][level])
            out[f"{level}_{name}"] = {"p50": round(1000 * ts[len(ts) // 2], 2),
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
    ap.add_argument("--fit", type=int, default=0,
                    help="instead: fit hard's contact win estimate on this many games")
    args = ap.parse_args(argv)
    if args.fit:
        report = fit_report(args.fit)
        print("backgammon fit:", report, flush=True)
        return report
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
