"""Sequence AI strength: win rates between two levels over many two-team games.

Run: ``.venv/bin/python -m bench.sequence_ai --pair hard,normal --games 200 [--players 2]
[--jobs 2] [--seed 1]``. Half the games put the first level on seat 0, half on seat 1 (the
seat that moves first alternates fairly). A measurement, not a test: it takes minutes.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from typing import Any

from engine.selfplay import play


def one(args: tuple[str, str, int, int]) -> dict[str, Any]:
    first, second, players, seed = args
    t0 = time.perf_counter()
    r = play("sequence", players, None, [first, second], seed)
    o = r.outcome
    return {"seed": seed, "levels": [first, second], "winning": list(r.winning_levels()),
            "draw": bool(o is None or o.draw), "steps": len(r.match.steps),
            "seconds": time.perf_counter() - t0}


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
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    main()
