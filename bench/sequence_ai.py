"""Sequence AI strength: win rates between two levels over many two-team games.

Run: ``.venv/bin/python -m bench.sequence_ai --pair hard,normal --games 200 [--players 2]
[--jobs 2] [--seed 1]``. Half the games put the first level on seat 0, half on seat 1 (the
seat that moves first alternates fairly). Also reports each level's decision times in those
games (wall clock, so run it on a quiet machine). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import time
from typing import Any

from engine import ai, registry
from engine.match import Match
from engine.selfplay import seat_levels


def one(args: tuple[str, str, int, int]) -> dict[str, Any]:
    """One game, levels given to seats cyclically (as ``tablebox selfplay`` does), timed."""
    first, second, players, seed = args
    levels = seat_levels([first, second], players)
    match = Match.start(registry.get("sequence"), players, None, seed)
    bots = [ai.player("sequence", lvl) for lvl in levels]
    rngs = [random.Random(f"{seed}:ai:{s}") for s in range(players)]
    times: dict[str, list[float]] = {first: [], second: []}
    t0 = time.perf_counter()
    while match.outcome() is None:
        if not match.to_act():
            match.resolve_chance()
            continue
        seat = match.to_act()[0]
        t = time.perf_counter()
        action = bots[seat].choose(match.view(seat), match.legal(seat), rngs[seat])
        times[levels[seat]].append(time.perf_counter() - t)
        match.act(seat, action)
        match.resolve_chance()
    o = match.outcome()
    assert o is not None
    winning = sorted({levels[s] for s in o.winners})
    return {"seed": seed, "levels": [first, second], "winning": winning, "draw": o.draw,
            "steps": len(match.steps), "seconds": time.perf_counter() - t0, "times": times}


def percentiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {"decisions": len(times), "median_ms": round(statistics.median(times) * 1000, 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1000, 2),
            "max_ms": round(times[-1] * 1000, 2)}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(prog="bench.sequence_ai")
    p.add_argument("--pair", default="hard,normal", help="LEVEL_A,LEVEL_B")
    p.add_argument("--games", type=int, default=200, help="games in all (half each way round)")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    a, b = args.pair.split(",")
    half = args.games // 2
    work = [(a, b, args.players, args.seed + i) for i in range(half)]
    work += [(b, a, args.players, args.seed + i) for i in range(half)]
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        games = pool.map(one, work, chunksize=1)
    summary: dict[str, Any] = {"pair": [a, b], "players": args.players, "games": len(games)}
    for order in ((a, b), (b, a)):
        mine = [g for g in games if tuple(g["levels"]) == order]
        summary[f"{order[0]},{order[1]}"] = {
            lvl: sum(lvl in g["winning"] for g in mine) for lvl in (a, b)} | {
            "draws": sum(g["draw"] for g in mine), "games": len(mine)}
    wins_a = sum(a in g["winning"] for g in games)
    wins_b = sum(b in g["winning"] for g in games)
    summary["wins"] = {a: wins_a, b: wins_b, "draws": sum(g["draw"] for g in games)}
    summary[f"{a}_win_rate"] = round(wins_a / len(games), 3)
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    summary["decision_times"] = {
        lvl: percentiles([t for g in games for t in g["times"][lvl]]) for lvl in (a, b)}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
