"""``python -m bench.bidding_ai [--games N] [--first K] [--pairs P,...] [--game kaiser|wizard]``:
the bidding trick-takers' computer players in self-play.

Kaiser: each pair of levels (``--pairs``, default hard_v_normal,normal_v_easy,hard_v_easy)
plays games K..K+N-1, the partnerships swapping levels every game (game g gives the stronger
level seats 0 and 2 when g is even), and the win rate of the stronger level is printed with a
95% Wilson interval; then how often each level made its contract (all contracts, and those it
chose, leaving out the dealer's forced bid), each level's decision time (p95 on this machine)
and random games per second through the rules interface. ``--first`` lets a long run go in
chunks: games 0..199 then 200..399 are exactly the games of one 400-game run.
Wizard (when present): mean final score per level with a 95% interval.
The default size is small (``make bench``); the published figures use 400 games per pair.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import math
import random
import statistics
import time
from typing import Any

from engine.match import Match


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z = 1.96
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def play_kaiser(levels: tuple[str, ...], seed: int, times: dict[str, list[float]],
                made: dict[str, list[int]], chosen: dict[str, list[int]] | None = None) -> Any:
    mod = importlib.import_module("engine.kaiser")
    m = Match.start(mod.GAME, 4, {}, seed)
    rngs = [random.Random(seed * 31 + s) for s in range(4)]
    while m.outcome() is None:
        last = m.state.last
        seat = m.to_act()[0]
        view = m.view(seat)
        legal = m.legal(seat)
        t = time.perf_counter()
        a = mod.PLAYERS[levels[seat]].choose(view, legal, rngs[seat])
        if len(legal) > 1:  # a decision with a choice (a lone legal action is played at once)
            times.setdefault(levels[seat], []).append(time.perf_counter() - t)
        m.act(seat, a)
        new = m.state.last
        if new is not None and new is not last:
            made.setdefault(levels[new.bidder], []).append(int(new.made))
            # The dealer's forced bid (everyone else passed) is not a choice of the bidder.
            forced = all(b.value is None for b in m.state.bids[:3])
            if chosen is not None and not forced:
                chosen.setdefault(levels[new.bidder], []).append(int(new.made))
        m.resolve_chance()
    return m.outcome()


PAIRS = ("hard_v_normal", "normal_v_easy", "hard_v_easy")


def kaiser(games: int, first: int = 0, pairs: tuple[str, ...] = PAIRS) -> dict[str, Any]:
    out: dict[str, Any] = {}
    times: dict[str, list[float]] = {}
    made: dict[str, list[int]] = {}
    chosen: dict[str, list[int]] = {}
    for pair in pairs:
        strong, _, weak = pair.partition("_v_")
        wins = 0
        for g in range(first, first + games):
            even = g % 2 == 0
            levels = (strong, weak, strong, weak) if even else (weak, strong, weak, strong)
            o = play_kaiser(levels, 10_000 + g, times, made, chosen)
            if levels[o.winners[0]] == strong:
                wins += 1
            done = g - first + 1
            if done % 25 == 0 and done < games:  # progress of a long run
                print(f"  {strong} v {weak}: {wins}/{done}", flush=True)
        lo, hi = wilson(wins, games)
        key = f"{strong}_v_{weak}"
        out[key] = {"games": games, "first": first, "wins": wins, "rate": wins / games,
                    "ci95": (lo, hi)}
        print(f"kaiser {strong} v {weak} (games {first}..{first + games - 1}): {wins}/{games} "
              f"= {wins / games:.3f} (95% {lo:.3f}..{hi:.3f})", flush=True)
    for what, table in (("made", made), ("made_chosen", chosen)):
        for level, ms in sorted(table.items()):
            lo, hi = wilson(sum(ms), len(ms))
            out[f"{what}_{level}"] = (sum(ms), len(ms))
            label = "its contract" if what == "made" else "a contract it chose"
            print(f"kaiser {level} made {label} {sum(ms)}/{len(ms)} = "
                  f"{sum(ms) / len(ms):.3f} (95% {lo:.3f}..{hi:.3f})", flush=True)
    for level, ts in sorted(times.items()):
        ts.sort()
        p95 = ts[int(0.95 * (len(ts) - 1))] * 1000
        out[f"p95_ms_{level}"] = p95
        print(f"kaiser {level} decision p95 {p95:.1f} ms, max {ts[-1] * 1000:.1f} ms "
              f"over {len(ts)} decisions with a choice", flush=True)
    return out


def random_rate(game_id: str, players: int, seconds: float) -> float:
    mod = importlib.import_module(f"engine.{game_id}")
    n = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        m = Match.start(mod.GAME, players, {}, n)
        rng = random.Random(n)
        while m.outcome() is None:
            seat = m.to_act()[0]
            legal = m.legal(seat)
            m.act(seat, legal[rng.randrange(len(legal))])
            m.resolve_chance()
        n += 1
    rate = n / (time.perf_counter() - t0)
    print(f"{game_id} random games per second: {rate:.1f}", flush=True)
    return rate


def wizard(games: int) -> dict[str, Any]:
    try:
        mod = importlib.import_module("engine.wizard")
    except ImportError:
        return {}
    scores: dict[str, list[int]] = {}
    times: list[float] = []
    levels_cycle = ("hard", "normal", "easy", "hard", "normal", "easy")
    for g in range(games):
        n = 3
        shift = g % 3
        levels = tuple(levels_cycle[shift + i] for i in range(n))
        m = Match.start(mod.GAME, n, {}, 20_000 + g)
        rngs = [random.Random(g * 31 + s) for s in range(n)]
        while m.outcome() is None:
            seat = m.to_act()[0]
            t = time.perf_counter()
            a = mod.PLAYERS[levels[seat]].choose(m.view(seat), m.legal(seat), rngs[seat])
            if levels[seat] == "hard":
                times.append(time.perf_counter() - t)
            m.act(seat, a)
            m.resolve_chance()
        o = m.outcome()
        assert o is not None
        for s in range(n):
            scores.setdefault(levels[s], []).append(o.scores[s])
    out: dict[str, Any] = {}
    for level, sc in sorted(scores.items()):
        mean = statistics.fmean(sc)
        half = 1.96 * statistics.stdev(sc) / math.sqrt(len(sc)) if len(sc) > 1 else 0.0
        out[f"mean_{level}"] = (mean, mean - half, mean + half)
        print(f"wizard {level}: mean final score {mean:.1f} (95% {mean - half:.1f}.."
              f"{mean + half:.1f}) over {len(sc)} games", flush=True)
    if times:
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))] * 1000
        out["p95_ms_hard"] = p95
        print(f"wizard hard decision p95 {p95:.1f} ms", flush=True)
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--first", type=int, default=0, help="the first game's index (chunks)")
    p.add_argument("--pairs", default=",".join(PAIRS),
                   help="Kaiser pairings to play, strong_v_weak, comma-separated")
    p.add_argument("--game", choices=("kaiser", "wizard", "both"), default="both")
    a = p.parse_args(argv)
    out: dict[str, Any] = {}
    if a.game in ("kaiser", "both"):
        out["kaiser"] = kaiser(a.games, a.first, tuple(x for x in a.pairs.split(",") if x))
        out["kaiser_random_per_s"] = random_rate("kaiser", 4, 2.0)
    if a.game in ("wizard", "both") and importlib.util.find_spec("engine.wizard"):
        out["wizard"] = wizard(a.games)
        out["wizard_random_per_s"] = random_rate("wizard", 4, 2.0)
    return out


if __name__ == "__main__":
    main()
