"""``python -m bench.wizard_ai [--games N] [--players P] [--levels L,L,...] [--rounds R]``:
Wizard's computer players in self-play, and the figures docs/ai.md publishes.

One level per seat (``--levels``, as many as ``--players``; a level may repeat), the seats
rotated every game (game ``g`` puts level ``i`` in seat ``(i + g) % P``) so that no level keeps
the first lead or the first deal. Printed per level: the mean final score with a 95% interval
(normal approximation, mean +- 1.96 s / sqrt(k), k = games x seats at that level), how often it
made its bid exactly (with a 95% Wilson interval), how far off and which way, and its decision
times (p50, p95, max; bids, trump choices and cards apart), on the wall clock (what a table waits, which on
a loaded machine includes waiting for a core) and as the thread's CPU time. Then random games per second through the rules interface. Everything is
seeded (game ``g`` uses seed ``first + g``), so a run is repeatable on the same code.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from engine.ai import RandomPlayer
from engine.match import Match
from engine.wizard import GAME, PLAYERS
from engine.wizard.state import Bid, ChooseTrump


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p, z = k / n, 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[int(q * (len(s) - 1))] if s else 0.0


def play(levels: tuple[str, ...], options: dict[str, Any], seed: int,
         stats: dict[str, dict[str, list[float]]]) -> None:
    """One game; appends each level's final scores, made bids and decision times."""
    n = len(levels)
    m = Match.start(GAME, n, options, seed)
    rngs = [random.Random(seed * 31 + s) for s in range(n)]
    rounds_seen = 0
    while m.outcome() is None:
        seat = m.to_act()[0]
        view, legal = m.view(seat), m.legal(seat)
        t, c = time.perf_counter(), time.thread_time()
        a = PLAYERS[levels[seat]].choose(view, legal, rngs[seat])
        dt, dc = time.perf_counter() - t, time.thread_time() - c
        kind = "bid" if isinstance(a, Bid) else "trump" if isinstance(a, ChooseTrump) else "card"
        stats[levels[seat]].setdefault(f"t_{kind}", []).append(dt)
        stats[levels[seat]].setdefault(f"c_{kind}", []).append(dc)
        m.act(seat, a)
        m.resolve_chance()
        for line in m.state.sheet[rounds_seen:]:
            for s in range(n):
                st = stats[levels[s]]
                st.setdefault("made", []).append(float(line.bids[s] == line.taken[s]))
                st.setdefault("off", []).append(float(abs(line.bids[s] - line.taken[s])))
                st.setdefault("over", []).append(float(line.bids[s] - line.taken[s]))
        rounds_seen = len(m.state.sheet)
    o = m.outcome()
    assert o is not None
    for s in range(n):
        stats[levels[s]].setdefault("score", []).append(float(o.scores[s]))


def random_rate(players: int, seconds: float) -> tuple[float, float]:
    """Random whole games per second, by the wall clock and by the thread's CPU time (on a
    shared machine the second is the one to compare)."""
    player, n, t0, c0 = RandomPlayer(), 0, time.perf_counter(), time.thread_time()
    while time.perf_counter() - t0 < seconds:
        m = Match.start(GAME, players, {}, n)
        rng = random.Random(n)
        while m.outcome() is None:
            seat = m.to_act()[0]
            m.act(seat, player.choose(None, m.legal(seat), rng))
            m.resolve_chance()
        n += 1
    return n / (time.perf_counter() - t0), n / max(1e-9, time.thread_time() - c0)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=12)
    p.add_argument("--players", type=int, default=3, choices=GAME.info.players)
    p.add_argument("--levels", default="hard,normal,easy",
                   help="one level per seat, comma-separated (rotated every game)")
    p.add_argument("--rounds", default="full", choices=("full", "5", "10"))
    p.add_argument("--first", type=int, default=0, help="seed of the first game")
    p.add_argument("--random-seconds", type=float, default=2.0)
    p.add_argument("--json", help="write the figures to this file as well")
    a = p.parse_args(argv)
    base = tuple(x for x in a.levels.split(",") if x)
    if len(base) != a.players or any(x not in PLAYERS for x in base):
        p.error(f"--levels needs {a.players} of {', '.join(PLAYERS)}")
    stats: dict[str, dict[str, list[float]]] = {lv: {} for lv in base}
    options = {"rounds": a.rounds}
    t0 = time.perf_counter()
    for g in range(a.games):
        levels = tuple(base[(s - g) % a.players] for s in range(a.players))
        play(levels, options, a.first + g, stats)
    elapsed = time.perf_counter() - t0
    out: dict[str, Any] = {"games": a.games, "players": a.players, "levels": list(base),
                           "rounds": a.rounds, "seconds": round(elapsed, 1), "by_level": {}}
    print(f"wizard self-play: {a.games} games, {a.players} players, levels {','.join(base)} "
          f"rotated, rounds {a.rounds}, {elapsed:.0f} s")
    for lv, st in stats.items() if a.games else ():
        sc = st["score"]
        mean = statistics.fmean(sc)
        half = 1.96 * statistics.stdev(sc) / math.sqrt(len(sc)) if len(sc) > 1 else 0.0
        made, k = int(sum(st["made"])), len(st["made"])
        lo, hi = wilson(made, k)
        row: dict[str, Any] = {"mean": mean, "ci95": [mean - half, mean + half], "n": len(sc),
               "made": made, "bids": k, "made_rate": made / k, "made_ci95": [lo, hi],
               "mean_off": statistics.fmean(st["off"]),
               "mean_bid_minus_taken": statistics.fmean(st["over"])}
        for kind in ("bid", "trump", "card"):
            for clock, name in (("t", "ms"), ("c", "cpu_ms")):
                ts = [x * 1000 for x in st.get(f"{clock}_{kind}", [])]
                if ts:
                    row[f"{kind}_{name}"] = {"p50": percentile(ts, 0.5),
                                             "p95": percentile(ts, 0.95), "max": max(ts),
                                             "n": len(ts)}
        out["by_level"][lv] = row
        times = "; ".join(
            f"{kind}s {name} p50 {row[f'{kind}_{name}']['p50']:.1f} p95 "
            f"{row[f'{kind}_{name}']['p95']:.1f} max {row[f'{kind}_{name}']['max']:.1f}"
            for kind in ("bid", "trump", "card") for name in ("ms", "cpu_ms")
            if f"{kind}_{name}" in row)
        print(f"  {lv:7} mean {mean:7.1f} (95% {mean - half:6.1f}..{mean + half:6.1f}, n={len(sc)})"
              f"  made {made}/{k} = {made / k:.3f} (95% {lo:.3f}..{hi:.3f})"
              f"  off {row['mean_off']:.2f} (bid-taken {row['mean_bid_minus_taken']:+.2f})"
              f"  {times}", flush=True)
    if a.random_seconds > 0:
        wall, cpu = random_rate(a.players, a.random_seconds)
        out["random_games_per_s"] = {"wall": wall, "cpu": cpu}
        print(f"  random games per second ({a.players} players, full game): {wall:.1f} "
              f"by the wall clock, {cpu:.1f} per CPU second")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
    return out


if __name__ == "__main__":
    main()
